/**
 * v1 invoices, billing templates and subscriptions: the typed client against the sandbox over HTTP, every
 * endpoint with its 400 and 404 cases; the document's BillingTemplateClient table row by row; billing
 * periods on the sandbox clock (calendar months from 31 January), a declined charge answered with
 * `purchase.subscription_charge_failure` and an invoice that, paid with a new card, is the card the next
 * period charges; the outbox; and a restart with a subscription active.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { BillingTemplateRequest, Client, CreatePurchaseRequest } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import { periodStart } from '../../../src/sandbox/v1/billing-request.js';
import { createV1Client, V1ApiError, type V1Client } from '../../../src/server/index.js';
import type { FakeMerchant } from '../support.js';
import {
  cardForm,
  expectWebhookEvents,
  OTHER,
  postForm,
  purchaseBody,
  V1,
  v1,
  withV1Sandbox,
} from './support.js';

const WEBHOOK_PATH = '/v1/webhook';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Real time stands still in these tests: only advancing the clock moves it. */
const START = Date.UTC(2027, 0, 31, 10, 0, 0);
const CARD = { approved: '4111111111111111', chargesDeclined: '4000000000000341' } as const;
const PRODUCTS = { products: [{ name: 'Tea club', price: 990, quantity: 1 }] };

describe('v1 invoices, billing templates and subscriptions', () => {
  const fixture = withV1Sandbox({ now: () => new Date(START) });
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let dataDir: string;

  async function start(): Promise<void> {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  }

  before(async () => {
    ({ merchant, sandbox, client, dataDir } = fixture);
    await client.webhooks.create({
      title: 'all',
      callback: `${merchant.url}${WEBHOOK_PATH}`,
      all_events: true,
    });
  });

  async function rejected(call: Promise<unknown>, status: number): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail(`expected ${status}`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    assert.equal(error.status, status, error.message);
    return error;
  }

  /** The field and code of each problem of a 400. */
  async function problems(call: Promise<unknown>): Promise<string[]> {
    const error = await rejected(call, 400);
    return (error.errors ?? []).map((problem) => `${problem.field}: ${problem.code}`);
  }

  let seq = 0;
  function newClient(): Promise<Client> {
    seq += 1;
    return client.clients.create({ email: `subscriber${seq}@example.com`, full_name: `Subscriber ${seq}` });
  }

  function template(overrides: Partial<BillingTemplateRequest> = {}): BillingTemplateRequest {
    return {
      brand_id: V1.brandId,
      title: 'Tea club',
      is_subscription: true,
      subscription_period: { unit: 'month', count: 1 },
      purchase: PRODUCTS,
      ...overrides,
    };
  }

  async function pay(purchaseId: string, card: string): Promise<void> {
    const answer = await postForm(sandbox, `/checkout/${purchaseId}/pay`, cardForm(card));
    assert.equal(answer.status, 200, answer.html);
  }

  /** Resolves once the webhook events about Purchase `id`, in the order they arrived, are exactly `expected`. */
  const expectEvents = (id: string, expected: string[]) =>
    expectWebhookEvents(merchant, WEBHOOK_PATH, id, expected);

  async function outbox(key: string = V1.secretKey) {
    const answer = await fetch(`${sandbox.url}/sandbox/v1/outbox/?per_page=100`, {
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(answer.status, 200);
    return (await answer.json()) as {
      results: Array<{
        kind: string;
        to: string;
        purchase_id: string;
        checkout_url: string | null;
        created_on: number;
      }>;
    };
  }

  test('periods count calendar months in UTC from the first day, never from the one before', () => {
    const month = { unit: 'month', count: 1 } as const;
    const days = [1, 2, 3, 13].map((index) =>
      new Date(periodStart(START, month, index)).toISOString().slice(0, 10),
    );
    assert.deepEqual(days, ['2027-02-28', '2027-03-31', '2027-04-30', '2028-02-29']);
    assert.equal(
      new Date(periodStart(Date.UTC(2028, 1, 29), { unit: 'year', count: 1 }, 1)).toISOString().slice(0, 10),
      '2029-02-28',
    );
    assert.equal(periodStart(START, { unit: 'week', count: 2 }, 1), START + 14 * DAY_MS);
    assert.equal(periodStart(START, { unit: 'day', count: 3 }, 2), START + 6 * DAY_MS);
  });

  test('templates: create, get, list, replace, delete, each checked, another account’s unseen', async () => {
    const created = await client.billingTemplates.create(template({ subscription_trial_periods: 1 }));
    assert.equal(created.is_subscription, true);
    // Sent as the sandbox's earlier {unit, count}, answered in the platform's shape.
    assert.equal(created.subscription_period, 1);
    assert.equal(created.subscription_period_units, 'months');
    assert.equal(created.subscription_trial_periods, 1);
    assert.equal(created.subscription_charge_period_end, false);
    assert.deepEqual(created.purchase, PRODUCTS);
    assert.deepEqual(await client.billingTemplates.get(created.id), created);

    const listed = [];
    for await (const item of client.billingTemplates.list({ per_page: 1 })) listed.push(item.id);
    assert.ok(listed.includes(created.id));

    const replaced = await client.billingTemplates.update(created.id, template({ title: 'Coffee club' }));
    assert.equal(replaced.title, 'Coffee club');
    assert.equal(replaced.subscription_trial_periods, 0, 'a PUT replaces what it does not send');
    assert.equal(replaced.created_on, created.created_on);

    const foreign = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
    assert.equal((await rejected(foreign.billingTemplates.get(created.id), 404)).code, 'not_found');

    assert.deepEqual(
      await problems(client.billingTemplates.update(created.id, template({ subscription_period: null }))),
      ['subscription_period: required'],
    );
    assert.deepEqual(await problems(client.billingTemplates.list({ per_page: 0 }).toArray()), [
      'per_page: min_value',
    ]);
    assert.equal((await v1(sandbox, 'POST', '/billing_templates/', { body: '[1]' })).status, 400);
    assert.equal((await v1(sandbox, 'POST', '/billing/', { body: '"x"' })).status, 400);

    await client.billingTemplates.delete(created.id);
    await rejected(client.billingTemplates.get(created.id), 404);
    await rejected(client.billingTemplates.clients.list(created.id).toArray(), 404);
    await rejected(client.billingTemplates.delete(created.id), 404);
    await rejected(client.billingTemplates.update(created.id, template()), 404);
    assert.equal((await v1(sandbox, 'GET', '/billing_templates/not-a-uuid/')).status, 404);
  });

  test('a template is refused field by field: the period’s shape, and its purchase as a Purchase’s', async () => {
    assert.deepEqual(
      await problems(client.billingTemplates.create(template({ subscription_period: null }))),
      ['subscription_period: required'],
    );
    for (const period of [
      '1 month',
      { unit: 'fortnight', count: 1 },
      { unit: 'month', count: 0 },
      { unit: 'month', count: 1.5 },
      { unit: 'month', count: 1, anchor: 3 },
    ]) {
      const answer = await v1(sandbox, 'POST', '/billing_templates/', {
        body: { ...template(), subscription_period: period },
      });
      assert.equal(answer.status, 400, JSON.stringify(period));
      assert.equal(answer.body.subscription_period.code, 'invalid');
      assert.match(answer.body.subscription_period.message, /a whole number from 1 to 1000/);
    }
    const bad = await v1(sandbox, 'POST', '/billing_templates/', {
      body: {
        brand_id: OTHER.brandId,
        is_subscription: 'yes',
        subscription_trial_periods: -1,
        purchase: { products: [{ name: 'Tea', price: -5 }] },
      },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(Object.keys(bad.body).sort(), [
      'brand_id',
      'is_subscription',
      'purchase.products[0].price',
      'subscription_trial_periods',
    ]);
    assert.deepEqual(
      await problems(client.billingTemplates.create({ brand_id: V1.brandId } as BillingTemplateRequest)),
      ['purchase: required'],
    );
    // A one-time template needs no period.
    const invoiceTemplate = await client.billingTemplates.create({
      brand_id: V1.brandId,
      purchase: PRODUCTS,
    });
    assert.equal(invoiceTemplate.is_subscription, false);
    assert.equal(invoiceTemplate.subscription_period, null);
  });

  test('POST /billing/: one Purchase and invoice per client, nothing stored, title and is_subscription ignored', async () => {
    const [anna, ben] = [await newClient(), await newClient()];
    const before = [];
    for await (const item of client.billingTemplates.list()) before.push(item.id);
    const ids = await client.billing.create({
      brand_id: V1.brandId,
      purchase: PRODUCTS,
      clients: [{ client_id: anna.id }, { client_id: ben.id }],
      // Read-only there: ignored.
      ...({ title: 'ignored', is_subscription: true } as object),
    });
    assert.equal(ids.length, 2);
    const purchases = await Promise.all(ids.map((id) => client.purchases.get(id)));
    assert.deepEqual(
      purchases.map((purchase) => [
        purchase.client_id,
        purchase.client.email,
        purchase.status,
        purchase.force_recurring,
      ]),
      [
        [anna.id, anna.email, 'created', false],
        [ben.id, ben.email, 'created', false],
      ],
    );
    const after = [];
    for await (const item of client.billingTemplates.list()) after.push(item.id);
    assert.deepEqual(after, before, 'no template is stored');
    const mailed = (await outbox()).results.filter((message) => ids.includes(message.purchase_id));
    assert.deepEqual(
      mailed.map((message) => [message.kind, message.to, message.checkout_url]),
      purchases.map((purchase) => ['invoice', purchase.client.email, purchase.checkout_url]),
    );
    assert.deepEqual((await outbox(OTHER.secretKey)).results, [], 'another account’s outbox is its own');

    const refusals = [
      [{ brand_id: V1.brandId, purchase: PRODUCTS }, ['clients: required']],
      [{ brand_id: V1.brandId, purchase: PRODUCTS, clients: [] }, ['clients: empty']],
      [
        { brand_id: V1.brandId, purchase: PRODUCTS, clients: [{ client_id: 'x' }, 7] },
        ['clients[0].client_id: invalid', 'clients[1]: invalid'],
      ],
      [
        { brand_id: V1.brandId, purchase: PRODUCTS, clients: [{ client_id: OTHER.brandId }] },
        ['clients[0].client_id: invalid'],
      ],
      [{ brand_id: V1.brandId, clients: [{ client_id: anna.id }] }, ['purchase: required']],
    ] as const;
    for (const [body, expected] of refusals) {
      assert.deepEqual(await problems(client.billing.create(body as never)), expected, JSON.stringify(body));
    }
    const unauthenticated = await v1(sandbox, 'POST', '/billing/', { key: null, body: {} });
    assert.equal(unauthenticated.status, 401);
  });

  test('send_invoice: one-time templates only, the client not saved', async () => {
    const anna = await newClient();
    const oneTime = await client.billingTemplates.create({ brand_id: V1.brandId, purchase: PRODUCTS });
    const purchase = await client.billingTemplates.sendInvoice(oneTime.id, { client_id: anna.id });
    assert.equal(purchase.client_id, anna.id);
    assert.equal(purchase.client.email, anna.email);
    assert.equal(purchase.purchase.total, 990);
    assert.equal(purchase.billing_template_id, oneTime.id, 'the template that made it');
    assert.ok(purchase.checkout_url.endsWith(`/checkout/${purchase.id}/`));
    const subscribers = [];
    for await (const item of client.billingTemplates.clients.list(oneTime.id)) subscribers.push(item);
    assert.deepEqual(subscribers, [], 'the client of an invoice is not saved');
    assert.ok(
      (await outbox()).results.some(
        (message) => message.purchase_id === purchase.id && message.kind === 'invoice',
      ),
    );

    const subscription = await client.billingTemplates.create(template());
    assert.deepEqual(
      await problems(client.billingTemplates.sendInvoice(subscription.id, { client_id: anna.id })),
      ['__all__: invalid'],
    );
    assert.deepEqual(await problems(client.billingTemplates.sendInvoice(oneTime.id, {} as never)), [
      'client_id: required',
    ]);
    assert.deepEqual(
      await problems(client.billingTemplates.sendInvoice(oneTime.id, { client_id: OTHER.brandId })),
      ['client_id: invalid'],
    );
    await rejected(client.billingTemplates.sendInvoice(OTHER.brandId, { client_id: anna.id }), 404);
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
  test('the SDK’s BillingTemplate: a request built from its model’s members is taken, and answered with every member of its model', async () => {
    // chip-php-sdk lib/Model/Billing/BillingTemplate.php as its users fill it (nulls are not sent).
    const sdkBody = {
      brand_id: V1.brandId,
      title: 'Tea club, two months',
      is_subscription: true,
      subscription_period: 1,
      subscription_period_units: 'months',
      subscription_due_period: 7,
      subscription_due_period_units: 'days',
      subscription_charge_period_end: false,
      subscription_trial_periods: 0,
      subscription_active: true,
      number_of_billing_cycles: 2,
      force_recurring: true,
      purchase: PRODUCTS,
    };
    const created = await v1(sandbox, 'POST', '/billing_templates/', { body: sdkBody });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assertModel(created.body, SDK_TEMPLATE_MEMBERS, 'BillingTemplate');
    for (const [member, value] of Object.entries(sdkBody)) {
      assert.deepEqual(created.body[member], value, `${member} is answered as sent`);
    }
    assert.equal(created.body.type, 'billing_template');
    assert.equal(created.body.is_test, true);
    assert.equal(created.body.subscription_has_active_clients, false);

    // chip-php-sdk lib/Model/Billing/BillingTemplateClient.php: client_id and the settings.
    const anna = await newClient();
    const added = await v1(sandbox, 'POST', `/billing_templates/${created.body.id}/add_subscriber/`, {
      body: { client_id: anna.id, payment_method_whitelist: ['visa'], send_receipt: false },
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const subscriber = added.body.billing_template_client;
    assertModel(subscriber, SDK_SUBSCRIBER_MEMBERS, 'BillingTemplateClient');
    assert.equal(subscriber.type, 'billing_template_client');
    assert.deepEqual(
      [
        subscriber.status,
        subscriber.number_of_billing_cycles_passed,
        subscriber.subscription_billing_scheduled_on,
      ],
      ['pending', 0, null],
    );
    assert.deepEqual(
      [
        subscriber.send_invoice_on_add_subscriber,
        subscriber.send_invoice_on_charge_failure,
        subscriber.send_receipt,
      ],
      [false, true, false],
      'the platform’s defaults, and send_receipt as sent',
    );
    const first = added.body.purchase;
    assert.deepEqual(first.payment_method_whitelist, ['visa'], 'the whitelist goes into its Purchases');
    assert.equal(first.due, Math.floor((sandbox.clock.now().getTime() + 7 * DAY_MS) / 1000), 'due 7 days on');
    assert.equal(
      (await outbox()).results.filter((message) => message.to === anna.email).length,
      0,
      'no invoice mailed: send_invoice_on_add_subscriber is false by default',
    );

    // Paid: the first cycle; the next billing is a month on, named by its date.
    await pay(first.id, CARD.approved);
    const ownPath = `/billing_templates/${created.body.id}/clients/${subscriber.id}/`;
    const active = (await v1(sandbox, 'GET', ownPath)).body;
    assert.equal(active.client_id, anna.id, 'a subscriber is found by its own id too');
    assert.equal(active.status, 'active');
    assert.equal(active.number_of_billing_cycles_passed, 1);
    assert.equal(
      active.subscription_billing_scheduled_on,
      new Date(active.next_billing_on * 1000).toISOString().slice(0, 10),
    );
    assert.equal((await client.billingTemplates.get(created.body.id)).subscription_has_active_clients, true);

    // The second cycle is charged, and it is the last of number_of_billing_cycles: the subscription ends.
    sandbox.clock.advance(active.next_billing_on * 1000 - sandbox.clock.now().getTime());
    const ended = (await v1(sandbox, 'GET', ownPath)).body;
    assert.deepEqual(
      [ended.status, ended.number_of_billing_cycles_passed, ended.subscription_billing_scheduled_on],
      ['cancelled', 2, null],
    );
    assert.deepEqual(
      (await outbox()).results.filter((message) => message.to === anna.email),
      [],
      'send_receipt false: no receipt',
    );
    const deliveries = await v1(
      sandbox,
      'GET',
      `/webhooks/deliveries/?id=${subscriber.id}&source_type=billing_template_client`,
    );
    assert.equal(deliveries.status, 200);
    const events = deliveries.body.results.map((delivery: { event: string }) => delivery.event);
    assert.deepEqual(
      events,
      ['purchase.created', 'purchase.paid', 'purchase.created', 'purchase.paid'],
      'the deliveries of the subscriber’s Purchases: the first and the charged second',
    );
    const foreign = await v1(
      sandbox,
      'GET',
      `/webhooks/deliveries/?id=${subscriber.id}&source_type=billing_template_client`,
      { key: OTHER.secretKey },
    );
    assert.equal(foreign.status, 404, 'another account’s subscriber is none of this one’s');
    await client.billingTemplates.delete(created.body.id);
  });

  test('the SDK’s shape refused member by member; subscription_active false bills no period; settings PATCHed; invoice_* on one-time Purchases', async () => {
    const invalid = await v1(sandbox, 'POST', '/billing_templates/', {
      body: {
        ...template(),
        subscription_period: 1,
        subscription_due_period: 3,
        number_of_billing_cycles: -1,
        invoice_issued: '2027-02-30',
      },
    });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys(invalid.body).sort(), [
      'invoice_issued',
      'number_of_billing_cycles',
      'subscription_due_period_units',
      'subscription_period_units',
    ]);
    const singular = await v1(sandbox, 'POST', '/billing_templates/', {
      body: { ...template(), subscription_period: 1, subscription_period_units: 'month' },
    });
    assert.match(singular.body.subscription_period_units.message, /one of days, weeks, months, years/);

    const plan = await client.billingTemplates.create(
      template({ subscription_period: 1, subscription_period_units: 'weeks', subscription_trial_periods: 1 }),
    );
    const ben = await newClient();
    const joined = await client.billingTemplates.addSubscriber(plan.id, { client_id: ben.id });
    assert.equal(joined.billing_template_client.number_of_billing_cycles_passed, 0, 'a trial bills nothing');
    const patched = await client.billingTemplates.clients.patch(plan.id, ben.id, {
      send_invoice_on_charge_failure: false,
    });
    assert.deepEqual([patched.status, patched.send_invoice_on_charge_failure], ['active', false]);
    const refused = await problems(
      client.billingTemplates.clients.patch(plan.id, ben.id, { payment_method_whitelist: ['nope'] }),
    );
    assert.deepEqual([...new Set(refused)], ['payment_method_whitelist: invalid'], 'checked as a Purchase’s');
    await client.billingTemplates.update(plan.id, {
      ...template({
        subscription_period: 1,
        subscription_period_units: 'weeks',
        subscription_trial_periods: 1,
      }),
      subscription_active: false,
    });
    sandbox.clock.advance(8 * DAY_MS);
    const idle = await client.billingTemplates.clients.get(plan.id, ben.id);
    assert.equal(idle.number_of_billing_cycles_passed, 0, 'an inactive subscription bills no period');
    await client.billingTemplates.update(
      plan.id,
      template({ subscription_period: 1, subscription_period_units: 'weeks', subscription_trial_periods: 1 }),
    );
    sandbox.clock.advance(7 * DAY_MS);
    const billed = await client.billingTemplates.clients.get(plan.id, ben.id);
    assert.equal(billed.number_of_billing_cycles_passed, 1, 'billed again once active');
    assert.deepEqual(
      (await outbox()).results.filter((message) => message.to === ben.email),
      [],
      'no card and send_invoice_on_charge_failure false: nothing mailed',
    );
    await client.billingTemplates.delete(plan.id);

    const oneTime = await client.billingTemplates.create({
      brand_id: V1.brandId,
      purchase: PRODUCTS,
      invoice_due: 1_900_000_000,
      invoice_skip_capture: true,
      invoice_issued: '2027-02-01',
    });
    assert.deepEqual(
      [
        oneTime.invoice_due,
        oneTime.invoice_skip_capture,
        oneTime.invoice_issued,
        oneTime.subscription_period,
      ],
      [1_900_000_000, true, '2027-02-01', null],
    );
    const invoice = await client.billingTemplates.sendInvoice(oneTime.id, { client_id: ben.id });
    assert.deepEqual([invoice.due, invoice.skip_capture], [1_900_000_000, true]);
  });

  test('a data dir of an earlier version: its {unit, count} templates and its subscribers without ids are answered in the SDK’s shape, and keep billing', async () => {
    const plan = await client.billingTemplates.create(template({ subscription_trial_periods: 1 }));
    const dora = await newClient();
    const before = (await client.billingTemplates.addSubscriber(plan.id, { client_id: dora.id }))
      .billing_template_client;
    await sandbox.close();

    // What an earlier version stored: the template's period as {unit, count} and none of the newer members.
    const store = openStore({ dataDir });
    const templates = store.collection<{ template: Record<string, unknown> }>('v1-billing-templates');
    const subscribers = store.collection<Record<string, unknown>>('v1-billing-subscribers');
    store.transaction(() => {
      const record = templates.get(plan.id)!;
      const {
        subscription_period_units: _u,
        subscription_due_period: _d,
        subscription_due_period_units: _du,
        subscription_active: _a,
        number_of_billing_cycles: _n,
        invoice_issued: _ii,
        invoice_due: _id,
        invoice_skip_capture: _is,
        invoice_send_receipt: _ir,
        force_recurring: _f,
        ...earlier
      } = record.template;
      templates.put(plan.id, {
        ...record,
        template: { ...earlier, subscription_period: { unit: 'month', count: 1 } },
      });
      for (const [key, stored] of [...subscribers.entries()]) {
        if (stored['clientId'] !== dora.id) continue;
        const { id: _i, cycles: _c, cyclesPassed: _p, settings: _s, purchaseIds: _ids, ...older } = stored;
        subscribers.put(key, older);
      }
    });
    await store.close();
    await start();

    const upgraded = await client.billingTemplates.get(plan.id);
    assertModel(upgraded as unknown as Record<string, unknown>, SDK_TEMPLATE_MEMBERS, 'BillingTemplate');
    assert.deepEqual([upgraded.subscription_period, upgraded.subscription_period_units], [1, 'months']);
    const subscriber = await client.billingTemplates.clients.get(plan.id, dora.id);
    assertModel(
      subscriber as unknown as Record<string, unknown>,
      SDK_SUBSCRIBER_MEMBERS,
      'BillingTemplateClient',
    );
    assert.notEqual(subscriber.id, before.id, 'a new id, kept from now on');
    assert.equal((await client.billingTemplates.clients.get(plan.id, subscriber.id)).id, subscriber.id);
    assert.equal(subscriber.next_billing_on, before.next_billing_on);
    sandbox.clock.advance(subscriber.next_billing_on! * 1000 - sandbox.clock.now().getTime());
    assert.equal(
      (await client.billingTemplates.clients.get(plan.id, dora.id)).number_of_billing_cycles_passed,
      1,
    );
    await client.billingTemplates.delete(plan.id);
  });
});

type JsonType = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

const jsonTypeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);

/** Asserts `answer` has every member of `model`, each of one of its JSON types. */
function assertModel(
  answer: Record<string, unknown>,
  model: Record<string, readonly JsonType[]>,
  name: string,
) {
  const missing = Object.keys(model).filter((member) => !(member in answer));
  assert.deepEqual(missing, [], `${name} lacks members of the SDK model`);
  for (const [member, types] of Object.entries(model)) {
    assert.ok(
      types.includes(jsonTypeOf(answer[member])),
      `${name}.${member} is ${jsonTypeOf(answer[member])}, not ${types.join(' or ')}`,
    );
  }
}

/**
 * Every member of chip-php-sdk's lib/Model/Billing/BillingTemplate.php, typed as the platform's API reference
 * answers them (null where nothing is set). Its `clients` is left out: it is the request member of
 * `POST /billing/`, and the reference's BillingTemplate answers do not carry it.
 */
const SDK_TEMPLATE_MEMBERS: Record<string, readonly JsonType[]> = {
  type: ['string'],
  id: ['string'],
  created_on: ['number'],
  updated_on: ['number'],
  purchase: ['object'],
  company_id: ['string'],
  number_of_billing_cycles: ['number'],
  is_test: ['boolean'],
  user_id: ['string', 'null'],
  brand_id: ['string'],
  title: ['string', 'null'],
  is_subscription: ['boolean'],
  invoice_issued: ['string', 'null'],
  invoice_due: ['number', 'null'],
  invoice_skip_capture: ['boolean'],
  invoice_send_receipt: ['boolean'],
  subscription_period: ['number', 'null'],
  subscription_period_units: ['string', 'null'],
  subscription_due_period: ['number', 'null'],
  subscription_due_period_units: ['string', 'null'],
  subscription_charge_period_end: ['boolean'],
  subscription_trial_periods: ['number'],
  subscription_active: ['boolean'],
  subscription_has_active_clients: ['boolean'],
  force_recurring: ['boolean'],
};

/** Every member of chip-php-sdk's lib/Model/Billing/BillingTemplateClient.php, typed as the API reference answers them. */
const SDK_SUBSCRIBER_MEMBERS: Record<string, readonly JsonType[]> = {
  type: ['string'],
  id: ['string'],
  created_on: ['number'],
  updated_on: ['number'],
  client_id: ['string'],
  number_of_billing_cycles_passed: ['number'],
  status: ['string'],
  subscription_billing_scheduled_on: ['string', 'null'],
  payment_method_whitelist: ['array', 'null'],
  send_invoice_on_charge_failure: ['boolean'],
  send_invoice_on_add_subscriber: ['boolean'],
  send_receipt: ['boolean'],
};
