/**
 * How the demo merchant's own JSON routes (the v1 back office, the subscription plan) read a POST's body and
 * refuse what they cannot take: a `Refusal` is answered with its status and its body.
 */

/** A request the route cannot take, answered with its status. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: { error: string; message: string; [member: string]: unknown },
  ) {
    super(body.message);
  }
}

export const refusal = (status: number, error: string, message: string) =>
  new Refusal(status, { error, message });

/**
 * Reads a POST's JSON object, which has no member but `members`.
 * @throws Refusal naming what is wrong with it.
 */
export async function readBody(
  request: Request,
  members: readonly string[],
): Promise<Record<string, unknown>> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw refusal(415, 'unsupported_media_type', 'Send the request as JSON (content-type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw refusal(400, 'malformed_body', 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refusal(
      400,
      'invalid_request',
      `The body must be a JSON object, such as {${members.map((member) => `"${member}": …`).join(', ')}}`,
    );
  }
  const unknown = Object.keys(body).find((member) => !members.includes(member));
  if (unknown !== undefined) {
    throw refusal(
      400,
      'invalid_request',
      `${JSON.stringify(unknown)} is not a member of this request; it takes ${members.join(', ')}`,
    );
  }
  return body as Record<string, unknown>;
}
