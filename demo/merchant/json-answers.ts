/**
 * The answers the demo merchant's own routes give, legacy and v1 alike: JSON that is never cached, the 405 of
 * a wrong method, and the status of a delivery whose signature did not check out.
 */
import type { SignatureVerificationError } from 'svc-checkout/server';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function methodNotAllowed(allowed: string): Response {
  return json(405, { error: 'method_not_allowed', message: `Use ${allowed}` }, { allow: allowed });
}

/** 401 for a signature that is missing or wrong, 413 for a body too large, 400 for one the route cannot read. */
export function refusalStatus(error: SignatureVerificationError): number {
  if (error.code === 'signature_missing' || error.code === 'signature_invalid') return 401;
  if (error.code === 'body_too_large') return 413;
  return 400;
}
