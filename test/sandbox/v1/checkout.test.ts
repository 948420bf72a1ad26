import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import type { FakeMerchant, ReceivedRequest } from '../support.js';
import { cardForm, postForm, purchaseBody, signedBy, v1, withV1Sandbox } from './support.js';

const CALLBACK_PATH = '/v1/callback';
const REDIRECTS = {
  success_redirect: 'https://shop.example/ok',
  failure_redirect: 'https://shop.example/failed',
  cancel_redirect: 'https://shop.example/cart',
};

describe('sandbox v1 hosted checkout page', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let publicKeyPem: string;

  before(async () => {
    ({ merchant, sandbox } = fixture);
    publicKeyPem = (await v1(sandbox, 'GET', '/public_key/')).body;
  });

  /** Creates a purchase of 25.00 EUR in English with a callback to the fake merchant. */
  async function createPurchase(overrides: Record<string, unknown> = {}) {
    const created = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        success_callback: `${merchant.url}${CALLBACK_PATH}`,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' },
        ...overrides,
      }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { id: string; checkout_url: string; [member: string]: unknown };
  }

  async function page(url: string) {
    const response = await fetch(url, { redirect: 'manual' });
    return { status: response.status, headers: response.headers, html: await response.text() };
  }

  const post = (path: string, form: Record<string, string>) => postForm(sandbox, path, form);
  const pay = (id: string, form: Record<string, string>) => post(`/checkout/${id}/pay`, form);
  const read = async (id: string) => (await v1(sandbox, 'GET', `/purchases/${id}/`)).body;
  const callbacks = (id: string) =>
    merchant.requests(CALLBACK_PATH).filter((request) => JSON.parse(request.body).id === id);
  const checked = (html: string) =>
    [...html.matchAll(/<input type="radio" id="([^"]+)"[^>]* checked/g)].map((m) => m[1]);
  const radios = (html: string) =>
    [...html.matchAll(/<input type="radio" id="method-([^"]+)"/g)].map((m) => m[1]);

  /** Resolves once `count` callbacks of this purchase arrived (or fails after 5 s). */
  async function waitForCallbacks(id: string, count: number): Promise<void> {
    const deadline = Date.now() + 5000;
    while (callbacks(id).length < count) {
      assert.ok(Date.now() < deadline, `expected ${count} callbacks of ${id}, got ${callbacks(id).length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** X-Signature verifies with the company key, and not once the body is changed. */
  function assertSigned(request: ReceivedRequest): void {
    assert.ok(signedBy(request, publicKeyPem), 'X-Signature verifies');
    assert.equal(signedBy(request, publicKeyPem, request.body.replace('"paid"', '"error"')), false);
  }

  test('serves the form under a strict policy, with every method the purchase allows', async () => {
    const purchase = await createPurchase(REDIRECTS);
    const answer = await page(purchase.checkout_url);
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'text/html; charset=utf-8');
    const policy = answer.headers.get('content-security-policy') ?? '';
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /form-action 'self' https:\/\/shop\.example(;|$)/);
    assert.match(policy, /frame-ancestors 'none'/);
    // No style attribute (the schemes' marks have SVG presentation attributes such as `font-style`).
    assert.doesNotMatch(answer.html, /\sstyle="/);
    // Nothing inline: a built card form script is its one script, allowed by its exact address.
    const scripts = answer.html.match(/<script[^>]*>/g) ?? [];
    const allowed = /script-src (\S+?)(;|$)/.exec(policy)?.[1];
    for (const script of scripts) {
      const src = /^<script type="module" src="([^"]+)">$/.exec(script)?.[1];
      assert.ok(
        script === '<script type="application/json" id="card-form-data">' || (src && allowed?.endsWith(src)),
        `${script} under ${policy}`,
      );
    }
    assert.match(answer.html, /^<!doctype html><html lang="en">/);
    assert.match(answer.html, /<h1>Payment to Test Merchant<\/h1>/);
    assert.match(answer.html, /Pay €25\.00/);
    assert.deepEqual(radios(answer.html), [
      'card',
      'swedbank_ee_pis',
      'seb_ee_pis',
      'lhv_ee_pis',
      'swedbank_lt_pis',
      'seb_lt_pis',
      'luminor_lt_pis',
      'swedbank_lv_pis',
      'seb_lv_pis',
      'citadele_lv_pis',
      'svc_wallet_a',
      'svc_wallet_b',
    ]);
    assert.deepEqual(checked(answer.html), ['method-card']);
    for (const [name, autocomplete] of [
      ['card_number', 'cc-number'],
      ['card_expiry', 'cc-exp'],
      ['card_cvc', 'cc-csc'],
      ['card_holder', 'cc-name'],
    ]) {
      assert.match(
        answer.html,
        new RegExp(
          `<label for="${name}">[^<]+</label>(?:<div class="card-number">)?<input id="${name}" name="${name}"[^>]*autocomplete="${autocomplete}"`,
        ),
      );
    }
    assert.match(answer.html, /<a class="back" href="https:\/\/shop\.example\/cart">Back to the shop<\/a>/);
    const css = await fetch(`${sandbox.url}/checkout/assets/checkout.css`);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(await css.text(), /:focus-visible/);
  });

  test('?preferred= preselects an allowed method; the whitelist decides what is offered', async () => {
    const purchase = await createPurchase();
    assert.deepEqual(checked((await page(`${purchase.checkout_url}?preferred=swedbank_lv_pis`)).html), [
      'method-swedbank_lv_pis',
    ]);
    assert.deepEqual(checked((await page(`${purchase.checkout_url}?preferred=mastercard`)).html), [
      'method-card',
    ]);
    assert.deepEqual(checked((await page(`${purchase.checkout_url}?preferred=cash`)).html), ['method-card']);

    const limited = await createPurchase({ payment_method_whitelist: ['seb_lv_pis', 'svc_wallet_a'] });
    const limitedPage = (await page(`${limited.checkout_url}?preferred=visa`)).html;
    assert.deepEqual(radios(limitedPage), ['seb_lv_pis', 'svc_wallet_a']);
    assert.deepEqual(checked(limitedPage), ['method-seb_lv_pis']);
    assert.doesNotMatch(limitedPage, /card_number/);
    const refused = await pay(limited.id, cardForm('4111111111111111'));
    assert.equal(refused.status, 400);
    assert.match(refused.html, /role="alert"/);
    assert.match(refused.html, /Choose one of the payment methods offered/);
    const bankNotListed = await pay(limited.id, { method: 'swedbank_lv_pis' });
    assert.equal(bankNotListed.status, 400);
    assert.equal((await read(limited.id)).status, 'created');

    const visaOnly = await createPurchase({ payment_method_whitelist: ['visa'] });
    const mastercard = await pay(visaOnly.id, cardForm('5555555555554444'));
    assert.equal(mastercard.status, 400);
    assert.match(mastercard.html, /Accepted cards: Visa\./);
  });

  /** The radios before "Other ways to pay", and those behind it. */
  function layout(html: string): { shown: Array<string | undefined>; others: Array<string | undefined> } {
    const [before = '', behind = ''] = html.split('<details class="others">');
    return { shown: radios(before), others: radios(behind.split('</details>')[0] ?? '') };
  }

  test('?preferred= opens on that method alone, the others behind a disclosure; a bank says where it leads', async () => {
    const purchase = await createPurchase();
    const visa = (await page(`${purchase.checkout_url}?preferred=visa`)).html;
    assert.deepEqual(layout(visa).shown, ['card']);
    assert.equal(layout(visa).others.length, 11);
    assert.match(visa, /<details class="others"><summary>Other ways to pay<\/summary>/);
    assert.match(
      visa,
      /<div class="pay-card"><button type="submit" class="pay">Pay €25\.00<\/button><\/div>/,
    );
    assert.match(visa, /<div class="card-fields"><fieldset>/);

    const bank = (await page(`${purchase.checkout_url}?preferred=swedbank_lv_pis`)).html;
    assert.deepEqual(layout(bank).shown, ['swedbank_lv_pis']);
    assert.deepEqual(checked(bank), ['method-swedbank_lv_pis']);
    assert.ok(layout(bank).others.includes('card'), 'the card waits behind the disclosure');
    assert.match(
      bank,
      /<button type="submit" class="go" id="go-swedbank_lv_pis">Continue to Swedbank<\/button>/,
    );
    // Each bank and wallet has its button, which the stylesheet shows while that method is chosen.
    assert.match(bank, /id="go-svc_wallet_b">Continue to Mobile wallet B</);
    const css = await (await fetch(`${sandbox.url}/checkout/assets/checkout.css`)).text();
    assert.match(
      css,
      /form:has\(#method-swedbank_lv_pis:checked\) #go-swedbank_lv_pis \{ display: block; \}/,
    );
    assert.match(css, /form:not\(:has\(#method-card:checked\)\) \.card-fields \{ display: none; \}/);
    assert.match(
      css,
      /form:not\(:has\(#method-card:checked, input\[value\^="saved:"\]:checked\)\) \.pay-card/,
    );

    const latvian = await createPurchase({
      purchase: { products: [{ name: 'Tēja', price: 1250, quantity: 2 }], language: 'lv' },
    });
    const wallet = (await page(`${latvian.checkout_url}?preferred=svc_wallet_a`)).html;
    assert.match(wallet, /id="go-svc_wallet_a">Turpināt: Mobilais maks A</);
    assert.match(wallet, /<summary>Citi maksāšanas veidi<\/summary>/);
    const russian = await createPurchase({
      purchase: { products: [{ name: 'Чай', price: 1250, quantity: 2 }], language: 'ru' },
    });
    assert.match(
      (await page(`${russian.checkout_url}?preferred=seb_ee_pis`)).html,
      /id="go-seb_ee_pis">Продолжить: SEB</,
    );

    // A method the Purchase does not allow, or none: the full list.
    for (const query of ['?preferred=cash', '']) {
      const full = layout((await page(`${purchase.checkout_url}${query}`)).html);
      assert.deepEqual(full.shown, ['card'], query);
      assert.equal(full.others.length, 11, query);
    }
  });

  test('without ?preferred= the banks of the customer country stand beside the card, the rest behind', async () => {
    const latvian = await createPurchase({ client: { email: 'a@example.com', country: 'LV' } });
    assert.deepEqual(layout((await page(latvian.checkout_url)).html).shown, [
      'card',
      'swedbank_lv_pis',
      'seb_lv_pis',
      'citadele_lv_pis',
    ]);
    const lithuanian = await createPurchase({ client: { email: 'a@example.com', country: 'lt' } });
    assert.deepEqual(layout((await page(lithuanian.checkout_url)).html).shown, [
      'card',
      'swedbank_lt_pis',
      'seb_lt_pis',
      'luminor_lt_pis',
    ]);
    // A refused form comes back with its choice in sight, even a bank behind the disclosure.
    const refused = await pay(latvian.id, { method: 'seb_ee_pis', card_number: '' });
    assert.notEqual(refused.status, 400, 'a bank needs no card fields');
    const wrongCard = await pay(latvian.id, { ...cardForm('4111111111111112') });
    assert.equal(wrongCard.status, 400);
    assert.deepEqual(checked(wrongCard.html), ['method-card']);
  });

  test('a due_strict purchase states its deadline and time left in the page language, for scripts too', async () => {
    const due = Math.floor(Date.now() / 1000) + 14 * 60 + 30;
    const clock = (language: string) =>
      new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(
        new Date(due * 1000),
      );
    const expected = {
      en: `Pay by ${clock('en-IE')} (in 14 minutes). After that this payment can no longer be made.`,
      lv: `Samaksājiet līdz ${clock('lv-LV')} (pēc 14 minūtēm). Pēc tam šo maksājumu vairs nevarēs veikt.`,
      ru: `Оплатите до ${clock('ru-RU')} (через 14 минут). После этого оплатить заказ будет нельзя.`,
    };
    for (const [language, sentence] of Object.entries(expected)) {
      const strict = await createPurchase({
        due,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language, due_strict: true },
      });
      const { html } = await page(strict.checkout_url);
      assert.match(
        html,
        new RegExp(`<form method="post" action="/checkout/${strict.id}/pay" novalidate data-due="${due}">`),
      );
      assert.ok(
        html.includes(`<p class="due" id="due-note">${sentence}</p>`),
        `${language}: ${html.match(/id="due-note">[^<]*/)?.[0]}`,
      );
    }
    const lenient = await createPurchase({ due });
    const { html } = await page(lenient.checkout_url);
    assert.doesNotMatch(html, /data-due|due-note/);
  });

  test('a form sent past the strict deadline comes back expired with expiry and name kept, never the number', async () => {
    const expired = await createPurchase({
      due: Math.floor(Date.now() / 1000) - 1,
      purchase: { products: [{ name: 'Late', price: 100 }], language: 'en', due_strict: true },
    });
    const late = await pay(expired.id, {
      method: 'card',
      card_number: '4111 1111 1111 1111',
      card_expiry: '12/40',
      card_cvc: '123',
      card_holder: 'Anna Tester',
    });
    assert.equal(late.status, 410);
    assert.match(late.html, /<div class="alert" role="alert" aria-labelledby="expired-title">/);
    assert.match(late.html, /The time to pay this order ended at [^;]+; nothing was charged\./);
    assert.match(late.html, /<input id="card_expiry"[^>]* value="12\/40"/);
    assert.match(late.html, /<input id="card_holder"[^>]* value="Anna Tester"/);
    assert.doesNotMatch(late.html, /<input id="card_(number|cvc)"[^>]* value=/);
    assert.doesNotMatch(late.html, /<button type="submit"/);
    assert.equal((await read(expired.id)).status, 'expired');
  });

  test('summary lines show the unit price beside the line total', async () => {
    const purchase = await createPurchase({
      purchase: {
        products: [
          { name: 'Tea', price: 1250, quantity: 2 },
          { name: 'Cup', price: 800 },
        ],
        language: 'en',
      },
    });
    const { html } = await page(purchase.checkout_url);
    assert.match(
      html,
      /<li><span class="item"><span>Tea<\/span><span class="unit">2 × €12\.50 each<\/span><\/span><span class="line-total">€25\.00<\/span><\/li>/,
    );
    assert.match(
      html,
      /<li><span class="item"><span>Cup<\/span><\/span><span class="line-total">€8\.00<\/span><\/li>/,
    );
  });

  test('redirects written as IRIs are stored as URLs and followed after paying', async () => {
    const purchase = await createPurchase({
      success_redirect: 'https://shop.example/pasūtījums?vārds=ё',
      failure_redirect: 'https://магазин.рф/oшибка',
    });
    assert.equal(purchase['success_redirect'], 'https://shop.example/pas%C5%ABt%C4%ABjums?v%C4%81rds=%D1%91');
    assert.equal(
      purchase['failure_redirect'],
      'https://xn--80aairftm.xn--p1ai/o%D1%88%D0%B8%D0%B1%D0%BA%D0%B0',
    );
    const paid = await pay(purchase.id, cardForm('4111111111111111'));
    assert.equal(paid.status, 303);
    assert.equal(paid.location, purchase['success_redirect']);
  });

  test('redirects with control characters or spaces are refused at creation, naming the field', async () => {
    for (const [field, url] of [
      ['success_redirect', 'https://shop.example/ok\u0001'],
      ['failure_redirect', 'https://shop.example/a\nb'],
      ['cancel_redirect', 'https://shop.example/a b'],
      ['success_callback', 'https://shop.example/\u007f'],
    ] as const) {
      const refused = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody({ [field]: url }) });
      assert.equal(refused.status, 400, `${field} ${JSON.stringify(url)}`);
      assert.match(JSON.stringify(refused.body), new RegExp(field));
    }
  });

  test('a test card pays: redirect to success, the purchase paid, one signed callback', async () => {
    const purchase = await createPurchase(REDIRECTS);
    const paid = await pay(purchase.id, cardForm('4111 1111 1111 1111'));
    assert.equal(paid.status, 303);
    assert.equal(paid.location, REDIRECTS.success_redirect);
    const after = await read(purchase.id);
    assert.equal(after.status, 'paid');
    assert.equal(after.refundable_amount, 2500);
    assert.equal(after.refund_availability, 'all');
    assert.equal(after.is_recurring_token, false);
    assert.equal(after.transaction_data.attempts.length, 1);
    assert.equal(after.transaction_data.attempts[0].successful, true);
    assert.equal(after.transaction_data.attempts[0].payment_method, 'visa');
    assert.equal(after.transaction_data.attempts[0].error, null);
    assert.equal(after.transaction_data.attempts[0].type, 'execute');
    assert.equal(after.transaction_data.attempts[0].client_ip, '127.0.0.1', 'the customer’s address');
    assert.equal(after.transaction_data.extra.masked_pan, '411111******1111');
    assert.equal(after.transaction_data.extra.cardholder_name, 'Anna Tester');
    assert.equal(after.payment.amount, 2500);

    await waitForCallbacks(purchase.id, 1);
    const mine = callbacks(purchase.id);
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.method, 'POST');
    assert.match(String(mine[0]!.headers['content-type']), /^application\/json/);
    assertSigned(mine[0]!);
    const payload = JSON.parse(mine[0]!.body);
    assert.equal(payload.event_type, 'purchase.paid');
    // The payload is the Purchase when it was paid: what GET answers, plus event_type.
    const { event_type: _event, ...snapshot } = payload;
    assert.deepEqual(snapshot, after);

    // A second submission charges nothing and sends the customer to the same place.
    const again = await pay(purchase.id, cardForm('4111111111111111'));
    assert.equal(again.status, 303);
    assert.equal(again.location, REDIRECTS.success_redirect);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(callbacks(purchase.id).length, 1);
    assert.equal((await read(purchase.id)).transaction_data.attempts.length, 1);
    const statusPage = await page(purchase.checkout_url);
    assert.equal(statusPage.status, 200);
    assert.match(statusPage.html, /<h1>Payment successful<\/h1>/);

    const cancel = await v1(sandbox, 'POST', `/purchases/${purchase.id}/cancel/`);
    assert.equal(cancel.status, 400);
    assert.equal(cancel.body.__all__.code, 'purchase_cancel_error');
  });

  test('a double submit in flight at once charges once and sends one callback', async () => {
    const purchase = await createPurchase(REDIRECTS);
    // Both requests are in before either body is: each handler starts, then waits for its body.
    const body = new URLSearchParams(cardForm('4111111111111111')).toString();
    const slowPost = () =>
      new Promise<string | undefined>((resolve, reject) => {
        const request = httpRequest(
          new URL(`/checkout/${purchase.id}/pay`, sandbox.url),
          {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'content-length': Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            response.on('end', () => resolve(response.headers.location));
          },
        );
        request.on('error', reject);
        request.flushHeaders();
        setTimeout(() => request.end(body), 100);
      });
    const locations = await Promise.all([slowPost(), slowPost(), slowPost()]);
    assert.deepEqual(locations, Array(3).fill(REDIRECTS.success_redirect));
    assert.equal((await read(purchase.id)).transaction_data.attempts.length, 1);
    await waitForCallbacks(purchase.id, 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(callbacks(purchase.id).length, 1);
  });

  test('declines leave the purchase payable, with each attempt recorded newest first', async () => {
    const purchase = await createPurchase(REDIRECTS);
    const declined = await pay(purchase.id, cardForm('4000000000000002'));
    assert.equal(declined.status, 303);
    assert.equal(declined.location, REDIRECTS.failure_redirect);
    let now = await read(purchase.id);
    assert.equal(now.status, 'error');
    assert.deepEqual(now.transaction_data.attempts[0].error, {
      code: 'card_declined',
      message: 'The card was declined',
    });
    assert.equal((await pay(purchase.id, cardForm('4000000000009995'))).location, REDIRECTS.failure_redirect);
    assert.equal((await pay(purchase.id, cardForm('5555555555554444'))).location, REDIRECTS.success_redirect);
    now = await read(purchase.id);
    assert.equal(now.status, 'paid');
    assert.deepEqual(
      now.transaction_data.attempts.map((attempt: { payment_method: string; error?: { code: string } }) => [
        attempt.payment_method,
        attempt.error?.code ?? 'ok',
      ]),
      [
        ['mastercard', 'ok'],
        ['visa', 'insufficient_funds'],
        ['visa', 'card_declined'],
      ],
    );
  });

  test('without redirects the page shows the failure, the retryable error and the success itself', async () => {
    const purchase = await createPurchase();
    const declined = await pay(purchase.id, cardForm('4000000000000002'));
    assert.equal(declined.status, 200);
    assert.match(
      declined.html,
      /<div class="alert" role="alert" aria-labelledby="failure-title"><h2 id="failure-title">Payment failed<\/h2><p>The card was declined; use another card or contact your bank\.<\/p>/,
    );
    const processing = await pay(purchase.id, cardForm('4000000000000119'));
    assert.equal(processing.status, 200);
    assert.match(processing.html, /The payment could not be processed; please try again\./);
    assert.equal((await read(purchase.id)).status, 'error');
    const paid = await pay(purchase.id, cardForm('4111111111111111'));
    assert.equal(paid.status, 200);
    assert.match(
      paid.html,
      /<h1>Payment successful<\/h1><p>Thank you! Your payment of €25\.00 has been received\.<\/p>/,
    );
  });

  test('3-D Secure: the test challenge approves or fails the payment', async () => {
    const purchase = await createPurchase(REDIRECTS);
    const challenged = await pay(purchase.id, cardForm('4000000000003220'));
    assert.equal(challenged.status, 303);
    const stepPath = challenged.location!;
    assert.match(stepPath, new RegExp(`^/checkout/${purchase.id}/steps/[0-9a-f-]{36}$`));
    const step = await page(new URL(stepPath, sandbox.url).href);
    assert.equal(step.status, 200);
    assert.match(step.html, /<h1>3-D Secure verification<\/h1>/);
    assert.match(
      step.html,
      /<button type="submit" class="approve" name="decision" value="approve">Approve payment<\/button>/,
    );
    const denied = await post(stepPath, { decision: 'decline' });
    assert.equal(denied.location, REDIRECTS.failure_redirect);
    assert.equal((await read(purchase.id)).transaction_data.attempts[0].error.code, 'authentication_failed');
    // The answered step is closed: its page leads back to the form.
    assert.equal((await page(new URL(stepPath, sandbox.url).href)).status, 303);

    const second = await pay(purchase.id, cardForm('4000000000003220'));
    const approved = await post(second.location!, { decision: 'approve' });
    assert.equal(approved.location, REDIRECTS.success_redirect);
    assert.equal((await read(purchase.id)).status, 'paid');
    await waitForCallbacks(purchase.id, 1);
  });

  test('the 3-D Secure step of a skip_capture purchase approves a hold, with the merchant and amount', async () => {
    const expected = {
      en: ['Approve hold', 'Decline hold'],
      lv: ['Apstiprināt rezervāciju', 'Noraidīt rezervāciju'],
      ru: ['Подтвердить резервирование', 'Отклонить резервирование'],
    };
    for (const [language, [label, decline]] of Object.entries(expected)) {
      const held = await createPurchase({
        skip_capture: true,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language },
      });
      const challenged = await pay(held.id, cardForm('4000000000003220'));
      const step = await page(new URL(challenged.location!, sandbox.url).href);
      assert.ok(
        step.html.includes(
          `<button type="submit" class="approve" name="decision" value="approve" aria-describedby="hold-note">${label}</button>`,
        ),
        language,
      );
      assert.ok(step.html.includes(`value="decline">${decline}</button>`), language);
      assert.match(step.html, /<p class="note" id="hold-note">[^<]+<\/p>/);
      assert.match(
        step.html,
        /<p class="total"><span>Test Merchant<\/span><span>(€25\.00|25,00\u00a0€)<\/span><\/p>/,
      );
    }
  });

  test('a card saved without a charge says saving on its form, its 3-D Secure step and its status page', async () => {
    const expected = {
      en: {
        heading: 'Save a card for Test Merchant',
        note: 'Your card will be saved for later payments to the shop; nothing is charged now.',
        button: 'Save card',
        approve: 'Approve saving the card',
        decline: 'Decline saving the card',
        title: 'Card saved',
      },
      lv: {
        heading: 'Kartes saglabāšana: Test Merchant',
        note: 'Jūsu karte tiks saglabāta veikala turpmākajiem maksājumiem; tagad nauda netiks iekasēta.',
        button: 'Saglabāt karti',
        approve: 'Apstiprināt kartes saglabāšanu',
        decline: 'Noraidīt kartes saglabāšanu',
        title: 'Karte saglabāta',
      },
      ru: {
        heading: 'Сохранение карты: Test Merchant',
        note: 'Ваша карта будет сохранена для последующих платежей магазину; сейчас деньги не списываются.',
        button: 'Сохранить карту',
        approve: 'Подтвердить сохранение карты',
        decline: 'Отклонить сохранение карты',
        title: 'Карта сохранена',
      },
    };
    for (const [language, texts] of Object.entries(expected)) {
      const saving = await createPurchase({
        skip_capture: true,
        purchase: { products: [{ name: 'Card check', price: 0 }], language },
      });
      const form = await page(saving.checkout_url);
      assert.ok(form.html.includes(`<h1>${texts.heading}</h1>`), `${language}: the form's title`);
      assert.ok(
        form.html.includes(`<p class="note" id="save-note">${texts.note}</p>`),
        `${language}: form note`,
      );
      assert.ok(
        form.html.includes(
          `<button type="submit" class="pay" aria-describedby="save-note">${texts.button}</button>`,
        ),
        `${language}: the form's button says it saves`,
      );

      const challenged = await pay(saving.id, cardForm('4000000000003220'));
      const step = await page(new URL(challenged.location!, sandbox.url).href);
      assert.ok(
        step.html.includes(`<p class="note" id="save-note">${texts.note}</p>`),
        `${language}: step note`,
      );
      assert.ok(
        step.html.includes(
          `<button type="submit" class="approve" name="decision" value="approve" aria-describedby="save-note">${texts.approve}</button>`,
        ),
        `${language}: ${step.html.match(/<form.*<\/form>/)?.[0]}`,
      );
      assert.ok(step.html.includes(`value="decline">${texts.decline}</button>`), language);
      assert.doesNotMatch(step.html, /Approve payment|Apstiprināt maksājumu|Подтвердить платёж/);

      await post(challenged.location!, { decision: 'approve' });
      assert.equal((await read(saving.id)).status, 'preauthorized');
      const saved = await page(saving.checkout_url);
      assert.ok(saved.html.includes(`<h1>${texts.title}</h1>`), `${language}: the status page's title`);
    }
  });

  test('bank and wallet methods are confirmed on a test step', async () => {
    const bank = await createPurchase(REDIRECTS);
    const started = await pay(bank.id, { method: 'swedbank_lv_pis' });
    assert.equal(started.status, 303);
    const step = await page(new URL(started.location!, sandbox.url).href);
    assert.match(step.html, /<h1>Swedbank: confirm the payment<\/h1>/);
    const approved = await post(started.location!, { decision: 'approve' });
    assert.equal(approved.location, REDIRECTS.success_redirect);
    const paid = await read(bank.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.refund_availability, 'pis_all');
    assert.equal(paid.transaction_data.attempts[0].payment_method, 'swedbank_lv_pis');
    assert.doesNotMatch(step.html, /class="creditors"/, 'a plain bank payment pays the merchant');
    assert.equal(paid.transaction_data.attempts[0].creditor, undefined);

    const wallet = await createPurchase();
    const walletStep = await pay(wallet.id, { method: 'svc_wallet_b' });
    const declined = await post(walletStep.location!, { decision: 'decline' });
    assert.equal(declined.status, 200);
    assert.match(declined.html, /The wallet did not confirm the payment\./);
    const failed = await read(wallet.id);
    assert.equal(failed.status, 'error');
    assert.deepEqual(failed.transaction_data.attempts[0].error, {
      code: 'wallet_declined',
      message: 'The wallet did not confirm the payment',
    });
  });

  test('a bulk bank payment: the step lists each creditor with its product amount, approval pays them all', async () => {
    const bulk = await createPurchase({
      ...REDIRECTS,
      purchase: {
        language: 'en',
        products: [
          { name: 'Rent', price: 50000 },
          { name: 'Utilities', price: 3500, quantity: 2 },
          { name: 'Parking', price: 1999 },
        ],
        payment_method_details: {
          pis_bulk_purchase: [
            { creditor_name: 'Sandbox Creditor LV', creditor_iban: 'LV80BANK0000435195001' },
            { creditor_name: 'Sandbox Creditor EE', creditor_iban: 'EE382200221020145685' },
            { creditor_name: 'Parking <Ltd>', creditor_iban: 'LV80BANK0000435195001' },
          ],
        },
      },
    });
    const started = await pay(bulk.id, { method: 'seb_lv_pis' });
    assert.equal(started.status, 303);
    const step = await page(new URL(started.location!, sandbox.url).href);
    assert.match(step.html, /<h1>SEB: confirm the payment<\/h1>/);
    assert.match(
      step.html,
      /<table class="creditors"><caption>With one confirmation you pay each of these recipients<\/caption><thead><tr><th scope="col">Recipient<\/th><th scope="col">IBAN<\/th><th scope="col">Amount<\/th><\/tr><\/thead>/,
    );
    const rows = [
      ...step.html.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g),
    ];
    assert.deepEqual(
      rows.map((row) => row.slice(1)),
      [
        ['Sandbox Creditor LV', 'LV80 BANK 0000 4351 9500 1', '€500.00'],
        ['Sandbox Creditor EE', 'EE38 2200 2210 2014 5685', '€70.00'],
        ['Parking &#60;Ltd&#62;', 'LV80 BANK 0000 4351 9500 1', '€19.99'],
      ],
    );
    assert.match(step.html, /<p class="total"><span>Test Merchant<\/span><span>€589.99<\/span><\/p>/);

    const approved = await post(started.location!, { decision: 'approve' });
    assert.equal(approved.location, REDIRECTS.success_redirect);
    const paid = await read(bulk.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.refundable_amount, 58999);
    // One successful payment per creditor, in the creditors' order, and nothing else.
    assert.deepEqual(
      paid.transaction_data.attempts.map(
        (attempt: { successful: boolean; payment_method: string; creditor: unknown; amount: number }) => [
          attempt.successful,
          attempt.payment_method,
          attempt.creditor,
          attempt.amount,
        ],
      ),
      [
        [true, 'seb_lv_pis', { name: 'Sandbox Creditor LV', iban: 'LV80BANK0000435195001' }, 50000],
        [true, 'seb_lv_pis', { name: 'Sandbox Creditor EE', iban: 'EE382200221020145685' }, 7000],
        [true, 'seb_lv_pis', { name: 'Parking <Ltd>', iban: 'LV80BANK0000435195001' }, 1999],
      ],
    );
    // The success callback carries the same record, once.
    await waitForCallbacks(bulk.id, 1);
    const [callback] = callbacks(bulk.id);
    assert.deepEqual(JSON.parse(callback!.body).transaction_data, paid.transaction_data);

    // A declined step pays no creditor: one failed attempt, the purchase still payable.
    const declinedBulk = await createPurchase({
      purchase: {
        products: [{ name: 'Rent', price: 50000 }],
        payment_method_details: {
          pis_bulk_purchase: [
            { creditor_name: 'Sandbox Creditor LT', creditor_iban: 'LT121000011101001000' },
          ],
        },
      },
    });
    const declineStep = await pay(declinedBulk.id, { method: 'swedbank_lt_pis' });
    await post(declineStep.location!, { decision: 'decline' });
    const failed = await read(declinedBulk.id);
    assert.equal(failed.status, 'error');
    assert.equal(failed.transaction_data.attempts.length, 1);
    assert.equal(failed.transaction_data.attempts[0].error.code, 'bank_declined');
    assert.equal(failed.transaction_data.attempts[0].creditor, undefined);
  });

  test('a variable creditor: the step names the creditor the payment goes to, in the page language', async () => {
    const creditor = { name: 'Sandbox Creditor LT', iban: 'LT121000011101001000' };
    const variable = (language: string) =>
      createPurchase({
        purchase: {
          language,
          products: [{ name: 'Rēķins 7', price: 1250, quantity: 2 }],
          payment_method_details: { pis_purchase: { creditor } },
        },
      });
    const latvian = await variable('lv');
    const started = await pay(latvian.id, { method: 'luminor_lt_pis' });
    const step = await page(new URL(started.location!, sandbox.url).href);
    assert.match(
      step.html,
      /<caption>Jūs maksājat šim saņēmējam<\/caption><thead><tr><th scope="col">Saņēmējs<\/th><th scope="col">IBAN<\/th><th scope="col">Summa<\/th>/,
    );
    assert.match(
      step.html,
      /<tr><th scope="row">Sandbox Creditor LT<\/th><td>LT12 1000 0111 0100 1000<\/td><td>25,00\s€<\/td><\/tr><\/tbody><\/table>/,
    );
    const russian = await variable('ru');
    const russianStep = await pay(russian.id, { method: 'luminor_lt_pis' });
    assert.match(
      (await page(new URL(russianStep.location!, sandbox.url).href)).html,
      /<caption>Вы платите этому получателю<\/caption><thead><tr><th scope="col">Получатель<\/th><th scope="col">IBAN<\/th><th scope="col">Сумма<\/th>/,
    );

    await post(started.location!, { decision: 'approve' });
    const paid = await read(latvian.id);
    assert.equal(paid.status, 'paid');
    assert.deepEqual(
      paid.transaction_data.attempts.map((attempt: { creditor: unknown; amount: number }) => [
        attempt.creditor,
        attempt.amount,
      ]),
      [[creditor, 2500]],
    );
  });

  test('field errors: an alert linking each field, aria-invalid, and card values never echoed', async () => {
    const purchase = await createPurchase();
    const wrong = await pay(purchase.id, {
      method: 'card',
      card_number: '4111 1111 1111 1112',
      card_expiry: '13/40',
      card_cvc: '',
      card_holder: ' ',
    });
    assert.equal(wrong.status, 400);
    assert.match(wrong.html, /<div class="alert" role="alert" aria-labelledby="errors-title">/);
    for (const field of ['card_number', 'card_expiry', 'card_cvc', 'card_holder']) {
      assert.match(wrong.html, new RegExp(`<li><a href="#${field}">`), field);
      assert.match(
        wrong.html,
        new RegExp(`<input id="${field}"[^>]*aria-describedby="[^"]*${field}-error"[^>]*aria-invalid="true"`),
        field,
      );
      assert.match(wrong.html, new RegExp(`<p class="field-error" id="${field}-error">`), field);
    }
    assert.match(wrong.html, /<input id="card_number"[^>]*autofocus>/);
    assert.doesNotMatch(wrong.html, /4111 1111 1111 1112|4111111111111112/);
    assert.match(wrong.html, /value="13\/40"/);

    const notTest = await pay(purchase.id, cardForm('4242424242424242'));
    assert.equal(notTest.status, 400);
    assert.match(notTest.html, /it takes test cards only/);
    assert.equal((await read(purchase.id)).transaction_data.attempts.length, 0);
  });

  test('skip_capture holds without a callback; force_recurring makes a recurring token', async () => {
    const held = await createPurchase({ skip_capture: true });
    const answer = await pay(held.id, cardForm('4111111111111111'));
    assert.equal(answer.status, 200);
    assert.match(answer.html, /Thank you! €25\.00 has been reserved\./);
    const purchase = await read(held.id);
    assert.equal(purchase.status, 'hold');
    assert.equal(purchase.refundable_amount, 0);

    const token = await createPurchase({ force_recurring: true });
    await pay(token.id, cardForm('5555555555554444'));
    assert.equal((await read(token.id)).is_recurring_token, true);
    await waitForCallbacks(token.id, 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(callbacks(held.id).length, 0);
    assert.equal(callbacks(token.id).length, 1);
  });

  test('a skip_capture purchase says in each language that its button holds the amount, not charges it', async () => {
    const pays = await page((await createPurchase()).checkout_url);
    assert.match(pays.html, /<button type="submit" class="pay">Pay €25\.00<\/button>/);
    assert.doesNotMatch(pays.html, /reserved/);

    const expected = {
      en: [
        'Hold €25.00',
        '€25.00 will be reserved, not charged. The shop charges it later or releases the hold.',
      ],
      lv: [
        'Rezervēt 25,00\u00a0€',
        'Summa 25,00\u00a0€ tiks rezervēta, taču netiks iekasēta. Veikals to iekasēs vēlāk vai atcels rezervāciju.',
      ],
      ru: [
        'Зарезервировать 25,00\u00a0€',
        'Сумма 25,00\u00a0€ будет зарезервирована, но не списана. Магазин спишет её позже или снимет резерв.',
      ],
    };
    for (const [language, [button, note]] of Object.entries(expected)) {
      const held = await createPurchase({
        skip_capture: true,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language },
      });
      const { html } = await page(held.checkout_url);
      assert.ok(
        html.includes(`<p class="note" id="hold-note">${note}</p>`),
        `${language}: the note says the amount is reserved`,
      );
      assert.ok(
        html.includes(`<button type="submit" class="pay" aria-describedby="hold-note">${button}</button>`),
        `${language}: the button says it holds`,
      );
    }
  });

  test('a purchase past its strict due time, or cancelled, takes no payment', async () => {
    const expired = await createPurchase({
      due: Math.floor(Date.now() / 1000) - 1,
      purchase: { products: [{ name: 'Late', price: 100 }], language: 'en', due_strict: true },
      cancel_redirect: REDIRECTS.cancel_redirect,
    });
    const expiredPage = await page(expired.checkout_url);
    assert.equal(expiredPage.status, 410);
    assert.match(expiredPage.html, /<h1>Payment expired<\/h1>/);
    assert.match(expiredPage.html, /href="https:\/\/shop\.example\/cart"/);
    const refused = await pay(expired.id, cardForm('4111111111111111'));
    assert.equal(refused.status, 410);
    assert.match(refused.html, /<h2 id="expired-title">Payment expired<\/h2>/);
    const after = await read(expired.id);
    assert.equal(after.status, 'expired');
    assert.deepEqual(after.transaction_data.attempts, []);

    const cancelled = await createPurchase();
    await v1(sandbox, 'POST', `/purchases/${cancelled.id}/cancel/`);
    assert.equal((await page(cancelled.checkout_url)).status, 410);
    assert.equal((await pay(cancelled.id, cardForm('4111111111111111'))).status, 303);
    assert.equal((await read(cancelled.id)).status, 'cancelled');

    const missing = await page(`${sandbox.url}/checkout/00000000-0000-4000-8000-000000000000/`);
    assert.equal(missing.status, 404);
    assert.match(missing.html, /<h1>Payment not found<\/h1>/);
  });

  test('the page of an expired due_strict purchase says when its time ended, with the link back to the shop', async () => {
    const due = Math.floor(Date.now() / 1000) - 5 * 60;
    const when = (locale: string) =>
      new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }).format(
        new Date(due * 1000),
      );
    const expected = {
      en: `This order could be paid until ${when('en-GB')}; nothing was charged. Go back to the shop to start again.`,
      lv: `Šo pasūtījumu varēja apmaksāt līdz ${when('lv-LV')}; nauda netika iekasēta. Atgriezieties veikalā un sāciet no jauna.`,
      ru: `Оплатить этот заказ можно было до ${when('ru-RU')}; деньги не списаны. Вернитесь в магазин и начните заново.`,
    };
    for (const [language, sentence] of Object.entries(expected)) {
      const expired = await createPurchase({
        due,
        purchase: { products: [{ name: 'Late', price: 100 }], language, due_strict: true },
        cancel_redirect: REDIRECTS.cancel_redirect,
      });
      const { status, html } = await page(expired.checkout_url);
      assert.equal(status, 410);
      assert.ok(html.includes(`<p>${sentence}</p>`), `${language}: ${html.match(/<\/h1><p>[^<]*/)?.[0]}`);
      assert.ok(
        html.includes(`<a class="back" href="${REDIRECTS.cancel_redirect}">`),
        `${language}: the link back to the shop`,
      );
    }
    // A deadline long past also gets its date.
    const longAgo = Math.floor(Date.now() / 1000) - 3 * 86_400;
    const old = await createPurchase({
      due: longAgo,
      purchase: { products: [{ name: 'Late', price: 100 }], language: 'en', due_strict: true },
    });
    const date = new Intl.DateTimeFormat('en-GB', {
      day: 'numeric',
      month: 'long',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(new Date(longAgo * 1000));
    assert.ok((await page(old.checkout_url)).html.includes(`could be paid until ${date};`), date);
  });

  test('the page speaks the purchase language', async () => {
    const russian = await createPurchase({
      purchase: { products: [{ name: 'Чай', price: 500 }], language: 'ru' },
    });
    const html = (await page(russian.checkout_url)).html;
    assert.match(html, /<html lang="ru">/);
    assert.match(html, /<title>Оплата: Test Merchant<\/title>/);
    assert.match(html, /Оплатить 5,00/);
    const latvian = await createPurchase({
      purchase: { products: [{ name: 'Tēja', price: 500 }], language: 'lv' },
    });
    assert.match((await page(latvian.checkout_url)).html, /Maksāt 5,00/);
  });

  test('a callback the merchant refuses is retried with the same signed body', async () => {
    const path = '/v1/flaky-callback';
    let calls = 0;
    merchant.respond(path, () => ({ status: ++calls === 1 ? 500 : 204 }));
    const purchase = await createPurchase({ success_callback: `${merchant.url}${path}` });
    await pay(purchase.id, cardForm('4111111111111111'));
    const [first, second] = await merchant.waitFor(path, 2);
    assert.equal(first!.body, second!.body);
    assert.equal(first!.headers['x-signature'], second!.headers['x-signature']);
    assertSigned(second!);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(merchant.requests(path).length, 2);
  });
});
