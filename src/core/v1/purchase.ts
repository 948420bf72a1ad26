/**
 * A Purchase as the gateway answers it, and the names of the events it goes through.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { ClientDetails } from './clients.js';
import type { PaymentMethodDetails } from './purchase-requests.js';

/**
 * Status of a Purchase. The document names `hold`, `paid`, `released` and the `pending_*` ones; it leaves
 * the rest open, and the sandbox uses: `created` (payable, nothing tried yet), `error` (the last payment
 * attempt failed; still payable), `cancelled` (by `POST /purchases/{id}/cancel/`) and `expired` (`due`
 * passed with `due_strict`; no longer payable). `preauthorized` is the platform's (its SDKs' PurchaseStatus
 * and sample payloads): a card saved without a charge (`skip_capture` with a total of 0); it holds no money.
 */
export type PurchaseStatus =
  | 'created'
  | 'error'
  | 'cancelled'
  | 'expired'
  | 'hold'
  | 'paid'
  | 'released'
  | 'pending_capture'
  | 'pending_release'
  | 'pending_charge'
  | 'pending_refund'
  | 'preauthorized';

/**
 * Whether and how a refund is possible. The document names `pis_all` and `pis_partial` (bank payments,
 * whose refund body differs) without defining them; the sandbox sends `pis_all` for a bank payment nothing of
 * which was refunded, and `pis_partial` once part of it was (the rest can be). `none` (nothing to refund) and
 * `all` (full or partial refund, cards and wallets) are the sandbox's.
 */
export type RefundAvailability = 'none' | 'all' | 'pis_all' | 'pis_partial';

/** Why a payment attempt failed, as the platform writes it. */
export interface PurchaseAttemptError {
  code: string;
  /** For people. */
  message: string;
}

/**
 * What the platform knows of the card of a card payment (`transaction_data.extra` and each attempt's
 * `extra`); `{}` for other methods. The sandbox fills `card_type` (`credit`) with a test value.
 */
export interface CardTransactionExtra {
  /** `credit` or `debit`. */
  card_type: string;
  /** The scheme, lower case: `visa`, `mastercard`. */
  card_brand: string;
  /** First six and last four digits: `444433******1111`. */
  masked_pan: string;
  card_issuer: string;
  /** ISO 3166-1 alpha-2 of the issuer, or `""`. */
  card_issuer_country: string;
  /** Two digits: 30 for 2030. */
  expiry_year: number;
  expiry_month: number;
  cardholder_name: string;
}

/** `transaction_data.extra` and an attempt's `extra`: the card's data for a card payment, else `{}`. */
export type TransactionExtra = CardTransactionExtra | Record<string, never>;

/** The kinds of attempt the platform writes, and the sandbox's `charge` and `refund`. */
export type PurchaseAttemptType =
  /** The customer paid at once. */
  | 'execute'
  /** The customer's card was authorised (`skip_capture`); the money is held. */
  | 'authorize'
  | 'capture'
  | 'release'
  | 'delete_recurring_token'
  /** The sandbox's: a recurring token was charged (`POST /purchases/{id}/charge/`). */
  | 'charge'
  /** The sandbox's: the acquirer made a refund. */
  | 'refund';

/** One payment attempt in `transaction_data.attempts` (newest first), as the platform writes it. */
export interface PurchaseAttempt {
  /** How it was paid: `payform` in the platform's samples, for the merchant's operations too, and in the sandbox. */
  flow: string;
  type: PurchaseAttemptType;
  /** Null when the attempt succeeded. */
  error: PurchaseAttemptError | null;
  extra: TransactionExtra;
  /** ISO 3166-1 alpha-2 of the method (the card's issuer), or `""`. */
  country: string;
  /** The customer's IP address for their own payment; `""` for the merchant's operations. */
  client_ip: string;
  /** The platform's fee of the attempt, in minor units; the sandbox's is a test value. */
  fee_amount: number;
  successful: boolean;
  payment_method: string;
  /** Unix timestamp (seconds). */
  processing_time: number;
  /** Not sent by the platform; the sandbox sends it. The creditor a bulk or variable-creditor payment paid. */
  creditor?: { name: string; iban: string };
  /** Not sent by the platform; the sandbox sends it. Minor units paid to `creditor`. */
  amount?: number;
}

/** `transaction_data` of a Purchase: the method that paid (the newest attempt's) and every attempt. */
export interface TransactionData {
  flow: string;
  extra: TransactionExtra;
  country: string;
  /** `""` before anything was tried. */
  payment_method: string;
  attempts: PurchaseAttempt[];
}

/** One product of a Purchase as the platform answers it. */
export interface PurchaseProductDetails {
  name: string;
  /** Unit price in minor units. */
  price: number;
  /** A decimal string with four places, as the platform writes it: `"1.0000"`. */
  quantity: string;
  /** Minor units; the sandbox takes none and sends 0. */
  discount: number;
  /** A decimal string with two places: `"0.00"`; the sandbox takes none. */
  tax_percent: string;
  category: string;
}

/** The `purchase` object of a Purchase as the gateway answers it. */
export interface PurchaseDetails {
  products: PurchaseProductDetails[];
  currency: string;
  language: string;
  due_strict: boolean;
  total_override: number | null;
  payment_method_details: PaymentMethodDetails;
  /** The amount due in minor units. */
  total: number;
  notes: string;
  /** Minor units owed from earlier; always 0 in the sandbox. */
  debt: number;
  subtotal_override: number | null;
  total_tax_override: number | null;
  total_discount_override: number | null;
  /** Client members the hosted page asks the customer for; always `[]` in the sandbox. */
  request_client_details: string[];
  /** IANA time zone name. */
  timezone: string;
  email_message: string;
  /** Always `[]` in the sandbox. */
  shipping_options: Array<Record<string, unknown>>;
  has_upsell_products: boolean;
}

/** One status a Purchase took, in `status_history` (oldest first). */
export interface PurchaseStatusChange {
  status: PurchaseStatus;
  /** Unix timestamp (seconds). */
  timestamp: number;
}

/**
 * The money of a Purchase (`payment`, null until it is paid) or of a refund Payment. The platform's fee
 * depends on money the sandbox does not move: its `fee_amount`, `net_amount`, `pending_amount` and
 * `pending_unfreeze_on` are test values.
 */
export interface PaymentDetails {
  /** `purchase` for a Purchase's payment, `refund` for a refund. */
  payment_type: 'purchase' | 'refund';
  /** True for money that leaves the merchant (a refund). */
  is_outgoing: boolean;
  /** Minor units. */
  amount: number;
  currency: string;
  /** `amount` less the platform's fees. */
  net_amount: number;
  fee_amount: number;
  /** Fees held back until `pending_unfreeze_on`. */
  pending_amount: number;
  /** Unix timestamp (seconds), or null when nothing is held back. */
  pending_unfreeze_on: number | null;
  description: string;
  /** Unix timestamp (seconds). */
  paid_on: number;
  remote_paid_on: number;
  owned_bank_account_id: string | null;
  owned_bank_account: string | null;
  owned_bank_code: string | null;
}

/** A bank account of the merchant's company, in `issuer_details`. */
export interface BankAccount {
  bank_account: string;
  bank_code: string;
}

/** The merchant's company as the invoice names it; the sandbox's are test values. */
export interface IssuerDetails {
  website: string;
  legal_street_address: string;
  legal_country: string;
  legal_city: string;
  legal_zip_code: string;
  bank_accounts: BankAccount[];
  legal_name: string;
  brand_name: string;
  registration_number: string;
  tax_number: string;
}

/** The names of the events the document lists. */
export type PurchaseEventType =
  | 'purchase.created'
  | 'purchase.paid'
  | 'purchase.payment_failure'
  | 'purchase.hold'
  | 'purchase.pending_charge'
  | 'purchase.pending_capture'
  | 'purchase.captured'
  | 'purchase.pending_release'
  | 'purchase.released'
  | 'purchase.pending_refund'
  | 'purchase.pending_recurring_token_delete'
  | 'purchase.recurring_token_deleted'
  | 'purchase.subscription_charge_failure'
  /**
   * Not in the document's list; the platform's SDKs and sample payloads name it: a card saved without a
   * charge.
   */
  | 'purchase.preauthorized';

/** Every event name of the document: the Purchase events and `payment.refunded` (which delivers a Payment). */
export type V1EventType = PurchaseEventType | 'payment.refunded';

/**
 * A Purchase as `POST /purchases/`, `GET /purchases/{id}/`, the operations on it (cancel, capture, release,
 * charge, ...), lists, webhooks and success callbacks send it: every member of the platform's Purchase, with
 * its types. Request members are echoed; those the request left out read as the platform writes them (`""`
 * for texts, `null` for the rest).
 */
export interface Purchase {
  /** UUID. */
  id: string;
  type: 'purchase';
  brand_id: string;
  /** The customer, with every member. */
  client: ClientDetails;
  /** The Client of the customer: the one given, else one the gateway made (or found by email). */
  client_id: string;
  purchase: PurchaseDetails;
  /** The money taken; null until the Purchase is paid. */
  payment: PaymentDetails | null;
  issuer_details: IssuerDetails;
  transaction_data: TransactionData;
  status: PurchaseStatus;
  status_history: PurchaseStatusChange[];
  /** Unix timestamp (seconds) of the first visit of the hosted page; null before. */
  viewed_on: number | null;
  /** UUID of the merchant's company. */
  company_id: string;
  /** Made with a test key: always true in the sandbox, whose keys are all test keys. */
  is_test: boolean;
  /** The platform user who made it; null when made through the API. */
  user_id: string | null;
  /** The BillingTemplate that made it, or null. */
  billing_template_id: string | null;
  send_receipt: boolean;
  is_recurring_token: boolean;
  /** The token Purchase a charge used; null otherwise. */
  recurring_token: string | null;
  skip_capture: boolean;
  force_recurring: boolean;
  /** The gateway's own reference, numbered per account. */
  reference_generated: string;
  /** The merchant's reference; `""` when none was given. */
  reference: string;
  /** The day it was issued, `YYYY-MM-DD`. */
  issued: string;
  /**
   * Unix timestamp (seconds) of the expiry. When none was given, the platform's default, an hour after
   * creation, which only `due_strict` enforces.
   */
  due: number;
  /** Upper bound of a refund, in minor units. */
  refundable_amount: number;
  refund_availability: RefundAvailability;
  /** Null: the sandbox converts no currency. */
  currency_conversion: Record<string, unknown> | null;
  payment_method_whitelist: string[] | null;
  payout_method_whitelist: string[] | null;
  /** `""` when not given (as the other redirects and the callback). */
  success_redirect: string;
  failure_redirect: string;
  cancel_redirect: string;
  success_callback: string;
  creator_agent: string;
  /** Where it was made: `api` in the platform's samples and always in the sandbox. */
  platform: string;
  /** The platform's product it belongs to: `purchases` in its samples and always in the sandbox. */
  product: string;
  /** The IP address the create request came from. */
  created_from_ip: string;
  invoice_url: string | null;
  /** The hosted payment page; accepts `?preferred=<payment method>`. The sandbox's: `<base>/checkout/<id>/`. */
  checkout_url: string;
  direct_post_url: string | null;
  marked_as_paid: boolean;
  order_id: string | null;
  can_retrieve: boolean;
  can_chargeback: boolean;
  can_mark_as_refunded: boolean;
  audit_log_entries: Array<Record<string, unknown>>;
  upsell_campaigns: Array<Record<string, unknown>>;
  referral_campaign_id: string | null;
  referral_code: string | null;
  referral_code_generated: string | null;
  referral_code_details: Record<string, unknown> | null;
  retain_level_details: Record<string, unknown> | null;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
  /** Present in callback payloads only: the event that caused the callback. */
  event_type?: PurchaseEventType;
  /** Not sent by the platform; the sandbox sends it after `mark_as_paid`: the `paid_on` given, or then. */
  paid_on?: number;
}
