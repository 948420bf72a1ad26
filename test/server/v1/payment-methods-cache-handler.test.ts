/**
 * The merchant's payment-methods endpoint over real HTTP: node:http serving createPaymentMethodsHandler
 * through toNodeHandler, with requests written by hand (node:http's client and a raw socket), so that nothing
 * between the test and the handler tidies the query first.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  type CacheStore,
  createPaymentMethodsHandler,
  PaymentMethodsCache,
  type PaymentMethodsHandlerOptions,
  toNodeHandler,
} from '../../../src/server/index.js';
import { listen } from '../support.js';
import {
  burst,
  CountingUpstream,
  ManualClock,
  paymentMethods,
  unreadableStore,
  values,
} from './payment-methods-cache-support.js';

const BRAND = '1d4c7a2e-8f3b-4c5d-9e6f-0a1b2c3d4e5f';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** Sends one request with node:http, the path exactly as given. */
function send(base: string, path: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text ? JSON.parse(text) : null,
        });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/** A server for one describe block: the handler with its own upstream and clock. */
function serve(options: Partial<PaymentMethodsHandlerOptions> = {}, store?: CacheStore) {
  const upstream = new CountingUpstream(20);
  const clock = new ManualClock();
  const errors: unknown[] = [];
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    const cache = new PaymentMethodsCache({
      fetchPaymentMethods: upstream.fetch,
      now: clock.now,
      onRefreshError: () => undefined,
      ...(store && { store }),
    });
    const handler = createPaymentMethodsHandler({
      brandId: BRAND,
      cache,
      onError: (error) => errors.push(error),
      ...options,
    });
    server = await listen(toNodeHandler(handler));
  });
  after(() => server.close());
  return {
    upstream,
    clock,
    errors,
    get: (path: string, method?: string) => send(server.url, path, method),
    url: () => server.url,
  };
}

describe('createPaymentMethodsHandler over HTTP', () => {
  const endpoint = serve();

  it('answers the gateway JSON for the allowed filters, with the brand from the server and ISO case', async () => {
    const answer = await endpoint.get('/payment-methods?country=lv&currency=eur&language=LV&recurring=true');
    assert.equal(answer.status, 200);
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    assert.deepEqual(answer.body, paymentMethods());
    assert.deepEqual(endpoint.upstream.calls.at(-1), {
      brand_id: BRAND,
      currency: 'EUR',
      country: 'LV',
      language: 'lv',
      recurring: true,
    });
    assert.equal(answer.headers['cache-control'], 'public, max-age=60');
    assert.equal(answer.headers['age'], '0');
    assert.equal(answer.headers['x-svc-cache'], 'fresh');
  });

  it('counts down max-age and Age as the minute passes', async () => {
    await endpoint.get('/pm?currency=USD');
    endpoint.clock.advance(45_500);
    const answer = await endpoint.get('/pm?currency=USD');
    assert.equal(answer.headers['cache-control'], 'public, max-age=15');
    assert.equal(answer.headers['age'], '45');
  });

  it('makes one upstream call for 1,000 concurrent HTTP requests', async () => {
    const before = endpoint.upstream.calls.length;
    const answers = values(await burst(1000, () => endpoint.get('/pm?currency=EUR&country=EE')));
    assert.equal(endpoint.upstream.calls.length - before, 1);
    assert.ok(answers.every((answer) => answer.status === 200 && answer.headers['x-svc-cache'] === 'fresh'));
  });

  it('treats false filters as absent, so they share the unfiltered entry', async () => {
    await endpoint.get('/pm?currency=EUR&country=LT');
    const before = endpoint.upstream.calls.length;
    const answer = await endpoint.get(
      '/pm?skip_capture=false&country=LT&currency=EUR&preauthorization=false',
    );
    assert.equal(answer.status, 200);
    assert.equal(endpoint.upstream.calls.length, before);
  });

  const refusals: Array<[string, string, RegExp]> = [
    ['/pm?currency=EUR&brand_id=00000000-0000-0000-0000-000000000000', 'brand_id', /set by the server/],
    ['/pm?currency=EUR&amount=100', 'amount', /not a payment methods parameter/],
    ['/pm?currency=EUR&secret_key=sk', 'secret_key', /not a payment methods parameter/],
    ['/pm?currency=EUR&currency=USD', 'currency', /more than once/],
    ['/pm?currency=EURO', 'currency', /ISO 4217/],
    ['/pm?currency=EUR&country=LVA', 'country', /ISO 3166-1 alpha-2/],
    ['/pm?currency=EUR&language=lav', 'language', /ISO 639-1/],
    ['/pm?currency=EUR&recurring=yes', 'recurring', /true or false/],
    ['/pm?currency=EUR&skip_capture=1', 'skip_capture', /true or false/],
    ['/pm?country=LV', 'currency', /required/],
    ['/pm?currency=%E2%82%AC', 'currency', /ISO 4217/],
  ];
  for (const [path, parameter, message] of refusals) {
    it(`answers 400 naming ${parameter} for ${path}`, async () => {
      const before = endpoint.upstream.calls.length;
      const answer = await endpoint.get(path);
      assert.equal(answer.status, 400);
      assert.equal(answer.headers['cache-control'], 'no-store');
      const body = answer.body as { error: string; parameter: string; message: string };
      assert.equal(body.error, 'invalid_parameter');
      assert.equal(body.parameter, parameter);
      assert.match(body.message, message);
      assert.equal(endpoint.upstream.calls.length, before, 'a refused request never reaches the gateway');
    });
  }

  it('answers 405 with Allow: GET to other methods', async () => {
    const answer = await endpoint.get('/pm?currency=EUR', 'POST');
    assert.equal(answer.status, 405);
    assert.equal(answer.headers['allow'], 'GET');
  });

  it('answers a request written by hand on a raw socket', async () => {
    const port = new URL(endpoint.url()).port;
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        // Written, not ended: a half-closed socket would end the exchange before the answer.
        socket.write(
          'GET /pm?currency=eur&country=lv&language=ru HTTP/1.1\r\nHost: shop.example\r\nConnection: close\r\n\r\n',
        );
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(raw, /^HTTP\/1\.1 200 /);
    assert.match(raw, /\r\ncache-control: public, max-age=\d+\r\n/i);
    assert.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)), paymentMethods());
    assert.deepEqual(endpoint.upstream.calls.at(-1), {
      brand_id: BRAND,
      currency: 'EUR',
      country: 'LV',
      language: 'ru',
    });
  });
});

describe('createPaymentMethodsHandler when the gateway fails', () => {
  const endpoint = serve();

  it('serves the stale answer with X-Svc-Cache: stale until the back-off ends', async () => {
    assert.equal((await endpoint.get('/pm?currency=EUR')).status, 200);
    endpoint.clock.advance(61_000);
    endpoint.upstream.behaviour = { fail: new Error('upstream said 500 with sk_live_secret in it') };
    const answer = await endpoint.get('/pm?currency=EUR');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['x-svc-cache'], 'stale');
    assert.equal(answer.headers['age'], '61');
    assert.equal(answer.headers['cache-control'], 'public, max-age=60');
    assert.deepEqual(answer.body, paymentMethods());
  });

  it('answers 502 with Retry-After, and without the upstream error text, when nothing is cached', async () => {
    const calls = endpoint.upstream.calls.length;
    const answer = await endpoint.get('/pm?currency=GBP');
    assert.equal(answer.status, 502);
    assert.equal(answer.headers['retry-after'], '60');
    assert.equal(answer.headers['cache-control'], 'no-store');
    assert.equal((answer.body as { error: string }).error, 'gateway_unavailable');
    assert.doesNotMatch(JSON.stringify(answer.body), /sk_live_secret/);
    assert.equal(endpoint.upstream.calls.length, calls + 1);
    assert.equal((await endpoint.get('/pm?currency=GBP')).status, 502);
    assert.equal(endpoint.upstream.calls.length, calls + 1, 'the failure is not retried within the back-off');
  });
});

describe('createPaymentMethodsHandler with the shop’s own limits', () => {
  const endpoint = serve({ defaultCurrency: 'EUR', currencies: ['EUR'], countries: ['LV', 'LT', 'EE'] });

  it('uses the default currency and refuses codes the shop does not offer', async () => {
    assert.equal((await endpoint.get('/pm?country=ee')).status, 200);
    assert.deepEqual(endpoint.upstream.calls.at(-1), { brand_id: BRAND, currency: 'EUR', country: 'EE' });
    const country = await endpoint.get('/pm?country=FI');
    assert.equal(country.status, 400);
    assert.equal((country.body as { parameter: string }).parameter, 'country');
    const currency = await endpoint.get('/pm?currency=USD');
    assert.equal((currency.body as { parameter: string }).parameter, 'currency');
  });

  it('refuses a configuration without a brand or with a malformed default currency', () => {
    const cache = new PaymentMethodsCache({ fetchPaymentMethods: async () => paymentMethods() });
    assert.throws(() => createPaymentMethodsHandler({ brandId: '', cache }), TypeError);
    assert.throws(
      () => createPaymentMethodsHandler({ brandId: BRAND, cache, defaultCurrency: 'euro' }),
      TypeError,
    );
  });
});

describe('createPaymentMethodsHandler when the store fails', () => {
  const endpoint = serve({}, unreadableStore('READONLY You cannot write against a read only replica'));

  it('answers 200 from the gateway, not 500 (issue 9), and reports nothing to onError', async () => {
    const answer = await endpoint.get('/pm?currency=EUR');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, paymentMethods());
    assert.equal(endpoint.upstream.calls.length, 1);
    assert.deepEqual(endpoint.errors, []);
  });
});

describe('createPaymentMethodsHandler’s default allow-lists', () => {
  const endpoint = serve();

  it('takes ISO 4217 currencies, ISO 3166-1 countries and the gateway’s languages in any case', async () => {
    for (const path of ['/pm?currency=jpy&country=ax', '/pm?currency=XOF&country=CI&language=RU']) {
      assert.equal((await endpoint.get(path)).status, 200, path);
    }
    assert.deepEqual(endpoint.upstream.calls.at(-1), {
      brand_id: BRAND,
      currency: 'XOF',
      country: 'CI',
      language: 'ru',
    });
  });

  const madeUp: Array<[string, string, RegExp]> = [
    ['/pm?currency=ZZZ', 'currency', /ZZZ is not an ISO 4217 currency in use/],
    ['/pm?currency=XTS', 'currency', /not an ISO 4217 currency in use/],
    ['/pm?currency=HRK', 'currency', /not an ISO 4217 currency in use/],
    ['/pm?currency=EUR&country=ZZ', 'country', /ZZ is not an ISO 3166-1 country/],
    ['/pm?currency=EUR&country=EU', 'country', /not an ISO 3166-1 country/],
    ['/pm?currency=EUR&language=de', 'language', /de is not one of the gateway's languages \(lv, en, ru\)/],
  ];
  for (const [path, parameter, message] of madeUp) {
    it(`answers 400 naming ${parameter} without a gateway call for ${path}`, async () => {
      const before = endpoint.upstream.calls.length;
      const answer = await endpoint.get(path);
      assert.equal(answer.status, 400);
      assert.equal((answer.body as { parameter: string }).parameter, parameter);
      assert.match((answer.body as { message: string }).message, message);
      assert.equal(endpoint.upstream.calls.length, before);
    });
  }

  it('lets 5,000 fixed-seed made-up queries reach the gateway only as known codes', async () => {
    let seed = 0x2545f491;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return Math.floor((seed / 2 ** 32) * n);
    };
    const letter = () => String.fromCharCode(65 + random(26));
    const before = endpoint.upstream.calls.length;
    const taken = new Set<string>();
    let refused = 0;
    for (let round = 0; round < 5000; round++) {
      const path = `/pm?currency=${letter()}${letter()}${letter()}&country=${letter()}${letter()}`;
      const answer = await endpoint.get(path);
      if (answer.status === 400) {
        refused += 1;
        continue;
      }
      assert.equal(answer.status, 200, path);
      taken.add(path);
    }
    // Random letters name a currency in use about 1 time in 110, and a country about 1 time in 3.
    assert.ok(refused > 4900, `${refused} refused`);
    assert.equal(endpoint.upstream.calls.length - before, taken.size);
  });

  it('takes the shop’s own lists instead, and refuses an empty or malformed one at once', () => {
    const cache = new PaymentMethodsCache({ fetchPaymentMethods: async () => paymentMethods() });
    assert.throws(() => createPaymentMethodsHandler({ brandId: BRAND, cache, currencies: [] }), {
      name: 'TypeError',
      message: /"currencies" must list codes.*leave it out to take every one/,
    });
    assert.throws(() => createPaymentMethodsHandler({ brandId: BRAND, cache, countries: ['LV', 'LVA'] }), {
      name: 'TypeError',
      message: /"countries" must list codes, each an ISO 3166-1 alpha-2 code such as LV, not "LVA"/,
    });
    assert.throws(
      () => createPaymentMethodsHandler({ brandId: BRAND, cache, defaultCurrency: 'ZZZ' }),
      /defaultCurrency.*ZZZ is not an ISO 4217 currency in use/,
    );
  });
});
