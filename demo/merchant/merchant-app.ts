/**
 * The demo merchant's back end, written as a shop would write it with `svc-checkout/server`: it signs the
 * orders its pages show, answers the gateway's callback URLs, and keeps the purchase notifications it
 * verified. A plain node:http handler, so it mounts on Vite's dev server, a bare `http.createServer`, or the
 * test runner's server alike.
 *
 * Routes (paths as in the sandbox's DEMO_CALLBACK_PATHS, plus the shop's own):
 *   PUT     /api/notification          purchase notification: verified, kept, answered exactly 200
 *   GET     /api/terms                 the terms of sale page
 *   POST    /api/shipping-cost         price of a delivery (see shipping-prices.ts)
 *   POST    /api/order-verification    approves orders of CALLBACK widgets (except order ids REJECT-...)
 *   OPTIONS /api/connection-test       the gateway console's connection test
 *   POST    /api/sign                  the lazy page's cart {items: [{id, count}], shippingOptionId?} →
 *                                      {order, signature, certificateName}: priced and signed here
 *   GET     /api/notifications         the kept notifications as JSON
 *   GET     /api/notifications/events  the same, live, as server-sent events
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  constructPurchaseNotification,
  createConnectionTestHandler,
  createOrderVerificationHandler,
  createShippingCostHandler,
  type FetchHandler,
  importPrivateKey,
  importPublicKey,
  type OrderInput,
  SignatureVerificationError,
  signOrder,
  toNodeHandler,
} from '../../src/server/index.js';
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

export type { NotificationLogEvent, RefusedNotification, VerifiedNotification };

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
  /** The clock, for tests. */
  now?: () => Date;
}

export interface MerchantApp {
  /**
   * Answers the request when its path is one of {@link MERCHANT_PATHS} and resolves true once answered
   * (once the stream is open, for server-sent events); resolves false, without touching `res`, otherwise.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Verified notifications, one per gateway order id and status, oldest first. */
  readonly notifications: readonly VerifiedNotification[];
  /** Deliveries to the notification URL that were refused (forged, altered, unreadable), oldest first. */
  readonly refusedNotifications: readonly RefusedNotification[];
  /** Calls `listener` on each notification kept or repeated, and each refusal; returns the unsubscribe. */
  subscribe(listener: (event: NotificationLogEvent) => void): () => void;
  /** Resolves with the first kept notification that matches; rejects after `timeoutMs` (10 s) without one. */
  waitForNotification(
    match: (entry: VerifiedNotification) => boolean,
    timeoutMs?: number,
  ): Promise<VerifiedNotification>;
  /** The `signature` attribute for an order the shop built (the pages the server renders). */
  signOrder(order: OrderInput): string;
  /** Ends the open server-sent event streams, so the server holding them can close. */
  close(): void;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
/** Orders and callbacks are small; a bound keeps a misbehaving client from making the back end buffer much. */
const MAX_BODY_BYTES = 64 * 1024;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

function methodNotAllowed(allowed: string): Response {
  return json(405, { error: 'method_not_allowed', message: `Use ${allowed}` }, { allow: allowed });
}

/** Answers 400 for a body that is not what the route takes, 401 for a signature that is missing or wrong. */
function refusalStatus(error: SignatureVerificationError): number {
  if (error.code === 'signature_missing' || error.code === 'signature_invalid') return 401;
  if (error.code === 'body_too_large') return 413;
  return 400;
}

/** Creates the demo merchant's back end. Keys are read at once, so a wrong PEM fails here. */
export function createMerchantApp(options: MerchantAppOptions): MerchantApp {
  importPrivateKey(options.privateKeyPem);
  importPublicKey(options.serviceCertificatePem);
  const log = new NotificationLog(options.now);
  const streams = new Set<ServerResponse>();

  const notification: FetchHandler = async (request) => {
    if (request.method !== 'PUT') return methodNotAllowed('PUT');
    try {
      log.add(await constructPurchaseNotification(request, options.serviceCertificatePem));
    } catch (error) {
      if (!(error instanceof SignatureVerificationError)) throw error;
      const status = refusalStatus(error);
      log.refuse({ status, code: error.code, message: error.message });
      return json(status, { error: error.code, message: error.message });
    }
    // Exactly 200: the legacy interface retries any other answer, 2xx included.
    return json(200, { received: true });
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
    const signature = signOrder(order, options.privateKeyPem);
    return json(200, { order, signature, certificateName: options.certificateName });
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
    // The current list first, so a page that connects late needs no second request.
    res.write(
      `event: snapshot\ndata: ${JSON.stringify({ notifications: log.notifications, refused: log.refused })}\n\n`,
    );
    const unsubscribe = log.subscribe((event) => {
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    });
    streams.add(res);
    const end = () => {
      unsubscribe();
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
      return new Promise((resolve) => {
        res.once('close', () => resolve(true));
        handler(req, res);
      });
    },
    get notifications() {
      return log.notifications;
    },
    get refusedNotifications() {
      return log.refused;
    },
    subscribe: (listener) => log.subscribe(listener),
    waitForNotification: (match, timeoutMs) => log.waitFor(match, timeoutMs),
    signOrder: (order) => signOrder(order, options.privateKeyPem),
    close() {
      for (const stream of streams) stream.end();
      streams.clear();
    },
  };
}
