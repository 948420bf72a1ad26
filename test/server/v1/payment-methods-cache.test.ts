import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MemoryCacheStore,
  PaymentMethodsCache,
  PaymentMethodsCacheError,
  type PaymentMethodsCacheOptions,
  type PaymentMethodsLookup,
  paymentMethodsQueryKey,
  type StoreOutageEvent,
} from '../../../src/server/index.js';
import {
  burst,
  CountingUpstream,
  ManualClock,
  paymentMethods,
  unreadableStore,
  values,
} from './payment-methods-cache-support.js';

const BRAND = '6f2a1c9e-4b7d-4e0a-9a51-2d8e0f3b7c11';
const query = { brand_id: BRAND, currency: 'EUR', country: 'LV' };

function setup(options: Partial<PaymentMethodsCacheOptions> = {}) {
  const upstream = new CountingUpstream();
  const clock = new ManualClock();
  const refreshErrors: unknown[] = [];
  const cache = new PaymentMethodsCache({
    fetchPaymentMethods: upstream.fetch,
    now: clock.now,
    onRefreshError: (error) => refreshErrors.push(error),
    ...options,
  });
  return { upstream, clock, cache, refreshErrors };
}

describe('PaymentMethodsCache in memory', () => {
  it('makes exactly one upstream call for 1,000 concurrent lookups of one query', async () => {
    const { upstream, cache } = setup();
    const answers = values(await burst(1000, () => cache.get(query)));
    assert.equal(upstream.calls.length, 1);
    assert.deepEqual(upstream.calls[0], query);
    assert.equal(answers.length, 1000);
    for (const answer of answers) {
      assert.equal(answer.stale, false);
      assert.deepEqual(answer.methods, paymentMethods());
    }
  });

  it('calls again once the minute is over, and only once for 1,000 callers at the boundary', async () => {
    const { upstream, clock, cache } = setup();
    const first = await cache.get(query);
    assert.equal(first.refreshInMs, 60_000);
    clock.advance(59_999);
    const late = await cache.get(query);
    assert.equal(upstream.calls.length, 1, 'one millisecond before the minute the cached answer is served');
    assert.equal(late.stale, false);
    assert.equal(late.ageMs, 59_999);
    assert.equal(late.refreshInMs, 1);

    clock.advance(1);
    upstream.behaviour = { answer: paymentMethods('second') };
    const answers = values(await burst(1000, () => cache.get(query)));
    assert.equal(upstream.calls.length, 2);
    for (const answer of answers) assert.equal(answer.methods.names['swedbank_lv_pis'], 'Swedbank (second)');
  });

  it('serves the last good answer marked stale when the gateway fails, and waits out the back-off', async () => {
    const { upstream, clock, cache, refreshErrors } = setup();
    await cache.get(query);
    clock.advance(61_000);
    upstream.behaviour = { fail: new Error('gateway answered 503') };

    const answers = values(await burst(1000, () => cache.get(query)));
    assert.equal(upstream.calls.length, 2, 'one failed refresh for all 1,000 callers');
    assert.equal(refreshErrors.length, 1);
    for (const answer of answers) {
      assert.equal(answer.stale, true);
      assert.deepEqual(answer.methods, paymentMethods());
      assert.equal(answer.ageMs, 61_000);
      if (answer.stale) {
        assert.equal(answer.failure.message, 'gateway answered 503');
        assert.equal(answer.failure.at, clock.time);
      }
    }

    clock.advance(30_000);
    const during = await cache.get(query);
    assert.equal(upstream.calls.length, 2, 'no new call within the back-off');
    assert.equal(during.stale, true);
    assert.equal(during.refreshInMs, 30_000);

    clock.advance(30_000);
    upstream.behaviour = { answer: paymentMethods('recovered') };
    const recovered = await cache.get(query);
    assert.equal(upstream.calls.length, 3);
    assert.equal(recovered.stale, false);
    assert.equal(recovered.methods.names['swedbank_lv_pis'], 'Swedbank (recovered)');
  });

  it('rejects every concurrent caller with upstream_failed when nothing is cached, after one call', async () => {
    const { upstream, clock, cache } = setup({ retryAfterFailureMs: 10_000 });
    upstream.behaviour = { fail: new Error('connection refused') };
    const results = await burst(200, () => cache.get(query));
    assert.equal(upstream.calls.length, 1);
    for (const result of results) {
      assert.equal(result.status, 'rejected');
      const error = (result as PromiseRejectedResult).reason;
      assert.ok(error instanceof PaymentMethodsCacheError);
      assert.equal(error.code, 'upstream_failed');
      assert.match(error.message, /connection refused/);
      assert.equal(error.retryInMs, 10_000);
    }

    clock.advance(9_999);
    await assert.rejects(cache.get(query), { code: 'upstream_failed', retryInMs: 1 });
    assert.equal(upstream.calls.length, 1, 'the failure is remembered for the back-off');

    clock.advance(1);
    upstream.behaviour = { answer: paymentMethods() };
    assert.equal((await cache.get(query)).stale, false);
    assert.equal(upstream.calls.length, 2);
  });

  it('treats an upstream answer that is not an object as a failure', async () => {
    const { cache, refreshErrors } = setup({
      fetchPaymentMethods: async () => null as unknown as ReturnType<typeof paymentMethods>,
    });
    await assert.rejects(cache.get(query), { code: 'upstream_failed' });
    assert.match(String(refreshErrors[0]), /not an object/);
  });

  it('stops serving a stale answer past staleTtlMs', async () => {
    const { upstream, clock, cache } = setup({ staleTtlMs: 120_000 });
    await cache.get(query);
    upstream.behaviour = { fail: new Error('down') };
    clock.advance(60_000);
    assert.equal((await cache.get(query)).stale, true);
    clock.advance(60_000);
    await assert.rejects(cache.get(query), { code: 'upstream_failed' });
    assert.equal(upstream.calls.length, 3);
  });

  it('shares one entry between queries that differ only in order, case and false filters', async () => {
    const { upstream, cache } = setup();
    await Promise.all([
      cache.get({ brand_id: BRAND, currency: 'eur', country: 'lv', language: 'LV' }),
      cache.get({ language: 'lv', country: 'LV', currency: 'EUR', brand_id: BRAND, recurring: false }),
    ]);
    assert.equal(upstream.calls.length, 1);
    assert.deepEqual(upstream.calls[0], { brand_id: BRAND, currency: 'EUR', country: 'LV', language: 'lv' });
    assert.equal(
      paymentMethodsQueryKey({
        currency: 'eur',
        skip_capture: true,
        brand_id: 'b',
        recurring: false,
        country: 'lv',
      }),
      'brand_id=b&country=LV&currency=EUR&skip_capture=true',
    );
  });

  it('makes one call per distinct query when they arrive together', async () => {
    const { upstream, cache } = setup();
    const queries = [
      query,
      { ...query, country: 'EE' },
      { ...query, recurring: true },
      { ...query, language: 'ru' },
      { ...query, brand_id: 'another-brand' },
    ];
    values(await burst(1000, (index) => cache.get(queries[index % queries.length]!)));
    assert.equal(upstream.calls.length, queries.length);
  });

  it('goes on without a store that cannot be read: one gateway call for 1,000 lookups, one report', async () => {
    const outages: StoreOutageEvent[] = [];
    const { upstream, cache } = setup({
      store: unreadableStore('ECONNREFUSED'),
      onStoreOutage: (event) => outages.push(event),
    });
    const answers = values(await burst(1000, () => cache.get(query)));
    assert.ok(answers.every((answer) => !answer.stale));
    assert.equal(upstream.calls.length, 1);
    assert.equal(outages.length, 1);
    assert.equal(outages[0]!.status, 'down');
    assert.match(String((outages[0] as { error: unknown }).error), /ECONNREFUSED/);
  });

  it('refuses durations that are not positive', () => {
    assert.throws(() => setup({ ttlMs: 0 }), RangeError);
    assert.throws(() => setup({ pollIntervalMs: Number.NaN }), RangeError);
  });
});

describe('PaymentMethodsCache across servers sharing one store', () => {
  /** The claim a server holds on `query`'s refresh, under the default key prefix. */
  const REFRESH_KEY = `svc-checkout:payment-methods:${paymentMethodsQueryKey(query)}:refresh`;

  it('makes one upstream call for 1,000 lookups split across two caches over one MemoryCacheStore', async () => {
    const store = new MemoryCacheStore();
    const upstream = new CountingUpstream(40);
    const clock = new ManualClock();
    const caches = [0, 1].map(
      () =>
        new PaymentMethodsCache({
          fetchPaymentMethods: upstream.fetch,
          store,
          now: clock.now,
          pollIntervalMs: 5,
        }),
    );
    const answers = values(await burst(1000, (index) => caches[index % 2]!.get(query)));
    assert.equal(upstream.calls.length, 1);
    assert.ok(answers.every((answer: PaymentMethodsLookup) => !answer.stale));
  });

  it("takes over a refresh whose holder died, once the holder's lease lapses", async () => {
    const store = new MemoryCacheStore();
    // What a server that crashed mid-refresh leaves behind: its claim, and no entry.
    await store.claim(REFRESH_KEY, 'dead-server', 150);
    const upstream = new CountingUpstream(0);
    const survivor = new PaymentMethodsCache({
      fetchPaymentMethods: upstream.fetch,
      store,
      pollIntervalMs: 10,
      waitTimeoutMs: 2_000,
    });
    const started = performance.now();
    const answer = await survivor.get(query);
    assert.equal(answer.stale, false);
    assert.equal(upstream.calls.length, 1);
    assert.ok(
      performance.now() - started >= 140,
      'the survivor waited for the lease rather than calling at once',
    );
  });

  it('abandons an upstream call that outlives the refresh lease, aborting its signal', async () => {
    const { upstream, cache, refreshErrors } = setup({ refreshLeaseMs: 100 });
    upstream.behaviour = { hang: new Promise(() => undefined) };
    const started = performance.now();
    await assert.rejects(cache.get(query), { code: 'upstream_failed', message: /within the 100 ms lease/ });
    assert.ok(performance.now() - started < 1_000);
    assert.equal(upstream.signals[0]?.aborted, true);
    assert.equal(refreshErrors.length, 1);
  });

  it('gives up waiting after waitTimeoutMs with refresh_timeout when nothing is cached', async () => {
    const store = new MemoryCacheStore();
    await store.claim(REFRESH_KEY, 'other', 60_000);
    const upstream = new CountingUpstream(0);
    const cache = new PaymentMethodsCache({
      fetchPaymentMethods: upstream.fetch,
      store,
      waitTimeoutMs: 100,
      pollIntervalMs: 10,
    });
    await assert.rejects(cache.get(query), { code: 'refresh_timeout' });
    assert.equal(upstream.calls.length, 0);
  });
});

describe('MemoryCacheStore', () => {
  it('expires values, claims exclusively, and releases only for the holder', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ now: clock.now });
    await store.set('k', 'v', 1_000);
    assert.equal(await store.get('k'), 'v');
    clock.advance(1_000);
    assert.equal(await store.get('k'), undefined);

    assert.equal(await store.claim('lock', 'a', 500), true);
    assert.equal(await store.claim('lock', 'b', 500), false);
    await store.release('lock', 'b');
    assert.equal(await store.claim('lock', 'b', 500), false, "b's release does not free a's claim");
    clock.advance(500);
    assert.equal(await store.claim('lock', 'b', 500), true, "a's claim lapsed");
    await store.release('lock', 'a');
    assert.equal(await store.claim('lock', 'c', 500), false, "a's late release leaves b's claim");
    await store.release('lock', 'b');
    assert.equal(await store.claim('lock', 'c', 500), true);
  });

  it('keeps at most maxEntries keys, dropping expired ones first, then the oldest', async () => {
    const clock = new ManualClock();
    const store = new MemoryCacheStore({ maxEntries: 3, now: clock.now });
    await store.set('short', '1', 10);
    await store.set('a', '2', 1_000);
    await store.set('b', '3', 1_000);
    clock.advance(10);
    await store.set('c', '4', 1_000);
    assert.equal(store.size, 3);
    assert.deepEqual([await store.get('a'), await store.get('b'), await store.get('c')], ['2', '3', '4']);
    await store.set('d', '5', 1_000);
    assert.equal(store.size, 3);
    assert.equal(await store.get('a'), undefined);
    assert.equal(await store.get('d'), '5');
  });
});
