/**
 * The whole demo (sandbox + shop) on free ports and a temp data dir, so tests never collide with a running
 * `npm start` on 4010/5173 or with each other's orders.
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { type Demo, startDemo } from '../../../demo/start.js';
import { launchBrowser } from './browser.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * What the sandbox serves to browsers; built by `npm run build:browser`. The other files carry content hashes
 * in their names, and served-files.json names them.
 */
const BUILT_FILES = ['svc-checkout.js', 'svc-checkout.classic.js', 'served-files.json'];

export interface DemoEnv extends Demo {
  dataDir: string;
}

/**
 * Starts the demo for a test file.
 * @throws Error naming the command to run when the browser files are not built, rather than letting every
 *   test time out waiting for a frame that cannot load.
 */
export async function startDemoEnv(): Promise<DemoEnv> {
  const missing = BUILT_FILES.filter((file) => !existsSync(join(repoRoot, 'dist', 'browser', file)));
  if (missing.length > 0) {
    throw new Error(`dist/browser lacks ${missing.join(', ')}: run \`npm run build:browser\` first`);
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-demo-e2e-'));
  // A copy: `npm run build:browser` elsewhere empties dist/browser while it rebuilds, which would take the
  // frame away in the middle of a test.
  const browserRoot = join(dataDir, 'browser');
  await cp(join(repoRoot, 'dist', 'browser'), browserRoot, { recursive: true });
  const demo = await startDemo({
    sandboxPort: 0,
    shopPort: 0,
    dataDir,
    announce: false,
    liveReload: false,
    browserRoot,
  });
  return {
    ...demo,
    dataDir,
    async close() {
      await demo.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The headers of a request of the back office's staff: its session cookie, from logging in with the
 * password as the back office page does.
 */
export function backOfficeSession(demo: Demo): Promise<Record<string, string>> {
  let session = sessions.get(demo.merchant);
  if (!session) {
    session = logIn(demo);
    sessions.set(demo.merchant, session);
  }
  return session;
}

const sessions = new WeakMap<object, Promise<Record<string, string>>>();

async function logIn(demo: Demo): Promise<Record<string, string>> {
  const answer = await fetch(`${demo.shopUrl}/api/back-office/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password: demo.merchant.backOfficePassword }),
  });
  const cookie = answer.headers.get('set-cookie')?.split(';')[0];
  if (answer.status !== 200 || cookie === undefined) {
    throw new Error(`The back office login answered ${answer.status}: ${await answer.text()}`);
  }
  return { cookie };
}

/** The demo and the Chromium that a test file's tests share. */
export interface DemoInBrowser {
  readonly demo: DemoEnv;
  readonly browser: Browser;
}

/**
 * Starts the demo and Chromium before the file's first test and stops both after its last. Call it at the
 * top of the file; the object it returns holds both once the tests run.
 */
export function demoInBrowser(): DemoInBrowser {
  const env = {} as { demo: DemoEnv; browser: Browser };
  before(async () => {
    env.demo = await startDemoEnv();
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.demo?.close();
  });
  return env;
}
