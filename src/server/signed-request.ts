/**
 * The one check every signed callback from the gateway goes through: a Base64 SHA256withRSA signature in a
 * header over the raw request body. Legacy callbacks carry it in `X-Svc-Signature`, v1 callbacks in
 * `X-Signature`; both call {@link verifySignedRequest}. Nothing reads the body's content before it passes.
 */
import { SvcError } from '../core/errors.js';
import { importPublicKey } from './keys.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  headerValue,
  type IncomingRequest,
  isIncomingRequest,
  RequestBodyError,
  type RequestBodyErrorCode,
  readRawBody,
  requestHeaders,
} from './raw-request.js';
import { verifySignature } from './signatures.js';

/** The header that carries the signature of legacy (widget) callbacks. */
export const SVC_SIGNATURE_HEADER = 'X-Svc-Signature';

/** Why a signed request was refused. */
export type SignatureVerificationErrorCode =
  /** The signature header is absent or empty. */
  | 'signature_missing'
  /** The signature does not match the body and key: forged, altered, or signed with another key. */
  | 'signature_invalid'
  /** The signature matched, but the body is not what this callback carries. */
  | 'malformed_body'
  /** The signature matched, but the body is another merchant's: its Purchase names another brand. */
  | 'brand_mismatch'
  /** What was given is no request: not an `IncomingMessage`, a fetch `Request` or `{ rawBody, headers }`. */
  | 'not_a_request'
  | RequestBodyErrorCode;

/**
 * A signed request that cannot be trusted or used. Answer 401 for `signature_*` codes, 413 for
 * `body_too_large`, 400 otherwise; `not_a_request` and `body_unavailable` are the receiver's own mistakes.
 */
export class SignatureVerificationError extends SvcError<SignatureVerificationErrorCode> {}

/**
 * The HTTP status a receiver answers a refused request with: 401 for a missing or wrong signature, 413 for a
 * body over the limit, 400 for a signed body that is not for this receiver, and 500 for the receiver's own
 * mistakes (a body a parser already consumed, no request given), which the gateway retries once they are fixed.
 */
export function refusalStatus(error: SignatureVerificationError): 400 | 401 | 413 | 500 {
  switch (error.code) {
    case 'signature_missing':
    case 'signature_invalid':
      return 401;
    case 'body_too_large':
      return 413;
    case 'malformed_body':
    case 'brand_mismatch':
      return 400;
    case 'body_unavailable':
    case 'not_a_request':
      return 500;
  }
}

/** Options of {@link verifySignedRequest}. */
export interface VerifySignedRequestOptions {
  /** The signature header's name; `X-Svc-Signature` when left out. */
  header?: string;
  /** The largest body read, in bytes; 1 MiB when left out. */
  maxBodyBytes?: number;
}

/**
 * Reads the raw body of a request and checks its signature header against the gateway's public key or
 * certificate.
 * @returns the verified raw body bytes.
 * @throws SignatureVerificationError when the signature is missing or wrong, or the body cannot be read.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM (checked before any read).
 */
export async function verifySignedRequest(
  request: IncomingRequest,
  publicKeyOrCertificatePem: string,
  options: VerifySignedRequestOptions = {},
): Promise<Buffer> {
  importPublicKey(publicKeyOrCertificatePem);
  checkRequestShape(request);
  const header = options.header ?? SVC_SIGNATURE_HEADER;
  const value: unknown = headerValue(requestHeaders(request), header);
  // A header record built by hand may hold anything; only text can be a signature.
  const signature = typeof value === 'string' ? value.trim() : undefined;
  if (!signature) {
    throw new SignatureVerificationError(
      'signature_missing',
      `The request has no ${header} header; only requests signed by the gateway are accepted`,
    );
  }
  let rawBody: Buffer;
  try {
    rawBody = await readRawBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof RequestBodyError)
      throw new SignatureVerificationError(error.code, error.message, { cause: error });
    throw error;
  }
  if (!verifySignature(rawBody, signature, publicKeyOrCertificatePem)) {
    throw new SignatureVerificationError(
      'signature_invalid',
      `The ${header} signature does not match the body: the body was altered, or it was signed with a key other than ` +
        'the one given (check that you pass the gateway public key or certificate of this environment)',
    );
  }
  return rawBody;
}

/** Refuses, with a typed error, what would otherwise fail as a TypeError deep inside the reading. */
function checkRequestShape(request: unknown): asserts request is IncomingRequest {
  if (!isIncomingRequest(request)) {
    throw new SignatureVerificationError(
      'not_a_request',
      `Expected the incoming request (Node's IncomingMessage, a fetch Request, or { rawBody, headers } with the raw ` +
        `body as a string or bytes), got ${request === null ? 'null' : typeof request === 'object' ? 'an object without them' : typeof request}`,
    );
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A verified body read as a JSON object.
 * @throws SignatureVerificationError `malformed_body` when it is not UTF-8 JSON holding an object.
 */
export function parseJsonObject(rawBody: Uint8Array, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(utf8.decode(rawBody));
  } catch (error) {
    throw new SignatureVerificationError('malformed_body', `The ${what} body is not UTF-8 JSON`, {
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SignatureVerificationError('malformed_body', `The ${what} body is not a JSON object`);
  }
  return value as Record<string, unknown>;
}
