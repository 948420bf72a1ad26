/**
 * The safe way to take purchase notifications: a receiver that cannot be used to ship an order the customer
 * did not pay in full. A genuine, correctly signed `PAID` notification is not enough: the order signature joins
 * its fields with no separator, so a page can re-split them (label `Tea` count `2` as label `Tea2.000`) and pay
 * less under the same signature. The receiver looks up the order the merchant signed, runs `verifyPaidOrder`,
 * and only then calls `onPaid`, with the verified order.
 *
 * Each refusal is answered so that the gateway's retry helps when it can: a lookup that finds nothing (a
 * database replica behind) or a handler that throws is answered 5xx and delivered again; a priced mismatch is
 * answered 200, since the same bytes would come again and fail the same way, and logged as an error.
 *
 * Repeats: the gateway delivers at least once and repeats a delivery byte for byte, and a legacy notification
 * carries no timestamp. So a delivery is known by the SHA-256 of its verified bytes, remembered by the same
 * deduplicator as v1 events (a claim while handled, a marker once answered 2xx, kept `ttlMs`, 48 hours by
 * default). Past that, or in another process without a shared store, a repeat is handled again: `onPaid` must
 * still act only when the order goes from unpaid to paid.
 */
import { createHash } from 'node:crypto';
import type { PurchaseNotification } from '../../core/legacy-callbacks.js';
import type { OrderInput } from '../../core/order.js';
import { createEventDeduplicator, type EventDeduplicator } from '../event-deduplicator.js';
import { importPublicKey } from '../keys.js';
import {
  checkOptions,
  hasMethods,
  isFunction,
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
  SVC_SIGNATURE_HEADER,
  verifySignedRequest,
} from '../signed-request.js';
import { readPurchaseNotification } from './notifications.js';
import { type PaidOrderDefaults, type PaidOrderMismatchCode, verifyPaidOrder } from './paid-order.js';

/** A `PAID` notification checked against the order the merchant signed: what `onPaid` is given. */
export interface VerifiedPaidOrder {
  /** Your order id (`order_id`), under which `findSignedOrder` found the order. */
  orderId: string;
  /** The gateway's order id (`id`). */
  gatewayOrderId: string;
  currency: string;
  /** What was paid, with 2 decimals: `25.00`; the signed order's total. */
  totalAmount: string;
  /** The chosen shipping option's id, or null for an order without shipping. */
  shippingOptionId: string | null;
  /** The order as you signed it, as `findSignedOrder` returned it. */
  order: OrderInput;
  /** The verified notification. */
  notification: PurchaseNotification & { status: 'PAID' };
}

/** A genuine `PAID` notification that does not show the order you signed, paid: given to `onRefused`. */
export interface RefusedPaidOrder {
  /** A `verifyPaidOrder` mismatch, or `no_order_id` for a notification without `order_id`. */
  code: PaidOrderMismatchCode | 'no_order_id';
  /** The notification's member at fault: `total_amount`, `items[0].label`, `order_id`. */
  field: string;
  message: string;
  notification: PurchaseNotification;
  /** The order you signed, when one was found. */
  order?: OrderInput;
}

/** What a handler may return. */
type Handled = void | Promise<void>;

/** Options of {@link createNotificationReceiver}. */
export interface NotificationReceiverOptions {
  /** The gateway's public key or certificate (PEM) that signs `X-Svc-Signature`. */
  servicePublicKeyPem: string;
  /**
   * Your records: the order you signed under this merchant order id, exactly as given to `signOrder`, or
   * undefined when there is none (answered 503, so the gateway delivers it again later).
   */
  findSignedOrder: (orderId: string) => OrderInput | undefined | Promise<OrderInput | undefined>;
  /** Your widget configuration's defaults, `{ currency, taxRate }`, which price what the order leaves out. */
  defaults: PaidOrderDefaults;
  /**
   * Fulfil here: called once per delivery of a `PAID` notification that verified against the signed order.
   * Throw to have the gateway deliver it again (answered 500). Act only when the order goes from unpaid to
   * paid: a repeat the deduplicator no longer remembers comes here again.
   */
  onPaid: (paid: VerifiedPaidOrder) => Handled;
  /** A payment attempt failed (`FAILED`); the order stays payable. */
  onFailed?: (notification: PurchaseNotification) => Handled;
  /** The customer cancelled (`CANCELLED`). */
  onCancelled?: (notification: PurchaseNotification) => Handled;
  /**
   * A genuine `PAID` notification that does not match the order you signed: the customer paid something
   * else (a page re-split the signed fields, say). It is answered 200 and logged as an error; alert here.
   */
  onRefused?: (refused: RefusedPaidOrder) => Handled;
  /**
   * Tells repeated deliveries apart; `createEventDeduplicator({ keyPrefix: 'svc-checkout:notification:' })`
   * (in memory) when left out. Give one with a shared store (`createRedisCacheStore`) to every server of a
   * fleet; `false` turns it off.
   */
  deduplicator?: EventDeduplicator | false;
  /** Where each refusal's one line goes; `console` when left out. */
  logger?: ReceiverLogger;
  /** The largest body read, in bytes; 1 MiB when left out. */
  maxBodyBytes?: number;
}

/** Why a notification was answered as it was. */
export type NotificationReceiverOutcome =
  /** A handler ran (or the status has none, such as `REFUNDED`): 200. */
  | 'handled'
  /** `PAID` but not the order you signed (`onRefused`): 200, logged as an error. */
  | 'order_mismatch'
  /** `PAID` with no `order_id`: nothing to check it against; 200, logged as an error. */
  | 'no_order_id'
  /** `findSignedOrder` found no order under `order_id`: 503, delivered again later. */
  | 'unknown_order'
  /** Your code (`findSignedOrder`, a handler) threw, or your records are not a signable order: 500. */
  | 'handler_failed'
  /** The signature or the body was refused: `refusalStatus` (401, 400, 413, 500). */
  | SignatureVerificationErrorCode
  /** Something else failed, such as an expired gateway certificate: 500. */
  | 'receiver_failed'
  | DeliveryRepeatOutcome;

/** The receiver of purchase notifications, mounted every way; see {@link createNotificationReceiver}. */
export type NotificationReceiver = ReceiverMounts<NotificationReceiverOutcome>;

const RULES: OptionRules<NotificationReceiverOptions> = {
  servicePublicKeyPem: required(
    "the gateway's public key or certificate as PEM text (BEGIN PUBLIC KEY or BEGIN CERTIFICATE)",
    isText,
  ),
  findSignedOrder: required(
    'a function (orderId) => the order you signed under it, as given to signOrder, or undefined',
    isFunction,
  ),
  defaults: required(
    "your widget configuration's defaults, { currency, taxRate }",
    (value) => typeof value === 'object' && value !== null,
  ),
  onPaid: required('a function (paid) => fulfil the verified order', isFunction),
  onFailed: optional('a function (notification) => void', isFunction),
  onCancelled: optional('a function (notification) => void', isFunction),
  onRefused: optional('a function (refused) => void', isFunction),
  deduplicator: optional(
    'createEventDeduplicator(...) or false',
    (value) => value === false || hasMethods('claim', 'once')(value),
  ),
  logger: loggerRule,
  maxBodyBytes: maxBodyBytesRule,
};

/**
 * A receiver for the notification URL: verifies `X-Svc-Signature` over the raw bytes, reads the body, and for
 * `PAID` checks it with `verifyPaidOrder` against the order `findSignedOrder` gives before `onPaid` runs.
 * Mount it with `receiver.node` (node:http, Express), `receiver.fetch` (Next.js, Hono, Bun, Deno) or
 * `app.register(receiver.fastify, { path })`; `receiver.handle(request)` answers any request shape.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError at once when `servicePublicKeyPem` is not an RSA public key or certificate PEM.
 */
export function createNotificationReceiver(options: NotificationReceiverOptions): NotificationReceiver {
  checkOptions('createNotificationReceiver', options, RULES);
  importPublicKey(options.servicePublicKeyPem);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const deduplicator =
    options.deduplicator === false
      ? undefined
      : (options.deduplicator ?? createEventDeduplicator({ keyPrefix: 'svc-checkout:notification:' }));
  const say = answerer('notification receiver', options.logger ?? console);

  /** The merchant's code, run so that its failure is a 500 the gateway retries. */
  async function merchantCode(what: string, about: string, run: () => Handled) {
    try {
      await run();
      return undefined;
    } catch (error) {
      return say(
        500,
        'handler_failed',
        `${what} threw for ${about}, so the gateway will deliver it again: ${reason(error)}`,
      );
    }
  }

  async function paid(notification: PurchaseNotification, about: string) {
    // Logged first and loudly; onRefused failing makes it a 500, so the gateway tries again.
    const refuse = async (refused: RefusedPaidOrder, outcome: 'order_mismatch' | 'no_order_id') => {
      const failed =
        options.onRefused && (await merchantCode('onRefused', about, () => options.onRefused!(refused)));
      const answer = say(
        failed ? 500 : 200,
        outcome,
        `NOT FULFILLED: ${refused.code} at ${refused.field}: ${refused.message}` +
          (failed ? '' : ' (acknowledged: the same bytes would fail again)'),
        'error',
      );
      return failed ?? answer;
    };
    const orderId = notification.order_id;
    if (orderId === null || orderId === '') {
      const message =
        'the notification has no order_id, so there is no signed order to check it against; sign orders with an orderId';
      return refuse({ code: 'no_order_id', field: 'order_id', message, notification }, 'no_order_id');
    }
    let order: OrderInput | undefined;
    let verification: ReturnType<typeof verifyPaidOrder>;
    try {
      order = await options.findSignedOrder(orderId);
      if (order === undefined) {
        return say(
          503,
          'unknown_order',
          `findSignedOrder found no order for ${about}; the gateway will deliver it again (keep every signed order until it is paid)`,
        );
      }
      verification = verifyPaidOrder(notification, { order, defaults: options.defaults });
    } catch (error) {
      return say(
        500,
        'handler_failed',
        `the signed order of ${about} could not be checked: ${reason(error)}`,
      );
    }
    if (!verification.ok) {
      const { code, field, message } = verification;
      return refuse({ code, field, message, notification, order }, 'order_mismatch');
    }
    const { ok: _ok, orderId: _signedId, ...checked } = verification;
    const verified: VerifiedPaidOrder = {
      ...checked,
      orderId,
      order,
      notification: notification as VerifiedPaidOrder['notification'],
    };
    return (await merchantCode('onPaid', about, () => options.onPaid(verified))) ?? say(200, 'handled', '');
  }

  async function handleVerified(notification: PurchaseNotification) {
    const about = `the ${notification.status} notification of order ${notification.order_id ?? '(no order_id)'} (gateway id ${notification.id})`;
    if (notification.status === 'PAID') return paid(notification, about);
    const [name, handler] =
      notification.status === 'FAILED'
        ? ['onFailed', options.onFailed]
        : notification.status === 'CANCELLED'
          ? ['onCancelled', options.onCancelled]
          : ['', undefined];
    const failed = handler && (await merchantCode(name, about, () => handler(notification)));
    return failed ?? say(200, 'handled', '');
  }

  return receiverMounts(['PUT', 'POST'], maxBodyBytes, async (request: IncomingRequest) => {
    try {
      const rawBody = await verifySignedRequest(request, options.servicePublicKeyPem, {
        header: SVC_SIGNATURE_HEADER,
        maxBodyBytes,
      });
      const notification = readPurchaseNotification(rawBody);
      const delivery = {
        id: createHash('sha256').update(rawBody).digest('hex'),
        event_type: 'purchase_notification',
      };
      return await answerOnce(deduplicator, delivery, say, () => handleVerified(notification));
    } catch (error) {
      if (error instanceof SignatureVerificationError)
        return say(refusalStatus(error), error.code, error.message);
      return say(500, 'receiver_failed', reason(error));
    }
  });
}
