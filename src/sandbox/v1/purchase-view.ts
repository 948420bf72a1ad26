/**
 * The v1 Purchase and refund Payment as the platform sends them, written from what the sandbox stores: every
 * member of the platform's Purchase (its webhooks' payloads and both SDKs' models), with its JSON types and its
 * defaults (`""` for a text nobody gave, a `due` even when none was given). Members whose real value depends on
 * money or a company the sandbox does not have are test values: the fees ({@link testFee}), `issuer_details`
 * ({@link TEST_ISSUER}), `company_id`, the card's `card_type`.
 */
import { createHash } from 'node:crypto';
import type {
  ClientDetails,
  ClientDetailsText,
  IssuerDetails,
  Payment,
  PaymentDetails,
  Purchase,
  PurchaseAttempt,
  PurchaseClient,
  PurchaseDetails,
  TransactionData,
  TransactionExtra,
} from '../../core/v1-types.js';
import { findPaymentMethod } from './method-catalogue.js';
import {
  checkoutPath,
  type PurchaseRecord,
  type StoredAttempt,
  type StoredPurchaseDetails,
  statusHistoryOf,
} from './purchases.js';

/** The platform's `due` when the request gives none: an hour after creation (enforced only by `due_strict`). */
const DEFAULT_DUE_SECONDS = 60 * 60;

/** How long the platform holds back a payment's fee (`pending_unfreeze_on`). */
const FEE_HOLD_SECONDS = 3 * 24 * 60 * 60;

/** The sandbox's time zone of invoices when the request names none. */
const DEFAULT_TIMEZONE = 'UTC';

/** The merchant's company on every invoice: test values (the sandbox knows no company). */
const TEST_ISSUER: Readonly<IssuerDetails> = {
  website: '',
  legal_street_address: 'Test street 1',
  legal_country: 'LV',
  legal_city: 'Riga',
  legal_zip_code: 'LV-1010',
  bank_accounts: [{ bank_account: 'LV00TEST0000000000000', bank_code: 'TESTLV2X' }],
  legal_name: 'Sandbox test company',
  brand_name: 'Sandbox test brand',
  registration_number: '40000000000',
  tax_number: '',
};

/** The platform's fee of a payment of `amount` minor units: a test value, 1 % rounded. */
function testFee(amount: number): number {
  return Math.round(amount / 100);
}

/** A refund's Payment as stored; {@link paymentView} writes it as the platform does. */
export interface StoredRefund {
  id: string;
  type: 'payment';
  payment_type: 'refund';
  is_outgoing: true;
  amount: number;
  currency: string;
  /** Whom the refund went to. */
  client_name: string;
  related_to: { type: 'purchase'; id: string };
  /** `paid` once the money went back (written `success`). */
  status: 'pending' | 'paid';
  paid_on: number | null;
  created_on: number;
  updated_on: number;
}

/** The Purchase as the API, its webhooks and callbacks send it, with the checkout URL on the host the caller used. */
export function purchaseView(record: PurchaseRecord, baseUrl: string): Purchase {
  const stored = record.purchase;
  const created = stored.created_on ?? 0;
  return {
    id: stored.id,
    type: 'purchase',
    brand_id: stored.brand_id,
    client: clientDetails(stored.client),
    client_id: stored.client_id ?? record.madeClientId ?? '',
    purchase: purchaseDetails(stored.purchase),
    payment: paymentDetails(record),
    issuer_details: {
      ...TEST_ISSUER,
      bank_accounts: TEST_ISSUER.bank_accounts.map((account) => ({ ...account })),
    },
    transaction_data: transactionData(record),
    status: stored.status,
    status_history: statusHistoryOf(stored),
    viewed_on: stored.viewed_on ?? null,
    company_id: companyIdOf(record.merchantId),
    // Every sandbox key is a test key (the document: the key decides test mode).
    is_test: true,
    user_id: null,
    billing_template_id: stored.billing_template_id ?? null,
    send_receipt: false,
    is_recurring_token: stored.is_recurring_token,
    recurring_token: null,
    skip_capture: stored.skip_capture,
    force_recurring: stored.force_recurring,
    reference_generated: referenceOf(record),
    reference: stored.reference ?? '',
    issued: new Date(created * 1000).toISOString().slice(0, 10),
    due: stored.due ?? created + DEFAULT_DUE_SECONDS,
    refundable_amount: stored.refundable_amount,
    refund_availability: stored.refund_availability,
    currency_conversion: null,
    payment_method_whitelist: stored.payment_method_whitelist,
    payout_method_whitelist: stored.payout_method_whitelist ?? null,
    success_redirect: stored.success_redirect ?? '',
    failure_redirect: stored.failure_redirect ?? '',
    cancel_redirect: stored.cancel_redirect ?? '',
    success_callback: stored.success_callback ?? '',
    creator_agent: '',
    platform: 'api',
    product: 'purchases',
    created_from_ip: stored.created_from_ip ?? '',
    invoice_url: null,
    checkout_url: `${baseUrl}${checkoutPath(stored.id)}`,
    direct_post_url: null,
    marked_as_paid: stored.marked_as_paid,
    order_id: null,
    can_retrieve: false,
    can_chargeback: false,
    can_mark_as_refunded: false,
    audit_log_entries: [],
    upsell_campaigns: [],
    referral_campaign_id: null,
    referral_code: null,
    referral_code_generated: null,
    referral_code_details: null,
    retain_level_details: null,
    created_on: created,
    updated_on: stored.updated_on ?? created,
    ...(stored.paid_on !== undefined && { paid_on: stored.paid_on }),
  };
}

/**
 * The refund's Payment as the platform sends it (`payment.refunded`): its money nested in `payment`, the
 * refunded Purchase's customer and method, and `status: 'success'` once made.
 */
export function paymentView(refund: StoredRefund, purchase: PurchaseRecord | undefined): Payment {
  const fee = testFee(refund.amount);
  const { attempts: _, ...method } = purchase ? transactionData(purchase) : NO_TRANSACTION;
  return {
    id: refund.id,
    type: 'payment',
    status: refund.status === 'paid' ? 'success' : 'pending',
    payment: {
      payment_type: 'refund',
      is_outgoing: true,
      amount: refund.amount,
      currency: refund.currency,
      net_amount: refund.amount - fee,
      fee_amount: fee,
      pending_amount: 0,
      pending_unfreeze_on: null,
      description: purchase ? `Refund: ${referenceOf(purchase)}` : 'Refund',
      paid_on: refund.paid_on ?? 0,
      remote_paid_on: refund.paid_on ?? 0,
      owned_bank_account_id: null,
      owned_bank_account: null,
      owned_bank_code: null,
    },
    client: {
      ...clientDetails(purchase?.purchase.client ?? {}),
      full_name: refund.client_name,
      client_id: null,
      first_name: '',
      last_name: '',
    },
    transaction_data: { ...method, extra: { ...method.extra, amount: refund.amount } },
    related_to: { ...refund.related_to, reference: purchase ? referenceOf(purchase) : '' },
    is_test: true,
    company_id: purchase ? companyIdOf(purchase.merchantId) : '',
    user_id: null,
    reference: '',
    reference_generated: String(Number.parseInt(refund.id.slice(0, 6), 16)),
    fee_amount: fee,
    refund_availability: 'none',
    currency_conversion: null,
    account_extra: {},
    account_fx_rate: null,
    account_fx_currency: null,
    account_fx_buy_amount: null,
    audit_log_entries: [],
    created_on: refund.created_on,
    updated_on: refund.updated_on,
  };
}

/** The text members of a Purchase's `client`. */
export const CLIENT_DETAILS_TEXTS = [
  'email',
  'phone',
  'full_name',
  'personal_code',
  'street_address',
  'country',
  'city',
  'zip_code',
  'state',
  'shipping_street_address',
  'shipping_country',
  'shipping_city',
  'shipping_zip_code',
  'shipping_state',
  'legal_name',
  'brand_name',
  'registration_number',
  'tax_number',
  'bank_account',
  'bank_code',
] as const satisfies readonly ClientDetailsText[];

/** Every member of ClientDetails, `""` and `[]` where the merchant gave nothing. */
export function clientDetails(client: PurchaseClient): ClientDetails {
  const texts = Object.fromEntries(CLIENT_DETAILS_TEXTS.map((name) => [name, client[name] ?? ''])) as Record<
    ClientDetailsText,
    string
  >;
  return {
    ...texts,
    cc: [...(client.cc ?? [])],
    bcc: [...(client.bcc ?? [])],
    client_type: null,
    delivery_methods: [{ method: 'email', options: {} }],
  };
}

function purchaseDetails(details: StoredPurchaseDetails): PurchaseDetails {
  return {
    products: details.products.map((product) => ({
      name: product.name,
      price: product.price,
      quantity: product.quantity.toFixed(4),
      discount: 0,
      tax_percent: '0.00',
      category: product.category ?? '',
    })),
    currency: details.currency,
    language: details.language,
    due_strict: details.due_strict,
    total_override: details.total_override,
    payment_method_details: details.payment_method_details,
    total:
      details.total ?? details.products.reduce((sum, product) => sum + product.price * product.quantity, 0),
    notes: details.notes ?? '',
    debt: 0,
    subtotal_override: null,
    total_tax_override: null,
    total_discount_override: null,
    request_client_details: [],
    timezone: details.timezone ?? DEFAULT_TIMEZONE,
    email_message: details.email_message ?? '',
    shipping_options: [],
    has_upsell_products: false,
  };
}

/** Statuses in which the customer's money was taken through the gateway. */
const TAKEN = new Set(['paid', 'pending_refund']);

/** The money taken: null until paid, and for a Purchase marked as paid (no money went through the gateway). */
function paymentDetails(record: PurchaseRecord): PaymentDetails | null {
  const stored = record.purchase;
  if (!TAKEN.has(stored.status) || stored.marked_as_paid) return null;
  const amount = record.captured ?? stored.purchase.total ?? 0;
  const taking = stored.transaction_data.attempts.find(
    (attempt) => attempt.successful && attempt.type !== 'refund',
  );
  const paidOn = taking?.created_on ?? stored.updated_on ?? 0;
  const fee = testFee(amount);
  // As the platform: the fee is held back (pending) for a few days rather than taken at once.
  return {
    payment_type: 'purchase',
    is_outgoing: false,
    amount,
    currency: stored.purchase.currency,
    net_amount: amount - fee,
    fee_amount: 0,
    pending_amount: fee,
    pending_unfreeze_on: paidOn + FEE_HOLD_SECONDS,
    description: '',
    paid_on: paidOn,
    remote_paid_on: paidOn,
    owned_bank_account_id: null,
    owned_bank_account: null,
    owned_bank_code: null,
  };
}

const NO_TRANSACTION: TransactionData = {
  flow: 'payform',
  extra: {},
  country: '',
  payment_method: '',
  attempts: [],
};

/** What the attempts tried, as the platform writes them, and the method that paid. */
function transactionData(record: PurchaseRecord): TransactionData {
  const { attempts } = record.purchase.transaction_data;
  const paid = attempts.find((attempt) => attempt.successful);
  const method = paid?.payment_method ?? '';
  const extra = extraOf(record, method);
  return {
    flow: 'payform',
    extra,
    country: 'card_issuer_country' in extra ? extra.card_issuer_country : '',
    payment_method: method,
    attempts: attempts.map((attempt) => attemptView(record, attempt)),
  };
}

/** Attempts that take the customer's money, and so bear the platform's fee. */
const FEE_BEARING = new Set<StoredAttempt['type']>([undefined, 'payment', 'capture', 'charge']);

function attemptView(record: PurchaseRecord, attempt: StoredAttempt): PurchaseAttempt {
  const method = attempt.payment_method ?? '';
  const extra = extraOf(record, method);
  const type = attempt.type ?? 'payment';
  const successful = attempt.successful ?? attempt.error === undefined;
  return {
    flow: 'payform',
    type: type === 'payment' ? (record.purchase.skip_capture ? 'authorize' : 'execute') : type,
    error: attempt.error ? { code: attempt.error.code, message: attempt.error.description } : null,
    extra,
    country: 'card_issuer_country' in extra ? extra.card_issuer_country : '',
    // The customer's address on their own payment; the merchant's operations have none.
    client_ip: type === 'payment' ? (record.payerIp ?? '') : '',
    fee_amount:
      successful && FEE_BEARING.has(attempt.type)
        ? testFee(attempt.amount ?? record.purchase.purchase.total ?? 0)
        : 0,
    successful,
    payment_method: method,
    processing_time: attempt.created_on ?? record.purchase.updated_on ?? 0,
    ...(attempt.creditor && { creditor: attempt.creditor }),
    ...(attempt.amount !== undefined && { amount: attempt.amount }),
  };
}

/** The card's data when `method` is a card method and the purchase was paid (or tried) with a known card. */
function extraOf(record: PurchaseRecord, method: string): TransactionExtra {
  const { card, cardholder } = record;
  if (!card || findPaymentMethod(method)?.group !== 'card') return {};
  return {
    // A test value: the acquirer does not tell credit from debit.
    card_type: 'credit',
    card_brand: card.scheme.toLowerCase(),
    masked_pan: `${card.bin}******${card.last4}`,
    card_issuer: card.issuer,
    card_issuer_country: '',
    // Test values where the form's are unknown: a charge through the API, or a Purchase of an earlier version.
    expiry_year: (cardholder?.expiryYear ?? 2030) % 100,
    expiry_month: cardholder?.expiryMonth ?? 12,
    cardholder_name: cardholder?.name ?? record.purchase.client.full_name ?? '',
  };
}

/** The gateway's own reference of the purchase: numbered per account. */
function referenceOf(record: PurchaseRecord): string {
  const { number, id } = record.purchase;
  return `SV${number ?? Number.parseInt(id.slice(0, 6), 16)}`;
}

/**
 * The account's `company_id`: the sandbox has no companies, so a UUID made from the merchant id stands in, the
 * same in every answer (Purchases, Payments, billing templates) and after restarts.
 */
export function companyIdOf(merchantId: string): string {
  const hex = createHash('sha256').update(`company:${merchantId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
