/**
 * The set-up of the hosted checkout page's browser suites: a v1 sandbox beside a fake merchant, one Chromium,
 * Purchases made through the API, and the page driven as a customer drives it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { after, before } from 'node:test';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.mjs';
import { FakeMerchant } from '../support.js';
import { purchaseBody, startV1Sandbox, v1 } from './support.js';

/** A card expiry three years ahead, as typed (MMYY). */
export const EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;

/** The Purchase's `id` and `checkout_url`, which the browser suites use. */
export interface CreatedPurchase {
  id: string;
  checkout_url: string;
}

/** What {@link withHostedPageBrowser} started for a suite; read it in tests, after its `before`. */
export interface HostedPageBrowser {
  readonly merchant: FakeMerchant;
  readonly sandbox: Sandbox;
  readonly browser: Browser;
  /** Every Content-Security-Policy complaint of the pages opened by {@link open}. */
  readonly cspViolations: string[];
  /**
   * A Purchase of two teas (A-1001) in English that redirects to the merchant's `/ok`, with `overrides` of
   * the create request's members.
   */
  createPurchase(overrides?: Record<string, unknown>): Promise<CreatedPurchase>;
  /**
   * A new page (in its own context, with `options` such as `forcedColors` or a viewport) at `url`;
   * `beforeLoad` runs on the page before it goes there (to install a fake clock or watch its requests).
   */
  open(
    url: string,
    options?: BrowserContextOptions,
    beforeLoad?: (page: Page) => Promise<void>,
  ): Promise<Page>;
  /** axe's violations of the page, one line each. */
  axeViolations(page: Page): Promise<string[]>;
}

interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** Starts the merchant, the sandbox and Chromium before the suite's tests and stops them after. */
export function withHostedPageBrowser(): HostedPageBrowser {
  let merchant: FakeMerchant | undefined;
  let sandbox: Sandbox | undefined;
  let browser: Browser | undefined;
  let axeSource = '';
  const cspViolations: string[] = [];
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} is read before the suite's before hook`);
    return value;
  };

  before(async () => {
    axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    merchant = await FakeMerchant.start();
    merchant.respond('/ok', () => ({
      status: 200,
      body: '<!doctype html><title>Thanks</title>',
      headers: { 'content-type': 'text/html' },
    }));
    sandbox = await startV1Sandbox(merchant);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  });
  after(async () => {
    await browser?.close();
    await sandbox?.close();
    await merchant?.close();
  });

  return {
    get merchant() {
      return started(merchant, 'merchant');
    },
    get sandbox() {
      return started(sandbox, 'sandbox');
    },
    get browser() {
      return started(browser, 'browser');
    },
    cspViolations,
    async createPurchase(overrides = {}) {
      const created = await v1(started(sandbox, 'sandbox'), 'POST', '/purchases/', {
        body: purchaseBody({
          reference: 'A-1001',
          success_redirect: `${started(merchant, 'merchant').url}/ok`,
          cancel_redirect: `${started(merchant, 'merchant').url}/cart`,
          purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' },
          ...overrides,
        }),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body as CreatedPurchase;
    },
    async open(url, options = {}, beforeLoad) {
      const context = await started(browser, 'browser').newContext(options);
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      // Its context goes with the page. At the suite's end the browser may close first, closing it already:
      // that refusal is no failure.
      page.on('close', () => {
        context.close().catch(() => undefined);
      });
      await beforeLoad?.(page);
      await page.goto(url);
      return page;
    },
    async axeViolations(page) {
      await page.evaluate(axeSource);
      const violations = await page.evaluate<AxeViolation[]>(
        'axe.run(document).then((result) => result.violations)',
      );
      return violations.map(
        (violation) =>
          `${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`,
      );
    },
  };
}

/** Fills the card fields: the test card `number`, and a valid expiry, CVC and name. */
export async function fillCard(page: Page, number: string): Promise<void> {
  await page.fill('#card_number', number);
  await page.fill('#card_expiry', EXPIRY);
  await page.fill('#card_cvc', '123');
  await page.fill('#card_holder', 'Anna Tester');
}

/**
 * Fills the card fields by keyboard alone, as {@link fillCard} does with the test card `number`: Tab to the
 * number, then type each field and Tab on, through number, expiry, CVC and name, in that order.
 */
export async function typeCardByKeyboard(page: Page, number: string): Promise<void> {
  await tabTo(page, 'card_number');
  await page.keyboard.type(number);
  await page.keyboard.press('Tab');
  await page.keyboard.type(EXPIRY);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate('document.activeElement?.id'), 'card_cvc');
  await page.keyboard.type('123');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Anna Tester');
}

/** Presses Tab until the element with `id` has focus, as a keyboard user would. */
export async function tabTo(page: Page, id: string): Promise<void> {
  for (let presses = 0; presses < 40; presses++) {
    if ((await page.evaluate('document.activeElement?.id')) === id) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`Tab never reached #${id}`);
}
