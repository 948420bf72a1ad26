/**
 * A typed client of the gateway's v1 REST interface (`{base_url}/api/v1/`) for the merchant's server: the
 * secret key travels as a bearer token, so this client belongs on the server, never in a page. Every call
 * resolves the document's response type or rejects with one {@link V1ApiError} whose `code` says what kind
 * of failure it was. Nothing is retried behind the caller's back: creating a Purchase twice is two Purchases.
 */
import type {
  AddSubscriberAnswer,
  BillingRequest,
  BillingTemplate,
  BillingTemplateClient,
  BillingTemplateClientPatch,
  BillingTemplateClientRequest,
  BillingTemplateRequest,
  CapturePurchaseRequest,
  ChargePurchaseRequest,
  Client,
  ClientRecurringToken,
  ClientRequest,
  CompanyBalance,
  CompanyStatement,
  CreateCompanyStatementRequest,
  CreatePurchaseRequest,
  MarkAsPaidRequest,
  Payment,
  PaymentMethods,
  PaymentMethodsQuery,
  PayoutMethods,
  PayoutMethodsQuery,
  Purchase,
  RefundPurchaseRequest,
  V1Page,
  V1PublicKey,
  WalletBPaymentAnswer,
  WalletPaymentFailure,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookRequest,
} from '../../core/v1-types.js';
import { importPublicKey } from '../keys.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isText,
  MILLISECONDS,
  type OptionRules,
  optional,
  required,
} from '../options.js';
import {
  isRecord,
  normalizeV1ErrorBody,
  parseRetryAfter,
  V1ApiError,
  v1ErrorCodeForStatus,
} from './errors.js';
import { type PurchaseFailureCause, readFailureCause } from './failure-cause.js';
import { paginate, type V1List } from './pagination.js';
import {
  openStatementDownload,
  type V1StatementDownload,
  type V1StatementWaitOptions,
  waitForStatement,
} from './statements.js';

/** Where the gateway is and whose account calls it. */
export interface V1ClientOptions {
  /**
   * `{base_url}` of the environment, such as the sandbox's `http://127.0.0.1:4010`; the client adds
   * `/api/v1`. A URL that already ends in `/api/v1` is taken as it is.
   */
  baseUrl: string;
  /** The account's secret key (Developers section), sent as `Authorization: Bearer <key>`. */
  secretKey: string;
  /** A fetch to use instead of the global one (for proxies or instrumentation). */
  fetch?: typeof fetch;
  /** Give up on a request after this many milliseconds; 30 000 when left out. */
  timeoutMs?: number;
}

/** Per-call options. */
export interface V1RequestOptions {
  /** Aborts the call; it then rejects with code `aborted`. */
  signal?: AbortSignal;
}

/** Values of a query string: `undefined` leaves the parameter out, booleans travel as `true` / `false`. */
export type V1QueryValue = string | number | boolean | undefined;

/** Purchases: create and read them, and every operation of the document on one. */
export interface V1Purchases {
  /**
   * `POST /purchases/`: a new Purchase; send the customer to its `checkout_url`.
   * @throws V1ApiError `bad_request` with one entry per problem in `errors` when the body is refused.
   */
  create(body: CreatePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `GET /purchases/{id}/`.
   * @throws V1ApiError `not_found` when there is no such Purchase for this key.
   */
  get(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/cancel/`: the Purchase can no longer be paid.
   * @throws V1ApiError `not_found`; `bad_request` when it is past paying (already paid, say).
   */
  cancel(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/capture/`: takes the money a `hold` Purchase holds, all of it, or `amount` of it
   * (the remainder is released). It answers `paid`, or `pending_capture` when the acquirer is slow
   * (`purchase.captured` follows). Without `amount` no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `amount` is not a positive whole number;
   *   `bad_request` with `errors[0].code` `purchase_capture_error` (field `__all__`) when processing failed,
   *   whose cause {@link V1Purchases.failureCause} reads; `not_found`.
   * @example
   * ```ts
   * try {
   *   await v1.purchases.capture(id, { amount: 500 });
   * } catch (error) {
   *   if (error instanceof V1ApiError && error.errors[0]?.code === 'purchase_capture_error') {
   *     const cause = await v1.purchases.failureCause(id); // reads GET /purchases/{id}/
   *     log.warn(`capture of ${id} failed: ${cause?.code} ${cause?.description}`);
   *   } else throw error;
   * }
   * ```
   */
  capture(id: string, body?: CapturePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/release/`: gives back what a `hold` Purchase holds. It answers `released`, or
   * `pending_release` when the acquirer is slow (`purchase.released` follows).
   * @throws V1ApiError `bad_request` with `errors[0].code` `purchase_release_error` when processing failed
   *   ({@link V1Purchases.failureCause} says why); `not_found`.
   */
  release(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/charge/`: pays the Purchase `id` (made without redirects) with the card of the
   * token Purchase `recurring_token`. It answers `paid` (`hold` when the Purchase has `skip_capture`), or
   * `pending_charge` when the acquirer is slow. Do not send the customer to its `checkout_url`.
   * @throws V1ApiError `invalid_request` before sending when `recurring_token` is not a non-empty string;
   *   `bad_request` with `errors[0].code` `purchase_charge_error` when the charge failed
   *   ({@link V1Purchases.failureCause} says why); `not_found`.
   */
  charge(id: string, body: ChargePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/delete_recurring_token/`: the token Purchase `id` can no longer be charged
   * (`is_recurring_token` becomes `false`; its saved card goes from the Client's tokens).
   * @throws V1ApiError `not_found`.
   */
  deleteRecurringToken(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/refund/`: refunds a `paid` Purchase, in full, or `amount` of it (at most its
   * `refundable_amount`). Resolves the Payment the refund created; it is `pending` when the acquirer is slow,
   * and `payment.refunded` delivers it once done. With neither member given no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `amount` is not a positive whole number or
   *   `client_name` not a non-empty string of at most 70 characters; `bad_request` with `errors[0].code`
   *   `purchase_refund_error` when the refund failed (past the refundable amount, say;
   *   {@link V1Purchases.failureCause} says why); `not_found`; `invalid_response` when the answer is not a
   *   Payment.
   */
  refund(id: string, body?: RefundPurchaseRequest, options?: V1RequestOptions): Promise<Payment>;
  /**
   * `POST /purchases/{id}/mark_as_paid/`: records that a Purchase was paid outside the gateway (`paid`,
   * `marked_as_paid: true`), at `paid_on` or now. Without `paid_on` no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `paid_on` is not a finite number; `not_found`.
   */
  markAsPaid(id: string, body?: MarkAsPaidRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/resend_invoice/`: sends the customer the invoice of the Purchase again.
   * @throws V1ApiError `not_found`.
   */
  resendInvoice(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * Why the last capture, release, charge or refund of a Purchase failed: reads the Purchase
   * (`GET /purchases/{id}/`) and gives the `error` of its newest attempt (the document's rule 4; see
   * `readFailureCause`). Call it after one of them rejected with `bad_request`.
   * @returns undefined when the newest attempt succeeded or there is none.
   * @throws V1ApiError as {@link V1Purchases.get}.
   */
  failureCause(id: string, options?: V1RequestOptions): Promise<PurchaseFailureCause | undefined>;
}

/**
 * A payment of a mobile wallet, for {@link V1Wallets.pay}: the wallet's payload as its JavaScript API gave
 * it, parsed (an object, not a JSON text).
 */
export type WalletPayment =
  | {
      /** Wallet A. */
      method: 'svc_wallet_a';
      /** The `paymentData` part of wallet A's payload; sent as the form field `token`, Base64 of its JSON. */
      paymentData: unknown;
    }
  | {
      /** Wallet B. */
      method: 'svc_wallet_b';
      /** Wallet B's whole payload; sent as the form field `data`, Base64 of its JSON. */
      payload: unknown;
    };

/** What the gateway made of a wallet payment: switch on `kind`. */
export type WalletPaymentResult =
  | {
      /** Taken: the outcome comes by webhook (`purchase.paid` or `purchase.payment_failure`). */
      kind: 'accepted';
      /** The gateway's text (it tells the caller to wait for the webhook). */
      status: string;
    }
  | {
      /** Wallet B: the customer must pass 3-D Secure first. */
      kind: 'three_ds';
      /** Send the customer here (an absolute URL): `response.threeDsRedirectUrl` of the answer. */
      redirectUrl: string;
      /** The answer as the gateway sent it. */
      answer: WalletBPaymentAnswer;
    }
  | {
      /** Wallet B: taken without a 3-D Secure step (`result: 'SUCCESS'`, no redirect URL). */
      kind: 'approved';
      /** The answer as the gateway sent it. */
      answer: WalletBPaymentAnswer;
    }
  | {
      /** The wallet's gateway declined (`result: 'FAILURE'`). */
      kind: 'declined';
      /** Why, as the wallet gateway's code. */
      gatewayCode: string;
      /** The answer as the gateway sent it. */
      answer: WalletPaymentFailure;
    };

/** Wallet payments, posted server to server. */
export interface V1Wallets {
  /**
   * `POST {base_url}/p/{purchase_id}/` (beside `/api/v1`, not under it), form-encoded: `pm` (the method),
   * `s2s=true`, and `token` (wallet A) or `data` (wallet B). The Purchase must have the method in its
   * `payment_method_whitelist`. A decline resolves as `kind: 'declined'`, whether it came with 400 or 2xx.
   * @throws V1ApiError `invalid_request` before sending when the method is not one of the two, or the payload
   *   is not an object that can be written as JSON; `bad_request` when the gateway refused the post
   *   (a method the Purchase does not allow, say); `not_found`; `invalid_response` for an answer of none of
   *   the document's shapes.
   * @example
   * ```ts
   * const result = await v1.wallets.pay(purchase.id, { method: 'svc_wallet_b', payload: walletPayload });
   * if (result.kind === 'three_ds') res.redirect(303, result.redirectUrl);
   * else if (result.kind === 'declined') res.status(402).send(`Declined (${result.gatewayCode})`);
   * else res.send('Thank you: we confirm your payment as soon as it arrives.'); // then wait for the webhook
   * ```
   */
  pay(purchaseId: string, payment: WalletPayment, options?: V1RequestOptions): Promise<WalletPaymentResult>;
}

/** Webhooks: the targets of signed event deliveries, each with its own key (`public_key`). */
export interface V1Webhooks {
  /**
   * `POST /webhooks/`. Keep the answer's `public_key`: it verifies this webhook's deliveries
   * (`constructWebhookEvent`).
   * @throws V1ApiError `bad_request` when the body is refused.
   */
  create(body: WebhookRequest, options?: V1RequestOptions): Promise<Webhook>;
  /** `GET /webhooks/`, page by page; `query` may carry paging parameters (the sandbox's `per_page`). */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Webhook>;
  /**
   * `GET /webhooks/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<Webhook>;
  /** `PUT /webhooks/{id}/`: replaces the webhook's settings (its key stays). */
  update(id: string, body: WebhookRequest, options?: V1RequestOptions): Promise<Webhook>;
  /** `PATCH /webhooks/{id}/`: changes the members given. */
  patch(id: string, body: Partial<WebhookRequest>, options?: V1RequestOptions): Promise<Webhook>;
  /**
   * `DELETE /webhooks/{id}/`: no more deliveries to it.
   * @throws V1ApiError `not_found`.
   */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /**
   * `GET /webhooks/deliveries/`: every delivery of the object's events, retries included, page by page.
   * @throws V1ApiError `invalid_request` at once when `id` or `source_type` is missing; the pages' requests
   *   reject the iteration as other calls do.
   */
  deliveries(query: WebhookDeliveriesQuery, options?: V1RequestOptions): V1List<WebhookDelivery>;
}

/** Clients: a merchant's customers, and their saved cards (recurring tokens). */
export interface V1Clients {
  /**
   * `POST /clients/`. `email` is required.
   * @throws V1ApiError `bad_request` naming each field the gateway refused.
   */
  create(body: ClientRequest & { email: string }, options?: V1RequestOptions): Promise<Client>;
  /** `GET /clients/`, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Client>;
  /**
   * `GET /clients/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<Client>;
  /** `PUT /clients/{id}/`: replaces the Client; members left out are cleared. */
  update(id: string, body: ClientRequest & { email: string }, options?: V1RequestOptions): Promise<Client>;
  /** `PATCH /clients/{id}/`: changes the members given (`null` clears one). */
  patch(id: string, body: ClientRequest, options?: V1RequestOptions): Promise<Client>;
  /** `DELETE /clients/{id}/`: the Client and its saved cards; its Purchases stay. */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /** `GET /clients/{id}/recurring_tokens/`: the saved cards, page by page. */
  recurringTokens(
    clientId: string,
    query?: Record<string, V1QueryValue>,
    options?: V1RequestOptions,
  ): V1List<ClientRecurringToken>;
  /**
   * `GET /clients/{id}/recurring_tokens/{token_id}/`.
   * @throws V1ApiError `not_found`, a deleted token included.
   */
  getRecurringToken(
    clientId: string,
    tokenId: string,
    options?: V1RequestOptions,
  ): Promise<ClientRecurringToken>;
  /**
   * `DELETE /clients/{id}/recurring_tokens/{token_id}/`: hidden at checkout, refused by `charge`, and its
   * Purchase's `is_recurring_token` becomes false.
   */
  deleteRecurringToken(clientId: string, tokenId: string, options?: V1RequestOptions): Promise<void>;
}

/** `POST /billing/`: one-off invoices. */
export interface V1Billing {
  /**
   * `POST /billing/`: one Purchase per Client, each sent as an invoice (its `checkout_url`); no template is
   * stored. Resolves the Purchase ids, in the order of `clients`.
   * @throws V1ApiError `bad_request` naming each refused field (`clients[0].client_id`, `purchase.products`, ...).
   */
  create(body: BillingRequest, options?: V1RequestOptions): Promise<string[]>;
}

/** Billing templates, their invoices and their subscribers (BillingTemplateClients). */
export interface V1BillingTemplates {
  /** `POST /billing_templates/`. @throws V1ApiError `bad_request` naming each refused field. */
  create(body: BillingTemplateRequest, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `GET /billing_templates/`, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<BillingTemplate>;
  /** `GET /billing_templates/{id}/`. @throws V1ApiError `not_found`. */
  get(id: string, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `PUT /billing_templates/{id}/`: new subscribers join with the new period; billings copy the new `purchase`. */
  update(id: string, body: BillingTemplateRequest, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `DELETE /billing_templates/{id}/`: its subscribers are no longer billed. */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /**
   * `POST /billing_templates/{id}/send_invoice/`: a Purchase of a one-time template for the Client, to pay
   * at its `checkout_url`; the Client is not saved to the template.
   * @throws V1ApiError `bad_request` for a subscription template or a Client not of the account.
   */
  sendInvoice(
    id: string,
    body: Pick<BillingTemplateClientRequest, 'client_id'>,
    options?: V1RequestOptions,
  ): Promise<Purchase>;
  /**
   * `POST /billing_templates/{id}/add_subscriber/`: `active` with `purchase` null for trial and period-end
   * subscriptions, else `pending` with the first Purchase to pay at its `checkout_url`. The body's settings
   * (`payment_method_whitelist`, `send_*`) are the subscriber's.
   * @throws V1ApiError `bad_request` for a one-time template, a Client not of the account or subscribed, or a
   *   whitelist the template's Purchases cannot take.
   */
  addSubscriber(
    id: string,
    body: BillingTemplateClientRequest,
    options?: V1RequestOptions,
  ): Promise<AddSubscriberAnswer>;
  /** A template's subscribers. */
  readonly clients: {
    /** `GET /billing_templates/{id}/clients/`, page by page. */
    list(
      templateId: string,
      query?: Record<string, V1QueryValue>,
      options?: V1RequestOptions,
    ): V1List<BillingTemplateClient>;
    /**
     * `GET /billing_templates/{id}/clients/{client_id}/`; `clientId` is the Client's id or the subscriber's
     * own `id`. @throws V1ApiError `not_found`.
     */
    get(templateId: string, clientId: string, options?: V1RequestOptions): Promise<BillingTemplateClient>;
    /**
     * `PATCH /billing_templates/{id}/clients/{client_id}/`: `status` (`active`, `paused` or `cancelled`,
     * final) and the subscriber's settings, each optional.
     * @throws V1ApiError `bad_request` for another status, a change out of `cancelled` or a refused whitelist.
     */
    patch(
      templateId: string,
      clientId: string,
      body: BillingTemplateClientPatch,
      options?: V1RequestOptions,
    ): Promise<BillingTemplateClient>;
  };
}

/**
 * Company statements: files of the merchant's Purchases (CSV or JSON), made in the background. Create one,
 * then {@link V1Statements.download} it, which waits until it is ready and streams it.
 */
export interface V1Statements {
  /**
   * `POST /company_statements/`: `format`, `timezone` and any of the document's filters, all in the body.
   * @throws V1ApiError `invalid_request` before sending when the body is not an object; `bad_request` naming
   *   each refused member (an unknown filter, a time zone Intl does not know, `total` not `[min, max]` ...).
   */
  create(body: CreateCompanyStatementRequest, options?: V1RequestOptions): Promise<CompanyStatement>;
  /** `GET /company_statements/`, newest first, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<CompanyStatement>;
  /**
   * `GET /company_statements/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<CompanyStatement>;
  /**
   * `POST /company_statements/{id}/cancel/`: stops a statement that is not ready yet.
   * @throws V1ApiError `bad_request` (`statement_cancel_error`) when it is ready already; `not_found`.
   */
  cancel(id: string, options?: V1RequestOptions): Promise<CompanyStatement>;
  /**
   * Asks every `intervalMs` until the statement is `ready`, for at most `waitMs`.
   * @throws V1ApiError `timeout` when it is not ready in time; `invalid_request` when it was cancelled;
   *   `aborted`; as {@link V1Statements.get}.
   */
  waitUntilReady(id: string, options?: V1StatementWaitOptions): Promise<CompanyStatement>;
  /**
   * Waits until the statement is ready, then starts its download (with the secret key, which its
   * `download_url` needs) and resolves once the answer's headers arrived; the file streams as it is read.
   * @throws V1ApiError as {@link V1Statements.waitUntilReady}; `invalid_response` when `download_url` leaves
   *   the gateway's origin.
   * @example
   * ```ts
   * const statement = await v1.statements.create({ format: 'csv', timezone: 'Europe/Riga', status: 'paid' });
   * const file = await v1.statements.download(statement.id, { waitMs: 120_000 });
   * res.setHeader('content-type', file.contentType);
   * for await (const chunk of file) res.write(chunk);
   * res.end();
   * ```
   */
  download(id: string, options?: V1StatementWaitOptions): Promise<V1StatementDownload>;
}

/** The calls of the v1 interface this toolkit covers. Every call rejects with {@link V1ApiError} only. */
export interface V1Client {
  /** `/purchases/`. */
  readonly purchases: V1Purchases;
  /** Wallet payments server to server (`{base_url}/p/{purchase_id}/`). */
  readonly wallets: V1Wallets;
  /**
   * `GET /payment_methods/`. The gateway rate-limits it (once per minute): put it behind a
   * `PaymentMethodsCache`, whose fetch it fits as is: `(query, { signal }) => v1.paymentMethods(query, { signal })`.
   * @throws V1ApiError `rate_limited` (with `retryAfterMs`), `bad_request`, ...
   */
  paymentMethods(query: PaymentMethodsQuery, options?: V1RequestOptions): Promise<PaymentMethods>;
  /** `GET /payout_methods/`. */
  payoutMethods(query: PayoutMethodsQuery, options?: V1RequestOptions): Promise<PayoutMethods>;
  /**
   * `GET /public_key/`: the PEM of the company key that signs success callbacks; give it to
   * `constructSuccessCallback`. It changes rarely: fetch it once and keep it.
   * @throws V1ApiError `invalid_response` when the answer is not an RSA public key PEM.
   */
  publicKey(options?: V1RequestOptions): Promise<V1PublicKey>;
  /** `/webhooks/` and their deliveries (the sandbox's Webhook fields; the document names only `public_key`). */
  readonly webhooks: V1Webhooks;
  /** `/clients/` and their saved cards. */
  readonly clients: V1Clients;
  /** `POST /billing/`. */
  readonly billing: V1Billing;
  /** `/billing_templates/` and their subscribers. */
  readonly billingTemplates: V1BillingTemplates;
  /**
   * `GET /balance/`: the merchant's money per account (e-commerce, bank) and currency (the sandbox's
   * {@link CompanyBalance} fields; the document does not show them).
   */
  balance(options?: V1RequestOptions): Promise<CompanyBalance>;
  /** `/company_statements/`. */
  readonly statements: V1Statements;
  /**
   * Any list endpoint, such as `/clients/`, walked along `next`. `path` is relative to `/api/v1`.
   * The items are not checked beyond being in `results`: `Item` is the caller's word.
   */
  list<Item>(path: string, query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Item>;
}

const API_PREFIX = '/api/v1';

const OWNER = 'createV1Client';

const CLIENT_OPTIONS: OptionRules<V1ClientOptions> = {
  baseUrl: required("the gateway's absolute URL, such as the sandbox's http://127.0.0.1:4010", isText),
  secretKey: required(
    'the secret key from the Developers section of the account (a non-empty string)',
    isText,
  ),
  fetch: optional('a fetch function', isFunction),
  timeoutMs: optional(MILLISECONDS, isNumber),
};

/** A path segment from a caller's id, refused before sending when it is empty. */
function segment(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new V1ApiError('invalid_request', `${name} must be a non-empty string`);
  }
  return encodeURIComponent(value);
}

function requireQueryText(query: Record<string, unknown>, name: string): void {
  if (typeof query[name] !== 'string' || (query[name] as string).trim() === '') {
    throw new V1ApiError('invalid_request', `${name} is required and must be a non-empty string`);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Checks that a 2xx answer has the member that marks it as the expected resource. */
function expect<T>(value: unknown, what: string, has: (record: Record<string, unknown>) => boolean): T {
  if (!isRecord(value) || !has(value)) {
    throw new V1ApiError('invalid_response', `The ${what} answer is not a ${what}`, { body: value });
  }
  return value as T;
}

const isPurchase = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['status'] === 'string';

const isClient = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['email'] === 'string';

const isToken = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['payment_method'] === 'string';

const isWebhook = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['public_key'] === 'string';

function expectStatement(value: unknown): CompanyStatement {
  return expect<CompanyStatement>(
    value,
    'CompanyStatement',
    (record) => typeof record['id'] === 'string' && typeof record['status'] === 'string',
  );
}

const isPayment = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && record['type'] === 'payment';

/** A value as a message shows it: strings quoted, so that `"5"` and `5` read differently. */
function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** An operation's optional body, refused before sending when it is given but not an object. */
function optionalBody(body: unknown, operation: string): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) throw new V1ApiError('invalid_request', `The ${operation} body must be an object`);
  return body;
}

/** The members given, as a JSON body; no body at all when none is given. */
function given(members: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(members).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function checkAmount(amount: unknown): void {
  if (amount !== undefined && !(Number.isSafeInteger(amount) && (amount as number) > 0)) {
    throw new V1ApiError(
      'invalid_request',
      `amount must be a positive whole number of minor units (cents), not ${shown(amount)}; ` +
        'leave it out for the whole amount',
    );
  }
}

const MAX_CLIENT_NAME = 70;

function checkClientName(name: unknown): void {
  if (name === undefined) return;
  // The limit counts characters, so a name of emoji or accents is not cut short by its UTF-16 length.
  if (typeof name !== 'string' || name.trim() === '' || [...name].length > MAX_CLIENT_NAME) {
    throw new V1ApiError(
      'invalid_request',
      `client_name must be a non-empty string of at most ${MAX_CLIENT_NAME} characters, ` +
        `not ${shown(name).slice(0, 100)}; leave it out for the Purchase's client name`,
    );
  }
}

/** The form of a wallet post: `pm`, `s2s` and the payload as Base64 of its JSON. */
function walletForm(payment: unknown): URLSearchParams {
  if (!isRecord(payment)) {
    throw new V1ApiError(
      'invalid_request',
      "The wallet payment must be an object: { method: 'svc_wallet_a', paymentData } or " +
        "{ method: 'svc_wallet_b', payload }",
    );
  }
  const [field, member] =
    payment['method'] === 'svc_wallet_a'
      ? ['token', 'paymentData']
      : payment['method'] === 'svc_wallet_b'
        ? ['data', 'payload']
        : [];
  if (field === undefined || member === undefined) {
    throw new V1ApiError(
      'invalid_request',
      `method must be 'svc_wallet_a' or 'svc_wallet_b', not ${shown(payment['method'])}`,
    );
  }
  const value = payment[member];
  // A JSON text given as it is would be encoded twice and reach the gateway as a string.
  if (!isRecord(value)) {
    throw new V1ApiError(
      'invalid_request',
      `${member} must be the wallet's payload as an object (JSON.parse it if you hold its JSON text), not ${
        typeof value === 'string' ? 'a string' : shown(value)
      }`,
    );
  }
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new V1ApiError('invalid_request', `${member} cannot be written as JSON: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return new URLSearchParams([
    ['pm', payment['method'] as string],
    ['s2s', 'true'],
    [field, Buffer.from(json, 'utf8').toString('base64')],
  ]);
}

function isWalletFailure(value: unknown): value is WalletPaymentFailure {
  if (!isRecord(value) || !isRecord(value['error_response'])) return false;
  const { response, result } = value['error_response'];
  return result === 'FAILURE' && isRecord(response) && typeof response['gatewayCode'] === 'string';
}

function isAbsoluteHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function isWalletBAnswer(value: unknown): value is WalletBPaymentAnswer {
  if (!isRecord(value) || value['result'] !== 'SUCCESS') return false;
  const { response, order, transaction } = value;
  if (!isRecord(response) || !isRecord(order) || !isRecord(transaction)) return false;
  const redirect = response['threeDsRedirectUrl'];
  return (
    typeof response['gatewayCode'] === 'string' &&
    (redirect === null || (typeof redirect === 'string' && isAbsoluteHttpUrl(redirect)))
  );
}

/** A wallet post's answer as one of the document's three shapes. */
function walletResult(answer: unknown, what: string): WalletPaymentResult {
  if (isWalletFailure(answer)) {
    return { kind: 'declined', gatewayCode: answer.error_response.response.gatewayCode, answer };
  }
  if (isWalletBAnswer(answer)) {
    const redirectUrl = answer.response.threeDsRedirectUrl;
    return redirectUrl === null ? { kind: 'approved', answer } : { kind: 'three_ds', redirectUrl, answer };
  }
  if (isRecord(answer) && !('result' in answer) && typeof answer['status'] === 'string') {
    return { kind: 'accepted', status: answer['status'] };
  }
  throw new V1ApiError(
    'invalid_response',
    `${what} answered none of the wallet answers: {status}, a result SUCCESS with response.gatewayCode and ` +
      'an absolute response.threeDsRedirectUrl or null, or {error_response: {result: FAILURE}}',
    { body: answer },
  );
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A client of the v1 REST interface.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind, for an
 *   invalid `baseUrl`, or a `timeoutMs` that is not a positive number.
 * @example
 * ```ts
 * const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:4010', secretKey: process.env.SVC_SECRET_KEY! });
 * const purchase = await v1.purchases.create({ brand_id, purchase: { products: [{ name: 'Tea', price: 1250 }] } });
 * res.redirect(303, purchase.checkout_url);
 * ```
 */
export function createV1Client(options: V1ClientOptions): V1Client {
  checkOptions(OWNER, options, CLIENT_OPTIONS);
  const secretKey = options.secretKey.trim();
  // One test covers whitespace too: every whitespace character lies outside \x21-\x7e.
  if (/[^\x21-\x7e]/.test(secretKey)) {
    throw new TypeError(`${OWNER}: secretKey must be one token of visible ASCII characters`);
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`${OWNER}: baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`${OWNER}: baseUrl must be an http: or https: URL, not ${base.protocol}`);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`${OWNER}: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  // `{base_url}` is the gateway: the REST interface lies under `{base_url}/api/v1`, the wallet post beside it.
  const gatewayPath = basePath.endsWith(API_PREFIX) ? basePath.slice(0, -API_PREFIX.length) : basePath;
  const gateway = `${base.origin}${gatewayPath}`;
  const root = `${gateway}${API_PREFIX}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const authorization = `Bearer ${secretKey}`;

  function urlOf(path: string, query?: Record<string, V1QueryValue>): URL {
    const url = new URL(`${root}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    return url;
  }

  /**
   * One request: resolves the parsed 2xx body (`undefined` when empty), rejects with a {@link V1ApiError}.
   * `body` travels as JSON, or form-encoded when it is a `URLSearchParams`.
   */
  async function send(
    method: Method,
    url: URL,
    body: unknown,
    callOptions: V1RequestOptions = {},
  ): Promise<unknown> {
    const what = `${method} ${url.pathname}`;
    const callerSignal = callOptions.signal;
    if (callerSignal?.aborted) {
      throw new V1ApiError('aborted', `${what} was aborted before it was sent`, {
        cause: callerSignal.reason,
      });
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    const form = body instanceof URLSearchParams;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body: form ? body.toString() : JSON.stringify(body) }),
        signal,
        // An API answers, it does not redirect; following a redirect could carry the key elsewhere.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) {
        throw new V1ApiError('aborted', `${what} was aborted`, { cause: callerSignal.reason ?? error });
      }
      if (timeout.aborted) {
        throw new V1ApiError('timeout', `${what} got no answer within ${timeoutMs} ms`, { cause: error });
      }
      const reason = errorMessage(
        isRecord(error) && error['cause'] instanceof Error ? error['cause'] : error,
      );
      throw new V1ApiError('network_error', `${what} got no answer: ${reason}`, { cause: error });
    }
    const parsed = text === '' ? { value: undefined } : parseJson(text);
    if (response.status < 200 || response.status > 299) {
      const errors = normalizeV1ErrorBody(parsed?.value);
      const said = errors.length
        ? errors
            .map((error) => (error.field === '__all__' ? error.message : `${error.field}: ${error.message}`))
            .join('; ')
        : text.slice(0, 200) || response.statusText;
      const location = response.headers.get('location');
      const redirected =
        response.status >= 300 && response.status < 400 && location ? ` (to ${location})` : '';
      const retryAfterMs =
        response.status === 429 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
      throw new V1ApiError(
        v1ErrorCodeForStatus(response.status),
        `${what} answered ${response.status}${redirected}: ${said}`,
        {
          status: response.status,
          errors,
          body: parsed ? parsed.value : text,
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        },
      );
    }
    if (parsed === undefined) {
      throw new V1ApiError('invalid_response', `${what} answered ${response.status} without JSON`, {
        status: response.status,
        body: text,
      });
    }
    return parsed.value;
  }

  const purchasePath = (id: string, action = '') => `/purchases/${segment(id, 'id')}/${action}`;
  const statementPath = (id: string, action = '') => `/company_statements/${segment(id, 'id')}/${action}`;

  async function getStatement(
    id: string,
    callOptions: V1RequestOptions | undefined,
  ): Promise<CompanyStatement> {
    return expectStatement(await send('GET', urlOf(statementPath(id)), undefined, callOptions));
  }
  const webhookPath = (id: string) => `/webhooks/${segment(id, 'id')}/`;
  const clientPath = (id: string) => `/clients/${segment(id, 'id')}/`;
  const tokenPath = (clientId: string, tokenId: string) =>
    `${clientPath(clientId)}recurring_tokens/${segment(tokenId, 'tokenId')}/`;
  const sendClient = async (method: Method, path: string, body: unknown, callOptions?: V1RequestOptions) => {
    if (body !== undefined && !isRecord(body)) {
      throw new V1ApiError('invalid_request', 'The client body must be an object');
    }
    return expect<Client>(await send(method, urlOf(path), body, callOptions), 'Client', isClient);
  };

  async function getPurchase(id: string, callOptions: V1RequestOptions | undefined): Promise<Purchase> {
    const answer = await send('GET', urlOf(purchasePath(id)), undefined, callOptions);
    return expect<Purchase>(answer, 'Purchase', isPurchase);
  }

  /** `POST /purchases/{id}/{action}`, whose answer is the Purchase. */
  async function purchaseOperation(
    id: string,
    action: string,
    body: Record<string, unknown> | undefined,
    callOptions: V1RequestOptions | undefined,
  ): Promise<Purchase> {
    const answer = await send('POST', urlOf(purchasePath(id, action)), body, callOptions);
    return expect<Purchase>(answer, 'Purchase', isPurchase);
  }

  function list<Item>(
    path: string,
    query?: Record<string, V1QueryValue>,
    listOptions: V1RequestOptions = {},
  ): V1List<Item> {
    return paginate<Item>(
      urlOf(path, query),
      async (pageUrl, { signal }) =>
        (await send('GET', pageUrl, undefined, signal ? { signal } : {})) as V1Page<Item>,
      listOptions.signal ? { signal: listOptions.signal } : {},
    );
  }

  return {
    purchases: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The purchase body must be an object');
        const answer = await send('POST', urlOf('/purchases/'), body, callOptions);
        return expect<Purchase>(answer, 'Purchase', isPurchase);
      },
      get: getPurchase,
      cancel(id, callOptions) {
        return purchaseOperation(id, 'cancel/', undefined, callOptions);
      },
      async capture(id, body, callOptions) {
        const { amount } = optionalBody(body, 'capture');
        checkAmount(amount);
        return purchaseOperation(id, 'capture/', given({ amount }), callOptions);
      },
      release(id, callOptions) {
        return purchaseOperation(id, 'release/', undefined, callOptions);
      },
      async charge(id, body, callOptions) {
        const token = isRecord(body) ? body.recurring_token : undefined;
        if (typeof token !== 'string' || token.trim() === '') {
          throw new V1ApiError(
            'invalid_request',
            `recurring_token must be the id of a token Purchase (a non-empty string), not ${shown(token)}`,
          );
        }
        return purchaseOperation(id, 'charge/', { recurring_token: token }, callOptions);
      },
      deleteRecurringToken(id, callOptions) {
        return purchaseOperation(id, 'delete_recurring_token/', undefined, callOptions);
      },
      async refund(id, body, callOptions) {
        const { amount, client_name } = optionalBody(body, 'refund');
        checkAmount(amount);
        checkClientName(client_name);
        const url = urlOf(purchasePath(id, 'refund/'));
        const answer = await send('POST', url, given({ amount, client_name }), callOptions);
        return expect<Payment>(answer, 'Payment', isPayment);
      },
      async markAsPaid(id, body, callOptions) {
        const { paid_on } = optionalBody(body, 'mark_as_paid');
        if (paid_on !== undefined && !Number.isFinite(paid_on)) {
          throw new V1ApiError(
            'invalid_request',
            `paid_on must be a Unix timestamp in seconds (a finite number), not ${shown(paid_on)}; ` +
              'leave it out for now',
          );
        }
        return purchaseOperation(id, 'mark_as_paid/', given({ paid_on }), callOptions);
      },
      resendInvoice(id, callOptions) {
        return purchaseOperation(id, 'resend_invoice/', undefined, callOptions);
      },
      async failureCause(id, callOptions) {
        return readFailureCause(await getPurchase(id, callOptions));
      },
    },

    wallets: {
      async pay(purchaseId, payment, callOptions) {
        const form = walletForm(payment);
        const url = new URL(`${gateway}/p/${segment(purchaseId, 'purchaseId')}/`);
        let answer: unknown;
        try {
          answer = await send('POST', url, form, callOptions);
        } catch (error) {
          // The decline is an answer, not a failure of the call: the sandbox sends it with 400.
          if (error instanceof V1ApiError && error.status === 400 && isWalletFailure(error.body)) {
            return walletResult(error.body, `POST ${url.pathname}`);
          }
          throw error;
        }
        return walletResult(answer, `POST ${url.pathname}`);
      },
    },

    async paymentMethods(query, callOptions) {
      if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
      requireQueryText(query, 'brand_id');
      requireQueryText(query, 'currency');
      const { brand_id, currency, country, recurring, skip_capture, preauthorization, language } = query;
      const url = urlOf('/payment_methods/', {
        brand_id,
        currency,
        country,
        recurring,
        skip_capture,
        preauthorization,
        language,
      });
      const answer = await send('GET', url, undefined, callOptions);
      return expect<PaymentMethods>(answer, 'payment methods', (record) =>
        Array.isArray(record['available_payment_methods']),
      );
    },

    async payoutMethods(query, callOptions) {
      if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
      requireQueryText(query, 'brand_id');
      requireQueryText(query, 'currency');
      const { brand_id, currency, language } = query;
      const answer = await send(
        'GET',
        urlOf('/payout_methods/', { brand_id, currency, language }),
        undefined,
        callOptions,
      );
      return expect<PayoutMethods>(answer, 'payout methods', (record) =>
        Array.isArray(record['available_payout_methods']),
      );
    },

    async publicKey(callOptions) {
      const url = urlOf('/public_key/');
      let pem: unknown;
      try {
        pem = await send('GET', url, undefined, callOptions);
      } catch (error) {
        // A gateway may send the PEM as plain text rather than as a JSON string.
        const plainText =
          error instanceof V1ApiError && error.code === 'invalid_response' && typeof error.body === 'string';
        if (!plainText) throw error;
        pem = error.body;
      }
      try {
        if (typeof pem !== 'string') throw new TypeError('not a string');
        importPublicKey(pem);
      } catch (error) {
        throw new V1ApiError('invalid_response', 'GET /public_key/ did not answer an RSA public key PEM', {
          body: pem,
          cause: error,
        });
      }
      return pem;
    },

    webhooks: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
        return expect<Webhook>(
          await send('POST', urlOf('/webhooks/'), body, callOptions),
          'Webhook',
          isWebhook,
        );
      },
      list(query, listOptions) {
        return list<Webhook>('/webhooks/', query, listOptions);
      },
      async get(id, callOptions) {
        const answer = await send('GET', urlOf(webhookPath(id)), undefined, callOptions);
        return expect<Webhook>(answer, 'Webhook', isWebhook);
      },
      async update(id, body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
        const answer = await send('PUT', urlOf(webhookPath(id)), body, callOptions);
        return expect<Webhook>(answer, 'Webhook', isWebhook);
      },
      async patch(id, body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
        const answer = await send('PATCH', urlOf(webhookPath(id)), body, callOptions);
        return expect<Webhook>(answer, 'Webhook', isWebhook);
      },
      async delete(id, callOptions) {
        await send('DELETE', urlOf(webhookPath(id)), undefined, callOptions);
      },
      deliveries(query, listOptions) {
        if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
        requireQueryText(query, 'id');
        requireQueryText(query, 'source_type');
        const { id, source_type } = query;
        return list<WebhookDelivery>('/webhooks/deliveries/', { id, source_type }, listOptions);
      },
    },

    clients: {
      create: (body, callOptions) => sendClient('POST', '/clients/', body, callOptions),
      list: (query, listOptions) => list<Client>('/clients/', query, listOptions),
      get: (id, callOptions) => sendClient('GET', clientPath(id), undefined, callOptions),
      update: (id, body, callOptions) => sendClient('PUT', clientPath(id), body, callOptions),
      patch: (id, body, callOptions) => sendClient('PATCH', clientPath(id), body, callOptions),
      async delete(id, callOptions) {
        await send('DELETE', urlOf(clientPath(id)), undefined, callOptions);
      },
      recurringTokens: (clientId, query, listOptions) =>
        list<ClientRecurringToken>(`${clientPath(clientId)}recurring_tokens/`, query, listOptions),
      async getRecurringToken(clientId, tokenId, callOptions) {
        const answer = await send('GET', urlOf(tokenPath(clientId, tokenId)), undefined, callOptions);
        return expect<ClientRecurringToken>(answer, 'ClientRecurringToken', isToken);
      },
      async deleteRecurringToken(clientId, tokenId, callOptions) {
        await send('DELETE', urlOf(tokenPath(clientId, tokenId)), undefined, callOptions);
      },
    },

    billing: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The billing body must be an object');
        const answer = await send('POST', urlOf('/billing/'), body, callOptions);
        if (!Array.isArray(answer) || !answer.every((id) => typeof id === 'string')) {
          throw new V1ApiError('invalid_response', 'POST /billing/ did not answer an array of Purchase ids', {
            body: answer,
          });
        }
        return answer as string[];
      },
    },

    billingTemplates: (() => {
      const templatePath = (id: string, action = '') => `/billing_templates/${segment(id, 'id')}/${action}`;
      const subscriberPath = (id: string, clientId: string) =>
        templatePath(id, `clients/${segment(clientId, 'clientId')}/`);
      const isTemplate = (record: Record<string, unknown>) =>
        typeof record['id'] === 'string' && typeof record['is_subscription'] === 'boolean';
      const isSubscriber = (record: Record<string, unknown>) =>
        typeof record['client_id'] === 'string' && typeof record['status'] === 'string';
      const sendTemplate = async (
        method: Method,
        path: string,
        body: unknown,
        callOptions?: V1RequestOptions,
      ) => {
        if (body !== undefined && !isRecord(body)) {
          throw new V1ApiError('invalid_request', 'The billing template body must be an object');
        }
        return expect<BillingTemplate>(
          await send(method, urlOf(path), body, callOptions),
          'BillingTemplate',
          isTemplate,
        );
      };
      const sendSubscriber = async (
        method: Method,
        templateId: string,
        clientId: string,
        body: unknown,
        callOptions?: V1RequestOptions,
      ) =>
        expect<BillingTemplateClient>(
          await send(method, urlOf(subscriberPath(templateId, clientId)), body, callOptions),
          'BillingTemplateClient',
          isSubscriber,
        );
      const clientBody = (body: unknown) => {
        if (!isRecord(body))
          throw new V1ApiError('invalid_request', 'The body must be an object {client_id}');
        return body;
      };
      return {
        create: (body, callOptions) => sendTemplate('POST', '/billing_templates/', body, callOptions),
        list: (query, listOptions) => list<BillingTemplate>('/billing_templates/', query, listOptions),
        get: (id, callOptions) => sendTemplate('GET', templatePath(id), undefined, callOptions),
        update: (id, body, callOptions) => sendTemplate('PUT', templatePath(id), body, callOptions),
        async delete(id, callOptions) {
          await send('DELETE', urlOf(templatePath(id)), undefined, callOptions);
        },
        async sendInvoice(id, body, callOptions) {
          const answer = await send(
            'POST',
            urlOf(templatePath(id, 'send_invoice/')),
            clientBody(body),
            callOptions,
          );
          return expect<Purchase>(answer, 'Purchase', isPurchase);
        },
        async addSubscriber(id, body, callOptions) {
          const answer = await send(
            'POST',
            urlOf(templatePath(id, 'add_subscriber/')),
            clientBody(body),
            callOptions,
          );
          return expect<AddSubscriberAnswer>(
            answer,
            'add_subscriber',
            (record) =>
              isRecord(record['billing_template_client']) &&
              (record['purchase'] === null || isRecord(record['purchase'])),
          );
        },
        clients: {
          list: (templateId, query, listOptions) =>
            list<BillingTemplateClient>(templatePath(templateId, 'clients/'), query, listOptions),
          get: (templateId, clientId, callOptions) =>
            sendSubscriber('GET', templateId, clientId, undefined, callOptions),
          async patch(templateId, clientId, body, callOptions) {
            if (!isRecord(body))
              throw new V1ApiError('invalid_request', 'The body must be an object {status}');
            return sendSubscriber('PATCH', templateId, clientId, body, callOptions);
          },
        },
      } satisfies V1BillingTemplates;
    })(),
    async balance(callOptions) {
      const answer = await send('GET', urlOf('/balance/'), undefined, callOptions);
      return expect<CompanyBalance>(answer, 'balance', (record) => isRecord(record['e_commerce']));
    },

    statements: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The statement body must be an object');
        return expectStatement(await send('POST', urlOf('/company_statements/'), body, callOptions));
      },
      list(query, listOptions) {
        return list<CompanyStatement>('/company_statements/', query, listOptions);
      },
      get: getStatement,
      async cancel(id, callOptions) {
        return expectStatement(
          await send('POST', urlOf(statementPath(id, 'cancel/')), undefined, callOptions),
        );
      },
      waitUntilReady(id, waitOptions) {
        return waitForStatement(id, (callOptions) => getStatement(id, callOptions), waitOptions);
      },
      async download(id, waitOptions = {}) {
        const statement = await waitForStatement(
          id,
          (callOptions) => getStatement(id, callOptions),
          waitOptions,
        );
        return openStatementDownload(statement, {
          fetch: fetchImpl,
          authorization,
          origin: base.origin,
          timeoutMs,
          ...(waitOptions.signal && { signal: waitOptions.signal }),
        });
      },
    },

    list,
  };
}
