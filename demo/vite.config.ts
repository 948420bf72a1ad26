/**
 * The demo shop's Vite config: a multi-page site rooted here, `svc-checkout` resolved to this repository's
 * source (as `npm install svc-checkout` would resolve it to the package), and the shop's server side, which
 * imports `svc-checkout/server` and `svc-checkout/sandbox` only (under tsx, tsconfig.json's `paths` map them
 * to the source; Vite loading this file itself resolves them through package.json, to the build).
 *
 * `demo/start.ts` (`npm start`) builds it with {@link createDemoViteConfig} and its own sandbox and merchant.
 * `npx vite --config demo/vite.config.ts` also works beside a running `svc-sandbox --data-dir .sandbox`;
 * `SVC_GATEWAY` and `SVC_DATA_DIR` point it elsewhere.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import type { MerchantApp } from './merchant/merchant-app.js';
import { shopPlugin } from './server/shop-plugin.js';

const demoRoot = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(demoRoot, '..');

export interface DemoViteOptions {
  /** The gateway's origin. Default `http://127.0.0.1:4010`. */
  gatewayUrl?: string;
  /** The shop's origin, when it is known before the server starts. */
  shopUrl?: string;
  /** The merchant back end; without it one is made from the sandbox's data dir on first use. */
  merchant?: MerchantApp;
  /** The sandbox's data dir, for a merchant made on first use. Default `.sandbox`. */
  dataDir?: string;
  /** The dev server's port. Default 5173. */
  port?: number;
  /** The dev server's interface. Default 127.0.0.1. */
  host?: string;
  /**
   * Reload pages when a source file changes. Default true; tests turn it off, since an edit elsewhere in
   * the repository would reload a page in the middle of a payment.
   */
  liveReload?: boolean;
}

/** The demo shop's Vite config. */
export function createDemoViteConfig(options: DemoViteOptions = {}): UserConfig {
  const gatewayUrl = options.gatewayUrl ?? 'http://127.0.0.1:4010';
  return {
    root: demoRoot,
    appType: 'mpa',
    clearScreen: false,
    resolve: {
      // Exactly `svc-checkout`: `svc-checkout/server` is the back end's and never reaches a page.
      alias: [{ find: /^svc-checkout$/, replacement: resolve(repoRoot, 'src/index.ts') }],
    },
    server: {
      port: options.port ?? 5173,
      strictPort: true,
      host: options.host ?? '127.0.0.1',
      // The shop's pages, the library's source and its dependencies; never the rest of the repository,
      // where `.sandbox/` holds the demo merchant's private key.
      fs: { allow: [demoRoot, resolve(repoRoot, 'src'), resolve(repoRoot, 'node_modules')] },
      // Vite's CORS layer would answer every OPTIONS itself (204), before the back end: the gateway's
      // connection test wants the merchant's own 200. The pages need no CORS: they call their own origin.
      cors: false,
      ...(options.liveReload === false && { hmr: false, watch: null }),
    },
    plugins: [
      shopPlugin({
        gatewayUrl,
        ...(options.shopUrl !== undefined && { shopUrl: options.shopUrl }),
        ...(options.merchant !== undefined && { merchant: options.merchant }),
        ...(options.dataDir !== undefined && { dataDir: options.dataDir }),
      }),
    ],
  };
}

export default defineConfig(
  createDemoViteConfig({
    ...(process.env['SVC_GATEWAY'] && { gatewayUrl: process.env['SVC_GATEWAY'] }),
    ...(process.env['SVC_DATA_DIR'] && { dataDir: process.env['SVC_DATA_DIR'] }),
  }),
);
