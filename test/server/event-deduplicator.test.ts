/**
 * The event deduplicator does not forget (issue 9: after its 48-hour window, or after 100,000 other events, a
 * replayed callback was handled again): events older than the tolerance are refused by age, markers stay
 * until their event is that old, the default memory refuses rather than evicts, and a fleet shares one
 * memory in a real Redis (Debian's redis-server, started here) through the official node-redis client.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createClient } from '@redis/client';
import {
  CacheStoreFullError,
  createEventDeduplicator,
  createRedisCacheStore,
  type DeduplicatedEvent,
  EventDeduplicatorError,
  MemoryCacheStore,
  v1EventKey,
  v1EventTime,
} from '../../src/server/index.js';
import { type RedisServer, startRedisServer } from './redis-server.js';
import { ManualClock } from './v1/payment-methods-cache-support.js';

const HOUR = 3_600_000;
const TOLERANCE = 48 * HOUR;

/** A `purchase.paid` event whose Purchase last changed at `updatedAt` (milliseconds). */
function paidEvent(updatedAt: number, id: string = randomUUID()): DeduplicatedEvent {
  return {
    id,
    event_type: 'purchase.paid',
    status: 'paid',
    created_on: Math.floor(updatedAt / 1000) - 600,
    updated_on: Math.floor(updatedAt / 1000),
  };
}

/** The error a promise rejects with, which must be an EventDeduplicatorError. */
async function refusal(promise: Promise<unknown>): Promise<EventDeduplicatorError> {
  const error = await promise.then(
    () => assert.fail('expected event_too_old'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof EventDeduplicatorError, String(error));
  return error;
}

describe('createEventDeduplicator with an injected clock', () => {
  it('catches a replay anywhere inside the tolerance and refuses one after it, though handled late', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now });
    const events = createEventDeduplicator({ store, now: clock.now });
    const event = paidEvent(clock.now());
    // The first delivery is handled 30 hours late (the gateway retried); the marker must outlive 48 h from it.
    clock.advance(30 * HOUR);
    let runs = 0;
    assert.equal((await events.once(event, () => runs++)).status, 'processed');
    clock.advance(TOLERANCE - 30 * HOUR - 1);
    assert.equal((await events.once({ ...event }, () => runs++)).status, 'duplicate', '1 ms inside');
    clock.advance(1);
    const error = await refusal(events.once({ ...event }, () => runs++));
    assert.equal(error.code, 'event_too_old');
    assert.equal(error.toleranceMs, TOLERANCE);
    assert.equal(error.eventTime, v1EventTime(event));
    assert.match(error.message, /48 h tolerance/);
    assert.match(error.message, /toleranceMs/);
    clock.advance(365 * 24 * HOUR);
    await refusal(events.once({ ...event }, () => runs++));
    assert.equal(runs, 1);
  });

  it('refuses by age before the store is touched, so a flood of old replays costs nothing', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now });
    const events = createEventDeduplicator({ store, now: clock.now, toleranceMs: HOUR });
    for (let index = 0; index < 1000; index++) {
      await refusal(events.claim(paidEvent(clock.now() - HOUR - index * 1000)));
    }
    assert.equal(store.size, 0);
  });

  it('reads the age from updated_on, else created_on; an event with neither is kept for ttlMs', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now });
    const events = createEventDeduplicator({ store, now: clock.now, ttlMs: HOUR });
    const now = clock.now() / 1000;
    assert.equal(v1EventTime({ id: 'a', event_type: 'x', updated_on: now, created_on: 1 }), now * 1000);
    assert.equal(v1EventTime({ id: 'a', event_type: 'x', created_on: now }), now * 1000);
    for (const odd of ['1900000000', Number.NaN, null, Number.POSITIVE_INFINITY]) {
      assert.equal(v1EventTime({ id: 'a', event_type: 'x', updated_on: odd }), undefined, String(odd));
    }
    const createdLongAgo = { id: randomUUID(), event_type: 'payment.refunded', created_on: now - 49 * 3600 };
    await refusal(events.claim(createdLongAgo));

    const timeless = { id: randomUUID(), event_type: 'payment.refunded' };
    const claimed = await events.claim(timeless);
    assert.equal(claimed.status, 'first');
    if (claimed.status === 'first') await claimed.complete();
    clock.advance(HOUR - 1);
    assert.equal((await events.claim(timeless)).status, 'duplicate');
    clock.advance(1);
    assert.equal((await events.claim(timeless)).status, 'first', 'nothing but ttlMs guards it');
  });

  it('keeps the marker of an event dated ahead of this clock until it too is past the tolerance', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now });
    const events = createEventDeduplicator({ store, now: clock.now });
    // The gateway's clock runs 3 hours ahead of ours.
    const event = paidEvent(clock.now() + 3 * HOUR);
    assert.equal((await events.once(event, () => 1)).status, 'processed');
    clock.advance(TOLERANCE + 3 * HOUR - 1);
    assert.equal((await events.once({ ...event }, () => 2)).status, 'duplicate');
    clock.advance(1);
    await refusal(events.once({ ...event }, () => 3));
  });

  it('refuses a tolerance or ttl that is not a positive duration', () => {
    assert.throws(() => createEventDeduplicator({ toleranceMs: 0 }), RangeError);
    assert.throws(() => createEventDeduplicator({ toleranceMs: Number.POSITIVE_INFINITY }), RangeError);
    assert.throws(() => createEventDeduplicator({ now: 5 as never }), TypeError);
  });
});

describe('createEventDeduplicator in memory under load', () => {
  it('still tells a replay after 100,000 other events', async () => {
    const events = createEventDeduplicator();
    const first = paidEvent(Date.now());
    assert.equal((await events.once(first, () => 'handled')).status, 'processed');
    for (let index = 0; index < 100_000; index++) {
      await events.once(paidEvent(Date.now()), () => index);
    }
    assert.equal((await events.once({ ...first }, () => 'again')).status, 'duplicate');
  });

  it('refuses new events when its store is full of live markers, rather than forget one', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now, maxEntries: 4, whenFull: 'refuse' });
    const events = createEventDeduplicator({ store, now: clock.now, toleranceMs: HOUR });
    const handled = [paidEvent(clock.now()), paidEvent(clock.now()), paidEvent(clock.now())];
    for (const event of handled) assert.equal((await events.once(event, () => 1)).status, 'processed');
    // Three markers and the next event's processing lease fill the store.
    const fourth = paidEvent(clock.now());
    await assert.rejects(
      events.once(fourth, () => 1),
      (error: unknown) => error instanceof CacheStoreFullError && /raise maxEntries/.test(error.message),
    );
    for (const event of handled) assert.equal((await events.once(event, () => 2)).status, 'duplicate');
    clock.advance(HOUR);
    // Past the tolerance the markers may go: the events are refused by age instead.
    assert.equal((await events.once(paidEvent(clock.now()), () => 3)).status, 'processed');
    await refusal(events.once(handled[0]!, () => 4));
  });
});

describe('MemoryCacheStore with whenFull', () => {
  it("evicts the oldest live key by default, and refuses with 'refuse' until one expires", async () => {
    let now = 0;
    const evicting = new MemoryCacheStore({ now: () => now, maxEntries: 2 });
    const refusing = new MemoryCacheStore({ now: () => now, maxEntries: 2, whenFull: 'refuse' });
    for (const store of [evicting, refusing]) {
      await store.set('a', '1', 1000);
      await store.set('b', '2', 2000);
    }
    await evicting.set('c', '3', 1000);
    assert.equal(await evicting.get('a'), undefined);
    await assert.rejects(refusing.set('c', '3', 1000), CacheStoreFullError);
    await assert.rejects(refusing.claim('c', 't', 1000), CacheStoreFullError);
    await refusing.set('a', 'replaced', 1000);
    assert.equal(await refusing.get('a'), 'replaced', 'a key it holds can still be written');
    now = 1000;
    await refusing.set('c', '3', 1000);
    assert.deepEqual([await refusing.get('b'), await refusing.get('c')], ['2', '3']);
    assert.throws(() => new MemoryCacheStore({ whenFull: 'drop' as never }), /'evictOldest' or 'refuse'/);
  });
});

describe('createEventDeduplicator on a fleet sharing a real Redis', () => {
  const connect = (url: string) => createClient({ url }).connect();
  let redis: RedisServer;
  let clients: Awaited<ReturnType<typeof connect>>[];

  before(async () => {
    redis = await startRedisServer();
    clients = await Promise.all([0, 1].map(() => connect(redis.url)));
  });
  after(async () => {
    await Promise.all((clients ?? []).map((client) => client.close()));
    await redis?.stop();
  });
  beforeEach(async () => {
    await clients[0]!.flushAll();
  });

  function fleet(options: { now?: () => number; ttlMs?: number } = {}) {
    return clients.map((client) =>
      createEventDeduplicator({ store: createRedisCacheStore(client), ...options }),
    );
  }

  it('handles 100 copies arriving at two servers at once exactly once, and the replays after', async () => {
    const [a, b] = fleet();
    const event = paidEvent(Date.now());
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, index) =>
        (index % 2 === 0 ? a! : b!).once({ ...event }, async () => {
          runs += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }),
      ),
    );
    assert.equal(runs, 1);
    assert.equal(results.filter((result) => result.status === 'processed').length, 1);
    assert.equal((await b!.once({ ...event }, () => runs++)).status, 'duplicate');
    assert.equal((await a!.once({ ...event }, () => runs++)).status, 'duplicate');
    assert.equal(runs, 1);
  });

  it('refuses the replay of an event older than the tolerance whose marker is gone, and writes nothing', async () => {
    const [a] = fleet();
    // As after the old 48-hour window, or a Redis restarted empty: the event is 49 hours old and unknown.
    const old = paidEvent(Date.now() - 49 * HOUR);
    let runs = 0;
    const error = await refusal(a!.once(old, () => runs++));
    assert.equal(error.code, 'event_too_old');
    assert.equal(runs, 0);
    assert.equal(await clients[0]!.dbSize(), 0);
  });

  it('keeps each marker in Redis until its event is past the tolerance (PTTL read back)', async () => {
    const clock = new ManualClock(Date.now());
    const [a] = fleet({ now: clock.now, ttlMs: HOUR });
    const tenHoursOld = paidEvent(clock.now() - 10 * HOUR);
    const aheadOfUs = paidEvent(clock.now() + 2 * HOUR);
    const timeless = { id: randomUUID(), event_type: 'payment.refunded' };
    for (const event of [tenHoursOld, aheadOfUs, timeless]) await a!.once(event, () => undefined);
    const pttl = (event: DeduplicatedEvent) => clients[1]!.pTTL(`svc-checkout:v1-event:${v1EventKey(event)}`);
    // Whole seconds of the event time, and Redis's own clock moving on, make these ranges rather than points.
    const tenHours = await pttl(tenHoursOld);
    assert.ok(tenHours > 37 * HOUR && tenHours <= 38 * HOUR + 1000, `PTTL ${tenHours}`);
    const ahead = await pttl(aheadOfUs);
    assert.ok(ahead > 49 * HOUR && ahead <= 50 * HOUR, `PTTL ${ahead}`);
    const plain = await pttl(timeless);
    assert.ok(plain > 0 && plain <= HOUR, `PTTL ${plain}`);
    assert.equal(await clients[1]!.exists(`svc-checkout:v1-event:${v1EventKey(timeless)}:processing`), 0);
  });
});
