/**
 * The hosted checkout page in real Chromium: every state passes axe, every focus ring has 3:1 contrast, the
 * filled buttons keep a border in forced colours, a customer pays by keyboard alone with a card and with a
 * preselected bank, and the redirect to the merchant passes the page's own
 * Content-Security-Policy (a form's redirect counts as its action).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.mjs';
import { FakeMerchant } from '../support.js';
import { cardForm, postForm, purchaseBody, startV1Sandbox, v1 } from './support.js';

const EXPIRY = `12${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0')}`;
/** Where the phone screenshots are written, for a person to look at. */
const SCREENSHOTS = join(tmpdir(), 'svc-checkout-hosted-page');

/** The WCAG contrast ratio of two opaque CSS colours as `getComputedStyle` gives them (`rgb(r, g, b)`). */
function contrast(first: string, second: string): number {
  const weights = [0.2126, 0.7152, 0.0722];
  const luminance = (color: string): number => {
    const channels = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    assert.equal(channels.length, 3, `a colour: ${color}`);
    return channels.reduce((sum, channel, index) => {
      const value = channel / 255;
      const linear = value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
      return sum + (weights[index] ?? 0) * linear;
    }, 0);
  };
  const [one, other] = [luminance(first), luminance(second)];
  return (Math.max(one, other) + 0.05) / (Math.min(one, other) + 0.05);
}

interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

describe('sandbox v1 hosted checkout page in Chromium', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let browser: Browser;
  let axeSource: string;
  const cspViolations: string[] = [];

  before(async () => {
    axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    merchant = await FakeMerchant.start();
    merchant.respond('/ok', () => ({
      status: 200,
      body: '<!doctype html><title>Thanks</title>',
      headers: { 'content-type': 'text/html' },
    }));
    sandbox = await startV1Sandbox(merchant);
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
    });
  });
  after(async () => {
    await browser?.close();
    await sandbox?.close();
    await merchant?.close();
  });

  async function createPurchase(overrides: Record<string, unknown> = {}) {
    const created = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        reference: 'A-1001',
        success_redirect: `${merchant.url}/ok`,
        cancel_redirect: `${merchant.url}/cart`,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' },
        ...overrides,
      }),
    });
    assert.equal(created.status, 201);
    return created.body as { id: string; checkout_url: string };
  }

  async function open(url: string): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(url);
    return page;
  }

  async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(axeSource);
    const violations = await page.evaluate<AxeViolation[]>(
      'axe.run(document).then((result) => result.violations)',
    );
    return violations.map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`,
    );
  }

  /** Fills the card fields: the test card `number`, and a valid expiry, CVC and name. */
  async function fillCard(page: Page, number: string): Promise<void> {
    await page.fill('#card_number', number);
    await page.fill('#card_expiry', EXPIRY);
    await page.fill('#card_cvc', '123');
    await page.fill('#card_holder', 'Anna Tester');
  }

  /** The labels of the submit buttons a customer sees. */
  async function visibleSubmitButtons(page: Page): Promise<string[]> {
    const labels: string[] = [];
    for (const button of await page.locator('button[type="submit"]').all()) {
      if (await button.isVisible()) labels.push(((await button.textContent()) ?? '').trim());
    }
    return labels;
  }

  /** Presses Tab until the element with `id` has focus, as a keyboard user would. */
  async function tabTo(page: Page, id: string): Promise<void> {
    for (let presses = 0; presses < 40; presses++) {
      if ((await page.evaluate('document.activeElement?.id')) === id) return;
      await page.keyboard.press('Tab');
    }
    assert.fail(`Tab never reached #${id}`);
  }

  test('every state passes axe', async () => {
    const purchase = await createPurchase();
    const states: Array<[string, Page]> = [];
    states.push(['form', await open(purchase.checkout_url)]);

    const invalid = await open(purchase.checkout_url);
    await invalid.click('button.pay');
    await invalid.waitForSelector('[role="alert"]');
    states.push(['field errors', invalid]);

    const declined = await open(purchase.checkout_url);
    await fillCard(declined, '4000 0000 0000 0002');
    await declined.click('button.pay');
    await declined.waitForSelector('#failure-title');
    states.push(['failure', declined]);

    const challenge = await open(purchase.checkout_url);
    await fillCard(challenge, '4000000000003220');
    await challenge.click('button.pay');
    await challenge.waitForSelector('button.approve');
    states.push(['3-D Secure step', challenge]);

    const bank = await createPurchase({
      purchase: { products: [{ name: 'Tēja', price: 990 }], language: 'lv' },
    });
    const bankPage = await open(`${bank.checkout_url}?preferred=citadele_lv_pis`);
    states.push(['form in Latvian, bank preselected', bankPage]);

    const held = await createPurchase({ skip_capture: true, success_redirect: undefined });
    const heldPage = await open(held.checkout_url);
    await fillCard(heldPage, '4111111111111111');
    await heldPage.click('button.pay');
    await heldPage.waitForSelector('h1');
    states.push(['reserved', heldPage]);

    const expired = await createPurchase({
      due: Math.floor(Date.now() / 1000) - 1,
      purchase: { products: [{ name: 'Late', price: 100 }], language: 'ru', due_strict: true },
    });
    states.push(['expired, in Russian', await open(expired.checkout_url)]);
    states.push(['not found', await open(`${sandbox.url}/checkout/00000000-0000-4000-8000-000000000000/`)]);

    for (const [state, page] of states) {
      assert.deepEqual(await axeViolations(page), [], state);
      await page.close();
    }
    assert.deepEqual(cspViolations, []);
  });

  /** What a focused control's ring is drawn against: the control itself and what lies around it. */
  interface FocusLook {
    control: string;
    ring: { color: string; style: string; width: number; offset: number };
    own: string;
    around: string;
  }

  // A string, not a function: tsx would wrap a function's inner helpers in a `__name` the page lacks.
  const READ_FOCUS_LOOK = `(() => {
    const control = document.activeElement;
    if (!control || control === document.body) return null;
    const backgroundOf = (element) => {
      for (let at = element; at; at = at.parentElement) {
        const color = getComputedStyle(at).backgroundColor;
        if (color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
      }
      return 'rgb(255, 255, 255)';
    };
    const style = getComputedStyle(control);
    return {
      control: control.tagName.toLowerCase() + '#' + control.id + '.' + control.className,
      ring: {
        color: style.outlineColor,
        style: style.outlineStyle,
        width: Number.parseFloat(style.outlineWidth),
        offset: Number.parseFloat(style.outlineOffset),
      },
      own: backgroundOf(control),
      around: backgroundOf(control.parentElement),
    };
  })()`;

  /** Tabs through every control of the page once, reading each one's focus ring as it has focus. */
  async function focusLooks(page: Page): Promise<FocusLook[]> {
    const looks: FocusLook[] = [];
    for (let presses = 0; presses < 40; presses++) {
      await page.keyboard.press('Tab');
      const look = await page.evaluate<FocusLook | null>(READ_FOCUS_LOOK);
      if (look === null || looks.some((seen) => seen.control === look.control)) break;
      looks.push(look);
    }
    return looks;
  }

  test("each control's focus ring has 3:1 contrast against what it is drawn on (WCAG 1.4.11)", async () => {
    const purchase = await createPurchase();
    const form = await open(purchase.checkout_url);
    const challenge = await open(purchase.checkout_url);
    await fillCard(challenge, '4000000000003220');
    await challenge.click('button.pay');
    await challenge.waitForSelector('button.approve');
    const looks = [...(await focusLooks(form)), ...(await focusLooks(challenge))];
    for (const selector of [
      'input#card_number',
      'input#card_holder',
      'button#.pay',
      'a#.back',
      'button#.approve',
    ]) {
      assert.ok(
        looks.some((look) => look.control.startsWith(selector)),
        `${selector} is reached: ${looks.map((look) => look.control)}`,
      );
    }
    for (const look of looks) {
      assert.notEqual(look.ring.style, 'none', look.control);
      assert.ok(look.ring.width >= 2, `${look.control}: a ring of ${look.ring.width}px`);
      const around = contrast(look.ring.color, look.around);
      assert.ok(
        around >= 3,
        `${look.control}: ring ${look.ring.color} on ${look.around} is ${around.toFixed(2)}:1`,
      );
      // A ring that does not stand out from its control's own fill must stand off it, with the page between.
      if (contrast(look.ring.color, look.own) < 3) {
        assert.ok(look.ring.offset >= 2, `${look.control}: ring on its own ${look.own} with no gap`);
      }
    }
    await form.close();
    await challenge.close();
  });

  test('in forced colours, Pay, Continue and Approve payment keep a border the system paints', async () => {
    const purchase = await createPurchase();
    const page = await browser.newPage();
    await page.emulateMedia({ forcedColors: 'active' });
    await page.goto(purchase.checkout_url);
    // Forced colours paint a border in the system's button text colour; it must stand out from the page.
    const assertBorder = async (selector: string) => {
      const look = await page.$eval(selector, (button) => {
        const style = getComputedStyle(button);
        return {
          style: style.borderTopStyle,
          width: Number.parseFloat(style.borderTopWidth),
          color: style.borderTopColor,
          page: getComputedStyle(document.querySelector('main') ?? document.body).backgroundColor,
        };
      });
      assert.deepEqual([look.style, look.width], ['solid', 1], selector);
      assert.ok(contrast(look.color, look.page) >= 3, `${selector}: border ${look.color} on ${look.page}`);
    };
    await assertBorder('button.pay');
    await fillCard(page, '4000000000003220');
    await page.click('button.pay');
    await page.waitForSelector('button.approve');
    await assertBorder('button.approve');
    await page.goto(`${(await createPurchase()).checkout_url}?preferred=swedbank_ee_pis`);
    await assertBorder('#go-swedbank_ee_pis');
    await page.close();
  });

  test('a returning customer pays with the saved card by keyboard alone; that page passes axe', async () => {
    const stored = await v1(sandbox, 'POST', '/clients/', { body: { email: 'back@example.com' } });
    const first = await createPurchase({ client_id: stored.body.id, force_recurring: true });
    await postForm(sandbox, `/checkout/${first.id}/pay`, cardForm('4111111111111111'));
    const purchase = await createPurchase({ client_id: stored.body.id });
    const page = await open(purchase.checkout_url);
    assert.deepEqual(await axeViolations(page), [], 'the form with a saved card');
    assert.equal(await page.isChecked(`input[value="saved:${first.id}"]`), true);
    for (let presses = 0; presses < 40; presses++) {
      if (await page.evaluate('document.activeElement?.classList.contains("pay")')) break;
      await page.keyboard.press('Tab');
    }
    await Promise.all([page.waitForURL(`${merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('a customer pays with a card by keyboard alone and lands on the success redirect', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    await tabTo(page, 'card_number');
    await page.keyboard.type('4111 1111 1111 1111');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EXPIRY);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'card_cvc');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Anna Tester');
    await Promise.all([page.waitForURL(`${merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('with a bank preselected, the keyboard goes from its Continue button to the bank step and back to the shop', async () => {
    const purchase = await createPurchase();
    const page = await open(`${purchase.checkout_url}?preferred=seb_lt_pis`);
    assert.equal(await page.isChecked('#method-seb_lt_pis'), true);
    assert.deepEqual(await visibleSubmitButtons(page), ['Continue to SEB']);
    assert.equal(await page.isVisible('#card_number'), false, 'the card fields belong to the card choice');
    assert.equal(
      await page.isVisible('#method-luminor_lt_pis'),
      false,
      'the other banks wait behind the disclosure',
    );
    await tabTo(page, 'method-seb_lt_pis');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.tagName'), 'SUMMARY');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'go-seb_lt_pis');
    await Promise.all([page.waitForURL(/\/steps\//), page.keyboard.press('Enter')]);
    assert.match((await page.textContent('h1')) ?? '', /^SEB: confirm the payment$/);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.value'), 'approve');
    await Promise.all([page.waitForURL(`${merchant.url}/ok`), page.keyboard.press('Enter')]);
    const paid = (await v1(sandbox, 'GET', `/purchases/${purchase.id}/`)).body;
    assert.equal(paid.status, 'paid');
    assert.equal(paid.transaction_data.attempts[0].payment_method, 'seb_lt_pis');
    await page.close();
  });

  test('inside Other ways to pay the keyboard chooses the card: its fields and Pay button appear, and it pays', async () => {
    const purchase = await createPurchase();
    const page = await open(`${purchase.checkout_url}?preferred=citadele_lv_pis`);
    await tabTo(page, 'method-citadele_lv_pis');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    assert.equal(await page.getAttribute('details.others', 'open'), '');
    assert.deepEqual(await axeViolations(page), [], 'the disclosure open');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.isChecked('#method-card'), true);
    assert.equal(await page.isVisible('#card_number'), true);
    assert.deepEqual(await visibleSubmitButtons(page), ['Pay €25.00']);
    // Another bank inside the disclosure: its own button, no card fields.
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.isChecked('#method-swedbank_ee_pis'), true);
    assert.equal(await page.isVisible('#card_number'), false);
    assert.deepEqual(await visibleSubmitButtons(page), ['Continue to Swedbank']);
    await page.keyboard.press('ArrowUp');
    await tabTo(page, 'card_number');
    await page.keyboard.type('4111 1111 1111 1111');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EXPIRY);
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Anna Tester');
    await Promise.all([page.waitForURL(`${merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('on a 390 px phone the card form starts above the fold, with or without preferred', async () => {
    const purchase = await createPurchase({ client: { email: 'a@example.com', country: 'LV' } });
    for (const query of ['', '?preferred=visa']) {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await page.goto(`${purchase.checkout_url}${query}`);
      const box = await page.locator('#card_number').boundingBox();
      assert.ok(box && box.y + box.height <= 844, `${query || 'no preferred'}: the card number at ${box?.y}`);
      const width = await page.evaluate('document.documentElement.scrollWidth');
      assert.equal(width, 390, 'nothing scrolls sideways');
      await page.screenshot({ path: `${SCREENSHOTS}/phone${query ? '-preferred' : ''}.png`, fullPage: true });
      await page.close();
    }
  });

  test('a due_strict purchase states its deadline; a form sent late comes back expired with what can be kept', async () => {
    const soon = await createPurchase({
      due: Math.floor(Date.now() / 1000) + 2,
      purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'lv', due_strict: true },
    });
    const page = await open(soon.checkout_url);
    assert.match((await page.textContent('#due-note')) ?? '', /^Samaksājiet līdz \d\d:\d\d/);
    assert.deepEqual(await axeViolations(page), [], 'the deadline stated');
    await fillCard(page, '4111 1111 1111 1111');
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await page.click('button.pay');
    await page.waitForSelector('#expired-title');
    assert.equal(await page.inputValue('#card_holder'), 'Anna Tester');
    assert.equal(await page.inputValue('#card_expiry'), EXPIRY);
    assert.equal(await page.inputValue('#card_number'), '');
    assert.deepEqual(await axeViolations(page), [], 'the late form, expired');
    await page.close();
  });
});
