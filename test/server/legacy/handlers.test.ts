import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { OrderVerificationPayload, ShippingCostRequest } from '../../../src/core/legacy-callbacks.js';
import {
  createConnectionTestHandler,
  createOrderVerificationHandler,
  createSelfSignedCertificate,
  createShippingCostHandler,
  type FetchHandler,
  generateMerchantKeyPair,
  KeyFormatError,
  type MerchantKeyPair,
  signBody,
  signOrderVerificationToken,
  toNodeHandler,
} from '../../../src/server/index.js';
import { independentSign, independentToken, listen } from '../support.js';

let gateway: MerchantKeyPair;
let impostor: MerchantKeyPair;

before(async () => {
  [gateway, impostor] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
});

/** Serves a fetch handler through toNodeHandler on loopback for one describe block. */
function serve(makeHandler: () => FetchHandler): { url: () => string } {
  let server: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    server = await listen(toNodeHandler(makeHandler(), { maxBodyBytes: 8192 }));
  });
  after(() => server.close());
  return { url: () => server.url };
}

describe('createConnectionTestHandler over HTTP', () => {
  const { url } = serve(() => createConnectionTestHandler());

  it('answers OPTIONS with 200 and Access-Control-Allow-Methods containing POST', async () => {
    const response = await fetch(`${url()}/callback`, { method: 'OPTIONS' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
  });

  it('answers POST with {ok: true} and other methods with 405', async () => {
    const post = await fetch(`${url()}/callback`, { method: 'POST', body: '{}' });
    assert.equal(post.status, 200);
    assert.deepEqual(await post.json(), { ok: true });
    const get = await fetch(`${url()}/callback`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST, OPTIONS');
  });
});

const shippingRequest: ShippingCostRequest = {
  order_id: 'ord_01HZX',
  order_items: [
    { reference: 'bread', quantity: 2 },
    { reference: 'sugar', quantity: 1.25 },
    // An item without an orderItemId: no reference, its place in the list tells it.
    { reference: null, quantity: 1 },
  ],
  shipping_method_id: 'courier',
  address: { city: 'Rīga', address: 'Brīvības iela 1', postal_code: 'LV-1010' },
  pickup_point: { external_id: 'pp-7', name: 'Pakomāts Centrs', comments: null, service_hours: '24/7' },
};

describe('createShippingCostHandler over HTTP', () => {
  const quoted: ShippingCostRequest[] = [];
  const errors: unknown[] = [];
  const { url } = serve(() =>
    createShippingCostHandler({
      servicePublicKeyPem: createSelfSignedCertificate({
        privateKeyPem: gateway.privateKeyPem,
        subject: 'svc',
      }),
      onError: (error) => errors.push(error),
      quote: async (request) => {
        quoted.push(request);
        if (request.shipping_method_id === 'moon') return null;
        if (request.shipping_method_id === 'broken') throw new Error('carrier API down');
        if (request.shipping_method_id === 'sloppy') return { amount: '4.999' };
        return { amount: '4.90', currency: 'EUR', taxRate: 21 };
      },
    }),
  );

  const post = (body: string, signature?: string) =>
    fetch(`${url()}/shipping-cost`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        ...(signature !== undefined && { 'X-Svc-Signature': signature }),
      },
    });
  const signed = (value: unknown) => {
    const body = JSON.stringify(value);
    return post(body, independentSign(body, gateway.privateKeyPem));
  };

  it('answers the quote for a signed request and hands the parsed request to quote', async () => {
    quoted.length = 0;
    const response = await signed(shippingRequest);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { amount: '4.90', currency: 'EUR', taxRate: 21 });
    assert.deepEqual(quoted, [shippingRequest]);
    // As the gateway writes it, quantities with 3 decimals: the same numbers.
    quoted.length = 0;
    const written = JSON.stringify(shippingRequest)
      .replace('"quantity":2}', '"quantity":2.000}')
      .replace('"quantity":1.25}', '"quantity":1.250}');
    assert.match(written, /"quantity":2\.000}.*"quantity":1\.250}/);
    assert.equal((await post(written, independentSign(written, gateway.privateKeyPem))).status, 200);
    assert.deepEqual(quoted, [shippingRequest]);
  });

  it('answers 401 for a missing or wrong signature without calling quote', async () => {
    quoted.length = 0;
    const body = JSON.stringify(shippingRequest);
    const missing = await post(body);
    assert.equal(missing.status, 401);
    assert.equal((await missing.json()).error, 'signature_missing');
    const wrong = await post(body, signBody(body, impostor.privateKeyPem));
    assert.equal(wrong.status, 401);
    assert.equal((await wrong.json()).error, 'signature_invalid');
    assert.equal(quoted.length, 0);
  });

  it('answers 400 naming the field that is missing or malformed', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...shippingRequest, order_id: undefined }, 'order_id'],
      [{ ...shippingRequest, order_items: 'bread' }, 'order_items'],
      [{ ...shippingRequest, order_items: [{ reference: 'bread', quantity: 0 }] }, 'order_items[0].quantity'],
      // A decimal string was the format before issue 10; the quantity is a JSON number.
      [
        { ...shippingRequest, order_items: [{ reference: 'bread', quantity: '2' }] },
        'order_items[0].quantity',
      ],
      [{ ...shippingRequest, order_items: [{ reference: 7, quantity: 2 }] }, 'order_items[0].reference'],
      [{ ...shippingRequest, shipping_method_id: 7 }, 'shipping_method_id'],
      [{ ...shippingRequest, address: undefined }, 'address'],
      [{ ...shippingRequest, address: { ...shippingRequest.address, city: null } }, 'address.city'],
      [{ ...shippingRequest, pickup_point: { name: 'x' } }, 'pickup_point.external_id'],
    ];
    for (const [body, field] of cases) {
      const response = await signed(body);
      assert.equal(response.status, 400, field);
      const answer = await response.json();
      assert.equal(answer.field, field);
      assert.match(answer.message, new RegExp(field.replace(/[[\].]/g, '\\$&')));
    }
    const notJson = 'order_id=1';
    const response = await post(notJson, signBody(notJson, gateway.privateKeyPem));
    assert.equal(response.status, 400);
    assert.equal((await response.json()).error, 'malformed_body');
  });

  it('takes a request without pickup point', async () => {
    const { pickup_point: _, ...address } = shippingRequest;
    assert.equal((await signed(address)).status, 200);
  });

  it('answers 422 no_quote when quote returns null', async () => {
    const response = await signed({ ...shippingRequest, shipping_method_id: 'moon' });
    assert.equal(response.status, 422);
    assert.equal((await response.json()).error, 'no_quote');
  });

  it('answers 500 and reports the error when quote throws or returns an invalid amount', async () => {
    errors.length = 0;
    const thrown = await signed({ ...shippingRequest, shipping_method_id: 'broken' });
    assert.equal(thrown.status, 500);
    assert.doesNotMatch(
      await thrown.text(),
      /carrier API down/,
      'the merchant error stays in the merchant log',
    );
    const sloppy = await signed({ ...shippingRequest, shipping_method_id: 'sloppy' });
    assert.equal(sloppy.status, 500);
    assert.equal(errors.length, 2);
    assert.match(String(errors[1]), /4\.999 has 3 decimals/);
  });

  it('answers 405 to other methods and 413 to a body over the limit', async () => {
    assert.equal((await fetch(`${url()}/shipping-cost`)).status, 405);
    const large = JSON.stringify({ ...shippingRequest, order_id: 'x'.repeat(10_000) });
    const response = await post(large, signBody(large, gateway.privateKeyPem));
    assert.equal(response.status, 413);
  });

  it('refuses a bad key when the handler is made, not on the first call', () => {
    assert.throws(
      () => createShippingCostHandler({ servicePublicKeyPem: 'nope', quote: async () => null }),
      KeyFormatError,
    );
  });
});

describe('createOrderVerificationHandler over HTTP', () => {
  const asked: OrderVerificationPayload[] = [];
  const { url } = serve(() =>
    createOrderVerificationHandler({
      servicePublicKeyPem: gateway.publicKeyPem,
      approve: async (payload) => {
        asked.push(payload);
        return payload.externalOrderId === 'A-1';
      },
    }),
  );
  const post = (body: string) =>
    fetch(`${url()}/verify-order`, { method: 'POST', body, headers: { 'content-type': 'application/jose' } });

  it('answers the merchant decision for a gateway token', async () => {
    asked.length = 0;
    const approved = await post(
      signOrderVerificationToken({ orderId: 'o1', externalOrderId: 'A-1' }, gateway.privateKeyPem),
    );
    assert.equal(approved.status, 200);
    assert.deepEqual(await approved.json(), { approved: true });
    const rejected = await post(
      signOrderVerificationToken({ orderId: 'o2', externalOrderId: 'A-2' }, gateway.privateKeyPem),
    );
    assert.deepEqual(await rejected.json(), { approved: false });
    assert.deepEqual(
      asked.map((payload) => payload.orderId),
      ['o1', 'o2'],
    );
  });

  it('answers 401 to a token of another key or a garbled body, without asking the merchant', async () => {
    asked.length = 0;
    const forged = await post(
      signOrderVerificationToken({ orderId: 'o3', externalOrderId: 'A-1' }, impostor.privateKeyPem),
    );
    assert.equal(forged.status, 401);
    assert.equal((await forged.json()).error, 'signature_invalid');
    assert.equal((await post('{"orderId":"o3"}')).status, 401);
    assert.equal(asked.length, 0);
  });
});

describe('createOrderVerificationHandler answering with a rejection reason', () => {
  const errors: unknown[] = [];
  const { url } = serve(() =>
    createOrderVerificationHandler({
      servicePublicKeyPem: gateway.publicKeyPem,
      onError: (error) => errors.push(error),
      approve: async ({ externalOrderId }) => {
        if (externalOrderId === 'APPROVE') return { approved: true };
        if (externalOrderId === 'PLAIN') return { approved: false };
        // A reason the gateway does not know, as the official client's own example writes one.
        if (externalOrderId === 'UNKNOWN') return { approved: false, reasonCode: 'Out of stock' as never };
        return { approved: false, reasonCode: 'PRODUCT_NOT_AVAILABLE' };
      },
    }),
  );
  const ask = async (externalOrderId: string) => {
    const response = await fetch(`${url()}/verify-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/jose' },
      // The real token's shape: a kid, and no iat.
      body: independentToken(
        { kid: 'svc-gateway', alg: 'RS256' },
        { orderId: `o-${externalOrderId}`, externalOrderId },
        gateway.privateKeyPem,
      ),
    });
    return { status: response.status, body: await response.json() };
  };

  it('answers {approved}, and {approved: false, reasonCode} with a reason the gateway knows', async () => {
    assert.deepEqual(await ask('APPROVE'), { status: 200, body: { approved: true } });
    assert.deepEqual(await ask('PLAIN'), { status: 200, body: { approved: false } });
    assert.deepEqual(await ask('REJECT'), {
      status: 200,
      body: { approved: false, reasonCode: 'PRODUCT_NOT_AVAILABLE' },
    });
  });

  it('reports a reason the gateway does not know as the merchant code’s error, and answers 500', async () => {
    errors.length = 0;
    const answer = await ask('UNKNOWN');
    assert.equal(answer.status, 500);
    assert.equal(errors.length, 1);
    assert.match(String(errors[0]), /"Out of stock" is not one of PRICE_CHANGED, .*OTHER/);
  });
});
