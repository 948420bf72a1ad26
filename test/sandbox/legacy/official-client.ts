/**
 * Requests to merchant API v2 written by hand as the real service's official PHP client
 * (`klix-app/merchant-api-php`) builds them, from what its code shows: no code of it is used. Signatures are
 * made by jsrsasign alone, never by the toolkit.
 * - Its HTTP signer (2020, merchant API v2): `date` as PHP's `D, d M Y H:i:s O` in GMT, so `+0000`;
 *   `Content-Type: application/json`; `Digest: SHA-256=<Base64>`; `Authorization: Signature keyId="<the
 *   certificate's name>",algorithm="rsa-sha256",headers="(request-target) date content-type digest",
 *   signature="…"`; `Accept` and `User-Agent`, and no API key or key id header. A refund's body is
 *   `{amount, reason, note}`, unwrapped.
 * - Its approval and rejection (`PUT` / `DELETE /merchants/{merchantId}/orders/{orderId}`): no HTTP
 *   signature, but the body is a JWS (RS256, header `{"typ":"JWT","alg":"RS256","kid":"<the certificate's
 *   name>"}`) of the order, or of `{reasonCode}`, signed with the merchant's key; the API key beside it.
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import jsrsasign from 'jsrsasign';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const two = (value: number) => String(value).padStart(2, '0');

/** PHP's `date('D, d M Y H:i:s O')` of `at` in the zone `offsetMinutes` east of UTC: `+0000` for GMT. */
export function phpDate(at: Date, offsetMinutes = 0): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(offsetMinutes);
  return (
    `${WEEKDAYS[local.getUTCDay()]}, ${two(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]} ` +
    `${local.getUTCFullYear()} ${two(local.getUTCHours())}:${two(local.getUTCMinutes())}:` +
    `${two(local.getUTCSeconds())} ${sign}${two(Math.floor(offset / 60))}${two(offset % 60)}`
  );
}

/** Base64 SHA256withRSA of a UTF-8 string, by jsrsasign. */
export function jsrsasignSign(text: string, privateKeyPem: string): string {
  const signature = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
  signature.init(privateKeyPem);
  signature.updateString(text);
  return Buffer.from(signature.sign(), 'hex').toString('base64');
}

/** `SHA-256=<Base64>` of the body, the algorithm name spelled as given. */
export function digestOf(body: string, name = 'SHA-256'): string {
  return `${name}=${createHash('sha256').update(body, 'utf8').digest('base64')}`;
}

/** What {@link signedHead} signs. */
export interface HandSigned {
  method: string;
  path: string;
  body?: string;
  /** The `date` header; {@link phpDate} of now when left out, as the official client writes it. */
  date?: string;
  /** The whole `Digest` header value; `SHA-256=` of the body when left out. */
  digest?: string;
  keyId: string;
  privateKeyPem: string;
  /** Header lines written before the signed ones, such as `X-Svc-Api-Key: …`. */
  before?: string[];
}

/**
 * The head of a raw HTTP request (request line and header lines, as `rawRequest` takes it), signed as the
 * official client signs: `(request-target) date`, with a body also `content-type digest`, in that order.
 */
export function signedHead(port: number, request: HandSigned): string {
  const { method, path, body } = request;
  const date = request.date ?? phpDate(new Date());
  const lines = [
    `${method} ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    ...(request.before ?? []),
    'Accept: application/json',
    'User-Agent: merchant-api-php/2.x.x',
    `date: ${date}`,
  ];
  const covered = [`(request-target): ${method.toLowerCase()} ${path}`, `date: ${date}`];
  let names = '(request-target) date';
  if (body !== undefined) {
    const digest = request.digest ?? digestOf(body);
    lines.push('Content-Type: application/json', `Digest: ${digest}`);
    covered.push('content-type: application/json', `digest: ${digest}`);
    names += ' content-type digest';
  }
  const signature = jsrsasignSign(covered.join('\n'), request.privateKeyPem);
  lines.push(
    `Authorization: Signature keyId="${request.keyId}",algorithm="rsa-sha256",headers="${names}",signature="${signature}"`,
  );
  return lines.join('\r\n');
}

/** A compact JWS as the official client's `Signature::sign` makes it (firebase/php-jwt), by jsrsasign. */
export function officialJws(payload: object, kid: string, privateKeyPem: string): string {
  return jsrsasign.KJUR.jws.JWS.sign(
    null,
    JSON.stringify({ typ: 'JWT', alg: 'RS256', kid }),
    JSON.stringify(payload),
    privateKeyPem,
  );
}

/** The protected header and payload of a compact JWS, as JSON text. */
export function jwsParts(token: string): { header: string; payload: string } {
  const [header, payload] = token.split('.').map((part) => Buffer.from(part, 'base64url').toString('utf8'));
  return { header: header!, payload: payload! };
}

/**
 * Sends a head written by hand and a body over a raw socket (header names and order as written, which
 * fetch would change), and reads the answer's status and JSON body.
 */
export function rawExchange(
  port: number,
  head: string,
  body = '',
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
      socket.end(`${head}\r\n${length}Connection: close\r\n\r\n${body}`);
    });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const answer = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      if (status === undefined) return reject(new Error(`no HTTP answer: ${JSON.stringify(answer)}`));
      const text = answer.slice(answer.indexOf('\r\n\r\n') + 4);
      resolve({ status: Number(status), body: text ? (JSON.parse(text) as Record<string, unknown>) : {} });
    });
  });
}
