/**
 * The legacy purchase notifications a merchant was sent, listed and resent, as v1 webhooks' deliveries are
 * listed (`GET /api/v1/webhooks/deliveries/`):
 * - `GET /sandbox/legacy/notifications[?order_id=]`: the merchant's notifications with their attempts,
 *   newest first (or one order's, oldest first), each with the exact body and signature sent;
 * - `POST /sandbox/legacy/notifications/{id}/resend`: sends the same bytes with the same `X-Svc-Signature`
 *   again, as a new delivery (retried as any other), after the order's pending ones.
 * Both take the merchant's API key in `X-Svc-Api-Key` (or a v1 merchant's `Authorization: Bearer`).
 */
import type { Delivery, DeliveryQueue } from '../delivery-queue.js';
import { HttpError, type Router, sendJson } from '../http.js';
import type { SandboxMerchantAuth } from '../sandbox-auth.js';
import { deliveryEventOf, deliveryKindOf } from '../sandbox-log.js';
import type { Store } from '../store.js';
import type { OrderBook } from './order-book.js';

/** A notification as listed. Times are ISO 8601 on the sandbox clock. */
export interface LegacyNotificationView {
  id: string;
  /** The gateway's order id (the notification's `order_id`). */
  orderId: string;
  /** The notification's `status`: `PAID`, `FAILED`, `CANCELLED`. */
  status: string | null;
  url: string;
  /** `pending` until the merchant answered 200, `failed` once given up. */
  state: Delivery['state'];
  createdAt: string;
  finishedAt: string | null;
  nextAttemptAt: string | null;
  attempts: Array<{
    at: string;
    status: number | null;
    error: string | null;
    accepted: boolean;
    durationMs: number;
  }>;
  /** The exact bytes sent, and their signature: check your receiver against these. */
  body: string;
  signature: string;
  /** The delivery this one resends, when it is a resend. */
  resendOf?: string;
}

export interface NotificationRoutesDeps {
  book: OrderBook;
  queue: DeliveryQueue;
  store: Store;
  auth: SandboxMerchantAuth;
}

export function mountLegacyNotificationRoutes(router: Router, deps: NotificationRoutesDeps): void {
  const { book, queue, auth } = deps;
  // The queue's own records (the collection createDeliveryQueue keeps them in), read only.
  const records = deps.store.collection<Delivery>('deliveries');
  /** The merchant's legacy notification `id`, or a 404 naming it. */
  const notificationOf = (merchantId: string, id: string): Delivery => {
    const delivery = queue.get(id);
    if (
      delivery === undefined ||
      delivery.owner !== merchantId ||
      deliveryKindOf(delivery) !== 'notification'
    )
      throw new HttpError(
        404,
        'unknown_notification',
        `The merchant has no notification ${JSON.stringify(id)}`,
      );
    return delivery;
  };
  router.on('GET', '/sandbox/legacy/notifications', async (context) => {
    const merchant = auth(context.req);
    const orderId = context.url.searchParams.get('order_id');
    let listed: Delivery[];
    if (orderId !== null) {
      const record = book.findForMerchant(merchant.id, orderId);
      if (record === undefined)
        throw new HttpError(
          404,
          'unknown_order',
          `The merchant has no order ${JSON.stringify(orderId)}`,
          'order_id',
        );
      listed = queue.deliveries(record.id);
    } else {
      listed = [...records.values()]
        .filter((delivery) => delivery.owner === merchant.id && deliveryKindOf(delivery) === 'notification')
        .sort((a, b) => b.seq - a.seq);
    }
    // Signatures not at hand are made on the thread pool: a long list would hold the event loop otherwise.
    const headers = await Promise.all(listed.map((delivery) => queue.signedHeaders(delivery)));
    sendJson(context.res, 200, {
      notifications: listed.map((delivery, index) => notificationView(delivery, headers[index]!)),
    });
  });
  router.on('POST', '/sandbox/legacy/notifications/:id/resend', (context) => {
    const merchant = auth(context.req);
    const original = notificationOf(merchant.id, context.params['id']!);
    const id = queue.enqueue({
      key: original.key,
      url: original.url,
      method: original.method,
      headers: original.headers,
      body: original.body,
      acceptStatus: original.acceptStatus,
      event: RESEND_PREFIX + original.id,
      ...(original.owner !== undefined && { owner: original.owner }),
      ...(original.signatureHeader !== undefined && { signatureHeader: original.signatureHeader }),
    });
    const copy = queue.get(id)!;
    sendJson(context.res, 201, notificationView(copy, queue.headersOf(copy)));
  });
}

/** A resend's `event` names the delivery it resends (legacy notifications have no event of their own). */
const RESEND_PREFIX = 'resend:';

/** The notification as listed; `headers` are those it goes out with ({@link DeliveryQueue.headersOf}). */
export function notificationView(
  delivery: Delivery,
  headers: Record<string, string>,
): LegacyNotificationView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  const resendOf = delivery.event?.startsWith(RESEND_PREFIX)
    ? delivery.event.slice(RESEND_PREFIX.length)
    : undefined;
  const status = deliveryEventOf(delivery);
  return {
    id: delivery.id,
    orderId: delivery.key,
    status: status ?? null,
    url: delivery.url,
    state: delivery.state,
    createdAt: new Date(delivery.createdAt).toISOString(),
    finishedAt: iso(delivery.finishedAt),
    nextAttemptAt: iso(delivery.nextAttemptAt),
    attempts: delivery.attempts.map((attempt) => ({
      at: new Date(attempt.at).toISOString(),
      status: attempt.status ?? null,
      error: attempt.error ?? null,
      accepted: attempt.accepted,
      durationMs: attempt.durationMs,
    })),
    body: delivery.body,
    signature: headers['x-svc-signature'] ?? '',
    ...(resendOf !== undefined && { resendOf }),
  };
}
