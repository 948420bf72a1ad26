/**
 * A real gateway for browser tests (and the browser bench): the sandbox with the demo merchant on its own
 * origin, and the demo merchant's back end (callbacks, order signing) on a third. The page under test is on a
 * first origin (web-test-runner's, or the bench's), which the merchant allows. For v1 mode, the merchant's
 * payment-methods endpoint (the real handler over the real cache, which calls the sandbox's
 * `/api/v1/payment_methods/` with the demo merchant's secret key, through the v1 client) and Purchase
 * creation, as the merchant's server makes them.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchantApp } from '../../demo/merchant/merchant-app.js';
import type { OrderInput } from '../../src/core/index.js';
import { isOrderRejectionReason } from '../../src/core/legacy-callbacks.js';
import type { CreatePurchaseRequest, Purchase } from '../../src/core/v1-types.js';
import {
  DEMO_CALLBACK_PATHS,
  DEMO_CERTIFICATE_NAME,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  DEMO_WIDGET_IDS,
  demoConfigFile,
  ensureDemoMerchantKeys,
  parseConfig,
} from '../../src/sandbox/config.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { type FetchHandler, toNodeHandler } from '../../src/server/handlers.js';
import { createOrderVerificationHandler } from '../../src/server/legacy/handlers.js';
import { createV1Client } from '../../src/server/v1/client.js';
import { PaymentMethodsCache } from '../../src/server/v1/payment-methods-cache.js';
import { createPaymentMethodsHandler } from '../../src/server/v1/payment-methods-handler.js';

/**
 * The demo merchant's widgets, and one the fixture adds: `allSchemes`, a payment-option widget whose config
 * takes every card scheme (`cardSchemes`), beside the demo's, which take Visa and Mastercard only.
 */
export const FIXTURE_WIDGET_IDS = {
  ...DEMO_WIDGET_IDS,
  allSchemes: 'de300000-0000-4000-8000-0000000000a5',
} as const;

export interface GatewayFixture {
  gatewayUrl: string;
  merchantUrl: string;
  widgets: typeof FIXTURE_WIDGET_IDS;
  certificateName: string;
  /** The demo merchant's signature of exactly this order. */
  sign(order: OrderInput): string;
  /**
   * The demo merchant's payment-methods endpoint for `<svc-checkout>` in v1 mode: `createPaymentMethodsHandler`
   * (currency EUR when the request names none) over a `PaymentMethodsCache` of the sandbox's lookup.
   */
  paymentMethods: FetchHandler;
  /** Creates a Purchase of the demo merchant (`POST /api/v1/purchases/`); `request` replaces the defaults' members. */
  createPurchase(request?: Partial<CreatePurchaseRequest>): Promise<Purchase>;
  close(): Promise<void>;
}

export async function startGatewayFixture(options: { pageOrigin: string }): Promise<GatewayFixture> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-wtr-gateway-'));
  const keys = ensureDemoMerchantKeys(dataDir);
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const file = demoConfigFile(keys.publicKeyPem, merchantUrl);
  for (const merchant of file.merchants) merchant.allowedOrigins = [options.pageOrigin];
  file.merchants[0]!.widgets!.push({
    id: FIXTURE_WIDGET_IDS.allSchemes,
    type: 'CHECKOUT',
    cardSchemes: ['VISA', 'MASTERCARD', 'AMEX', 'MAESTRO'],
  });
  file.notifications = { retryBaseMs: 50 };
  const sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir });

  const merchant = createMerchantApp({
    privateKeyPem: keys.privateKeyPem,
    serviceCertificatePem: sandbox.serviceCertificatePem,
    certificateName: DEMO_CERTIFICATE_NAME,
  });
  // The demo merchant's order verification, with reasons: `REJECT-<reason>-…` order ids (a reason of
  // ORDER_REJECTION_REASONS) are rejected with that reasonCode, other `REJECT-…` ids without one, as the demo
  // rejects them; the rest are approved. Its real handler checks the gateway's token.
  const verification = toNodeHandler(
    createOrderVerificationHandler({
      servicePublicKeyPem: sandbox.serviceCertificatePem,
      approve: async ({ externalOrderId }) => {
        const [prefix, reasonCode] = (externalOrderId ?? '').split('-');
        if (prefix !== 'REJECT') return true;
        return isOrderRejectionReason(reasonCode) ? { approved: false, reasonCode } : false;
      },
    }),
  );
  server.on('request', (req, res) => {
    if (req.url === DEMO_CALLBACK_PATHS.orderVerification) return void verification(req, res);
    void merchant.handle(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });

  const v1 = createV1Client({ baseUrl: sandbox.url, secretKey: DEMO_V1_SECRET_KEY });
  const cache = new PaymentMethodsCache({
    fetchPaymentMethods: (query, { signal }) => v1.paymentMethods(query, { signal }),
  });
  const paymentMethods = createPaymentMethodsHandler({
    brandId: DEMO_V1_BRAND_ID,
    cache,
    defaultCurrency: 'EUR',
  });

  return {
    gatewayUrl: sandbox.url,
    merchantUrl,
    widgets: FIXTURE_WIDGET_IDS,
    certificateName: DEMO_CERTIFICATE_NAME,
    sign: (order) => merchant.signOrder(order),
    paymentMethods,
    createPurchase: (request = {}) =>
      v1.purchases.create({
        brand_id: DEMO_V1_BRAND_ID,
        purchase: { currency: 'EUR', products: [{ name: 'Green tea', price: 1250 }] },
        ...request,
      }),
    async close() {
      merchant.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await sandbox.close();
    },
  };
}
