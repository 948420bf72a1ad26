/**
 * What a merchant sends about a Purchase: the body of `POST /purchases/` and of the operations on one
 * (capture, charge, refund, mark as paid).
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { ClientDetails, ClientDetailsText } from './clients.js';
import type { PaymentMethods, PayoutMethods } from './payment-methods.js';

/** One item of `purchase.products`. Amounts are integers in minor units. */
export interface PurchaseProduct {
  name: string;
  /** Unit price in minor units (cents). */
  price: number;
  /** Whole units; 1 when left out. */
  quantity?: number;
  /** The merchant's own grouping of products; `""` when left out. */
  category?: string;
}

/**
 * Customer data of a Purchase as the merchant sends it: any text member of {@link ClientDetails}, and `cc`,
 * `bcc`. The document names `email`, `full_name` and `personal_code`.
 */
export type PurchaseClient = Partial<Record<ClientDetailsText, string>> & { cc?: string[]; bcc?: string[] };

/** One creditor of a bulk bank payment; pairs with the product at the same position. */
export interface PisBulkCreditor {
  creditor_name: string;
  creditor_iban: string;
}

/** Who the debtor of a variable-creditor payment is. */
export type DebtorIdentificationType = 'organisation' | 'private';

/** A variable-creditor bank payment: the creditor of this Purchase (name and IBAN must be whitelisted). */
export interface PisPurchaseDetails {
  creditor: { name: string; iban: string };
  /** Optional; when `identification` is given, `client.personal_code` is required too. */
  debtor?: { identification?: { type: DebtorIdentificationType; scheme_name: string } };
}

/** One receiver of a card bulk payment; pairs with the product at the same position. */
export interface SvcBulkReceiver {
  receiver_name: string;
  receiver_iban: string;
  receiver_personal_id: string;
}

/** `purchase.payment_method_details`: method-specific data. */
export interface PaymentMethodDetails {
  /** Bulk bank payment: as many entries as products. */
  pis_bulk_purchase?: PisBulkCreditor[];
  /** Variable creditor. */
  pis_purchase?: PisPurchaseDetails;
  /** Card bulk payment: as many entries as products; needs `client.full_name`, `client.personal_code` and `purchase.total_override`. */
  svc_bulk_purchase?: SvcBulkReceiver[];
  /** The customer's IP address. */
  ip_address?: string;
}

/** The `purchase` object of a create request. */
export interface PurchaseDetailsRequest {
  products: PurchaseProduct[];
  /** ISO 4217. The sandbox falls back to the merchant's default currency when left out. */
  currency?: string;
  /** Language of the hosted page (ISO 639-1). The sandbox falls back to the merchant's default language. */
  language?: string;
  /** With `due` set and this `true`, payment is not accepted after `due`. */
  due_strict?: boolean;
  /** The amount due in minor units, instead of the sum of the products; required for card bulk payments. */
  total_override?: number;
  payment_method_details?: PaymentMethodDetails;
  /** The merchant's note on the invoice; `""` when left out. */
  notes?: string;
  /** IANA time zone name of the invoice's dates; the sandbox's default is `UTC`. */
  timezone?: string;
  /** Text added to the invoice email; `""` when left out. */
  email_message?: string;
}

/** The body of `POST /purchases/`. */
export interface CreatePurchaseRequest {
  /** The brand (a UUID) the Purchase belongs to; it must be a brand of the key's account. */
  brand_id: string;
  client?: PurchaseClient;
  /** Id (UUID) of a stored Client: enables saved cards and one-click payment at checkout. */
  client_id?: string;
  purchase: PurchaseDetailsRequest;
  /** The merchant's own order reference. */
  reference?: string;
  /** Receives the signed success callback. */
  success_callback?: string;
  success_redirect?: string;
  failure_redirect?: string;
  cancel_redirect?: string;
  /** `true` separates authorization from capture (reservation). */
  skip_capture?: boolean;
  /** `true` registers the paying card so that the Purchase can later be a recurring token. */
  force_recurring?: boolean;
  /** Restricts the Purchase to these payment method names (see {@link PaymentMethods}). */
  payment_method_whitelist?: string[];
  /** Payout method names (see {@link PayoutMethods}) the Purchase's payouts may use; kept and answered. */
  payout_method_whitelist?: string[];
  /** Unix timestamp (seconds) of the Purchase's expiry. */
  due?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Purchases: the operations' requests

/** The body of `POST /purchases/{id}/capture/`. Leave it out, or `amount` out, to capture in full. */
export interface CapturePurchaseRequest {
  /**
   * Minor units to capture, at most the amount held; a smaller amount captures part of it and the remainder
   * is released.
   */
  amount?: number;
}

/** The body of `POST /purchases/{id}/charge/`. */
export interface ChargePurchaseRequest {
  /**
   * The id (UUID) of a Purchase with `is_recurring_token: true`; the charge pays with its method (the same
   * card).
   */
  recurring_token: string;
}

/** The body of `POST /purchases/{id}/refund/`. Leave it out to refund in full. */
export interface RefundPurchaseRequest {
  /** Minor units to refund, at most the Purchase's `refundable_amount`; the whole of it when left out. */
  amount?: number;
  /**
   * Whom the refund goes to, at most 70 characters; when left out, `purchase.client.full_name` (or
   * `purchase.full_name`).
   */
  client_name?: string;
}

/** The body of `POST /purchases/{id}/mark_as_paid/`. */
export interface MarkAsPaidRequest {
  /** When it was paid: a Unix timestamp (seconds, UTC); now when left out. */
  paid_on?: number;
}
