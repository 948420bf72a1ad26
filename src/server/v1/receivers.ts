/**
 * Safe receivers for the v1 interface's success callbacks and webhooks: each verifies `X-Signature` with
 * `constructSuccessCallback` / `constructWebhookEvent` (brand included), tells repeats apart with
 * `createEventDeduplicator`, and calls the merchant's handler for the event's type with the event typed for
 * it. A handler that throws is answered 500 and its claim released, so the gateway's retry runs it again.
 */
import type {
  PurchaseCallbackPayload,
  PurchaseEventType,
  PurchaseWebhookPayload,
  WebhookEventType,
} from '../../core/v1-types.js';
import { createEventDeduplicator, type EventDeduplicator } from '../event-deduplicator.js';
import { importPublicKey } from '../keys.js';
import {
  checkOptions,
  hasMethods,
  isText,
  maxBodyBytesRule,
  type OptionRules,
  optional,
  required,
} from '../options.js';
import { DEFAULT_MAX_BODY_BYTES, type IncomingRequest } from '../raw-request.js';
import {
  answerer,
  answerOnce,
  type DeliveryRepeatOutcome,
  loggerRule,
  type ReceiverLogger,
  type ReceiverMounts,
  reason,
  receiverMounts,
} from '../receiver-mounts.js';
import {
  refusalStatus,
  SignatureVerificationError,
  type SignatureVerificationErrorCode,
} from '../signed-request.js';
import {
  constructSuccessCallback,
  constructWebhookEvent,
  type PaymentRefundedEvent,
  type V1CallbackOptions,
  type V1WebhookEvent,
} from './callbacks.js';

type Handled = void | Promise<void>;

/** A webhook's body for the event type `Type`: the refund's Payment, or the Purchase with that `event_type`. */
export type V1WebhookEventOf<Type extends WebhookEventType> = Type extends 'payment.refunded'
  ? PaymentRefundedEvent
  : PurchaseWebhookPayload & { event_type: Type };

/** A handler per webhook event type, each given the event typed for it: `{ 'purchase.paid': (purchase) => … }`. */
export type V1WebhookHandlers = {
  [Type in WebhookEventType]?: (event: V1WebhookEventOf<Type>) => Handled;
};

/** A handler per Purchase event type of a success callback (as a rule `purchase.paid`). */
export type SuccessCallbackHandlers = {
  [Type in PurchaseEventType]?: (purchase: PurchaseCallbackPayload & { event_type: Type }) => Handled;
};

/** Options both v1 receivers take. */
export interface V1ReceiverOptions extends V1CallbackOptions {
  /**
   * Tells repeated deliveries apart; `createEventDeduplicator()` (in memory) when left out. Give the success
   * callback receiver and the webhook receiver the same one to handle an event they both carry once, and one
   * with a shared store (`createRedisCacheStore`) to every server of a fleet.
   */
  deduplicator?: EventDeduplicator;
  /** Where each refusal's one line goes; `console` when left out. */
  logger?: ReceiverLogger;
}

/** Options of {@link createSuccessCallbackReceiver}. */
export interface SuccessCallbackReceiverOptions extends V1ReceiverOptions {
  /** The company key, as `GET /public_key/` gives it (`v1.publicKey()`). */
  companyPublicKeyPem: string;
  /** What to do per event type; an event without a handler is acknowledged (200) and left alone. */
  on: SuccessCallbackHandlers;
}

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions extends V1ReceiverOptions {
  /** The `public_key` of the Webhook whose deliveries this URL receives. */
  webhookPublicKeyPem: string;
  /** What to do per event type; an event without a handler is acknowledged (200) and left alone. */
  on: V1WebhookHandlers;
}

/** Why a v1 delivery was answered as it was. */
export type V1ReceiverOutcome =
  /** The event's handler ran: 200. */
  | 'handled'
  /** No handler for the event's type: 200. */
  | 'ignored'
  /** The handler threw: 500, delivered again. */
  | 'handler_failed'
  /** The signature, body or brand was refused: `refusalStatus` (401, 400, 413, 500). */
  | SignatureVerificationErrorCode
  /** Something else failed, such as an expired certificate: 500. */
  | 'receiver_failed'
  | DeliveryRepeatOutcome;

/** A v1 receiver, mounted every way (`node`, `fetch`, `fastify`, `handle`). */
export type V1Receiver = ReceiverMounts<V1ReceiverOutcome>;

/** Event names as the `on` map takes them: a Purchase event, or `payment.refunded`. */
const isHandlerMap = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.entries(value).every(
    ([type, handler]) =>
      (type.startsWith('purchase.') || type === 'payment.refunded') &&
      (handler === undefined || typeof handler === 'function'),
  );

const COMMON_RULES = {
  brandId: required('your brand id, as Purchases name it in brand_id', isText),
  on: required(
    "an object of handlers by event type, such as { 'purchase.paid': (purchase) => ... }",
    isHandlerMap,
  ),
  deduplicator: optional('createEventDeduplicator(...)', hasMethods('claim', 'once')),
  logger: loggerRule,
  maxBodyBytes: maxBodyBytesRule,
};
const PEM = 'the key as PEM text (BEGIN PUBLIC KEY)';

const SUCCESS_RULES: OptionRules<SuccessCallbackReceiverOptions> = {
  ...COMMON_RULES,
  companyPublicKeyPem: required(`${PEM}, from v1.publicKey()`, isText),
};
const WEBHOOK_RULES: OptionRules<WebhookReceiverOptions> = {
  ...COMMON_RULES,
  webhookPublicKeyPem: required(`${PEM}, the Webhook's public_key`, isText),
};

/** The receiver of one v1 channel, given how it verifies a request. */
function v1Receiver(
  name: string,
  options: V1ReceiverOptions & { on: Record<string, ((event: never) => Handled) | undefined> },
  construct: (request: IncomingRequest) => Promise<V1WebhookEvent>,
): V1Receiver {
  const deduplicator = options.deduplicator ?? createEventDeduplicator();
  const say = answerer(name, options.logger ?? console);
  return receiverMounts(['POST'], options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, async (request) => {
    try {
      const event = await construct(request);
      const handler = options.on[event.event_type] as ((event: V1WebhookEvent) => Handled) | undefined;
      if (handler === undefined) return say(200, 'ignored', '');
      return await answerOnce(deduplicator, event, say, async () => {
        try {
          await handler(event);
        } catch (error) {
          return say(
            500,
            'handler_failed',
            `the ${event.event_type} handler threw for ${event.id}, so the gateway will deliver it again: ${reason(error)}`,
          );
        }
        return say(200, 'handled', '');
      });
    } catch (error) {
      if (error instanceof SignatureVerificationError)
        return say(refusalStatus(error), error.code, error.message);
      return say(500, 'receiver_failed', reason(error));
    }
  });
}

/** The options `constructSuccessCallback` and `constructWebhookEvent` take from a receiver's. */
function callbackOptions(options: V1ReceiverOptions): V1CallbackOptions {
  return {
    brandId: options.brandId,
    ...(options.maxBodyBytes !== undefined && { maxBodyBytes: options.maxBodyBytes }),
  };
}

/**
 * A receiver for a Purchase's `success_callback` URL: verifies `X-Signature` with the company key and the
 * brand, skips repeats, and calls the handler for the event's type.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError at once when the key is not an RSA public key PEM.
 */
export function createSuccessCallbackReceiver(options: SuccessCallbackReceiverOptions): V1Receiver {
  checkOptions('createSuccessCallbackReceiver', options, SUCCESS_RULES);
  importPublicKey(options.companyPublicKeyPem);
  const verify = callbackOptions(options);
  return v1Receiver('success callback receiver', options, (request) =>
    constructSuccessCallback(request, options.companyPublicKeyPem, verify),
  );
}

/**
 * A receiver for a Webhook's callback URL: verifies `X-Signature` with the webhook's key (and a Purchase's
 * brand), skips repeats, and calls the handler for the event's type.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError at once when the key is not an RSA public key PEM.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): V1Receiver {
  checkOptions('createWebhookReceiver', options, WEBHOOK_RULES);
  importPublicKey(options.webhookPublicKeyPem);
  const verify = callbackOptions(options);
  return v1Receiver('webhook receiver', options, (request) =>
    constructWebhookEvent(request, options.webhookPublicKeyPem, verify),
  );
}
