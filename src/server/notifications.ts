/**
 * The purchase notification: the gateway's signed PUT telling the merchant that a payment was collected,
 * failed or was cancelled. Read it like a webhook: raw body, signature first, parse after.
 */
import type { PurchaseNotification } from '../core/legacy-callbacks.js';
import type { IncomingRequest } from './raw-request.js';
import {
  parseJsonObject,
  SignatureVerificationError,
  SVC_SIGNATURE_HEADER,
  type VerifySignedRequestOptions,
  verifySignedRequest,
} from './signed-request.js';

export type { PurchaseNotification };

/** Options of {@link constructPurchaseNotification}. */
export type PurchaseNotificationOptions = Pick<VerifySignedRequestOptions, 'maxBodyBytes'>;

/**
 * Verifies and reads a purchase notification. Give the request untouched (Node's `IncomingMessage`, a
 * fetch `Request`, or `{ rawBody, headers }` when the framework already buffered the raw body): the
 * `X-Svc-Signature` header signs the exact bytes, which a parsed and re-serialised body no longer are.
 * Answer 200 once the notification is stored; the gateway retries anything else.
 * @param servicePublicKeyOrCertificatePem the gateway's public key or certificate from the console.
 * @throws SignatureVerificationError (`signature_missing`, `signature_invalid`, `malformed_body`, ...).
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 */
export async function constructPurchaseNotification(
  request: IncomingRequest,
  servicePublicKeyOrCertificatePem: string,
  options: PurchaseNotificationOptions = {},
): Promise<PurchaseNotification> {
  const rawBody = await verifySignedRequest(request, servicePublicKeyOrCertificatePem, {
    ...options,
    header: SVC_SIGNATURE_HEADER,
  });
  const body = parseJsonObject(rawBody, 'purchase notification');
  for (const field of ['id', 'status'] as const) {
    const value = body[field];
    if (typeof value !== 'string' || value === '') {
      throw new SignatureVerificationError(
        'malformed_body',
        `The purchase notification has no ${field}; is this URL also used for another callback?`,
      );
    }
  }
  return body as unknown as PurchaseNotification;
}
