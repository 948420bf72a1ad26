/**
 * Invoices, billing templates and subscriptions, and the sandbox's outbox of what would be mailed.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { Client } from './clients.js';
import type { Purchase } from './purchase.js';
import type { PurchaseDetailsRequest } from './purchase-requests.js';

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
