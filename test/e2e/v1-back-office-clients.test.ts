/**
 * The demo shop's customers as v1 Clients, end to end on the real sandbox: a customer checks out with their
 * e-mail and saves their card; back again, the hosted page offers that card checked and they pay with it by
 * keyboard alone; the back office shows the Client with the card, the staff charge it and remove it, and the
 * next checkout offers no saved card. Then the back end's Client routes over HTTP: one Client per e-mail, and
 * what the card routes refuse.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { V1_BACK_OFFICE_CLIENT_PATHS, V1_BACK_OFFICE_PATHS } from '../../demo/merchant/v1-back-office.js';
import type { ShopClient } from '../../demo/merchant/v1-customers.js';
import type { V1Order } from '../../demo/merchant/v1-event-log.js';
import { type CreatedPurchase, V1_PATHS } from '../../demo/merchant/v1-shop.js';
import { axeViolations } from './support/axe.js';
import { BackOfficePage, tabTo } from './support/back-office-page.js';
import { backOfficeSession, demoInBrowser } from './support/demo-env.js';
import { request } from './support/merchant-server.js';
import { CARDS } from './support/shop-page.js';
import { payOnHostedPage, v1Demo } from './support/v1-demo.js';
import { HostedCheckoutPage, V1CheckoutPage, V1ResultPage } from './support/v1-pages.js';

const env = demoInBrowser();
const { gateway, backEnd, newOrder } = v1Demo(env);

const url = (path: string) => `${env.demo.shopUrl}${path}`;
const post = async (path: string, body: unknown, headers?: Record<string, string>) =>
  request(url(path), 'POST', body, { ...(await session()), ...headers });

/** The staff's session cookie: the back office's routes answer 401 without one. */
const session = () => backOfficeSession(env.demo);

/** How the sandbox describes a saved `4111 1111 1111 1111`. */
const VISA = 'Visa •••• 1111';

/** The Client the shop made a Purchase for, as the gateway has it. */
async function clientOf(order: CreatedPurchase): Promise<string> {
  const clientId = (await gateway().purchases.get(order.purchaseId)).client_id;
  assert.ok(clientId, `order ${order.reference} has a client_id`);
  return clientId;
}

describe('clients and their saved cards in the browser', () => {
  test('a customer saves their card, pays with it again by keyboard alone, and the staff charge it and remove it', async () => {
    const email = 'anna.tester@example.com';

    // First visit: "Pay now and save my card", with the e-mail typed as people do.
    const first = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    let saving: CreatedPurchase;
    try {
      await first.emailField.fill('  Anna.Tester@Example.com ');
      await first.page.getByRole('radio', { name: /^Pay now and save my card/ }).check();
      saving = await first.startCheckout();
      assert.equal(saving.mode, 'save_card');
      assert.equal(saving.email, email, 'the shop keys its Clients by the e-mail in lower case');
      assert.equal(saving.savedCard, false, 'a new customer has no saved card');
      assert.equal(await first.savedCardLink.count(), 0, 'nothing to pay with in one click yet');
      assert.deepEqual(await axeViolations(first.page), [], 'the checkout page with an e-mail passes axe');
      await first.cardChoice.check();
      const hosted = await first.confirm();
      assert.equal(await hosted.savedCards.count(), 0);
      await hosted.payWithCard({ number: CARDS.visa });
      await first.page.waitForURL(url(`/v1-success.html?reference=${saving.reference}`));
      await new V1ResultPage(first.page).waitForStatus(/is paid/);
    } finally {
      await first.page.context().close();
    }
    const clientId = await clientOf(saving);
    assert.equal((await gateway().clients.get(clientId)).email, email);
    const tokens = await gateway().clients.recurringTokens(clientId).toArray();
    assert.deepEqual(
      tokens.map((token) => [token.id, token.description]),
      [[saving.purchaseId, VISA]],
      'the card is saved to the Client',
    );

    // The back office shows the Client with the card.
    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    try {
      const [card] = await office.waitForCards(email, [VISA]);
      assert.match(card!.savedOn, /^Saved on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/);
      assert.deepEqual(card!.actions, ['chargeCard', 'removeCard']);
      assert.deepEqual(
        await axeViolations(office.page),
        [],
        'the back office with a client and a card passes axe',
      );

      // Back again, by keyboard alone: the e-mail, "Choose how to pay", the saved card link, Pay.
      const back = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
      try {
        await tabTo(back.page, back.emailField);
        await back.page.keyboard.type(email);
        const answer = back.page.waitForResponse(
          (response) => new URL(response.url()).pathname === V1_PATHS.purchase,
        );
        await tabTo(back.page, back.page.getByRole('button', { name: 'Choose how to pay' }));
        await back.page.keyboard.press('Enter');
        const returning = (await (await answer).json()) as CreatedPurchase;
        assert.equal(returning.mode, 'pay');
        assert.equal(returning.savedCard, true);
        await tabTo(back.page, back.savedCardLink);
        assert.deepEqual(
          await axeViolations(back.page),
          [],
          'the checkout page offering the saved card passes axe',
        );
        await back.page.keyboard.press('Enter');
        await back.page.waitForURL(returning.checkoutUrl);
        const hosted = new HostedCheckoutPage(back.page);
        assert.equal(await hosted.savedCards.count(), 1, 'the Client’s one saved card');
        assert.equal(await hosted.savedCard(VISA).isChecked(), true, `${VISA} is checked`);
        assert.equal(await hosted.savedCard(VISA).getAttribute('value'), `saved:${saving.purchaseId}`);
        await tabTo(back.page, hosted.payButton);
        await back.page.keyboard.press('Enter');
        await back.page.waitForURL(url(`/v1-success.html?reference=${returning.reference}`));
        await new V1ResultPage(back.page).waitForStatus(/is paid/);
        const paid = await gateway().purchases.get(returning.purchaseId);
        assert.equal(paid.status, 'paid');
        assert.equal(paid.client_id, clientId, 'the same Client: one per e-mail');
        assert.equal(paid.is_recurring_token, false, 'paying with a saved card saves no second one');
      } finally {
        await back.page.context().close();
      }
      await office.waitForCards(email, [VISA]);

      // The staff charge the Client's card for a new order.
      await office.actOnCard(email, VISA, 'chargeCard');
      const said = await office.waitForOutcome(
        new RegExp(
          `^Charged the card saved with order ${saving.reference}: new order V1-\\S+, 34\\.90 EUR, is paid\\.$`,
        ),
        'done',
      );
      const charged = /new order (V1-\S+),/.exec(said)![1]!;
      await office.waitForStatus(charged, 'paid');
      assert.equal(backEnd().order(charged)?.clientId, clientId, 'the new order is the same customer’s');
      assert.deepEqual(await axeViolations(office.page), [], 'the back office after a charge passes axe');

      // They remove it: gone from the Client, and the order that saved it can no longer be charged.
      await office.actOnCard(email, VISA, 'removeCard');
      await office.waitForOutcome(
        new RegExp(
          `^Removed ${VISA} from the saved cards of ${email.replaceAll('.', '\\.')}: it is no longer offered at checkout and cannot be charged\\.$`,
        ),
        'done',
      );
      await office.waitForCards(email, []);
      assert.ok(
        await office.focused(office.client(email).getByRole('heading', { name: `Client ${email}` })),
        'the card’s controls are gone: the client’s heading has the focus',
      );
      await office.waitForStatus(saving.reference, 'paid');
      assert.equal((await office.facts(saving.reference))['Saved card (recurring token)'], 'no');
      assert.deepEqual(await office.actions(saving.reference), ['refund']);
      assert.deepEqual(await gateway().clients.recurringTokens(clientId).toArray(), []);
      assert.deepEqual(
        await axeViolations(office.page),
        [],
        'the back office after removing the card passes axe',
      );
    } finally {
      await office.close();
    }

    // The next checkout offers no saved card, on the shop's page or the hosted one.
    const next = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    try {
      await next.emailField.fill(email);
      const order = await next.startCheckout();
      assert.equal(order.savedCard, false);
      assert.equal(await next.savedCardLink.isVisible(), false);
      await next.cardChoice.check();
      const hosted = await next.confirm();
      assert.equal(await hosted.savedCards.count(), 0, 'the removed card is not offered');
      assert.equal(await clientOf(order), clientId);
    } finally {
      await next.page.context().close();
    }
  });

  test('an e-mail that is not one is refused on the checkout page, and the customer corrects it', async () => {
    const shop = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    try {
      await shop.emailField.fill('anna at example');
      await shop.page.getByRole('button', { name: 'Choose how to pay' }).click();
      await shop.page
        .getByRole('alert')
        .filter({ hasText: /^email must be an e-mail address such as anna@example\.com/ })
        .waitFor();
      assert.equal(await shop.emailField.getAttribute('aria-invalid'), 'true');
      assert.ok(
        await shop.emailField.evaluate((field) => field === document.activeElement),
        'the field has the focus',
      );
      assert.deepEqual(
        await axeViolations(shop.page),
        [],
        'the checkout page with a refused e-mail passes axe',
      );
      await shop.emailField.fill('anna@example.com');
      const order = await shop.startCheckout();
      assert.equal(order.email, 'anna@example.com');
      assert.equal(await shop.emailField.getAttribute('aria-invalid'), null);
    } finally {
      await shop.page.context().close();
    }
  });
});

describe('clients over HTTP', () => {
  test('one Client per e-mail, however it is written and however many checkouts ask at once; a guest’s is the gateway’s', async () => {
    const email = 'bruno@example.com';
    const orders = await Promise.all(
      ['bruno@example.com', 'Bruno@Example.com', ' BRUNO@example.com', 'bruno@example.com'].map((written) =>
        newOrder('pay', written),
      ),
    );
    const ids = new Set(await Promise.all(orders.map(clientOf)));
    assert.equal(ids.size, 1, 'one Client');
    const all = await gateway().clients.list().toArray();
    assert.equal(all.filter((known) => known.email === email).length, 1, 'the gateway has one Client for it');
    for (const order of orders) assert.equal(backEnd().order(order.reference)?.clientId, [...ids][0]);

    const other = await newOrder('pay', 'carla@example.com');
    assert.notEqual(await clientOf(other), [...ids][0]);
    const guest = await newOrder('pay');
    assert.equal(guest.email, null);
    // The shop names no Client for a guest; the gateway makes one, as the platform does, of no e-mail.
    const guestClient = (await gateway().purchases.get(guest.purchaseId)).client_id;
    assert.equal((await gateway().clients.get(guestClient)).email, '');
    assert.equal(backEnd().order(guest.reference)?.clientId, guestClient);
    assert.equal((await newOrder('pay', '')).email, null, 'an empty e-mail is a guest');

    for (const email of [
      'anna',
      'anna@example',
      'an na@example.com',
      42,
      null,
      `${'a'.repeat(250)}@example.com`,
    ]) {
      const refused = await post(V1_PATHS.purchase, { mode: 'pay', email });
      assert.equal(refused.status, 400, JSON.stringify(email));
      assert.equal(refused.body['error'], 'invalid_email');
      assert.match(
        refused.body['message'] as string,
        /^email must be an e-mail address such as anna@example\.com/,
      );
    }
  });

  test('lists the shop’s Clients, newest first, each with its saved cards and the order that saved them', async () => {
    const saving = await newOrder('save_card', 'dora@example.com');
    await payOnHostedPage(saving, CARDS.mastercard);
    const clientId = await clientOf(saving);
    const later = await newOrder('pay', 'emil@example.com');
    const listed = await request(url(V1_BACK_OFFICE_CLIENT_PATHS.clients), 'GET', undefined, await session());
    assert.equal(listed.status, 200, listed.text);
    const clients = listed.body['clients'] as ShopClient[];
    const mine = clients.filter((known) => ['dora@example.com', 'emil@example.com'].includes(known.email));
    assert.deepEqual(
      mine.map((known) => [
        known.email,
        known.cards.map((card) => [card.id, card.description, card.reference]),
      ]),
      [
        ['emil@example.com', []],
        ['dora@example.com', [[saving.purchaseId, 'Mastercard •••• 4444', saving.reference]]],
      ],
    );
    assert.equal(mine[1]!.id, clientId);
    assert.equal(mine[0]!.id, await clientOf(later));
    await newOrder('pay');
    const again = (await request(url(V1_BACK_OFFICE_CLIENT_PATHS.clients), 'GET', undefined, await session()))
      .body['clients'] as ShopClient[];
    assert.ok(again.length >= 2);
    assert.ok(
      again.every((known) => known.email !== ''),
      'the Clients the gateway made for guests are not listed as customers',
    );
    assert.equal((await post(V1_BACK_OFFICE_CLIENT_PATHS.clients, {})).status, 405);
  });

  test('the card routes take a JSON object naming a card of the Client; a removed card is neither listed nor charged', async () => {
    const saving = await newOrder('save_card', 'filip@example.com');
    await payOnHostedPage(saving, CARDS.visa);
    const clientId = await clientOf(saving);
    const cardId = saving.purchaseId;
    const other = await newOrder('pay', 'gita@example.com');
    const otherClient = await clientOf(other);

    for (const path of [V1_BACK_OFFICE_CLIENT_PATHS.removeCard, V1_BACK_OFFICE_CLIENT_PATHS.chargeCard]) {
      const form = await post(path, `clientId=${clientId}&cardId=${cardId}`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      assert.equal(form.status, 415, path);
      assert.equal((await request(url(path), 'GET', undefined, await session())).status, 405);
      const extra = await post(path, { clientId, cardId, amount: 100 });
      assert.equal(extra.status, 400);
      assert.equal(
        extra.body['message'],
        '"amount" is not a member of this request; it takes clientId, cardId',
      );
      for (const body of [{ cardId }, { clientId, cardId: 'V1-1' }, { clientId: 7, cardId }, [clientId]]) {
        const answer = await post(path, body);
        assert.equal(answer.status, 400, JSON.stringify(body));
        assert.equal(answer.body['error'], 'invalid_request');
      }
      const elsewhere = await post(path, { clientId: otherClient, cardId });
      assert.equal(elsewhere.status, 404, 'another Client’s card');
      assert.equal(elsewhere.body['error'], 'unknown_card');
      const nobody = await post(path, { clientId: '00000000-0000-4000-8000-000000000000', cardId });
      assert.equal(nobody.status, 404);
      assert.equal(nobody.body['error'], 'unknown_card');
    }

    const charged = await post(V1_BACK_OFFICE_CLIENT_PATHS.chargeCard, { clientId, cardId });
    assert.equal(charged.status, 200, charged.text);
    const order = charged.body['order'] as V1Order;
    assert.deepEqual(
      [order.status, order.mode, order.chargedWith, order.clientId],
      ['paid', 'charge', saving.reference, clientId],
    );

    const removed = await post(V1_BACK_OFFICE_CLIENT_PATHS.removeCard, { clientId, cardId });
    assert.equal(removed.status, 200, removed.text);
    assert.deepEqual((removed.body['client'] as ShopClient).cards, []);
    assert.equal(backEnd().order(saving.reference)?.isRecurringToken, false, 'read again at once');
    const again = await post(V1_BACK_OFFICE_CLIENT_PATHS.removeCard, { clientId, cardId });
    assert.equal(again.status, 404);
    assert.equal(again.body['error'], 'unknown_card');
    assert.equal((await post(V1_BACK_OFFICE_CLIENT_PATHS.chargeCard, { clientId, cardId })).status, 404);
    // Named by its order, the gateway refuses it: the token is deleted.
    const byOrder = await post(V1_BACK_OFFICE_PATHS.charge, { reference: saving.reference });
    assert.equal(byOrder.status, 422, byOrder.text);
    assert.equal(byOrder.body['error'], 'refused');
  });
});
