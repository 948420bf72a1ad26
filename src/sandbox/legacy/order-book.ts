/**
 * The legacy widget orders the sandbox keeps (the store's `legacy-orders` collection): found by gateway id or
 * by the merchant's order id, read and priced, and the rule that an order id is paid once per widget, which
 * intake and payments both apply.
 */
import { type Order, type OrderInput, parseTaxRate } from '../../core/order.js';
import { isPlainObject } from '../../core/plain-object.js';
import { type PricedOrder, priceOrder } from '../../core/totals.js';
import { BoundedCache } from '../../server/for-sandbox.js';
import type { MerchantConfig, WidgetConfig } from '../config.js';
import { HttpError } from '../http.js';
import type { Collection, Store } from '../store.js';
import { orderDefaults } from './merchant-directory.js';
import { isPaid, type OrderRecord, orderOf, quoteOf } from './order-records.js';

export class OrderBook {
  /**
   * The kept orders. Parts change them here (`put`, `update`); a new order goes in through {@link add}, so
   * that the order id index sees it.
   */
  readonly records: Collection<OrderRecord>;
  /** Stored orders keep the merchant's input, which never changes; reading it once per order is enough. */
  private readonly parsedOrders = new BoundedCache<string, Order>(10_000);
  /** The orders by widget and merchant order id, for intake and payments to find an order id's others. */
  private byOrderId: OrderIdIndex | undefined;

  constructor(store: Store) {
    this.records = store.collection<OrderRecord>('legacy-orders');
  }

  /** Keeps a new order; `order`, when given, is its input read already (what {@link order} would read). */
  add(record: OrderRecord, order?: Order): void {
    this.records.put(record.id, record);
    this.byOrderId?.add(record);
    if (order !== undefined) this.parsedOrders.set(record.id, order);
  }

  /** The order a record keeps, read once. */
  order(record: OrderRecord): Order {
    let order = this.parsedOrders.get(record.id);
    if (!order) {
      order = orderOf(record.input);
      this.parsedOrders.set(record.id, order);
    }
    return order;
  }

  /** The merchant of the order with gateway id `id`, if there is one: for its request's log line. */
  merchantOf(id: string): string | undefined {
    return this.records.get(id)?.merchantId;
  }

  /** An order the widget API may act on: a CALLBACK widget's only once the merchant approved it. */
  get(id: string): OrderRecord {
    const record = this.records.get(id);
    if (!record) throw new HttpError(404, 'unknown_order', `No order ${JSON.stringify(id)}`);
    if (record.verification !== undefined && record.verification.status !== 'APPROVED') {
      throw new HttpError(
        409,
        'order_not_approved',
        `Order ${JSON.stringify(id)} is not approved by the merchant (${record.verification.status}); it cannot be paid`,
      );
    }
    return record;
  }

  /** Orders of one merchant with the merchant's own order id (or the gateway id). */
  findForMerchant(merchantId: string, orderId: string): OrderRecord | undefined {
    const direct = this.records.get(orderId);
    if (direct?.merchantId === merchantId) return direct;
    const named = [...this.records.values()].filter(
      (record) => record.merchantId === merchantId && record.input.orderId === orderId,
    );
    // A cart the merchant did not approve (or has not yet) is kept too; one that went on is the order.
    const wentOn = named.filter(
      (record) => record.verification === undefined || record.verification.status === 'APPROVED',
    );
    // Of several, the one paid is meant. Several paid (another cart signed under a paid order id, or the id
    // used on two widgets) name no one order: the oldest would be read or refunded in place of the one meant.
    const paid = wentOn.filter(isPaid);
    if (paid.length > 1) {
      throw new HttpError(
        409,
        'ambiguous_order_id',
        `Order id ${JSON.stringify(orderId)} names ${paid.length} paid orders of this merchant (${paid.map((record) => record.id).join(', ')}); use the gateway's order id`,
      );
    }
    return paid[0] ?? wentOn[0] ?? named[0];
  }

  /** The order priced: with the chosen shipping, at its quoted tax rate, when one is chosen. */
  price(record: OrderRecord, merchant: MerchantConfig): PricedOrder {
    const order = this.order(record);
    const defaults = orderDefaults(merchant);
    if (!record.shipping) return priceOrder(order, defaults);
    const quote = quoteOf(record, record.shipping.optionId);
    return priceOrder(order, defaults, {
      id: record.shipping.optionId,
      label: record.shipping.label,
      amount: record.shipping.amount,
      ...(quote?.taxRate !== undefined && { taxRate: parseTaxRate(quote.taxRate) }),
    });
  }

  /**
   * Another order of the same widget, order id and content that is paid already: two payment forms opened for
   * one order before either was paid (two tabs, a reload mid-payment) must not both charge.
   */
  paidTwin(widget: WidgetConfig, record: OrderRecord): OrderRecord | undefined {
    const { orderId } = record.input;
    if (orderId == null) return undefined;
    return this.ordersWithOrderId(widget.id, orderId).find(
      (other) => other.id !== record.id && isPaid(other) && sameCharge(widget, other.input, record.input),
    );
  }

  /** The widget's orders with this merchant order id, oldest first. */
  ordersWithOrderId(widgetId: string, orderId: string): OrderRecord[] {
    this.byOrderId ??= new OrderIdIndex(this.records.values());
    return this.byOrderId.ids(widgetId, orderId).flatMap((id) => this.records.get(id) ?? []);
  }
}

/**
 * Whether two orders of one widget charge for the same: always on a fixed-price widget (its order is the
 * gateway's), else when the merchant's content is the same. The language only says how the frame speaks,
 * and the certificate name which key signed it (a reload signed with a new certificate charges the same).
 */
export function sameCharge(widget: WidgetConfig, a: OrderInput, b: OrderInput): boolean {
  if (widget.type === 'INSTANT') return true;
  const { language: _a, certificateName: _ca, ...contentA } = a;
  const { language: _b, certificateName: _cb, ...contentB } = b;
  return canonicalJson(contentA) === canonicalJson(contentB);
}

/** JSON with members in sorted order and undefined ones left out: equal content, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The refusal of a second payment under an order id already paid on the widget. It says "paid" and nothing
 * else of that order: whoever sent it may not be the customer who paid.
 */
export function orderAlreadyPaid(orderId: string, how: string, field?: string): HttpError {
  return new HttpError(
    409,
    'order_already_paid',
    `Order ${JSON.stringify(orderId)} is already paid on this widget, ${how}; nothing was charged`,
    field,
  );
}

/** The widget's orders by merchant order id, oldest first, as gateway ids. */
class OrderIdIndex {
  private readonly byKey = new Map<string, string[]>();

  /** @param records in the order they were taken, as the store keeps them. */
  constructor(records: Iterable<OrderRecord>) {
    for (const record of records) this.add(record);
  }

  add(record: OrderRecord): void {
    const { orderId } = record.input;
    if (orderId === undefined) return;
    const key = `${record.widgetId}\u0000${orderId}`;
    const ids = this.byKey.get(key);
    if (ids) ids.push(record.id);
    else this.byKey.set(key, [record.id]);
  }

  ids(widgetId: string, orderId: string): readonly string[] {
    return this.byKey.get(`${widgetId}\u0000${orderId}`) ?? [];
  }
}
