/**
 * A typed client of the gateway's v1 REST interface (`{base_url}/api/v1/`) for the merchant's server: the
 * secret key travels as a bearer token, so this client belongs on the server, never in a page. Every call
 * resolves the document's response type or rejects with one {@link V1ApiError} whose `code` says what kind
 * of failure it was. Nothing is retried behind the caller's back: creating a Purchase twice is two Purchases.
 *
 * Built as stripe-node is: one small core that sends and checks (./client-core.ts), and one file per resource
 * (./resources/); this file checks the options and puts them together.
 */
import type {
  CompanyBalance,
  PaymentMethods,
  PaymentMethodsQuery,
  PayoutMethods,
  PayoutMethodsQuery,
  V1PublicKey,
} from '../../core/v1-types.js';
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
import { API_PREFIX, createV1Core, type V1QueryValue, type V1RequestOptions } from './client-core.js';
import type { V1List } from './pagination.js';
import { balanceCall } from './resources/balance.js';
import { billingResource, type V1Billing } from './resources/billing.js';
import { billingTemplatesResource, type V1BillingTemplates } from './resources/billing-templates.js';
import { clientsResource, type V1Clients } from './resources/clients.js';
import { companyStatementsResource, type V1Statements } from './resources/company-statements.js';
import { paymentMethodsCall, payoutMethodsCall } from './resources/payment-methods.js';
import { publicKeyCall } from './resources/public-key.js';
import { purchasesResource, type V1Purchases } from './resources/purchases.js';
import { type V1Wallets, walletsResource } from './resources/wallets.js';
import { type V1Webhooks, webhooksResource } from './resources/webhooks.js';

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
  const core = createV1Core({
    gateway,
    origin: base.origin,
    authorization: `Bearer ${secretKey}`,
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs,
  });
  return {
    purchases: purchasesResource(core),
    wallets: walletsResource(core),
    paymentMethods: paymentMethodsCall(core),
    payoutMethods: payoutMethodsCall(core),
    publicKey: publicKeyCall(core),
    webhooks: webhooksResource(core),
    clients: clientsResource(core),
    billing: billingResource(core),
    billingTemplates: billingTemplatesResource(core),
    balance: balanceCall(core),
    statements: companyStatementsResource(core),
    list: core.list,
  };
}
