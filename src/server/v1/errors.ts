/**
 * The one error every v1 client call rejects with. The gateway's error bodies come in two shapes (a field's
 * problem as one `{message, code}` or as an array of them, keyed by field name or `__all__`); callers get
 * them as one flat list of `{field, message, code}` whichever shape arrived.
 */
import { SvcError } from '../../core/errors.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { V1ErrorCode } from '../../core/v1-types.js';

/** Why a v1 call failed: one code per kind of failure a caller handles differently. */
export type V1ApiErrorCode =
  /** Refused before sending: an argument is missing or malformed (the message names it). */
  | 'invalid_request'
  /** 400: the gateway refused the request's content; {@link V1ApiError.errors} says which fields and why. */
  | 'bad_request'
  /** 401: the secret key is missing or not valid. */
  | 'unauthorized'
  /** 403: the key is valid but may not do this. */
  | 'forbidden'
  /** 404: no such object (or it belongs to another account). */
  | 'not_found'
  /** 429: called more often than the gateway allows; {@link V1ApiError.retryAfterMs} says when to try again. */
  | 'rate_limited'
  /** 5xx (including 501 for an endpoint the sandbox does not serve yet). */
  | 'server_error'
  /** Any other non-2xx status, redirects included: they are not followed, so the key goes nowhere else. */
  | 'unexpected_status'
  /** No answer: connection refused or reset, DNS, TLS. */
  | 'network_error'
  /** No answer within the client's `timeoutMs`. */
  | 'timeout'
  /** The caller's `signal` aborted the call. */
  | 'aborted'
  /** A 2xx answer that is not what the endpoint returns. */
  | 'invalid_response';

/** One problem the gateway named: the field it belongs to (`__all__` for none), its text and its code. */
export interface V1FieldError {
  /** The field name or path as the gateway keys it (`brand_id`, `purchase.products[0].price`), or `__all__`. */
  field: string;
  message: string;
  /** The gateway's code, such as `required`, `invalid` or `purchase_cancel_error`; the list is open. */
  code: V1ErrorCode | (string & {});
}

/** What a {@link V1ApiError} carries beside its code and message. */
export interface V1ApiErrorDetails {
  status?: number;
  errors?: readonly V1FieldError[];
  retryAfterMs?: number;
  body?: unknown;
  cause?: unknown;
}

/**
 * A failed v1 call. Switch on `code`; read `errors` for what the gateway said, field by field.
 *
 * @example
 * ```ts
 * try {
 *   await v1.purchases.create(body);
 * } catch (error) {
 *   if (error instanceof V1ApiError && error.code === 'bad_request') {
 *     for (const { field, message } of error.errors) form.showError(field, message);
 *   } else throw error;
 * }
 * ```
 */
export class V1ApiError extends SvcError<V1ApiErrorCode> {
  /** The HTTP status; absent when no answer came (`network_error`, `timeout`, `aborted`, `invalid_request`). */
  readonly status: number | undefined;
  /**
   * Every problem the error body named, in the order the gateway listed them; empty when it named none.
   * The body's two shapes (one object or an array per field) and nested fields all end up here.
   */
  readonly errors: readonly V1FieldError[];
  /** For `rate_limited`: how long to wait before calling again, from `Retry-After`, in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** The parsed error body (or its text) as the gateway sent it. */
  readonly body: unknown;

  constructor(code: V1ApiErrorCode, message: string, details: V1ApiErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.status = details.status;
    this.errors = details.errors ?? [];
    this.retryAfterMs = details.retryAfterMs;
    this.body = details.body;
  }

  /** The problems named for `field` (use `__all__` for those of no single field). */
  errorsFor(field: string): V1FieldError[] {
    return this.errors.filter((error) => error.field === field);
  }
}

/** The error code for an HTTP status that is not 2xx. */
export function v1ErrorCodeForStatus(status: number): V1ApiErrorCode {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'unexpected_status';
}

function isDetail(value: unknown): value is { message: string; code?: unknown } {
  return isPlainObject(value) && typeof value['message'] === 'string';
}

/** `purchase` + `products` = `purchase.products`; an index is written `[0]`, as in `purchase.products[0].price`. */
function childPath(parent: string, key: string | number): string {
  return typeof key === 'number' ? `${parent}[${key}]` : `${parent}.${key}`;
}

function collect(value: unknown, field: string, into: V1FieldError[]): void {
  if (isDetail(value)) {
    const code = typeof value.code === 'string' && value.code !== '' ? value.code : 'invalid';
    into.push({ field, message: value.message, code });
  } else if (typeof value === 'string') {
    // Some frameworks list bare messages; keep them rather than drop what the gateway said.
    into.push({ field, message: value, code: 'invalid' });
  } else if (Array.isArray(value)) {
    // An array of problems of this field, or (for nested lists such as products) one entry per element.
    const listsProblems = value.every((entry) => isDetail(entry) || typeof entry === 'string');
    value.forEach((entry, index) => {
      collect(entry, listsProblems ? field : childPath(field, index), into);
    });
  } else if (isPlainObject(value)) {
    for (const [key, nested] of Object.entries(value)) collect(nested, childPath(field, key), into);
  }
}

/**
 * The problems of a v1 error body as one flat list. Reads both documented shapes, `{field: {message, code}}`
 * and `{field: [{message, code}, ...]}`, and, so that nothing the gateway says is lost, nested objects
 * (`{purchase: {currency: ...}}` becomes field `purchase.currency`) and bare message strings (code `invalid`).
 * @returns an empty list when the body is not an object or names no problem.
 */
export function normalizeV1ErrorBody(body: unknown): V1FieldError[] {
  const errors: V1FieldError[] = [];
  if (isPlainObject(body)) {
    for (const [field, value] of Object.entries(body)) collect(value, field, errors);
  }
  return errors;
}

/**
 * `Retry-After` in milliseconds: delta seconds or an HTTP date.
 * @returns undefined when the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
