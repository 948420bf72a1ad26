/**
 * What the demo merchant keeps of the v1 interface: the Purchases it created (by its own reference), and the
 * success callbacks and webhook deliveries it verified, in the order they arrived. The gateway delivers at
 * least once; a repeated delivery (told apart by `createEventDeduplicator`) only counts up `deliveries`.
 */
import type { Purchase, V1WebhookEvent } from 'svc-checkout/server';

/** Where an event came from: the Purchase's `success_callback`, or the shop's webhook. */
export type V1EventSource = 'success_callback' | 'webhook';

/** A success callback or webhook delivery whose `X-Signature` checked out. */
export interface V1ReceivedEvent {
  /** Its place in the order of arrival, from 1. */
  sequence: number;
  source: V1EventSource;
  /** The deduplicator's key: the same for a repeated delivery of this event. */
  key: string;
  /** Such as `purchase.created` or `purchase.paid`. */
  eventType: string;
  /** The Purchase's id (the Payment's, for `payment.refunded`). */
  objectId: string;
  /** The shop's reference of the Purchase, when the event carries one. */
  reference: string | null;
  /** The Purchase's status in the event's snapshot. */
  status: string | null;
  /** The method of the newest payment attempt, when there was one. */
  paymentMethod: string | null;
  /** When it first arrived (ISO 8601). */
  receivedAt: string;
  /** How many times it was delivered: more than 1 only when the gateway repeated it. */
  deliveries: number;
}

/** A delivery that was refused: unsigned, forged, altered or unreadable. */
export interface V1RefusedDelivery {
  source: V1EventSource;
  receivedAt: string;
  /** The HTTP status answered. */
  status: number;
  /** `signature_missing`, `signature_invalid`, `malformed_body`, ... */
  code: string;
  message: string;
}

/** A Purchase the shop created, as its back end knows it. */
export interface V1Order {
  /** The shop's order reference (the Purchase's `reference`). */
  reference: string;
  purchaseId: string;
  checkoutUrl: string;
  /** In cents. */
  total: number;
  currency: string;
  createdAt: string;
  /** The status of the newest snapshot received (`created` until an event says otherwise). */
  status: string;
}

/** What the log tells its listeners (and the notifications page, as server-sent events). */
export type V1LogEvent =
  | { type: 'v1-event'; event: V1ReceivedEvent; repeated: boolean }
  | { type: 'v1-refused'; refused: V1RefusedDelivery }
  | { type: 'v1-order'; order: V1Order };

interface OrderRecord {
  order: V1Order;
  /** `updated_on` of the snapshot that set `order.status`: an older snapshot arriving late changes nothing. */
  updatedOn: number;
}

function summary(
  event: V1WebhookEvent,
): Pick<V1ReceivedEvent, 'eventType' | 'objectId' | 'reference' | 'status' | 'paymentMethod'> {
  if (event.event_type === 'payment.refunded') {
    return {
      eventType: event.event_type,
      objectId: event.id,
      reference: null,
      status: null,
      paymentMethod: null,
    };
  }
  return {
    eventType: event.event_type,
    objectId: event.id,
    reference: event.reference,
    status: event.status,
    paymentMethod: event.transaction_data?.attempts?.[0]?.payment_method ?? null,
  };
}

export class V1EventLog {
  private readonly received: V1ReceivedEvent[] = [];
  private readonly byKey = new Map<string, V1ReceivedEvent>();
  private readonly refusedList: V1RefusedDelivery[] = [];
  private readonly orders = new Map<string, OrderRecord>();
  private readonly referenceOf = new Map<string, string>();
  private readonly listeners = new Set<(event: V1LogEvent) => void>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Verified events, oldest first. */
  get events(): readonly V1ReceivedEvent[] {
    return this.received;
  }

  /** Refused deliveries, oldest first. */
  get refused(): readonly V1RefusedDelivery[] {
    return this.refusedList;
  }

  /** The Purchase the shop created under `reference`. */
  order(reference: string): V1Order | undefined {
    return this.orders.get(reference)?.order;
  }

  /** The events of one Purchase, oldest first. */
  eventsOf(purchaseId: string): V1ReceivedEvent[] {
    return this.received.filter((event) => event.objectId === purchaseId);
  }

  /** Records a Purchase the shop just created. */
  addOrder(purchase: Purchase, reference: string): V1Order {
    const order: V1Order = {
      reference,
      purchaseId: purchase.id,
      checkoutUrl: purchase.checkout_url,
      total: purchase.purchase.total ?? 0,
      currency: purchase.purchase.currency,
      createdAt: this.now().toISOString(),
      status: purchase.status,
    };
    this.orders.set(reference, { order, updatedOn: purchase.updated_on ?? 0 });
    this.referenceOf.set(purchase.id, reference);
    this.emit({ type: 'v1-order', order });
    return order;
  }

  /** Keeps the first delivery of a verified event. */
  add(source: V1EventSource, key: string, event: V1WebhookEvent): V1ReceivedEvent {
    const entry: V1ReceivedEvent = {
      sequence: this.received.length + 1,
      source,
      key,
      ...summary(event),
      receivedAt: this.now().toISOString(),
      deliveries: 1,
    };
    this.byKey.set(`${source}:${key}`, entry);
    this.received.push(entry);
    this.emit({ type: 'v1-event', event: entry, repeated: false });
    if (event.event_type !== 'payment.refunded') this.updateOrder(event.id, event.status, event.updated_on);
    return entry;
  }

  /** Counts a repeated delivery of an event already kept. */
  repeat(source: V1EventSource, key: string): void {
    const known = this.byKey.get(`${source}:${key}`);
    if (!known) return;
    known.deliveries += 1;
    this.emit({ type: 'v1-event', event: known, repeated: true });
  }

  /** Records a refused delivery. */
  refuse(refused: Omit<V1RefusedDelivery, 'receivedAt'>): void {
    const entry = { receivedAt: this.now().toISOString(), ...refused };
    this.refusedList.push(entry);
    this.emit({ type: 'v1-refused', refused: entry });
  }

  /** Calls `listener` on each event kept or repeated, each refusal and each order change; returns the unsubscribe. */
  subscribe(listener: (event: V1LogEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the first kept event that matches, waiting for it if need be.
   * @throws Error after `timeoutMs` without one, naming what was kept.
   */
  waitFor(match: (event: V1ReceivedEvent) => boolean, timeoutMs = 10_000): Promise<V1ReceivedEvent> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        const kept = this.received.map((event) => `${event.source} ${event.eventType}`).join(', ') || 'none';
        reject(new Error(`No matching v1 event within ${timeoutMs} ms; kept: ${kept}`));
      }, timeoutMs);
      const unsubscribe = this.subscribe((logEvent) => {
        if (logEvent.type === 'v1-event' && !logEvent.repeated && match(logEvent.event)) {
          clearTimeout(timer);
          unsubscribe();
          resolve(logEvent.event);
        }
      });
    });
  }

  private updateOrder(purchaseId: string, status: string, updatedOn: number | undefined): void {
    const reference = this.referenceOf.get(purchaseId);
    const record = reference === undefined ? undefined : this.orders.get(reference);
    if (!record || (updatedOn ?? 0) < record.updatedOn) return;
    record.updatedOn = updatedOn ?? record.updatedOn;
    if (record.order.status === status) return;
    record.order = { ...record.order, status };
    this.emit({ type: 'v1-order', order: record.order });
  }

  private emit(event: V1LogEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
