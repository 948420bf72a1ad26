/**
 * The demo shop's back office for its v1 Purchases, end to end on the real sandbox: a customer reserves on
 * the gateway's hosted page, the staff capture half of it and refund the rest by keyboard alone, and the
 * shop receives each event once, as the page shows it, as the back end recorded it and as the gateway's
 * delivery log says. Then a saved card charged again (and one whose later charges decline), a release, mark
 * as paid, and the back end's routes over HTTP: what they refuse, and why.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { V1_BACK_OFFICE_CLIENT_PATHS, V1_BACK_OFFICE_PATHS } from '../../demo/merchant/v1-back-office.js';
import type { V1Order } from '../../demo/merchant/v1-event-log.js';
import { type CreatedPurchase, V1_PATHS } from '../../demo/merchant/v1-shop.js';
import { axeViolations } from './support/axe.js';
import { BackOfficePage } from './support/back-office-page.js';
import { backOfficeSession, demoInBrowser } from './support/demo-env.js';
import { request } from './support/merchant-server.js';
import { CARDS } from './support/shop-page.js';
import { payOnHostedPage, v1Demo } from './support/v1-demo.js';
import { V1CheckoutPage, V1ResultPage } from './support/v1-pages.js';

const env = demoInBrowser();
const { gateway, backEnd, newOrder, assertDeliveredOnce } = v1Demo(env);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const url = (path: string) => `${env.demo.shopUrl}${path}`;

/** The staff's session cookie: the back office's routes answer 401 without one. */
const session = () => backOfficeSession(env.demo);

/** A card that pays, and whose recurring token's later charges are declined (src/sandbox/test-cards.ts). */
const CHARGES_DECLINED = '4000000000000341';

/** `source event status deliveries` of each event the back end kept about a Purchase, in arrival order. */
function recorded(purchaseId: string): string[] {
  return backEnd()
    .events.filter((event) => event.purchaseId === purchaseId)
    .map((event) => `${event.source} ${event.eventType} ${event.status ?? '–'} ${event.deliveries}`);
}

/** The webhooks of `lines` in their order, and the success callbacks apart (their order against webhooks is open). */
function split(lines: string[]): { webhooks: string[]; callbacks: string[] } {
  return {
    webhooks: lines.filter((line) => line.startsWith('webhook ')),
    callbacks: lines.filter((line) => line.startsWith('success_callback ')),
  };
}

describe('the back office in the browser', () => {
  test('reserve on the hosted page, capture half in the back office, refund the rest: each event once', async () => {
    // The customer: a reservation, paid with a card on the gateway's page.
    const shop = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    let order: CreatedPurchase;
    try {
      await shop.page.getByRole('radio', { name: /^Reserve now/ }).check();
      order = await shop.startCheckout();
      assert.equal(order.mode, 'reserve');
      // A bank cannot hold money: the picker offers none.
      assert.equal(await shop.bankGroup.count(), 0);
      assert.deepEqual(await axeViolations(shop.page), [], 'the checkout page with its choice passes axe');
      await shop.cardChoice.check();
      const hosted = await shop.confirm();
      await hosted.payWithCard({ number: CARDS.visa });
      await shop.page.waitForURL(url(`/v1-success.html?reference=${order.reference}`));
      await new V1ResultPage(shop.page).waitForStatus(/is reserved: the amount is held on your card/);
    } finally {
      await shop.page.context().close();
    }
    const { reference, purchaseId } = order;
    assert.equal((await gateway().purchases.get(purchaseId)).skip_capture, true);

    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    try {
      await office.waitForStatus(reference, 'hold');
      assert.deepEqual(await office.facts(reference), {
        Status: 'hold',
        Amount: '34.90 EUR',
        Refundable: '0.00 EUR',
        'Saved card (recurring token)': 'no',
        How: 'Reservation (skip_capture)',
      });
      assert.deepEqual(await office.actions(reference), ['capture', 'release']);
      assert.deepEqual(await axeViolations(office.page), [], 'the back office with a hold passes axe');

      // More than is held: the gateway refuses, and the page says why, as the Purchase's newest attempt does.
      await office.act(reference, 'capture', '50.00');
      await office.waitForOutcome(
        new RegExp(
          `^The gateway refused to capture order ${reference}: The capture of 50.00 EUR is more than the 34.90 EUR held \\(amount_exceeds_authorisation\\)\\.$`,
        ),
        'error',
      );
      assert.equal(
        (await gateway().purchases.failureCause(purchaseId))?.code,
        'amount_exceeds_authorisation',
      );
      await office.waitForStatus(reference, 'hold');
      const captureField = office.order(reference).getByRole('textbox', { name: 'Amount to capture (EUR)' });
      assert.ok(await office.focused(captureField), 'the field keeps the focus, to be corrected');
      assert.deepEqual(await axeViolations(office.page), [], 'the back office with a refusal passes axe');

      // Half of it: 17.45 of 34.90.
      await office.act(reference, 'capture', '17.45');
      await office.waitForOutcome(
        new RegExp(`^Captured 17\\.45 EUR of order ${reference}; the other 17\\.45 EUR is released\\.$`),
        'done',
      );
      await office.waitForStatus(reference, 'paid');
      assert.equal((await office.facts(reference))['Refundable'], '17.45 EUR');
      assert.deepEqual(await office.actions(reference), ['refund']);
      assert.ok(
        await office.focused(office.order(reference).getByRole('heading', { name: `Order ${reference}` })),
        'the capture form is gone: the order’s heading has the focus',
      );
      // The capture's webhook and success callback, shown live.
      await office.waitForRows(reference, 4);
      assert.deepEqual(await axeViolations(office.page), [], 'the back office after the capture passes axe');

      // The rest: an empty amount refunds all that is refundable.
      await office.act(reference, 'refund');
      await office.waitForOutcome(
        new RegExp(`^Refunded 17\\.45 EUR of order ${reference}; nothing is left to refund\\.$`),
        'done',
      );
      assert.equal((await office.facts(reference))['Refundable'], '0.00 EUR');
      assert.deepEqual(await office.actions(reference), []);
      await office.waitForRows(reference, 5);
      assert.deepEqual(await axeViolations(office.page), [], 'the back office after the refund passes axe');

      // A repeat would follow a wrong answer; give it time to show up.
      await sleep(500);
      const expected = {
        webhooks: [
          'webhook purchase.created created 1',
          'webhook purchase.hold hold 1',
          'webhook purchase.captured paid 1',
          'webhook payment.refunded – 1',
        ],
        callbacks: ['success_callback purchase.captured paid 1'],
      };
      assert.deepEqual(split(recorded(purchaseId)), expected, 'as the back end recorded them');
      const shown = (await office.received())
        .filter((row) => row.reference === reference)
        .map((row) => `${row.source} ${row.event} ${row.cells[5]} ${row.cells[6]}`);
      assert.deepEqual(split(shown), expected, 'as the back office shows them');
      assert.equal(backEnd().order(reference)?.status, 'paid');
      assert.equal(backEnd().order(reference)?.refundableAmount, 0);

      // The gateway's record of the Purchase's events: one delivery each, answered 200 at its first attempt.
      // (Its delivery log does not list a Payment's deliveries yet.)
      await assertDeliveredOnce(purchaseId, ['purchase.created', 'purchase.hold', 'purchase.captured']);
      assert.deepEqual(backEnd().refused, [], 'no delivery failed verification');
    } finally {
      await office.close();
    }
  });

  test('a saved card is charged again for a new order; one whose charges decline says why, then is marked as paid', async () => {
    const saved = await newOrder('save_card');
    await payOnHostedPage(saved, CARDS.mastercard);
    const declining = await newOrder('save_card');
    await payOnHostedPage(declining, CHARGES_DECLINED);

    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    try {
      await office.waitForStatus(saved.reference, 'paid');
      assert.equal((await office.facts(saved.reference))['Saved card (recurring token)'], 'yes');
      assert.deepEqual(await office.actions(saved.reference), ['refund', 'charge']);

      await office.act(saved.reference, 'charge');
      const said = await office.waitForOutcome(
        new RegExp(
          `^Charged the card saved with order ${saved.reference}: new order V1-\\S+, 34\\.90 EUR, is paid\\.$`,
        ),
        'done',
      );
      const charged = /new order (V1-\S+),/.exec(said)![1]!;
      await office.waitForStatus(charged, 'paid');
      assert.deepEqual(await office.facts(charged), {
        Status: 'paid',
        Amount: '34.90 EUR',
        Refundable: '34.90 EUR',
        'Saved card (recurring token)': 'no',
        How: `Charge of the card saved with order ${saved.reference}`,
      });
      const chargedOrder = backEnd().order(charged)!;
      assert.equal(chargedOrder.mode, 'charge');
      const purchase = await gateway().purchases.get(chargedOrder.purchaseId);
      assert.equal(purchase.success_redirect, '', 'made without redirects: the customer is not there');
      await office.waitForRows(charged, 3);
      await sleep(500);
      assert.deepEqual(split(recorded(chargedOrder.purchaseId)), {
        webhooks: ['webhook purchase.created created 1', 'webhook purchase.paid paid 1'],
        callbacks: ['success_callback purchase.paid paid 1'],
      });
      assert.deepEqual(await axeViolations(office.page), [], 'the back office after a charge passes axe');

      // The card of this token declines later charges: the new order is left unpaid, and the page says why.
      await office.act(declining.reference, 'charge');
      const refusal = await office.waitForOutcome(
        new RegExp(
          `^The gateway refused to charge the card saved with order ${declining.reference} for the new order (V1-\\S+): The card was declined \\(card_declined\\)\\.$`,
        ),
        'error',
      );
      const unpaid = /for the new order (V1-\S+):/.exec(refusal)![1]!;
      await office.waitForStatus(unpaid, 'error');
      assert.deepEqual(await office.actions(unpaid), ['markAsPaid']);

      // The customer paid by bank transfer instead.
      await office.act(unpaid, 'markAsPaid');
      await office.waitForOutcome(new RegExp(`^Order ${unpaid} is marked as paid\\.$`), 'done');
      await office.waitForStatus(unpaid, 'paid');
      const facts = await office.facts(unpaid);
      assert.equal(facts['Status'], 'paid (marked as paid)');
      assert.equal(facts['Refundable'], '0.00 EUR', 'no money went through the gateway');
      assert.deepEqual(await office.actions(unpaid), []);
      assert.equal(backEnd().order(unpaid)?.markedAsPaid, true);
      assert.equal((await gateway().purchases.get(backEnd().order(unpaid)!.purchaseId)).marked_as_paid, true);
    } finally {
      await office.close();
    }
  });

  test('a reservation released from the back office: released, nothing left to do', async () => {
    const held = await newOrder('reserve');
    await payOnHostedPage(held, CARDS.visa);
    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    try {
      await office.waitForStatus(held.reference, 'hold');
      await office.act(held.reference, 'release');
      await office.waitForOutcome(
        new RegExp(`^Released the hold of 34\\.90 EUR on order ${held.reference}\\.$`),
        'done',
      );
      await office.waitForStatus(held.reference, 'released');
      assert.deepEqual(await office.actions(held.reference), []);
      await office.waitForRows(held.reference, 3);
      // A release brings no success callback.
      assert.deepEqual(split(recorded(held.purchaseId)), {
        webhooks: [
          'webhook purchase.created created 1',
          'webhook purchase.hold hold 1',
          'webhook purchase.released released 1',
        ],
        callbacks: [],
      });
    } finally {
      await office.close();
    }
  });

  test('an amount that is not one is refused on the page, before anything is sent', async () => {
    const held = await newOrder('reserve');
    await payOnHostedPage(held, CARDS.visa);
    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    try {
      await office.waitForStatus(held.reference, 'hold');
      let posted = 0;
      office.page.on('request', (sent) => {
        if (sent.method() === 'POST') posted += 1;
      });
      for (const typed of ['17.456', '0', 'ten', '-5']) {
        await office.act(held.reference, 'capture', typed);
        await office.waitForOutcome(/^Write the amount in EUR above zero with at most 2 decimals/, 'error');
        const field = office.order(held.reference).getByRole('textbox', { name: 'Amount to capture (EUR)' });
        assert.equal(await field.getAttribute('aria-invalid'), 'true', typed);
      }
      assert.equal(posted, 0);
      assert.deepEqual(
        await axeViolations(office.page),
        [],
        'the back office with an invalid amount passes axe',
      );
      assert.equal((await gateway().purchases.get(held.purchaseId)).status, 'hold');
    } finally {
      await office.close();
    }
  });
});

describe('the back office over HTTP', () => {
  const post = async (path: string, body: unknown, headers?: Record<string, string>) =>
    request(url(path), 'POST', body, { ...(await session()), ...headers });

  test('every back office route refuses without a login (401), and works after it', async () => {
    // Issue 21: the demo's back office answered anyone who reached the shop.
    const paid = await newOrder('pay');
    const { purchases, capture, refund, charge } = V1_BACK_OFFICE_PATHS;
    const { clients, chargeCard } = V1_BACK_OFFICE_CLIENT_PATHS;
    const routes: Array<[string, string, unknown]> = [
      [purchases, 'GET', undefined],
      [clients, 'GET', undefined],
      ['/api/v1/back-office/statement.csv', 'GET', undefined],
      ['/api/v1/back-office/balance', 'GET', undefined],
      [capture, 'POST', { reference: paid.reference }],
      [refund, 'POST', { reference: paid.reference }],
      [charge, 'POST', { reference: paid.reference }],
      [chargeCard, 'POST', { clientId: 'x', cardId: 'y' }],
    ];
    const login = (password: unknown) => request(url('/api/back-office/login'), 'POST', { password });
    for (const cookie of [undefined, 'svc_demo_back_office=forged', 'other=1']) {
      for (const [path, method, body] of routes) {
        const answer = await request(url(path), method, body, cookie === undefined ? {} : { cookie });
        assert.equal(answer.status, 401, `${method} ${path} with ${cookie}`);
        assert.equal(answer.body['error'], 'login_required');
      }
    }
    const password = env.demo.merchant.backOfficePassword;
    for (const wrong of [`${password}x`, password.slice(1), '', null]) {
      const refused = await login(wrong);
      assert.equal(refused.status, 401, String(wrong));
      assert.equal(refused.headers.get('set-cookie'), null);
    }
    const form = await request(url('/api/back-office/login'), 'POST', `password=${password}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 415, 'a plain HTML form (of another site) cannot log in');
    const loggedIn = await login(password);
    assert.equal(loggedIn.status, 200);
    const cookie = loggedIn.headers.get('set-cookie') ?? '';
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Strict/);
    const headers = { cookie: cookie.split(';')[0]! };
    assert.equal((await request(url(purchases), 'GET', undefined, headers)).status, 200);
    assert.equal((await request(url(clients), 'GET', undefined, headers)).status, 200);
    const state = await request(url('/api/back-office/session'), 'GET', undefined, headers);
    assert.equal(state.body['loggedIn'], true);
    await request(url('/api/back-office/logout'), 'POST', {}, headers);
    assert.equal((await request(url(purchases), 'GET', undefined, headers)).status, 401);
    // The shop's customers' routes need no login.
    assert.notEqual((await request(url(V1_PATHS.paymentMethods), 'GET')).status, 401);
  });

  test('lists the shop’s orders, newest first, as the back end knows them', async () => {
    const first = await newOrder('pay');
    const second = await newOrder('save_card');
    const list = await request(url(V1_BACK_OFFICE_PATHS.purchases), 'GET', undefined, await session());
    assert.equal(list.status, 200);
    const purchases = list.body['purchases'] as V1Order[];
    const mine = purchases.filter((order) => [first.reference, second.reference].includes(order.reference));
    assert.deepEqual(
      mine.map((order) => [order.reference, order.mode, order.status, order.total, order.refundableAmount]),
      [
        [second.reference, 'save_card', 'created', 3490, 0],
        [first.reference, 'pay', 'created', 3490, 0],
      ],
    );
    assert.equal((await post(V1_BACK_OFFICE_PATHS.purchases, {})).status, 405);
  });

  test('the checkout takes how the customer pays, and nothing else', async () => {
    const reserved = await newOrder('reserve');
    const reservation = await gateway().purchases.get(reserved.purchaseId);
    assert.deepEqual([reservation.skip_capture, reservation.force_recurring], [true, false]);
    const saving = await gateway().purchases.get((await newOrder('save_card')).purchaseId);
    assert.deepEqual([saving.skip_capture, saving.force_recurring], [false, true]);
    const later = await post(V1_PATHS.purchase, { mode: 'later' });
    assert.equal(later.status, 400);
    assert.match(later.body['message'] as string, /mode must be one of pay, reserve, save_card/);
    const priced = await post(V1_PATHS.purchase, { mode: 'pay', total: 1 });
    assert.equal(priced.status, 400);
    assert.equal(priced.body['error'], 'invalid_request');
  });

  test('takes JSON objects only, with known members, a known order and a positive whole number of cents', async () => {
    const held = await newOrder('reserve');
    await payOnHostedPage(held, CARDS.visa);
    const { reference } = held;

    const form = await post(V1_BACK_OFFICE_PATHS.capture, `reference=${reference}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assert.equal(form.status, 415);
    assert.equal(form.body['error'], 'unsupported_media_type');
    assert.equal(
      (await request(url(V1_BACK_OFFICE_PATHS.capture), 'GET', undefined, await session())).status,
      405,
    );
    const broken = await post(V1_BACK_OFFICE_PATHS.capture, '{"reference":', {
      'content-type': 'application/json',
    });
    assert.equal(broken.body['error'], 'malformed_body');
    // Strings are sent as they are: JSON that is no object.
    for (const body of [[reference], '"V1"', 'null']) {
      const answer = await post(V1_BACK_OFFICE_PATHS.capture, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body['error'], 'invalid_request');
    }
    const extra = await post(V1_BACK_OFFICE_PATHS.release, { reference, amount: 100 });
    assert.equal(extra.status, 400);
    assert.equal(extra.body['message'], '"amount" is not a member of this request; it takes reference');
    const none = await post(V1_BACK_OFFICE_PATHS.capture, { amount: 100 });
    assert.equal(none.status, 400);
    assert.match(none.body['message'] as string, /^reference is required/);
    const unknown = await post(V1_BACK_OFFICE_PATHS.capture, { reference: 'V1-NOPE' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['error'], 'unknown_order');
    for (const amount of [0, -5, 17.45, '1745', 2 ** 53, null, true]) {
      const answer = await post(V1_BACK_OFFICE_PATHS.capture, { reference, amount });
      assert.equal(answer.status, 400, JSON.stringify(amount));
      assert.equal(answer.body['error'], 'invalid_amount');
      assert.match(
        answer.body['message'] as string,
        /^amount must be a positive whole number of cents \(1745 for 17\.45 EUR\)/,
      );
    }
    // Nothing reached the gateway.
    const purchase = await gateway().purchases.get(held.purchaseId);
    assert.equal(purchase.status, 'hold');
    assert.equal(purchase.transaction_data.attempts.length, 1, 'the payment only: no capture was attempted');
  });

  test('a refusal carries the cause from the Purchase’s newest attempt; a capture or refund says how much', async () => {
    const unpaid = await newOrder('pay');
    const refund = await post(V1_BACK_OFFICE_PATHS.refund, { reference: unpaid.reference });
    assert.equal(refund.status, 422);
    assert.equal(refund.body['error'], 'refused');
    assert.deepEqual(refund.body['cause'], {
      code: 'not_refundable',
      description: 'Nothing can be refunded now: the purchase is created',
    });
    const release = await post(V1_BACK_OFFICE_PATHS.release, { reference: unpaid.reference });
    assert.equal(release.status, 422);
    assert.equal((release.body['cause'] as { code: string }).code, 'not_held');

    const paid = await newOrder('pay');
    await payOnHostedPage(paid, CARDS.visa);
    const part = await post(V1_BACK_OFFICE_PATHS.refund, { reference: paid.reference, amount: 1000 });
    assert.equal(part.status, 200, part.text);
    assert.equal(
      part.body['message'],
      `Refunded 10.00 EUR of order ${paid.reference}; 24.90 EUR can still be refunded.`,
    );
    assert.equal((part.body['order'] as V1Order).refundableAmount, 2490);
    const tooMuch = await post(V1_BACK_OFFICE_PATHS.refund, { reference: paid.reference, amount: 2491 });
    assert.equal(tooMuch.status, 422);
    assert.equal((tooMuch.body['cause'] as { code: string }).code, 'amount_exceeds_refundable');
    const held = await newOrder('reserve');
    await payOnHostedPage(held, CARDS.visa);
    const all = await post(V1_BACK_OFFICE_PATHS.capture, { reference: held.reference });
    assert.equal(all.status, 200, all.text);
    assert.equal(all.body['message'], `Captured 34.90 EUR of order ${held.reference}.`);
    assert.equal((all.body['order'] as V1Order).refundableAmount, 3490);

    const marked = await post(V1_BACK_OFFICE_PATHS.markAsPaid, { reference: paid.reference });
    assert.equal(marked.status, 422);
    assert.deepEqual(marked.body['cause'], { code: 'invalid', description: 'The purchase is paid already' });
    assert.equal(
      marked.body['message'],
      `The gateway refused to mark order ${paid.reference} as paid: The purchase is paid already (invalid).`,
    );
  });
});
