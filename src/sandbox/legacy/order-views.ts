/**
 * A legacy widget order as others see it: the widget API's view for the frame, the purchase notification's
 * body, and merchant API v2's order. The notification and merchant API v2 share the real service's order
 * model; money there is written with 2 decimals.
 */
import {
  type LegacyOrderStatus,
  NO_SHIPPING,
  type NotificationItem,
  type NotificationPayment,
  type NotificationShipping,
  type PurchaseNotification,
} from '../../core/legacy-callbacks.js';
import type { MerchantApiV2Order } from '../../core/merchant-api-v2-types.js';
import { formatMinorUnits } from '../../core/money.js';
import { parseTaxRate } from '../../core/order.js';
import { type PricedOrder, shippingTaxRate } from '../../core/totals.js';
import type { OrderView } from '../../core/widget-api.js';
import type { MerchantConfig } from '../config.js';
import { type MerchantDirectory, orderDefaults } from './merchant-directory.js';
import type { OrderBook } from './order-book.js';
import { isPaid, type OrderRecord, quoteOf, type ShippingChoice } from './order-records.js';
import { fraction, JsonNumber, money, netUnitAmount, quantity, type Written } from './wire-json.js';

export interface OrderViewsDeps {
  directory: MerchantDirectory;
  book: OrderBook;
}

export class OrderViews {
  constructor(private readonly deps: OrderViewsDeps) {}

  /** The order as the widget API shows it to the frame. */
  view(record: OrderRecord): OrderView {
    const merchant = this.deps.directory.merchant(record.merchantId);
    const { widget } = this.deps.directory.widget(record.widgetId);
    const order = this.deps.book.order(record);
    const priced = this.deps.book.price(record, merchant);
    const last = record.payment?.error ?? null;
    return {
      id: record.id,
      state: record.state,
      orderId: record.input.orderId ?? null,
      currency: priced.currency,
      lines: priced.lines.map((line) => ({
        type: line.type,
        label: line.label,
        unitAmount: formatMinorUnits(line.unitAmount),
        count: line.count.text,
        unit: line.unit,
        taxRate: line.taxRate.text,
        total: formatMinorUnits(line.total),
        tax: formatMinorUnits(line.tax),
      })),
      total: formatMinorUnits(priced.total),
      tax: formatMinorUnits(priced.tax),
      shippingOptions: order.shippingOptions.map((option) => {
        const quote = quoteOf(record, option.id);
        const amount = option.amount ?? quote?.amount;
        const quotedRate = quote?.taxRate === undefined ? undefined : parseTaxRate(quote.taxRate);
        return {
          id: option.id,
          label: option.title ?? option.id,
          type: option.type,
          amount: amount === undefined ? null : formatMinorUnits(amount),
          taxRate: shippingTaxRate(option, orderDefaults(merchant).taxRate, quotedRate).text,
        };
      }),
      constraints: order.constraints,
      collectCustomerData: widget.collectCustomerData,
      backToMerchantUrl: record.input.backToMerchantUrl ?? null,
      lastError: last,
      challengeId: record.state === 'CHALLENGE' ? record.challengeId : null,
    };
  }

  /**
   * The order as merchant API v2's GET answers it: the notification's shape with the status and payment of
   * the last notification, and members of ours after it. Sent with `JSON.stringify`, so numbers go plain.
   */
  apiView(record: OrderRecord): Written<MerchantApiV2Order> {
    const merchant = this.deps.directory.merchant(record.merchantId);
    const model = this.orderModel(record, merchant, this.merchantStatus(record), lastPayment(record));
    return {
      ...model,
      refunded_amount: money(record.refunds.reduce((sum, refund) => sum + refund.amount, 0)),
      // What the gateway still holds of the payment is what may be refunded.
      refundable_amount: model.effective_amount,
      created_at: record.createdAt,
      paid_at: record.paidAt,
    };
  }

  /** The purchase notification of the attempt (or cancellation) that `record` has just ended. */
  notification(record: OrderRecord, merchant: MerchantConfig): Written<PurchaseNotification> {
    const status = record.state as LegacyOrderStatus;
    const paymentStatus = status === 'PAID' ? 'SUCCEEDED' : status === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
    return this.orderModel(record, merchant, status, paymentOf(record.payment!, paymentStatus));
  }

  /**
   * The order's status as merchant API v2 tells it: the status of the last notification. While another
   * card is in its 3-D Secure step after a decline, that is still FAILED; PENDING until an attempt ends.
   */
  private merchantStatus(record: OrderRecord): MerchantApiV2Order['status'] {
    if (record.state !== 'CREATED' && record.state !== 'CHALLENGE') return record.state;
    const failedBefore = record.attempts.some(
      (attempt) => attempt.error && attempt.result !== 'processing_error',
    );
    return failedBefore ? 'FAILED' : 'PENDING';
  }

  /**
   * The order in the real service's order model (its official client's `MerchantOrder`), members in its
   * order, money written with 2 decimals: what the notification and merchant API v2's GET share.
   */
  private orderModel<Status extends string, Payment>(
    record: OrderRecord,
    merchant: MerchantConfig,
    status: Status,
    payment: Payment,
  ) {
    const priced = this.deps.book.price(record, merchant);
    const refunded = record.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    const company = merchant.company;
    return {
      id: record.id,
      order_id: record.input.orderId ?? null,
      status,
      company: {
        name: company?.name ?? merchant.name,
        address: company?.address ?? null,
        registration_number: company?.registrationNumber ?? null,
        vat_number: company?.vatNumber ?? null,
      },
      customer: {
        email: record.customer.email,
        first_name: record.customer.firstName,
        last_name: record.customer.lastName,
        phone_number: record.customer.phone,
      },
      payment,
      amount: money(priced.total - priced.tax),
      tax_amount: money(priced.tax),
      total_amount: money(priced.total),
      effective_amount: money(isPaid(record) ? priced.total - refunded : 0),
      items: notificationItems(priced),
      currency: priced.currency,
      merchant_urls: {
        confirmation: record.input.successRedirectUrl ?? null,
        place_order: record.input.backToMerchantUrl ?? null,
        terms: merchant.callbacks.termsUrl,
        verification: merchant.callbacks.orderVerificationUrl ?? null,
      },
      shipping: shippingModel(record.shipping, shippingDate(record)),
    } satisfies Written<Omit<PurchaseNotification, 'status' | 'payment'>> & {
      status: Status;
      payment: Payment;
    };
  }
}

/** The lines of a priced order as the notification (and merchant API v2) write them. */
function notificationItems(priced: PricedOrder): Written<NotificationItem>[] {
  return priced.lines.map((line) => ({
    amount: money(netUnitAmount(line.total, line.tax, line.count)),
    label: line.label,
    tax_amount: money(line.tax),
    total_amount: money(line.total),
    tax_rate: fraction(line.taxRate),
    order_item_id: line.orderItemId ?? null,
    quantity: quantity(line.count),
    unit: line.unit,
    // The widget's order says nothing of what an item is (physical or digital goods).
    type: line.type === 'SHIPPING' ? 'SHIPPING' : 'UNKNOWN',
  }));
}

/** A payment of the record as the notification writes it. */
function paymentOf(
  payment: NonNullable<OrderRecord['payment']>,
  status: NotificationPayment['status'],
): NotificationPayment {
  return {
    // Card payments are the only kind the widget takes; records kept before said VISA or MASTERCARD here.
    method: 'CARD',
    status,
    accountStatementReference: payment.reference
      ? `SVC-${payment.reference.slice(0, 8).toUpperCase()}`
      : null,
    card: payment.cardBin ? { bin: payment.cardBin } : null,
    error: payment.error ?? null,
  };
}

/**
 * The payment as the last notification told it: the paid or cancelled one, else the last attempt that
 * failed (one in its 3-D Secure step has not ended), else null.
 */
function lastPayment(record: OrderRecord): NotificationPayment | null {
  if (isPaid(record)) return paymentOf(record.payment!, 'SUCCEEDED');
  if (record.state === 'CANCELLED') return paymentOf(record.payment!, 'CANCELLED');
  const failed = record.attempts.findLast(
    (attempt) => attempt.error !== undefined && attempt.result !== 'processing_error',
  );
  if (!failed) return null;
  return paymentOf(
    {
      method: 'CARD',
      reference: failed.id,
      ...(failed.cardBin !== undefined && { cardBin: failed.cardBin }),
      ...(failed.error !== undefined && { error: failed.error }),
    },
    'FAILED',
  );
}

/**
 * The notification's `shipping.date`, `yyyy-MM-dd` in UTC: the widget asks for no preferred delivery date, so
 * it is the day of the payment (of the last attempt, for an order not paid).
 */
function shippingDate(record: OrderRecord): string {
  const at = record.paidAt ?? record.attempts.at(-1)?.at ?? record.createdAt;
  return at.slice(0, 10);
}

/**
 * The notification's `shipping`: an object even without a shipping choice or a pickup point, with null
 * members, since the official client's getters make models of `shipping`, its `address` and `pickup_point`.
 */
function shippingModel(shipping: ShippingChoice | null, date: string): Written<NotificationShipping> {
  if (!shipping) return NO_SHIPPING;
  const { address, pickupPoint } = shipping;
  const coordinate = (degrees: number | undefined) =>
    degrees === undefined ? null : new JsonNumber(String(degrees));
  const common = {
    date,
    method: { id: shipping.optionId, name: shipping.label },
    address: address
      ? {
          country: address.country,
          city: address.city,
          street: address.address,
          postal_code: address.postalCode,
          latitude: coordinate(address.latitude),
          longitude: coordinate(address.longitude),
        }
      : NO_SHIPPING.address,
    contact_phone: shipping.contactPhone,
  };
  // Written member by member, in the order the gateway writes them.
  if (shipping.type === 'PICKUP_POINT' && pickupPoint) {
    return {
      type: 'PICKUP_POINT',
      ...common,
      pickup_point: {
        name: pickupPoint.name,
        external_id: pickupPoint.externalId,
        comments: pickupPoint.comments,
        service_hours: pickupPoint.serviceHours,
      },
    };
  }
  return { type: 'ADDRESS', ...common, pickup_point: NO_SHIPPING.pickup_point };
}
