/**
 * The hosted checkout page's states, reached as a customer reaches them, for the suites that check each state
 * (checkout-accessibility.test.ts, checkout-reflow.test.ts: two files, so that each stays within the per-file
 * time limit of the Node test run).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { fillCard, type HostedPageBrowser } from './hosted-page-browser.js';

export type Language = 'en' | 'lv' | 'ru';

/** A Purchase in `language`, opened in a new page with `options`, at `query` (such as `?preferred=visa`). */
async function openPurchase(
  env: HostedPageBrowser,
  language: Language,
  options: BrowserContextOptions,
  overrides: Record<string, unknown> = {},
  query = '',
): Promise<Page> {
  const purchase = await env.createPurchase({
    purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language },
    ...overrides,
  });
  return env.open(`${purchase.checkout_url}${query}`, options);
}

/** Submits the page's form with its main button and waits for the page it leads to. */
async function submit(page: Page, button: string): Promise<void> {
  await Promise.all([page.waitForEvent('load'), page.click(button)]);
}

/** Each state of the hosted page, reached as a customer reaches it. */
const STATES: Record<
  string,
  (env: HostedPageBrowser, language: Language, options: BrowserContextOptions) => Promise<Page>
> = {
  form: (env, language, options) => openPurchase(env, language, options),
  'form, card preferred': (env, language, options) =>
    openPurchase(env, language, options, {}, '?preferred=visa'),
  'form, bank preferred': (env, language, options) =>
    openPurchase(env, language, options, {}, '?preferred=seb_lt_pis'),
  'form with errors': async (env, language, options) => {
    const page = await openPurchase(env, language, options);
    // Refused in the page or by the server: either way the errors show, with or without a new page.
    await page.click('button.pay');
    await page.waitForSelector('[role="alert"]');
    return page;
  },
  'declined card': async (env, language, options) => {
    const page = await openPurchase(env, language, options);
    await fillCard(page, '4000 0000 0000 0002');
    await submit(page, 'button.pay');
    await page.waitForSelector('#failure-title');
    return page;
  },
  'bank step': async (env, language, options) => {
    const page = await openPurchase(env, language, options, {}, '?preferred=seb_lt_pis');
    await submit(page, '#go-seb_lt_pis');
    assert.match(page.url(), /\/steps\//);
    return page;
  },
  '3-D Secure step': async (env, language, options) => {
    const page = await openPurchase(env, language, options);
    await fillCard(page, '4000000000003220');
    await submit(page, 'button.pay');
    await page.waitForSelector('button.approve');
    return page;
  },
  '3-D Secure step saving a card': async (env, language, options) => {
    const page = await openPurchase(env, language, options, {
      skip_capture: true,
      purchase: { products: [{ name: 'Card check', price: 0 }], language },
    });
    await fillCard(page, '4000000000003220');
    await submit(page, 'button.pay');
    await page.waitForSelector('button.approve');
    return page;
  },
  paid: async (env, language, options) => {
    const page = await openPurchase(env, language, options, { success_redirect: undefined });
    await fillCard(page, '4111111111111111');
    await submit(page, 'button.pay');
    return page;
  },
  expired: (env, language, options) =>
    openPurchase(env, language, options, {
      due: Math.floor(Date.now() / 1000) - 1,
      purchase: { products: [{ name: 'Tea', price: 1250 }], language, due_strict: true },
    }),
  'not found': (env, _language, options) =>
    env.open(`${env.sandbox.url}/checkout/00000000-0000-4000-8000-000000000000/`, options),
};

/**
 * A suite of one test per state of the hosted page, reached as a customer reaches it: `check` on the state
 * reached in `language` with `options` finds nothing.
 */
export function everyState(
  env: HostedPageBrowser,
  title: string,
  language: Language,
  options: BrowserContextOptions,
  check: (page: Page) => Promise<string[]>,
): void {
  describe(title, () => {
    for (const [state, reach] of Object.entries(STATES)) {
      test(state, async () => {
        const page = await reach(env, language, options);
        try {
          assert.deepEqual(await check(page), []);
        } finally {
          await page.close();
        }
      });
    }
  });
}
