/**
 * The token a CALLBACK widget's order verification URL receives: a compact JWS (RS256, signed by the
 * gateway) whose payload names the order. jsrsasign handles the JWS; the key PEM is read by node:crypto
 * first so every PEM kind {@link importPublicKey} takes works here too.
 */
import jsrsasign from 'jsrsasign';
import type { OrderVerificationPayload } from '../core/legacy-callbacks.js';
import { BoundedCache } from './bounded-cache.js';
import { checkCertificateValidity, importPrivateKey, importPublicKey } from './keys.js';
import { SignatureVerificationError } from './signed-request.js';

export type { OrderVerificationPayload };

const { KJUR, KEYUTIL, RSAKey } = jsrsasign;

/** The only algorithm taken: accepting others would let a token choose how it is checked. */
const ALGORITHM = 'RS256';
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
/** Allowed difference between the gateway's clock and ours when checking `iat`, `nbf` and `exp`. */
const CLOCK_TOLERANCE_SECONDS = 300;

const verifyingKeys = new BoundedCache<string, jsrsasign.RSAKey>(16);

function verifyingKey(pem: string): jsrsasign.RSAKey {
  return verifyingKeys.getOrCreate(pem, () => {
    const spki = importPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();
    const key = KEYUTIL.getKey(spki);
    if (!(key instanceof RSAKey)) throw new TypeError('jsrsasign did not read the RSA public key');
    return key;
  });
}

/** Options of {@link verifyOrderVerificationToken}. */
export interface VerifyOrderVerificationTokenOptions {
  /** The time to check `iat`, `nbf` and `exp` against; now when left out. */
  now?: Date;
}

/**
 * Verifies the gateway's order verification token (RS256 only) and reads its payload.
 * @throws SignatureVerificationError `signature_invalid` when the token is garbled, not RS256, signed with
 *   another key, or outside its validity; `malformed_body` when a valid token lacks `orderId`.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 * @throws CertificateValidityError when the key is an X.509 certificate outside its validity at `options.now`.
 */
export function verifyOrderVerificationToken(
  jws: string,
  publicKeyOrCertificatePem: string,
  options: VerifyOrderVerificationTokenOptions = {},
): OrderVerificationPayload {
  const key = verifyingKey(publicKeyOrCertificatePem);
  checkCertificateValidity(publicKeyOrCertificatePem, options);
  const token = typeof jws === 'string' ? jws.trim() : '';
  let valid = false;
  if (COMPACT_JWS.test(token)) {
    try {
      valid = KJUR.jws.JWS.verifyJWT(token, key, {
        alg: [ALGORITHM],
        verifyAt: Math.floor((options.now ?? new Date()).getTime() / 1000),
        gracePeriod: CLOCK_TOLERANCE_SECONDS,
      });
    } catch {
      valid = false;
    }
  }
  if (!valid) {
    throw new SignatureVerificationError(
      'signature_invalid',
      'The order verification token is not a valid RS256 JWS signed with the given gateway key (or it has expired)',
    );
  }
  const payload: unknown = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
  const fields = payload as Record<string, unknown>;
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
  if (typeof fields['iat'] !== 'number') {
    throw new SignatureVerificationError('malformed_body', 'The order verification token has no numeric iat');
  }
  return { orderId: fields['orderId'], externalOrderId, iat: fields['iat'] };
}

/**
 * Makes an order verification token as the gateway does (the sandbox uses it): RS256 over
 * `{orderId, externalOrderId, iat}`, `iat` being now unless given.
 * @throws KeyFormatError when `privateKeyPem` is not a PKCS#8 or PKCS#1 RSA private key.
 */
export function signOrderVerificationToken(
  payload: { orderId: string; externalOrderId: string | null; iat?: number },
  privateKeyPem: string,
): string {
  const pkcs8 = importPrivateKey(privateKeyPem).export({ type: 'pkcs8', format: 'pem' }).toString();
  const claims: OrderVerificationPayload = {
    orderId: payload.orderId,
    externalOrderId: payload.externalOrderId,
    iat: payload.iat ?? Math.floor(Date.now() / 1000),
  };
  return KJUR.jws.JWS.sign(
    ALGORITHM,
    JSON.stringify({ alg: ALGORITHM, typ: 'JWT' }),
    JSON.stringify(claims),
    pkcs8,
  );
}
