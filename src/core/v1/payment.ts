/**
 * The Payment a refund creates: the answer of `POST /purchases/{id}/refund/`, and what `payment.refunded`
 * delivers.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { ClientDetails } from './clients.js';
import type { CardTransactionExtra, PaymentDetails, TransactionData } from './purchase.js';

/**
 * The Payment a refund creates, as `POST /purchases/{id}/refund/` answers it and `payment.refunded` delivers
 * it. The document names none of its fields ("Fields: not shown"); these are the platform's, as its
 * `payment.refunded` webhooks carry them.
 */
export interface Payment {
  /** UUID of the Payment (not of the Purchase: see `related_to`). */
  id: string;
  /** The kind of object, as a webhook delivery's `source_type` names it. */
  type: 'payment';
  /** `pending` while a slow acquirer still works on it; `success` once the money went back. */
  status: 'pending' | 'success';
  /** The refund's money: `payment_type: 'refund'`, `is_outgoing: true`; `paid_on` is 0 while `pending`. */
  payment: PaymentDetails;
  /**
   * The refunded Purchase's customer, with the platform's `client_id` (null), `first_name` and `last_name`
   * (`""`); `full_name` is whom the refund went to (the request's `client_name`, else the Purchase's).
   */
  client: ClientDetails & { client_id: string | null; first_name: string; last_name: string };
  /** The method the refund went back through, without attempts; its `extra` has the refund's `amount`. */
  transaction_data: Omit<TransactionData, 'attempts' | 'extra'> & {
    extra: Partial<CardTransactionExtra> & { amount: number };
  };
  /** The Purchase refunded, with its `reference_generated`. */
  related_to: { type: 'purchase'; id: string; reference: string };
  /** As the refunded Purchase's. */
  is_test: boolean;
  company_id: string;
  user_id: string | null;
  /** `""`: a refund has no reference of the merchant's. */
  reference: string;
  /** The gateway's own reference of the refund, numbered per account. */
  reference_generated: string;
  /** The fee of the refund (a test value in the sandbox). */
  fee_amount: number;
  refund_availability: 'none';
  currency_conversion: Record<string, unknown> | null;
  account_extra: Record<string, unknown>;
  account_fx_rate: number | null;
  account_fx_currency: string | null;
  account_fx_buy_amount: number | null;
  audit_log_entries: Array<Record<string, unknown>>;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
}

/** The body of a `payment.refunded` webhook delivery: the Payment with the event's name. */
export type PaymentRefundedPayload = Payment & { event_type: 'payment.refunded' };
