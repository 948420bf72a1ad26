/**
 * The raw bytes and headers of an incoming request, whichever way the merchant's framework hands it over:
 * Node's `IncomingMessage`, a fetch `Request`, or a body some framework already buffered. Signatures cover
 * the exact bytes sent, so nothing here parses or re-encodes the body.
 */
import type { IncomingMessage } from 'node:http';
import { SvcError } from '../core/errors.js';

/** Headers as Node (lower-case keys, repeated headers as arrays), a plain object, or fetch `Headers`. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/** A request whose raw body a framework has already read (for example Express with `express.raw()`). */
export interface BufferedRequest {
  rawBody: string | Uint8Array;
  headers: HeadersLike;
}

/** Every request shape the verifying functions take. */
export type IncomingRequest = IncomingMessage | Request | BufferedRequest;

/** Why a body could not be read. */
export type RequestBodyErrorCode = 'body_too_large' | 'body_unavailable';

/** A body that could not be read: too large, already consumed by a body parser, or cut off. */
export class RequestBodyError extends SvcError<RequestBodyErrorCode> {}

/** Callbacks are small JSON documents; 1 MiB leaves plenty of room while bounding memory per request. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/**
 * One header's value, looked up without regard to case. Repeated values are joined with `, ` as fetch
 * `Headers` does, so a signature header sent twice never verifies.
 */
export function headerValue(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  const lower = name.toLowerCase();
  let value = record[lower];
  if (value === undefined) {
    const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === lower);
    value = key === undefined ? undefined : record[key];
  }
  return Array.isArray(value) ? value.join(', ') : value;
}

function isBufferedRequest(request: IncomingRequest): request is BufferedRequest {
  const rawBody = (request as { rawBody?: unknown }).rawBody;
  return typeof rawBody === 'string' || rawBody instanceof Uint8Array;
}

/** A fetch `Request`, including look-alikes from other realms or polyfills that instanceof would miss. */
function isFetchRequest(request: IncomingRequest): request is Request {
  if (typeof Request !== 'undefined' && request instanceof Request) return true;
  return (
    typeof (request as Request).arrayBuffer === 'function' &&
    typeof (request as Request).bodyUsed === 'boolean'
  );
}

/**
 * Whether `value` is one of the request shapes the readers take: headers, and a raw body, a fetch body or
 * Node's stream events. Anything else would fail deep inside the reading as a TypeError.
 */
export function isIncomingRequest(value: unknown): value is IncomingRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { headers, on } = value as { headers?: unknown; on?: unknown };
  if (typeof headers !== 'object' || headers === null) return false;
  const request = value as IncomingRequest;
  return isBufferedRequest(request) || isFetchRequest(request) || typeof on === 'function';
}

/** The headers of any accepted request shape. */
export function requestHeaders(request: IncomingRequest): HeadersLike {
  return request.headers as HeadersLike;
}

function tooLarge(size: number, maxBytes: number): RequestBodyError {
  return new RequestBodyError(
    'body_too_large',
    `The request body has ${size} bytes or more, above the limit of ${maxBytes}; raise maxBodyBytes if this is expected`,
  );
}

/**
 * Node's request body, read to the end. A request whose stream was already consumed is still served when
 * the framework kept the raw bytes (`req.rawBody`, or `req.body` as a Buffer or string from
 * `express.raw()` / `express.text()`); a body parsed into an object cannot be verified.
 */
export function readNodeBody(request: IncomingMessage, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  const kept = (request as { body?: unknown }).body;
  if (request.readableEnded || request.destroyed) {
    if (kept instanceof Uint8Array)
      return Promise.resolve(Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength));
    if (typeof kept === 'string') return Promise.resolve(Buffer.from(kept, 'utf8'));
    return Promise.reject(
      new RequestBodyError(
        'body_unavailable',
        'The request body was already read (by a body parser such as express.json()), and the signature covers the raw ' +
          'bytes: mount express.raw({ type: "*/*" }) on this route instead, or pass { rawBody, headers }',
      ),
    );
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return Promise.reject(tooLarge(declared, maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
      request.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        // Keep draining so the connection can still carry the error response.
        request.resume();
        reject(tooLarge(size, maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(
        new RequestBodyError('body_unavailable', `The request body could not be read: ${error.message}`, {
          cause: error,
        }),
      );
    };
    const onAborted = () =>
      onError(new Error('the client closed the connection before sending the whole body'));
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
    request.on('aborted', onAborted);
  });
}

/** A fetch `Request`'s body, read to the end within the limit. */
export async function readFetchBody(request: Request, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  if (request.bodyUsed) {
    throw new RequestBodyError(
      'body_unavailable',
      'The request body was already read (request.json() or request.text() was called); the signature covers the raw ' +
        'bytes, so pass the request before reading it, or pass { rawBody, headers }',
    );
  }
  if (request.body === null) return Buffer.alloc(0);
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(declared, maxBytes);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(size, maxBytes);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof RequestBodyError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new RequestBodyError('body_unavailable', `The request body could not be read: ${reason}`, {
      cause: error,
    });
  }
  return Buffer.concat(chunks, size);
}

/** The raw body of any accepted request shape. */
export function readRawBody(request: IncomingRequest, maxBytes = DEFAULT_MAX_BODY_BYTES): Promise<Buffer> {
  if (isBufferedRequest(request)) {
    const { rawBody } = request;
    const bytes =
      typeof rawBody === 'string'
        ? Buffer.from(rawBody, 'utf8')
        : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
    return bytes.length > maxBytes
      ? Promise.reject(tooLarge(bytes.length, maxBytes))
      : Promise.resolve(bytes);
  }
  if (isFetchRequest(request)) return readFetchBody(request, maxBytes);
  return readNodeBody(request, maxBytes);
}
