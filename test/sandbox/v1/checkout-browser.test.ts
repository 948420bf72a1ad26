/**
 * The hosted checkout page in real Chromium: every state passes axe, a customer pays by keyboard alone with a
 * card and with a preselected bank, and the redirect to the merchant passes the page's own
 * Content-Security-Policy (a form's redirect counts as its action). Focus rings, forced colours, reflow and
 * the rest of the raised accessibility check: checkout-accessibility.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { EXPIRY, fillCard, tabTo, withHostedPageBrowser } from './hosted-page-browser.js';
import { cardForm, postForm, v1 } from './support.js';

describe('sandbox v1 hosted checkout page in Chromium', () => {
  const env = withHostedPageBrowser();
  const { createPurchase, axeViolations, cspViolations } = env;
  const open = (url: string) => env.open(url);

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
    await tabTo(page, 'card_number');
    await page.keyboard.type('4111 1111 1111 1111');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EXPIRY);
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.id'), 'card_cvc');
    await page.keyboard.type('123');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Anna Tester');
    await Promise.all([page.waitForURL(`${env.merchant.url}/ok`), page.keyboard.press('Enter')]);
    assert.equal((await v1(env.sandbox, 'GET', `/purchases/${purchase.id}/`)).body.status, 'paid');
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('with a bank preselected, the keyboard goes from the pay button to the bank step and back to the shop', async () => {
    const purchase = await createPurchase();
    const page = await open(`${purchase.checkout_url}?preferred=seb_lt_pis`);
    assert.equal(await page.isChecked('#method-seb_lt_pis'), true);
    await tabTo(page, 'method-seb_lt_pis');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.isChecked('#method-luminor_lt_pis'), true);
    await page.keyboard.press('ArrowUp');
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
});
