/**
 * The sandbox's legacy interface, mounted on the sandbox's router: the widget script and the payment frame's
 * page (`widget-pages.ts`), the widget API the frame calls (`widget-api-routes.ts`), merchant API v2
 * (`merchant-api-v2-routes.ts`), the purchase notifications sent, listed and resent
 * (`notification-routes.ts`), and the console's connection test (`connection-test.ts`).
 *
 * Legacy widget orders: intake with the signature or callback check, card payments with the test cards, the
 * 3-D Secure test challenge, cancellation, refunds, and the signed purchase notifications that each ended
 * attempt (PAID, FAILED) and each cancellation sends. A FAILED attempt leaves the order payable: another card
 * may pay it, and its own notification follows. Every state change and its notification are written in one
 * transaction. Each job has its file, made once here and handed to the routes that use it:
 * - `order-records.ts`: what is kept of an order, and the payment request as the route read it;
 * - `merchant-directory.ts`: merchants and widgets of the config;
 * - `order-book.ts`: the kept orders, found, read and priced, and the once-per-order-id rule;
 * - `order-intake.ts`: orders from pages, with the signature check;
 * - `order-verification.ts`: a CALLBACK widget's order verification and the merchant's decision;
 * - `shipping-options.ts`: shipping quotes from the merchant and the customer's choice;
 * - `payment-machine.ts`: card attempts, 3-D Secure, cancellation, refunds, each with its notification;
 * - `order-views.ts`: the widget API's view, the notification's body and merchant API v2's order.
 */
import { signBody } from '../../server/index.js';
import type { TestAcquirer } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import type { Router } from '../http.js';
import type { SandboxMerchantAuth } from '../sandbox-auth.js';
import type { Store } from '../store.js';
import { mountConnectionTest } from './connection-test.js';
import { mountMerchantApiV2 } from './merchant-api-v2-routes.js';
import { MerchantDirectory } from './merchant-directory.js';
import { mountLegacyNotificationRoutes } from './notification-routes.js';
import { OrderBook } from './order-book.js';
import { OrderIntake, type OrderIntakeDeps } from './order-intake.js';
import type { CallMerchant } from './order-records.js';
import { OrderVerifier } from './order-verification.js';
import { OrderViews } from './order-views.js';
import { PaymentMachine } from './payment-machine.js';
import { ShippingQuotes } from './shipping-options.js';
import { mountWidgetApi } from './widget-api-routes.js';
import { mountWidgetPages } from './widget-pages.js';

/** The types the sandbox's test helpers read a payment into. */
export type { CustomerData, PaymentIntake } from './order-records.js';

/** What the legacy interface needs from the sandbox. */
export interface LegacyApiDeps {
  config: SandboxConfig;
  store: Store;
  /** Delivers the signed purchase notifications. */
  queue: DeliveryQueue;
  /** Signs notifications, the order verification token and the calls to merchant URLs. */
  servicePrivateKeyPem: string;
  acquirer: TestAcquirer;
  /** Payments are dated on their merchant's clock. */
  clocks: SandboxClocks;
  /** Real time: checks of what the merchant's own clock wrote (certificates, tokens, request dates). */
  now: () => Date;
  /** Who calls the notification routes. */
  auth: SandboxMerchantAuth;
  /** Where the widget script and the frame's built files are served from. */
  browserRoot: string;
  /** {@link OrderIntakeDeps.onSignatureMismatch} */
  onSignatureMismatch?: OrderIntakeDeps['onSignatureMismatch'];
}

/** The legacy orders' parts, made once: what the routes use, and what the sandbox's test helpers drive. */
export interface LegacyParts {
  directory: MerchantDirectory;
  book: OrderBook;
  verifier: OrderVerifier;
  intake: OrderIntake;
  views: OrderViews;
  shipping: ShippingQuotes;
  payments: PaymentMachine;
}

/** Mounts the widget's files and pages, the widget API, merchant API v2 and the notification routes. */
export function mountLegacyApi(router: Router, deps: LegacyApiDeps): LegacyParts {
  const parts = legacyParts(deps);
  const { store, queue, auth, now } = deps;
  mountWidgetApi(router, parts);
  mountWidgetPages(router, parts.directory, deps.browserRoot);
  mountMerchantApiV2(router, { ...parts, store, now });
  mountLegacyNotificationRoutes(router, { book: parts.book, queue, store, auth });
  mountConnectionTest(router, parts.directory);
  return parts;
}

function legacyParts(deps: LegacyApiDeps): LegacyParts {
  const { config, store, queue, servicePrivateKeyPem, acquirer, clocks, now } = deps;
  const callMerchant: CallMerchant = (url, body, contentType) =>
    postSigned(url, body, contentType, servicePrivateKeyPem);
  const directory = new MerchantDirectory(config);
  const book = new OrderBook(store);
  const verifier = new OrderVerifier({ config, book, servicePrivateKeyPem, callMerchant, now });
  const views = new OrderViews({ directory, book });
  const intake = new OrderIntake({
    directory,
    book,
    verifier,
    now,
    ...(deps.onSignatureMismatch && { onSignatureMismatch: deps.onSignatureMismatch }),
  });
  const shipping = new ShippingQuotes({ directory, book, callMerchant });
  const payments = new PaymentMachine({
    directory,
    book,
    views,
    store,
    queue,
    acquirer,
    now: (merchantId) => clocks.for(merchantId).now(),
  });
  return { directory, book, verifier, intake, views, shipping, payments };
}

/** A POST to a merchant URL (shipping cost, order verification), signed with the service's key. */
function postSigned(url: string, body: string, contentType: string, privateKeyPem: string) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-svc-signature': signBody(body, privateKeyPem) },
    body,
    signal: AbortSignal.timeout(10_000),
  }).then(async (response) => ({ status: response.status, body: await response.text() }));
}
