/**
 * SHA256withRSA (RSA PKCS#1 v1.5 over SHA-256) as the gateway uses it: over the widget order's signature
 * input, and over the raw bytes of every callback body. All of it runs in node:crypto on cached KeyObjects.
 * The `*Async` forms (for the sandbox, a gateway under load) do the RSA work on libuv's thread pool, so that
 * the event loop serves other requests meanwhile: an RSA-2048 signature takes about 0.3 ms.
 */
import { type KeyObject, sign, verify } from 'node:crypto';
import type { OrderInput } from '../core/order.js';
import {
  orderSignatureInput,
  orderSignatureInputs,
  type SignatureInputOptions,
} from '../core/signature-input.js';
import { checkCertificateValidity, importPrivateKey, importPublicKey } from './keys.js';

export { orderSignatureInput };

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
}

/**
 * Signs bytes exactly as they will be sent, as the gateway signs callback bodies.
 * @returns the Base64 SHA256withRSA signature.
 * @throws KeyFormatError when `privateKeyPem` is not a PKCS#8 or PKCS#1 RSA private key.
 */
export function signBody(rawBody: string | Uint8Array, privateKeyPem: string): string {
  return sign('sha256', bytesOf(rawBody), importPrivateKey(privateKeyPem)).toString('base64');
}

/** {@link signBody} with the RSA work on libuv's thread pool. The same bytes: the signature is deterministic. */
export function signBodyAsync(rawBody: string | Uint8Array, privateKeyPem: string): Promise<string> {
  const key = importPrivateKey(privateKeyPem);
  return new Promise((resolve, reject) => {
    sign('sha256', bytesOf(rawBody), key, (error, signature) => {
      if (error) reject(error);
      else resolve(signature.toString('base64'));
    });
  });
}

/** Options of {@link verifySignature}. */
export interface VerifySignatureOptions {
  /** The time of use, checked against an X.509 certificate's validity dates; now when left out. */
  now?: Date;
}

/**
 * Checks a Base64 SHA256withRSA signature over the raw body bytes: the body as received, before any JSON
 * parsing, since re-serialising changes bytes. A string body is taken as UTF-8.
 * @returns false for a wrong, truncated or garbled signature.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM: that is a configuration
 *   problem to fix, not a forged request.
 * @throws CertificateValidityError when the key is an X.509 certificate that has expired or is not yet valid
 *   at `options.now`: also a configuration problem (fetch the current certificate), so it is thrown rather
 *   than reported as a forgery.
 */
export function verifySignature(
  rawBody: string | Uint8Array,
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  options: VerifySignatureOptions = {},
): boolean {
  const checked = checkedSignature(signatureBase64, publicKeyOrCertificatePem, options);
  if (!checked) return false;
  try {
    return verify('sha256', bytesOf(rawBody), checked.key, checked.signature);
  } catch {
    return false;
  }
}

/** {@link verifySignature} with the RSA work on libuv's thread pool; it throws (rejects) as that does. */
export async function verifySignatureAsync(
  rawBody: string | Uint8Array,
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  options: VerifySignatureOptions = {},
): Promise<boolean> {
  const checked = checkedSignature(signatureBase64, publicKeyOrCertificatePem, options);
  if (!checked) return false;
  return new Promise((resolve) => {
    try {
      verify('sha256', bytesOf(rawBody), checked.key, checked.signature, (error, valid) =>
        resolve(!error && valid),
      );
    } catch {
      resolve(false);
    }
  });
}

/**
 * The key to verify with (checked for its validity dates) and the signature's bytes, or undefined when the
 * signature is not Base64 at all (it cannot verify).
 */
function checkedSignature(
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  options: VerifySignatureOptions,
): { key: KeyObject; signature: Buffer } | undefined {
  const key = importPublicKey(publicKeyOrCertificatePem);
  checkCertificateValidity(publicKeyOrCertificatePem, options);
  if (typeof signatureBase64 !== 'string') return undefined;
  const signature = signatureBase64.trim();
  if (!BASE64.test(signature)) return undefined;
  return { key, signature: Buffer.from(signature, 'base64') };
}

/**
 * The widget's `signature` attribute for an order: Base64(SHA256withRSA(orderSignatureInput(order))), with
 * counts written `%.3f` as the real service's official client writes them. Give `certificateName` (and
 * `successRedirectUrl`) exactly when the page carries `certificate-name` (`success-redirect-url`): they are
 * signed.
 * @throws OrderValidationError when the order is invalid, so nobody signs an order the gateway would refuse.
 * @throws KeyFormatError when `privateKeyPem` is not a PKCS#8 or PKCS#1 RSA private key.
 */
export function signOrder(order: OrderInput, privateKeyPem: string): string {
  return signBody(orderSignatureInput(order), privateKeyPem);
}

/** Options of {@link verifyOrderSignature}. */
export interface VerifyOrderSignatureOptions {
  /**
   * Also accept a signature over the input with counts written as given (`2`, not `2.000`): the
   * documentation's worked example signs so, and its published signature verifies only so. On by default, as
   * the gateway accepts it.
   */
  acceptPlainCounts?: boolean;
  /**
   * Also accept a signature over the input with each item's fields in the documentation's order (tax rate and
   * item id before count and unit), with counts in either accepted form. On by default, as the gateway
   * accepts it.
   */
  acceptDocumentOrder?: boolean;
  /** The time of use, checked against an X.509 certificate's validity dates; now when left out. */
  now?: Date;
}

/**
 * Checks an order's signature as the gateway does: over the input with counts written with 3 decimals
 * (`2.000`) or (unless turned off) as given (`2`), each with the items' fields in the official client's order
 * or (unless turned off) the documentation's. At most four texts are tried; nothing else may vary.
 * @throws OrderValidationError when the order is invalid.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 * @throws CertificateValidityError when the key is an X.509 certificate outside its validity at `options.now`.
 */
export function verifyOrderSignature(
  order: OrderInput,
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  options: VerifyOrderSignatureOptions = {},
): boolean {
  const at = { now: options.now ?? new Date() };
  for (const text of acceptedInputs(order, options))
    if (verifySignature(text, signatureBase64, publicKeyOrCertificatePem, at)) return true;
  return false;
}

/** {@link verifyOrderSignature} with the RSA work on libuv's thread pool; it throws (rejects) as that does. */
export async function verifyOrderSignatureAsync(
  order: OrderInput,
  signatureBase64: string,
  publicKeyOrCertificatePem: string,
  options: VerifyOrderSignatureOptions = {},
): Promise<boolean> {
  const at = { now: options.now ?? new Date() };
  for (const text of acceptedInputs(order, options))
    if (await verifySignatureAsync(text, signatureBase64, publicKeyOrCertificatePem, at)) return true;
  return false;
}

/**
 * The signature inputs the options accept, the official client's first; the others (which most signatures
 * never need) only if it did not verify.
 */
function* acceptedInputs(order: OrderInput, options: VerifyOrderSignatureOptions): Iterable<string> {
  const first = orderSignatureInput(order);
  yield first;
  const countForms: Array<SignatureInputOptions['countForm']> =
    options.acceptPlainCounts === false ? ['three-decimals'] : ['three-decimals', 'as-given'];
  const fieldOrders: Array<SignatureInputOptions['itemFieldOrder']> =
    options.acceptDocumentOrder === false ? ['client'] : ['client', 'document'];
  for (const text of orderSignatureInputs(order, countForms, fieldOrders)) if (text !== first) yield text;
}
