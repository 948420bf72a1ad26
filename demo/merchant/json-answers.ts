/**
 * The answers the demo merchant's own routes give, legacy and v1 alike: JSON that is never cached, the 405 of
 * a wrong method.
 */
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function methodNotAllowed(allowed: string): Response {
  return json(405, { error: 'method_not_allowed', message: `Use ${allowed}` }, { allow: allowed });
}
