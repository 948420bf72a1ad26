/**
 * The README's walkthrough, "Your own shop in ten minutes", followed as a new merchant follows it: in an empty
 * folder, its `file` blocks written as they are and its `steps` run in their order (support/readme-examples.ts).
 *
 * - `npm install svc-checkout express` asks no registry: the package under test is the repository's build, so
 *   the folder's node_modules links `svc-checkout` to the repository (its `exports` lead to `dist/`, its own
 *   dependencies resolve from the repository's node_modules, as they do for the readme-*.test.ts files) and
 *   `express` to the repository's copy, with the `svc-sandbox` bin as npm links it.
 * - Every other command runs as written, `npx` offline so that it can only find the folder's package, with
 *   free ports where the walkthrough says 3000 and 4010: the sandbox is given `--port 0`, `node shop.mjs` gets
 *   PORT and GATEWAY (which shop.mjs reads), and after `init` the port of sandbox.json's notification URL
 *   becomes the shop's.
 * - "Pay with the test card" is done in Chromium by `payInCheckout` of the built `svc-checkout/testing`, and the
 *   shop must log the fulfilment.
 *
 * Needs `npm run build` first.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import type * as Testing from '../../src/testing/index.js';
import { launchBrowser } from './support/browser.js';
import { commandsOf, readExamples } from './support/readme-examples.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { examples } = readExamples(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
const walkthrough = examples.filter((example) => example.kind === 'file' || example.kind === 'steps');

/** The files `npm run build` makes that the walkthrough uses. */
const BUILT = [
  'dist/server/index.js',
  'dist/sandbox/cli.js',
  'dist/testing/index.js',
  'dist/browser/svc-checkout.js',
];

/** What the steps make, for the next steps and for the cleanup. */
const env: {
  project: string;
  shopPort: number;
  gateway?: string;
  browser?: Browser;
  children: ChildProcess[];
} = { project: '', shopPort: 0, children: [] };

interface Running {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
}

/** A port free now, for a server the test cannot ask to take port 0 (the shop, whose port sandbox.json names). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolveListen) => server.listen(0, resolveListen));
  const { port } = server.address() as { port: number };
  await new Promise((resolveClose) => server.close(resolveClose));
  return port;
}

/** The command as a process in the merchant's folder, in its own process group, so that it ends with its children. */
function start(command: string, extraEnv: Record<string, string> = {}): Running {
  const [file, ...args] = command.split(/\s+/);
  // Offline: `npx` may only find the folder's own svc-checkout, never one from the registry. Without this
  // runner's NODE_TEST_CONTEXT, `node --test` runs its files as on the merchant's machine.
  const { NODE_TEST_CONTEXT: _runner, ...inherited } = process.env;
  const child = spawn(file!, args, {
    cwd: env.project,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...inherited, npm_config_offline: 'true', ...extraEnv },
  });
  env.children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

/** Waits for `pattern` in what it printed; rejects when it exits or `ms` pass first. */
async function waitFor(running: Running, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(running.output());
    if (match) return match;
    if (running.child.exitCode !== null) {
      throw new Error(`exited (${running.child.exitCode}) before ${pattern}; output:\n${running.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`no ${pattern} within ${ms} ms; output:\n${running.output()}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 20));
  }
}

/** Runs the command to its end: its exit code and output. */
async function run(command: string): Promise<{ code: number | null; output: string }> {
  const running = start(command);
  const code = await new Promise<number | null>((resolveExit) => running.child.once('exit', resolveExit));
  return { code, output: running.output() };
}

/** `npm install …`: the repository's svc-checkout and express, linked as npm links a local install. */
async function install(packages: string[]): Promise<void> {
  assert.deepEqual(packages.sort(), ['express', 'svc-checkout'], 'the walkthrough installs these two');
  const modules = join(env.project, 'node_modules');
  await mkdir(join(modules, '.bin'), { recursive: true });
  await symlink(repoRoot, join(modules, 'svc-checkout'), 'dir');
  await symlink(join(repoRoot, 'node_modules', 'express'), join(modules, 'express'), 'dir');
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    bin: Record<string, string>;
  };
  for (const [name, target] of Object.entries(manifest.bin)) {
    await symlink(join('..', 'svc-checkout', target), join(modules, '.bin', name));
  }
}

/** `svc-sandbox init`, as written; then the notification URL leads to the shop's free port. */
async function init(command: string): Promise<void> {
  const { code, output } = await run(command);
  assert.equal(code, 0, output);
  assert.match(output, /Wrote sandbox\.json, merchant-private-key\.pem \(secret, mode 0600\)/);
  const configFile = join(env.project, 'sandbox.json');
  const config = JSON.parse(await readFile(configFile, 'utf8')) as {
    merchants: [{ callbacks: { notificationUrl: string } }];
  };
  const callbacks = config.merchants[0].callbacks;
  assert.equal(
    callbacks.notificationUrl,
    'http://localhost:3000/api/notification',
    'as the walkthrough says',
  );
  callbacks.notificationUrl = `http://localhost:${env.shopPort}/api/notification`;
  await writeFile(configFile, JSON.stringify(config, null, 2));
}

/** `npx svc-sandbox …`: the CLI on a free port, until the test ends. */
async function startSandboxCli(command: string): Promise<void> {
  const sandbox = start(`${command} --port 0`);
  const [, url] = await waitFor(sandbox, /listening on (http:\/\/\S+)/, 20_000);
  env.gateway = url;
}

/** `node shop.mjs`, then what the merchant does next: pays the page with the test card, and sees the fulfilment. */
async function startShopAndPay(command: string): Promise<void> {
  assert.ok(env.gateway, 'the sandbox runs (a step before starts it)');
  const shop = start(command, { PORT: String(env.shopPort), GATEWAY: env.gateway });
  await waitFor(shop, new RegExp(`shop on http://localhost:${env.shopPort}`), 15_000);
  // A second shop on the same port says so and stops, rather than claiming the port.
  const second = start(command, { PORT: String(env.shopPort), GATEWAY: env.gateway });
  const code = await new Promise<number | null>((resolveExit) => second.child.once('exit', resolveExit));
  assert.notEqual(code, 0, second.output());
  assert.match(second.output(), /EADDRINUSE/);
  assert.doesNotMatch(second.output(), /shop on/);
  const { payInCheckout } = (await import(
    pathToFileURL(join(repoRoot, 'dist', 'testing', 'index.js')).href
  )) as typeof Testing;
  env.browser = await launchBrowser();
  const page = await env.browser.newPage();
  const errors: string[] = [];
  // The browser asks for /favicon.ico, which the walkthrough's shop has not: its 404 is no fault.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) {
      errors.push(message.text());
    }
  });
  await page.goto(`http://localhost:${env.shopPort}/`);
  const paid = await payInCheckout(page);
  assert.equal(paid.outcome, 'paid', JSON.stringify(paid));
  assert.ok(paid.merchantOrderId);
  await waitFor(shop, new RegExp(`fulfilled order ${paid.merchantOrderId}: 12\\.50 EUR`), 15_000);
  assert.deepEqual(errors, [], 'the page logs no error');
}

/** `node --test shop.test.mjs`: the merchant's CI test passes; its times are reported. */
async function runMerchantTest(command: string, report: (message: string) => void): Promise<void> {
  const { code, output } = await run(command);
  assert.equal(code, 0, output);
  assert.match(output, /^# pass 2$/m, output);
  assert.match(output, /^# fail 0$/m, output);
  const tests = [...output.matchAll(/^ok \d+ - (.+)\n\s+---\n\s+duration_ms: ([\d.]+)/gm)];
  assert.equal(tests.length, 2, output);
  for (const [, name, ms] of tests) {
    // Reported, not asserted (tests assert no timings): the mark is under a second each.
    report(`${name}: ${Math.round(Number(ms))} ms`);
  }
  report(`node --test: ${Math.round(Number(/^# duration_ms ([\d.]+)$/m.exec(output)?.[1]))} ms in all`);
}

describe('README: Your own shop in ten minutes', () => {
  before(async () => {
    const absent = BUILT.filter((file) => !existsSync(join(repoRoot, file)));
    if (absent.length > 0) throw new Error(`${absent.join(', ')} missing: run \`npm run build\` first`);
    env.project = await mkdtemp(join(tmpdir(), 'svc-walkthrough-'));
    env.shopPort = await freePort();
  });

  after(async () => {
    await env.browser?.close();
    for (const child of env.children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    if (env.project !== '') await rm(env.project, { recursive: true, force: true });
  });

  test('the walkthrough writes shop.mjs and shop.test.mjs', () => {
    const files = walkthrough.flatMap((example) => (example.kind === 'file' ? [example.path] : []));
    assert.deepEqual(files, ['shop.mjs', 'shop.test.mjs']);
  });

  for (const example of walkthrough) {
    if (example.kind === 'file') {
      test(`README.md:${example.line} writes ${example.path}`, () =>
        writeFile(join(env.project, example.path!), example.code));
      continue;
    }
    for (const command of commandsOf(example)) {
      test(`README.md:${example.line} \`${command}\``, async (t) => {
        const npmInstall = /^npm install (.+)$/.exec(command);
        if (npmInstall) await install(npmInstall[1]!.split(/\s+/));
        else if (/^npx (-p svc-checkout )?svc-sandbox init$/.test(command)) await init(command);
        else if (/^npx (-p svc-checkout )?svc-sandbox --config sandbox\.json$/.test(command))
          await startSandboxCli(command);
        else if (command === 'node shop.mjs') await startShopAndPay(command);
        else if (command === 'node --test shop.test.mjs')
          await runMerchantTest(command, (message) => t.diagnostic(message));
        else assert.fail(`the test does not know the walkthrough's command \`${command}\`; teach it here`);
      });
    }
  }
});
