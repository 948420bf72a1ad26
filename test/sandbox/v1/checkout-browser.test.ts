/**
 * The hosted checkout page in real Chromium: every state passes axe, a customer pays by keyboard alone with a
 * card and with a preselected bank, and the redirect to the merchant passes the page's own
 * Content-Security-Policy (a form's redirect counts as its action). Focus rings, forced colours, reflow and
 * the rest of the raised accessibility check: checkout-accessibility.test.ts.
 */
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { EXPIRY, fillCard, tabTo, typeCardByKeyboard, withHostedPageBrowser } from './hosted-page-browser.js';
import { advanceClock, cardForm, postForm, v1 } from './support.js';

/** Where the phone screenshots are written, for a person to look at. */
const SCREENSHOTS = join(tmpdir(), 'svc-checkout-hosted-page');

/** The labels of the submit buttons a customer sees. */
async function visibleSubmitButtons(page: Page): Promise<string[]> {
  const labels: string[] = [];
  for (const button of await page.locator('button[type="submit"]').all()) {
    if (await button.isVisible()) labels.push(((await button.textContent()) ?? '').trim());
  }
  return labels;
}

describe('sandbox v1 hosted checkout page in Chromium', () => {
  const env = withHostedPageBrowser();
  const { createPurchase, axeViolations, cspViolations } = env;
  const open = (url: string, options?: BrowserContextOptions) => env.open(url, options);

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
    states.push([
      'not found',
      await open(`${env.sandbox.url}/checkout/00000000-0000-4000-8000-000000000000/`),
    ]);

    for (const [state, page] of states) {
      assert.deepEqual(await axeViolations(page), [], state);
      await page.close();
    }
    assert.deepEqual(cspViolations, []);
  });

  test('a returning customer pays with the saved card by keyboard alone; that page passes axe', async () => {
    const stored = await v1(env.sandbox, 'POST', '/clients/', { body: { email: 'back@example.com' } });
    const first = await createPurchase({ client_id: stored.body.id, force_recurring: true });
    await postForm(env.sandbox, `/checkout/${first.id}/pay`, cardForm('4111111111111111'));
    const purchase = await createPurchase({ client_id: stored.body.id });
    const page = await open(purchase.checkout_url);
    assert.deepEqual(await axeViolations(page), [], 'the form with a saved card');
    assert.equal(await page.isChecked(`input[value="saved:${first.id}"]`), true);
    for (let presses = 0; presses < 40; presses++) {
      if (await page.evaluate('document.activeElement?.classList.contains("pay")')) break;
      await page.keyboard.press('Tab');
    }
    await Promise.all([page.waitForURL(`${env.merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(env.sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('a customer pays with a card by keyboard alone and lands on the success redirect', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    await typeCardByKeyboard(page, '4111 1111 1111 1111');
    await Promise.all([page.waitForURL(`${env.merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(env.sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
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
    await Promise.all([page.waitForURL(`${env.merchant.url}/ok`), page.keyboard.press('Enter')]);
    const paid = (await v1(env.sandbox, 'GET', `/purchases/${purchase.id}/`)).body;
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
    await typeCardByKeyboard(page, '4111 1111 1111 1111');
    await Promise.all([page.waitForURL(`${env.merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(env.sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('on a 390 px phone the card form starts above the fold, with or without preferred', async () => {
    const purchase = await createPurchase({ client: { email: 'a@example.com', country: 'LV' } });
    for (const query of ['', '?preferred=visa']) {
      const page = await open(`${purchase.checkout_url}${query}`, { viewport: { width: 390, height: 844 } });
      const box = await page.locator('#card_number').boundingBox();
      assert.ok(box && box.y + box.height <= 844, `${query || 'no preferred'}: the card number at ${box?.y}`);
      const width = await page.evaluate('document.documentElement.scrollWidth');
      assert.equal(width, 390, 'nothing scrolls sideways');
      await page.screenshot({ path: `${SCREENSHOTS}/phone${query ? '-preferred' : ''}.png`, fullPage: true });
      await page.close();
    }
  });

  test('a due_strict purchase states its deadline; a form the server finds late comes back expired with what can be kept', async () => {
    const soon = await createPurchase({
      due: Math.floor(Date.now() / 1000) + 600,
      purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'lv', due_strict: true },
    });
    const page = await open(soon.checkout_url);
    assert.match((await page.textContent('#due-note')) ?? '', /^Samaksājiet līdz \d\d:\d\d/);
    assert.deepEqual(await axeViolations(page), [], 'the deadline stated');
    await fillCard(page, '4111 1111 1111 1111');
    // The sandbox's time passes the deadline after the page counted its time left, so the page's own check
    // lets the form go and the server's refuses it (the page's check: checkout-card-form.test.ts). Last in
    // this suite: the clock does not go back.
    await advanceClock(env.sandbox, 601_000);
    await page.click('button.pay');
    await page.waitForSelector('#expired-title');
    assert.equal(await page.inputValue('#card_holder'), 'Anna Tester');
    assert.equal(await page.inputValue('#card_expiry'), `${EXPIRY.slice(0, 2)}/${EXPIRY.slice(2)}`);
    assert.equal(await page.inputValue('#card_number'), '');
    assert.deepEqual(await axeViolations(page), [], 'the late form, expired');
    await page.close();
  });
});
