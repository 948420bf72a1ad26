/**
 * The Redis cache store against a real Redis server (Debian's redis-server, started here), through the
 * official node-redis client, as a merchant's fleet would use it.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@redis/client';
import {
  type CacheStore,
  createRedisCacheStore,
  PaymentMethodsCache,
  type PaymentMethodsCacheOptions,
} from '../../../src/server/index.js';
import { type RedisServer, startRedisServer } from '../redis-server.js';
import {
  burst,
  CountingUpstream,
  ManualClock,
  paymentMethods,
  values,
} from './payment-methods-cache-support.js';

const connect = (url: string) => createClient({ url }).connect();
type Client = Awaited<ReturnType<typeof connect>>;

let redis: RedisServer;
/** One connection per simulated server of the fleet, so their commands really interleave at Redis. */
let clients: Client[];

before(async () => {
  redis = await startRedisServer();
  clients = await Promise.all([0, 1, 2].map(() => connect(redis.url)));
});

after(async () => {
  await Promise.all((clients ?? []).map((client) => client.close()));
  await redis?.stop();
});

beforeEach(async () => {
  await clients[0]!.flushAll();
});

const query = { brand_id: '0b7f3e52-9c1d-4a86-b2e4-5f6a7c8d9e01', currency: 'EUR', country: 'LT' };

describe('createRedisCacheStore on a real Redis', () => {
  it('gets, sets with an expiry, and answers undefined for a missing key', async () => {
    const store = createRedisCacheStore(clients[0]!);
    assert.equal(await store.get('missing'), undefined);
    await store.set('k', '{"a":1}', 60_000);
    assert.equal(await store.get('k'), '{"a":1}');
    assert.ok((await clients[0]!.pTTL('k')) > 59_000, 'the expiry is set in milliseconds');
    await store.set('short', 'x', 30);
    await sleep(80);
    assert.equal(await store.get('short'), undefined);
  });

  it('claims with SET NX PX and releases only for the token that holds the claim', async () => {
    const [a, b] = [createRedisCacheStore(clients[0]!), createRedisCacheStore(clients[1]!)];
    assert.equal(await a.claim('lock', 'token-a', 100), true);
    assert.equal(await b.claim('lock', 'token-b', 100), false);
    await b.release('lock', 'token-b');
    assert.equal(await clients[0]!.get('lock'), 'token-a', "b's release leaves a's claim");
    await sleep(150);
    assert.equal(await b.claim('lock', 'token-b', 10_000), true, "a's claim lapsed");
    await a.release('lock', 'token-a');
    assert.equal(await clients[0]!.get('lock'), 'token-b', "a's late release leaves b's claim");
    await b.release('lock', 'token-b');
    assert.equal(await clients[0]!.exists('lock'), 0);
  });

  it('takes an ioredis-style client (call) and a bare command function as well', async () => {
    const client = clients[0]!;
    const ioredisLike = {
      call: (command: string, ...args: string[]) => client.sendCommand([command, ...args]),
    };
    const viaCall = createRedisCacheStore(ioredisLike);
    const viaFunction = createRedisCacheStore((args) => client.sendCommand(args));
    await viaCall.set('shared', 'one', 10_000);
    assert.equal(await viaFunction.get('shared'), 'one');
    assert.equal(await viaFunction.claim('lock', 't', 10_000), true);
    assert.equal(await viaCall.claim('lock', 'u', 10_000), false);
    assert.throws(
      () => createRedisCacheStore({} as unknown as Parameters<typeof createRedisCacheStore>[0]),
      TypeError,
    );
  });
});

describe('PaymentMethodsCache on a fleet sharing one Redis', () => {
  function fleet(
    size: number,
    upstream: CountingUpstream,
    options: Partial<PaymentMethodsCacheOptions> = {},
  ) {
    return Array.from({ length: size }, (_, index) => {
      const store: CacheStore = createRedisCacheStore(clients[index % clients.length]!);
      return new PaymentMethodsCache({
        fetchPaymentMethods: upstream.fetch,
        store,
        pollIntervalMs: 5,
        onRefreshError: () => undefined,
        ...options,
      });
    });
  }

  it('makes one upstream call for 1,000 concurrent lookups split across two caches', async () => {
    const upstream = new CountingUpstream(30);
    const [a, b] = fleet(2, upstream);
    const answers = values(await burst(1000, (index) => (index % 2 === 0 ? a! : b!).get(query)));
    assert.equal(upstream.calls.length, 1);
    assert.deepEqual(upstream.calls[0], query);
    for (const answer of answers) {
      assert.equal(answer.stale, false);
      assert.deepEqual(answer.methods, paymentMethods());
    }
  });

  it('makes one call per query for five queries, 1,000 lookups each, across three caches', async () => {
    const upstream = new CountingUpstream(10);
    const caches = fleet(3, upstream);
    const queries = ['LV', 'LT', 'EE', 'FI', 'SE'].map((country) => ({ ...query, country }));
    values(
      await burst(5000, (index) => caches[index % 3]!.get(queries[Math.floor(index / 7) % queries.length]!)),
    );
    assert.equal(upstream.calls.length, queries.length);
    assert.deepEqual(upstream.calls.map((call) => call.country).sort(), ['EE', 'FI', 'LT', 'LV', 'SE']);
  });

  it('does not call again when another server refreshed between its read and its claim', async () => {
    const upstream = new CountingUpstream(20);
    const [fast] = fleet(1, upstream);
    // A server on a slow link: its claim reaches Redis only after the other server's whole refresh.
    const redisStore = createRedisCacheStore(clients[1]!);
    const slowLink: CacheStore = {
      get: (key) => redisStore.get(key),
      set: (key, value, ttlMs) => redisStore.set(key, value, ttlMs),
      claim: async (key, token, ttlMs) => {
        await sleep(150);
        return redisStore.claim(key, token, ttlMs);
      },
      release: (key, token) => redisStore.release(key, token),
    };
    const slow = new PaymentMethodsCache({ fetchPaymentMethods: upstream.fetch, store: slowLink });
    const late = slow.get(query);
    await sleep(20);
    await fast!.get(query);
    assert.equal((await late).stale, false);
    assert.equal(upstream.calls.length, 1);
  });

  it('calls once more across the minute boundary, whichever cache is asked', async () => {
    const upstream = new CountingUpstream(10);
    const clock = new ManualClock();
    const [a, b] = fleet(2, upstream, { now: clock.now });
    await a!.get(query);
    clock.advance(59_999);
    await b!.get(query);
    assert.equal(upstream.calls.length, 1);
    clock.advance(1);
    upstream.behaviour = { answer: paymentMethods('second') };
    const answers = values(await burst(1000, (index) => (index % 2 === 0 ? a! : b!).get(query)));
    assert.equal(upstream.calls.length, 2);
    for (const answer of answers) assert.equal(answer.methods.names['swedbank_lv_pis'], 'Swedbank (second)');
  });

  it('serves the stale answer, flagged, on every cache when the refresh fails, after one attempt', async () => {
    const upstream = new CountingUpstream(20);
    const clock = new ManualClock();
    const [a, b] = fleet(2, upstream, { now: clock.now });
    await a!.get(query);
    clock.advance(60_000);
    upstream.behaviour = { fail: new Error('gateway answered 429') };
    const answers = values(await burst(1000, (index) => (index % 2 === 0 ? a! : b!).get(query)));
    assert.equal(upstream.calls.length, 2);
    for (const answer of answers) {
      assert.equal(answer.stale, true);
      assert.deepEqual(answer.methods, paymentMethods());
      if (answer.stale) assert.equal(answer.failure.message, 'gateway answered 429');
    }
  });

  it('keeps caches with different key prefixes apart', async () => {
    const upstream = new CountingUpstream(0);
    const [test] = fleet(1, upstream, { keyPrefix: 'shop:test:' });
    const [live] = fleet(1, upstream, { keyPrefix: 'shop:live:' });
    await test!.get(query);
    await live!.get(query);
    assert.equal(upstream.calls.length, 2);
    assert.deepEqual((await clients[0]!.keys('shop:*')).sort(), [
      'shop:live:brand_id=0b7f3e52-9c1d-4a86-b2e4-5f6a7c8d9e01&country=LT&currency=EUR',
      'shop:test:brand_id=0b7f3e52-9c1d-4a86-b2e4-5f6a7c8d9e01&country=LT&currency=EUR',
    ]);
  });
});
