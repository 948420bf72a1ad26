/**
 * The sandbox's v1 REST interface under `/api/v1/`: bearer secret keys from the config, Purchases (create,
 * get, cancel), the payment and payout method lookups with the document's rate limit, the public key
 * that verifies success callbacks, and Webhooks with their signed deliveries (`webhook-routes.ts`); plus
 * the hosted checkout page (`checkout-routes.ts`) and the method logos under `/sandbox/v1/logos/`. Every
 * answer, errors included, is in the document's shapes; endpoints the document lists but the sandbox does
 * not serve yet answer 501 so that a merchant's test says so plainly instead of reading a 404 as "no such
 * purchase".
 *
 * No CORS here on purpose: the secret key belongs on the merchant's server, and a browser that could call
 * this API would be holding it.
 */
import { createPublicKey } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { V1PublicKey } from '../../core/v1-types.js';
import { ACQUIRER_MODES, type AcquirerBehaviour, type AcquirerMode, type TestAcquirer } from '../acquirer.js';
import type { SandboxClock } from '../clock.js';
import type { MerchantConfig, SandboxConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { decodePathSegment, HttpError, type RequestContext, type Router, sendJson } from '../http.js';
import { isWriteFailure, type Store } from '../store.js';
import { CheckoutPayments } from './checkout-payments.js';
import { mountCheckoutPage } from './checkout-routes.js';
import { sendV1Error, V1HttpError } from './errors.js';
import { LOGO_PATH_PREFIX, logoSvg } from './method-catalogue.js';
import { readCapture, readCharge, readMarkAsPaid, readRefund } from './operation-requests.js';
import {
  paymentMethods,
  payoutMethods,
  readPaymentMethodsQuery,
  readPayoutMethodsQuery,
} from './payment-methods.js';
import { PurchaseOperations } from './purchase-operations.js';
import { readCreatePurchase } from './purchase-request.js';
import { purchaseView, V1Purchases } from './purchases.js';
import {
  DEFAULT_PAYMENT_METHODS_RATE_LIMIT,
  type RateLimitSettings,
  SlidingWindowLimiter,
} from './rate-limit.js';
import { SuccessCallbacks } from './success-callbacks.js';
import { purchaseWebhookEvents, WebhookDeliveries } from './webhook-deliveries.js';
import { webhookRoutes } from './webhook-routes.js';
import { V1Webhooks } from './webhooks.js';

/** What the v1 interface needs from the sandbox. */
export interface V1ApiDeps {
  config: SandboxConfig;
  store: Store;
  /** Delivers the signed success callbacks and webhooks. */
  queue: DeliveryQueue;
  acquirer: TestAcquirer;
  clock: SandboxClock;
  /** The sandbox's own private key (PEM): its public half is the company key of `/public_key/`. */
  servicePrivateKeyPem: string;
}

/** A merchant that has v1 credentials. */
type V1Merchant = MerchantConfig & { v1: NonNullable<MerchantConfig['v1']> };

/** A request that passed authentication. */
export interface V1Context {
  http: RequestContext;
  merchant: V1Merchant;
  /** Path parameters of the route, in order. */
  params: string[];
  /** Scheme, host and port the caller reached the sandbox under. */
  baseUrl: string;
}

/** One endpoint under `/api/v1`: `pattern` is matched against the path after the prefix. */
export interface V1Route {
  method: string;
  pattern: RegExp;
  handler: (context: V1Context) => Promise<void> | void;
}

const API_PREFIX = '/api/v1';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Documented endpoints the sandbox does not serve yet (answered 501). */
const NOT_SERVED = [/^\/(billing|billing_templates|clients|balance|company_statements)(\/.*)?$/];

/** The test header that sets how the acquirer answers one operation. */
export const ACQUIRER_HEADER = 'x-sandbox-acquirer';
const DEFAULT_SLOW_MS = 10_000;

/** Mounts `/api/v1/`, the hosted checkout page and the logos on the sandbox's router. */
export function mountV1Api(router: Router, deps: V1ApiDeps): void {
  const { clock, store, acquirer } = deps;
  const now = () => clock.now();
  const webhooks = new V1Webhooks(store, now);
  const webhookDeliveries = new WebhookDeliveries({ store, queue: deps.queue, webhooks });
  const purchases = new V1Purchases(store, now, purchaseWebhookEvents(webhookDeliveries));
  const callbacks = new SuccessCallbacks({
    queue: deps.queue,
    servicePrivateKeyPem: deps.servicePrivateKeyPem,
  });
  let lastBaseUrl: string | undefined;
  const operations = new PurchaseOperations({
    purchases,
    acquirer,
    clock,
    store,
    callbacks,
    paymentEvents: {
      emit(merchantId, payload) {
        webhookDeliveries.emit(merchantId, payload.event_type, { type: 'payment', id: payload.id }, payload);
      },
    },
    fallbackBaseUrl: () => lastBaseUrl ?? 'http://127.0.0.1',
  });
  operations.resume();
  const payments = new CheckoutPayments({ purchases, store, acquirer, callbacks, operations, now });
  mountCheckoutPage(router, { config: deps.config, purchases, payments, baseUrlOf });
  const limiter = new SlidingWindowLimiter(() => clock.nowMs());
  const companyPublicKey: V1PublicKey = createPublicKey(deps.servicePrivateKeyPem)
    .export({ type: 'spki', format: 'pem' })
    .toString();
  const merchantsByKey = new Map<string, V1Merchant>();
  for (const merchant of deps.config.merchants) {
    if (merchant.v1) merchantsByKey.set(merchant.v1.secretKey, merchant as V1Merchant);
  }

  const routes: V1Route[] = [
    {
      method: 'POST',
      pattern: /^\/purchases\/?$/,
      async handler({ http, merchant, baseUrl }) {
        const body = await http.json();
        const read = readCreatePurchase(body, {
          brandId: merchant.v1.brandId,
          defaultCurrency: merchant.defaults.currency,
          defaultLanguage: merchant.defaults.language,
        });
        if ('issues' in read) throw V1HttpError.invalid(read.issues);
        sendJson(http.res, 201, purchaseView(purchases.create(merchant.id, read.draft, baseUrl), baseUrl));
      },
    },
    {
      method: 'GET',
      pattern: /^\/purchases\/([^/]+)\/?$/,
      handler({ http, merchant, params, baseUrl }) {
        sendJson(http.res, 200, purchaseView(purchases.get(merchant.id, params[0]!), baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/cancel\/?$/,
      handler({ http, merchant, params, baseUrl }) {
        sendJson(http.res, 200, purchaseView(purchases.cancel(merchant.id, params[0]!, baseUrl), baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/capture\/?$/,
      async handler({ http, merchant, params, baseUrl }) {
        const { amount } = readCapture(await optionalBody(http));
        const record = operations.capture(
          merchant.id,
          params[0]!,
          amount,
          behaviour(http, merchant),
          baseUrl,
        );
        sendJson(http.res, 200, purchaseView(record, baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/release\/?$/,
      handler({ http, merchant, params, baseUrl }) {
        const record = operations.release(merchant.id, params[0]!, behaviour(http, merchant), baseUrl);
        sendJson(http.res, 200, purchaseView(record, baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/charge\/?$/,
      async handler({ http, merchant, params, baseUrl }) {
        const { recurringToken } = readCharge(await optionalBody(http));
        const record = operations.charge(
          merchant.id,
          params[0]!,
          recurringToken,
          behaviour(http, merchant),
          baseUrl,
        );
        sendJson(http.res, 200, purchaseView(record, baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/delete_recurring_token\/?$/,
      handler({ http, merchant, params, baseUrl }) {
        const record = operations.deleteRecurringToken(
          merchant.id,
          params[0]!,
          behaviour(http, merchant),
          baseUrl,
        );
        sendJson(http.res, 200, purchaseView(record, baseUrl));
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/refund\/?$/,
      async handler({ http, merchant, params, baseUrl }) {
        const request = readRefund(await optionalBody(http));
        sendJson(
          http.res,
          200,
          operations.refund(merchant.id, params[0]!, request, behaviour(http, merchant), baseUrl),
        );
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/mark_as_paid\/?$/,
      async handler({ http, merchant, params, baseUrl }) {
        const { paidOn } = readMarkAsPaid(await optionalBody(http));
        sendJson(
          http.res,
          200,
          purchaseView(operations.markAsPaid(merchant.id, params[0]!, paidOn), baseUrl),
        );
      },
    },
    {
      method: 'POST',
      pattern: /^\/purchases\/([^/]+)\/resend_invoice\/?$/,
      handler({ http, merchant, params, baseUrl }) {
        sendJson(http.res, 200, purchaseView(operations.resendInvoice(merchant.id, params[0]!), baseUrl));
      },
    },
    {
      method: 'GET',
      pattern: /^\/payment_methods\/?$/,
      handler({ http, merchant }) {
        const limit = rateLimitOf(merchant);
        const decision = limiter.take(`${merchant.id}\n${canonicalQuery(http.url.searchParams)}`, limit);
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
      },
    },
    {
      method: 'GET',
      pattern: /^\/payout_methods\/?$/,
      handler({ http, merchant }) {
        const read = readPayoutMethodsQuery(http.url.searchParams, merchant.defaults.language);
        if ('issues' in read) throw V1HttpError.invalid(read.issues);
        checkBrand(merchant, read.lookup.brandId);
        sendJson(http.res, 200, payoutMethods(read.lookup));
      },
    },
    {
      method: 'GET',
      pattern: /^\/public_key\/?$/,
      handler({ http }) {
        sendJson(http.res, 200, companyPublicKey);
      },
    },
    ...webhookRoutes({ webhooks, deliveries: webhookDeliveries, purchases }),
  ];

  const handle = async (http: RequestContext): Promise<void> => {
    try {
      const path = http.url.pathname.slice(API_PREFIX.length);
      const matching = routes.filter((route) => route.pattern.test(path));
      const route = matching.find((candidate) => candidate.method === http.req.method);
      if (!route) {
        if (matching.length > 0) {
          const allow = [...new Set(matching.map((candidate) => candidate.method))].join(', ');
          throw V1HttpError.nonField(
            405,
            'method_not_allowed',
            `${http.req.method} is not allowed on ${http.url.pathname}; use ${allow}`,
            { allow },
          );
        }
        if (NOT_SERVED.some((pattern) => pattern.test(path))) {
          throw V1HttpError.nonField(
            501,
            'not_implemented',
            `The sandbox does not serve ${http.req.method} ${http.url.pathname} yet`,
          );
        }
        throw V1HttpError.nonField(404, 'not_found', `No such endpoint: ${http.url.pathname}`);
      }
      const merchant = authenticate(http.req, merchantsByKey);
      const params = route.pattern.exec(path)!.slice(1).map(decodePathSegment);
      const baseUrl = baseUrlOf(http.req);
      lastBaseUrl = baseUrl;
      await route.handler({ http, merchant, params, baseUrl });
    } catch (error) {
      sendV1Error(http.res, asV1Error(error));
    }
  };
  // One registration per method: every path under /api/v1/ is answered here, so that unknown paths and
  // methods get the v1 error shape as well (the router's pattern is a regular expression).
  for (const method of METHODS) router.on(method, `${API_PREFIX}/.*`, handle);

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
}

/** The merchant whose secret key the request carries as `Authorization: Bearer <key>`. */
function authenticate(req: IncomingMessage, merchants: ReadonlyMap<string, V1Merchant>): V1Merchant {
  const challenge = { 'www-authenticate': 'Bearer realm="svc-sandbox v1"' };
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw V1HttpError.nonField(
      401,
      'not_authenticated',
      'Send the secret key as Authorization: Bearer <secret key>',
      challenge,
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw V1HttpError.nonField(
      401,
      'authentication_failed',
      'The Authorization header must be Bearer <secret key>',
      challenge,
    );
  }
  const merchant = merchants.get(match[1]!);
  if (!merchant) {
    throw V1HttpError.nonField(401, 'authentication_failed', 'The secret key is not valid', challenge);
  }
  return merchant;
}

/** A body that may be left out: none (or an empty one) reads as `{}`. */
async function optionalBody(http: RequestContext): Promise<Record<string, unknown>> {
  const raw = await http.rawBody();
  return raw.toString('utf8').trim() === '' ? {} : http.json();
}

/**
 * How the test acquirer answers this request: the merchant's configured mode, unless the request's
 * `X-Sandbox-Acquirer` header names another.
 */
function behaviour(http: RequestContext, merchant: V1Merchant): AcquirerBehaviour {
  const header = http.req.headers[ACQUIRER_HEADER];
  const slowMs = merchant.v1.acquirer?.slowMs ?? DEFAULT_SLOW_MS;
  if (header === undefined) return { mode: merchant.v1.acquirer?.mode ?? 'normal', slowMs };
  const mode = String(header).trim().toLowerCase();
  if (!ACQUIRER_MODES.includes(mode as AcquirerMode)) {
    throw V1HttpError.nonField(
      400,
      'invalid',
      `X-Sandbox-Acquirer must be one of ${ACQUIRER_MODES.join(', ')}; it was ${JSON.stringify(header)}`,
    );
  }
  return { mode: mode as AcquirerMode, slowMs };
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

/** `http://<Host>`, so a checkout URL works on whatever host the merchant reached the sandbox under. */
function baseUrlOf(req: IncomingMessage): string {
  const host = req.headers.host;
  if (host !== undefined && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)) {
    // The pattern lets through ports past 65535, which no URL takes.
    if (URL.canParse(`http://${host}`)) return `http://${host}`;
  }
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

function asV1Error(error: unknown): V1HttpError {
  if (error instanceof V1HttpError) return error;
  if (error instanceof HttpError) {
    // The router's body reading: malformed JSON (400) or a body over the limit (413).
    const code = error.code === 'body_too_large' ? 'body_too_large' : 'parse_error';
    return V1HttpError.nonField(error.status, code, error.message);
  }
  if (isWriteFailure(error)) {
    // As the router answers it (storageFailure), in the v1 shape: nothing was changed.
    return error.code === 'no_space'
      ? V1HttpError.nonField(507, 'insufficient_storage', error.message)
      : V1HttpError.nonField(503, 'storage_unavailable', error.message);
  }
  console.error('svc-sandbox: internal error in /api/v1', error);
  return V1HttpError.nonField(500, 'internal_error', 'The sandbox failed; see its console');
}
