/**
 * A real gateway for browser tests: the sandbox with the demo merchant on its own origin, and the demo
 * merchant's back end (callbacks, order signing) on a third. The page under test is on a first origin
 * (web-test-runner's), which the merchant allows.
 */
import { mkdtemp } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchantApp, type MerchantApp } from '../../demo/merchant/merchant-app.js';
import type { OrderInput } from '../../src/core/index.js';
import {
  DEMO_CERTIFICATE_NAME,
  DEMO_WIDGET_IDS,
  demoConfigFile,
  ensureDemoMerchantKeys,
  parseConfig,
} from '../../src/sandbox/config.js';
import { startSandbox } from '../../src/sandbox/index.js';

export interface GatewayFixture {
  gatewayUrl: string;
  merchantUrl: string;
  widgets: typeof DEMO_WIDGET_IDS;
  certificateName: string;
  merchant: MerchantApp;
  sign(order: OrderInput): string;
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
  file.notifications = { retryBaseMs: 50 };
  const sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir });

  const merchant = createMerchantApp({
    privateKeyPem: keys.privateKeyPem,
    serviceCertificatePem: sandbox.serviceCertificatePem,
    certificateName: DEMO_CERTIFICATE_NAME,
  });
  server.on('request', (req, res) => {
    void merchant.handle(req, res).then((handled) => {
      if (!handled) res.writeHead(404).end();
    });
  });

  return {
    gatewayUrl: sandbox.url,
    merchantUrl,
    widgets: DEMO_WIDGET_IDS,
    certificateName: DEMO_CERTIFICATE_NAME,
    merchant,
    sign: (order) => merchant.signOrder(order),
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
