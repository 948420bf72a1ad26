/**
 * Bodies of the merchant API v2. The document shows only the refund request; the response shapes are ours,
 * and the sandbox answers exactly these, so the client and the sandbox read the same types.
 */
import type { LegacyOrderStatus, NotificationItem } from './legacy-callbacks.js';

/** An order as `GET /v2/merchants/{merchant_id}/orders/{order_id}` answers it. Amounts: 2-decimal strings. */
export interface MerchantApiV2Order {
  /** The gateway's order id. */
  id: string;
  /** The merchant's own order id (`order-id` of the widget), when one was given. */
  orderId: string | null;
  /** `PENDING` while the customer has not finished paying; otherwise the notification's status. */
  status: LegacyOrderStatus | 'PENDING';
  currency: string;
  totalAmount: string;
  refundedAmount: string;
  refundableAmount: string;
  items: NotificationItem[];
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601; null until paid. */
  paidAt: string | null;
}

/** The body of `POST /v2/merchants/{merchant_id}/orders/{order_id}/refunds`, as the document shows it. */
export interface MerchantApiV2RefundRequest {
  refundRequest: {
    /** Major units with 2 decimals (sent as a JSON number such as `12.30`). */
    amount: number;
    /** `OTHER_REFUND` is the value seen. */
    reason: string;
    /** Internal note visible in the console. */
    note?: string;
  };
}

/** The answer to a refund: the refund and the order as it stands after it. */
export interface MerchantApiV2Refund {
  refundId: string;
  orderId: string;
  /** The refunded amount, a 2-decimal string. */
  amount: string;
  status: 'REFUNDED';
  order: MerchantApiV2Order;
}

/** The error body the sandbox's API v2 answers with on non-2xx (the document does not show one). */
export interface MerchantApiV2ErrorBody {
  error: { code: string; message: string; field?: string };
}
