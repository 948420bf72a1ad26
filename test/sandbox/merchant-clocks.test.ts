/**
 * A clock per merchant: a step with one merchant's key moves that merchant's time and due work only (its
 * hold's 6-day release, its deliveries' retries), never another's; parallel steps of two merchants do not
 * interfere; each merchant's offset survives a restart, and an older data dir's single offset is every
 * merchant's start. `sandbox.clock` moves them all, `sandbox.clockFor(id)` one.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { openStore } from '../../src/sandbox/store.js';
import { createV1Client, type V1Client } from '../../src/server/index.js';
import { API_KEY, FakeMerchant, paidOrder, tempDir } from './support.js';
import { advanceClock, cardForm, OTHER, postForm, startV1Sandbox, V1 } from './v1/support.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** Real time stands still: only steps move a merchant's clock. */
const START = Date.UTC(2027, 4, 3, 9, 0, 0);

interface ClockView {
  merchant_id: string;
  now: string;
  now_unix: number;
  ahead_ms: number;
}

async function readClock(
  sandbox: Sandbox,
  headers: Record<string, string> = {},
  query = '',
): Promise<ClockView> {
  const answer = await fetch(`${sandbox.url}/sandbox/v1/clock${query}`, { headers });
  assert.equal(answer.status, 200);
  return (await answer.json()) as ClockView;
}

const bearer = (secretKey: string) => ({ authorization: `Bearer ${secretKey}` });

describe('a clock per merchant', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let dataDir: string;
  let m1: V1Client;
  let m2: V1Client;

  before(async () => {
    merchant = await FakeMerchant.start();
    merchant.respond('/callback-m1', () => ({ status: 500 }));
    merchant.respond('/callback-m2', () => ({ status: 500 }));
  });
  after(() => merchant.close());
  beforeEach(async () => {
    dataDir = await tempDir();
    // Retries an hour apart on the merchant's clock: none comes by real time in these tests.
    sandbox = await startV1Sandbox(merchant, { dataDir, retryBaseMs: HOUR_MS, now: () => new Date(START) });
    m1 = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    m2 = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
  });
  afterEach(() => sandbox.close());

  /** A Purchase of the merchant paid on the hosted page: held with `skip_capture`. */
  async function paid(client: V1Client, brandId: string, extra: Record<string, unknown>) {
    const purchase = await client.purchases.create({
      brand_id: brandId,
      client: { email: 'customer@example.com' },
      purchase: { products: [{ name: 'Tea', price: 1250, quantity: 1 }] },
      ...extra,
    } as Parameters<V1Client['purchases']['create']>[0]);
    const answer = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm('4111111111111111'));
    assert.equal(answer.status, 200, answer.html);
    return purchase.id;
  }

  test("a merchant's 7 days release its hold only: the other's Purchase stays held, its time unmoved", async () => {
    const held1 = await paid(m1, V1.brandId, { skip_capture: true });
    const held2 = await paid(m2, OTHER.brandId, { skip_capture: true });
    const moved = await fetch(`${sandbox.url}/sandbox/v1/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(V1.secretKey) },
      body: JSON.stringify({ advance_seconds: 7 * 24 * 60 * 60 }),
    });
    assert.equal(moved.status, 200);
    const view = (await moved.json()) as ClockView;
    assert.equal(view.merchant_id, 'm1');
    assert.equal(view.ahead_ms, 7 * DAY_MS);
    assert.equal(view.now, new Date(START + 7 * DAY_MS).toISOString());

    assert.equal((await m1.purchases.get(held1)).status, 'released');
    const other = await m2.purchases.get(held2);
    assert.equal(other.status, 'hold', "the other merchant's reservation is untouched");
    assert.equal(other.updated_on, Math.floor(START / 1000), 'and dated on its own clock');
    const otherClock = await readClock(sandbox, bearer(OTHER.secretKey));
    assert.deepEqual(otherClock, {
      merchant_id: 'm2',
      now: new Date(START).toISOString(),
      now_unix: Math.floor(START / 1000),
      ahead_ms: 0,
    });
    assert.equal((await readClock(sandbox, {}, '?merchant_id=m1')).ahead_ms, 7 * DAY_MS);
    // Without a key or a merchant id: the first merchant's clock, named.
    assert.equal((await readClock(sandbox)).merchant_id, 'm1');
    // Created after the step: dated on each merchant's own clock.
    const later1 = await m1.purchases.create({
      brand_id: V1.brandId,
      client: { email: 'a@example.com' },
      purchase: { products: [{ name: 'Tea', price: 100, quantity: 1 }] },
    });
    const later2 = await m2.purchases.create({
      brand_id: OTHER.brandId,
      client: { email: 'a@example.com' },
      purchase: { products: [{ name: 'Tea', price: 100, quantity: 1 }] },
    });
    assert.equal(later1.created_on, Math.floor((START + 7 * DAY_MS) / 1000));
    assert.equal(later2.created_on, Math.floor(START / 1000));
  });

  test("a merchant's step sends its own deliveries' retries, not the other's", async () => {
    await paid(m1, V1.brandId, { success_callback: `${merchant.url}/callback-m1` });
    await paid(m2, OTHER.brandId, { success_callback: `${merchant.url}/callback-m2` });
    await merchant.waitFor('/callback-m1', 1);
    await merchant.waitFor('/callback-m2', 1);
    // The first retry is 8.5 minutes after the failed attempt (an hour, shortened so that 8 retries fit in the
    // 36-hour window), on the merchant's clock.
    await advanceClock(sandbox, 10 * 60 * 1000, V1.secretKey);
    assert.equal(merchant.requests('/callback-m1').length, 2, 'the step answered after its retry was made');
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(
      merchant.requests('/callback-m2').length,
      1,
      "the other merchant's retry waits for its clock",
    );
    await advanceClock(sandbox, 10 * 60 * 1000, OTHER.secretKey);
    assert.equal(merchant.requests('/callback-m2').length, 2);
    assert.equal(merchant.requests('/callback-m1').length, 2);
  });

  test('parallel steps of two merchants do not interfere, and a restart keeps both offsets', async () => {
    const held1 = await paid(m1, V1.brandId, { skip_capture: true });
    const held2 = await paid(m2, OTHER.brandId, { skip_capture: true });
    // m1 stops short of the 6-day release, m2 passes it; both at once, each in many small steps.
    await Promise.all([
      (async () => {
        for (let day = 0; day < 5; day++) await advanceClock(sandbox, DAY_MS, V1.secretKey);
      })(),
      (async () => {
        for (let day = 0; day < 8; day++) await advanceClock(sandbox, DAY_MS, OTHER.secretKey);
      })(),
    ]);
    assert.equal((await readClock(sandbox, bearer(V1.secretKey))).ahead_ms, 5 * DAY_MS);
    assert.equal((await readClock(sandbox, bearer(OTHER.secretKey))).ahead_ms, 8 * DAY_MS);
    assert.equal((await m1.purchases.get(held1)).status, 'hold');
    assert.equal((await m2.purchases.get(held2)).status, 'released');

    await sandbox.close();
    sandbox = await startV1Sandbox(merchant, { dataDir, retryBaseMs: HOUR_MS, now: () => new Date(START) });
    m1 = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    assert.equal((await readClock(sandbox, bearer(V1.secretKey))).ahead_ms, 5 * DAY_MS);
    assert.equal((await readClock(sandbox, bearer(OTHER.secretKey))).ahead_ms, 8 * DAY_MS);
    assert.equal(sandbox.clockFor('m3').now().getTime(), START, 'a merchant never moved is on real time');
    // m1's hold is released on its own clock after the restart, a day later.
    await advanceClock(sandbox, DAY_MS, V1.secretKey);
    assert.equal((await m1.purchases.get(held1)).status, 'released');
  });

  test('a merchant API key moves the clock of a merchant without v1; a wrong key is refused', async () => {
    const step = (headers: Record<string, string>) =>
      fetch(`${sandbox.url}/sandbox/v1/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ advance_ms: 60_000 }),
      });
    const moved = await step({ 'x-svc-api-key': API_KEY });
    assert.equal(moved.status, 200);
    assert.equal(((await moved.json()) as ClockView).merchant_id, 'm1');
    assert.equal((await readClock(sandbox, { 'x-svc-api-key': 'm2-api-key' })).ahead_ms, 0);
    const wrong = await step({ 'x-svc-api-key': 'not-a-key' });
    assert.equal(wrong.status, 401);
    assert.match(await wrong.text(), /X-Svc-Api-Key/);
    assert.equal((await step({})).status, 401);
    const unknown = await fetch(`${sandbox.url}/sandbox/v1/clock?merchant_id=nobody`);
    assert.equal(unknown.status, 404);
    assert.equal((await readClock(sandbox, bearer(V1.secretKey))).ahead_ms, 60_000);
  });

  test("a legacy merchant's notification retries on its clock, moved with its merchant API key", async () => {
    merchant.respond('/notify', () => ({ status: 500 }));
    try {
      await paidOrder(sandbox, 'clock-order-1');
      await merchant.waitFor('/notify', 1);
      await advanceClock(sandbox, 10 * 60 * 1000, OTHER.secretKey);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(merchant.requests('/notify').length, 1, "another merchant's step sends no retry of m1's");
      const moved = await fetch(`${sandbox.url}/sandbox/v1/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-api-key': API_KEY },
        body: JSON.stringify({ advance_seconds: 600 }),
      });
      assert.equal(moved.status, 200);
      assert.equal(merchant.requests('/notify').length, 2, 'the step answered after the retry was made');
    } finally {
      merchant.respond('/notify', () => ({ status: 200 }));
    }
  });

  test('in process: clockFor moves one merchant, clock moves every merchant', async () => {
    await sandbox.clockFor('m2').step(HOUR_MS);
    sandbox.clockFor('m3').advance(2 * HOUR_MS);
    await sandbox.clock.step(DAY_MS);
    assert.equal(sandbox.clockFor('m1').now().getTime(), START + DAY_MS);
    assert.equal(sandbox.clockFor('m2').now().getTime(), START + DAY_MS + HOUR_MS);
    assert.equal(sandbox.clockFor('m3').now().getTime(), START + DAY_MS + 2 * HOUR_MS);
    assert.equal(sandbox.clock.now().getTime(), START + DAY_MS, "the first merchant's time");
    assert.throws(
      () => sandbox.clockFor('nobody'),
      /No merchant nobody in this sandbox; its merchants are m1, m2, m3/,
    );
  });

  test("an older data dir's one sandbox-wide offset is where every merchant's clock starts", async () => {
    await sandbox.close();
    const olderDir = await tempDir();
    const store = openStore({ dataDir: olderDir });
    store.collection<{ offsetMs: number }>('sandbox-clock').put('offset', { offsetMs: 3 * DAY_MS });
    await store.close();
    sandbox = await startV1Sandbox(merchant, { dataDir: olderDir, now: () => new Date(START) });
    assert.equal((await readClock(sandbox, bearer(V1.secretKey))).ahead_ms, 3 * DAY_MS);
    assert.equal((await readClock(sandbox, bearer(OTHER.secretKey))).ahead_ms, 3 * DAY_MS);
    await advanceClock(sandbox, DAY_MS, OTHER.secretKey);
    await sandbox.close();
    sandbox = await startV1Sandbox(merchant, { dataDir: olderDir, now: () => new Date(START) });
    assert.equal((await readClock(sandbox, bearer(V1.secretKey))).ahead_ms, 3 * DAY_MS);
    assert.equal((await readClock(sandbox, bearer(OTHER.secretKey))).ahead_ms, 4 * DAY_MS);
  });
});
