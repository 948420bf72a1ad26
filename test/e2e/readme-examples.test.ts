/**
 * The README's code blocks, run: a wrong example fails here. Each block has a marker that says what it is
 * (support/readme-examples.ts); this file runs it as a merchant would, against real parts:
 *
 * 1. `ts`: written as modules into `.readme-examples/<pid>/` (a merchant's project inside the package, where
 *    `svc-checkout/server` resolves through package.json `exports` to the built `dist/`), typechecked there
 *    under `strict` with `skipLibCheck: false`, then imported one by one. Each imports what its marker's
 *    `uses=` names from support/readme-prelude.ts. The `keys` example runs first: its key pair is the
 *    merchant's in the README's `sandbox-config` example, which starts the sandbox all others talk to.
 *    After each, a check asserts what it did (TS_CHECKS).
 * 2. `tsx`: typechecked with `svc-checkout/react` and React's types.
 * 3. `html` (with its `js after=` blocks): pages served by the shop's Express app, on the origin the config
 *    allows, loaded in Chromium; `https://GATEWAY`, `widget-id="…"`, `signature="…"` and a v1 checkout URL
 *    are filled in. Every `<svc-checkout>` must reach `state="form"` with no console error.
 * 4. `sh`: run (`npx svc-sandbox …` in the merchant's project); `ci` and `scripts`: checked against
 *    package.json and .ci/run, which run them.
 * The walkthrough's `file` and `steps` blocks are walkthrough.test.ts's.
 *
 * Needs `npm run build:browser` first (as every e2e test); builds `dist/` itself with tsc. README_EXAMPLES_FILE
 * names another Markdown file to run instead of README.md; README_EXAMPLES_KEEP=1 keeps the project folder.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@redis/client';
import express, { type Express } from 'express';
import type { Browser, Page } from 'playwright-core';
import { orderOfAttributes, readAttributes } from '../../demo/server/render-page.js';
import { type Sandbox, type SandboxConfig, startSandbox } from '../../src/sandbox/index.js';
import {
  createMerchantApiV2Client,
  createV1Client,
  type OrderInput,
  orderSignatureInput,
  type Payment,
  signOrder,
  type V1Client,
  verifyOrderSignature,
} from '../../src/server/index.js';
import { type RedisServer, startRedisServer } from '../server/redis-server.js';
import { launchBrowser } from './support/browser.js';
import { commandsOf, type Example, readExamples } from './support/readme-examples.js';
import {
  clientId,
  missing,
  PRELUDE_NAMES,
  provide,
  type RedisClient,
  tokenId,
} from './support/readme-prelude.js';
import { CARDS, PaymentFrame } from './support/shop-page.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const readmeFile = resolve(repoRoot, process.env['README_EXAMPLES_FILE'] ?? 'README.md');
const readmeName = relative(repoRoot, readmeFile);
/**
 * The merchant's project: inside the package, so that `svc-checkout/…` resolves to it by its own name; one per
 * run, so that two runs at once do not share one.
 */
const projects = join(repoRoot, '.readme-examples');
const project = join(projects, String(process.pid));
const preludeFile = join(repoRoot, 'test', 'e2e', 'support', 'readme-prelude.ts');
const tscBin = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** Placeholders of the examples: the gateway's origin, and the shop's (the sandbox config's callbacks). */
const GATEWAY = 'https://GATEWAY';
const SHOP = 'http://127.0.0.1:3000';
const ELLIPSIS = '…';

const { examples, problems } = readExamples(readFileSync(readmeFile, 'utf8'));
const named = (name: string): Example => {
  const example = examples.find((candidate) => candidate.name === name);
  if (!example) throw new Error(`${readmeName} has no example named ${name}`);
  return example;
};
const where = (example: Example) =>
  `${readmeName}:${example.line}${example.name ? ` (${example.name})` : ''}`;

/** What the examples run with; filled as the test goes. */
const env = {} as {
  app: Express;
  server: Server;
  shopUrl: string;
  redis: RedisServer;
  redisClient: RedisClient;
  browserRoot: string;
  dataDir: string;
  build: { ok: boolean; output: string };
  keys?: { privateKeyPem: string; publicKeyPem: string };
  sandbox?: Sandbox;
  config?: SandboxConfig;
  browser?: Browser;
  pages: Map<string, string>;
  paid: Array<{ orderId: string | null; amount?: string }>;
  /** The orders the shop signed, by merchant order id, and the ids the notification route looked up. */
  signed: Map<string, OrderInput>;
  lookedUp: Array<string | null>;
  paidOrder?: Promise<{ id: string; merchantOrderId: string; total: string }>;
};

// ---------------------------------------------------------------------------------------------------------
// The merchant's project: ts examples as modules

/** The first line of each module imports the example's `uses`; the README's lines follow one to one. */
const HEADER_LINES = 1;

function moduleFile(example: Example): string {
  const index = examples.indexOf(example);
  return join(project, `${String(index).padStart(2, '0')}-${example.name ?? example.kind}.${example.kind}`);
}

/** The example as a module: its `uses` imported from the prelude, its text, and the names a check reads. */
function moduleText(example: Example, code: string): string {
  const prelude = relative(project, preludeFile).replace(/\.ts$/, '.js');
  const uses = example.uses.length > 0 ? `import { ${example.uses.join(', ')} } from './${prelude}';` : '';
  const exported = (example.name === undefined ? undefined : TS_CHECKS[example.name]?.exports) ?? [];
  const tail = exported.length > 0 ? `export { ${exported.join(', ')} };\n` : '';
  return `${uses}\n${code}${tail}`;
}

/** The example's text with the sandbox's and the shop's real origins, as it runs. */
function filled(code: string): string {
  if (code.includes(GATEWAY)) assert.ok(env.sandbox, 'the sandbox of the sandbox-config example is running');
  return code.replaceAll(GATEWAY, env.sandbox?.url ?? GATEWAY).replaceAll(SHOP, env.shopUrl);
}

const COMPILER_OPTIONS = {
  target: 'ES2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  strict: true,
  skipLibCheck: false,
  noEmit: true,
};

async function writeProject(): Promise<void> {
  await rm(project, { recursive: true, force: true });
  await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
  // `npx svc-sandbox` finds the package's bin here, as after `npm install svc-checkout`; npm makes it
  // executable on install, and so does this.
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  for (const [name, target] of Object.entries(manifest.bin)) {
    const file = join(repoRoot, target);
    if (existsSync(file)) chmodSync(file, statSync(file).mode | 0o111);
    await symlink(
      relative(join(project, 'node_modules', '.bin'), file),
      join(project, 'node_modules', '.bin', name),
    );
  }
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...COMPILER_OPTIONS, lib: ['ES2023'], types: ['node'] },
      include: ['*.ts'],
    }),
  );
  await writeFile(
    join(project, 'tsconfig.react.json'),
    JSON.stringify({
      compilerOptions: {
        ...COMPILER_OPTIONS,
        lib: ['ES2023', 'DOM', 'DOM.Iterable'],
        types: [],
        jsx: 'react-jsx',
      },
      include: ['*.tsx'],
    }),
  );
  for (const example of examples) {
    if (example.kind === 'ts' || example.kind === 'tsx') {
      await writeFile(moduleFile(example), moduleText(example, example.code));
    }
  }
}

/** tsc over a project of the examples; its messages with the README's file and lines. */
function typecheck(config: string): { ok: boolean; output: string } {
  const result = spawnSync(process.execPath, [tscBin, '-p', join(project, config), '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  let output = `${result.stdout}${result.stderr}`;
  for (const example of examples) {
    const file = relative(project, moduleFile(example));
    output = output.replace(
      new RegExp(`${file.replace(/\./g, '\\.')}\\((\\d+),(\\d+)\\)`, 'g'),
      (_whole, line: string, column: string) =>
        `${readmeName}:${example.line + Number(line) - HEADER_LINES - 1}:${column} (${example.name ?? example.kind})`,
    );
  }
  return { ok: result.status === 0, output };
}

/** Runs a ts example in the merchant's project folder; resolves its module's exports. */
async function run(example: Example): Promise<Record<string, unknown>> {
  const unset = missing(example.uses);
  assert.deepEqual(unset, [], `${where(example)} uses ${unset.join(', ')}, which nothing provided yet`);
  const file = moduleFile(example);
  await writeFile(file, moduleText(example, filled(example.code)));
  const cwd = process.cwd();
  process.chdir(project);
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${where(example)} failed: ${(error as Error).message}`, { cause: error });
  } finally {
    process.chdir(cwd);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The shop and the gateway

async function startShop(): Promise<void> {
  env.app = express();
  // Express logs the errors of its handlers unless it runs as `test`; a refused forgery is expected here.
  env.app.set('env', 'test');
  env.pages = new Map();
  env.app.get('/__readme/:page', (req, res) => {
    const html = env.pages.get(req.params.page);
    if (html === undefined) res.sendStatus(404);
    else res.type('html').send(html);
  });
  env.server = await new Promise<Server>((resolveListen) => {
    const server = env.app.listen(0, '127.0.0.1', () => resolveListen(server));
  });
  env.shopUrl = `http://127.0.0.1:${(env.server.address() as AddressInfo).port}`;
  env.paid = [];
  env.signed = new Map();
  env.lookedUp = [];
  env.redis = await startRedisServer();
  env.redisClient = createClient({ url: env.redis.url });
  await env.redisClient.connect();
  provide({
    app: env.app,
    redisClient: env.redisClient,
    markPaid: async (orderId, amount) => {
      env.paid.push({ orderId, ...(amount !== undefined && { amount }) });
    },
    signedOrder: async (orderId) => {
      env.lookedUp.push(orderId);
      return orderId === null ? undefined : env.signed.get(orderId);
    },
  });
}

/** The merchant of the README's sandbox config, and its plain checkout widget. */
function merchant() {
  assert.ok(env.config, 'the sandbox of the sandbox-config example is running');
  const first = env.config.merchants[0]!;
  const plain = first.widgets.find((widget) => widget.type === 'CHECKOUT' && !widget.collectCustomerData);
  const full = first.widgets.find((widget) => widget.type === 'CHECKOUT' && widget.collectCustomerData);
  assert.ok(plain && full, 'the sandbox config has a plain and a full checkout widget');
  return { merchant: first, plain, full };
}

/** A v1 client of the README's merchant, with its secret key. */
function merchantV1(): V1Client {
  return createV1Client({ baseUrl: env.sandbox!.url, secretKey: merchant().merchant.v1!.secretKey });
}

/**
 * Creates an order over the widget API, as the frame does on the shop's page, with the shop's signature of
 * `signed` (the order itself unless a page changed it), which the shop keeps by its order id.
 */
async function createOrder(order: OrderInput, signed: OrderInput = order): Promise<{ id: string }> {
  if (signed.orderId != null) env.signed.set(signed.orderId, signed);
  const answer = await json(`${env.sandbox!.url}/widget-api/v1/orders`, 'POST', {
    order,
    signature: signOrder(signed, env.keys!.privateKeyPem),
    pageOrigin: env.shopUrl,
  });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as { id: string };
}

/** An order paid with the approved Visa card, once per run. */
function paidOrder(): Promise<{ id: string; merchantOrderId: string; total: string }> {
  env.paidOrder ??= (async () => {
    const merchantOrderId = 'README-PAID-1';
    const { id } = await createOrder({
      widgetId: merchant().plain.id,
      orderId: merchantOrderId,
      items: [{ amount: '12.50', label: 'Tea', count: 2 }],
    });
    const paid = await json(`${env.sandbox!.url}/widget-api/v1/orders/${id}/payments`, 'POST', {
      idempotencyKey: `${id}-1`,
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Anna Tester' },
    });
    assert.equal(paid.status, 200, paid.text);
    assert.equal((paid.body as { state: string }).state, 'PAID', paid.text);
    return { id, merchantOrderId, total: '25.00' };
  })();
  return env.paidOrder;
}

async function json(url: string, method: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    redirect: 'manual',
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Waits until `condition` holds, polling; fails with `message` after `ms`. */
async function eventually(
  condition: () => boolean | Promise<boolean>,
  message: () => string,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(message());
    await new Promise((resolveWait) => setTimeout(resolveWait, 25));
  }
}

// ---------------------------------------------------------------------------------------------------------
// What each ts and json example must have done

interface TsCheck {
  /** Names of the example's top-level bindings that the check reads. */
  exports?: string[];
  /** Runs before the example, for what it takes that only exists by then. */
  before?: () => Promise<void>;
  check: (exported: Record<string, unknown>) => Promise<void>;
}

/** An `<svc-checkout>` start tag with the widget id filled in, and the order its attributes give. */
function elementOrder(tag: string): { tag: string; order: OrderInput } {
  const filledTag = tag.replace(`widget-id="${ELLIPSIS}"`, `widget-id="${merchant().plain.id}"`);
  return {
    tag: filledTag,
    order: orderOfAttributes(readAttributes(filledTag.slice('<svc-checkout'.length, -1))),
  };
}

/** The customer's card form on the hosted page, posted with the approving Visa; redirects are not followed. */
function payOnHostedPage(purchaseId: string): Promise<Response> {
  return fetch(new URL(`/checkout/${purchaseId}/pay`, env.sandbox!.url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      method: 'card',
      card_number: '4111111111111111',
      card_expiry: '12/34',
      card_cvc: '123',
      card_holder: 'Anna Tester',
    }).toString(),
    redirect: 'manual',
  });
}

/**
 * A v1 Purchase of 25.00 of the README's merchant, paid on the hosted page with the approved test card as a
 * customer would: on hold with `skip_capture`, a recurring token with `force_recurring`.
 */
async function checkedOutPurchase(
  options: { skip_capture?: boolean; force_recurring?: boolean; client_id?: string } = {},
) {
  const { merchant: shop } = merchant();
  const v1 = createV1Client({ baseUrl: env.sandbox!.url, secretKey: shop.v1!.secretKey });
  const purchase = await v1.purchases.create({
    brand_id: shop.v1!.brandId,
    client: { email: 'customer@example.com', full_name: 'Anna Tester' },
    purchase: { products: [{ name: 'Tea', price: 2500 }] },
    ...options,
  });
  const paid = await payOnHostedPage(purchase.id);
  assert.equal(paid.status, 200, await paid.text());
  const status = (await v1.purchases.get(purchase.id)).status;
  assert.equal(status, options.skip_capture ? 'hold' : 'paid');
  return purchase.id;
}

const TS_CHECKS: Record<string, TsCheck> = {
  keys: {
    async check() {
      const privateKeyPem = await readFile(join(project, 'merchant-private-key.pem'), 'utf8');
      const publicKeyPem = await readFile(join(project, 'merchant-public-key.pem'), 'utf8');
      assert.match(privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
      assert.match(publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
      assert.equal(statSync(join(project, 'merchant-private-key.pem')).mode & 0o777, 0o600);
      const order = { widgetId: 'a', items: [{ amount: '1.00', label: 'x' }] };
      assert.ok(
        verifyOrderSignature(order, signOrder(order, privateKeyPem), publicKeyPem),
        'the two halves match',
      );
      env.keys = { privateKeyPem, publicKeyPem };
      provide({ privateKeyPem });
    },
  },
  'sign-order': {
    exports: ['signature'],
    async check({ signature }) {
      const [tag] = /<svc-checkout\b[^>]*>/.exec(named('element-examples').code) ?? [];
      assert.ok(tag, 'the element-examples example has an element');
      const first = elementOrder(tag);
      assert.equal(
        signature,
        signOrder(first.order, env.keys!.privateKeyPem),
        `the sign-order example must sign exactly the attributes of the first element example:\n${first.tag}`,
      );
    },
  },
  'signature-input': {
    exports: ['text'],
    async check({ text }) {
      // The text the example's comment shows, written out here by hand: the given fields joined, the count
      // with three decimals; and the text of the first element example, which the sign-order example signs.
      const rest = 'enmainhttps://shop.example/cartA-100112.50EURTea2.000';
      const shown = `// \`\${widgetId}${rest}\``;
      assert.ok(named('signature-input').code.includes(shown), `the example shows ${shown}`);
      assert.equal(text, `${merchant().plain.id}${rest}`);
      const { order } = elementOrder(/<svc-checkout\b[^>]*>/.exec(named('element-examples').code)![0]);
      assert.equal(text, orderSignatureInput(order), 'the text of the first element example');
    },
  },
  'lazy-server': {
    async check() {
      const answer = await json(`${env.shopUrl}/checkout/order`, 'POST', {
        products: { tea: 2 },
        shipping: 'courier',
      });
      assert.equal(answer.status, 200, answer.text);
      const { order, signature } = answer.body as { order: OrderInput; signature: string };
      assert.equal(order.certificateName, 'main', 'the page sets certificate-name, which is signed');
      assert.equal(order.widgetId, merchant().plain.id);
      assert.ok(verifyOrderSignature(order, signature, env.keys!.publicKeyPem), 'the order verifies');
      assert.ok(
        order.shippingOptions?.every((option) => option.amount !== undefined),
        'a plain widget takes only priced shipping options',
      );
      const priced = await json(`${env.shopUrl}/checkout/order`, 'POST', {
        products: { tea: 1, caviar: 1 },
        shipping: 'courier',
      });
      assert.equal(priced.status, 400, 'an unknown product is refused');
    },
  },
  'sandbox-in-process': {
    exports: ['sandbox'],
    async check({ sandbox }) {
      const started = sandbox as Sandbox;
      assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(started.config.merchants[0]?.id, merchant().merchant.id, 'it ran with sandbox.json');
      await rm(started.keyDir, { recursive: true, force: true });
    },
  },
  'browser-test': {
    async check({ declineThenPay }) {
      // The first element of the element examples, under an order id of its own: its page pays it.
      const elements = examples.find((candidate) => candidate.name === 'element-examples')!;
      const orderId = `PW-${crypto.randomUUID()}`;
      const tag = /<svc-checkout\b[^>]*><\/svc-checkout>/
        .exec(elements.code)![0]
        .replace(/order-id="[^"]*"/, `order-id="${orderId}"`);
      env.pages.set('browser-test', await pageHtml({ ...elements, code: tag }));
      env.browser ??= await launchBrowser();
      const page = await env.browser.newPage();
      try {
        await page.goto(`${env.shopUrl}/__readme/browser-test`);
        const pay = declineThenPay as (page: Page) => Promise<string | null>;
        assert.equal(await pay(page), orderId);
      } finally {
        await page.close();
      }
    },
  },
  notifications: {
    async check() {
      const order = await paidOrder();
      await eventually(
        () => env.paid.some((paid) => paid.orderId === order.merchantOrderId),
        () =>
          `markPaid was not called for ${order.merchantOrderId}; it was called with ${JSON.stringify(env.paid)}`,
      );
      assert.deepEqual(
        env.paid.filter((paid) => paid.orderId === order.merchantOrderId),
        [{ orderId: order.merchantOrderId, amount: order.total }],
      );
      const forged = await fetch(`${env.shopUrl}/svc/notification`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-svc-signature': 'AAAA' },
        body: JSON.stringify({ id: 'forged', order_id: 'FORGED-1', status: 'PAID', total_amount: '0.01' }),
      });
      assert.notEqual(forged.status, 200, 'a forged notification is not acknowledged');
      assert.ok(!env.paid.some((paid) => paid.orderId === 'FORGED-1'), 'a forged notification marks nothing');

      // The page re-splits the signed order's fields (label "Tea" + count 2 as label "Tea2"): the same signature,
      // half the price. The gateway takes it and signs a genuine PAID notification, which must mark nothing.
      const signedTea: OrderInput = {
        widgetId: merchant().plain.id,
        orderId: 'README-RESPLIT-1',
        items: [{ amount: '12.50', label: 'Tea', count: 2 }],
      };
      const resplit = ['Tea2', 'Tea2.000']
        .map((label): OrderInput => ({ ...signedTea, items: [{ amount: '12.50', label }] }))
        .find((candidate) => orderSignatureInput(candidate) === orderSignatureInput(signedTea));
      assert.ok(resplit, 'a re-split order signs the same text');
      const { id } = await createOrder(resplit, signedTea);
      const paid = await json(`${env.sandbox!.url}/widget-api/v1/orders/${id}/payments`, 'POST', {
        idempotencyKey: `${id}-1`,
        card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Anna Tester' },
      });
      assert.equal((paid.body as { state: string }).state, 'PAID', paid.text);
      await eventually(
        () => env.lookedUp.includes('README-RESPLIT-1'),
        () =>
          `the notification route did not look up README-RESPLIT-1; it looked up ${JSON.stringify(env.lookedUp)}`,
      );
      // The route goes on to verifyPaidOrder and markPaid without waiting on anything but this test's lookup.
      await new Promise((resolveTurn) => setImmediate(resolveTurn));
      assert.ok(
        !env.paid.some((entry) => entry.orderId === 'README-RESPLIT-1'),
        'a genuine notification of a re-split order marks nothing paid',
      );
    },
  },
  callbacks: {
    async check() {
      const { merchant: shop, full } = merchant();
      const test = await json(
        `${env.sandbox!.url}/sandbox/merchants/${shop.id}/connection-test`,
        'POST',
        undefined,
        {
          'x-svc-api-key': shop.apiKey,
        },
      );
      assert.equal((test.body as { ok: boolean }).ok, true, test.text);
      const { id } = await createOrder({
        widgetId: full.id,
        orderId: 'README-QUOTE-1',
        items: [{ amount: '12.50', label: 'Tea' }],
        shippingOptions: [{ id: 'courier' }],
      });
      const quote = await json(`${env.sandbox!.url}/widget-api/v1/orders/${id}/shipping-quotes`, 'POST', {
        optionId: 'courier',
        address: { city: 'Riga', address: 'Brivibas iela 1', postalCode: 'LV-1010', country: 'LV' },
      });
      assert.equal(quote.status, 200, quote.text);
      assert.match(quote.text, /4\.99/, 'the shipping-cost handler priced the option');
    },
  },
  'merchant-api': {
    async before() {
      provide({ orderId: (await paidOrder()).id });
    },
    async check() {
      const { merchant: shop } = merchant();
      const api = createMerchantApiV2Client({
        baseUrl: env.sandbox!.url,
        merchantId: shop.id,
        apiKey: shop.apiKey,
        certificateName: 'main',
        privateKeyPem: env.keys!.privateKeyPem,
      });
      const { id } = await paidOrder();
      const order = await api.getOrder(id);
      assert.equal(order.status, 'PARTIALLY_REFUNDED', JSON.stringify(order));
      // The example's retry, with its request id: answered, not refunded again.
      const refund = { amount: '5.00', reason: 'RETURNED_PRODUCT', note: 'scratched' } as const;
      const again = await api.refund(id, refund, { requestId: `refund-${id}-1` });
      assert.equal(again.httpStatus, 201);
      assert.equal((await api.getOrder(id)).refunded_amount, 5, 'refunded once');
    },
  },
  v1: {
    exports: ['purchase'],
    async check({ purchase }) {
      const { id, checkout_url: checkoutUrl } = purchase as { id: string; checkout_url: string };
      assert.ok(checkoutUrl.startsWith(`${env.sandbox!.url}/checkout/`), checkoutUrl);
      const paid = await payOnHostedPage(id);
      assert.equal(paid.status, 303);
      assert.equal(paid.headers.get('location'), `${env.shopUrl}/paid`);
      await eventually(
        () => env.paid.some((entry) => entry.orderId === id),
        () => `markPaid was not called for the purchase ${id}`,
      );
      assert.equal(env.paid.filter((entry) => entry.orderId === id).length, 1, 'once');
      // Unsigned, forged and garbage requests (a fixed seed): refused with 400 or 401, which the gateway's
      // retries do not mistake for the receiver failing; never 500.
      let seed = 21;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
      const bodies = [
        '',
        '{',
        '[]',
        'null',
        JSON.stringify({ id, status: 'paid', event_type: 'purchase.paid' }),
      ];
      const signatures = [undefined, '', 'AAAA', '%%%', 'x'.repeat(600)];
      const statuses = new Set<number>();
      for (let round = 0; round < 40; round += 1) {
        const signature = pick(signatures);
        const answer = await fetch(`${env.shopUrl}/svc/success`, {
          method: 'POST',
          headers: {
            'content-type': pick(['application/json', 'text/plain', 'application/octet-stream']),
            ...(signature !== undefined && { 'x-signature': signature }),
          },
          body: pick(bodies),
        });
        await answer.arrayBuffer();
        statuses.add(answer.status);
      }
      assert.deepEqual([...statuses].sort(), [401]);
    },
  },
  'sandbox-clock': {
    exports: ['pending', 'after'],
    async before() {
      provide({ heldId: await checkedOutPurchase({ skip_capture: true }) });
    },
    async check({ pending, after }) {
      assert.equal((pending as { status: string }).status, 'pending_capture');
      assert.equal((after as { status: string }).status, 'paid');
    },
  },
  'test-helpers-in-process': {
    exports: ['paid', 'fulfilled', 'tookMs'],
    async check({ paid, fulfilled, tookMs }) {
      const result = paid as { status: string; orderId: string; notification: { state: string } };
      assert.equal(result.status, 'PAID');
      assert.equal(result.notification.state, 'delivered');
      const notifications = fulfilled as Array<{ id: string; status: string; order_id: string | null }>;
      assert.deepEqual(
        notifications.map((notification) => [notification.id, notification.status, notification.order_id]),
        [[result.orderId, 'PAID', 'A-1001']],
      );
      console.log(
        `README test helpers: a paid order and its notification in ${(tookMs as number).toFixed(1)} ms`,
      );
    },
  },
  'test-helpers-http': {
    exports: ['order', 'bank', 'refund'],
    async check({ order, bank, refund }) {
      const failed = order as { status: string; error: { code: string }; merchantOrderId: string };
      assert.deepEqual(
        [failed.status, failed.error.code, failed.merchantOrderId],
        ['FAILED', 'authentication_failed', 'CI-1001'],
      );
      assert.equal((bank as { outcome: string }).outcome, 'paid');
      const refunded = refund as { event: string; payment: Payment; purchase: { refundable_amount: number } };
      assert.equal(refunded.event, 'payment.refunded');
      assert.equal(refunded.payment.payment.amount, 500);
      assert.equal(refunded.purchase.refundable_amount, 2000);
    },
  },
  'v1-operations': {
    exports: ['captured', 'released', 'refund', 'charged', 'settled', 'cause'],
    async before() {
      provide({
        heldId: await checkedOutPurchase({ skip_capture: true }),
        otherHeldId: await checkedOutPurchase({ skip_capture: true }),
        paidId: await checkedOutPurchase(),
        tokenId: await checkedOutPurchase({ force_recurring: true }),
      });
    },
    async check({ captured, released, refund, charged, settled, cause }) {
      const purchase = captured as { status: string; refundable_amount: number };
      assert.equal(purchase.status, 'paid');
      assert.equal(purchase.refundable_amount, 1000, 'the rest was released');
      assert.equal((released as { status: string }).status, 'released');
      assert.equal((refund as Payment).payment.amount, 500);
      assert.equal((refund as Payment).status, 'success');
      assert.equal((charged as { status: string }).status, 'paid');
      const paid = settled as { status: string; marked_as_paid: boolean };
      assert.deepEqual([paid.status, paid.marked_as_paid], ['paid', true]);
      assert.equal((cause as { code: string } | undefined)?.code, 'not_held');
      const v1 = merchantV1();
      assert.equal((await v1.purchases.get(tokenId)).is_recurring_token, false, 'the token was deleted');
    },
  },
  'v1-clients': {
    exports: ['customer', 'purchase', 'cards'],
    async before() {
      const v1 = merchantV1();
      const returning = await v1.clients.create({ email: 'returning@example.com' });
      await checkedOutPurchase({ client_id: returning.id, force_recurring: true });
      provide({ clientId: returning.id });
    },
    async check({ customer, purchase, cards }) {
      const created = purchase as { client_id: string; force_recurring: boolean; client: { email: string } };
      assert.equal(created.client_id, (customer as { id: string }).id);
      assert.equal(created.client.email, 'customer@example.com', 'the Client’s details fill the Purchase');
      const saved = cards as Array<{ description: string }>;
      assert.deepEqual(
        saved.map((card) => card.description),
        ['Visa •••• 1111'],
      );
      const v1 = merchantV1();
      const left = [];
      for await (const card of v1.clients.recurringTokens(clientId)) left.push(card);
      assert.deepEqual(left, [], 'the example deleted it');
    },
  },
  'v1-billing': {
    exports: ['purchaseIds', 'invoice', 'plan', 'billing_template_client', 'purchase'],
    async before() {
      const v1 = merchantV1();
      provide({ otherClientId: (await v1.clients.create({ email: 'other@example.com' })).id });
    },
    async check({ purchaseIds, invoice, plan, billing_template_client, purchase }) {
      const ids = purchaseIds as string[];
      assert.equal(ids.length, 2, 'one Purchase per Client');
      const v1 = merchantV1();
      for (const id of ids) assert.equal((await v1.purchases.get(id)).status, 'created');
      assert.equal((invoice as { status: string }).status, 'created');
      assert.equal((plan as { is_subscription: boolean }).is_subscription, true);
      assert.equal(purchase, null, 'a trial: active at once, nothing to pay now');
      const subscriber = billing_template_client as { status: string; client_id: string };
      assert.equal(subscriber.status, 'active');
      const after = await v1.billingTemplates.clients.get((plan as { id: string }).id, clientId);
      assert.equal(after.status, 'paused', 'the example paused it');
    },
  },
  'v1-statements': {
    exports: ['available', 'statement'],
    async check({ available, statement }) {
      assert.equal(typeof available, 'number');
      assert.equal((statement as { format: string }).format, 'csv');
      const csv = await readFile(join(project, 'paid.csv'), 'utf8');
      const [header, ...rows] = csv.trim().split('\r\n');
      assert.match(header!, /^id,reference,status,/);
      assert.ok(rows.length > 0, 'the paid purchases of the examples are in it');
      assert.ok(
        rows.every((row) => row.split(',')[2] === 'paid'),
        csv,
      );
    },
  },
  'v1-wallets': {
    exports: ['purchase', 'result', 'next'],
    async check({ purchase, result, next }) {
      assert.equal((result as { kind: string }).kind, 'three_ds');
      // The customer approves on the sandbox's 3-D Secure page.
      const answered = await fetch(next as string, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      assert.equal(answered.status, 200, 'no success_redirect: the sandbox shows the outcome');
      const v1 = merchantV1();
      assert.equal((await v1.purchases.get((purchase as { id: string }).id)).status, 'paid');
    },
  },
  'payment-methods': {
    async check() {
      // The gateway answers one lookup per query a minute: a second answer for the same query is the cache's.
      for (const query of ['', '?currency=EUR']) {
        const answer = await json(`${env.shopUrl}/payment-methods${query}`, 'GET');
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.headers.get('x-svc-cache'), 'fresh');
        assert.ok(
          (answer.body as { available_payment_methods: string[] }).available_payment_methods.length > 0,
          answer.text,
        );
      }
      const keys = await env.redisClient.keys('svc-checkout:payment-methods:*');
      assert.ok(keys.length > 0, 'the answer is kept in Redis');
    },
  },
};

const JSON_CHECKS: Record<string, (example: Example) => Promise<void>> = {
  /** The README's sandbox config, for the shop on its real origin: the sandbox every example talks to. */
  async 'sandbox-config'(example) {
    assert.ok(env.keys, 'the keys example made merchant-public-key.pem');
    const file = join(project, 'sandbox.json');
    await writeFile(file, example.code.replaceAll(SHOP, env.shopUrl));
    env.sandbox = await startSandbox({
      port: 0,
      config: file,
      dataDir: env.dataDir,
      browserRoot: env.browserRoot,
    });
    env.config = env.sandbox.config;
    const { merchant: shop, plain } = merchant();
    assert.ok(shop.v1, 'the config has v1 credentials');
    provide({
      widgetId: plain.id,
      gatewayCertificatePem: env.sandbox.serviceCertificatePem,
      merchantId: shop.id,
      apiKey: shop.apiKey,
      secretKey: shop.v1.secretKey,
      brandId: shop.v1.brandId,
    });
  },
};

// ---------------------------------------------------------------------------------------------------------
// Browser examples

/** The html example's page: the gateway's script (unless it loads one itself), then the example. */
async function pageHtml(example: Example): Promise<string> {
  let code = example.code;
  if (code.includes(`${GATEWAY}/checkout/${ELLIPSIS}/`)) {
    const { merchant: shop } = merchant();
    const v1 = createV1Client({ baseUrl: env.sandbox!.url, secretKey: shop.v1!.secretKey });
    const purchase = await v1.purchases.create({
      brand_id: shop.v1!.brandId,
      client: { email: 'customer@example.com' },
      purchase: { products: [{ name: 'Tea', price: 1250 }] },
    });
    code = code.replaceAll(`${GATEWAY}/checkout/${ELLIPSIS}/`, purchase.checkout_url);
  }
  code = code
    .replaceAll(GATEWAY, env.sandbox!.url)
    .replaceAll(`widget-id="${ELLIPSIS}"`, `widget-id="${merchant().plain.id}"`);
  // Signed as the shop's server would sign the page: from each element's own attributes.
  code = code.replace(/<svc-checkout\b[^>]*>/g, (tag) => {
    if (!tag.includes(`signature="${ELLIPSIS}"`)) return tag;
    const { tag: filledTag, order } = elementOrder(tag);
    if (order.orderId != null) env.signed.set(order.orderId, order);
    return filledTag.replace(
      `signature="${ELLIPSIS}"`,
      () => `signature="${signOrder(order, env.keys!.privateKeyPem)}"`,
    );
  });
  const unfilled = code.split('\n').filter((line) => line.includes(ELLIPSIS));
  assert.deepEqual(unfilled, [], `${where(example)}: the test cannot fill these placeholders`);
  const loader = /<script\b/.test(code)
    ? ''
    : `<script type="module" src="${env.sandbox!.url}/widget/svc-checkout.js"></script>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${where(example)}</title><link rel="icon" href="data:,">${loader}</head>
<body>
${code}</body>
</html>`;
}

/** Console errors and uncaught exceptions of the page and its frames. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Resolves the page's recorded calls once there are `count` of them; fails at once on a page error. */
type PageCalls = (count: number) => Promise<unknown[][]>;

/** What a named js example must have done, driven in its page as a customer would. */
const JS_CHECKS: Record<string, (page: Page, calls: PageCalls) => Promise<void>> = {
  /** The order JSON element took the new signed order: its frame asks for the new cart's total. */
  async 'replace-order'(page) {
    // Tea 2 × 6.40, honey 8.90, Latvian Post 2.80, by the lazy-server example's prices.
    const element = page.locator('svc-checkout[order-id]').nth(1);
    await new PaymentFrame(element.frameLocator('iframe')).waitForPayAmount('24.50');
  },
  /** A declined card, "Back to the shop" (the page goes itself), another card, paid. */
  async events(page, calls) {
    const frame = new PaymentFrame(page.locator('svc-checkout').first().frameLocator('iframe'));
    await frame.payWith({ number: CARDS.declined });
    await frame.waitForStatus('Payment failed');
    const url = page.url();
    await frame.backToShop();
    assert.deepEqual(
      await calls(1),
      [['goTo', 'https://shop.example/cart']],
      'navigateBackToCart carries the URL',
    );
    assert.equal(page.url(), url, 'preventDefault() keeps the page');
    await frame.frame.getByRole('button', { name: 'Try another card' }).click();
    await frame.payWith({ number: CARDS.visa });
    await frame.waitForStatus('Payment successful');
    assert.deepEqual((await calls(2))[1], ['showThankYou', 'A-1001']);
  },
};

/** Every `<svc-checkout>` of the page that has started (lazy ones wait for `init()`) shows its form. */
async function formsShown(page: Page, errors: string[], includeLazy: boolean): Promise<void> {
  const started = includeLazy ? 'svc-checkout' : 'svc-checkout:not([lazy="true"])';
  let states: Array<string | null> = [];
  await eventually(
    async () => {
      states = await page.$$eval(started, (elements) =>
        elements.map((element) => element.getAttribute('state')),
      );
      return errors.length > 0 || states.every((state) => state === 'form' || state === 'error');
    },
    () => `every <svc-checkout> reaches state "form"; their states: ${JSON.stringify(states)}`,
    20_000,
  );
  assert.deepEqual(errors, [], 'no console error');
  assert.deepEqual(
    states,
    states.map(() => 'form'),
    'every <svc-checkout> reaches state "form"',
  );
}

/**
 * Loads an html example in Chromium and waits for its elements' forms (lazy ones wait for `init()`). With a
 * js example, runs it in that page next, waits for every form again, and runs its check.
 */
async function runPage(example: Example, script?: Example): Promise<void> {
  env.browser ??= await launchBrowser();
  const page = await env.browser.newPage();
  page.setDefaultTimeout(15_000);
  const errors = consoleErrors(page);
  try {
    const name = examples.indexOf(example).toString();
    env.pages.set(name, await pageHtml(example));
    await page.goto(`${env.shopUrl}/__readme/${name}`);
    if ((await page.locator('svc-checkout').count()) === 0) {
      await page.waitForFunction(() => customElements.get('svc-checkout') !== undefined, null, {
        timeout: 10_000,
      });
    }
    await formsShown(page, errors, false);
    if (script) {
      // The functions the example takes from the page record their calls.
      await page.evaluate((names) => {
        const page = window as unknown as Record<string, unknown> & { readmeCalls: unknown[][] };
        page.readmeCalls = [];
        for (const name of names) page[name] = (...args: unknown[]) => page.readmeCalls.push([name, ...args]);
      }, script.uses);
      await page.addScriptTag({ type: 'module', content: script.code });
      await formsShown(page, errors, true);
      const check = script.name === undefined ? undefined : JS_CHECKS[script.name];
      assert.ok(
        script.name === undefined || check,
        `no check for the js example ${script.name}: add one to JS_CHECKS`,
      );
      const calls: PageCalls = async (count) => {
        let recorded: unknown[][] = [];
        await eventually(
          async () => {
            recorded = await page.evaluate(
              () => (window as unknown as { readmeCalls: unknown[][] }).readmeCalls,
            );
            return errors.length > 0 || recorded.length >= count;
          },
          () => `expected ${count} calls of ${script.uses.join(', ')}; got ${JSON.stringify(recorded)}`,
        );
        assert.deepEqual(errors, [], 'no page error');
        return recorded;
      };
      try {
        await check?.(page, calls);
      } catch (error) {
        throw new Error(`${(error as Error).message}; console: ${JSON.stringify(errors)}`, { cause: error });
      }
    }
    for (const method of await page.$$eval('svc-checkout[method]', (elements) =>
      elements.map((element) => element.getAttribute('method')),
    )) {
      const chosen = page.locator('svc-checkout input[name="method"]:checked');
      assert.equal(await chosen.count(), 1, 'the picker shows the methods, one of them chosen');
      assert.equal(await chosen.inputValue(), method, 'the picker preselects the method attribute');
    }
    assert.deepEqual(errors, [], 'no console error');
  } finally {
    await page.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Commands

/** The commands of a shell example, comments and blank lines left out. */
const manifest = () =>
  JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** A long-running command's first line matching `pattern`, within `ms`. */
function waitForOutput(child: ChildProcess, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolveOutput, reject) => {
    let output = '';
    const timer = setTimeout(
      () => reject(new Error(`no ${pattern} within ${ms} ms; output:\n${output}`)),
      ms,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = pattern.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveOutput(match);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before ${pattern}; output:\n${output}`));
    });
  });
}

/** Runs one `npx svc-sandbox …` line in the merchant's project. */
async function runSandboxCommand(command: string): Promise<void> {
  const args = command.split(/\s+/).slice(1);
  if (args.includes('--help')) {
    const result = spawnSync('npx', args, { cwd: project, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    for (const flag of ['--port', '--host', '--config', '--data-dir'])
      assert.ok(result.stdout.includes(flag), flag);
    assert.match(result.stdout, /\/api\/v1/, '--help covers the v1 REST interface');
    assert.match(result.stdout, /4111 1111 1111 1111/, '--help lists the test cards');
    return;
  }
  // The README's port may be taken on this machine; any free one shows the same.
  const runArgs = args.map((arg, index) => (args[index - 1] === '--port' ? '0' : arg));
  const child = spawn('npx', runArgs, { cwd: project, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const [, url] = await waitForOutput(child, /listening on (http:\/\/\S+)/, 15_000);
    const health = await json(`${url}/sandbox/health`, 'GET');
    assert.deepEqual(health.body, { ok: true });
    assert.ok(existsSync(join(project, '.sandbox')), '--data-dir made its folder');
  } finally {
    if (child.exitCode === null) {
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
}

/** Checks one command that CI runs (`ci`) or that the README lists for developers (`scripts`). */
function checkListedCommand(command: string): void {
  const { scripts } = manifest();
  for (const part of command.split('&&').map((text) => text.trim())) {
    const [tool, verb, name] = part.split(/\s+/);
    if (tool === 'npm' && verb === 'ci') {
      assert.match(readFileSync(join(repoRoot, '.ci', 'run'), 'utf8'), /^npm ci\b/m, '.ci/run runs npm ci');
    } else if (tool === 'npm' && (verb === 'test' || verb === 'start')) {
      assert.ok(scripts[verb], `package.json has a ${verb} script`);
      if (verb === 'test') assert.match(readFileSync(join(repoRoot, '.ci', 'run'), 'utf8'), /^npm test\b/m);
    } else if (tool === 'npm' && verb === 'run' && name) {
      assert.ok(scripts[name], `package.json has a script ${name} for \`${part}\``);
    } else if (tool === 'node' && verb) {
      assert.ok(existsSync(join(repoRoot, verb)), `${verb} exists for \`${part}\``);
    } else {
      assert.fail(`the test does not know the command \`${part}\`; check it here or make it an sh example`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// The tests

/** The order the examples run in: the keys, then the sandbox config they make possible, then the rest. */
const runnable = [
  ...examples.filter((example) => example.kind === 'ts' && example.name === 'keys'),
  ...examples.filter((example) => example.kind === 'json'),
  ...examples.filter((example) => example.kind === 'ts' && example.name !== 'keys'),
];

describe(`${readmeName} examples`, () => {
  before(async () => {
    // The entry, and served-files.json, which names the content-hashed files (vite.config.ts).
    const browserFiles = ['svc-checkout.js', 'served-files.json'];
    const absent = browserFiles.filter((file) => !existsSync(join(repoRoot, 'dist', 'browser', file)));
    if (absent.length > 0)
      throw new Error(`dist/browser lacks ${absent.join(', ')}: run \`npm run build:browser\` first`);
    // The examples import the package as a merchant does: its build, made now from the sources.
    const build = spawnSync(process.execPath, [tscBin, '-p', 'tsconfig.build.json', '--pretty', 'false'], {
      cwd: repoRoot,
      encoding: 'utf8',
    });
    env.build = { ok: build.status === 0, output: `${build.stdout}${build.stderr}` };
    env.dataDir = await mkdtemp(join(tmpdir(), 'svc-readme-'));
    // A copy: `npm run build:browser` elsewhere empties dist/browser while it rebuilds.
    env.browserRoot = join(env.dataDir, 'browser');
    await cp(join(repoRoot, 'dist', 'browser'), env.browserRoot, { recursive: true });
    await writeProject();
    await startShop();
  });

  after(async () => {
    await env.browser?.close();
    await env.sandbox?.close();
    await env.redisClient?.quit();
    await env.redis?.stop();
    await new Promise((resolveClose) => {
      if (!env.server) return resolveClose(undefined);
      env.server.close(resolveClose);
      env.server.closeAllConnections();
    });
    if (env.dataDir) await rm(env.dataDir, { recursive: true, force: true });
    if (process.env['README_EXAMPLES_KEEP'] !== '1') {
      await rm(project, { recursive: true, force: true });
      await rmdir(projects).catch(() => undefined); // another run's project may still be there
    }
  });

  test('every code block is an example with a marker', () => {
    assert.deepEqual(problems, []);
    const checked = new Set([
      ...Object.keys(TS_CHECKS),
      ...Object.keys(JSON_CHECKS),
      ...Object.keys(JS_CHECKS),
    ]);
    const present = new Set(examples.flatMap((example) => (example.name ? [example.name] : [])));
    assert.deepEqual(
      [...checked].filter((name) => !present.has(name)),
      [],
      'every check has its example (a check whose example is gone must go too)',
    );
    const unknown = examples
      .filter((example) => example.kind === 'ts')
      .flatMap((example) => example.uses.filter((name) => !PRELUDE_NAMES.includes(name as never)));
    assert.deepEqual(unknown, [], `uses= of a ts example takes ${PRELUDE_NAMES.join(', ')}`);
  });

  test('its links lead to files of the repository and to its own headings', () => {
    const markdown = readFileSync(readmeFile, 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
    // GitHub's heading ids: lower case, punctuation other than hyphens dropped, spaces as hyphens.
    const headings = new Set(
      [...markdown.matchAll(/^#+ (.+)$/gm)].map(([, text]) =>
        text!
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      ),
    );
    const broken = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) =>
        target.startsWith('#')
          ? !headings.has(target.slice(1))
          : !existsSync(resolve(dirname(readmeFile), target.split('#')[0]!)),
      );
    assert.deepEqual(broken, []);
  });

  test('the package builds (tsc -p tsconfig.build.json), as the examples import it', () => {
    assert.ok(env.build.ok, env.build.output);
  });

  test('the ts examples typecheck as a merchant’s code (strict, skipLibCheck: false)', () => {
    const result = typecheck('tsconfig.json');
    assert.ok(result.ok, result.output);
  });

  test('the tsx example typechecks with svc-checkout/react', () => {
    const result = typecheck('tsconfig.react.json');
    assert.ok(result.ok, result.output);
  });

  for (const example of runnable) {
    test(`${where(example)} runs`, async () => {
      if (example.kind === 'json') {
        const check = JSON_CHECKS[example.name!];
        assert.ok(check, `no check for the json example ${example.name}: add one to JSON_CHECKS`);
        await check(example);
        return;
      }
      const check = TS_CHECKS[example.name!];
      assert.ok(check, `no check for the ts example ${example.name}: add one to TS_CHECKS`);
      await check.before?.();
      await check.check(await run(example));
    });
  }

  for (const example of examples.filter((candidate) => candidate.kind === 'html')) {
    test(`${where(example)} takes its order in Chromium`, () => runPage(example));
    for (const script of examples.filter((candidate) => candidate.after === example.name)) {
      test(`${where(script)} runs in the page of ${example.name}`, () => runPage(example, script));
    }
  }

  for (const example of examples.filter((candidate) => candidate.kind === 'sh')) {
    test(`${where(example)} runs in a merchant's project`, async () => {
      for (const command of commandsOf(example)) {
        if (/^npx svc-sandbox\b/.test(command)) await runSandboxCommand(command);
        else assert.fail(`the test does not know how to run \`${command}\`; teach runSandboxCommand`);
      }
    });
  }

  for (const example of examples.filter(
    (candidate) => candidate.kind === 'ci' || candidate.kind === 'scripts',
  )) {
    test(`${where(example)} lists commands that exist (CI runs them)`, () => {
      for (const command of commandsOf(example)) checkListedCommand(command);
    });
  }
});
