/**
 * Request signing of the merchant API v2, per the HTTP Signatures draft (draft-cavage-http-signatures-12):
 * `Authorization: Signature keyId=...,algorithm=...,headers=...,signature=...` over a signing string built
 * from `(request-target)` and the listed headers, with a `Digest` of the body. Both sides live here, so the
 * client and the sandbox's API server cannot drift apart.
 */
import { createHash, sign, verify } from 'node:crypto';
import {
  type CertificateValidityErrorCode,
  certificateValidityError,
  importPrivateKey,
  importPublicKey,
} from '../keys.js';
import { type HeadersLike, headerValue } from '../raw-request.js';

/** The algorithms of the interface, spelled as it spells them on the wire (`rsa-sh512` included). */
export type HttpSignatureAlgorithm = 'rsa-sha256' | 'rsa-sha384' | 'rsa-sh512';

/** What callers may write: the wire names, plus `rsa-sha512` for the interface's `rsa-sh512`. */
export type HttpSignatureAlgorithmName = HttpSignatureAlgorithm | 'rsa-sha512';

interface AlgorithmSpec {
  hash: 'sha256' | 'sha384' | 'sha512';
  digest: 'SHA-256' | 'SHA-384' | 'SHA-512';
}

const ALGORITHMS: Record<HttpSignatureAlgorithm, AlgorithmSpec> = {
  'rsa-sha256': { hash: 'sha256', digest: 'SHA-256' },
  'rsa-sha384': { hash: 'sha384', digest: 'SHA-384' },
  'rsa-sh512': { hash: 'sha512', digest: 'SHA-512' },
};

const DIGEST_HASHES: Record<string, AlgorithmSpec['hash']> = {
  'SHA-256': 'sha256',
  'SHA-384': 'sha384',
  'SHA-512': 'sha512',
};

/** The wire name of an algorithm, or undefined when it is not one of the interface's. */
export function httpSignatureAlgorithm(name: string): HttpSignatureAlgorithm | undefined {
  const lower = name.toLowerCase();
  if (lower === 'rsa-sha512') return 'rsa-sh512';
  return Object.hasOwn(ALGORITHMS, lower) ? (lower as HttpSignatureAlgorithm) : undefined;
}

const REQUEST_TARGET = '(request-target)';

/** What a header value can carry, as fetch checks it: tab, space, visible ASCII, and Latin-1 above 0x7f. */
const HEADER_TEXT = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Whether `text` can be sent in a header. Not part of the public API: the merchant API v2 client checks its
 * certificate name and API key with it when made, since one that cannot be sent fails every call.
 */
export function isHeaderText(text: string): boolean {
  return HEADER_TEXT.test(text);
}

/** The headers signed when there is no body, and when there is one (the document's lists, in this order). */
const SIGNED_WITHOUT_BODY = [REQUEST_TARGET, 'date'] as const;
const SIGNED_WITH_BODY = [REQUEST_TARGET, 'date', 'digest', 'content-type'] as const;

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/** `SHA-256=<base64>` of the body. */
function digestHeader(body: Uint8Array, digest: AlgorithmSpec['digest']): string {
  return `${digest}=${createHash(DIGEST_HASHES[digest]!).update(body).digest('base64')}`;
}

function requestTarget(method: string, path: string): string {
  return `${method.toLowerCase()} ${path}`;
}

/** The draft's signing string: one `name: value` line per signed header, joined by newlines. */
function signingString(names: readonly string[], valueFor: (name: string) => string): string {
  return names.map((name) => `${name}: ${valueFor(name)}`).join('\n');
}

/** A request about to be sent. */
export interface HttpRequestToSign {
  method: string;
  /** The path with its query string, exactly as it goes on the request line: `/v2/merchants/m1/orders/o1`. */
  path: string;
  /** The exact body bytes sent, if any. */
  body?: string | Uint8Array;
  /** Sent and signed with a body; `application/json` when left out. */
  contentType?: string;
  /**
   * Further headers to sign, after the document's, such as our `X-Svc-Request-Id`: listed in `headers=` in
   * lower case. They are not in the returned headers; send them exactly as given here.
   */
  headers?: Readonly<Record<string, string>>;
}

/** Who signs: the merchant certificate's name in the console and its private key. */
export interface HttpSigningKey {
  keyId: string;
  privateKeyPem: string;
  /** `rsa-sha256` when left out. */
  algorithm?: HttpSignatureAlgorithmName;
}

/** The headers to send with the request. */
export interface SignedHttpHeaders {
  Date: string;
  Authorization: string;
  Digest?: string;
  'Content-Type'?: string;
}

/**
 * Signs a request: `Date` (IMF-fixdate), with a body also `Digest` and `Content-Type`, and the
 * `Authorization: Signature ...` header over `(request-target) date` or `(request-target) date digest content-type`.
 * @throws KeyFormatError when `privateKeyPem` is not a PKCS#8 or PKCS#1 RSA private key.
 * @throws TypeError for an algorithm the interface does not name, or a key id that cannot be quoted.
 */
export function signHttpRequest(
  request: HttpRequestToSign,
  key: HttpSigningKey,
  options: { now?: Date } = {},
): SignedHttpHeaders {
  const algorithmName = key.algorithm ?? 'rsa-sha256';
  const algorithm = httpSignatureAlgorithm(algorithmName);
  if (algorithm === undefined) {
    throw new TypeError(
      `Unknown signature algorithm ${JSON.stringify(algorithmName)}; use rsa-sha256, rsa-sha384 or rsa-sh512`,
    );
  }
  // The keyId is written quoted into the Authorization header.
  if (key.keyId === '' || key.keyId.includes('"') || !isHeaderText(key.keyId)) {
    throw new TypeError(
      'keyId must be the certificate name, non-empty, without quotes, and of characters a header carries (no control characters, nothing beyond Latin-1)',
    );
  }
  const spec = ALGORITHMS[algorithm];
  const headers: SignedHttpHeaders = { Date: (options.now ?? new Date()).toUTCString(), Authorization: '' };
  const hasBody = request.body !== undefined;
  if (request.body !== undefined) {
    headers.Digest = digestHeader(bytesOf(request.body), spec.digest);
    headers['Content-Type'] = request.contentType ?? 'application/json';
  }
  const extra = Object.entries(request.headers ?? {}).map(
    ([name, value]) => [name.toLowerCase(), value] as const,
  );
  for (const [name, value] of extra) {
    if (
      name === REQUEST_TARGET ||
      (SIGNED_WITH_BODY as readonly string[]).includes(name) ||
      !/^[!#$%&'*+.^`|~\w-]+$/.test(name)
    ) {
      throw new TypeError(
        `Header ${JSON.stringify(name)} cannot be signed as a further header; give a header name of your own`,
      );
    }
    if (/[\r\n]/.test(value)) throw new TypeError(`The value of header ${name} must not contain line breaks`);
  }
  const names = [...(hasBody ? SIGNED_WITH_BODY : SIGNED_WITHOUT_BODY), ...extra.map(([name]) => name)];
  const values: Record<string, string | undefined> = {
    [REQUEST_TARGET]: requestTarget(request.method, request.path),
    date: headers.Date,
    digest: headers.Digest,
    'content-type': headers['Content-Type'],
    ...Object.fromEntries(extra.map(([name, value]) => [name, value.trim()])),
  };
  const text = signingString(names, (name) => values[name]!);
  const signature = sign(spec.hash, Buffer.from(text, 'utf8'), importPrivateKey(key.privateKeyPem)).toString(
    'base64',
  );
  headers.Authorization = `Signature keyId="${key.keyId}",algorithm="${algorithm}",headers="${names.join(' ')}",signature="${signature}"`;
  return headers;
}

/** A request as received. */
export interface HttpRequestToVerify {
  method: string;
  /** The path with its query string as on the request line (Node's `req.url`). */
  path: string;
  headers: HeadersLike;
  /** The exact body bytes received; absent or empty for requests without a body. */
  rawBody?: string | Uint8Array;
}

/** Why a signed request was refused. */
export type HttpSignatureFailureCode =
  | 'missing_authorization'
  | 'malformed_authorization'
  | 'unknown_key'
  | 'unsupported_algorithm'
  | 'missing_signed_header'
  | 'digest_mismatch'
  | 'date_skew'
  | 'signature_invalid'
  /** The key is an X.509 certificate outside its validity dates at `now`; the message names them. */
  | CertificateValidityErrorCode;

/** The outcome of {@link verifyHttpSignature}. */
export type HttpSignatureVerification =
  | {
      ok: true;
      keyId: string;
      algorithm: HttpSignatureAlgorithm;
      /**
       * The signature's bytes in canonical Base64: the same for every spelling of one signature, so that a
       * receiver can refuse a request it has seen before (a replay) by this value.
       */
      signature: string;
    }
  | { ok: false; code: HttpSignatureFailureCode; message: string };

/** Options of {@link verifyHttpSignature}. */
export interface VerifyHttpSignatureOptions {
  /** The time to compare `Date` and the signer's certificate dates with; now when left out. */
  now?: Date;
  /** The largest accepted difference between `Date` and now, in seconds; 300 when left out. */
  maxSkewSeconds?: number;
  /**
   * Headers the signature must cover whenever the request carries them (lower case), such as an idempotency
   * key that must not be changed on the way: a request with one of them unsigned fails `missing_signed_header`.
   */
  signedIfPresent?: readonly string[];
}

interface SignatureParams {
  keyId: string;
  algorithm: string;
  headers: string[];
  signature: string;
}

const PARAM = /\s*([A-Za-z]+)\s*=\s*"([^"]*)"\s*(?:,|$)/y;

function parseAuthorization(value: string): SignatureParams | string {
  const match = /^Signature\s+/i.exec(value);
  if (!match) return 'the Authorization scheme is not Signature';
  const params = new Map<string, string>();
  PARAM.lastIndex = match[0].length;
  while (PARAM.lastIndex < value.length) {
    const start = PARAM.lastIndex;
    const param = PARAM.exec(value);
    if (!param)
      return `cannot read the parameters after position ${start}; write name="value" pairs separated by commas`;
    if (params.has(param[1]!)) return `${param[1]} is given twice`;
    params.set(param[1]!, param[2]!);
  }
  for (const name of ['keyId', 'algorithm', 'signature']) {
    if (!params.get(name)) return `the ${name} parameter is missing`;
  }
  return {
    keyId: params.get('keyId')!,
    algorithm: params.get('algorithm')!,
    // The draft's default when `headers` is left out is `date` alone.
    headers: (params.get('headers') ?? 'date').toLowerCase().split(/\s+/).filter(Boolean),
    signature: params.get('signature')!,
  };
}

function failure(code: HttpSignatureFailureCode, message: string): HttpSignatureVerification {
  return { ok: false, code, message };
}

/** Checks a `Digest` header against the body; any of SHA-256, SHA-384 and SHA-512 may be used. */
function checkDigest(header: string, body: Uint8Array): HttpSignatureVerification | undefined {
  const entries = header.split(',').map((entry) => {
    const at = entry.indexOf('=');
    return { name: entry.slice(0, at).trim().toUpperCase(), value: entry.slice(at + 1).trim() };
  });
  const known = entries.filter((entry) => DIGEST_HASHES[entry.name] !== undefined);
  if (known.length === 0) {
    return failure(
      'digest_mismatch',
      `Digest ${JSON.stringify(header)} uses none of SHA-256, SHA-384, SHA-512`,
    );
  }
  for (const entry of known) {
    const actual = createHash(DIGEST_HASHES[entry.name]!).update(body).digest('base64');
    if (actual !== entry.value) {
      return failure(
        'digest_mismatch',
        `The body does not match its ${entry.name} Digest: it was altered after signing`,
      );
    }
  }
  return undefined;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** `Tue, 07 Jun 2022 10:00:00 GMT` (RFC 7231's IMF-fixdate) or `... +0000` (PHP's `D, d M Y H:i:s O`). */
const SIGNED_DATE =
  /^([A-Z][a-z]{2}), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) (?:GMT|([+-])(\d{2})(\d{2}))$/;

/**
 * The instant of a signed `Date` header in milliseconds, or why it cannot be read. Two forms are taken: the
 * HTTP date (`GMT`) and the numeric zone that the real service's official client writes (`+0000`, any
 * offset). `Date.parse` is not used: it takes almost anything (`garbage 2022` is a date to it), so a
 * signature could cover text that says no time at all.
 */
function parseSignedDate(text: string): number | string {
  const match = SIGNED_DATE.exec(text);
  const problem = `Date ${JSON.stringify(text)} is not an HTTP date; send it as "Tue, 07 Jun 2022 10:00:00 GMT" or "Tue, 07 Jun 2022 10:00:00 +0000"`;
  if (!match) return problem;
  const [weekday, day, monthName = '', year, hours, minutes, seconds, sign, offsetHours, offsetMinutes] =
    match.slice(1);
  const month = (MONTHS as readonly string[]).indexOf(monthName);
  const local = Date.UTC(Number(year), month, Number(day), Number(hours), Number(minutes), Number(seconds));
  const read = new Date(local);
  // Date.UTC rolls 31 Feb over into March and 24:00 into the next day: such a date is not one.
  if (
    month === -1 ||
    read.getUTCDate() !== Number(day) ||
    read.getUTCHours() !== Number(hours) ||
    read.getUTCMinutes() !== Number(minutes) ||
    read.getUTCSeconds() !== Number(seconds) ||
    Number(offsetMinutes ?? 0) > 59
  ) {
    return problem;
  }
  if (WEEKDAYS[read.getUTCDay()] !== weekday) {
    return `Date ${JSON.stringify(text)} says ${weekday}, but ${day} ${monthName} ${year} is a ${WEEKDAYS[read.getUTCDay()]}`;
  }
  const offset = (Number(offsetHours ?? 0) * 60 + Number(offsetMinutes ?? 0)) * 60_000;
  // The wall time is `offset` ahead of UTC: 10:00 +0200 is 08:00 UTC.
  return sign === '-' ? local + offset : local - offset;
}

/**
 * Verifies an HTTP-signed request as the gateway's merchant API v2 does: the Authorization parameters, the
 * algorithm, the signer's key (looked up by `keyId`; an X.509 certificate must be within its validity dates
 * at `now`, a bare public key has none), that the required headers are signed (`(request-target)` and
 * `date`; with a body also `digest` and `content-type`), the `Date` (the HTTP date, `… GMT`, or the numeric
 * zone the real service's official client writes, `… +0000`) within `maxSkewSeconds`, the body
 * against `Digest`, and finally the signature.
 * @throws KeyFormatError when `lookupPublicKey` returns a PEM that is not an RSA public key or certificate.
 */
export function verifyHttpSignature(
  request: HttpRequestToVerify,
  lookupPublicKey: (keyId: string) => string | undefined,
  options: VerifyHttpSignatureOptions = {},
): HttpSignatureVerification {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization)
    return failure('missing_authorization', 'The request has no Authorization header; sign it');
  const params = parseAuthorization(authorization.trim());
  if (typeof params === 'string') return failure('malformed_authorization', `Authorization: ${params}`);

  const algorithm = httpSignatureAlgorithm(params.algorithm);
  if (algorithm === undefined) {
    return failure(
      'unsupported_algorithm',
      `algorithm ${JSON.stringify(params.algorithm)} is not supported; use rsa-sha256, rsa-sha384 or rsa-sh512`,
    );
  }
  const publicKeyPem = lookupPublicKey(params.keyId);
  if (publicKeyPem === undefined) {
    return failure('unknown_key', `No active certificate is named ${JSON.stringify(params.keyId)}`);
  }
  const key = importPublicKey(publicKeyPem);
  // The signer's certificate, not the verifier's set-up, is at fault: a refusal like an unknown key.
  const outdated = certificateValidityError(publicKeyPem, {
    ...(options.now !== undefined && { now: options.now }),
    name: params.keyId,
  });
  if (outdated) return failure(outdated.code, outdated.message);

  const body = request.rawBody === undefined ? new Uint8Array() : bytesOf(request.rawBody);
  const required = body.length > 0 ? SIGNED_WITH_BODY : SIGNED_WITHOUT_BODY;
  const unsigned = required.filter((name) => !params.headers.includes(name));
  if (unsigned.length > 0) {
    return failure(
      'missing_signed_header',
      `The signature must cover ${unsigned.join(', ')} (headers="${required.join(' ')}")`,
    );
  }
  const unsignedPresent = (options.signedIfPresent ?? []).filter(
    (name) =>
      headerValue(request.headers, name) !== undefined && !params.headers.includes(name.toLowerCase()),
  );
  if (unsignedPresent.length > 0) {
    return failure(
      'missing_signed_header',
      `The request carries ${unsignedPresent.join(', ')}, so the signature must cover it: list it in headers="..."`,
    );
  }
  const values = new Map<string, string>();
  for (const name of params.headers) {
    const value =
      name === REQUEST_TARGET
        ? requestTarget(request.method, request.path)
        : headerValue(request.headers, name)?.trim();
    if (value === undefined)
      return failure('missing_signed_header', `The signed header ${name} is not in the request`);
    values.set(name, value);
  }

  const date = parseSignedDate(values.get('date')!);
  if (typeof date === 'string') return failure('date_skew', date);
  const skewSeconds = Math.abs((options.now ?? new Date()).getTime() - date) / 1000;
  const maxSkewSeconds = options.maxSkewSeconds ?? 300;
  if (skewSeconds > maxSkewSeconds) {
    return failure(
      'date_skew',
      `Date is ${Math.round(skewSeconds)} s away from the server's clock (at most ${maxSkewSeconds} s); sign each request as it is sent and keep the clock in sync`,
    );
  }

  const digest = headerValue(request.headers, 'digest');
  if (digest !== undefined) {
    const problem = checkDigest(digest, body);
    if (problem) return problem;
  }

  const signature = params.signature.trim();
  const text = signingString(params.headers, (name) => values.get(name)!);
  let valid = false;
  const bytes = Buffer.from(signature, 'base64');
  if (/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    try {
      valid = verify(ALGORITHMS[algorithm].hash, Buffer.from(text, 'utf8'), key, bytes);
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    return failure(
      'signature_invalid',
      `The signature does not match the request for key ${JSON.stringify(params.keyId)}: signed with another key, or a signed part changed`,
    );
  }
  return { ok: true, keyId: params.keyId, algorithm, signature: bytes.toString('base64') };
}
