/**
 * Webhook deliveries: an event of an object (a Purchase) goes to every webhook of its merchant that
 * subscribes to it, as the JSON of the object signed with that webhook's own key (`X-Signature`, Base64
 * SHA256withRSA over the raw body), through the sandbox's delivery queue, which retries until a 2xx answer
 * with at most 8 further attempts at growing intervals within 36 hours. The queue key is one per webhook and
 * object, so one webhook's events of one object arrive strictly in order, while a webhook that fails holds up
 * only its own deliveries.
 *
 * Which deliveries belong to which object is kept in the store beside the queue's own records (which hold the
 * attempts), so `GET /webhooks/deliveries/` lists an object's whole history, deleted webhooks included, after
 * a restart as well. The queue keeps the newest 100,000 finished deliveries; older ones drop out of the list.
 */
import type {
  PurchaseWebhookPayload,
  WebhookDelivery,
  WebhookDeliveryAttempt,
  WebhookEventType,
} from '../../core/v1-types.js';
import { signBody } from '../../server/index.js';
import type { Delivery, DeliveryQueue } from '../delivery-queue.js';
import type { Collection, Store } from '../store.js';
import { type PurchaseEvents, type PurchaseRecord, purchaseView } from './purchases.js';
import type { DeliverySource } from './webhook-request.js';
import type { V1Webhooks } from './webhooks.js';

/** The deliveries of one object, oldest first. */
interface ObjectDeliveries {
  merchantId: string;
  deliveries: Array<{ deliveryId: string; webhookId: string; event: WebhookEventType }>;
}

export interface WebhookDeliveriesDeps {
  store: Store;
  queue: DeliveryQueue;
  webhooks: V1Webhooks;
}

export class WebhookDeliveries {
  private readonly objects: Collection<ObjectDeliveries>;

  constructor(private readonly deps: WebhookDeliveriesDeps) {
    this.objects = deps.store.collection<ObjectDeliveries>('v1-webhook-deliveries');
  }

  /**
   * Queues the payload for every webhook of the merchant that subscribes to `event`. Inside a store
   * transaction the deliveries become part of it: sent once it commits, never if it rolls back. `payload` is
   * called only when some webhook subscribes: a Purchase's view is not cheap, and most events have none.
   */
  emit(merchantId: string, event: WebhookEventType, source: DeliverySource, payload: () => object): void {
    const subscribers = this.deps.webhooks.subscribers(merchantId, event);
    if (subscribers.length === 0) return;
    // Serialised once: every webhook gets the same bytes, each signed with its own key.
    const body = JSON.stringify(payload());
    this.deps.store.transaction(() => {
      const objectKey = `${source.type}:${source.id}`;
      const known = this.objects.get(objectKey);
      const deliveries = [...(known?.deliveries ?? [])];
      for (const { webhook, privateKeyPem } of subscribers) {
        const deliveryId = this.deps.queue.enqueue({
          key: `${queueKeyPrefix(webhook.id)}${objectKey}`,
          url: webhook.callback,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-signature': signBody(body, privateKeyPem),
          },
          body,
          acceptStatus: '2xx',
          event,
          owner: merchantId,
        });
        deliveries.push({ deliveryId, webhookId: webhook.id, event });
      }
      this.objects.put(objectKey, { merchantId, deliveries });
    });
  }

  /**
   * Deletes the merchant's webhook and stops the retries of its deliveries (they stay listed, given up), in
   * one store transaction: a refused write (a full disk) leaves both as they were.
   * @throws V1HttpError 404 when there is no such webhook.
   */
  deleteWebhook(merchantId: string, id: string): void {
    this.deps.store.transaction(() => {
      this.deps.queue.cancel(queueKeyPrefix(this.deps.webhooks.delete(merchantId, id)));
    });
  }

  /** The deliveries of the merchant's object, oldest first, with their attempts. */
  list(merchantId: string, source: DeliverySource): WebhookDelivery[] {
    const known = this.objects.get(`${source.type}:${source.id}`);
    if (!known || known.merchantId !== merchantId) return [];
    return known.deliveries.flatMap(({ deliveryId, webhookId, event }) => {
      const delivery = this.deps.queue.get(deliveryId);
      return delivery ? [deliveryView(delivery, webhookId, event)] : [];
    });
  }
}

/** The start of the queue keys of one webhook's deliveries (one key per webhook and object). */
function queueKeyPrefix(webhookId: string): string {
  return `v1-webhook:${webhookId}:`;
}

/** Reports purchase events as webhook deliveries of the purchase, its `checkout_url` on `baseUrlOf` it. */
export function purchaseWebhookEvents(
  deliveries: WebhookDeliveries,
  baseUrlOf: (record: PurchaseRecord) => string,
): PurchaseEvents {
  return {
    emit(event, record) {
      deliveries.emit(
        record.merchantId,
        event,
        { type: 'purchase', id: record.purchase.id },
        (): PurchaseWebhookPayload => ({ ...purchaseView(record, baseUrlOf(record)), event_type: event }),
      );
    },
  };
}

function deliveryView(delivery: Delivery, webhookId: string, event: WebhookEventType): WebhookDelivery {
  const iso = (ms: number) => new Date(ms).toISOString();
  const attempts: WebhookDeliveryAttempt[] = delivery.attempts.map((attempt) => ({
    attempted_on: iso(attempt.at),
    status_code: attempt.status ?? null,
    error: attempt.error ?? null,
    successful: attempt.accepted,
    duration_ms: attempt.durationMs,
  }));
  return {
    id: delivery.id,
    webhook_id: webhookId,
    event,
    url: delivery.url,
    payload: JSON.parse(delivery.body) as Record<string, unknown>,
    created_on: iso(delivery.createdAt),
    delivered_on:
      delivery.state === 'delivered' && delivery.finishedAt !== null ? iso(delivery.finishedAt) : null,
    status: delivery.state,
    next_attempt_on: delivery.nextAttemptAt === null ? null : iso(delivery.nextAttemptAt),
    attempts: attempts.length,
    delivery_attempts: attempts,
  };
}
