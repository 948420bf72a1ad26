/**
 * The payment-methods endpoint when its Redis fails (issue 9: a Redis outage answered 500 and stalled up to
 * 5 s while the gateway was healthy), against a real redis-server that the test stops and starts again, and
 * pauses with `CLIENT PAUSE` (it accepts commands and answers none, as a Redis stuck on a slow script or a
 * swap storm does); and how long its keys live there (issue 9: 24 hours each), read back with PTTL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from '@redis/client';
import {
  createPaymentMethodsHandler,
  createRedisCacheStore,
  PaymentMethodsCache,
  type PaymentMethodsCacheOptions,
  paymentMethodsQueryKey,
  type StoreOutageEvent,
  toNodeHandler,
} from '../../../src/server/index.js';
import { type RedisServer, startRedisServer } from '../redis-server.js';
import { listen } from '../support.js';
import { burst, CountingUpstream, paymentMethods, values } from './payment-methods-cache-support.js';

const BRAND = '3c9d2b71-5e4f-4a8b-9c0d-1e2f3a4b5c6d';
const PREFIX = 'svc-checkout:payment-methods:';

const connect = (url: string) => {
  const client = createClient({ url });
  // node-redis reports every lost connection as an 'error' event; a process without a listener would die.
  client.on('error', () => undefined);
  return client.connect();
};
type Client = Awaited<ReturnType<typeof connect>>;

/** The store key of a query of the endpoint (currency EUR and the brand above). */
function keyOf(filters: { country?: string } = {}): string {
  return PREFIX + paymentMethodsQueryKey({ brand_id: BRAND, currency: 'EUR', ...filters });
}

/** The endpoint over HTTP, its cache on `client`'s Redis, with the outages it reported. */
async function endpoint(client: Client, options: Partial<PaymentMethodsCacheOptions> = {}) {
  const upstream = new CountingUpstream(5);
  const outages: StoreOutageEvent[] = [];
  const errors: unknown[] = [];
  const cache = new PaymentMethodsCache({
    fetchPaymentMethods: upstream.fetch,
    store: createRedisCacheStore(client),
    storeRetryMs: 50,
    onStoreOutage: (event) => outages.push(event),
    onRefreshError: () => undefined,
    ...options,
  });
  const handler = createPaymentMethodsHandler({
    brandId: BRAND,
    cache,
    defaultCurrency: 'EUR',
    onError: (error) => errors.push(error),
  });
  const server = await listen(toNodeHandler(handler));
  const get = async (path: string) => {
    const response = await fetch(`${server.url}${path}`);
    return {
      status: response.status,
      cache: response.headers.get('x-svc-cache'),
      body: await response.json(),
    };
  };
  return { upstream, outages, errors, get, close: server.close };
}

/** Looks up `path` every 20 ms until `done()`, as traffic would; fails after 20 s naming `what`. */
async function lookUpUntil(
  get: (path: string) => Promise<unknown>,
  path: string,
  done: () => boolean,
  what: string,
) {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    assert.ok(Date.now() < deadline, `${what} did not happen within 20 s`);
    await get(path);
    await sleep(20);
  }
}

describe('the payment-methods endpoint when Redis goes away', () => {
  let redis: RedisServer;
  let client: Client;

  before(async () => {
    redis = await startRedisServer();
    client = await connect(redis.url);
  });
  after(async () => {
    await client?.close();
    await redis?.stop();
  });

  it('answers every request from its memory and the gateway, reports the outage once, and goes back to Redis', async () => {
    const shop = await endpoint(client);
    try {
      assert.equal((await shop.get('/pm?country=LV')).status, 200);
      assert.equal(shop.upstream.calls.length, 1);

      await redis.stop();
      const cached = values(await burst(300, () => shop.get('/pm?country=LV')));
      assert.ok(cached.every((answer) => answer.status === 200 && answer.cache === 'fresh'));
      assert.deepEqual(cached[0]!.body, paymentMethods());
      assert.equal(
        shop.upstream.calls.length,
        1,
        'the answer Redis held is served from the mirror in memory',
      );
      const uncached = values(await burst(300, () => shop.get('/pm?country=EE')));
      assert.ok(uncached.every((answer) => answer.status === 200));
      assert.equal(shop.upstream.calls.length, 2, 'one gateway call for 300 requests of a new query');
      assert.deepEqual(
        shop.outages.map((event) => event.status),
        ['down'],
        'one report for the outage, not one per request',
      );
      assert.deepEqual(shop.errors, []);

      redis = await startRedisServer({ port: redis.port });
      await lookUpUntil(shop.get, '/pm?country=LT', () => shop.outages.length > 1, 'going back to Redis');
      assert.deepEqual(
        shop.outages.map((event) => event.status),
        ['down', 'up'],
      );
      assert.equal((await shop.get('/pm?country=FI')).status, 200);
      const observer = await connect(redis.url);
      try {
        assert.equal(
          await observer.exists(keyOf({ country: 'FI' })),
          1,
          'new answers are written to Redis again',
        );
      } finally {
        await observer.close();
      }
    } finally {
      await shop.close();
    }
  });
});

describe('the payment-methods endpoint when Redis stalls', () => {
  let redis: RedisServer;
  let client: Client;
  let admin: Client;

  before(async () => {
    redis = await startRedisServer();
    [client, admin] = await Promise.all([connect(redis.url), connect(redis.url)]);
  });
  after(async () => {
    await Promise.all([client?.close(), admin?.close()]);
    await redis?.stop();
  });

  it('gives up on a command after storeTimeoutMs, answers 200 from memory and the gateway, and reports it once', async () => {
    const shop = await endpoint(client, { storeTimeoutMs: 100 });
    try {
      assert.equal((await shop.get('/pm?country=LV')).status, 200);
      // Every client's commands wait until the pause ends; the connection stays open and silent.
      await admin.sendCommand(['CLIENT', 'PAUSE', '2000', 'ALL']);
      const cached = values(await burst(200, () => shop.get('/pm?country=LV')));
      assert.ok(cached.every((answer) => answer.status === 200));
      const uncached = values(await burst(200, () => shop.get('/pm?country=LT')));
      assert.ok(uncached.every((answer) => answer.status === 200));
      assert.equal(shop.upstream.calls.length, 2);
      assert.equal(shop.outages.length, 1);
      const [down] = shop.outages;
      assert.equal(down?.status, 'down');
      if (down?.status === 'down') assert.match(String(down.error), /did not answer within 100 ms/);

      await lookUpUntil(shop.get, '/pm?country=LV', () => shop.outages.length > 1, 'the end of the pause');
      assert.equal(shop.outages[1]?.status, 'up');
      assert.equal(shop.outages.length, 2);
      assert.deepEqual(shop.errors, []);
    } finally {
      await shop.close();
    }
  });
});

describe('how long payment-methods keys live in Redis', () => {
  let redis: RedisServer;
  let client: Client;

  before(async () => {
    redis = await startRedisServer();
    client = await connect(redis.url);
  });
  after(async () => {
    await client?.close();
    await redis?.stop();
  });

  it('expires an answer after the minute it serves plus the stale window, and a failure after its back-off', async () => {
    const shop = await endpoint(client);
    const short = await endpoint(client, { keyPrefix: 'short:', staleTtlMs: 120_000 });
    try {
      await shop.get('/pm?country=LV');
      const pttl = await client.pTTL(keyOf({ country: 'LV' }));
      // 60 s fresh + 9 min stale by default: 10 minutes, not 24 hours.
      assert.ok(pttl > 9 * 60_000 && pttl <= 10 * 60_000, `PTTL ${pttl}`);
      assert.equal(
        await client.exists(`${keyOf({ country: 'LV' })}:refresh`),
        0,
        'the refresh claim is released',
      );

      await short.get('/pm?country=LV');
      const shortPttl = await client.pTTL(
        `short:${paymentMethodsQueryKey({ brand_id: BRAND, currency: 'EUR', country: 'LV' })}`,
      );
      assert.ok(shortPttl > 60_000 && shortPttl <= 120_000, `PTTL ${shortPttl}`);

      shop.upstream.behaviour = { fail: new Error('gateway answered 503') };
      assert.equal((await shop.get('/pm?country=EE')).status, 502);
      const failurePttl = await client.pTTL(keyOf({ country: 'EE' }));
      assert.ok(failurePttl > 0 && failurePttl <= 60_000, `PTTL ${failurePttl}`);

      assert.equal(await client.dbSize(), 3, 'one key per query asked, nothing else');
    } finally {
      await Promise.all([shop.close(), short.close()]);
    }
  });
});
