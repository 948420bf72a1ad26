/**
 * The purchase notification: the gateway's signed PUT telling the merchant that a payment was collected,
 * failed or was cancelled. Read it like a webhook: raw body, signature first, parse after.
 */
import type { PurchaseNotification } from '../../core/legacy-callbacks.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { IncomingRequest } from '../raw-request.js';
import {
  parseJsonObject,
  SignatureVerificationError,
  SVC_SIGNATURE_HEADER,
  type VerifySignedRequestOptions,
  verifySignedRequest,
} from '../signed-request.js';

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
  return readPurchaseNotification(rawBody);
}

/**
 * A verified notification body, read and checked.
 * @throws SignatureVerificationError `malformed_body` when it is not a purchase notification.
 */
export function readPurchaseNotification(rawBody: Uint8Array): PurchaseNotification {
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
  checkNumbers(body);
  return body as unknown as PurchaseNotification;
}

/**
 * Whether a member is one of the notification's numbers: money, quantities and tax rates travel as finite JSON
 * numbers, and a decimal string is another format. The one rule for both readers of a notification:
 * {@link readPurchaseNotification} here, and `verifyPaidOrder`, which reads the same members exactly.
 */
export function isNotificationNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Money members the notification always carries, JSON numbers; per item also its tax rate and quantity. */
const ORDER_NUMBERS = ['tax_amount', 'total_amount', 'effective_amount'] as const;
const ITEM_NUMBERS = ['amount', 'tax_amount', 'total_amount', 'tax_rate', 'quantity'] as const;

/**
 * Refuses a body whose money is not the format's JSON numbers (a decimal string is another format), so that
 * what the type says is what a merchant reads. The order's own `amount` is left out: the real service's
 * notifications do not always carry it.
 */
function checkNumbers(body: Record<string, unknown>): void {
  const refuse = (path: string, value: unknown): never => {
    throw new SignatureVerificationError(
      'malformed_body',
      `The purchase notification's ${path} is ${value === undefined ? 'missing' : JSON.stringify(value)}, not a JSON number: amounts, tax rates and quantities are numbers such as 88.00`,
    );
  };
  for (const member of ORDER_NUMBERS) {
    if (!isNotificationNumber(body[member])) refuse(member, body[member]);
  }
  const items = body['items'];
  if (!Array.isArray(items)) {
    throw new SignatureVerificationError(
      'malformed_body',
      'The purchase notification has no items list; is this URL also used for another callback?',
    );
  }
  for (const [index, item] of items.entries()) {
    const line = isPlainObject(item) ? item : {};
    for (const member of ITEM_NUMBERS) {
      if (!isNotificationNumber(line[member])) refuse(`items[${index}].${member}`, line[member]);
    }
  }
}
