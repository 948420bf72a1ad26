/**
 * v1 billing templates and the invoices they send: the typed client against the sandbox over HTTP, every
 * template endpoint with its 400 and 404 cases, billing periods counted in calendar months, `POST /billing/`
 * and `send_invoice` with the outbox.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { BillingTemplateRequest } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { periodStart } from '../../../src/sandbox/v1/billing-request.js';
import { createV1Client, type V1Client } from '../../../src/server/index.js';
import {
  DAY_MS,
  OTHER,
  BILLING_PRODUCTS as PRODUCTS,
  BILLING_START as START,
  V1,
  v1,
  withBillingSandbox,
} from './support.js';

describe('v1 billing templates and invoices', () => {
  const { fixture, rejected, problems, newClient, template, outbox } = withBillingSandbox();
  let sandbox: Sandbox;
  let client: V1Client;

  before(() => {
    ({ sandbox, client } = fixture);
  });

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
});
