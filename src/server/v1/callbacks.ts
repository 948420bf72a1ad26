/**
 * The v1 interface's signed callbacks: the success callback sent to a Purchase's `success_callback` (signed
 * with the company key of `GET /public_key/`), and webhooks (signed with the webhook's own key, its
 * `public_key`). Both carry `X-Signature`, Base64 SHA256withRSA over the raw body, and both go through the
 * same check as the legacy notifications: the raw bytes are verified before anything reads their content.
 *
 * The gateway repeats a delivery whose acknowledgement got lost, so receivers must tolerate duplicates; see
 * `createEventDeduplicator` (../event-deduplicator.ts). It is also where events older than a tolerance are
 * refused (`event_too_old`), not here: the tolerance is only safe beside a memory of every event inside it,
 * and a signature says nothing of when a body was sent (the gateway signs the body alone, and repeats it
 * byte for byte).
 */
import type {
  PaymentRefundedPayload,
  PurchaseCallbackPayload,
  PurchaseEventType,
  PurchaseWebhookPayload,
} from '../../core/v1-types.js';
import { checkOptions, isText, maxBodyBytesRule, type OptionRules, required } from '../options.js';
import type { IncomingRequest } from '../raw-request.js';
import {
  parseJsonObject,
  SignatureVerificationError,
  type VerifySignedRequestOptions,
  verifySignedRequest,
} from '../signed-request.js';

export type { PurchaseCallbackPayload, PurchaseEventType, PurchaseWebhookPayload };

/** The header that carries the signature of v1 callbacks and webhooks. */
export const V1_SIGNATURE_HEADER = 'X-Signature';

/** Options of {@link constructSuccessCallback} and {@link constructWebhookEvent}. */
export interface V1CallbackOptions extends Pick<VerifySignedRequestOptions, 'maxBodyBytes'> {
  /**
   * Your brand id. A Purchase of another brand is refused (`brand_mismatch`): the gateway signs a callback
   * with the key of the company whose Purchase it is, and another company may name your URL as its
   * Purchase's `success_callback`.
   */
  brandId: string;
}

const CALLBACK_OPTIONS: OptionRules<V1CallbackOptions> = {
  brandId: required('your brand id, as Purchases name it in brand_id', isText),
  maxBodyBytes: maxBodyBytesRule,
};

/**
 * The body of a `payment.refunded` webhook: the Payment the refund created (the `Payment` that
 * `v1.purchases.refund` resolves), with its `event_type`. The document names no Payment field; the type is
 * the platform's, as its `payment.refunded` webhooks carry it. Only `id` and `event_type` are checked on
 * arrival.
 */
export type PaymentRefundedEvent = PaymentRefundedPayload;

/**
 * A verified webhook body: the event's object as JSON with its `event_type`. A Purchase for the `purchase.*`
 * events (the sandbox adds `purchase.cancelled`), the refund's Payment for `payment.refunded`; switch on
 * `event_type` to tell them apart.
 */
export type V1WebhookEvent = PurchaseWebhookPayload | PaymentRefundedEvent;

function malformed(what: string, problem: string): SignatureVerificationError {
  return new SignatureVerificationError(
    'malformed_body',
    `The ${what} ${problem}; is this URL also used for another callback?`,
  );
}

function requireText(body: Record<string, unknown>, member: string, what: string): void {
  const value = body[member];
  if (typeof value !== 'string' || value === '') throw malformed(what, `has no ${member}`);
}

/** Checks that a verified body is a Purchase snapshot of the merchant's brand, with its event. */
function checkPurchasePayload<Payload extends PurchaseWebhookPayload>(
  body: Record<string, unknown>,
  what: string,
  ownBrandId: string,
): Payload {
  requireText(body, 'event_type', what);
  if (!(body['event_type'] as string).startsWith('purchase.')) {
    throw malformed(what, `is a ${body['event_type'] as string} event, not one of a Purchase`);
  }
  requireText(body, 'id', what);
  requireText(body, 'status', what);
  requireText(body, 'brand_id', what);
  const brandId = body['brand_id'] as string;
  if (brandId.toLowerCase() !== ownBrandId.trim().toLowerCase()) {
    throw new SignatureVerificationError(
      'brand_mismatch',
      `The ${what} is of a Purchase of brand ${brandId}, not of your brand ${ownBrandId}: another merchant's ` +
        'Purchase names this URL; do not act on it',
    );
  }
  return body as unknown as Payload;
}

/** The body once `X-Signature` verified it with `publicKeyPem`, read as a JSON object. */
async function verifiedBody(
  request: IncomingRequest,
  publicKeyPem: string,
  options: V1CallbackOptions,
  what: string,
  owner: string,
): Promise<Record<string, unknown>> {
  checkOptions(owner, options, CALLBACK_OPTIONS);
  const rawBody = await verifySignedRequest(request, publicKeyPem, {
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
    header: V1_SIGNATURE_HEADER,
  });
  return parseJsonObject(rawBody, what);
}

/**
 * Verifies and reads a success callback. Give the request untouched (Node's `IncomingMessage`, a fetch
 * `Request`, or `{ rawBody, headers }` when the framework already buffered the raw body): `X-Signature`
 * signs the exact bytes. Answer 2xx once the outcome is stored; the gateway retries anything else, and may
 * repeat a delivery even after a 2xx (see `createEventDeduplicator`).
 * @param companyPublicKeyPem the company key, as `GET /public_key/` gives it (`v1.publicKey()`).
 * @param options `brandId`: yours; a Purchase of another brand is refused.
 * @returns the Purchase as it was when the event happened, with `event_type` (such as `purchase.paid`).
 * @throws SignatureVerificationError `signature_missing` / `signature_invalid` (answer 401), `malformed_body`,
 *   `brand_mismatch` (answer 400), `body_too_large` (413), `body_unavailable`, `not_a_request`: answer
 *   `refusalStatus(error)`.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 * @throws TypeError when `options` has no `brandId`.
 * @example
 * ```ts
 * app.post('/svc/v1/success', async (req, res) => {
 *   const purchase = await constructSuccessCallback(req, companyPublicKeyPem, { brandId });
 *   if (purchase.status === 'paid') await orders.markPaid(purchase.reference, purchase.id);
 *   res.sendStatus(204);
 * });
 * ```
 */
export async function constructSuccessCallback(
  request: IncomingRequest,
  companyPublicKeyPem: string,
  options: V1CallbackOptions,
): Promise<PurchaseCallbackPayload> {
  const what = 'success callback';
  const body = await verifiedBody(request, companyPublicKeyPem, options, what, 'constructSuccessCallback');
  return checkPurchasePayload<PurchaseCallbackPayload>(body, what, options.brandId);
}

/**
 * Verifies and reads a webhook delivery, as {@link constructSuccessCallback} does a success callback but
 * with the webhook's own key. A webhook's key is its merchant's alone, so the brand check is a second line here:
 * a `purchase.*` event of another brand is refused; a `payment.refunded` Payment names no brand.
 * @param webhookPublicKeyPem the `public_key` of the Webhook that this URL receives.
 * @returns the event's object with its `event_type`.
 * @throws SignatureVerificationError as {@link constructSuccessCallback}.
 * @throws KeyFormatError when the key is not an RSA public key or certificate PEM.
 */
export async function constructWebhookEvent(
  request: IncomingRequest,
  webhookPublicKeyPem: string,
  options: V1CallbackOptions,
): Promise<V1WebhookEvent> {
  const what = 'webhook';
  const body = await verifiedBody(request, webhookPublicKeyPem, options, what, 'constructWebhookEvent');
  requireText(body, 'event_type', what);
  if (body['event_type'] === 'payment.refunded') {
    requireText(body, 'id', what);
    return body as unknown as PaymentRefundedEvent;
  }
  return checkPurchasePayload<PurchaseWebhookPayload>(body, what, options.brandId);
}
