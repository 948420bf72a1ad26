/**
 * Starts the whole demo in one process: the sandbox gateway (with its demo merchant) and the demo shop
 * (Vite's dev server with the merchant back end). `npm start` runs this file; tests call {@link startDemo}
 * on free ports.
 */
import { createServer as createNetServer } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
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

/** The demo's ports as `npm start` takes them: flags first, then the environment, then 5173 and 4010. */
export interface DemoPorts {
  shopPort: number;
  sandboxPort: number;
}

/** How each port is chosen, for the messages: the flag and the environment variable. */
export const PORT_SETTINGS = {
  shopPort: { flag: '--port', env: 'PORT', fallback: 5173, what: "the shop's" },
  sandboxPort: { flag: '--sandbox-port', env: 'SANDBOX_PORT', fallback: 4010, what: "the gateway's" },
} as const;

/** A command line or environment `npm start` cannot run with; its message is the one line to print. */
export class DemoStartError extends Error {}

/**
 * Reads `npm start -- --port 3000 --sandbox-port 4011` (or `PORT=3000 SANDBOX_PORT=4011 npm start`).
 * @throws DemoStartError naming the flag or variable that is not a port, or an unknown flag.
 */
export function parseDemoArgs(argv: readonly string[], env: NodeJS.ProcessEnv): DemoPorts {
  let values: { port?: string; 'sandbox-port'?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' }, 'sandbox-port': { type: 'string' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new DemoStartError(
      `${(error as Error).message.split('\n')[0]} npm start takes --port (the shop's, or PORT) and --sandbox-port (the gateway's, or SANDBOX_PORT).`,
    );
  }
  const port = (key: keyof DemoPorts, flagValue: string | undefined): number => {
    const setting = PORT_SETTINGS[key];
    const [source, text] =
      flagValue !== undefined ? [setting.flag, flagValue] : [setting.env, env[setting.env]];
    if (text === undefined || text === '') return setting.fallback;
    const number = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
    if (!(number <= 65535)) {
      throw new DemoStartError(
        `${source} ${JSON.stringify(text)} is not a port; give a number from 0 to 65535.`,
      );
    }
    return number;
  };
  return {
    shopPort: port('shopPort', values.port),
    sandboxPort: port('sandboxPort', values['sandbox-port']),
  };
}

/** The one line for a port another program holds. */
function portInUse(key: keyof DemoPorts, port: number): DemoStartError {
  const { flag, env, what } = PORT_SETTINGS[key];
  return new DemoStartError(
    `Port ${port} (${what}) is in use. Start with another: npm start -- ${flag} <port>, or ${env}=<port> npm start (0 picks a free one).`,
  );
}

const isPortInUse = (error: unknown): boolean =>
  (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE' ||
  // Vite's strictPort refusal carries no code.
  /\bis already in use\b/.test((error as Error | undefined)?.message ?? '');

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
  const sandboxPort = options.sandboxPort ?? 4010;
  const sandbox = await startSandbox({
    port: sandboxPort,
    host,
    dataDir: options.dataDir ?? '.sandbox',
    demoShopOrigin: shopUrl,
    ...(options.browserRoot !== undefined && { browserRoot: options.browserRoot }),
  }).catch((error: unknown) => {
    throw isPortInUse(error) ? portInUse('sandboxPort', sandboxPort) : error;
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
    throw isPortInUse(error) ? portInUse('shopPort', shopPort) : error;
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
  let demo: Demo;
  try {
    const ports = parseDemoArgs(process.argv.slice(2), process.env);
    console.log(
      `npm start: starting the gateway (port ${ports.sandboxPort}) and the shop (port ${ports.shopPort})`,
    );
    demo = await startDemo(ports);
  } catch (error) {
    if (!(error instanceof DemoStartError)) throw error;
    console.error(`npm start: ${error.message}`);
    process.exit(1);
  }
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
