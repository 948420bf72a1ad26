/**
 * Errors of the sandbox's v1 interface, answered in the document's error shape: an object keyed by a field
 * name or `__all__`, each value one `{message, code}` or an array of them.
 */
import type { ServerResponse } from 'node:http';
import {
  V1_NON_FIELD_KEY,
  type V1ErrorBody,
  type V1ErrorCode,
  type V1ErrorDetail,
} from '../../core/v1-types.js';
import { sendJson } from '../http.js';

/** One problem, before it is grouped by field. */
export interface V1Issue {
  /** A field path such as `purchase.products[0].price`, or `__all__`. */
  field: string;
  code: V1ErrorCode;
  message: string;
}

/** A v1 error answer: its HTTP status, its body and any extra headers (`Retry-After`, `WWW-Authenticate`). */
export class V1HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: V1ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(firstMessage(body));
  }

  /** An error that belongs to no single field. */
  static nonField(
    status: number,
    code: V1ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ): V1HttpError {
    return new V1HttpError(status, { [V1_NON_FIELD_KEY]: { message, code } }, headers);
  }

  /** A 400 listing `issues`: a field with one problem gets one object, a field with several an array. */
  static invalid(issues: readonly V1Issue[]): V1HttpError {
    return new V1HttpError(400, groupIssues(issues));
  }
}

/** Groups issues by field, in the order the fields first appear. */
function groupIssues(issues: readonly V1Issue[]): V1ErrorBody {
  const byField = new Map<string, V1ErrorDetail[]>();
  for (const issue of issues) {
    const list = byField.get(issue.field) ?? [];
    list.push({ message: issue.message, code: issue.code });
    byField.set(issue.field, list);
  }
  const body: V1ErrorBody = {};
  for (const [field, details] of byField) body[field] = details.length === 1 ? details[0]! : details;
  return body;
}

function firstMessage(body: V1ErrorBody): string {
  const first = Object.values(body)[0];
  return (Array.isArray(first) ? first[0]?.message : first?.message) ?? 'v1 error';
}

export function sendV1Error(res: ServerResponse, error: V1HttpError): void {
  sendJson(res, error.status, error.body, error.headers);
}
