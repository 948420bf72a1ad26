/**
 * The README's Next.js App Router example as a merchant runs it: its three blocks (the server component that
 * signs the order, the client component with `<Checkout>`, the notification route handler) written into a
 * Next.js app with what every such app has (a root layout, create-next-app's tsconfig but with
 * `skipLibCheck: false`, a next.config) and the shop's records (`@/lib/orders`, files here), built with
 * `next build` (which typechecks them under `strict`), started with `next start`,
 * and paid in Chromium against the real sandbox on another origin. The server's HTML carries the signed
 * order; after hydration the payment calls `onPaymentCompleted` once with no `checkoutError`, and the
 * sandbox's signed notification reaches the route handler, whose receiver calls `onPaid` once. Run after
 * `npm run build` (the app imports `svc-checkout` from dist/, linked as npm would install it).
 *
 * `next build` (Turbopack, telemetry off, nothing fetched: no `next/font`) took 13 s on an idle machine of two
 * cores; it runs once, before the test, within a timeout of its own, so that a loaded CI machine does not
 * cut it at the suite's 180 s per test.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import {
  DEMO_WIDGET_IDS,
  demoConfigFile,
  type Sandbox,
  type SandboxConfigFile,
  startSandbox,
} from '../../src/sandbox/index.js';
import { payInCheckout } from '../../src/testing/index.js';
import { launchBrowser } from './support/browser.js';
import { openHydratedPage } from './support/payment-completed-calls.js';
import { named, repoRoot } from './support/readme-run.js';
import { waitUntil } from './support/shop-page.js';

/** The README's blocks, by name; each is the app's file its `path=` names. */
const BLOCKS = ['next-page', 'next-checkout-form', 'next-notification-route'] as const;

/** How long `next build` and `next start` may take on a loaded machine of two cores. */
const BUILD_TIMEOUT_MS = 300_000;
const NOTIFICATION_PATH = '/api/svc/notification';
const nextBin = join(repoRoot, 'node_modules', 'next', 'dist', 'bin', 'next');

/**
 * What a Next.js app has around the README's files. `@/lib/orders` is the shop's records, which the README
 * leaves to the merchant: here files in ORDERS_DIR, and every `markPaid` call a line of `paid.jsonl`, which the
 * test counts.
 */
const APP_FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'next-shop', private: true }),
  'tsconfig.json': JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      lib: ['dom', 'dom.iterable', 'esnext'],
      allowJs: true,
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      esModuleInterop: true,
      module: 'esnext',
      moduleResolution: 'bundler',
      resolveJsonModule: true,
      isolatedModules: true,
      jsx: 'react-jsx',
      incremental: true,
      plugins: [{ name: 'next' }],
      paths: { '@/*': ['./*'] },
    },
    include: ['next-env.d.ts', '**/*.ts', '**/*.tsx', '.next/types/**/*.ts', '.next/dev/types/**/*.ts'],
    exclude: ['node_modules'],
  }),
  // TypeScript 7 (this repository's) has no compiler API: Next.js runs its command line instead. Turbopack's
  // root is the repository's, where the linked `svc-checkout` really is.
  'next.config.mjs': `export default { experimental: { useTypeScriptCli: true }, turbopack: { root: ${JSON.stringify(repoRoot)} } };\n`,
  'app/layout.tsx': `import type { ReactNode } from 'react';

export const metadata = { title: 'Tea shop', icons: 'data:,' };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
`,
  'lib/orders.ts': `import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OrderInput } from 'svc-checkout/server';

const file = (orderId: string) => join(process.env.ORDERS_DIR!, \`\${encodeURIComponent(orderId)}.json\`);

export async function saveSignedOrder(order: OrderInput): Promise<void> {
  await writeFile(file(order.orderId!), JSON.stringify(order));
}

export async function findSignedOrder(orderId: string): Promise<OrderInput | undefined> {
  try {
    return JSON.parse(await readFile(file(orderId), 'utf8')) as OrderInput;
  } catch {
    return undefined;
  }
}

export async function markPaid(orderId: string, amount: string): Promise<void> {
  await appendFile(join(process.env.ORDERS_DIR!, 'paid.jsonl'), \`\${JSON.stringify({ orderId, amount })}\\n\`);
}
`,
};

let sandbox: Sandbox;
let folder: string;
let dataDir: string;
let ordersDir: string;
let shopUrl: string;
/** `next build`, then `next start`: stopped after the test if still running. */
let nextProcess: ChildProcess | undefined;
let browser: Browser;
let buildSeconds: number;

/** A port free now, for `next start`: the sandbox must know the shop's origin before the shop starts. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs `next <args>` in the app; resolves with its output once it exits 0, or fails with it. */
function next(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin, ...args], { cwd: folder, env, stdio: 'pipe' });
    nextProcess = child;
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`next ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/** The lines of `paid.jsonl`: one per `onPaid`. */
async function paidCalls(): Promise<Array<{ orderId: string; amount: string }>> {
  const file = join(ordersDir, 'paid.jsonl');
  if (!existsSync(file)) return [];
  const text = await readFile(file, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { orderId: string; amount: string });
}

before(
  async () => {
    for (const file of ['dist/react.js', 'dist/server/index.js', 'dist/browser/served-files.json']) {
      if (!existsSync(join(repoRoot, file)))
        throw new Error(`${file} is missing: run \`npm run build\` first`);
    }
    // The app inside the package, where `next`, React and TypeScript resolve as in a merchant's project, and
    // `svc-checkout` is linked as npm would install it.
    const projects = join(repoRoot, '.readme-examples');
    await mkdir(projects, { recursive: true });
    folder = await mkdtemp(join(projects, 'nextjs-'));
    await mkdir(join(folder, 'node_modules'));
    await symlink(repoRoot, join(folder, 'node_modules', 'svc-checkout'), 'dir');
    const files: Record<string, string> = { ...APP_FILES };
    for (const name of BLOCKS) {
      const block = named(name);
      assert.ok(block.path, `the README's ${name} block names its file (path=)`);
      files[block.path] = block.code;
    }
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), text);
    }

    // The merchant's key pair and the sandbox's config: the demo merchant, with its notification URL the
    // route handler's. The page's origin (localhost) is not the sandbox's (127.0.0.1): the frame is
    // cross-origin, as in production.
    const port = await freePort();
    shopUrl = `http://localhost:${port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'svc-nextjs-'));
    ordersDir = join(dataDir, 'orders');
    await mkdir(ordersDir);
    const keys = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const demo = demoConfigFile(keys.publicKey, shopUrl);
    const config: SandboxConfigFile = {
      ...demo,
      merchants: demo.merchants.map((merchant) => ({
        ...merchant,
        callbacks: { ...merchant.callbacks, notificationUrl: `http://127.0.0.1:${port}${NOTIFICATION_PATH}` },
      })),
    };
    sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir: join(dataDir, 'sandbox'), config });
    const env = {
      ...process.env,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      SVC_WIDGET_ID: DEMO_WIDGET_IDS.checkout,
      SVC_PRIVATE_KEY: keys.privateKey,
      SVC_GATEWAY_CERTIFICATE: sandbox.serviceCertificatePem,
      SVC_GATEWAY_URL: sandbox.url,
      ORDERS_DIR: ordersDir,
    };

    const started = performance.now();
    await next(['build'], env);
    buildSeconds = (performance.now() - started) / 1000;

    const nextServer = spawn(
      process.execPath,
      [nextBin, 'start', '--port', String(port), '--hostname', '127.0.0.1'],
      {
        cwd: folder,
        env,
        stdio: 'pipe',
      },
    );
    nextProcess = nextServer;
    let startOutput = '';
    nextServer.stdout.on('data', (chunk: Buffer) => (startOutput += chunk.toString('utf8')));
    nextServer.stderr.on('data', (chunk: Buffer) => (startOutput += chunk.toString('utf8')));
    await waitUntil(
      'next start to answer',
      () => {
        if (nextServer.exitCode !== null) throw new Error(`next start exited:\n${startOutput}`);
        return fetch(`http://127.0.0.1:${port}/`).then(
          () => true,
          () => undefined,
        );
      },
      60_000,
    );
    browser = await launchBrowser();
  },
  { timeout: BUILD_TIMEOUT_MS },
);

after(async () => {
  await browser?.close();
  const running = nextProcess;
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  }
  await sandbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the README Next.js App Router example, built and started', () => {
  test('the page carries the signed order; paying calls onPaymentCompleted once, and the route handler calls onPaid once', async (t) => {
    t.diagnostic(`next build took ${buildSeconds.toFixed(1)} s`);
    // The first paint's order, from the server component through the client component's server render.
    const html = await (await fetch(`${shopUrl}/checkout`)).text();
    const tag = /<svc-checkout [^>]*>/.exec(html)?.[0] ?? '';
    assert.match(
      tag,
      /^<svc-checkout gateway="[^"]+" widget-id="[^"]+" order-id="A-[^"]+" order="\{&quot;items&quot;:\[\{&quot;amount&quot;:&quot;12\.50&quot;,&quot;currency&quot;:&quot;EUR&quot;,&quot;label&quot;:&quot;Tea&quot;,&quot;count&quot;:2\}\]\}" signature="[A-Za-z0-9+/=]+">$/,
    );

    const { context, page, consoleErrors } = await openHydratedPage(browser, `${shopUrl}/checkout`);
    try {
      const orderId = await page.locator('svc-checkout').getAttribute('order-id');
      assert.ok(orderId?.startsWith('A-'), `the order id the page signed: ${orderId}`);
      const outcome = await payInCheckout(page);
      assert.deepEqual(outcome, {
        outcome: 'paid',
        orderId: (outcome as { orderId: string }).orderId,
        merchantOrderId: orderId,
      });
      await page.getByRole('status').filter({ hasText: 'Thank you! Your order is paid.' }).waitFor();

      // The sandbox's signed notification, verified against the order the page signed.
      await waitUntil(
        'the route handler to call onPaid',
        async () => ((await paidCalls()).length > 0 ? true : undefined),
        20_000,
      );
      // A second call, a repeated delivery, or an order_locked of the re-render after the payment, would
      // follow at once.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      assert.deepEqual(await paidCalls(), [{ orderId, amount: '25.00' }], 'onPaid called once');
      assert.equal(await page.evaluate('window.paymentCompletedCalls'), 1, 'onPaymentCompleted called once');
      assert.equal(
        await page.evaluate('window.paymentCompletedListeners'),
        1,
        'one listener, of the component',
      );
      assert.deepEqual(await page.evaluate('window.checkoutErrors'), []);
      assert.equal(await page.locator('svc-checkout').getAttribute('state'), 'paid');
      assert.equal(
        await page.evaluate('window.serverElement === document.querySelector("svc-checkout")'),
        true,
        'hydrated, not replaced: the element paid in is the one the server wrote',
      );
      assert.deepEqual(consoleErrors, []);
    } finally {
      await context.close();
    }
  });
});
