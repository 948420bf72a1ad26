/**
 * The machinery of the README example tests (test/e2e/readme-*.test.ts, one file per part of the README: the
 * element, the sandbox, the server toolkit, and the rest). Each code block has a marker that says what it is
 * (support/readme-examples.ts); the tests run it as a merchant would, against real parts:
 *
 * 1. `ts`: written as modules into `.readme-examples/<pid>/` (a merchant's project inside the package, where
 *    `svc-checkout/server` resolves through package.json `exports` to the built `dist/`), typechecked there
 *    under `strict` with `skipLibCheck: false`, then imported one by one. Each imports what its marker's
 *    `uses=` names from support/readme-prelude.ts. The `keys` example runs first: its key pair is the
 *    merchant's in the README's `sandbox-config` example, which starts the sandbox all others talk to.
 *    After each, a check asserts what it did (support/readme-checks.ts).
 * 2. `tsx`: typechecked with `svc-checkout/react` and React's types; the files of a Next.js app (a `path=` in a
 *    folder, such as `app/checkout/page.tsx`) are written but left to nextjs.test.ts, whose `next build`
 *    typechecks them with Next.js's types.
 * 3. `html` (with its `js after=` blocks): pages served by the shop's Express app, on the origin the config
 *    allows, loaded in Chromium; `https://GATEWAY`, `widget-id="…"`, `signature="…"` and a v1 checkout URL
 *    are filled in. Every `<svc-checkout>` must reach `state="form"` with no console error.
 * 4. `sh`: run (`npx svc-sandbox …` in the merchant's project); `ci` and `scripts`: checked against
 *    package.json and .ci/run, which run them.
 * The walkthrough's `file` and `steps` blocks are walkthrough.test.ts's.
 *
 * Each test file is a process of its own, with its own project, shop, Redis and sandbox, and builds `dist/`
 * itself with tsc as the examples import it; `npm run test:readme` runs the files one at a time. Each example
 * belongs to the part of the README it is in ({@link partOf}) and is a test of that part's file only; the
 * examples of other parts that a part stands on (`keys` and `sandbox-config`, which start the gateway, or an
 * endpoint its pages call) run first, unreported: {@link Checks.runsFirst}.
 *
 * Needs `npm run build:browser` first (as every e2e test). README_EXAMPLES_FILE names another Markdown file to
 * run instead of README.md; README_EXAMPLES_KEEP=1 keeps the project folder.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, rmdir, symlink, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@redis/client';
import express, { type Express } from 'express';
import type { Browser, Page } from 'playwright-core';
import { orderOfAttributes, readAttributes } from '../../../demo/server/render-page.js';
import type { Sandbox, SandboxConfig } from '../../../src/sandbox/index.js';
import { createV1Client, type OrderInput, signOrder, type V1Client } from '../../../src/server/index.js';
import { type RedisServer, startRedisServer } from '../../server/redis-server.js';
import { type Example, readExamples } from './readme-examples.js';
import { missing, provide, type RedisClient } from './readme-prelude.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const readmeFile = resolve(repoRoot, process.env['README_EXAMPLES_FILE'] ?? 'README.md');
export const readmeName = relative(repoRoot, readmeFile);
/**
 * The merchant's project: inside the package, so that `svc-checkout/…` resolves to it by its own name; one per
 * run, so that two runs at once do not share one.
 */
const projects = join(repoRoot, '.readme-examples');
export const project = join(projects, String(process.pid));
const preludeFile = join(repoRoot, 'test', 'e2e', 'support', 'readme-prelude.ts');
const tscBin = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');

/** Placeholders of the examples: the gateway's origin, and the shop's (the sandbox config's callbacks). */
const GATEWAY = 'https://GATEWAY';
export const SHOP = 'http://127.0.0.1:3000';
const ELLIPSIS = '…';

export const { examples, problems } = readExamples(readFileSync(readmeFile, 'utf8'));
export const named = (name: string): Example => {
  const example = examples.find((candidate) => candidate.name === name);
  if (!example) throw new Error(`${readmeName} has no example named ${name}`);
  return example;
};
export const where = (example: Example) =>
  `${readmeName}:${example.line}${example.name ? ` (${example.name})` : ''}`;

/** What the examples run with; filled as the test goes. */
export const env = {} as {
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
  // A tsx block with a path is a module that other blocks import by it (`./app.js` is `app.tsx`).
  if (example.kind === 'tsx' && example.path) return join(project, example.path);
  const index = examples.indexOf(example);
  return join(project, `${String(index).padStart(2, '0')}-${example.name ?? example.kind}.${example.kind}`);
}

/** What a ts example must have done. */
export interface TsCheck {
  /** Names of the example's top-level bindings that the check reads. */
  exports?: string[];
  /** Runs before the example, for what it takes that only exists by then. */
  before?: () => Promise<void>;
  check: (exported: Record<string, unknown>) => Promise<void>;
}

/** What a json example must have done (and what it starts). */
export type JsonCheck = (example: Example) => Promise<void>;

/** Resolves the page's recorded calls once there are `count` of them; fails at once on a page error. */
export type PageCalls = (count: number) => Promise<unknown[][]>;

/** What a named js example must have done in its page. */
export type JsCheck = (page: Page, calls: PageCalls) => Promise<void>;

/** The checks of a part's named examples, by example name. */
export interface Checks {
  /**
   * The examples of other parts that this part's examples stand on, by name, run before its tests (unreported, as
   * they are other files' tests): the keys and the sandbox config that start the gateway, or the endpoint a
   * page calls.
   */
  runsFirst?: string[];
  ts?: Record<string, TsCheck>;
  json?: Record<string, JsonCheck>;
  js?: Record<string, JsCheck>;
}

/** The names of a ts example's top-level bindings that its check reads. */
export type ExportsOf = (example: Example) => readonly string[];

/** The example as a module: its `uses` imported from the prelude, its text, and the names a check reads. */
function moduleText(example: Example, code: string, exported: readonly string[]): string {
  const prelude = relative(project, preludeFile).replace(/\.ts$/, '.js');
  const uses = example.uses.length > 0 ? `import { ${example.uses.join(', ')} } from './${prelude}';` : '';
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

async function writeProject(exportsOf: ExportsOf): Promise<void> {
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
      const file = moduleFile(example);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, moduleText(example, example.code, exportsOf(example)));
    }
  }
}

/** tsc over a project of the examples; its messages with the README's file and lines. */
export function typecheck(config: string): { ok: boolean; output: string } {
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
export async function run(example: Example, exported: readonly string[]): Promise<Record<string, unknown>> {
  const unset = missing(example.uses);
  assert.deepEqual(unset, [], `${where(example)} uses ${unset.join(', ')}, which nothing provided yet`);
  const file = moduleFile(example);
  await writeFile(file, moduleText(example, filled(example.code), exported));
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
export function merchant() {
  assert.ok(env.config, 'the sandbox of the sandbox-config example is running');
  const first = env.config.merchants[0]!;
  const plain = first.widgets.find((widget) => widget.type === 'CHECKOUT' && !widget.collectCustomerData);
  const full = first.widgets.find((widget) => widget.type === 'CHECKOUT' && widget.collectCustomerData);
  assert.ok(plain && full, 'the sandbox config has a plain and a full checkout widget');
  return { merchant: first, plain, full };
}

/** A v1 client of the README's merchant, with its secret key. */
export function merchantV1(): V1Client {
  return createV1Client({ baseUrl: env.sandbox!.url, secretKey: merchant().merchant.v1!.secretKey });
}

/**
 * Creates an order over the widget API, as the frame does on the shop's page, with the shop's signature of
 * `signed` (the order itself unless a page changed it), which the shop keeps by its order id.
 */
export async function createOrder(order: OrderInput, signed: OrderInput = order): Promise<{ id: string }> {
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
export function paidOrder(): Promise<{ id: string; merchantOrderId: string; total: string }> {
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

export async function json(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
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
export async function eventually(
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

/** An `<svc-checkout>` start tag with the widget id filled in, and the order its attributes give. */
export function elementOrder(tag: string): { tag: string; order: OrderInput } {
  const filledTag = tag.replace(`widget-id="${ELLIPSIS}"`, `widget-id="${merchant().plain.id}"`);
  return {
    tag: filledTag,
    order: orderOfAttributes(readAttributes(filledTag.slice('<svc-checkout'.length, -1))),
  };
}

/** The customer's card form on the hosted page, posted with the approving Visa; redirects are not followed. */
export function payOnHostedPage(purchaseId: string): Promise<Response> {
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
export async function checkedOutPurchase(
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

// ---------------------------------------------------------------------------------------------------------
// Browser examples

/** The html example's page: the gateway's script (unless it loads one itself), then the example. */
export async function pageHtml(example: Example): Promise<string> {
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
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

/** Every `<svc-checkout>` of the page that has started (lazy ones wait for `init()`) shows its form. */
export async function formsShown(page: Page, errors: string[], includeLazy: boolean): Promise<void> {
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
export async function runSandboxCommand(command: string): Promise<void> {
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
export function checkListedCommand(command: string): void {
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
// The parts: which file runs which example

/** A part of the README, and its test file: `rest` is readme-examples.test.ts, the others readme-PART.test.ts. */
export type ReadmePart = 'element' | 'sandbox' | 'server' | 'rest';

/** The `##` sections of each part but `rest`, by the start of their heading. */
const PART_HEADINGS: ReadonlyArray<readonly [ReadmePart, string]> = [
  ['element', '## The element'],
  ['sandbox', '## The sandbox gateway'],
  ['server', '## The server toolkit'],
];

/** The `##` heading above each line outside code blocks, by line number (1-based). */
const sectionHeadings: string[] = [];
{
  let heading = '';
  let fenced = false;
  for (const line of readFileSync(readmeFile, 'utf8').split('\n')) {
    if (/^ *(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && line.startsWith('## ')) heading = line;
    sectionHeadings.push(heading);
  }
}

/** The part an example belongs to: that of the `##` section it is in, or `rest`. */
export function partOf(example: Example): ReadmePart {
  const heading = sectionHeadings[example.line - 1] ?? '';
  return PART_HEADINGS.find(([, start]) => heading.startsWith(start))?.[0] ?? 'rest';
}

// ---------------------------------------------------------------------------------------------------------
// Before and after a test file

/** The package's build, the merchant's project and the shop; the gateway is the examples' to start. */
export async function setUp(exportsOf: ExportsOf): Promise<void> {
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
  await writeProject(exportsOf);
  await startShop();
}

export async function tearDown(): Promise<void> {
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
}
