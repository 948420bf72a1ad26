/**
 * The hosted checkout page's card form script in real Chromium (built by `npm run build:browser`): the
 * number formatted with the caret kept and the scheme's mark shown while typing, a wrong card refused in the
 * page (not sent, kept as typed, its errors shown and announced as the gateway shows them), by keyboard alone,
 * and a `due_strict` deadline counted on the sandbox clock, warned of before it runs out, and kept past it.
 * Each state passes axe and the page's policy. Beside them: the frame and this page share one card form code.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { builtFiles } from '../../../bench/bundle-sizes.js';
import { tabTo, withHostedPageBrowser } from './hosted-page-browser.js';
import { advanceClock, FUTURE_EXPIRY } from './support.js';

describe('the hosted page shares the frame card form code', () => {
  test('the page script and the frame import the same modules', async () => {
    const read = (path: string) => readFile(new URL(`../../../src/frame/${path}`, import.meta.url), 'utf8');
    const [page, frame, logos] = await Promise.all([
      read('hosted-card-form.ts'),
      read('card-fields.ts'),
      read('scheme-logos.ts'),
    ]);
    for (const shared of ['./card-formats.js', './card-checks.js', './caret.js']) {
      assert.ok(page.includes(`from '${shared}'`), `the page script imports ${shared}`);
      assert.ok(frame.includes(`from '${shared}'`), `the frame imports ${shared}`);
    }
    assert.ok(page.includes("from '../core/scheme-marks.js'"));
    assert.ok(logos.includes("from '../core/scheme-marks.js'"));
    // The page script is built on its own: no Lit, and a chunk of no other build.
    const built = builtFiles();
    const script = await readFile(`dist/browser/${built.get('checkout/checkout-card.js')}`, 'utf8');
    assert.doesNotMatch(script, /lit-html|LitElement|customElements/);
    assert.doesNotMatch(script, /^import /m);
  });
});

describe('the hosted page card form in Chromium', () => {
  const env = withHostedPageBrowser();
  const { createPurchase, axeViolations, cspViolations } = env;
  /** Card data posted anywhere, by URL: only the form's own post to /checkout/<id>/pay may carry it. */
  const posts: string[] = [];

  async function open(url: string, options: { fakeClock?: boolean } = {}): Promise<Page> {
    const page = await env.open(url, {}, async (page) => {
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url());
      });
      if (options.fakeClock) await page.clock.install();
    });
    // The script has run once its line that reads the scheme out is in the card's fieldset.
    await page.waitForSelector('fieldset [role="status"]', { state: 'attached' });
    return page;
  }

  const activeId = (page: Page) => page.evaluate<string | undefined>('document.activeElement?.id');
  const attribute = (page: Page, selector: string, name: string) => page.locator(selector).getAttribute(name);

  test('formats the number in groups, keeps the caret, and shows the scheme mark while typing', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    await page.click('#card_number');
    await page.keyboard.type('41111111');
    assert.equal(await page.inputValue('#card_number'), '4111 1111');
    assert.equal(await attribute(page, '.card-number > svg', 'role'), 'img');
    assert.equal(await attribute(page, '.card-number > svg', 'aria-label'), 'Visa');
    assert.equal(await page.textContent('fieldset [role="status"]'), 'Card type: Visa');
    assert.deepEqual(await axeViolations(page), []);

    // A digit typed inside the number: the groups move, the caret stays after the digit typed.
    await page.evaluate(`document.querySelector('#card_number').setSelectionRange(4, 4)`);
    await page.keyboard.type('2');
    assert.equal(await page.inputValue('#card_number'), '4111 2111 1');
    assert.equal(await page.evaluate('document.querySelector("#card_number").selectionStart'), 6);

    await page.fill('#card_number', '');
    await page.click('#card_number');
    await page.keyboard.type('5555555555554444');
    assert.equal(await page.inputValue('#card_number'), '5555 5555 5555 4444');
    assert.equal(await attribute(page, '.card-number > svg', 'aria-label'), 'Mastercard');
    await page.click('#card_expiry');
    await page.keyboard.type('1230');
    assert.equal(await page.inputValue('#card_expiry'), '12/30');

    // A scheme the Purchase does not take is refused from its first digits, and read out so.
    await page.fill('#card_number', '');
    await page.click('#card_number');
    await page.keyboard.type('3782');
    assert.equal(await attribute(page, '.card-number > svg', 'aria-label'), 'American Express');
    assert.match((await page.textContent('#card_number-error')) ?? '', /Accepted cards: Visa and Mastercard/);
    assert.match(
      (await page.textContent('fieldset [role="status"]')) ?? '',
      /American Express\. This card type/,
    );
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('before a digit the number shows the marks of the schemes taken, without script too, then the typed one alone', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    /** The marks in sight in the number's box, by their colour (Visa's blue, Mastercard's dark grey). */
    const shownMarks = () =>
      page.evaluate<string[]>(
        `[...document.querySelectorAll('.card-number svg')].filter((svg) => svg.checkVisibility()).map((svg) => svg.firstElementChild.getAttribute('fill'))`,
      );
    assert.deepEqual(await shownMarks(), ['#1a1f71', '#252525']);
    // Hidden from assistive technology: the number's hint names them once.
    assert.equal(await attribute(page, '.scheme-marks', 'aria-hidden'), 'true');
    assert.equal(await attribute(page, '#card_number', 'aria-describedby'), 'card_number-hint');
    assert.equal(await page.textContent('#card_number-hint'), 'Accepted cards: Visa and Mastercard');
    // The typed number does not run under the marks.
    const box = await page.locator('#card_number').boundingBox();
    const marks = await page.locator('.scheme-marks').boundingBox();
    const padding = await page.evaluate<number>(
      `parseFloat(getComputedStyle(document.querySelector('#card_number')).paddingRight)`,
    );
    assert.ok(box && marks && box.x + box.width - padding <= marks.x, 'the marks sit in the padding');
    assert.deepEqual(await axeViolations(page), []);

    await page.click('#card_number');
    await page.keyboard.type('5555');
    assert.deepEqual(await shownMarks(), ['#252525']);
    assert.equal(await attribute(page, '.card-number > svg', 'aria-label'), 'Mastercard');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    assert.deepEqual(await shownMarks(), ['#1a1f71', '#252525'], 'an emptied number shows them again');
    assert.equal(await page.locator('.card-number > svg').count(), 0);
    await page.close();

    // A Purchase that takes Visa alone shows its mark alone, in the server's HTML, so without script too.
    const visaOnly = await createPurchase({ payment_method_whitelist: ['visa'] });
    const noScript = await env.open(visaOnly.checkout_url, { javaScriptEnabled: false });
    assert.equal(await noScript.locator('.scheme-marks svg').count(), 1);
    assert.equal(await noScript.locator('.scheme-marks svg').isVisible(), true);
    assert.equal(await noScript.textContent('#card_number-hint'), 'Accepted cards: Visa');
    await noScript.close();
    assert.deepEqual(cspViolations, []);
  });

  test('a wrong card is not sent: its errors show and are announced, and what was typed stays', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    const postsBefore = posts.length;
    await page.fill('#card_number', '4111 1111 1111 1112');
    await page.fill('#card_expiry', '01/20');
    await page.fill('#card_cvc', '12');
    await page.fill('#card_holder', 'Anna Tester');
    await page.click('button.pay');
    await page.waitForSelector('[role="alert"]');
    assert.equal(posts.length, postsBefore, 'nothing was posted');

    // As the gateway shows errors: an alert with a link to each wrong field, the fields marked and described.
    assert.equal(await page.textContent('[role="alert"] h2'), 'Check the payment details');
    assert.deepEqual(
      await page.locator('[role="alert"] a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
      ['#card_number', '#card_expiry', '#card_cvc'],
    );
    assert.match((await page.textContent('#card_number-error')) ?? '', /check it for typos/);
    assert.equal(await attribute(page, '#card_number', 'aria-invalid'), 'true');
    assert.equal(
      await attribute(page, '#card_number', 'aria-describedby'),
      'card_number-hint card_number-error',
    );
    assert.equal(
      await attribute(page, '#card_expiry', 'aria-describedby'),
      'card_expiry-hint card_expiry-error',
    );
    assert.match((await page.textContent('#card_cvc-error')) ?? '', /3 digits/);
    assert.equal(await attribute(page, '#card_holder', 'aria-invalid'), null);
    assert.equal(await activeId(page), 'card_number', 'the first wrong field takes focus');
    // Everything typed stays, the number too.
    assert.equal(await page.inputValue('#card_number'), '4111 1111 1111 1112');
    assert.equal(await page.inputValue('#card_expiry'), '01/20');
    assert.equal(await page.inputValue('#card_cvc'), '12');
    assert.deepEqual(await axeViolations(page), []);

    // Fixing a field takes its error and its line in the alert away as it is typed.
    await page.fill('#card_number', '4111 1111 1111 1111');
    assert.equal(await page.locator('#card_number-error').count(), 0);
    assert.equal(await attribute(page, '#card_number', 'aria-invalid'), null);
    assert.equal(await page.locator('[role="alert"] a[href="#card_number"]').count(), 0);
    await page.fill('#card_expiry', FUTURE_EXPIRY);
    await page.fill('#card_cvc', '123');
    assert.equal(await page.locator('[role="alert"]').count(), 0);

    // The right card goes to the gateway, in the form's own post, and pays.
    await page.click('button.pay');
    await page.waitForURL(`${env.merchant.url}/ok`);
    assert.deepEqual(posts.slice(postsBefore), [`${env.sandbox.url}/checkout/${purchase.id}/pay`]);
    await page.close();
    assert.deepEqual(cspViolations, []);
  });

  test('a click on Pay straight from a wrong number is not lost to the error that leaving the field shows', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    await page.fill('#card_number', '4111 1111 1111 1112');
    // The mouse leaves the number for Pay: the number's error must not push Pay away before the release.
    await page.click('button.pay');
    await page.waitForSelector('[role="alert"]');
    assert.equal(await activeId(page), 'card_number', 'the first wrong field takes focus');
    assert.match((await page.textContent('#card_number-error')) ?? '', /check it for typos/);
    await page.close();
  });

  test('by keyboard alone: an error takes focus to its field, then the card pays', async () => {
    const purchase = await createPurchase();
    const page = await open(purchase.checkout_url);
    await tabTo(page, 'card_number');
    await page.keyboard.type('4111111111111111');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[role="alert"]');
    assert.equal(await activeId(page), 'card_expiry');
    assert.equal(await page.inputValue('#card_number'), '4111 1111 1111 1111');
    assert.deepEqual(await axeViolations(page), []);

    await page.keyboard.press('Backspace');
    await page.keyboard.type(FUTURE_EXPIRY.replace('/', ''));
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await tabTo(page, 'card_holder');
    await page.keyboard.type('Anna Tester');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${env.merchant.url}/ok`);
    await page.close();
  });

  test('the page allows its one script by its exact address, and never writes the number back', async () => {
    const purchase = await createPurchase();
    const answer = await fetch(purchase.checkout_url);
    const html = await answer.text();
    const src = /<script type="module" src="([^"]+)">/.exec(html)?.[1];
    assert.match(src ?? '', /^\/checkout\/scripts\/checkout-card-[\w-]+\.js$/);
    const policy = answer.headers.get('content-security-policy') ?? '';
    assert.match(policy, new RegExp(`script-src ${env.sandbox.url}${src}(;|$)`));
    assert.doesNotMatch(policy, /unsafe-inline/);
    const script = await fetch(`${env.sandbox.url}${src}`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal((await fetch(`${env.sandbox.url}/checkout/scripts/checkout.css`)).status, 404);

    // A browser without the script posts a wrong card: the gateway refuses it and does not show it again.
    const refused = await fetch(`${env.sandbox.url}/checkout/${purchase.id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        method: 'card',
        card_number: '4111 1111 1111 1112',
        card_expiry: FUTURE_EXPIRY,
        card_cvc: '123',
        card_holder: 'Anna Tester',
      }).toString(),
    });
    assert.equal(refused.status, 400);
    const refusedHtml = await refused.text();
    assert.match(refusedHtml, /check it for typos/);
    assert.doesNotMatch(refusedHtml, /4111 ?1111 ?1111 ?1112/);
  });

  test('due_strict: the time left shows, warnings come at 2 minutes and 30 seconds, and past it nothing is sent', async () => {
    const purchase = await createPurchase({
      due: Math.floor(Date.now() / 1000) + 3600,
      purchase: { products: [{ name: 'Tea', price: 1250 }], language: 'en', due_strict: true },
    });
    // The sandbox clock moves to 2 min 10 s before the deadline; the page counts on that clock.
    await advanceClock(env.sandbox, 3600_000 - 130_000);
    const page = await open(purchase.checkout_url, { fakeClock: true });
    assert.match((await page.textContent('#due-left')) ?? '', /^Time left to pay: 2:(0\d|1[0-1])$/);
    assert.equal(await page.textContent('.due-warning[role="status"]'), '');
    await page.fill('#card_number', '4111 1111 1111 1111');
    await page.fill('#card_expiry', FUTURE_EXPIRY);
    await page.fill('#card_cvc', '123');
    await page.fill('#card_holder', 'Anna Tester');

    await page.clock.runFor(12_000);
    assert.equal(
      await page.textContent('.due-warning[role="status"]'),
      '2 minutes left to pay. What you typed stays in the form.',
    );
    assert.deepEqual(await axeViolations(page), []);
    await page.clock.runFor(90_000);
    assert.equal(
      await page.textContent('.due-warning[role="status"]'),
      '30 seconds left to pay. What you typed stays in the form.',
    );
    await page.clock.runFor(35_000);
    assert.match((await page.textContent('#due-left')) ?? '', /0:00$/);
    assert.match((await page.textContent('.due-warning')) ?? '', /^The time to pay has run out/);

    const postsBefore = posts.length;
    await page.click('button.pay');
    await page.waitForSelector('[role="alert"]');
    assert.equal(posts.length, postsBefore, 'nothing was posted');
    assert.equal(await page.textContent('[role="alert"] h2'), 'The time to pay has run out');
    assert.equal(await page.getAttribute('[role="alert"] a.back', 'href'), `${env.merchant.url}/cart`);
    assert.equal(await page.inputValue('#card_number'), '4111 1111 1111 1111');
    assert.equal(await page.inputValue('#card_holder'), 'Anna Tester');
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
    assert.deepEqual(cspViolations, []);
  });
});
