/**
 * The sandbox's v1 REST interface under `/api/v1/`, one router mounted on the sandbox's: bearer secret keys
 * from the config (`request-context.ts`), Purchases and their operations (`purchase-routes.ts`), the payment and
 * payout method lookups with the document's rate limit, the public key that verifies success callbacks, and
 * Webhooks with their signed deliveries (`webhook-routes.ts`); plus the hosted checkout page
 * (`checkout-routes.ts`) and the method logos under `/sandbox/v1/logos/`. Every answer, errors included, is
 * in the document's shapes.
 *
 * No CORS here on purpose: the secret key belongs on the merchant's server, and a browser that could call
 * this API would be holding it.
 */
import type { PaymentRefundedPayload, V1PublicKey } from '../../core/v1-types.js';
import { PROMPT, type TestAcquirer } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { HttpError, type Router, sendJson } from '../http.js';
import type { Store } from '../store.js';
import { V1Billing } from './billing.js';
import { mountBillingRoutes } from './billing-routes.js';
import { CheckoutPayments } from './checkout-payments.js';
import { mountCheckoutPage } from './checkout-routes.js';
import { mountClientRoutes } from './client-routes.js';
import { V1Clients } from './clients.js';
import type { CompanyKeys } from './company-keys.js';
import { V1HttpError } from './errors.js';
import { LOGO_PATH_PREFIX, logoSvg } from './method-catalogue.js';
import {
  paymentMethods,
  payoutMethods,
  readPaymentMethodsQuery,
  readPayoutMethodsQuery,
} from './payment-methods.js';
import { PurchaseOperations } from './purchase-operations.js';
import { mountPurchaseRoutes } from './purchase-routes.js';
import { paymentView } from './purchase-view.js';
import { type PurchaseRecord, V1Purchases } from './purchases.js';
import {
  DEFAULT_PAYMENT_METHODS_RATE_LIMIT,
  type RateLimitSettings,
  SlidingWindowLimiter,
} from './rate-limit.js';
import { authenticated, type V1Merchant, v1Router } from './request-context.js';
import { mountStatementRoutes } from './statement-routes.js';
import { SuccessCallbacks } from './success-callbacks.js';
import { mountWalletPayments } from './wallet-payments.js';
import { purchaseWebhookEvents, WebhookDeliveries } from './webhook-deliveries.js';
import { mountWebhookRoutes } from './webhook-routes.js';
import { V1Webhooks } from './webhooks.js';

/** What the v1 interface needs from the sandbox. */
export interface V1ApiDeps {
  config: SandboxConfig;
  store: Store;
  /** Delivers the signed success callbacks and webhooks. */
  queue: DeliveryQueue;
  acquirer: TestAcquirer;
  /** Each merchant's clock, which its Purchases, billing and statements run on. */
  clocks: SandboxClocks;
  /** The host the sandbox listens on, as it was given (`--host`): checkout URLs name it. */
  listenHost: string;
  /** Each v1 merchant's company key pair: `/public_key/` answers its public half, callbacks are signed with it. */
  companyKeys: CompanyKeys;
  /**
   * The sandbox's own URL once it listens: the `checkout_url` base of Purchases stored, by an earlier version,
   * without the one they were created under.
   */
  ownUrl?: () => string;
  /** The browser build (dist/browser): the hosted page's card form script is served from it. */
  browserRoot: string;
}

const API_PREFIX = '/api/v1';

/** What the sandbox's test helpers drive: the very objects the routes and the hosted page use. */
export interface V1Parts {
  purchases: V1Purchases;
  payments: CheckoutPayments;
  operations: PurchaseOperations;
  billing: V1Billing;
}

/** Mounts `/api/v1/`, the hosted checkout page and the logos on the sandbox's router. */
export function mountV1Api(router: Router, deps: V1ApiDeps): V1Parts {
  const { clocks, store, acquirer } = deps;
  const now = (merchantId: string) => clocks.for(merchantId).now();
  const webhooks = new V1Webhooks(store, now);
  const webhookDeliveries = new WebhookDeliveries({ store, queue: deps.queue, webhooks });
  const webhookEvents = purchaseWebhookEvents(webhookDeliveries, (record) => purchases.baseUrlOf(record));
  // Billing hears the Purchase events too (a subscriber's first Purchase paid); it is made after purchases.
  let billing: V1Billing | undefined;
  const purchases = new V1Purchases(
    store,
    now,
    {
      emit(event, record) {
        webhookEvents.emit(event, record);
        billing?.heard(event, record);
      },
    },
    (authorisationId) => {
      const authorisation = acquirer.get(authorisationId);
      if (!authorisation) return undefined;
      const { instrument, captured } = authorisation;
      return { card: instrument.kind === 'card' ? instrument.card : undefined, captured };
    },
    deps.ownUrl,
  );
  const callbacks = new SuccessCallbacks({
    queue: deps.queue,
    companyKeys: deps.companyKeys,
    baseUrlOf: (record) => purchases.baseUrlOf(record),
  });
  const operations = new PurchaseOperations({
    purchases,
    acquirer,
    clocks,
    store,
    callbacks,
    paymentEvents: {
      emit(merchantId, refund) {
        webhookDeliveries.emit(
          merchantId,
          'payment.refunded',
          { type: 'payment', id: refund.id },
          (): PaymentRefundedPayload => ({
            ...paymentView(refund, purchases.find(refund.related_to.id)),
            event_type: 'payment.refunded',
          }),
        );
      },
    },
  });
  operations.resume();
  const clients = new V1Clients(store, purchases, acquirer, now);
  // The hosted page offers a Purchase's Client's saved cards, and pays with them in one click.
  const savedCards = (record: PurchaseRecord) =>
    record.purchase.client_id === null
      ? []
      : clients.tokenPurchases(record.merchantId, record.purchase.client_id);
  const payments = new CheckoutPayments({
    purchases,
    store,
    acquirer,
    callbacks,
    operations,
    savedCards,
    now,
  });
  mountCheckoutPage(router, {
    config: deps.config,
    purchases,
    payments,
    savedCards: (record) => savedCards(record).map((token) => clients.tokenView(token)),
    browserRoot: deps.browserRoot,
    now,
  });

  billing = new V1Billing({
    store,
    clocks,
    purchases,
    operations,
    clients,
    merchants: deps.config.merchants,
  });
  billing.resume();

  const api = v1Router();
  const as = authenticated(deps.config.merchants, deps.listenHost);
  mountPurchaseRoutes(api, {
    purchases,
    operations,
    clients,
    invoices: billing,
    authenticated: as,
  });
  mountClientRoutes(api, {
    clients,
    deleteToken: (merchantId, purchaseId) => operations.deleteRecurringToken(merchantId, purchaseId, PROMPT),
    authenticated: as,
  });
  mountWalletPayments(router, { purchases, payments, authenticated: as });
  mountBillingRoutes(router, api, { billing, authenticated: as });
  // One limiter per merchant: each counts its window on its own merchant's clock.
  const limiters = new Map<string, SlidingWindowLimiter>();
  const limiterOf = (merchantId: string) => {
    let limiter = limiters.get(merchantId);
    if (limiter === undefined) {
      limiter = new SlidingWindowLimiter(() => clocks.for(merchantId).nowMs());
      limiters.set(merchantId, limiter);
    }
    return limiter;
  };
  api.on(
    'GET',
    '/payment_methods/',
    as(({ http, merchant }) => {
      const limit = rateLimitOf(merchant);
      const decision = limiterOf(merchant.id).take(
        `${merchant.id}\n${canonicalQuery(http.url.searchParams)}`,
        limit,
      );
      if (!decision.allowed) {
        const seconds = Math.ceil(decision.retryAfterMs / 1000);
        throw V1HttpError.nonField(
          429,
          'throttled',
          `payment_methods takes at most ${limit.max} call(s) per ${limit.windowMs / 1000} s for one query; ` +
            `cache its answer (try again in ${seconds} s)`,
          { 'retry-after': String(seconds) },
        );
      }
      const read = readPaymentMethodsQuery(http.url.searchParams, merchant.defaults.language);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      checkBrand(merchant, read.lookup.brandId);
      sendJson(http.res, 200, paymentMethods(read.lookup));
    }),
  );
  api.on(
    'GET',
    '/payout_methods/',
    as(({ http, merchant }) => {
      const read = readPayoutMethodsQuery(http.url.searchParams, merchant.defaults.language);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      checkBrand(merchant, read.lookup.brandId);
      sendJson(http.res, 200, payoutMethods(read.lookup));
    }),
  );
  api.on(
    'GET',
    '/public_key/',
    as(({ http, merchant }) => {
      const companyPublicKey: V1PublicKey | undefined = deps.companyKeys.get(merchant.id)?.publicKeyPem;
      if (companyPublicKey === undefined) throw new Error(`No company key for merchant ${merchant.id}`);
      sendJson(http.res, 200, companyPublicKey);
    }),
  );
  mountWebhookRoutes(api, {
    webhooks,
    deliveries: webhookDeliveries,
    purchases,
    operations,
    billing,
    authenticated: as,
  });
  mountStatementRoutes(api, { store, clocks, purchases, operations, acquirer, authenticated: as });
  router.mount(API_PREFIX, api);

  router.on('GET', `${LOGO_PATH_PREFIX}:file`, ({ res, params }) => {
    const svg = /^([a-z0-9_]+)\.svg$/.exec(params['file'] ?? '')?.[1];
    const body = svg === undefined ? undefined : logoSvg(svg);
    if (body === undefined) throw new HttpError(404, 'not_found', `No logo ${params['file']}`);
    res.writeHead(200, {
      'content-type': 'image/svg+xml',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'public, max-age=86400',
      // Merchant pages show these logos, so they may be loaded from any origin.
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
    res.end(body);
  });
  return { purchases, payments, operations, billing };
}

/** A lookup names the brand; it must be the key's own. */
function checkBrand(merchant: V1Merchant, brandId: string): void {
  if (brandId.toLowerCase() !== merchant.v1.brandId.toLowerCase()) {
    throw V1HttpError.invalid([
      { field: 'brand_id', code: 'invalid', message: "brand_id is not a brand of the secret key's account" },
    ]);
  }
}

function rateLimitOf(merchant: V1Merchant): RateLimitSettings {
  return {
    max: merchant.v1.rateLimit?.max ?? DEFAULT_PAYMENT_METHODS_RATE_LIMIT.max,
    windowMs: merchant.v1.rateLimit?.windowMs ?? DEFAULT_PAYMENT_METHODS_RATE_LIMIT.windowMs,
  };
}

/** The same query however its parameters are ordered. */
function canonicalQuery(query: URLSearchParams): string {
  const entries = [...query.entries()].sort(([a, x], [b, y]) =>
    a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1,
  );
  return new URLSearchParams(entries).toString();
}
