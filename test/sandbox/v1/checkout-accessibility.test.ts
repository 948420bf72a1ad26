/**
 * The hosted checkout page passes the raised accessibility check in each of its states, beyond axe: every
 * control's focus ring has 3:1 against the colours beside it (WCAG 1.4.11), every button and field shows a
 * boundary in forced colours, Latvian and Russian fit 320 px without sideways scrolling, also with WCAG text
 * spacing (1.4.10, 1.4.12), nothing moves when reduced motion is asked for, and targets are 24 px or more.
 * The checks are the shared probe's (test/support/accessibility-probe.js), as for the frame and the picker.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { probePage } from '../../support/accessibility-probe-source.js';
import { fillCard, withHostedPageBrowser } from './hosted-page-browser.js';

type Language = 'en' | 'lv' | 'ru';

const env = withHostedPageBrowser();

/** A Purchase in `language`, opened in a new page with `options`, at `query` (such as `?preferred=visa`). */
async function openPurchase(
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
const STATES: Record<string, (language: Language, options: BrowserContextOptions) => Promise<Page>> = {
  form: (language, options) => openPurchase(language, options),
  'form, card preferred': (language, options) => openPurchase(language, options, {}, '?preferred=visa'),
  'form, bank preferred': (language, options) => openPurchase(language, options, {}, '?preferred=seb_lt_pis'),
  'form with errors': async (language, options) => {
    const page = await openPurchase(language, options);
    // Refused in the page or by the server: either way the errors show, with or without a new page.
    await page.click('button.pay');
    await page.waitForSelector('[role="alert"]');
    return page;
  },
  'declined card': async (language, options) => {
    const page = await openPurchase(language, options);
    await fillCard(page, '4000 0000 0000 0002');
    await submit(page, 'button.pay');
    await page.waitForSelector('#failure-title');
    return page;
  },
  'bank step': async (language, options) => {
    const page = await openPurchase(language, options, {}, '?preferred=seb_lt_pis');
    await submit(page, '#go-seb_lt_pis');
    assert.match(page.url(), /\/steps\//);
    return page;
  },
  '3-D Secure step': async (language, options) => {
    const page = await openPurchase(language, options);
    await fillCard(page, '4000000000003220');
    await submit(page, 'button.pay');
    await page.waitForSelector('button.approve');
    return page;
  },
  '3-D Secure step saving a card': async (language, options) => {
    const page = await openPurchase(language, options, {
      skip_capture: true,
      purchase: { products: [{ name: 'Card check', price: 0 }], language },
    });
    await fillCard(page, '4000000000003220');
    await submit(page, 'button.pay');
    await page.waitForSelector('button.approve');
    return page;
  },
  paid: async (language, options) => {
    const page = await openPurchase(language, options, { success_redirect: undefined });
    await fillCard(page, '4111111111111111');
    await submit(page, 'button.pay');
    return page;
  },
  expired: (language, options) =>
    openPurchase(language, options, {
      due: Math.floor(Date.now() / 1000) - 1,
      purchase: { products: [{ name: 'Tea', price: 1250 }], language, due_strict: true },
    }),
  'not found': (_language, options) =>
    env.open(`${env.sandbox.url}/checkout/00000000-0000-4000-8000-000000000000/`, options),
};

/** A suite of one test per state: `check` on the state reached in `language` with `options` finds nothing. */
function everyState(
  title: string,
  language: Language,
  options: BrowserContextOptions,
  check: (page: Page) => Promise<string[]>,
): void {
  describe(title, () => {
    for (const [state, reach] of Object.entries(STATES)) {
      test(state, async () => {
        const page = await reach(language, options);
        try {
          assert.deepEqual(await check(page), []);
        } finally {
          await page.close();
        }
      });
    }
  });
}

describe('the hosted checkout page, raised accessibility check', () => {
  everyState('axe, focus rings of 3:1 beside them, and targets', 'en', {}, async (page) => {
    const problems = await env.axeViolations(page);
    await page.keyboard.press('Tab');
    problems.push(...(await probePage(page, 'focusRingsProblems', 3)));
    problems.push(...(await probePage(page, 'targetSizeProblems')));
    return problems;
  });

  everyState(
    'in forced colours every button and field shows a boundary',
    'en',
    { forcedColors: 'active' },
    (page) => probePage(page, 'boundaryProblems'),
  );

  for (const language of ['lv', 'ru'] as const) {
    everyState(
      `in ${language} at 320 px no sideways scrolling, also with text spacing`,
      language,
      { viewport: { width: 320, height: 640 } },
      async (page) => [
        ...(await probePage(page, 'reflowProblems')),
        ...(await probePage(page, 'textSpacingProblems')),
      ],
    );
  }

  everyState('with reduced motion nothing moves', 'en', { reducedMotion: 'reduce' }, (page) =>
    probePage(page, 'motionProblems'),
  );

  test('no state breaks the page’s Content-Security-Policy', () => {
    assert.deepEqual(env.cspViolations, []);
  });
});
