/**
 * The token a CALLBACK widget's order verification URL receives: a compact JWS (RS256, signed by the
 * gateway) whose payload names the order. The real service writes the header `{"kid": "…", "alg": "RS256"}`
 * (`kid`: the name of the gateway certificate that verifies it) and the payload `{orderId, externalOrderId}`,
 * without `iat`. jsrsasign handles the JWS; the key PEM is read by node:crypto first so every PEM kind
 * {@link importPublicKey} takes works here too.
 */
import jsrsasign from 'jsrsasign';
import type { OrderVerificationPayload } from '../../core/legacy-callbacks.js';
import { isPlainObject } from '../../core/plain-object.js';
import { BoundedCache } from '../bounded-cache.js';
import { checkCertificateValidity, importPrivateKey, importPublicKey } from '../keys.js';
import { SignatureVerificationError } from '../signed-request.js';

export type { OrderVerificationPayload };

const { KJUR, KEYUTIL, RSAKey } = jsrsasign;

/** The only algorithm taken: accepting others would let a token choose how it is checked. */
const ALGORITHM = 'RS256';
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Allowed difference between the gateway's clock and ours when checking `iat`, `nbf` and `exp`. */
const CLOCK_TOLERANCE_SECONDS = 300;
/** The registered time claims: checked when present, and then they must be numbers. */
const TIME_CLAIMS = ['iat', 'nbf', 'exp'] as const;

const verifyingKeys = new BoundedCache<string, jsrsasign.RSAKey>(16);

function verifyingKey(pem: string): jsrsasign.RSAKey {
  return verifyingKeys.getOrCreate(pem, () => {
    const spki = importPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();
    const key = KEYUTIL.getKey(spki);
    if (!(key instanceof RSAKey)) throw new TypeError('jsrsasign did not read the RSA public key');
    return key;
  });
}

/** A JSON object read from one Base64url part of a compact JWS; undefined when it is not one. */
function jsonPart(part: string | undefined): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `text` has the form of a compact JWS (three Base64url parts), before anything is checked. */
export function isCompactJws(text: string): boolean {
  return COMPACT_JWS.test(text);
}

/** The protected header of a compact JWS, unverified (to find its key by `kid`); undefined when unreadable. */
export function jwsHeader(token: string): Record<string, unknown> | undefined {
  return isCompactJws(token) ? jsonPart(token.split('.')[0]) : undefined;
}

/**
 * The payload of an RS256 compact JWS whose signature verifies with the key, and whose `exp`, `nbf` and `iat`,
 * those present, hold at `now` (5 minutes of clock skew allowed); undefined otherwise, and when the payload
 * is not a JSON object. RS256 only. Not part of the public API: the sandbox reads merchants' JWS bodies with it.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 */
export function verifyRs256Jws(
  jws: string,
  publicKeyOrCertificatePem: string,
  now: Date = new Date(),
): Record<string, unknown> | undefined {
  const payload = signedPayload(jws, publicKeyOrCertificatePem, now);
  // A time claim that is no number cannot be honoured (jsrsasign skips it): the JWS is refused, not timeless.
  return payload === undefined || badTimeClaim(payload) !== undefined ? undefined : payload;
}

/** The first of `iat`, `nbf` and `exp` that is present and no number; jsrsasign checks only numbers. */
function badTimeClaim(fields: Record<string, unknown>): string | undefined {
  return TIME_CLAIMS.find((name) => fields[name] !== undefined && typeof fields[name] !== 'number');
}

/** {@link verifyRs256Jws} without the check that its time claims are numbers. */
function signedPayload(
  jws: string,
  publicKeyOrCertificatePem: string,
  now: Date = new Date(),
): Record<string, unknown> | undefined {
  const key = verifyingKey(publicKeyOrCertificatePem);
  const token = typeof jws === 'string' ? jws.trim() : '';
  if (!isCompactJws(token)) return undefined;
  try {
    const valid = KJUR.jws.JWS.verifyJWT(token, key, {
      alg: [ALGORITHM],
      verifyAt: Math.floor(now.getTime() / 1000),
      gracePeriod: CLOCK_TOLERANCE_SECONDS,
    });
    return valid ? jsonPart(token.split('.')[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Options of {@link verifyOrderVerificationToken}. */
export interface VerifyOrderVerificationTokenOptions {
  /** The time to check `iat`, `nbf` and `exp` against, those the token carries; now when left out. */
  now?: Date;
}

/**
 * Verifies the gateway's order verification token (RS256 only) and reads its payload. The header's `kid`
 * is not needed: the key given decides. `iat`, `nbf` and `exp` are checked when the token carries them (the
 * real service's carry none).
 * @throws SignatureVerificationError `signature_invalid` when the token is garbled, not RS256, signed with
 *   another key, or outside its validity; `malformed_body` when a valid token lacks `orderId`, or carries a
 *   non-string `externalOrderId` or a non-numeric time claim.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 * @throws CertificateValidityError when the key is an X.509 certificate outside its validity at `options.now`.
 */
export function verifyOrderVerificationToken(
  jws: string,
  publicKeyOrCertificatePem: string,
  options: VerifyOrderVerificationTokenOptions = {},
): OrderVerificationPayload {
  verifyingKey(publicKeyOrCertificatePem);
  checkCertificateValidity(publicKeyOrCertificatePem, options);
  const fields = signedPayload(jws, publicKeyOrCertificatePem, options.now);
  if (fields === undefined) {
    throw new SignatureVerificationError(
      'signature_invalid',
      'The order verification token is not a valid RS256 JWS signed with the given gateway key (or it has expired)',
    );
  }
  const externalOrderId = fields['externalOrderId'] ?? null;
  if (typeof fields['orderId'] !== 'string' || fields['orderId'] === '') {
    throw new SignatureVerificationError('malformed_body', 'The order verification token has no orderId');
  }
  if (externalOrderId !== null && typeof externalOrderId !== 'string') {
    throw new SignatureVerificationError(
      'malformed_body',
      'The order verification token has a non-string externalOrderId',
    );
  }
  // jsrsasign skips a time claim that is not a number; such a claim cannot be honoured, so it is refused.
  const badClaim = badTimeClaim(fields);
  if (badClaim !== undefined) {
    throw new SignatureVerificationError(
      'malformed_body',
      `The order verification token's ${badClaim} is not a number of seconds`,
    );
  }
  const iat = fields['iat'];
  return {
    orderId: fields['orderId'],
    externalOrderId,
    ...(typeof iat === 'number' && { iat }),
  };
}

/** Options of {@link signOrderVerificationToken}. */
export interface SignOrderVerificationTokenOptions {
  /**
   * The header's `kid`: the name of the gateway certificate that verifies the token, as the real service
   * writes it. Left out of the header when not given.
   */
  kid?: string;
}

/**
 * Makes an order verification token as the gateway does (the sandbox uses it): RS256 with the header
 * `{"kid", "alg": "RS256"}` over `{orderId, externalOrderId}`, with `iat` only when given.
 * @throws KeyFormatError when `privateKeyPem` is not a PKCS#8 or PKCS#1 RSA private key.
 */
export function signOrderVerificationToken(
  payload: { orderId: string; externalOrderId: string | null; iat?: number },
  privateKeyPem: string,
  options: SignOrderVerificationTokenOptions = {},
): string {
  const pkcs8 = importPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
  const claims: OrderVerificationPayload = {
    orderId: payload.orderId,
    externalOrderId: payload.externalOrderId,
    ...(payload.iat !== undefined && { iat: payload.iat }),
  };
  const header = { ...(options.kid !== undefined && { kid: options.kid }), alg: ALGORITHM };
  return KJUR.jws.JWS.sign(ALGORITHM, JSON.stringify(header), JSON.stringify(claims), pkcs8);
}
