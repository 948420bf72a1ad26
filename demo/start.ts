/**
 * Starts the whole demo in one process: the sandbox gateway (with its demo merchant) and the demo shop
 * (Vite's dev server with the merchant back end). `npm start` runs this file; tests call {@link startDemo}
 * on free ports.
 */
import { createServer as createNetServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { type Sandbox, startSandbox } from 'svc-checkout/sandbox';
import { createServer, type ViteDevServer } from 'vite';
import type { MerchantApp } from './merchant/merchant-app.js';
import { createDemoMerchantApp } from './server/demo-merchant.js';
import { createDemoViteConfig } from './vite.config.js';

export interface StartDemoOptions {
  /** The gateway's port; 0 picks a free one. Default 4010. */
  sandboxPort?: number;
  /** The shop's port; 0 picks a free one. Default 5173. */
  shopPort?: number;
  /** Where the sandbox keeps orders and keys (the demo merchant's key included). Default `.sandbox`. */
  dataDir?: string;
  /** The interface both listen on. Default 127.0.0.1. */
  host?: string;
  /** Print the URLs. Default true. */
  announce?: boolean;
  /** Reload pages when a source file changes. Default true. */
  liveReload?: boolean;
  /** Where the gateway's browser files (widget script, frame) are served from. Default `dist/browser`. */
  browserRoot?: string;
  /**
   * The back office's password. Default: the `DEMO_BACK_OFFICE_PASSWORD` environment variable, else one
   * generated at each start and printed.
   */
  backOfficePassword?: string;
}

export interface Demo {
  /** The shop's origin, such as `http://127.0.0.1:5173`. */
  shopUrl: string;
  /** The gateway's origin, such as `http://127.0.0.1:4010`. */
  gatewayUrl: string;
  merchant: MerchantApp;
  sandbox: Sandbox;
  vite: ViteDevServer;
  /** Stops the shop, then the gateway (which waits for deliveries in flight). */
  close(): Promise<void>;
}

/** A port nobody listens on now, for a server that must know its own origin before it starts. */
async function freePort(host: string): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function origin(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Starts the sandbox and the shop; resolves once both listen. */
export async function startDemo(options: StartDemoOptions = {}): Promise<Demo> {
  const host = options.host ?? '127.0.0.1';
  // The sandbox names the shop's origin in its config (allowed origins, callback URLs), so the shop's port
  // is settled first.
  const shopPort = options.shopPort === 0 ? await freePort(host) : (options.shopPort ?? 5173);
  const shopUrl = origin(host, shopPort);
  const sandbox = await startSandbox({
    port: options.sandboxPort ?? 4010,
    host,
    dataDir: options.dataDir ?? '.sandbox',
    demoShopOrigin: shopUrl,
    ...(options.browserRoot !== undefined && { browserRoot: options.browserRoot }),
  });
  let vite: ViteDevServer | undefined;
  let merchant: MerchantApp | undefined;
  try {
    if (!sandbox.demoMerchant) throw new Error('The sandbox did not create its demo merchant');
    merchant = createDemoMerchantApp({
      privateKeyPem: sandbox.demoMerchant.privateKeyPem,
      serviceCertificatePem: sandbox.serviceCertificatePem,
      gatewayUrl: sandbox.url,
      shopUrl,
      ...(options.backOfficePassword !== undefined && { backOfficePassword: options.backOfficePassword }),
    });
    // The v1 company key and the shop's webhook, before the shop takes its first request.
    await merchant.ready();
    vite = await createServer({
      configFile: false,
      ...createDemoViteConfig({
        gatewayUrl: sandbox.url,
        shopUrl,
        merchant,
        port: shopPort,
        host,
        ...(options.liveReload !== undefined && { liveReload: options.liveReload }),
      }),
      logLevel: options.announce === false ? 'warn' : 'info',
    });
    await vite.listen();
  } catch (error) {
    merchant?.close();
    await vite?.close();
    await sandbox.close();
    throw error;
  }
  if (options.announce !== false) {
    console.log(`\n  svc-checkout demo\n  shop:    ${shopUrl}/\n  gateway: ${sandbox.url}/\n`);
    console.log(`  demo merchant key: ${sandbox.demoMerchant.privateKeyFile}`);
    console.log(
      `  back office password: ${merchant.backOfficePassword} (set DEMO_BACK_OFFICE_PASSWORD to choose one)\n`,
    );
  }
  const server = vite;
  const app = merchant;
  return {
    shopUrl,
    gatewayUrl: sandbox.url,
    merchant: app,
    sandbox,
    vite: server,
    async close() {
      app.close();
      await server.close();
      await sandbox.close();
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const demo = await startDemo();
  const stop = () => {
    demo.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
