/**
 * v1 subscriptions: the document's BillingTemplateClient table row by row; billing periods on the sandbox clock
 * (calendar months from 31 January), a declined charge answered with `purchase.subscription_charge_failure` and
 * an invoice that, paid with a new card, is the card the next period charges; trials, pending subscribers,
 * concurrent subscribing; and a restart with a subscription active.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CreatePurchaseRequest } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { periodStart } from '../../../src/sandbox/v1/billing-request.js';
import type { V1Client } from '../../../src/server/index.js';
import {
  BILLING_CARD as CARD,
  DAY_MS,
  OTHER,
  BILLING_PRODUCTS as PRODUCTS,
  purchaseBody,
  BILLING_START as START,
  V1,
  v1,
  withBillingSandbox,
} from './support.js';

describe('v1 subscriptions', () => {
  const { fixture, rejected, problems, newClient, template, pay, expectEvents, outbox } =
    withBillingSandbox();
  let sandbox: Sandbox;
  let client: V1Client;

  async function start(): Promise<void> {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  }

  before(() => {
    ({ sandbox, client } = fixture);
  });

  test('add_subscriber follows the BillingTemplateClient table, and PATCH sets the statuses it allows', async () => {
    const periodEnd = await client.billingTemplates.create(
      template({ subscription_charge_period_end: true }),
    );
    const trial = await client.billingTemplates.create(template({ subscription_trial_periods: 2 }));
    const plain = await client.billingTemplates.create(template());
    const oneTime = await client.billingTemplates.create({ brand_id: V1.brandId, purchase: PRODUCTS });
    const anna = await newClient();

    const atEnd = await client.billingTemplates.addSubscriber(periodEnd.id, { client_id: anna.id });
    assert.equal(atEnd.billing_template_client.status, 'active');
    assert.equal(atEnd.purchase, null, 'period end: no Purchase');
    assert.equal(
      atEnd.billing_template_client.next_billing_on,
      periodStart(START, { unit: 'month', count: 1 }, 1) / 1000,
    );

    const inTrial = await client.billingTemplates.addSubscriber(trial.id, { client_id: anna.id });
    assert.equal(inTrial.billing_template_client.status, 'active');
    assert.equal(inTrial.purchase, null, 'trial: no Purchase');
    assert.equal(
      inTrial.billing_template_client.next_billing_on,
      periodStart(START, { unit: 'month', count: 1 }, 2) / 1000,
    );

    const pending = await client.billingTemplates.addSubscriber(plain.id, { client_id: anna.id });
    assert.equal(pending.billing_template_client.status, 'pending');
    assert.equal(pending.billing_template_client.client?.email, anna.email);
    assert.equal(pending.billing_template_client.next_billing_on, null);
    const first = pending.purchase;
    assert.ok(first);
    assert.equal(first.force_recurring, true, 'the first Purchase saves the card');
    assert.equal(first.client_id, anna.id);
    assert.equal(pending.billing_template_client.purchase_id, first.id);

    await pay(first.id, CARD.approved);
    const active = await client.billingTemplates.clients.get(plain.id, anna.id);
    assert.equal(active.status, 'active', 'active once its Purchase is paid');
    assert.equal(active.next_billing_on, periodStart(START, { unit: 'month', count: 1 }, 1) / 1000);
    await expectEvents(first.id, ['purchase.created', 'purchase.paid']);

    assert.deepEqual(
      await problems(client.billingTemplates.addSubscriber(plain.id, { client_id: anna.id })),
      ['client_id: invalid'],
    );
    assert.deepEqual(
      await problems(client.billingTemplates.addSubscriber(oneTime.id, { client_id: anna.id })),
      ['__all__: invalid'],
    );
    assert.deepEqual(await problems(client.billingTemplates.addSubscriber(plain.id, { client_id: 'nope' })), [
      'client_id: invalid',
    ]);
    await rejected(client.billingTemplates.addSubscriber(OTHER.brandId, { client_id: anna.id }), 404);

    const listed = [];
    for await (const item of client.billingTemplates.clients.list(plain.id)) listed.push(item.client_id);
    assert.deepEqual(listed, [anna.id]);
    await rejected(client.billingTemplates.clients.get(plain.id, OTHER.brandId), 404);
    await rejected(client.billingTemplates.clients.patch(plain.id, OTHER.brandId, { status: 'paused' }), 404);

    for (const status of ['pending', 'gone', 7]) {
      assert.deepEqual(
        await problems(client.billingTemplates.clients.patch(plain.id, anna.id, { status } as never)),
        ['status: invalid'],
      );
    }
    assert.equal(
      (await client.billingTemplates.clients.patch(plain.id, anna.id, { status: 'paused' })).status,
      'paused',
    );
    assert.equal(
      (await client.billingTemplates.clients.patch(plain.id, anna.id, { status: 'active' })).status,
      'active',
    );
    const cancelled = await client.billingTemplates.clients.patch(trial.id, anna.id, { status: 'cancelled' });
    assert.equal(cancelled.status, 'cancelled');
    assert.equal(cancelled.next_billing_on, null);
    assert.deepEqual(
      await problems(client.billingTemplates.clients.patch(trial.id, anna.id, { status: 'active' })),
      ['status: invalid'],
    );
    // A cancelled subscriber may be added again, afresh.
    const again = await client.billingTemplates.addSubscriber(trial.id, { client_id: anna.id });
    assert.equal(again.billing_template_client.status, 'active');
    // Clean up: these subscriptions must not bill in the clock tests below.
    for (const id of [periodEnd.id, trial.id, plain.id]) await client.billingTemplates.delete(id);
  });

  test('billing periods on the clock: a declined charge, the invoice paid with a new card, the next period charged to it, a restart', async () => {
    const plan = await client.billingTemplates.create(template({ title: 'Monthly tea' }));
    const anna = await newClient();
    const joined = await client.billingTemplates.addSubscriber(plan.id, {
      client_id: anna.id,
      send_invoice_on_add_subscriber: true,
    });
    // The card approves at checkout and declines every later charge.
    await pay(joined.purchase!.id, CARD.chargesDeclined);
    assert.equal((await client.billingTemplates.clients.get(plan.id, anna.id)).status, 'active');

    const billingsOf = async () => (await outbox()).results.filter((message) => message.to === anna.email);
    const nextBilling = async () =>
      (await client.billingTemplates.clients.get(plan.id, anna.id)).next_billing_on!;

    // Period 1 starts on 28 February: the charge is declined.
    const feb28 = periodStart(START, { unit: 'month', count: 1 }, 1);
    assert.equal(await nextBilling(), feb28 / 1000);
    sandbox.clock.advance(feb28 - 1 - sandbox.clock.now().getTime());
    assert.equal((await billingsOf()).length, 2, 'nothing before its time (the first invoice and receipt)');
    sandbox.clock.advance(1);
    const mails = await billingsOf();
    assert.deepEqual(
      mails.map((message) => message.kind),
      ['invoice', 'receipt', 'invoice'],
    );
    const invoice = mails[2]!;
    assert.equal(invoice.created_on, feb28 / 1000, 'dated at its billing time');
    const unpaid = await client.purchases.get(invoice.purchase_id);
    assert.equal(unpaid.status, 'error');
    assert.equal(invoice.checkout_url, unpaid.checkout_url);
    await expectEvents(unpaid.id, [
      'purchase.created',
      'purchase.payment_failure',
      'purchase.subscription_charge_failure',
    ]);

    // The customer pays the invoice with a new card, which is saved.
    await pay(unpaid.id, CARD.approved);
    const paidInvoice = await client.purchases.get(unpaid.id);
    assert.equal(paidInvoice.status, 'paid');
    assert.equal(paidInvoice.is_recurring_token, true);
    await expectEvents(unpaid.id, [
      'purchase.created',
      'purchase.payment_failure',
      'purchase.subscription_charge_failure',
      'purchase.paid',
    ]);

    // Restart: the billing task is set again from the stored subscriber.
    await sandbox.close();
    await start();
    const mar31 = periodStart(START, { unit: 'month', count: 1 }, 2);
    assert.equal(await nextBilling(), mar31 / 1000);

    // Two periods at once: 31 March and 30 April, each charged to the new card and dated at its own time.
    const apr30 = periodStart(START, { unit: 'month', count: 1 }, 3);
    sandbox.clock.advance(apr30 - sandbox.clock.now().getTime());
    const later = (await billingsOf()).slice(4);
    assert.deepEqual(
      later.map((message) => [message.kind, message.created_on]),
      [
        ['receipt', mar31 / 1000],
        ['receipt', apr30 / 1000],
      ],
    );
    for (const message of later) {
      const charged = await client.purchases.get(message.purchase_id);
      assert.equal(charged.status, 'paid');
      assert.equal(charged.transaction_data.attempts[0]?.type, 'charge');
      const deliveries = await v1(
        sandbox,
        'GET',
        `/webhooks/deliveries/?id=${charged.id}&source_type=purchase`,
      );
      assert.deepEqual(
        deliveries.body.results.map((delivery: { event: string }) => delivery.event),
        ['purchase.created', 'purchase.paid'],
      );
    }
    // The jump left 31 March's events past the 36-hour delivery limit; 30 April's arrive.
    await expectEvents(later[1]!.purchase_id, ['purchase.created', 'purchase.paid']);
    assert.equal(await nextBilling(), periodStart(START, { unit: 'month', count: 1 }, 4) / 1000);

    // Paused, the periods pass unbilled; cancelled, none is billed again.
    await client.billingTemplates.clients.patch(plan.id, anna.id, { status: 'paused' });
    sandbox.clock.advance(periodStart(START, { unit: 'month', count: 1 }, 4) - sandbox.clock.now().getTime());
    assert.equal((await billingsOf()).length, 6);
    await client.billingTemplates.clients.patch(plan.id, anna.id, { status: 'cancelled' });
    sandbox.clock.advance(62 * DAY_MS);
    assert.equal((await billingsOf()).length, 6);
  });

  test('a trial ends with no saved card: subscription_charge_failure and an invoice whose payment saves one', async () => {
    const plan = await client.billingTemplates.create(
      template({ subscription_period: { unit: 'week', count: 1 }, subscription_trial_periods: 1 }),
    );
    const ben = await newClient();
    const joined = await client.billingTemplates.addSubscriber(plan.id, { client_id: ben.id });
    assert.equal(joined.purchase, null);
    const trialEnd = joined.billing_template_client.next_billing_on! * 1000;
    sandbox.clock.advance(trialEnd - sandbox.clock.now().getTime());
    const mailed = (await outbox()).results.filter((message) => message.to === ben.email);
    assert.deepEqual(
      mailed.map((message) => message.kind),
      ['invoice'],
    );
    const invoice = await client.purchases.get(mailed[0]!.purchase_id);
    assert.equal(invoice.force_recurring, true);
    assert.equal(invoice.transaction_data.attempts.length, 0, 'no card to charge: nothing was tried');
    await expectEvents(invoice.id, ['purchase.created', 'purchase.subscription_charge_failure']);

    await pay(invoice.id, CARD.approved);
    sandbox.clock.advance(7 * DAY_MS);
    const after = (await outbox()).results.filter((message) => message.to === ben.email);
    assert.deepEqual(
      after.map((message) => message.kind),
      ['invoice', 'receipt', 'receipt'],
    );
    const charged = await client.purchases.get(after[2]!.purchase_id);
    assert.equal(charged.status, 'paid');
    await client.billingTemplates.delete(plan.id);
  });

  test('a pending subscriber set active starts now; is_subscription is fixed under subscribers; delete ends billing', async () => {
    const plan = await client.billingTemplates.create(
      template({ subscription_period: { unit: 'day', count: 10 } }),
    );
    const carl = await newClient();
    await client.billingTemplates.addSubscriber(plan.id, { client_id: carl.id });
    assert.deepEqual(
      await problems(client.billingTemplates.clients.patch(plan.id, carl.id, { status: 'paused' })),
      ['status: invalid'],
    );
    const started = await client.billingTemplates.clients.patch(plan.id, carl.id, { status: 'active' });
    assert.equal(started.status, 'active');
    assert.equal(started.next_billing_on, Math.floor((sandbox.clock.now().getTime() + 10 * DAY_MS) / 1000));
    assert.deepEqual(
      await problems(client.billingTemplates.update(plan.id, { brand_id: V1.brandId, purchase: PRODUCTS })),
      ['is_subscription: invalid'],
    );
    await client.billingTemplates.delete(plan.id);
    await rejected(client.billingTemplates.clients.get(plan.id, carl.id), 404);
    const mailedBefore = (await outbox()).results.filter((message) => message.to === carl.email).length;
    sandbox.clock.advance(11 * DAY_MS);
    assert.equal(
      (await outbox()).results.filter((message) => message.to === carl.email).length,
      mailedBefore,
      'a deleted template bills no one',
    );
    const noKey = await fetch(`${sandbox.url}/sandbox/v1/outbox/`);
    assert.equal(noKey.status, 401);
    assert.equal(((await noKey.json()) as { __all__: { code: string } }).__all__.code, 'not_authenticated');
  });
  test('under a hostile tester: concurrent add_subscriber of one Client subscribes once; the card saved is offered at the next checkout', async () => {
    const plan = await client.billingTemplates.create(template({ subscription_trial_periods: 0 }));
    const subscriber = await newClient();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        v1(sandbox, 'POST', `/billing_templates/${plan.id}/add_subscriber/`, {
          body: { client_id: subscriber.id },
        }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 400, 400, 400, 400]);
    const listed = [];
    for await (const entry of client.billingTemplates.clients.list(plan.id)) listed.push(entry);
    assert.equal(listed.length, 1);
    const purchaseId = answers.find((answer) => answer.status === 200)!.body.purchase.id as string;
    await pay(purchaseId, '4111111111111111');
    // The subscription's card is the Client's: offered first at the Client's next checkout.
    const next = await client.purchases.create(
      purchaseBody({ client_id: subscriber.id }) as unknown as CreatePurchaseRequest,
    );
    const page = await (await fetch(next.checkout_url)).text();
    assert.match(page, new RegExp(`value="saved:${purchaseId}" checked`));
    // Malformed ids and bodies: 4xx, never 5xx.
    for (const [method, path, body] of [
      ['POST', '/billing_templates/nope/add_subscriber/', { client_id: subscriber.id }],
      ['POST', `/billing_templates/${plan.id}/add_subscriber/`, '[]'],
      ['PATCH', `/billing_templates/${plan.id}/clients/%zz/`, { status: 'paused' }],
      ['POST', '/billing/', { clients: 'all' }],
      ['PUT', `/billing_templates/${plan.id}/`, { subscription_period: { unit: 'fortnight', count: 1 } }],
    ] as const) {
      const answer = await v1(sandbox, method, path, { body });
      assert.ok(answer.status >= 400 && answer.status < 500, `${method} ${path}: ${answer.status}`);
    }
  });
});
