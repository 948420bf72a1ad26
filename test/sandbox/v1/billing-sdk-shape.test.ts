/**
 * v1 billing in the shape of the platform's PHP SDK (chip-php-sdk): its BillingTemplate and
 * BillingTemplateClient models member by member, requests built from them taken and refused, and a data dir
 * of an earlier sandbox version answered in that shape and billing on.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import type { V1Client } from '../../../src/server/index.js';
import {
  BILLING_CARD as CARD,
  DAY_MS,
  OTHER,
  BILLING_PRODUCTS as PRODUCTS,
  V1,
  v1,
  withBillingSandbox,
} from './support.js';

describe('v1 billing in the SDK’s shape', () => {
  const { fixture, problems, newClient, template, pay, outbox } = withBillingSandbox();
  let sandbox: Sandbox;
  let client: V1Client;
  let dataDir: string;

  async function start(): Promise<void> {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  }

  before(() => {
    ({ sandbox, client, dataDir } = fixture);
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
