/**
 * The demo shop's Tea club subscription, end to end on the real sandbox: a customer joins the plan without a
 * free month, pays the first month on the hosted page with 4111 1111 1111 1111 (the card saved to their
 * Client), comes back and is shown active; a month on the sandbox clock later the gateway charges the second
 * month by itself, and the back office shows its receipt in the outbox, the next billing a month on, the
 * balance and a statement with both Purchases, all by keyboard and clean under axe. With the free month the
 * customer is active at once, without a Purchase, and the staff pause, resume and cancel the subscription.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Subscription, V1_SUBSCRIPTION_PATHS } from '../../demo/merchant/v1-subscriptions.js';
import { DEMO_V1_SECRET_KEY } from '../../src/sandbox/index.js';
import { axeViolations } from './support/axe.js';
import { BackOfficePage } from './support/back-office-page.js';
import { backOfficeSession, demoInBrowser } from './support/demo-env.js';
import { request } from './support/merchant-server.js';
import { CARDS, waitUntil } from './support/shop-page.js';
import { BackOfficeBilling, TeaClubPage } from './support/tea-club-page.js';
import { v1Demo } from './support/v1-demo.js';
import { HostedCheckoutPage } from './support/v1-pages.js';

const env = demoInBrowser();
const { gateway } = v1Demo(env);

const url = (path: string) => `${env.demo.shopUrl}${path}`;

/** The staff's session cookie: the back office's routes answer 401 without one. */
const session = () => backOfficeSession(env.demo);

/** The customer's subscription as the shop's back end answers it. */
async function subscriptionOf(plan: 'trial' | 'monthly', email: string): Promise<Subscription> {
  const answer = await request(
    url(`${V1_SUBSCRIPTION_PATHS.subscription}?${new URLSearchParams({ plan, email })}`),
    'GET',
  );
  assert.equal(answer.status, 200, answer.text);
  return answer.body as unknown as Subscription;
}

/** Moves the sandbox clock to a minute past `iso`, through its HTTP control as any test could. */
async function advanceClockPast(iso: string): Promise<void> {
  const clock = `${env.demo.gatewayUrl}/sandbox/v1/clock`;
  const now = (await (await fetch(clock)).json()) as { now_unix: number };
  const seconds = Math.ceil(Date.parse(iso) / 1000) - now.now_unix + 60;
  assert.ok(seconds > 0, `the next billing ${iso} is ahead of the sandbox clock`);
  const moved = await fetch(clock, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_V1_SECRET_KEY}` },
    body: JSON.stringify({ advance_seconds: seconds }),
  });
  assert.equal(moved.status, 200, await moved.text());
}

/** How the page writes a date of next billing (UTC). */
const shownDate = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

describe('v1 subscriptions in the demo shop', () => {
  test('with the free month the customer is active at once, without a Purchase; the staff pause, resume and cancel', async () => {
    const email = 'trial-tea@example.com';
    const shop = await TeaClubPage.open(env.browser, env.demo.shopUrl);
    await shop.join('trial', email);
    const said = await shop.waitForStatus('active', /first charge is on/);
    assert.equal(new URL(shop.page.url()).pathname, '/tea-club.html', 'no payment page');

    const joined = await subscriptionOf('trial', email);
    assert.equal(joined.status, 'active');
    assert.equal(joined.checkoutUrl, null, 'nothing to pay');
    assert.ok(joined.nextBillingOn);
    const clientId = joined.clientId;
    const templates = await gateway().billingTemplates.list().toArray();
    assert.deepEqual(
      templates
        .filter((template) => template.is_subscription)
        .map(
          (template) =>
            `${template.title}: ${template.subscription_period} ${template.subscription_period_units}, trial ${template.subscription_trial_periods}`,
        )
        .sort(),
      ['Tea club, first month free: 1 months, trial 1', 'Tea club: 1 months, trial 0'],
      'the plan is two monthly templates, with and without the free month',
    );
    const template = templates.find((candidate) => candidate.subscription_trial_periods === 1);
    assert.ok(template);
    assert.equal((await gateway().billingTemplates.clients.get(template.id, clientId)).purchase_id, null);
    // About a month from now: the sandbox clock has not been moved yet in this file.
    const days = (Date.parse(joined.nextBillingOn) - Date.now()) / 86_400_000;
    assert.ok(days > 27 && days < 32, `the first charge is a month on, not in ${days} days`);
    assert.match(said, new RegExp(new Date(joined.nextBillingOn).getUTCFullYear().toString()));
    await shop.page.context().close();

    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    const billing = new BackOfficeBilling(office.page);
    const shown = await billing.waitForSubscription(email, 'active');
    assert.equal(shown.plan, 'Tea club, first month free');
    assert.equal(shown.nextBilling, shownDate(joined.nextBillingOn));
    assert.deepEqual(shown.actions, ['Pause', 'Cancel']);

    await billing.act(email, shown.plan, 'Pause');
    await office.waitForOutcome(
      /^Paused the Tea club, first month free subscription of trial-tea@example\.com/,
      'done',
    );
    assert.deepEqual((await billing.waitForSubscription(email, 'paused')).actions, ['Resume', 'Cancel']);
    await billing.act(email, shown.plan, 'Resume');
    await office.waitForOutcome(/^Resumed the Tea club, first month free subscription/, 'done');
    await billing.waitForSubscription(email, 'active');
    await billing.act(email, shown.plan, 'Cancel');
    await office.waitForOutcome(/^Cancelled the Tea club, first month free subscription/, 'done');
    const cancelled = await billing.waitForSubscription(email, 'cancelled', { refresh: false });
    assert.deepEqual(cancelled.actions, [], 'a cancelled subscription is final');
    assert.equal(cancelled.nextBilling, '–');
    assert.ok(
      await office.focused(office.page.getByRole('heading', { name: 'Subscriptions', exact: true })),
      'the focus goes to the section when its button is gone',
    );
    assert.deepEqual(
      (await billing.outbox()).filter((message) => message.to === email),
      [],
      'no invoice for a free month',
    );
    await office.close();
  });

  test('without it the customer pays the first month on the hosted page; a month later the card is charged again', async () => {
    const email = 'monthly-tea@example.com';
    const shop = await TeaClubPage.open(env.browser, env.demo.shopUrl);
    await shop.join('monthly', email);
    await shop.page.waitForURL(/\/checkout\/[0-9a-f-]+\//);
    const pending = await subscriptionOf('monthly', email);
    assert.equal(pending.status, 'pending');
    assert.equal(pending.nextBillingOn, null);
    assert.ok(pending.checkoutUrl);
    assert.equal(new URL(shop.page.url()).pathname, new URL(pending.checkoutUrl).pathname);

    await new HostedCheckoutPage(shop.page).payWithCard({ number: CARDS.visa });
    const cards = await waitUntil('the first month to save the card', async () => {
      const saved = await gateway().clients.recurringTokens(pending.clientId).toArray();
      return saved.length > 0 ? saved : undefined;
    });
    assert.deepEqual(
      cards.map((card) => card.description),
      ['Visa •••• 1111'],
      'the first month saved the card',
    );

    // The gateway's Purchase of a subscription has no redirects: the hosted page shows that it is paid, and
    // the customer returns to the shop's page, whose address (set before leaving) names the subscription to
    // read again. (Going Back through the history does the same, but the history's length is the browser's.)
    await shop.page.goto(
      `${env.demo.shopUrl}/tea-club.html?${new URLSearchParams({ plan: 'monthly', email })}`,
    );
    await shop.waitForStatus('active', /^You are in the Tea club: active\. The next charge is on /);
    assert.deepEqual(await axeViolations(shop.page), [], 'the shop page');
    const active = await subscriptionOf('monthly', email);
    assert.equal(active.status, 'active');
    assert.ok(active.nextBillingOn);
    await shop.page.context().close();

    const office = await BackOfficePage.open(
      env.browser,
      env.demo.shopUrl,
      env.demo.merchant.backOfficePassword,
    );
    const billing = new BackOfficeBilling(office.page);
    const firstShown = shownDate(active.nextBillingOn);
    assert.equal((await billing.waitForSubscription(email, 'active')).nextBilling, firstShown);

    await advanceClockPast(active.nextBillingOn);

    const moved = await billing.refreshUntil('the next billing to move on', async () => {
      const row = (await billing.subscriptions()).find((shown) => shown.client === email);
      return row && row.nextBilling !== firstShown ? row : undefined;
    });
    assert.equal(moved.status, 'active');
    // A month on as the sandbox counts periods, from the start (31 January, 28 February, 31 March).
    const second = (await subscriptionOf('monthly', email)).nextBillingOn;
    assert.ok(second);
    assert.equal(moved.nextBilling, shownDate(second));
    const days = (Date.parse(second) - Date.parse(active.nextBillingOn)) / 86_400_000;
    assert.ok(days >= 28 && days <= 31, `the next billing is a month on, not ${days} days`);
    const receipts = await billing.refreshUntil('the receipt of the second month', async () => {
      const mine = (await billing.outbox()).filter((message) => message.to === email);
      return mine.some((message) => message.kind === 'receipt') ? mine : undefined;
    });
    const receipt = receipts.find((message) => message.kind === 'receipt');
    assert.ok(receipt);
    assert.equal(receipt.amount, '9.90 EUR');
    const charged = await gateway().purchases.get(receipt.purchaseId);
    assert.equal(charged.status, 'paid', 'the second month is paid without the customer');
    assert.equal(charged.client_id, active.clientId);
    assert.notEqual(charged.id, cards[0]?.id, 'a new Purchase');

    const balance = await billing.refreshUntil('the balance to show the e-commerce account', async () => {
      const lines = await billing.balance();
      return lines.some((line) => line.startsWith('E-commerce:')) ? lines : undefined;
    });
    assert.match(balance.join('\n'), /E-commerce: [\d.]+ EUR available \(paid [\d.]+ EUR/);

    const statement = await billing.downloadStatement();
    assert.match(statement.name, /^statement-.+\.csv$/);
    assert.match(statement.text, /^id,/, 'a CSV with its header row');
    for (const id of [cards[0]?.id, charged.id]) {
      assert.ok(id && statement.text.includes(id), `the statement lists Purchase ${id}`);
    }

    assert.deepEqual(await axeViolations(office.page), [], 'the back office');
    await office.close();
  });

  test('the back end refuses an unknown plan, an e-mail that is not one and a status it cannot set; a look-up makes no Client', async () => {
    const nobody = '00000000-0000-4000-8000-000000000000';
    const { subscribe, subscriptionStatus } = V1_SUBSCRIPTION_PATHS;
    for (const [path, body, status, error] of [
      [subscribe, { plan: 'weekly', email: 'a@example.com' }, 400, 'invalid_plan'],
      [subscribe, { plan: 'trial', email: 'nope' }, 400, 'invalid_email'],
      [subscriptionStatus, { plan: 'trial', clientId: nobody, status: 'pending' }, 400, 'invalid_status'],
      [
        subscriptionStatus,
        { plan: 'trial', clientId: nobody, status: 'paused' },
        404,
        'unknown_subscription',
      ],
    ] as const) {
      const answer = await request(url(path), 'POST', body, await session());
      assert.equal(answer.status, status, answer.text);
      assert.equal(answer.body['error'], error);
    }
    const stranger = 'never-joined@example.com';
    const none = await request(
      url(`${V1_SUBSCRIPTION_PATHS.subscription}?${new URLSearchParams({ plan: 'trial', email: stranger })}`),
      'GET',
    );
    assert.equal(none.status, 404, none.text);
    assert.equal(none.body['error'], 'not_subscribed');
    const clients = await gateway().clients.list().toArray();
    assert.ok(!clients.some((known) => known.email === stranger), 'a look-up makes no Client');
  });

  test('joining at once from several tabs is one subscription: one 201, the others 200 with it', async () => {
    const email = 'six-tabs@example.com';
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        request(url(V1_SUBSCRIPTION_PATHS.subscribe), 'POST', { plan: 'monthly', email }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status).sort(),
      [200, 200, 200, 200, 200, 201],
      answers.map((answer) => answer.text).join('\n'),
    );
    const subscriptions = answers.map((answer) => answer.body as unknown as Subscription);
    assert.equal(new Set(subscriptions.map((joined) => joined.clientId)).size, 1);
    assert.equal(new Set(subscriptions.map((joined) => joined.checkoutUrl)).size, 1, 'one page to pay at');
  });
});
