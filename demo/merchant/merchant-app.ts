/**
 * The demo merchant's back end, written as a shop would write it with `svc-checkout/server`: it signs the
 * orders its pages show, answers the gateway's callback URLs, and keeps the purchase notifications it
 * verified. A plain node:http handler, so it mounts on Vite's dev server, a bare `http.createServer`, or the
 * test runner's server alike.
 *
 * Routes (paths as in the sandbox's DEMO_CALLBACK_PATHS, plus the shop's own):
 *   PUT     /api/notification          purchase notification through createNotificationReceiver: signature
 *                                      verified, a PAID one checked against the order the shop signed,
 *                                      kept or refused; an order the shop never signed answered 503
 *   GET     /api/terms                 the terms of sale page
 *   POST    /api/shipping-cost         price of a delivery (see shipping-prices.ts)
 *   POST    /api/order-verification    approves orders of CALLBACK widgets (except order ids REJECT-...)
 *   OPTIONS /api/connection-test       the gateway console's connection test
 *   POST    /api/sign                  the lazy page's cart {items: [{id, count}], shippingOptionId?} →
 *                                      {order, signature, certificateName}: priced and signed here
 *   GET     /api/notifications         the kept notifications as JSON
 *   GET     /api/notifications/events  the same, live, as server-sent events (with the v1 events and orders)
 *   ...     /api/v1/*                  the v1 interface, given the gateway's URL (see v1-shop.ts)
 *   POST    /api/back-office/login     {password} → a session cookie; /api/v1/back-office/* answers 401 without
 *                                      one (back-office-login.ts); also /logout, GET /session
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createConnectionTestHandler,
  createNotificationReceiver,
  createOrderVerificationHandler,
  createShippingCostHandler,
  type FetchHandler,
  importPrivateKey,
  importPublicKey,
  type OrderInput,
  type PaidOrderDefaults,
  signOrder,
  toNodeHandler,
} from 'svc-checkout/server';
import {
  BACK_OFFICE_PREFIX,
  createBackOfficeLogin,
  generatedPassword,
  LOGIN_REQUIRED,
} from './back-office-login.js';
import { json, methodNotAllowed } from './json-answers.js';
import {
  NotificationLog,
  type NotificationLogEvent,
  type RefusedNotification,
  type VerifiedNotification,
} from './notification-log.js';
import { newOrderId } from './order-ids.js';
import { pantryOrder } from './pantry-cart.js';
import { quoteShipping } from './shipping-prices.js';
import { termsPage } from './terms-page.js';
import type { V1LogEvent, V1Order, V1ReceivedEvent, V1RefusedDelivery } from './v1-event-log.js';
import { createV1Shop, type V1Setup, type V1Shop } from './v1-shop.js';

export type {
  NotificationLogEvent,
  RefusedNotification,
  V1LogEvent,
  V1Order,
  V1ReceivedEvent,
  V1RefusedDelivery,
  V1Setup,
  VerifiedNotification,
};

/** The paths the demo merchant answers. */
export const MERCHANT_PATHS = {
  notification: '/api/notification',
  terms: '/api/terms',
  shippingCost: '/api/shipping-cost',
  orderVerification: '/api/order-verification',
  connectionTest: '/api/connection-test',
  sign: '/api/sign',
  notifications: '/api/notifications',
  notificationEvents: '/api/notifications/events',
} as const;

/** Orders of CALLBACK widgets whose merchant order id starts with this are refused by order verification. */
export const REJECTED_ORDER_ID_PREFIX = 'REJECT-';

export interface MerchantAppOptions {
  /** The merchant's private key (PKCS#8 or PKCS#1 PEM) that signs the pages' orders. */
  privateKeyPem: string;
  /** The gateway's certificate (or public key) PEM that signs notifications and callbacks. */
  serviceCertificatePem: string;
  /** The name under which the gateway knows the merchant's certificate (`certificate-name`). */
  certificateName: string;
  /** Shown on the terms page. Default `Demo Shop`. */
  shopName?: string;
  /**
   * The shop's origin, such as `http://127.0.0.1:5173`: the orders the back end builds (the lazy page's
   * cart) lead back to its cart page. Without it they have no back-to-merchant URL.
   */
  shopUrl?: string;
  /**
   * The gateway's base URL, such as `http://127.0.0.1:4010`: turns on the v1 routes (`/api/v1/*`), which
   * also need `shopUrl` (the redirects, the success callback and the webhook lead there) and `v1Credentials`.
   */
  gatewayUrl?: string;
  /** The account's v1 secret key and brand id (the sandbox's demo merchant's: `DEMO_V1_*`). */
  v1Credentials?: { secretKey: string; brandId: string };
  /**
   * The merchant's defaults in the gateway's widget configuration, which price the orders where they name no
   * currency or tax rate. Default: EUR at 0.21, the sandbox's demo merchant's.
   */
  orderDefaults?: PaidOrderDefaults;
  /**
   * The fixed orders of the fixed-price (INSTANT) widgets, by widget id, as configured at the gateway: the
   * pages that show such a widget sign nothing, and a notification of theirs is checked against these.
   */
  fixedOrders?: Readonly<Record<string, FixedOrder>>;
  /** The clock, for tests. */
  now?: () => Date;
  /**
   * The password of the back office (`/api/v1/back-office/*`, see back-office-login.ts); at least 8
   * characters. Default: one generated, read from {@link MerchantApp.backOfficePassword}.
   */
  backOfficePassword?: string;
}

export interface MerchantApp {
  /**
   * Answers the request when its path is one of {@link MERCHANT_PATHS} and resolves true once answered
   * (once the stream is open, for server-sent events); resolves false, without touching `res`, otherwise.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** The password the staff log in to the back office with. */
  readonly backOfficePassword: string;
  /** Verified notifications, one per gateway order id and status, oldest first. */
  readonly notifications: readonly VerifiedNotification[];
  /** Deliveries to the notification URL that were refused (forged, altered, unreadable), oldest first. */
  readonly refusedNotifications: readonly RefusedNotification[];
  /** Calls `listener` on each notification kept or repeated, and each refusal; returns the unsubscribe. */
  subscribe(listener: (event: NotificationLogEvent) => void): () => void;
  /**
   * The v1 side: verified success callbacks and webhook deliveries in the order they came, refused
   * deliveries, and the Purchases the shop created. Undefined without `gatewayUrl`.
   */
  readonly v1:
    | {
        readonly events: readonly V1ReceivedEvent[];
        readonly refused: readonly V1RefusedDelivery[];
        order(reference: string): V1Order | undefined;
        subscribe(listener: (event: V1LogEvent) => void): () => void;
        /** Resolves with the first kept event that matches; rejects after `timeoutMs` (10 s) without one. */
        waitForEvent(
          match: (event: V1ReceivedEvent) => boolean,
          timeoutMs?: number,
        ): Promise<V1ReceivedEvent>;
      }
    | undefined;
  /**
   * Asks the gateway for what the v1 routes need (the company key, the shop's webhook); resolves at once
   * without `gatewayUrl`. Call it once the gateway listens, so a wrong setup shows at start.
   */
  ready(): Promise<V1Setup | undefined>;
  /** Resolves with the first kept notification that matches; rejects after `timeoutMs` (10 s) without one. */
  waitForNotification(
    match: (entry: VerifiedNotification) => boolean,
    timeoutMs?: number,
  ): Promise<VerifiedNotification>;
  /**
   * The `signature` attribute for an order the shop built (the pages the server renders). The order is kept
   * by its merchant order id, to check the notification of its payment against.
   */
  signOrder(order: OrderInput): string;
  /**
   * Keeps an order that a page shows without a signature, by its merchant order id: a fixed-price widget's,
   * whose items {@link MerchantAppOptions.fixedOrders} gives.
   */
  expectOrder(order: OrderInput): void;
  /** Ends the open server-sent event streams, so the server holding them can close. */
  close(): void;
}

/** Orders and callbacks are small; a bound keeps a misbehaving client from making the back end buffer much. */
const MAX_BODY_BYTES = 64 * 1024;

/** A fixed-price widget's order as the gateway keeps it: items, and shipping options if any. */
export type FixedOrder = Pick<OrderInput, 'items' | 'shippingOptions' | 'constraints'>;

/** The demo merchant's defaults in the sandbox's demo config. */
const DEMO_ORDER_DEFAULTS: PaidOrderDefaults = { currency: 'EUR', taxRate: '0.21' };

/**
 * How many signed orders the back end remembers. Every page view signs one; a shop keeps them in its
 * database, and the demo, which keeps them in memory, forgets the oldest past this.
 */
const MAX_KEPT_ORDERS = 10_000;

/**
 * The orders the shop signed (or showed, for a fixed-price widget), by merchant order id: what a PAID
 * notification must match before the shop takes it as paid.
 */
class SignedOrders {
  readonly #orders = new Map<string, OrderInput>();

  keep(order: OrderInput): void {
    if (order.orderId == null) return;
    this.#orders.delete(order.orderId);
    this.#orders.set(order.orderId, order);
    if (this.#orders.size > MAX_KEPT_ORDERS) this.#orders.delete(this.#orders.keys().next().value!);
  }

  get(orderId: string | null): OrderInput | undefined {
    return orderId === null ? undefined : this.#orders.get(orderId);
  }
}

/** Creates the demo merchant's back end. Keys are read at once, so a wrong PEM fails here. */
export function createMerchantApp(options: MerchantAppOptions): MerchantApp {
  importPrivateKey(options.privateKeyPem);
  importPublicKey(options.serviceCertificatePem);
  const log = new NotificationLog(options.now);
  const streams = new Set<ServerResponse>();
  const v1Shop = v1ShopOf(options);
  const login = createBackOfficeLogin(options.backOfficePassword ?? generatedPassword());
  const orders = new SignedOrders();
  const orderDefaults = options.orderDefaults ?? DEMO_ORDER_DEFAULTS;
  const signAndKeep = (order: OrderInput) => {
    const signature = signOrder(order, options.privateKeyPem);
    orders.keep(order);
    return signature;
  };

  // The shop's receiver: `onPaid` sees only a PAID notification of the order the shop signed, priced as
  // signed. The order signature joins fields without separators, so a page can re-split them into a cheaper
  // order with the same signature, and the gateway takes it: that one comes to `onRefused`, answered 200.
  const notifications = createNotificationReceiver({
    servicePublicKeyPem: options.serviceCertificatePem,
    findSignedOrder: (orderId) => {
      const order = orders.get(orderId);
      if (order === undefined) {
        const message = `order_id: ${JSON.stringify(orderId)} is no order this shop signed`;
        log.refuse({ status: 503, code: 'unknown_order', message, field: 'order_id', orderId });
      }
      return order;
    },
    defaults: orderDefaults,
    // The log counts repeated deliveries itself, to show them on the notifications page.
    deduplicator: false,
    onPaid: (paid) => {
      log.add(paid.notification);
    },
    onFailed: (failed) => {
      log.add(failed);
    },
    onCancelled: (cancelled) => {
      log.add(cancelled);
    },
    onRefused: ({ code, message, field, notification: refused }) => {
      log.refuse({ status: 200, code, message, field, orderId: refused.order_id });
    },
  });

  const notification: FetchHandler = async (request) => {
    if (request.method !== 'PUT') return methodNotAllowed('PUT');
    const answer = await notifications.handle(request);
    const { status, outcome: code, message } = answer;
    // What was refused before a notification could be read (a signature, a body); the rest is logged above.
    if (status >= 400 && code !== 'unknown_order') log.refuse({ status, code, message });
    return status < 300 ? json(200, { received: true }) : json(status, { error: code, message });
  };

  // The lazy page's cart: the page names products and counts, and the order is built here from the shop's
  // own prices, then signed. The back end never signs an order a browser wrote.
  const sign: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    // toNodeHandler has bounded the body to MAX_BODY_BYTES already.
    let cart: unknown;
    try {
      cart = JSON.parse(await request.text());
    } catch {
      return json(400, { error: 'malformed_body', message: 'The body must be the cart as JSON' });
    }
    const { order, error } = pantryOrder(cart, {
      orderId: newOrderId('PANTRY'),
      ...(options.shopUrl !== undefined && { shopUrl: options.shopUrl }),
    });
    if (error !== undefined) return json(400, { error: 'invalid_cart', message: error });
    // The page sets certificate-name, which is signed: it is part of the order.
    const signed = { ...order, certificateName: options.certificateName };
    return json(200, {
      order: signed,
      signature: signAndKeep(signed),
      certificateName: options.certificateName,
    });
  };

  const notificationList: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    return json(200, { notifications: log.notifications, refused: log.refused });
  };

  const terms: FetchHandler = async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return methodNotAllowed('GET');
    return new Response(termsPage(options.shopName ?? 'Demo Shop'), {
      headers: { 'content-type': 'text/html; charset=utf-8' },
    });
  };

  const routes = new Map<string, FetchHandler>([
    [MERCHANT_PATHS.notification, notification],
    [MERCHANT_PATHS.terms, terms],
    [
      MERCHANT_PATHS.shippingCost,
      createShippingCostHandler({
        servicePublicKeyPem: options.serviceCertificatePem,
        quote: async (request) => quoteShipping(request),
      }),
    ],
    [
      MERCHANT_PATHS.orderVerification,
      createOrderVerificationHandler({
        servicePublicKeyPem: options.serviceCertificatePem,
        approve: async (payload) => !(payload.externalOrderId ?? '').startsWith(REJECTED_ORDER_ID_PREFIX),
      }),
    ],
    [MERCHANT_PATHS.connectionTest, createConnectionTestHandler()],
    [MERCHANT_PATHS.sign, sign],
    [MERCHANT_PATHS.notifications, notificationList],
    ...(v1Shop?.routes ?? []),
    ...login.routes,
  ]);
  const nodeRoutes = new Map(
    [...routes].map(([path, handler]) => [path, toNodeHandler(handler, { maxBodyBytes: MAX_BODY_BYTES })]),
  );

  function openEventStream(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // The current lists first, so a page that connects late needs no second request.
    const snapshot = {
      notifications: log.notifications,
      refused: log.refused,
      ...(v1Shop && {
        v1: { events: v1Shop.log.events, refused: v1Shop.log.refused, orders: v1Shop.log.allOrders },
      }),
    };
    res.write(`event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
    const send = (event: NotificationLogEvent | V1LogEvent) => {
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    const unsubscribe = log.subscribe(send);
    const unsubscribeV1 = v1Shop?.log.subscribe(send);
    streams.add(res);
    const end = () => {
      unsubscribe();
      unsubscribeV1?.();
      streams.delete(res);
    };
    req.once('close', end);
    res.once('close', end);
  }

  return {
    handle(req, res) {
      const path = new URL(req.url ?? '/', 'http://merchant.invalid').pathname;
      if (path === MERCHANT_PATHS.notificationEvents && req.method === 'GET') {
        openEventStream(req, res);
        return Promise.resolve(true);
      }
      const handler = nodeRoutes.get(path);
      if (!handler) return Promise.resolve(false);
      if (path.startsWith(BACK_OFFICE_PREFIX) && !login.allows(req)) {
        res.writeHead(401, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'no-store',
        });
        res.end(JSON.stringify(LOGIN_REQUIRED));
        return Promise.resolve(true);
      }
      return new Promise((resolve) => {
        res.once('close', () => resolve(true));
        handler(req, res);
      });
    },
    backOfficePassword: login.password,
    get notifications() {
      return log.notifications;
    },
    get refusedNotifications() {
      return log.refused;
    },
    subscribe: (listener) => log.subscribe(listener),
    v1: v1Shop && {
      get events() {
        return v1Shop.log.events;
      },
      get refused() {
        return v1Shop.log.refused;
      },
      order: (reference) => v1Shop.log.order(reference),
      subscribe: (listener) => v1Shop.log.subscribe(listener),
      waitForEvent: (match, timeoutMs) => v1Shop.log.waitFor(match, timeoutMs),
    },
    ready: async () => (v1Shop ? v1Shop.ready() : undefined),
    waitForNotification: (match, timeoutMs) => log.waitFor(match, timeoutMs),
    signOrder: signAndKeep,
    expectOrder(order) {
      const fixedOrders = options.fixedOrders ?? {};
      const fixed = Object.hasOwn(fixedOrders, order.widgetId) ? fixedOrders[order.widgetId] : undefined;
      // The gateway prices a fixed-price widget's order from its configuration; the page adds the rest.
      orders.keep(fixed ? { ...order, ...fixed } : order);
    },
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}

/**
 * The v1 back end when the options turn it on.
 * @throws TypeError when `gatewayUrl` is given without `shopUrl` or `v1Credentials`.
 */
function v1ShopOf(options: MerchantAppOptions): V1Shop | undefined {
  if (options.gatewayUrl === undefined) return undefined;
  if (options.shopUrl === undefined || options.v1Credentials === undefined) {
    throw new TypeError('gatewayUrl needs shopUrl and v1Credentials: the v1 routes lead back to the shop');
  }
  return createV1Shop({
    gatewayUrl: options.gatewayUrl,
    shopUrl: options.shopUrl,
    ...options.v1Credentials,
    ...(options.now !== undefined && { now: options.now }),
  });
}
