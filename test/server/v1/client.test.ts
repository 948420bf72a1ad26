/**
 * The v1 client against a real sandbox over HTTP (every call and its errors), and its transport rules
 * (pagination, redirects, timeouts, odd answers) against small node:http servers that answer as a gateway
 * might.
 */
import assert from 'node:assert/strict';
import { createPublicKey, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  type CreatePurchaseRequest,
  createV1Client,
  type FetchPaymentMethods,
  normalizeV1ErrorBody,
  PaymentMethodsCache,
  paginate,
  V1ApiError,
  type V1Client,
  type Webhook,
} from '../../../src/server/index.js';
import { parseRetryAfter } from '../../../src/server/v1/errors.js';
import type { FakeMerchant } from '../../sandbox/support.js';
import { OTHER, purchaseBody, V1, withV1Sandbox } from '../../sandbox/v1/support.js';
import { failure, listen } from '../support.js';

/** A valid create request of merchant `m1`. */
const validPurchase = () => purchaseBody() as unknown as CreatePurchaseRequest;

describe('v1 client against the sandbox', () => {
  const started = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let v1: V1Client;
  before(() => ({ merchant, sandbox, client: v1 } = started));

  test('creates, reads and cancels a Purchase with every field the document names', async () => {
    const created = await v1.purchases.create({
      brand_id: V1.brandId,
      client: { email: 'customer@example.com', full_name: 'Anna Tester' },
      purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], currency: 'EUR', language: 'en' },
      reference: 'order-17',
      success_redirect: 'https://shop.example/ok',
      payment_method_whitelist: ['visa', 'mastercard'],
      payout_method_whitelist: ['sepa_credit_transfer'],
    });
    assert.match(created.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(created.status, 'created');
    assert.equal(created.checkout_url, `${sandbox.url}/checkout/${created.id}/`);
    assert.equal(created.reference, 'order-17');
    assert.equal(created.brand_id, V1.brandId);
    assert.deepEqual(created.payment_method_whitelist, ['visa', 'mastercard']);
    assert.deepEqual(created.payout_method_whitelist, ['sepa_credit_transfer']);
    assert.equal(created.is_test, true);
    assert.deepEqual(created.purchase.products, [
      { name: 'Tea', price: 1250, quantity: '2.0000', discount: 0, tax_percent: '0.00', category: '' },
    ]);
    assert.equal(created.purchase.total, 2500);
    assert.equal(created.is_recurring_token, false);
    assert.equal(created.marked_as_paid, false);
    assert.equal(created.skip_capture, false);
    assert.equal(typeof created.refundable_amount, 'number');
    assert.equal(typeof created.refund_availability, 'string');
    assert.deepEqual(created.transaction_data.attempts, []);
    assert.equal(created.success_callback, '');

    assert.deepEqual(await v1.purchases.get(created.id), created);

    const cancelled = await v1.purchases.cancel(created.id);
    assert.equal(cancelled.id, created.id);
    assert.equal(cancelled.status, 'cancelled');
    assert.equal((await v1.purchases.get(created.id)).status, 'cancelled');
  });

  test('normalises a 400 body of single objects and arrays into one list of field errors', async () => {
    const error = await failure(
      () =>
        v1.purchases.create({
          brand_id: 'not-a-uuid',
          client: { email: 'nobody' },
          purchase: { products: [{ name: '', price: -1 }], currency: 'EURO' },
          payment_method_whitelist: ['visa', 'cash', 'cheque'],
        }),
      'bad_request',
    );
    assert.equal(error.status, 400);
    const body = error.body as Record<string, unknown>;
    // The sandbox answered both shapes: one object for brand_id, an array for the whitelist.
    assert.ok(!Array.isArray(body['brand_id']));
    assert.ok(Array.isArray(body['payment_method_whitelist']));
    assert.deepEqual(error.errorsFor('brand_id'), [
      { field: 'brand_id', code: 'invalid', message: 'brand_id must be a UUID' },
    ]);
    const whitelist = error.errorsFor('payment_method_whitelist');
    assert.deepEqual(
      whitelist.map((entry) => entry.code),
      ['invalid', 'invalid'],
    );
    assert.match(whitelist[0]!.message, /"cash"/);
    assert.match(whitelist[1]!.message, /"cheque"/);
    assert.equal(error.errorsFor('purchase.products[0].name')[0]?.code, 'blank');
    assert.equal(error.errorsFor('purchase.products[0].price')[0]?.code, 'min_value');
    assert.equal(error.errorsFor('purchase.currency')[0]?.code, 'invalid');
    assert.equal(error.errorsFor('client.email')[0]?.code, 'invalid');
    const detailCount = Object.values(body).reduce<number>(
      (sum, value) => sum + (Array.isArray(value) ? value.length : 1),
      0,
    );
    assert.equal(error.errors.length, detailCount, 'every problem of the body, none invented');
    assert.match(
      error.message,
      /^POST \/api\/v1\/purchases\/ answered 400: brand_id: brand_id must be a UUID;/,
    );
  });

  test('puts problems of no single field under __all__', async () => {
    const error = await failure(
      () =>
        v1.purchases.create({
          brand_id: V1.brandId,
          purchase: {
            products: [{ name: 'Rent', price: 50000 }],
            payment_method_details: {
              pis_bulk_purchase: [{ creditor_name: 'Stranger', creditor_iban: 'LV62HABA0551234567890' }],
            },
          },
        }),
      'bad_request',
    );
    assert.equal(error.errors.length, 1);
    assert.equal(error.errors[0]!.field, '__all__');
    assert.equal(error.errors[0]!.code, 'invalid');
    assert.match(error.errors[0]!.message, /LV62HABA0551234567890/);
  });

  test('answers not_found for an unknown or foreign purchase id', async () => {
    const unknown = randomUUID();
    const notFound = await failure(() => v1.purchases.get(unknown), 'not_found');
    assert.equal(notFound.status, 404);
    assert.deepEqual(
      notFound.errors.map((entry) => [entry.field, entry.code]),
      [['__all__', 'not_found']],
    );
    await failure(() => v1.purchases.cancel(unknown), 'not_found');

    const other = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
    const foreign = await other.purchases.create({
      brand_id: OTHER.brandId,
      purchase: { products: [{ name: 'Theirs', price: 100 }] },
    });
    await failure(() => v1.purchases.get(foreign.id), 'not_found');
  });

  test('refuses an empty id before sending anything', async () => {
    const error = await failure(() => v1.purchases.get(' '), 'invalid_request');
    assert.equal(error.status, undefined);
  });

  test('answers unauthorized for a wrong secret key', async () => {
    const wrong = createV1Client({ baseUrl: sandbox.url, secretKey: 'not-the-key' });
    const error = await failure(() => wrong.purchases.create(validPurchase()), 'unauthorized');
    assert.equal(error.status, 401);
    assert.equal(error.errors[0]?.code, 'authentication_failed');
    assert.doesNotMatch(error.message, /not-the-key/, 'the key is not repeated in messages');
    await failure(() => wrong.paymentMethods({ brand_id: V1.brandId, currency: 'EUR' }), 'unauthorized');
  });

  test('looks up payment methods with the documented query, then is rate limited with retryAfterMs', async () => {
    const query = { brand_id: V1.brandId, currency: 'EUR', country: 'lv', language: 'en' };
    const methods = await v1.paymentMethods(query);
    assert.ok(methods.available_payment_methods.includes('visa'));
    assert.ok(methods.by_country['lv']?.length, 'Latvian bank methods');
    assert.equal(methods.country_names['any'], 'Other');
    assert.ok(methods.card_methods.includes('mastercard'));
    assert.ok(methods.payment_method_groups.some((group) => group.name === 'card'));
    for (const method of methods.available_payment_methods)
      assert.equal(typeof methods.names[method], 'string');

    const throttled = await failure(() => v1.paymentMethods(query), 'rate_limited');
    assert.equal(throttled.status, 429);
    assert.equal(throttled.errors[0]?.code, 'throttled');
    assert.ok(throttled.retryAfterMs !== undefined, 'Retry-After read');
    assert.ok(throttled.retryAfterMs > 0 && throttled.retryAfterMs <= 60_000, String(throttled.retryAfterMs));
    assert.equal(throttled.retryAfterMs % 1000, 0, 'whole seconds of Retry-After, in milliseconds');
  });

  test('sends the boolean filters as the document writes them', async () => {
    const all = await v1.paymentMethods({ brand_id: V1.brandId, currency: 'EUR', language: 'ru' });
    const recurring = await v1.paymentMethods({
      brand_id: V1.brandId,
      currency: 'EUR',
      language: 'ru',
      recurring: true,
    });
    assert.ok(recurring.available_payment_methods.length > 0);
    assert.ok(
      recurring.available_payment_methods.length < all.available_payment_methods.length,
      'recurring=true filters methods out',
    );
    for (const method of recurring.available_payment_methods) {
      assert.ok(all.available_payment_methods.includes(method));
    }
  });

  test('is the payment-methods cache fetch as it is', async () => {
    let calls = 0;
    const fetchPaymentMethods: FetchPaymentMethods = (query, { signal }) => {
      calls += 1;
      return v1.paymentMethods(query, { signal });
    };
    const cache = new PaymentMethodsCache({ fetchPaymentMethods, onRefreshError: () => {} });
    const query = { brand_id: V1.brandId, currency: 'EUR', country: 'EE', language: 'lv' };
    const [first, second] = await Promise.all([cache.get(query), cache.get(query)]);
    assert.equal(calls, 1);
    assert.equal(first.stale, false);
    assert.deepEqual(first.methods, second.methods);
    assert.ok(first.methods.by_country['ee']?.length);
  });

  test('refuses a bad lookup: before sending when required members are missing, else with field errors', async () => {
    const missing = await failure(
      () => v1.paymentMethods({ brand_id: V1.brandId } as never),
      'invalid_request',
    );
    assert.match(missing.message, /currency/);
    const foreignBrand = await failure(
      () => v1.paymentMethods({ brand_id: OTHER.brandId, currency: 'EUR', language: 'lv', country: 'lt' }),
      'bad_request',
    );
    assert.equal(foreignBrand.errors[0]?.field, 'brand_id');
    const badCurrency = await failure(
      () => v1.payoutMethods({ brand_id: V1.brandId, currency: 'EURO' }),
      'bad_request',
    );
    assert.deepEqual(
      badCurrency.errors.map((entry) => entry.field),
      ['currency'],
    );
  });

  test('looks up payout methods', async () => {
    const methods = await v1.payoutMethods({ brand_id: V1.brandId, currency: 'EUR', language: 'en' });
    assert.ok(methods.available_payout_methods.length > 0);
    for (const method of methods.available_payout_methods)
      assert.equal(typeof methods.names[method], 'string');
    assert.ok(Array.isArray(methods.card_methods));
  });

  test('reads the company public key', async () => {
    const pem = await v1.publicKey();
    assert.match(pem, /^-----BEGIN PUBLIC KEY-----\n/);
    assert.equal(createPublicKey(pem).asymmetricKeyType, 'rsa');
  });

  test('manages webhooks and walks their list page by page', async () => {
    const made: Webhook[] = [];
    for (const title of ['one', 'two', 'three']) {
      made.push(
        await v1.webhooks.create({
          title,
          callback: `${merchant.url}/hook-${title}`,
          events: ['purchase.paid'],
        }),
      );
    }
    assert.match(made[0]!.public_key, /^-----BEGIN PUBLIC KEY-----/);
    const list = v1.webhooks.list({ per_page: 1 });
    const pages = [];
    for await (const page of list.pages()) pages.push(page);
    assert.ok(pages.length >= 3, 'one webhook per page');
    const titles = (await list.toArray()).map((webhook) => webhook.title);
    assert.deepEqual(
      titles.filter((title) => ['one', 'two', 'three'].includes(title)),
      ['one', 'two', 'three'],
    );
    assert.deepEqual(
      (await list.toArray({ limit: 2 })).map((webhook) => webhook.id),
      (await v1.webhooks.list().toArray()).slice(0, 2).map((webhook) => webhook.id),
    );

    const patched = await v1.webhooks.patch(made[0]!.id, { title: 'first' });
    assert.equal(patched.title, 'first');
    assert.equal(patched.public_key, made[0]!.public_key, 'the key stays');
    const replaced = await v1.webhooks.update(made[1]!.id, {
      title: 'second',
      callback: `${merchant.url}/hook-second`,
      all_events: true,
    });
    assert.equal(replaced.all_events, true);
    assert.deepEqual(await v1.webhooks.get(made[1]!.id), replaced);

    await v1.webhooks.delete(made[2]!.id);
    await failure(() => v1.webhooks.get(made[2]!.id), 'not_found');
    await failure(() => v1.webhooks.delete(made[2]!.id), 'not_found');
    const bad = await failure(() => v1.webhooks.create({ title: '', callback: 'nowhere' }), 'bad_request');
    assert.ok(bad.errorsFor('callback').length > 0);
  });

  test("lists a purchase's webhook deliveries", async () => {
    await v1.webhooks.create({
      title: 'created',
      callback: `${merchant.url}/hook-created`,
      all_events: true,
    });
    const purchase = await v1.purchases.create(validPurchase());
    const deliveries = v1.webhooks.deliveries({ id: purchase.id, source_type: 'purchase' });
    const deadline = Date.now() + 5000;
    let found = await deliveries.toArray();
    while (!found.some((delivery) => delivery.url.endsWith('/hook-created') && delivery.delivered_on)) {
      assert.ok(Date.now() < deadline, `no delivered purchase.created in ${JSON.stringify(found)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
      found = await deliveries.toArray();
    }
    const created = found.find(
      (delivery) => delivery.event === 'purchase.created' && delivery.url === `${merchant.url}/hook-created`,
    );
    assert.ok(created, 'delivered to the new webhook');
    assert.equal(created.payload['id'], purchase.id);
    assert.throws(
      () => v1.webhooks.deliveries({ id: purchase.id } as never),
      (error: unknown) => {
        return error instanceof V1ApiError && error.code === 'invalid_request';
      },
    );
  });
});

/** A small gateway stand-in: records each request and answers with `respond`. */
async function gateway(respond: (req: IncomingMessage, url: URL, base: string) => Response | null) {
  const received: Array<{ method: string; url: URL; authorization: string | undefined }> = [];
  let base = '';
  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    received.push({ method: req.method ?? '', url, authorization: req.headers.authorization });
    const answer = respond(req, url, base);
    if (answer === null) return; // never answers
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  base = server.url;
  return { ...server, received };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

describe('v1 client transport', () => {
  test('paginate follows next (absolute and relative) with the key on every page, fetching no page too many', async () => {
    const pages: Record<string, (base: string) => unknown> = {
      '1': (base) => ({ results: [1, 2], next: `${base}/api/v1/things/?page=2&kind=a`, previous: null }),
      '2': () => ({ results: [3, 4], next: '/api/v1/things/?page=3&kind=a', previous: 'x' }),
      '3': () => ({ results: [5], next: null, previous: 'y' }),
    };
    const server = await gateway((_req, url, base) =>
      json(200, pages[url.searchParams.get('page') ?? '1']!(base)),
    );
    try {
      const v1 = createV1Client({ baseUrl: server.url, secretKey: 'k1' });
      const items: number[] = [];
      for await (const item of v1.list<number>('/things/', { kind: 'a', absent: undefined }))
        items.push(item);
      assert.deepEqual(items, [1, 2, 3, 4, 5]);
      assert.deepEqual(
        server.received.map(({ url }) => url.pathname + url.search),
        ['/api/v1/things/?kind=a', '/api/v1/things/?page=2&kind=a', '/api/v1/things/?page=3&kind=a'],
      );
      assert.ok(server.received.every(({ authorization }) => authorization === 'Bearer k1'));

      server.received.length = 0;
      assert.deepEqual(await v1.list<number>('/things/', { kind: 'a' }).toArray({ limit: 3 }), [1, 2, 3]);
      assert.equal(server.received.length, 2, 'the third page is not fetched');

      server.received.length = 0;
      for await (const item of v1.list<number>('/things/')) if (item === 1) break;
      assert.equal(server.received.length, 1, 'leaving the loop fetches nothing more');

      const seenPages = [];
      for await (const page of v1.list<number>('/things/').pages()) seenPages.push(page.previous);
      assert.deepEqual(seenPages, [null, 'x', 'y']);
    } finally {
      await server.close();
    }
  });

  test('paginate refuses a next link to another origin, and one that loops', async () => {
    const elsewhere = await gateway(() => json(200, { results: ['stolen'], next: null, previous: null }));
    const server = await gateway((_req, url, base) => {
      if (url.pathname.startsWith('/api/v1/away/'))
        return json(200, { results: [1], next: `${elsewhere.url}/api/v1/away/?page=2`, previous: null });
      return json(200, { results: [1], next: `${base}/api/v1/loop/?page=2`, previous: null });
    });
    try {
      const v1 = createV1Client({ baseUrl: server.url, secretKey: 'k2' });
      const away = await failure(() => v1.list('/away/').toArray(), 'invalid_response');
      assert.match(away.message, /not followed/);
      assert.equal(elsewhere.received.length, 0, 'the key never went elsewhere');
      const loop = await failure(() => v1.list('/loop/').toArray(), 'invalid_response');
      assert.match(loop.message, /already read/);
      const notAPage = await failure(
        () => paginate(`${server.url}/x`, async () => ({ results: 'no' }) as never).toArray(),
        'invalid_response',
      );
      assert.match(notAPage.message, /did not answer a page/);
    } finally {
      await server.close();
      await elsewhere.close();
    }
  });

  test('does not follow redirects, so the key goes nowhere else', async () => {
    const elsewhere = await gateway(() => json(200, { id: 'x', status: 'paid' }));
    const server = await gateway(
      () =>
        new Response(null, { status: 302, headers: { location: `${elsewhere.url}/api/v1/purchases/x/` } }),
    );
    try {
      const v1 = createV1Client({ baseUrl: `${server.url}/api/v1/`, secretKey: 'k3' });
      const error = await failure(() => v1.purchases.get('x'), 'unexpected_status');
      assert.equal(error.status, 302);
      assert.match(error.message, /answered 302 \(to http:\/\/127\.0\.0\.1:\d+\/api\/v1\/purchases\/x\/\)/);
      assert.equal(
        server.received[0]?.url.pathname,
        '/api/v1/purchases/x/',
        'a base ending in /api/v1 is kept',
      );
      assert.equal(elsewhere.received.length, 0);
    } finally {
      await server.close();
      await elsewhere.close();
    }
  });

  test('tells network failures, timeouts and aborts apart', async () => {
    const closed = await gateway(() => json(200, {}));
    await closed.close();
    const unreachable = createV1Client({ baseUrl: closed.url, secretKey: 'k' });
    const network = await failure(() => unreachable.publicKey(), 'network_error');
    assert.equal(network.status, undefined);
    assert.match(network.message, /ECONNREFUSED/);

    const silent = await gateway(() => null);
    try {
      const slow = createV1Client({ baseUrl: silent.url, secretKey: 'k', timeoutMs: 150 });
      await failure(() => slow.purchases.get('x'), 'timeout');
      const patient = createV1Client({ baseUrl: silent.url, secretKey: 'k' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      await failure(() => patient.purchases.get('x', { signal: controller.signal }), 'aborted');
      await failure(() => patient.purchases.get('x', { signal: AbortSignal.abort() }), 'aborted');
    } finally {
      await silent.close();
    }
  });

  test('reads server errors, answers that are not JSON or not the resource, and nested error bodies', async () => {
    const server = await gateway((_req, url) => {
      switch (url.pathname) {
        case '/api/v1/purchases/down/':
          return new Response('Bad gateway', { status: 502 });
        case '/api/v1/purchases/html/':
          return new Response('<html>hello</html>', { status: 200 });
        case '/api/v1/purchases/other/':
          return json(200, { hello: 'world' });
        case '/api/v1/public_key/':
          return new Response('not a key', { status: 200 });
        case '/api/v1/teapot/':
          return json(418, { detail: 'short and stout' });
        default:
          return json(
            400,
            {
              purchase: { products: [{}, { price: [{ message: 'Too low', code: 'min_value' }] }] },
              __all__: ['Plain text problem'],
              client: { email: { message: 'Bad email' } },
            },
            { 'retry-after': '5' },
          );
      }
    });
    try {
      const v1 = createV1Client({ baseUrl: server.url, secretKey: 'k' });
      const down = await failure(() => v1.purchases.get('down'), 'server_error');
      assert.equal(down.status, 502);
      assert.equal(down.body, 'Bad gateway');
      assert.match(down.message, /answered 502: Bad gateway/);
      await failure(() => v1.purchases.get('html'), 'invalid_response');
      await failure(() => v1.purchases.get('other'), 'invalid_response');
      await failure(() => v1.publicKey(), 'invalid_response');
      const teapot = await failure(() => v1.list('/teapot/').toArray(), 'unexpected_status');
      assert.deepEqual(teapot.errors, [{ field: 'detail', message: 'short and stout', code: 'invalid' }]);
      const nested = await failure(() => v1.purchases.get('nested'), 'bad_request');
      assert.deepEqual(nested.errors, [
        { field: 'purchase.products[1].price', message: 'Too low', code: 'min_value' },
        { field: '__all__', message: 'Plain text problem', code: 'invalid' },
        { field: 'client.email', message: 'Bad email', code: 'invalid' },
      ]);
      assert.equal(nested.retryAfterMs, undefined, 'Retry-After is read for 429 only');
    } finally {
      await server.close();
    }
  });

  test('normalises both documented shapes and reads Retry-After as seconds or a date', () => {
    assert.deepEqual(
      normalizeV1ErrorBody({
        creditor: { message: 'Not whitelisted', code: 'invalid' },
        __all__: [
          { message: 'A', code: 'purchase_capture_error' },
          { message: 'B', code: 'invalid' },
        ],
      }),
      [
        { field: 'creditor', message: 'Not whitelisted', code: 'invalid' },
        { field: '__all__', message: 'A', code: 'purchase_capture_error' },
        { field: '__all__', message: 'B', code: 'invalid' },
      ],
    );
    assert.deepEqual(normalizeV1ErrorBody('nope'), []);
    assert.deepEqual(normalizeV1ErrorBody(null), []);
    assert.equal(parseRetryAfter('42'), 42_000);
    const now = Date.parse('2030-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });

  test('refuses bad options at once', () => {
    assert.throws(() => createV1Client({ baseUrl: 'http://x', secretKey: '' }), TypeError);
    assert.throws(() => createV1Client({ baseUrl: 'http://x', secretKey: 'two words' }), TypeError);
    assert.throws(() => createV1Client({ baseUrl: 'nowhere', secretKey: 'k' }), TypeError);
    assert.throws(() => createV1Client({ baseUrl: 'ftp://x', secretKey: 'k' }), TypeError);
    assert.throws(() => createV1Client({ baseUrl: 'http://x', secretKey: 'k', timeoutMs: 0 }), TypeError);
  });
});
