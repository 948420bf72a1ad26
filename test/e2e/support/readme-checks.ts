/**
 * What each README example must have done, by name (TS_CHECKS, JSON_CHECKS, JS_CHECKS: the keys example's
 * here, the others' in support/readme-PART-checks.ts; a named example without its check fails), and the
 * tests that run one part's examples: {@link describeExamples}, which each test/e2e/readme-*.test.ts calls for
 * its part. The machinery they run on is support/readme-run.ts's.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signOrder, verifyOrderSignature } from '../../../src/server/index.js';
import { launchBrowser } from './browser.js';
import { ELEMENT_CHECKS } from './readme-element-checks.js';
import { commandsOf, type Example } from './readme-examples.js';
import { provide } from './readme-prelude.js';
import {
  type Checks,
  checkListedCommand,
  consoleErrors,
  env,
  eventually,
  examples,
  formsShown,
  type JsCheck,
  type JsonCheck,
  type PageCalls,
  pageHtml,
  partOf,
  project,
  type ReadmePart,
  readmeName,
  run,
  runSandboxCommand,
  setUp,
  type TsCheck,
  tearDown,
  where,
} from './readme-run.js';
import { SANDBOX_CHECKS } from './readme-sandbox-checks.js';
import { SERVER_CHECKS } from './readme-server-checks.js';

// ---------------------------------------------------------------------------------------------------------
// What each example must have done: the keys example here, the others by part

const REST_CHECKS: Checks = {
  ts: {
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
  },
};

const CHECKS_OF: Record<ReadmePart, Checks> = {
  rest: REST_CHECKS,
  element: ELEMENT_CHECKS,
  sandbox: SANDBOX_CHECKS,
  server: SERVER_CHECKS,
};
const PARTS_CHECKS = Object.values(CHECKS_OF);
/** The checks of every part in one table (example names are unique: readExamples says so). */
const merged = <T>(table: (checks: Checks) => Record<string, T> | undefined): Record<string, T> =>
  Object.fromEntries(PARTS_CHECKS.flatMap((checks) => Object.entries(table(checks) ?? {})));
export const TS_CHECKS: Record<string, TsCheck> = merged((checks) => checks.ts);
export const JSON_CHECKS: Record<string, JsonCheck> = merged((checks) => checks.json);
export const JS_CHECKS: Record<string, JsCheck> = merged((checks) => checks.js);

// ---------------------------------------------------------------------------------------------------------
// Browser examples

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
// The tests of a part

/** The order the examples run in: the keys, then the sandbox config they make possible, then the rest. */
const runnable = [
  ...examples.filter((example) => example.kind === 'ts' && example.name === 'keys'),
  ...examples.filter((example) => example.kind === 'json'),
  ...examples.filter((example) => example.kind === 'ts' && example.name !== 'keys'),
];

const exportsOf = (example: Example): readonly string[] =>
  (example.name === undefined ? undefined : TS_CHECKS[example.name]?.exports) ?? [];

/** Runs a ts or json example and its check. */
async function runExample(example: Example): Promise<void> {
  if (example.kind === 'json') {
    const check = JSON_CHECKS[example.name!];
    assert.ok(check, `no check for the json example ${example.name}: add one to JSON_CHECKS`);
    await check(example);
    return;
  }
  const check = TS_CHECKS[example.name!];
  assert.ok(check, `no check for the ts example ${example.name}: add one to TS_CHECKS`);
  await check.before?.();
  await check.check(await run(example, exportsOf(example)));
}

/**
 * The tests of one part of the README, after `tests` (the file's own): its ts and json examples run in the
 * order of {@link runnable}, then its html pages (with their js), its sh commands and its listed commands.
 * The examples of other parts that it stands on (its checks' `runsFirst`) run before, in the `before` hook.
 */
export function describeExamples(part: ReadmePart, tests: () => void = () => {}): void {
  const own = (example: Example) => partOf(example) === part;
  describe(`${readmeName} examples`, () => {
    before(async () => {
      await setUp(exportsOf);
      const first = CHECKS_OF[part].runsFirst ?? [];
      for (const example of runnable.filter(({ name }) => name !== undefined && first.includes(name))) {
        await runExample(example);
      }
    });

    after(tearDown);

    tests();

    for (const example of runnable.filter(own)) {
      test(`${where(example)} runs`, () => runExample(example));
    }

    for (const example of examples.filter((candidate) => candidate.kind === 'html' && own(candidate))) {
      test(`${where(example)} takes its order in Chromium`, () => runPage(example));
      for (const script of examples.filter((candidate) => candidate.after === example.name)) {
        test(`${where(script)} runs in the page of ${example.name}`, () => runPage(example, script));
      }
    }

    for (const example of examples.filter((candidate) => candidate.kind === 'sh' && own(candidate))) {
      test(`${where(example)} runs in a merchant's project`, async () => {
        for (const command of commandsOf(example)) {
          if (/^npx svc-sandbox\b/.test(command)) await runSandboxCommand(command);
          else assert.fail(`the test does not know how to run \`${command}\`; teach runSandboxCommand`);
        }
      });
    }

    for (const example of examples.filter(
      (candidate) => (candidate.kind === 'ci' || candidate.kind === 'scripts') && own(candidate),
    )) {
      test(`${where(example)} lists commands that exist (CI runs them)`, () => {
        for (const command of commandsOf(example)) checkListedCommand(command);
      });
    }
  });
}
