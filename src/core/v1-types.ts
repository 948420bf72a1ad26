/**
 * Wire types of the gateway's v1 REST interface (`spec/gateway-rest-api-v1.md`), shared by the server
 * toolkit's v1 client and the sandbox, so both read and write the same shapes. Member names are the wire's
 * (`snake_case`). Where the document leaves something open, the choice the sandbox makes is named in the
 * member's comment; members the document does not name are optional and say so, since the real gateway may
 * not send them, except those of the platform's Purchase, Payment and ClientDetails, which its webhook payloads
 * and SDK models show it always sends.
 */

// ---------------------------------------------------------------------------------------------------------
// Purchases: the request of `POST /purchases/`

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

/** The text members of {@link ClientDetails}: `""` on the wire where nothing was given. */
export type ClientDetailsText =
  | 'email'
  | 'phone'
  | 'full_name'
  /** Personal identification code; also the debtor identification value of a variable-creditor payment. */
  | 'personal_code'
  | 'street_address'
  | 'country'
  | 'city'
  | 'zip_code'
  | 'state'
  | 'shipping_street_address'
  | 'shipping_country'
  | 'shipping_city'
  | 'shipping_zip_code'
  | 'shipping_state'
  | 'legal_name'
  | 'brand_name'
  | 'registration_number'
  | 'tax_number'
  | 'bank_account'
  | 'bank_code';

/**
 * The customer of a Purchase as the platform sends it (its ClientDetails): every member always, `""` for a
 * text nobody gave, `[]` for no copies.
 */
export type ClientDetails = Record<ClientDetailsText, string> & {
  /** Addresses that get a copy of the invoice and receipt. */
  cc: string[];
  bcc: string[];
  /** The platform's kind of customer; null when not set (the sandbox never sets it). */
  client_type: 'personal' | 'business' | null;
  /** How invoices reach the customer: the sandbox's are always `[{method: 'email', options: {}}]`. */
  delivery_methods: Array<{ method: string; options: Record<string, unknown> }>;
};

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
// Purchases: the resource

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

/** The body of a success callback (and of a Purchase webhook): the Purchase when the event happened. */
export type PurchaseCallbackPayload = Purchase & { event_type: PurchaseEventType };

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

// ---------------------------------------------------------------------------------------------------------
// Payments: what a refund creates

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

// ---------------------------------------------------------------------------------------------------------
// Wallet payments, server to server: `POST {base_url}/p/{purchase_id}/`

/** The payment method names of the two mobile wallets, as the form field `pm` carries them. */
export type WalletMethod = 'svc_wallet_a' | 'svc_wallet_b';

/** The success answer of a wallet post: the payment is under way; its outcome comes by webhook. */
export interface WalletPaymentAccepted {
  /** Text that tells the caller to wait for the webhook. */
  status: string;
}

/**
 * Wallet B's answer when the wallet's gateway took the payment (`result: 'SUCCESS'`). With a non-null
 * `response.threeDsRedirectUrl` the customer must pass 3-D Secure there first. The document names these
 * members but not their types: the amounts are JSON numbers (the document does not give their unit), the
 * rest strings.
 */
export interface WalletBPaymentAnswer {
  /** The wallet gateway's id of the merchant. */
  merchant: string;
  /** The order at the wallet's gateway. */
  order: {
    /** The order's amount. */
    amount: number;
    /** When the order was created (ISO 8601). */
    creationTime: string;
    /** ISO 4217. */
    currency: string;
    /** The wallet gateway's id of the order. */
    id: string;
    /** When the order last changed (ISO 8601). */
    lastUpdatedTime: string;
    /** How much of it was refunded. */
    totalRefundedAmount: number;
    /** How much of it was authorized. */
    totalAuthorizedAmount: number;
    /** How much of it was captured. */
    totalCapturedAmount: number;
    /** How much of it was paid out. */
    totalDisbursedAmount: number;
    /** ISO 4217: the merchant's settlement currency. */
    merchantCurrency: string;
  };
  /** The wallet gateway's outcome. */
  response: {
    /** The wallet gateway's outcome code. */
    gatewayCode: string;
    /** Where to send the customer for 3-D Secure; null when no challenge is needed. */
    threeDsRedirectUrl: string | null;
  };
  /** Always `SUCCESS` in this answer (a failure has {@link WalletPaymentFailure}'s shape). */
  result: 'SUCCESS';
  /** The transaction at the wallet's gateway. */
  transaction: {
    /** The wallet gateway's id of the transaction. */
    id: string;
    /** The transaction's amount. */
    amount: number;
    /** ISO 4217. */
    currency: string;
    /** The kind of transaction, such as an authorization or a payment. */
    type: string;
    /** The acquirer's retrieval reference number. */
    retRefNr: string;
  };
}

/**
 * The failure answer of a wallet post. The sandbox sends it with HTTP 400 (a processing error, as the
 * document's Errors table calls a 400); the toolkit's client takes it with any 2xx status too.
 */
export interface WalletPaymentFailure {
  /** What the wallet's gateway answered. */
  error_response: {
    /** Its outcome. */
    response: {
      /** Why the wallet's gateway declined, as its code. */
      gatewayCode: string;
      /** Always null: there is no 3-D Secure step to take. */
      threeDsRedirectUrl: null;
    };
    /** Always `FAILURE`. */
    result: 'FAILURE';
  };
}

/** Every answer of a wallet post the document shows. */
export type WalletPaymentAnswer = WalletPaymentAccepted | WalletBPaymentAnswer | WalletPaymentFailure;

// ---------------------------------------------------------------------------------------------------------
// Clients

/**
 * The members of a Client that a merchant sets: every member of {@link ClientDetails} but the platform's own
 * `client_type` and `delivery_methods`. The document names `email`, `full_name` and `personal_code`. `null`
 * clears a member (`""`, or `[]` for `cc` and `bcc`).
 */
export type ClientRequest = {
  /** Required when creating or replacing a Client. */
  email?: string;
} & {
  /** `country` and `shipping_country`: ISO 3166-1 alpha-2, such as `LV`. */
  [Member in Exclude<ClientDetailsText, 'email'>]?: string | null;
} & {
  /** Addresses that get a copy of the invoice and receipt. */
  cc?: string[] | null;
  bcc?: string[] | null;
};

/** A Client as the gateway answers it: the platform's ClientDetails (every member, `""` where unset) and its id. */
export type Client = ClientDetails & {
  /** UUID; a Purchase's `client_id`. */
  id: string;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
};

/**
 * A saved card of a Client: a paid Purchase of the Client made with `force_recurring`. Its `id` is that
 * Purchase's id, which `POST /purchases/{id}/charge/` takes as `recurring_token`. The document shows no
 * other field; these are the sandbox's.
 */
export interface ClientRecurringToken {
  /** The token Purchase's id. */
  id: string;
  /** The method it pays with, such as `visa`. */
  payment_method: string;
  /** For people: `Visa •••• 1111`. */
  description: string;
  /** The card's brand and last four digits, when it is a card. */
  card: { brand: string; last4: string } | null;
  /** Unix timestamp (seconds): when the card was saved. */
  created_on: number;
}

// ---------------------------------------------------------------------------------------------------------
// Payment and payout methods

/** The query of `GET /payment_methods/`. Booleans travel as `true` / `false`. */
export interface PaymentMethodsQuery {
  brand_id: string;
  /** ISO 4217. */
  currency: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  /** `true` leaves out methods without recurring charges. */
  recurring?: boolean;
  /** `true` leaves out methods without `skip_capture`. */
  skip_capture?: boolean;
  /** `true` leaves out methods without preauthorization. */
  preauthorization?: boolean;
  /** ISO 639-1: the language of `names`, `country_names` and group labels. */
  language?: string;
}

/** A logo: a path (or several) relative to the API host, such as `/sandbox/v1/logos/visa.svg`. */
export type MethodLogo = string | string[];

/** A group of methods shown as one choice, such as every card method under `card`. */
export interface PaymentMethodGroup {
  name: string;
  logo: MethodLogo;
  label: string;
  methods: string[];
}

/** The answer of `GET /payment_methods/`. */
export interface PaymentMethods {
  /** Usable in `payment_method_whitelist` and in `?preferred=`. */
  available_payment_methods: string[];
  /** Country code (lower case) to method names; `any` lists the methods of all countries. */
  by_country: Record<string, string[]>;
  /** Country code to its name; `any` is `Other` (in the requested language). */
  country_names: Record<string, string>;
  /** Method to display name. */
  names: Record<string, string>;
  /** Method to logo path(s), relative to the API host. */
  logos: Record<string, MethodLogo>;
  /** The card methods, which are shown grouped under `card`. */
  card_methods: string[];
  payment_method_groups: PaymentMethodGroup[];
}

/** The query of `GET /payout_methods/`. */
export interface PayoutMethodsQuery {
  brand_id: string;
  /** ISO 4217. */
  currency: string;
  /** ISO 639-1. */
  language?: string;
}

/** The answer of `GET /payout_methods/`. */
export interface PayoutMethods {
  /** Usable in `payout_method_whitelist`. */
  available_payout_methods: string[];
  names: Record<string, string>;
  logos: Record<string, MethodLogo>;
  card_methods: string[];
}

/**
 * The answer of `GET /public_key/`: a JSON string holding the PEM (SPKI, `-----BEGIN PUBLIC KEY-----`) of the
 * company key that signs success callbacks.
 */
export type V1PublicKey = string;

// ---------------------------------------------------------------------------------------------------------
// Webhooks

/**
 * Events the sandbox sends beyond the document's list: the document names no event for cancelling a
 * Purchase, and the sandbox sends `purchase.cancelled` so that a subscriber hears of every state its
 * purchases reach. A real gateway may not send it.
 */
export type SandboxPurchaseEventType = 'purchase.cancelled';

/** What a webhook can subscribe to: every event of the document, and the sandbox's own. */
export type WebhookEventType = V1EventType | SandboxPurchaseEventType;

/**
 * The body of a Purchase webhook delivery: the Purchase when the event happened, with the event's name (as in
 * a success callback, whose payload is the same Purchase snapshot).
 */
export type PurchaseWebhookPayload = Omit<Purchase, 'event_type'> & {
  event_type: PurchaseEventType | SandboxPurchaseEventType;
};

/**
 * A registered callback target, as `/webhooks/` answers it. The document names `public_key` only and leaves
 * the URL and the event selection open; the sandbox names them `callback`, `events` and `all_events`, and
 * sends `title`, `created_on` and `updated_on` besides.
 */
export interface Webhook {
  /** UUID. */
  id: string;
  /** The merchant's own name for it. */
  title: string;
  /** Receives the deliveries (POST, JSON, signed `X-Signature`). */
  callback: string;
  /** `true` delivers every event, including any added later; `events` is then ignored. */
  all_events: boolean;
  /** The events delivered when `all_events` is `false`. */
  events: WebhookEventType[];
  /** PEM (SPKI, `-----BEGIN PUBLIC KEY-----`) of the webhook's own key pair: it verifies `X-Signature`. */
  public_key: string;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  created_on?: number;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  updated_on?: number;
}

/**
 * The body of `POST /webhooks/` and `PUT /webhooks/{id}/` (`PATCH` takes any part of it). The sandbox
 * requires `title` and `callback`, and either `all_events: true` or at least one event.
 */
export interface WebhookRequest {
  title: string;
  /** An absolute http(s) URL. */
  callback: string;
  /** Default `false`. */
  all_events?: boolean;
  /** Default none; each a {@link WebhookEventType}. */
  events?: WebhookEventType[];
}

/**
 * The kind of object whose deliveries `GET /webhooks/deliveries/` lists (the document's WebhookSourceType,
 * whose values it does not show; the sandbox names the four kinds the endpoint mentions).
 */
export type WebhookSourceType = 'purchase' | 'payment' | 'payout' | 'billing_template_client';

/** The query of `GET /webhooks/deliveries/`. */
export interface WebhookDeliveriesQuery {
  /** UUID of the Purchase, Payment, Payout or BillingTemplateClient. */
  id: string;
  source_type: WebhookSourceType;
}

/** One try at a delivery: the sandbox's shape (the document does not show one). */
export interface WebhookDeliveryAttempt {
  /** ISO 8601: when the attempt started. */
  attempted_on: string;
  /** The receiver's HTTP status, or null when it did not answer. */
  status_code: number | null;
  /** Why there was no answer (refused connection, timeout), or null when there was one. */
  error: string | null;
  /** Whether the receiver accepted it (answered 2xx). */
  successful: boolean;
  duration_ms: number;
}

/** One delivery of a webhook event, as `GET /webhooks/deliveries/` lists it. */
export interface WebhookDelivery {
  /** ISO 8601. */
  created_on: string;
  /** ISO 8601, or null while not delivered. */
  delivered_on: string | null;
  attempts: number;
  /** The sandbox sends {@link WebhookDeliveryAttempt}s; the document does not show their shape. */
  delivery_attempts: unknown[];
  url: string;
  /** A {@link V1EventType}, or one of the sandbox's own ({@link SandboxPurchaseEventType}). */
  event: WebhookEventType;
  payload: Record<string, unknown>;
  /** Not named by the document; the sandbox sends it. UUID of the delivery. */
  id?: string;
  /** Not named by the document; the sandbox sends it. The webhook it went to (which may be deleted since). */
  webhook_id?: string;
  /** Not named by the document; the sandbox sends it. `failed`: every allowed attempt failed, or 36 h passed. */
  status?: 'pending' | 'delivered' | 'failed';
  /** Not named by the document; the sandbox sends it. ISO 8601 of the next attempt; null when none is due. */
  next_attempt_on?: string | null;
}

// ---------------------------------------------------------------------------------------------------------
// Balance and company statements

/**
 * The money of one currency in one account, in minor units. Only money that went through the gateway counts:
 * a Purchase marked as paid (`mark_as_paid`) moved none. The document does not show CompanyBalance's fields;
 * these are the sandbox's.
 */
export interface CompanyBalanceAmounts {
  /** Taken from customers: every paid or captured amount (a partial capture counts what it took). */
  paid: number;
  /** Given back: the refund Payments that completed. */
  refunded: number;
  /** Refund Payments the acquirer still works on; already out of `available`. */
  pending_refunds: number;
  /** `paid - refunded - pending_refunds`: what the account holds for the merchant. */
  available: number;
  /** Reserved on customers' cards or wallets (`hold`, `pending_capture`, `pending_release`): not available yet. */
  held: number;
  /** Charges the acquirer accepted and has not answered (`pending_charge`): not available yet. */
  pending: number;
}

/**
 * `GET /balance/`: the merchant's money per account and currency (ISO 4217 keys). Card and wallet payments
 * are in the e-commerce account, bank payments (payment initiation, `*_pis` methods) in the bank account;
 * a refund leaves the account its Purchase paid into. A currency appears once money of it moved there.
 */
export interface CompanyBalance {
  e_commerce: Record<string, CompanyBalanceAmounts>;
  bank: Record<string, CompanyBalanceAmounts>;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds) of the figures. */
  created_on?: number;
}

/** What a statement is written as. */
export type CompanyStatementFormat = 'csv' | 'json';

/**
 * A filter's kind of transaction (the document's TransactionProduct, whose values it does not show). The
 * sandbox's Purchases are all `purchase`.
 */
export type TransactionProduct = 'purchase';

/**
 * The body of `POST /company_statements/`: `format`, `timezone` and the document's filter parameters, all in
 * the JSON body (the document calls them "filter parameters" without placing them; the body keeps a POST's
 * parameters in one place). Every filter is optional; given filters must all match. Timestamps are Unix
 * seconds; `*_from` is inclusive, `*_to` exclusive.
 */
export interface CreateCompanyStatementRequest {
  /** `csv` (RFC 4180, header row) or `json` (an array of rows); `csv` when left out. */
  format?: CompanyStatementFormat;
  /** IANA time zone name (`Europe/Riga`, `UTC`) the statement's times are written in; `UTC` when left out. */
  timezone?: string;
  /** Created at or after. */
  from?: number;
  /** Created before. */
  to?: number;
  /** Paid at or after (a Purchase not paid does not match a paid filter). */
  paid_from?: number;
  /** Paid before. */
  paid_to?: number;
  /** Last changed at or after. */
  updated_from?: number;
  /** Last changed before. */
  updated_to?: number;
  /** UUID of the brand. */
  brand_id?: string;
  /** UUID of a shop; the sandbox's accounts have no shops, so no Purchase matches one. */
  shop_id?: string;
  /** Text found (in any case) in the id, reference, client's email, name or personal code, or a product name. */
  q?: string;
  /** Text found (case-insensitively) in a product name. */
  products?: string;
  /** `[min, max]` of the amount due, inclusive, in minor units. */
  total?: [number, number];
  /** ISO 4217. */
  currency?: string;
  /** The payment method name that paid (`visa`, `swedbank_lv_pis`, ...). */
  payment_method?: string;
  /** Whether the payment passed 3-D Secure: `true` / `false`, also as `"true"`, `"false"`, `1`, `0`. */
  three_d_secure?: boolean | 'true' | 'false' | 0 | 1;
  /** ISO 3166-1 alpha-2 of the payment method (bank methods have one; cards and wallets match none). */
  country?: string;
  /** A Purchase status, or several (any of them). */
  status?: PurchaseStatus | PurchaseStatus[];
  product?: TransactionProduct;
}

/**
 * Where a statement is: `queued` (accepted), `processing` (being counted), `ready` (`download_url` set),
 * `cancelled` (by `POST /company_statements/{id}/cancel/` before it was ready). The document does not show
 * them; these are the sandbox's.
 */
export type CompanyStatementStatus = 'queued' | 'processing' | 'ready' | 'cancelled';

/**
 * A company statement as the `/company_statements/` endpoints answer it. The document names `id`, `status`
 * and `download_url`; the rest is the sandbox's.
 */
export interface CompanyStatement {
  /** UUID. */
  id: string;
  status: CompanyStatementStatus;
  /**
   * Absolute URL of the file once `ready`, else null. It needs the same `Authorization: Bearer` key: a
   * statement lists customers' data, so its URL alone must not open it.
   */
  download_url: string | null;
  /** Not named by the document; the sandbox sends it. */
  format?: CompanyStatementFormat;
  /** Not named by the document; the sandbox sends it. */
  timezone?: string;
  /**
   * Not named by the document; the sandbox sends it. The filters as given: every member of the request but
   * `format` and `timezone`.
   */
  filters?: Omit<CreateCompanyStatementRequest, 'format' | 'timezone'>;
  /** Not named by the document; the sandbox sends it once `ready`: how many Purchases it lists. */
  row_count?: number | null;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  created_on?: number;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  updated_on?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Lists and errors

/** A page of a list endpoint; `next` and `previous` are absolute URLs of the neighbouring pages. */
export interface V1Page<Item> {
  results: Item[];
  next: string | null;
  previous: string | null;
}

/** One problem in an error body. */
export interface V1ErrorDetail {
  message: string;
  /** A code such as those of {@link V1ErrorCode}; the document says its list is not complete. */
  code: string;
}

/**
 * The body of a 400 answer: keyed by a field name or `__all__`, each value one {@link V1ErrorDetail} or an
 * array of them (both shapes occur). The sandbox keys nested fields by their path
 * (`purchase.products[0].price`), except where the document fixes the key (`creditor`, `__all__`); it sends
 * one object for a field with one problem and an array for a field with several. It answers 401, 404, 405,
 * 413, 429, 503 and 507 with the same shape under `__all__`.
 */
export type V1ErrorBody = Record<string, V1ErrorDetail | V1ErrorDetail[]>;

/** The key of problems that belong to no single field. */
export const V1_NON_FIELD_KEY = '__all__';

/** Codes the document names (the operation errors and `invalid`). */
export type V1DocumentedErrorCode =
  | 'purchase_release_error'
  | 'purchase_capture_error'
  | 'purchase_charge_error'
  | 'purchase_refund_error'
  | 'invalid';

/**
 * Every code the sandbox answers with: the documented ones and its own for what the document leaves open
 * (field checks, authentication, unknown objects, the rate limit, a sandbox whose disk is full or failing).
 */
export type V1ErrorCode =
  | V1DocumentedErrorCode
  | 'required'
  | 'null'
  | 'blank'
  | 'empty'
  | 'min_value'
  | 'max_value'
  | 'max_length'
  | 'parse_error'
  | 'purchase_cancel_error'
  | 'statement_cancel_error'
  | 'statement_not_ready'
  | 'not_authenticated'
  | 'authentication_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'throttled'
  | 'not_implemented'
  | 'insufficient_storage'
  | 'storage_unavailable'
  | 'internal_error';

// ---------------------------------------------------------------------------------------------------------
// Invoices, billing templates and subscriptions

/**
 * The units of `subscription_period` and `subscription_due_period`, as the platform's SDKs and documentation
 * write them. Counted in calendar units (UTC) from the day a subscription starts: a monthly subscription
 * started on 31 January bills on 28 (or 29) February, then on 31 March.
 */
export type BillingPeriodUnits = 'days' | 'weeks' | 'months' | 'years';

/**
 * The sandbox's earlier shape of a period, `{unit, count}`, still taken as `subscription_period` (then
 * without `subscription_period_units`). Answers use the platform's number and units.
 */
export interface SubscriptionPeriod {
  unit: 'day' | 'week' | 'month' | 'year';
  /** 1 to 1000. */
  count: number;
}

/**
 * A BillingTemplate as the merchant sends it (`POST` and `PUT /billing_templates/`), the members the
 * platform's SDK models write. `purchase` is checked exactly as a Purchase's `purchase` is, and copied into
 * each Purchase the template makes. `subscription_*` members apply to subscription templates, `invoice_*`
 * members to one-time templates.
 */
export interface BillingTemplateRequest {
  /** The brand (a UUID) of the Purchases it makes; a brand of the key's account. */
  brand_id: string;
  title?: string | null;
  /** `true`: a subscription template (`add_subscriber`); `false` (default): invoices (`send_invoice`). */
  is_subscription?: boolean;
  /**
   * Required when `is_subscription` is true: 1 to 1000 `subscription_period_units`. The older
   * `{unit, count}` is taken too, without units.
   */
  subscription_period?: number | SubscriptionPeriod | null;
  /** Required with a numeric `subscription_period`. */
  subscription_period_units?: BillingPeriodUnits | null;
  /** How long after its billing each Purchase of the subscription is due (its `due`); with its units. */
  subscription_due_period?: number | null;
  subscription_due_period_units?: BillingPeriodUnits | null;
  /** `true`: each period is charged at its end; default `false`: at its start. */
  subscription_charge_period_end?: boolean;
  /** Free periods before the first billing; default 0 (the first billing today). */
  subscription_trial_periods?: number;
  /** `false` stops the billing of every subscriber (periods pass unbilled) until it is `true` again; default `true`. */
  subscription_active?: boolean;
  /** The subscription ends (subscribers `cancelled`) after this many billed periods; 0 (default): never. */
  number_of_billing_cycles?: number | null;
  /** `issued` of the Purchases a one-time template makes, `YYYY-MM-DD`. */
  invoice_issued?: string | null;
  /** `due` (Unix seconds) of the Purchases a one-time template makes. */
  invoice_due?: number | null;
  /** `skip_capture` of the Purchases a one-time template makes; default false. */
  invoice_skip_capture?: boolean;
  /** `false`: no receipt is mailed for the template's payments; default true. */
  invoice_send_receipt?: boolean;
  /** `force_recurring` of the Purchases a one-time template makes; a subscription's always save the card. */
  force_recurring?: boolean;
  purchase: PurchaseDetailsRequest;
}

/** A BillingTemplate as the gateway answers it: every member of the platform's SDK model. */
export interface BillingTemplate {
  type: 'billing_template';
  id: string;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
  /** The account's company (a test value in the sandbox). */
  company_id: string;
  /** Always true in the sandbox: every key is a test key. */
  is_test: boolean;
  /** The back office user who made it; null when made through the API. */
  user_id: string | null;
  brand_id: string;
  title: string | null;
  is_subscription: boolean;
  number_of_billing_cycles: number;
  invoice_issued: string | null;
  invoice_due: number | null;
  invoice_skip_capture: boolean;
  invoice_send_receipt: boolean;
  /** Null for a one-time template. */
  subscription_period: number | null;
  subscription_period_units: BillingPeriodUnits | null;
  subscription_due_period: number | null;
  subscription_due_period_units: BillingPeriodUnits | null;
  subscription_charge_period_end: boolean;
  subscription_trial_periods: number;
  subscription_active: boolean;
  /** Whether any subscriber is `active`. */
  subscription_has_active_clients: boolean;
  force_recurring: boolean;
  /** As the merchant sent it. */
  purchase: PurchaseDetailsRequest;
}

/**
 * The body of `POST /billing/`: a template's fields (`title`, `is_subscription` and the `subscription_*`
 * members are read-only there and ignored) and the Clients to invoice, one Purchase each.
 */
export type BillingRequest = Omit<
  BillingTemplateRequest,
  | 'title'
  | 'is_subscription'
  | 'subscription_period'
  | 'subscription_period_units'
  | 'subscription_due_period'
  | 'subscription_due_period_units'
  | 'subscription_charge_period_end'
  | 'subscription_trial_periods'
  | 'subscription_active'
  | 'number_of_billing_cycles'
> & { clients: BillingTemplateClientRequest[] };

/** What a subscriber's sending of mail and its Purchases' payment methods are (`add_subscriber`, `PATCH`). */
export interface BillingTemplateClientSettings {
  /** Copied to `payment_method_whitelist` of the Purchases made for the subscriber. */
  payment_method_whitelist?: string[] | null;
  /** Default true: a failed charge mails the period's Purchase as an invoice. */
  send_invoice_on_charge_failure?: boolean;
  /** Default false: `add_subscriber` mails the first Purchase as an invoice. */
  send_invoice_on_add_subscriber?: boolean;
  /** Default true: a paid period mails a receipt (unless the template's `invoice_send_receipt` is false). */
  send_receipt?: boolean;
}

/** What `send_invoice` and `add_subscriber` take: one of the account's Clients (`add_subscriber`: and its settings). */
export interface BillingTemplateClientRequest extends BillingTemplateClientSettings {
  client_id: string;
}

/**
 * Status of a subscriber. `pending`: its first Purchase is not paid yet; `active`: charged each period;
 * `paused`: periods pass uncharged until it is `active` again; `cancelled`: never charged again (final), also
 * once `number_of_billing_cycles` periods are billed.
 */
export type BillingTemplateClientStatus = 'pending' | 'active' | 'paused' | 'cancelled';

/**
 * One Client bound to a subscription template (a subscriber): every member of the platform's SDK model, and
 * the sandbox's `billing_template_id`, `client`, `purchase_id` and `next_billing_on`.
 */
export interface BillingTemplateClient {
  type: 'billing_template_client';
  /** The subscriber's own id: `source_type=billing_template_client` of webhook deliveries, and a path id. */
  id: string;
  /** The Client's id; the path of `/billing_templates/{id}/clients/{client_id}/`. */
  client_id: string;
  billing_template_id: string;
  /** The Client as it is now; null once the Client is deleted (its billing then stops). */
  client: Client | null;
  status: BillingTemplateClientStatus;
  /** Periods billed so far (a Purchase made and charged or invoiced, or the first Purchase paid). */
  number_of_billing_cycles_passed: number;
  /** The date (`YYYY-MM-DD`, UTC) of the next billing; null when none is due (pending, cancelled). */
  subscription_billing_scheduled_on: string | null;
  payment_method_whitelist: string[] | null;
  send_invoice_on_charge_failure: boolean;
  send_invoice_on_add_subscriber: boolean;
  send_receipt: boolean;
  /** The first Purchase (`pending` subscribers pay it at its `checkout_url`), or null. */
  purchase_id: string | null;
  /** The sandbox's: Unix timestamp (seconds) of the next billing, null when none is due (pending, cancelled). */
  next_billing_on: number | null;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
}

/** The answer of `add_subscriber`: `purchase` is null for trial and period-end subscriptions. */
export interface AddSubscriberAnswer {
  billing_template_client: BillingTemplateClient;
  purchase: Purchase | null;
}

/** What `PATCH /billing_templates/{id}/clients/{client_id}/` changes: any of these. */
export interface BillingTemplateClientPatch extends BillingTemplateClientSettings {
  /** `pending` cannot be set; `cancelled` is final. */
  status?: Exclude<BillingTemplateClientStatus, 'pending'>;
}

/**
 * The sandbox's: one message the gateway would have mailed to a customer (there is no mail server):
 * an invoice to pay at its `checkout_url`, or a receipt of a subscription payment.
 */
export interface OutboxMessage {
  id: string;
  kind: 'invoice' | 'receipt';
  /** The customer's email. */
  to: string | null;
  subject: string;
  purchase_id: string;
  /** The invoice's payment page; null for a receipt. */
  checkout_url: string | null;
  /** Minor units. */
  amount: number;
  currency: string;
  billing_template_id: string | null;
  /** Unix timestamp (seconds) on the sandbox clock. */
  created_on: number;
}
