/**
 * What the demo merchant keeps of the v1 interface: the Purchases it created (by its own reference), each as
 * the newest snapshot it saw (an event's, or an operation's answer), and the success callbacks and webhook
 * deliveries it verified, in the order they arrived. The gateway delivers at least once; a repeated delivery
 * (told apart by `createEventDeduplicator`) only counts up `deliveries`.
 */
import type { Purchase, V1WebhookEvent } from 'svc-checkout/server';
import type { V1PaymentMode } from './v1-cart.js';

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
  /** The Purchase the event is about: its own, or for `payment.refunded` the one refunded (`related_to`). */
  purchaseId: string | null;
  /**
   * The shop's reference of that Purchase: the event's `reference`, or for a refund the one the shop gave the
   * Purchase refunded (null when the shop does not know it).
   */
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

/** How a Purchase of the shop came about: a customer's way of paying, or the back office's charge of a saved card. */
export type V1OrderMode = V1PaymentMode | 'charge';

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
  /** How the order came about: the customer's way of paying, or a charge of a saved card. */
  mode: V1OrderMode;
  /** For a charge of a saved card: the reference of the order whose card paid it. */
  chargedWith: string | null;
  /** The Client the Purchase was made for (`client_id`): the customer's, or the one the gateway made for a guest. */
  clientId: string | null;
  /** The status of the newest snapshot (an event's, or the answer to an operation on it). */
  status: string;
  /** What can still be refunded, in cents (`refundable_amount`). */
  refundableAmount: number;
  /** Whether the Purchase is a recurring token: its card can be charged again. */
  isRecurringToken: boolean;
  /** Paid outside the gateway, as the staff recorded (`marked_as_paid`). */
  markedAsPaid: boolean;
}

/** How the shop created a Purchase, for {@link V1EventLog.addOrder}. */
export interface V1OrderOrigin {
  reference: string;
  mode: V1OrderMode;
  /** For a charge: the reference of the order whose card pays it. */
  chargedWith?: string;
}

/** What the log tells its listeners (and the notifications page, as server-sent events). */
export type V1LogEvent =
  | { type: 'v1-event'; event: V1ReceivedEvent; repeated: boolean }
  | { type: 'v1-refused'; refused: V1RefusedDelivery }
  | { type: 'v1-order'; order: V1Order };

interface OrderRecord {
  order: V1Order;
  /** `updated_on` of the snapshot the order was last read from: an older snapshot arriving late changes nothing. */
  updatedOn: number;
}

type EventSummary = Pick<
  V1ReceivedEvent,
  'eventType' | 'objectId' | 'purchaseId' | 'reference' | 'status' | 'paymentMethod'
>;

function summary(event: V1WebhookEvent): EventSummary {
  if (event.event_type === 'payment.refunded') {
    return {
      eventType: event.event_type,
      objectId: event.id,
      // Only `id` and `event_type` are checked on arrival: read the rest as untrusted.
      purchaseId:
        event.related_to?.type === 'purchase' && typeof event.related_to.id === 'string'
          ? event.related_to.id
          : null,
      reference: null,
      status: null,
      paymentMethod: null,
    };
  }
  return {
    eventType: event.event_type,
    objectId: event.id,
    purchaseId: event.id,
    reference: event.reference,
    status: event.status,
    paymentMethod: event.transaction_data?.attempts?.[0]?.payment_method ?? null,
  };
}

/** The members of a Purchase (an answer's, a callback's or a webhook's) that the shop keeps. */
export type PurchaseSnapshot = Pick<
  Purchase,
  'id' | 'updated_on' | 'status' | 'refundable_amount' | 'is_recurring_token' | 'marked_as_paid'
>;

/** What the shop keeps of a Purchase snapshot. */
function snapshotOf(
  purchase: PurchaseSnapshot,
): Pick<V1Order, 'status' | 'refundableAmount' | 'isRecurringToken' | 'markedAsPaid'> {
  return {
    status: purchase.status,
    refundableAmount: purchase.refundable_amount,
    isRecurringToken: purchase.is_recurring_token,
    markedAsPaid: purchase.marked_as_paid,
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

  /** The order of one of the shop's Purchases, by the Purchase's id (a saved card's id is its Purchase's). */
  orderOfPurchase(purchaseId: string): V1Order | undefined {
    const reference = this.referenceOf.get(purchaseId);
    return reference === undefined ? undefined : this.order(reference);
  }

  /** Every Purchase the shop created, newest first. */
  get allOrders(): V1Order[] {
    return [...this.orders.values()].map((record) => record.order).reverse();
  }

  /** The events about one Purchase (its refunds' included), oldest first. */
  eventsOf(purchaseId: string): V1ReceivedEvent[] {
    return this.received.filter((event) => event.purchaseId === purchaseId);
  }

  /** Records a Purchase the shop just created. */
  addOrder(purchase: Purchase, origin: V1OrderOrigin): V1Order {
    const order: V1Order = {
      reference: origin.reference,
      purchaseId: purchase.id,
      checkoutUrl: purchase.checkout_url,
      total: purchase.purchase.total ?? 0,
      currency: purchase.purchase.currency,
      createdAt: this.now().toISOString(),
      mode: origin.mode,
      chargedWith: origin.chargedWith ?? null,
      clientId: purchase.client_id ?? null,
      ...snapshotOf(purchase),
    };
    this.orders.set(origin.reference, { order, updatedOn: purchase.updated_on ?? 0 });
    this.referenceOf.set(purchase.id, origin.reference);
    this.emit({ type: 'v1-order', order });
    return order;
  }

  /**
   * Takes a newer snapshot of one of the shop's Purchases (an operation's answer, or the Purchase read
   * again); an older one, or one of a Purchase the shop did not create, changes nothing.
   * @returns the order as it is now; undefined for a Purchase the shop did not create.
   */
  update(purchase: PurchaseSnapshot): V1Order | undefined {
    const reference = this.referenceOf.get(purchase.id);
    const record = reference === undefined ? undefined : this.orders.get(reference);
    if (!record) return undefined;
    const updatedOn = purchase.updated_on ?? 0;
    if (updatedOn < record.updatedOn) return record.order;
    record.updatedOn = updatedOn;
    const snapshot = snapshotOf(purchase);
    const fields = Object.keys(snapshot) as (keyof typeof snapshot)[];
    if (fields.every((field) => snapshot[field] === record.order[field])) return record.order;
    record.order = { ...record.order, ...snapshot };
    this.emit({ type: 'v1-order', order: record.order });
    return record.order;
  }

  /** Keeps the first delivery of a verified event. */
  add(source: V1EventSource, key: string, event: V1WebhookEvent): V1ReceivedEvent {
    const about = summary(event);
    const entry: V1ReceivedEvent = {
      sequence: this.received.length + 1,
      source,
      key,
      ...about,
      reference:
        about.reference ??
        (about.purchaseId === null ? null : (this.referenceOf.get(about.purchaseId) ?? null)),
      receivedAt: this.now().toISOString(),
      deliveries: 1,
    };
    this.byKey.set(`${source}:${key}`, entry);
    this.received.push(entry);
    this.emit({ type: 'v1-event', event: entry, repeated: false });
    if (event.event_type !== 'payment.refunded') this.update(event);
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

  private emit(event: V1LogEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
