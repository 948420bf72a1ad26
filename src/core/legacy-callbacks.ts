/**
 * Bodies the gateway sends to a merchant's callback URLs in the legacy (widget) interface. The sandbox
 * builds them and the server toolkit parses them, so both read the same types.
 */
import type { Unit } from './order.js';

/** How a payment attempt of a legacy order ended, or the order's state since, as `status` of the purchase notification carries it (FAILED: that attempt failed; the order stays payable). */
export type LegacyOrderStatus = 'PAID' | 'FAILED' | 'CANCELLED' | 'REFUNDED' | 'PARTIALLY_REFUNDED';

/** Customer data collected by the widget (or prefilled by the merchant). */
export interface NotificationCustomer {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
}

/** The merchant's company, as the gateway's merchant console holds it (the sandbox: the config's `company`). */
export interface NotificationCompany {
  name: string;
  address: string | null;
  registration_number: string | null;
  vat_number: string | null;
}

/**
 * The payment part of a purchase notification: the attempt that ended (or, for CANCELLED, the last card
 * tried). `method` is `CARD` for card payments. `card.bin` is the first 6 digits of the card, never more;
 * `card` is null when no card was used. `error` is null when the attempt did not fail.
 */
export interface NotificationPayment {
  method: 'CARD' | null;
  status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  accountStatementReference: string | null;
  card: { bin: string } | null;
  error: { code: string; message: string } | null;
}

/** What an order line sells, as the real service's official client names it. */
export type NotificationItemType = 'PHYSICAL_GOODS' | 'DIGITAL_GOODS' | 'SHIPPING' | 'UNKNOWN';

/**
 * One line of a notified order. Money members are JSON numbers in major units (2 decimals); `amount` is the
 * net unit price, `(total_amount - tax_amount) / quantity` rounded half up to the cent (72.73 for a gross
 * 88.00 at 0.21); `tax_rate` is a fraction (0.21); `quantity` a number. The widget's order states no item
 * type, so items are `UNKNOWN` and the shipping line is `SHIPPING`.
 */
export interface NotificationItem {
  amount: number;
  label: string;
  tax_amount: number;
  total_amount: number;
  tax_rate: number;
  order_item_id: string | null;
  quantity: number;
  unit: Unit;
  type: NotificationItemType;
}

/**
 * The merchant's URLs of the order: `confirmation` the page's `success-redirect-url`, `place_order` its
 * `back-to-merchant-url`, `terms` the merchant's terms URL, `verification` its order verification URL; null
 * where there is none.
 */
export interface NotificationMerchantUrls {
  confirmation: string | null;
  place_order: string | null;
  terms: string | null;
  verification: string | null;
}

/**
 * Where a delivery goes: the customer's address, or a pickup point's. Every member is null where it is not
 * known (an order without shipping, a pickup point without a configured address).
 */
export interface NotificationAddress {
  country: string | null;
  city: string | null;
  street: string | null;
  postal_code: string | null;
  latitude: number | null;
  longitude: number | null;
}

/** The pickup point the customer chose. */
export interface NotificationPickupPoint {
  name: string;
  external_id: string;
  comments: string | null;
  service_hours: string | null;
}

/**
 * `pickup_point` when no point was chosen: every member null, not `null` itself, since the official client's
 * `Shipping::getPickupPoint()` makes a model of it (`new PickupPoint(null)` throws).
 */
export type NoPickupPoint = { [Member in keyof NotificationPickupPoint]: null };

/** Delivery data of a shipping option the customer chose. */
interface ChosenShipping<Type extends 'ADDRESS' | 'PICKUP_POINT', PickupPoint> {
  type: Type;
  /**
   * The delivery date, `yyyy-MM-dd`. The widget asks for no preferred date, so the gateway gives the day the
   * attempt ended (the payment day of a PAID order), in UTC.
   */
  date: string;
  /**
   * The shipping option chosen: its id and title (its id when it has none), not the pickup point, which is
   * `pickup_point`.
   */
  method: { id: string; name: string };
  /** A pickup point's address when the gateway knows it, else the customer's. */
  address: NotificationAddress;
  contact_phone: string | null;
  pickup_point: PickupPoint;
}

/**
 * `shipping` of an order without a shipping choice: every member null, and the nested models with null
 * members, so that the official client's `MerchantOrder::getShipping()` and its getters read it.
 */
export interface NoShipping {
  type: null;
  date: null;
  method: { id: null; name: null };
  address: { [Member in keyof NotificationAddress]: null };
  contact_phone: null;
  pickup_point: NoPickupPoint;
}

/** The `shipping` of an order without a shipping choice. */
export const NO_SHIPPING: NoShipping = Object.freeze({
  type: null,
  date: null,
  method: Object.freeze({ id: null, name: null }),
  address: Object.freeze({
    country: null,
    city: null,
    street: null,
    postal_code: null,
    latitude: null,
    longitude: null,
  }),
  contact_phone: null,
  pickup_point: Object.freeze({ name: null, external_id: null, comments: null, service_hours: null }),
});

/** Delivery data: to the customer's address, to a pickup point, or none (`type` null). */
export type NotificationShipping =
  | ChosenShipping<'ADDRESS', NoPickupPoint>
  | ChosenShipping<'PICKUP_POINT', NotificationPickupPoint>
  | NoShipping;

/**
 * The body of the PUT to the merchant's purchase notification URL, signed in `X-Svc-Signature` over its exact
 * bytes: the real service's order model (its official client reads it as `MerchantOrder`). Money members are
 * JSON numbers in major units. The gateway writes them with 2 decimals and quantities with 3 (`88.00`,
 * `1.000`), as the real service does; JSON readers see the same numbers either way.
 */
export interface PurchaseNotification {
  /** The gateway's order id; the merchant's own id is in `order_id` when the merchant gave one. */
  id: string;
  order_id: string | null;
  /**
   * How the attempt ended, or the order's state since. The real service also sends `VERIFIED` (its documents
   * do not say when; this gateway never does); `verifyPaidOrder` takes only `PAID` as paid.
   */
  status: LegacyOrderStatus | 'VERIFIED';
  company: NotificationCompany;
  customer: NotificationCustomer;
  payment: NotificationPayment;
  /** The order's net amount: `total_amount - tax_amount`. */
  amount: number;
  tax_amount: number;
  total_amount: number;
  /** What the gateway holds of the payment: `total_amount` once PAID (less refunds), else 0. */
  effective_amount: number;
  currency: string;
  items: NotificationItem[];
  merchant_urls: NotificationMerchantUrls;
  /** Always an object, `type` null without a shipping choice (see {@link NoShipping}). */
  shipping: NotificationShipping;
}

/**
 * The body of the POST to the merchant's shipping cost calculation URL, signed in `X-Svc-Signature`.
 * `order_items` lists the order's items in their order: `reference` is the item's `orderItemId` (null for an
 * item without one: its place in the list tells it), `quantity` its count as a JSON number.
 */
export interface ShippingCostRequest {
  order_id: string;
  order_items: Array<{ reference: string | null; quantity: number }>;
  shipping_method_id: string;
  address: { city: string; address: string; postal_code: string };
  pickup_point?: NotificationPickupPoint;
}

/**
 * What the merchant answers to a shipping cost request (the document does not show it; this is ours):
 * the price of the option with tax included, and optionally its currency and tax rate.
 */
export interface ShippingCostResponse {
  amount: string | number;
  currency?: string;
  taxRate?: string | number;
}

/** Why a merchant rejects a CALLBACK widget's order, as the real service's official client names it. */
export const ORDER_REJECTION_REASONS = [
  'PRICE_CHANGED',
  'PRODUCT_NOT_AVAILABLE',
  'RESERVATION_EXPIRED',
  'DELIVERY_ADDRESS_NOT_SUPPORTED',
  'MERCHANT_RISK_TOO_HIGH',
  'MERCHANT_MISCONFIGURATION',
  'MERCHANT_NOT_AVAILABLE',
  'OTHER',
] as const;

export type OrderRejectionReason = (typeof ORDER_REJECTION_REASONS)[number];

/** Whether `value` is one of {@link ORDER_REJECTION_REASONS}. */
export function isOrderRejectionReason(value: unknown): value is OrderRejectionReason {
  return (ORDER_REJECTION_REASONS as readonly unknown[]).includes(value);
}

/** Payload of the JWS posted to a CALLBACK widget's order verification URL. */
export interface OrderVerificationPayload {
  /** The gateway's order id: the one merchant API v2 reads, approves and rejects. */
  orderId: string;
  /** The merchant's own `order-id`, or null. */
  externalOrderId: string | null;
  /** Seconds since the epoch, when the token carries it; the real service's tokens carry none. */
  iat?: number;
}

/**
 * What the merchant's order verification URL answers, 2xx with JSON: approve, or reject with a reason. An
 * answer without `approved` decides nothing: the gateway then waits for merchant API v2's approval (`PUT`) or
 * rejection (`DELETE`) of the order, as the real service's official client makes them.
 */
export type OrderVerificationAnswer =
  | { approved: true }
  | { approved: false; reasonCode?: OrderRejectionReason };
