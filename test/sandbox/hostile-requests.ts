/**
 * Requests no browser or client would send, for the hostile-request tests and the bench: a raw-socket client
 * that writes the request line and headers as given, and a fixed-seed generator of malformed targets, hosts
 * and bodies built from pieces that have broken HTTP servers before (bad percent-escapes, IPv6 brackets,
 * impossible ports, `__proto__`).
 */
import { connect } from 'node:net';
import fc from 'fast-check';

/**
 * Sends `head` (request line and headers, without the blank line) and `body` to the port on 127.0.0.1; the
 * status code answered, or null when the connection closed without an answer (Node's parser refused it).
 */
export function rawRequest(port: number, head: string, body = ''): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      const length = body === '' ? '' : `Content-Length: ${Buffer.byteLength(body)}\r\n`;
      socket.end(`${head}\r\n${length}Connection: close\r\n\r\n${body}`);
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      resolve(status === undefined ? null : Number(status));
    });
  });
}

const PREFIXES = [
  '/',
  '/widget/',
  '/widget/frame/',
  '/widget-api/v1/widgets/',
  '/widget-api/v1/orders/',
  '/v2/merchants/',
  '/api/v1/purchases/',
  '/api/v1/webhooks/',
  '/checkout/',
  '/sandbox/',
  'http://',
  '//',
];
const PIECES = ['%', '%E0', '%A4%A', '%zz', '[', ']', ':', '..', '/', '?', '#', 'ā', '\u0000', 'a', '0', '-'];

/** One fuzzed request: its head (request line and Host) and body. */
export interface FuzzedRequest {
  head: string;
  body: string;
}

const segment = fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((parts) => parts.join(''));

/** Fuzzed requests; the target is percent-encoded as a client would, with the raw `%` pieces kept. */
export const fuzzedRequest: fc.Arbitrary<FuzzedRequest> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
    prefix: fc.constantFrom(...PREFIXES),
    path: fc.array(segment, { maxLength: 4 }).map((segments) => segments.join('/')),
    host: fc.constantFrom('127.0.0.1', 'a:99999', '[', '', 'x:-1', 'ā'),
    body: fc.constantFrom('', '{', '[]', 'null', '{"order":{}}', '{"__proto__":{"x":1}}', 'a=%zz'),
  })
  .map(({ method, prefix, path, host, body }) => ({
    head: `${method} ${encodeURI(`${prefix}${path}`).replace(/%25/g, '%')} HTTP/1.1\r\nHost: ${host}`,
    body,
  }));

/** The seed of the suite's run, so a failure reproduces. */
export const FUZZ_SEED = 20261124;

/** Sends `count` fuzzed requests (seed {@link FUZZ_SEED}) one after another; what each was answered. */
export async function sendFuzzedRequests(
  port: number,
  count: number,
): Promise<Array<{ request: FuzzedRequest; status: number | null }>> {
  const requests = fc.sample(fuzzedRequest, { seed: FUZZ_SEED, numRuns: count });
  const answers: Array<{ request: FuzzedRequest; status: number | null }> = [];
  for (const request of requests)
    answers.push({ request, status: await rawRequest(port, request.head, request.body) });
  return answers;
}
