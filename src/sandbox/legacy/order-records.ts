/**
 * What the sandbox keeps of a legacy widget order (the `legacy-orders` store collection), the payment request
 * as the widget API's route has read it, and the few rules every part reads off a record: whether it is paid,
 * whether it takes a payment, the quote kept for an option.
 */
import type { OrderRejectionReason } from '../../core/legacy-callbacks.js';
import type { MinorUnits } from '../../core/money.js';
import { type Order, type OrderInput, parseOrder } from '../../core/order.js';
import type { OrderState, PaymentRequest } from '../../core/widget-api.js';

export interface CustomerData {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

export interface ShippingChoice {
  optionId: string;
  label: string;
  amount: MinorUnits;
  type: 'ADDRESS' | 'PICKUP_POINT';
  address: {
    city: string;
    address: string;
    postalCode: string;
    country: string | null;
    /** A pickup point's coordinates, when the config gives them. */
    latitude?: number;
    longitude?: number;
  } | null;
  pickupPoint: {
    externalId: string;
    name: string;
    comments: string | null;
    serviceHours: string | null;
  } | null;
  contactPhone: string | null;
}

export interface PaymentAttempt {
  id: string;
  at: string;
  cardLast4: string;
  /** The card's first 6 digits (absent on attempts stored before it was kept). */
  cardBin?: string;
  scheme: string;
  result: 'approved' | 'declined' | 'challenge' | 'processing_error';
  /** Why the attempt did not pay: a decline, a processing error, or a 3-D Secure step the customer denied. */
  error?: { code: string; message: string };
}

export interface Refund {
  id: string;
  amount: MinorUnits;
  reason: string;
  note: string;
  at: string;
}

/** What the sandbox keeps of one order. Card numbers are never kept: only the first six and last four digits. */
export interface OrderRecord {
  id: string;
  merchantId: string;
  widgetId: string;
  input: OrderInput;
  state: OrderState;
  createdAt: string;
  paidAt: string | null;
  customer: CustomerData;
  /** The latest price of each option priced by the merchant, with the pickup point it was asked for. */
  quotes: Record<string, { amount: MinorUnits; taxRate?: string; currency?: string; pickupPointId?: string }>;
  shipping: ShippingChoice | null;
  attempts: PaymentAttempt[];
  /** Idempotency keys of payment requests already answered, with the attempt they made. */
  idempotency: Record<string, string>;
  challengeId: string | null;
  /** The last payment attempt; `cardBin` is its card's first 6 digits (absent when no card was used). */
  payment: {
    method: string;
    reference: string;
    cardBin?: string;
    error?: { code: string; message: string };
  } | null;
  refunds: Refund[];
  /** A CALLBACK widget's order: where the merchant's decision stands. Absent on other orders. */
  verification?: OrderVerification;
}

/**
 * The merchant's decision on a CALLBACK widget's order. The order is kept from before the merchant is
 * asked, so that merchant API v2 can read it, and the widget API takes it only once it is APPROVED.
 * EXPIRED: no decision came in time (or the verification URL did not answer), and the intake was refused.
 */
export interface OrderVerification {
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';
  /** A rejection's reason, when the merchant gave one of `ORDER_REJECTION_REASONS`. */
  reasonCode?: OrderRejectionReason;
  /** How the decision came: the verification URL's answer, or merchant API v2 (`PUT` / `DELETE`). */
  via?: 'answer' | 'api';
  /** When the decision was taken, by the sandbox clock. */
  at?: string;
}

/**
 * A payment request as the widget API's route has read it (the wire's {@link PaymentRequest}): customer
 * fields left out or empty read as null, and the card holder as `''`.
 */
export interface PaymentIntake extends Omit<PaymentRequest, 'card' | 'customer'> {
  card: Required<PaymentRequest['card']>;
  customer?: Partial<CustomerData>;
}

/** Sends a signed request to a merchant URL and reads its answer (shipping cost, order verification). */
export type CallMerchant = (
  url: string,
  body: string,
  contentType: string,
) => Promise<{ status: number; body: string }>;

/**
 * States in which the order takes no further payment. FAILED is not among them: a declined attempt leaves
 * the order payable, so the customer may try another card.
 */
export const FINAL: ReadonlySet<OrderState> = new Set([
  'PAID',
  'CANCELLED',
  'REFUNDED',
  'PARTIALLY_REFUNDED',
]);

/** The order a record keeps, read: the merchant's input was checked at intake. */
export function orderOf(input: OrderInput): Order {
  const { value, error } = parseOrder(input);
  if (error) throw error;
  return value;
}

/** Whether the order was paid (and perhaps refunded since). */
export function isPaid(record: OrderRecord): boolean {
  return record.state === 'PAID' || record.state === 'REFUNDED' || record.state === 'PARTIALLY_REFUNDED';
}

/** The quote kept for a shipping option: an own member only, whatever the option's id (`constructor`…). */
export function quoteOf(record: OrderRecord, optionId: string): OrderRecord['quotes'][string] | undefined {
  return Object.hasOwn(record.quotes, optionId) ? record.quotes[optionId] : undefined;
}
