/**
 * The demo merchant's v1 back end, as a shop writes it with `svc-checkout/server`: it creates Purchases with
 * the v1 client from its own cart, serves the element's payment-methods endpoint through the cached lookup,
 * and receives the success callback and webhooks, verified and deduplicated. The secret key is used here
 * only; the page gets the Purchase's `checkout_url` and nothing else.
 *
 * Routes (all under the shop's origin):
 *   GET  /api/v1/cart              the cart the page shows (the shop's prices)
 *   POST /api/v1/purchase          a Purchase for that cart, {mode?, email?}: how the customer pays, and who
 *                                  (their Client, found or created by e-mail) → CreatedPurchase
 *   GET  /api/v1/payment-methods   the element's `payment-methods-url` (createPaymentMethodsHandler)
 *   POST /api/v1/success-callback  the Purchase's `success_callback`: verified with the company key
 *   POST /api/v1/webhooks          the shop's webhook: verified with the webhook's own `public_key`
 *   GET  /api/v1/order?reference=  one Purchase as the back end knows it, with the events it received
 *   GET  /api/v1/events            every verified event and refused delivery
 *   ...  /api/v1/back-office/*     the staff's view of these Purchases (see v1-back-office.ts)
 *   ...  /api/v1/plans, subscribe  the Tea club subscription plan and its back office (v1-subscriptions.ts)
 */
import {
  constructSuccessCallback,
  constructWebhookEvent,
  createEventDeduplicator,
  createPaymentMethodsHandler,
  createV1Client,
  type EventDeduplicator,
  type FetchHandler,
  PaymentMethodsCache,
  refusalStatus,
  SignatureVerificationError,
  type V1Client,
  type V1WebhookEvent,
  type Webhook,
} from 'svc-checkout/server';
import { json, methodNotAllowed } from './json-answers.js';
import { newOrderId } from './order-ids.js';
import { createV1BackOffice } from './v1-back-office.js';
import {
  isV1PaymentMode,
  V1_CURRENCY,
  V1_PAYMENT_MODES,
  type V1PaymentMode,
  v1CartView,
  v1PurchaseProducts,
} from './v1-cart.js';
import { readEmail, V1Customers } from './v1-customers.js';
import { V1EventLog, type V1EventSource, type V1Order, type V1OrderOrigin } from './v1-event-log.js';
import { createV1Subscriptions } from './v1-subscriptions.js';

/** The paths of the v1 back end. */
export const V1_PATHS = {
  cart: '/api/v1/cart',
  purchase: '/api/v1/purchase',
  paymentMethods: '/api/v1/payment-methods',
  successCallback: '/api/v1/success-callback',
  webhooks: '/api/v1/webhooks',
  order: '/api/v1/order',
  events: '/api/v1/events',
} as const;

/** The shop's pages the hosted checkout page sends the customer back to. */
export const V1_PAGES = {
  checkout: '/v1-checkout.html',
  success: '/v1-success.html',
  failure: '/v1-failure.html',
} as const;

/** The title the shop's webhook is registered with. */
export const V1_WEBHOOK_TITLE = 'svc-checkout demo shop';

/** The prefix of the shop's references of v1 Purchases. */
export const V1_REFERENCE_PREFIX = 'V1';

export interface V1ShopOptions {
  /** The gateway's base URL, such as `http://127.0.0.1:4010`. */
  gatewayUrl: string;
  /** The account's v1 secret key: stays on this server. */
  secretKey: string;
  /** The brand the Purchases belong to. */
  brandId: string;
  /** The shop's origin: the redirects, the success callback and the webhook point here. */
  shopUrl: string;
  /** The clock of the event log, for tests. */
  now?: () => Date;
}

export interface V1Shop {
  routes: ReadonlyMap<string, FetchHandler>;
  log: V1EventLog;
  /**
   * Fetches the company key (once) and registers the shop's webhook (reusing the one a previous run left on
   * the same gateway, so restarts do not pile up webhooks); the routes wait for it too. Rejects when the
   * gateway does not answer; the next call tries again.
   */
  ready(): Promise<V1Setup>;
}

/** What `POST /api/v1/purchase` answers: the page needs the checkout URL, and shows the rest. */
export interface CreatedPurchase {
  /** The shop's reference of the order. */
  reference: string;
  purchaseId: string;
  checkoutUrl: string;
  /** In cents. */
  total: number;
  currency: string;
  /** How the customer pays: at once, a reservation, or at once with the card saved. */
  mode: V1PaymentMode;
  /** The customer's e-mail as the shop keys its Clients by; null for a guest. */
  email: string | null;
  /**
   * Whether the customer's Client has a saved card, which the hosted page offers first (checked, when the
   * page opens without `?preferred=`).
   */
  savedCard: boolean;
}

/** What the back end learnt from the gateway at start. */
export interface V1Setup {
  /** The company key of `/public_key/`, which signs success callbacks. */
  companyKeyPem: string;
  /** The shop's webhook; its `public_key` signs the deliveries. */
  webhook: Webhook;
}

/** The shop's one webhook on the gateway: the one already there for this callback, or a new one. */
async function registerWebhook(client: V1Client, callback: string): Promise<Webhook> {
  const mine = (await client.webhooks.list().toArray()).filter((webhook) => webhook.callback === callback);
  const [kept, ...extra] = mine;
  // Older copies would deliver every event again, signed with keys this run does not know.
  for (const webhook of extra) await client.webhooks.delete(webhook.id);
  if (!kept) return client.webhooks.create({ title: V1_WEBHOOK_TITLE, callback, all_events: true });
  return kept.all_events ? kept : client.webhooks.patch(kept.id, { all_events: true });
}

/** Creates the v1 back end. Nothing is asked of the gateway before {@link V1Shop.ready} or a request. */
export function createV1Shop(options: V1ShopOptions): V1Shop {
  const client = createV1Client({ baseUrl: options.gatewayUrl, secretKey: options.secretKey });
  const log = new V1EventLog(options.now);
  const customers = new V1Customers(client, (purchaseId) => log.orderOfPurchase(purchaseId));
  const cache = new PaymentMethodsCache({
    fetchPaymentMethods: (query, { signal }) => client.paymentMethods(query, { signal }),
  });
  // Apart, since a success callback and the webhook's delivery of the same `purchase.paid` have the same
  // key: each is its own delivery, and each is kept once.
  const seen: Record<V1EventSource, EventDeduplicator> = {
    success_callback: createEventDeduplicator(),
    webhook: createEventDeduplicator(),
  };

  let setup: Promise<V1Setup> | undefined;
  const ready = (): Promise<V1Setup> => {
    if (!setup) {
      const attempt = Promise.all([
        client.publicKey(),
        registerWebhook(client, `${options.shopUrl}${V1_PATHS.webhooks}`),
      ]).then(([companyKeyPem, webhook]) => ({ companyKeyPem, webhook }));
      setup = attempt;
      attempt.catch(() => {
        if (setup === attempt) setup = undefined;
      });
    }
    return setup;
  };

  /** Verifies, dedupes and keeps one delivery; answers 200 to the first and to every repeat. */
  async function receive(
    source: V1EventSource,
    request: Request,
    verify: (request: Request, setup: V1Setup) => Promise<V1WebhookEvent>,
  ): Promise<Response> {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let known: V1Setup;
    try {
      known = await ready();
    } catch {
      // Without the key nothing can be verified; the gateway retries later.
      return json(503, { error: 'not_ready', message: 'The shop cannot reach the gateway yet' });
    }
    let event: V1WebhookEvent;
    try {
      event = await verify(request, known);
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      const status = refusalStatus(error);
      log.refuse({ source, status, code: error.code, message: error.message });
      return json(status, { error: error.code, message: error.message });
    }
    const claim = await seen[source].claim(event);
    if (claim.status === 'in_progress') {
      return json(409, { error: 'in_progress', message: 'This event is being handled; try again' });
    }
    if (claim.status === 'duplicate') {
      log.repeat(source, claim.key);
      return json(200, { received: true, repeated: true });
    }
    try {
      log.add(source, claim.key, event);
    } catch (error) {
      await claim.release();
      throw error;
    }
    await claim.complete();
    return json(200, { received: true });
  }

  const successCallback: FetchHandler = (request) =>
    receive('success_callback', request, (raw, known) =>
      constructSuccessCallback(raw, known.companyKeyPem, { brandId: options.brandId }),
    );

  const webhooks: FetchHandler = (request) =>
    receive('webhook', request, (raw, known) =>
      constructWebhookEvent(raw, known.webhook.public_key, { brandId: options.brandId }),
    );

  const cart: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    return json(200, v1CartView());
  };

  /**
   * A Purchase of the shop's cart, kept as an order. The customer's come with the pages the hosted page
   * sends them back to; a charge of a saved card has none, as the customer is not there.
   */
  async function createOrder(
    origin: Omit<V1OrderOrigin, 'reference'> & { clientId?: string },
  ): Promise<V1Order> {
    const reference = newOrderId(V1_REFERENCE_PREFIX);
    const page = (path: string, parameter: string) =>
      `${options.shopUrl}${path}?${new URLSearchParams({ [parameter]: reference })}`;
    const created = await client.purchases.create({
      brand_id: options.brandId,
      reference,
      // The Client brings the customer's e-mail and, on the hosted page, their saved cards.
      ...(origin.clientId !== undefined && { client_id: origin.clientId }),
      purchase: { currency: V1_CURRENCY, language: 'en', products: v1PurchaseProducts() },
      ...(origin.mode !== 'charge' && {
        ...V1_PAYMENT_MODES[origin.mode].purchase,
        success_redirect: page(V1_PAGES.success, 'reference'),
        failure_redirect: page(V1_PAGES.failure, 'reference'),
        cancel_redirect: page(V1_PAGES.checkout, 'cancelled'),
      }),
      success_callback: `${options.shopUrl}${V1_PATHS.successCallback}`,
    });
    return log.addOrder(created, { ...origin, reference });
  }

  // The page asks for a Purchase of the shop's cart; it names no product and no price, only how the customer
  // pays and, unless a guest, their e-mail.
  const purchase: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    const text = await request.text();
    let body: unknown = {};
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch {
        return json(400, { error: 'malformed_body', message: 'The body must be JSON, or empty' });
      }
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return json(400, { error: 'invalid_request', message: 'The body must be a JSON object, or empty' });
    }
    const { mode = 'pay', email: typed, ...others } = body as Record<string, unknown>;
    if (Object.keys(others).length > 0) {
      return json(400, {
        error: 'invalid_request',
        message: 'The cart and its prices are the shop’s: the request takes only mode and email, or nothing',
      });
    }
    if (!isV1PaymentMode(mode)) {
      return json(400, {
        error: 'invalid_request',
        message: `mode must be one of ${Object.keys(V1_PAYMENT_MODES).join(', ')}, not ${JSON.stringify(mode)}`,
      });
    }
    const email = typed === undefined || typed === '' ? undefined : readEmail(typed);
    if (email && 'error' in email) return json(400, { error: 'invalid_email', message: email.error });
    try {
      await ready();
    } catch (error) {
      return json(502, { error: 'gateway_unavailable', message: (error as Error).message });
    }
    try {
      const clientId = email && (await customers.clientIdFor(email.email));
      const [order, savedCard] = await Promise.all([
        createOrder({ mode, ...(clientId !== undefined && { clientId }) }),
        clientId === undefined ? false : customers.hasSavedCard(clientId),
      ]);
      const answer: CreatedPurchase = {
        reference: order.reference,
        purchaseId: order.purchaseId,
        checkoutUrl: order.checkoutUrl,
        total: order.total,
        currency: order.currency,
        mode,
        email: email?.email ?? null,
        savedCard,
      };
      return json(201, answer);
    } catch (error) {
      // The gateway's own words go to the server log; the page gets a plain refusal.
      console.error('demo shop: creating the v1 Purchase failed:', error);
      return json(502, { error: 'purchase_failed', message: 'The gateway did not create the Purchase' });
    }
  };

  const order: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    const reference = new URL(request.url).searchParams.get('reference') ?? '';
    const found = log.order(reference);
    if (!found) return json(404, { error: 'not_found', message: `No v1 order ${reference}` });
    return json(200, { order: found, events: log.eventsOf(found.purchaseId) });
  };

  const events: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    return json(200, { events: log.events, refused: log.refused });
  };

  return {
    log,
    ready,
    routes: new Map<string, FetchHandler>([
      [V1_PATHS.cart, cart],
      [V1_PATHS.purchase, purchase],
      [
        V1_PATHS.paymentMethods,
        createPaymentMethodsHandler({
          brandId: options.brandId,
          cache,
          defaultCurrency: V1_CURRENCY,
          currencies: [V1_CURRENCY],
          countries: ['EE', 'LT', 'LV'],
          languages: ['lv', 'en', 'ru'],
        }),
      ],
      [V1_PATHS.successCallback, successCallback],
      [V1_PATHS.webhooks, webhooks],
      [V1_PATHS.order, order],
      [V1_PATHS.events, events],
      ...createV1BackOffice({
        client,
        log,
        customers,
        // The new order is the same customer's: the Client of the order whose card pays it.
        createChargeOrder: (token) =>
          createOrder({
            mode: 'charge',
            chargedWith: token.reference,
            ...(token.clientId !== null && { clientId: token.clientId }),
          }),
      }),
      ...createV1Subscriptions({
        client,
        customers,
        brandId: options.brandId,
        gatewayUrl: options.gatewayUrl,
        secretKey: options.secretKey,
      }),
    ]),
  };
}
