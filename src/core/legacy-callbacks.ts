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

/** The payment part of a purchase notification. `error` may be absent even for a failed payment. */
export interface NotificationPayment {
  accountStatementReference: string | null;
  method: string | null;
  status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  error?: { code: string; message: string };
}

/** One line of a notified order. Amounts are decimal strings with 2 places, in major units. */
export interface NotificationItem {
  amount: string;
  label: string;
  tax_amount: string;
  total_amount: string;
  tax_rate: string;
  order_item_id: string | null;
  quantity: string;
  unit: Unit;
  type: 'UNKNOWN' | 'SHIPPING';
}

/** Delivery data, present when the widget collected it. */
export interface NotificationShipping {
  type: 'ADDRESS' | 'PICKUP_POINT';
  address: {
    country: string | null;
    city: string | null;
    street: string | null;
    latitude: number | null;
    longitude: number | null;
    postal_code: string | null;
  } | null;
  method: { id: string; name: string };
  contact_phone: string | null;
  pickup_point: {
    name: string;
    comments: string | null;
    external_id: string;
    service_hours: string | null;
  } | null;
}

/** The body of the PUT to the merchant's purchase notification URL, signed in `X-Svc-Signature`. */
export interface PurchaseNotification {
  /** The gateway's order id; the merchant's own id is in `order_id` when the merchant gave one. */
  id: string;
  order_id: string | null;
  status: LegacyOrderStatus;
  customer: NotificationCustomer;
  payment: NotificationPayment;
  tax_amount: string;
  total_amount: string;
  effective_amount: string;
  currency: string;
  items: NotificationItem[];
  merchant_urls: { confirmation: string | null };
  shipping: NotificationShipping | null;
}

/** The body of the POST to the merchant's shipping cost calculation URL, signed in `X-Svc-Signature`. */
export interface ShippingCostRequest {
  order_id: string;
  order_items: Array<{ reference: string; quantity: string }>;
  shipping_method_id: string;
  address: { city: string; address: string; postal_code: string };
  pickup_point?: { external_id: string; name: string; comments: string | null; service_hours: string | null };
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

/** Payload of the JWS posted to a CALLBACK widget's order verification URL. */
export interface OrderVerificationPayload {
  orderId: string;
  externalOrderId: string | null;
  iat: number;
}
