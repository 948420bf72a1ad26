/**
 * No event lost to the clock: stepping the sandbox clock a day at a time for 30 days, as the README advises
 * for subscriptions, delivers every webhook of 5 daily subscriptions to a receiver that answers at once, and
 * each step answers only once what fell due on the way was delivered. A long step lets other requests in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { createV1Client, type V1Client } from '../../src/server/index.js';
import { FakeMerchant } from './support.js';
import { advanceClock, cardForm, postForm, startV1Sandbox, V1 } from './v1-support.js';

const WEBHOOK_PATH = '/v1/webhook';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Real time stands still: only the steps move the clock, back to back. */
const START = Date.UTC(2027, 2, 1, 10, 0, 0);

describe('the sandbox clock and deliveries', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;

  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startV1Sandbox(merchant, { now: () => new Date(START) });
    client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    await client.webhooks.create({
      title: 'all',
      callback: `${merchant.url}${WEBHOOK_PATH}`,
      all_events: true,
    });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  /** `count` daily subscribers, each paid with a card that the billings charge. */
  async function dailySubscribers(count: number, title: string): Promise<string> {
    const plan = await client.billingTemplates.create({
      brand_id: V1.brandId,
      title,
      is_subscription: true,
      subscription_period: { unit: 'day', count: 1 },
      purchase: { products: [{ name: title, price: 100, quantity: 1 }] },
    });
    for (let index = 0; index < count; index++) {
      const customer = await client.clients.create({ email: `${title}-${index}@example.com` });
      const joined = await client.billingTemplates.addSubscriber(plan.id, { client_id: customer.id });
      const paid = await postForm(
        sandbox,
        `/checkout/${joined.purchase!.id}/pay`,
        cardForm('4111111111111111'),
      );
      assert.equal(paid.status, 200, paid.html);
    }
    return plan.id;
  }

  const paidEvents = () =>
    merchant
      .requests(WEBHOOK_PATH)
      .map((request) => JSON.parse(request.body) as { id: string; event_type: string })
      .filter((event) => event.event_type === 'purchase.paid');

  test('30 steps of a day with 5 daily subscriptions: every webhook delivered when each step answers', async () => {
    const plan = await dailySubscribers(5, 'daily');
    // A step of nothing answers once what is due now was delivered: the first payments' webhooks.
    await advanceClock(sandbox, 0);
    const before = paidEvents().length;
    assert.equal(before, 5);
    for (let day = 1; day <= 30; day++) {
      await advanceClock(sandbox, DAY_MS);
      // Read at once: the step answered only after the day's webhooks were delivered.
      assert.equal(
        paidEvents().length - before,
        5 * day,
        `day ${day}: each billing's purchase.paid delivered`,
      );
    }
    const ids = new Set(paidEvents().map((event) => event.id));
    for (const subscriber of await client.billingTemplates.clients.list(plan).toArray()) {
      assert.equal(subscriber.number_of_billing_cycles_passed, 31, 'the first payment and 30 days billed');
    }
    assert.equal(ids.size, 5 + 150, 'every billing of the month, each once');
    await client.billingTemplates.delete(plan);
  });
});
