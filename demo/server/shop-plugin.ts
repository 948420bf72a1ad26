/**
 * The demo shop's server side inside Vite's dev server: the merchant back end on `/api/*`, server-rendered
 * pages (gateway origin, order ids, signatures), and the strict Content-Security-Policy of the page that
 * shows the widget works under one.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { DEMO_CERTIFICATE_NAME } from 'svc-checkout/sandbox';
import type { Plugin, ViteDevServer } from 'vite';
import type { MerchantApp } from '../merchant/merchant-app.js';
import { createDemoMerchantApp } from './demo-merchant.js';
import { renderPage } from './render-page.js';

/** The page served under a strict policy. */
export const STRICT_CSP_PAGE = '/strict-csp.html';

/** The policy of {@link STRICT_CSP_PAGE}: scripts only from the shop and the gateway, frames only from the gateway. */
export function strictCspPolicy(gatewayUrl: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${gatewayUrl}`,
    `frame-src ${gatewayUrl}`,
    `connect-src 'self' ${gatewayUrl}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

export interface ShopPluginOptions {
  /** The gateway's origin. */
  gatewayUrl: string;
  /** The shop's origin; by default the dev server's host and port. */
  shopUrl?: string;
  /**
   * The merchant back end. Without it, one is made on first use from the sandbox's data dir (the demo
   * merchant's key) and the gateway's certificate (fetched from the gateway), as when Vite runs on its own
   * beside `svc-sandbox`.
   */
  merchant?: MerchantApp;
  /** Where the sandbox keeps its data, for the fallback above. Default `.sandbox`. */
  dataDir?: string;
}

/** The Vite plugin of the demo shop. */
export function shopPlugin(options: ShopPluginOptions): Plugin {
  let merchant: Promise<MerchantApp> | undefined = options.merchant && Promise.resolve(options.merchant);
  let shopUrl = options.shopUrl;

  const merchantApp = (): Promise<MerchantApp> => {
    merchant ??= loadMerchantFromSandbox(options.gatewayUrl, options.dataDir ?? '.sandbox', shopUrl);
    // A failed attempt (sandbox not started yet) is retried on the next request.
    merchant.catch(() => {
      merchant = undefined;
    });
    return merchant;
  };

  return {
    name: 'svc-demo-shop',
    configureServer(server: ViteDevServer) {
      const { host, port } = server.config.server;
      const name = typeof host === 'string' && host !== '0.0.0.0' && host !== '::' ? host : 'localhost';
      shopUrl ??= `http://${name}:${port ?? 5173}`;
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
        const path = (req.url ?? '/').split('?')[0];
        if (path === STRICT_CSP_PAGE) {
          res.setHeader('content-security-policy', strictCspPolicy(options.gatewayUrl));
        }
        if (!path?.startsWith('/api/')) {
          next();
          return;
        }
        merchantApp()
          .then((app) => app.handle(req, res))
          .then((handled) => {
            if (!handled) next();
          })
          .catch((error: unknown) => {
            res.statusCode = 503;
            res.setHeader('content-type', 'application/json; charset=utf-8');
            res.end(
              JSON.stringify({
                error: 'merchant_unavailable',
                message: `The demo merchant back end could not start: ${(error as Error).message}`,
              }),
            );
          });
      });
    },
    transformIndexHtml: {
      order: 'pre',
      async handler(html) {
        const app = await merchantApp();
        return renderPage(html, {
          gatewayUrl: options.gatewayUrl,
          shopUrl: shopUrl ?? 'http://localhost:5173',
          sign: (order) => app.signOrder(order),
          expect: (order) => app.expectOrder(order),
          certificateName: DEMO_CERTIFICATE_NAME,
        });
      },
    },
  };
}

async function loadMerchantFromSandbox(
  gatewayUrl: string,
  dataDir: string,
  shopUrl: string | undefined,
): Promise<MerchantApp> {
  const privateKeyFile = join(dataDir, 'demo-merchant', 'private-key.pem');
  const privateKeyPem = await readFile(privateKeyFile, 'utf8').catch((error: Error) => {
    throw new Error(
      `cannot read ${privateKeyFile} (start svc-sandbox with --data-dir ${dataDir}): ${error.message}`,
    );
  });
  const response = await fetch(`${gatewayUrl}/sandbox/service-certificate.pem`).catch((error: Error) => {
    throw new Error(`the gateway at ${gatewayUrl} does not answer: ${error.message}`);
  });
  if (!response.ok)
    throw new Error(`${gatewayUrl}/sandbox/service-certificate.pem answered ${response.status}`);
  const merchant = createDemoMerchantApp({
    privateKeyPem,
    serviceCertificatePem: await response.text(),
    gatewayUrl,
    ...(shopUrl !== undefined && { shopUrl }),
  });
  await merchant.ready();
  console.log(
    `  back office password: ${merchant.backOfficePassword} (set DEMO_BACK_OFFICE_PASSWORD to choose one)`,
  );
  return merchant;
}
