/**
 * No event lost to the clock: stepping the sandbox clock a day at a time for 30 days, as the README advises
 * for subscriptions, delivers every webhook of 5 daily subscriptions to a receiver that answers at once, and
 * each step answers only once what fell due on the way was delivered. A long step lets other requests in.
 * Billings missed while the disk was full are dated by their periods once it is freed.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { createV1Client, type V1Client } from '../../../src/server/index.js';
import { smallDisk } from '../small-disk.js';
import { FakeMerchant } from '../support.js';
import { advanceClock, cardForm, OTHER, postForm, V1, v1ConfigFile, withV1Sandbox } from './support.js';

const WEBHOOK_PATH = '/v1/webhook';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Real time stands still: only the steps move the clock, back to back. */
const START = Date.UTC(2027, 2, 1, 10, 0, 0);

/** `count` daily subscribers of a new plan, each paid with a card that the billings charge. */
async function subscribeDaily(
  sandbox: Sandbox,
  client: V1Client,
  count: number,
  title: string,
  brandId: string,
): Promise<string> {
  const plan = await client.billingTemplates.create({
    brand_id: brandId,
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

describe('the sandbox clock and deliveries', () => {
  const fixture = withV1Sandbox({ now: () => new Date(START) });
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;

  before(async () => {
    ({ merchant, sandbox, client } = fixture);
    await client.webhooks.create({
      title: 'all',
      callback: `${merchant.url}${WEBHOOK_PATH}`,
      all_events: true,
    });
  });

  /** `count` daily subscribers, each paid with a card that the billings charge. */
  async function dailySubscribers(
    count: number,
    title: string,
    as: V1Client = client,
    brandId: string = V1.brandId,
  ) {
    return subscribeDaily(sandbox, as, count, title, brandId);
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
    const subscribers = await client.billingTemplates.clients.list(plan).toArray();
    assert.equal(subscribers.length, 5);
    for (const subscriber of subscribers) {
      assert.equal(subscriber.number_of_billing_cycles_passed, 31, 'the first payment and 30 days billed');
    }
    assert.equal(ids.size, 5 + 150, 'every billing of the month, each once');
    await client.billingTemplates.delete(plan);
  });

  test('a long step lets other requests in: the clock read meanwhile is part way', async () => {
    // Another merchant, with no webhooks: nothing but the step's own slices lets a request in.
    const other = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
    const plan = await dailySubscribers(20, 'busy', other, OTHER.brandId);
    // The clock of the merchant that steps: each merchant has its own.
    const read = async () =>
      (
        (await (
          await fetch(`${sandbox.url}/sandbox/v1/clock`, {
            headers: { authorization: `Bearer ${OTHER.secretKey}` },
          })
        ).json()) as { ahead_ms: number }
      ).ahead_ms;
    const from = await read();
    const stepMs = 90 * DAY_MS;
    let done = false;
    const step = advanceClock(sandbox, stepMs, OTHER.secretKey).finally(() => {
      done = true;
    });
    const seen: number[] = [];
    while (!done) seen.push(await read());
    await step;
    assert.ok(
      seen.some((ahead) => ahead > from && ahead < from + stepMs),
      `a request answered during the step saw the clock part way (${seen.length} reads)`,
    );
    const subscribers = await other.billingTemplates.clients.list(plan).toArray();
    assert.equal(subscribers.length, 20);
    for (const subscriber of subscribers) {
      assert.equal(subscriber.number_of_billing_cycles_passed, 91, 'every day of the step billed');
    }
    await other.billingTemplates.delete(plan);
  });
});

describe('billings missed while the disk was full', () => {
  test('are made once it is freed, each dated by its period', async (t) => {
    const disk = smallDisk();
    t.after(() => disk.dispose());
    const merchant = await FakeMerchant.start();
    t.after(() => merchant.close());
    // Real time is the test's: it passes three days while the disk is full.
    let realMs = START;
    const sandbox = await startSandbox({
      port: 0,
      config: parseConfig(v1ConfigFile(merchant.url)),
      dataDir: join(disk.dir, 'data'),
      now: () => new Date(realMs),
    });
    t.after(() => sandbox.close());
    const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    const plan = await subscribeDaily(sandbox, client, 1, 'daily', V1.brandId);

    disk.fill();
    // A tmpfs page left over may still take a record or two: go on until the refusals are steady.
    for (let refused = 0, tries = 0; refused < 3; tries++) {
      assert.ok(tries < 50, 'the sandbox never refused a change on a full disk');
      const answer = await fetch(`${sandbox.url}/api/v1/clients/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${V1.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: `filler-${tries}@example.com` }),
      });
      refused = answer.status === 507 ? refused + 1 : 0;
    }
    realMs += 3 * DAY_MS;
    // The first missed billing fails to write, and is tried again a second later.
    sandbox.clock.advance(0);
    disk.free();
    realMs += 1000;
    sandbox.clock.advance(0);

    const outbox = await fetch(`${sandbox.url}/sandbox/v1/outbox/?per_page=100`, {
      headers: { authorization: `Bearer ${V1.secretKey}` },
    });
    const receipts = (
      (await outbox.json()) as { results: Array<{ kind: string; created_on: number }> }
    ).results
      .filter((message) => message.kind === 'receipt')
      .map((message) => message.created_on);
    const day = DAY_MS / 1000;
    const paidOn = START / 1000;
    assert.deepEqual(receipts, [paidOn, paidOn + day, paidOn + 2 * day, paidOn + 3 * day]);
    const [subscriber] = await client.billingTemplates.clients.list(plan).toArray();
    assert.equal(subscriber?.number_of_billing_cycles_passed, 4);
  });
});
