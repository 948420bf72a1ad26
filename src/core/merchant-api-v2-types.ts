/**
 * Bodies of the merchant API v2. The document shows only the refund request; the response shapes are ours,
 * and the sandbox answers exactly these, so the client and the sandbox read the same types.
 */
import type {
  LegacyOrderStatus,
  NotificationPayment,
  OrderRejectionReason,
  PurchaseNotification,
} from './legacy-callbacks.js';

/**
 * An order as `GET /v2/merchants/{merchant_id}/orders/{order_id}` answers it: the purchase notification's
 * shape (the real service's order model, which its official client reads as `MerchantOrder`), money as JSON
 * numbers, with members of ours beside it in the same snake_case.
 */
export interface MerchantApiV2Order extends Omit<PurchaseNotification, 'status' | 'payment'> {
  /** `PENDING` while no payment attempt has ended; otherwise the status of the last notification. */
  status: LegacyOrderStatus | 'PENDING';
  /** The last payment attempt; null before the first. */
  payment: NotificationPayment | null;
  /** Ours: refunded so far, in major units. */
  refunded_amount: number;
  /** Ours: what may still be refunded (0 unless paid). */
  refundable_amount: number;
  /** Ours: when the gateway took the order, ISO 8601. */
  created_at: string;
  /** Ours: when it was paid, ISO 8601; null until paid. */
  paid_at: string | null;
}

/** Why a refund is made: the reasons the real service takes (its official client's `RefundReason`). */
export const REFUND_REASONS = [
  'PRODUCT_OUT_OF_STOCK',
  'RETURNED_PRODUCT',
  'CANCELLED_SERVICE',
  'PRICE_ADJUSTMENT',
  'OTHER_REFUND',
  'RESERVATION_EXPIRED',
] as const;

export type RefundReason = (typeof REFUND_REASONS)[number];

/** Whether `value` is one of {@link REFUND_REASONS}. */
export function isRefundReason(value: unknown): value is RefundReason {
  return (REFUND_REASONS as readonly unknown[]).includes(value);
}

/** What a refund asks for. The real service's official client sends these members unwrapped. */
export interface MerchantApiV2RefundFields {
  /** Major units with 2 decimals (sent as a JSON number such as `12.30`). */
  amount: number;
  reason: RefundReason;
  /** Internal note visible in the console. */
  note?: string;
}

/**
 * The body of `POST /v2/merchants/{merchant_id}/orders/{order_id}/refunds` as the documents show it. The
 * sandbox also takes {@link MerchantApiV2RefundFields} unwrapped, as the official client sends them.
 */
export interface MerchantApiV2RefundRequest {
  refundRequest: MerchantApiV2RefundFields;
}

/**
 * The answer to a refund: the real service's two totals (JSON numbers, major units), and members of ours
 * beside them.
 */
export interface MerchantApiV2Refund {
  /** Refunded of the order so far, this refund included. */
  totalRefundedAmount: number;
  /** What the order is still worth: its paid total less `totalRefundedAmount`. */
  orderEffectiveAmount: number;
  /** Ours: the refund's id. */
  refundId: string;
  /** Ours: the gateway's order id. */
  orderId: string;
  /** Ours: this refund's amount, a 2-decimal string. */
  amount: string;
  /** Ours. */
  status: 'REFUNDED';
  /** Ours: the order as it stands after the refund. */
  order: MerchantApiV2Order;
}

/**
 * The body of `PUT /v2/merchants/{merchant_id}/orders/{order_id}`, which approves a CALLBACK widget's order
 * awaiting the merchant's decision. The real service's official client sends the whole order as it read it;
 * the sandbox reads `id` alone, which must name the order of the path.
 */
export interface MerchantApiV2ApproveRequest {
  id: string;
}

/** The body of `DELETE /v2/merchants/{merchant_id}/orders/{order_id}`, which rejects such an order. */
export interface MerchantApiV2RejectRequest {
  reasonCode: OrderRejectionReason;
}

/** The sandbox's answer to an approval or a rejection (ours: the documents show none). */
export interface MerchantApiV2OrderDecision {
  /** The gateway's order id. */
  id: string;
  decision: 'APPROVED' | 'REJECTED';
  /** The rejection's reason; null for an approval. */
  reasonCode: OrderRejectionReason | null;
}

/** The error body the sandbox's API v2 answers with on non-2xx (the document does not show one). */
export interface MerchantApiV2ErrorBody {
  error: { code: string; message: string; field?: string };
}
