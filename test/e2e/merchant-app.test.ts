/**
 * The demo merchant's back end against a real sandbox: the sandbox signs and delivers, the merchant verifies.
 * Orders are created and paid over the widget API, as the payment frame does, so no browser is involved.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RefusedNotification } from '../../demo/merchant/merchant-app.js';
import { PANTRY_WIDGET_ID } from '../../demo/merchant/pantry-cart.js';
import {
  DEMO_API_KEY,
  DEMO_CERTIFICATE_NAME,
  DEMO_MERCHANT_ID,
  DEMO_WIDGET_IDS,
} from '../../src/sandbox/index.js';
import {
  generateMerchantKeyPair,
  type OrderInput,
  orderSignatureInput,
  signBody,
} from '../../src/server/index.js';
import { type MerchantWithSandbox, request, startMerchantWithSandbox } from './support/merchant-server.js';

const VISA = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Test Buyer' };

let env: MerchantWithSandbox;
before(async () => {
  env = await startMerchantWithSandbox();
});
after(async () => {
  await env.close();
});

/**
 * The shop's signature of an order it built, as its server-rendered pages carry it: with `certificate-name`,
 * which is signed (here sent beside the order, which the widget API takes as the page's).
 */
function signed(order: OrderInput) {
  return {
    signature: env.merchant.signOrder({ ...order, certificateName: DEMO_CERTIFICATE_NAME }),
    certificateName: DEMO_CERTIFICATE_NAME,
  };
}

/** Creates an order over the widget API, as the frame does for the shop's page. */
async function createOrder(order: OrderInput, signature?: { signature: string; certificateName: string }) {
  return request(`${env.sandbox.url}/widget-api/v1/orders`, 'POST', {
    order,
    ...signature,
    pageOrigin: env.merchantUrl,
  });
}

/** Resolves with the next refusal of a signed notification for this merchant order id; rejects after 10 s. */
function waitForRefusal(orderId: string): Promise<RefusedNotification> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      const kept = env.merchant.notifications.filter((n) => n.notification.order_id === orderId);
      reject(new Error(`No refusal for ${orderId} within 10 s; kept as verified: ${kept.length}`));
    }, 10_000);
    const unsubscribe = env.merchant.subscribe((event) => {
      if (event.type === 'refused' && event.refused.orderId === orderId) {
        clearTimeout(timer);
        unsubscribe();
        resolve(event.refused);
      }
    });
  });
}

async function pay(orderId: string, body: Record<string, unknown> = {}) {
  return request(`${env.sandbox.url}/widget-api/v1/orders/${orderId}/payments`, 'POST', {
    idempotencyKey: `${orderId}-${Math.random()}`,
    card: VISA,
    ...body,
  });
}

describe('demo merchant back end', () => {
  test('prices the lazy page’s cart from its own list and signs that order, which the sandbox accepts', async () => {
    const answer = await request(`${env.merchantUrl}/api/sign`, 'POST', {
      items: [
        { id: 'tea', count: 2 },
        { id: 'honey', count: 1 },
      ],
      shippingOptionId: 'latvian-post',
    });
    assert.equal(answer.status, 200, answer.text);
    const { order, signature, certificateName } = answer.body as {
      order: OrderInput;
      signature: string;
      certificateName: string;
    };
    assert.equal(certificateName, DEMO_CERTIFICATE_NAME);
    assert.match(order.orderId ?? '', /^PANTRY-\w+$/);
    assert.deepEqual(order, {
      widgetId: DEMO_WIDGET_IDS.checkout,
      certificateName: DEMO_CERTIFICATE_NAME,
      orderId: order.orderId,
      backToMerchantUrl: `${env.merchantUrl}/cart.html`,
      items: [
        { amount: '6.40', label: 'Tea, 100 g', orderItemId: 'tea', count: 2 },
        { amount: '8.90', label: 'Honey, 0.5 kg', orderItemId: 'honey', unit: 'PIECE', count: 1 },
      ],
      shippingOptions: [{ id: 'latvian-post', amount: '2.80', label: 'Latvian Post' }],
    });
    const created = await createOrder(order, { signature, certificateName });
    assert.equal(created.status, 201, created.text);
    // 2 teas at 6.40 and a honey at 8.90; the shipping option counts once the customer chooses it.
    assert.equal(created.body['total'], '21.70');

    const tampered = await createOrder(
      { ...order, items: [{ amount: '0.01', label: 'Tea, 100 g', orderItemId: 'tea', count: 2 }] },
      { signature, certificateName },
    );
    assert.equal(tampered.status, 401, 'a changed order does not pass with the shop’s signature');

    const again = await request(`${env.merchantUrl}/api/sign`, 'POST', { items: [{ id: 'tea', count: 1 }] });
    assert.equal(again.status, 200, again.text);
    const second = again.body['order'] as OrderInput;
    assert.notEqual(second.orderId, order.orderId, 'each cart is an order of its own');
    assert.equal(second.shippingOptions, undefined, 'no shipping unless the cart names it');
  });

  test('signs no price a browser sends, and refuses carts it cannot price, saying why', async () => {
    const refused = async (body: unknown, pattern: RegExp) => {
      const answer = await request(`${env.merchantUrl}/api/sign`, 'POST', body);
      assert.equal(answer.status, 400, `${JSON.stringify(body)}: ${answer.text}`);
      assert.equal(answer.body['error'], 'invalid_cart');
      assert.match(String(answer.body['message']), pattern);
    };
    // The old way: an order of the browser's own making.
    await refused(
      { widgetId: PANTRY_WIDGET_ID, items: [{ amount: '0.01', label: 'Tea' }] },
      /widgetId: the cart takes only items/,
    );
    await refused({ items: [{ id: 'tea', count: 1, amount: '0.01' }] }, /items\[0\]\.amount: .*prices/);
    await refused({ items: [] }, /^items: must list/);
    await refused({ items: [{ id: 'caviar', count: 1 }] }, /items\[0\]\.id: is none of the products/);
    for (const count of [0, 1.5, 21, '2']) {
      await refused(
        { items: [{ id: 'tea', count }] },
        /items\[0\]\.count: must be a whole number from 1 to 20/,
      );
    }
    await refused(
      {
        items: [
          { id: 'tea', count: 1 },
          { id: 'tea', count: 2 },
        ],
      },
      /items\[1\]\.id: tea is in the cart twice/,
    );
    await refused({ items: [{ id: 'tea', count: 1 }], shippingOptionId: 'teleport' }, /^shippingOptionId:/);
    await refused([{ id: 'tea', count: 1 }], /must be a JSON object/);

    const notJson = await request(`${env.merchantUrl}/api/sign`, 'POST', '{oops');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body['error'], 'malformed_body');
    assert.equal((await request(`${env.merchantUrl}/api/sign`, 'GET')).status, 405);
  });

  test('keeps exactly one verified notification for a paid order', async () => {
    const order: OrderInput = {
      widgetId: DEMO_WIDGET_IDS.checkout,
      orderId: 'PAID-1',
      items: [{ amount: '20.00', label: 'Book' }],
    };
    const created = await createOrder(order, signed(order));
    const id = String(created.body['id']);
    const paid = await pay(id);
    assert.equal(paid.body['state'], 'PAID', paid.text);

    const entry = await env.merchant.waitForNotification((n) => n.notification.id === id);
    assert.equal(entry.notification.status, 'PAID');
    assert.equal(entry.notification.order_id, 'PAID-1');
    assert.equal(entry.notification.total_amount, 20);
    // Give a retry (there should be none after a 200) time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(env.merchant.notifications.filter((n) => n.notification.id === id).length, 1);
    assert.equal(entry.deliveries, 1, 'answered 200 the first time, so the gateway does not retry');

    const listed = await request(`${env.merchantUrl}/api/notifications`, 'GET');
    assert.equal(listed.status, 200);
    const ids = (listed.body['notifications'] as Array<{ notification: { id: string } }>).map(
      (n) => n.notification.id,
    );
    assert.ok(ids.includes(id));
  });

  test('refuses a forged or altered notification with 401 and keeps nothing of it', async () => {
    const before = env.merchant.notifications.length;
    const body = JSON.stringify({ id: 'forged-1', status: 'PAID', order_id: 'X' });
    const forger = await generateMerchantKeyPair();
    const forged = await request(`${env.merchantUrl}/api/notification`, 'PUT', body, {
      'x-svc-signature': signBody(body, forger.privateKeyPem),
    });
    assert.equal(forged.status, 401);
    assert.equal(forged.body['error'], 'signature_invalid');

    const servicePrivateKeyPem = await readFile(join(env.dataDir, 'service', 'private-key.pem'), 'utf8');
    const altered = await request(
      `${env.merchantUrl}/api/notification`,
      'PUT',
      body.replace('PAID', 'CANCELLED'),
      { 'x-svc-signature': signBody(body, servicePrivateKeyPem) },
    );
    assert.equal(altered.status, 401);

    const unsigned = await request(`${env.merchantUrl}/api/notification`, 'PUT', body);
    assert.equal(unsigned.status, 401);
    assert.equal(unsigned.body['error'], 'signature_missing');

    assert.equal(env.merchant.notifications.length, before);
    assert.deepEqual(
      env.merchant.refusedNotifications.slice(-3).map((r) => r.code),
      ['signature_invalid', 'signature_invalid', 'signature_missing'],
    );
  });

  test('tells a repeated delivery from a new notification by order id, status and payment reference', async () => {
    const servicePrivateKeyPem = await readFile(join(env.dataDir, 'service', 'private-key.pem'), 'utf8');
    const put = (status: string, reference: string) => {
      const payment = {
        method: 'CARD',
        status,
        accountStatementReference: reference,
        card: null,
        error: null,
      };
      const amounts = { tax_amount: 0, total_amount: 0, effective_amount: 0, items: [] };
      const body = JSON.stringify({ id: 'dup-1', status, order_id: 'DUP-1', payment, ...amounts });
      return request(`${env.merchantUrl}/api/notification`, 'PUT', body, {
        'x-svc-signature': signBody(body, servicePrivateKeyPem),
      });
    };
    // Two declined cards end two attempts of one order with one status: two notifications, not a repeat.
    assert.equal((await put('FAILED', 'SVC-AAAA')).status, 200);
    assert.equal((await put('FAILED', 'SVC-BBBB')).status, 200);
    assert.equal((await put('CANCELLED', 'SVC-CCCC')).status, 200);
    assert.equal(
      (await put('CANCELLED', 'SVC-CCCC')).status,
      200,
      'a repeat is still answered 200, or the gateway retries',
    );
    const kept = env.merchant.notifications.filter((n) => n.notification.id === 'dup-1');
    assert.deepEqual(
      kept.map((n) => [n.notification.status, n.deliveries]),
      [
        ['FAILED', 1],
        ['FAILED', 1],
        ['CANCELLED', 2],
      ],
    );
  });

  test('takes a PAID notification only for the order it signed: a re-split order, paid for less, is refused', async () => {
    const signedOrder: OrderInput = {
      widgetId: DEMO_WIDGET_IDS.checkout,
      orderId: 'RESPLIT-1',
      items: [{ amount: '12.50', label: 'Tea', count: 2 }],
    };
    const signature = signed(signedOrder);
    // The page's script moves the count into the label: one of these signs the very text the shop signed.
    const forged = ['Tea2', 'Tea2.000']
      .map((label): OrderInput => ({ ...signedOrder, items: [{ amount: '12.50', label }] }))
      .find((order) => orderSignatureInput(order) === orderSignatureInput(signedOrder));
    assert.ok(forged);
    const created = await createOrder(forged, signature);
    assert.equal(created.status, 201, 'the gateway takes it: the signature is the same');
    const refusal = waitForRefusal('RESPLIT-1');
    const paid = await pay(String(created.body['id']));
    assert.equal(paid.body['state'], 'PAID', paid.text);
    const refused = await refusal;
    assert.deepEqual(
      { status: refused.status, code: refused.code, field: refused.field },
      { status: 200, code: 'total_mismatch', field: 'total_amount' },
    );
    assert.match(refused.message, /12\.50 was paid, but the signed order comes to 25\.00/);
    assert.ok(
      !env.merchant.notifications.some((n) => n.notification.order_id === 'RESPLIT-1'),
      'not kept as paid',
    );

    // A signed PAID notification for an order the shop never signed is not taken either.
    const servicePrivateKeyPem = await readFile(join(env.dataDir, 'service', 'private-key.pem'), 'utf8');
    const body = JSON.stringify({
      id: 'unknown-1',
      status: 'PAID',
      order_id: 'NEVER-SIGNED',
      tax_amount: 0.17,
      total_amount: 1,
      effective_amount: 1,
      items: [],
    });
    const unknown = waitForRefusal('NEVER-SIGNED');
    const answer = await request(`${env.merchantUrl}/api/notification`, 'PUT', body, {
      'x-svc-signature': signBody(body, servicePrivateKeyPem),
    });
    // Answered 503, so that the gateway delivers it again: the shop's records may be behind.
    assert.equal(answer.status, 503);
    assert.equal((await unknown).code, 'unknown_order');
  });

  test('prices dynamic shipping by city and pickup point through the sandbox', async () => {
    const order: OrderInput = {
      widgetId: DEMO_WIDGET_IDS.fullCheckout,
      orderId: 'SHIP-1',
      items: [{ amount: '30.00', label: 'Lamp' }],
      shippingOptions: [
        { id: 'courier', label: 'Courier' },
        { id: 'pickup-point', label: 'Pickup point', type: 'PICKUP_POINT' },
        { id: 'latvian-post', amount: '2.80', label: 'Latvian Post' },
      ],
    };
    const created = await createOrder(order, signed(order));
    assert.equal(created.status, 201, created.text);
    const id = String(created.body['id']);
    const quote = (body: Record<string, unknown>) =>
      request(`${env.sandbox.url}/widget-api/v1/orders/${id}/shipping-quotes`, 'POST', body);
    const address = (city: string) => ({ city, address: 'Brivibas iela 1', postalCode: 'LV-1010' });

    assert.deepEqual((await quote({ optionId: 'courier', address: address('Rīga') })).body, {
      amount: '3.50',
      currency: 'EUR',
      taxRate: '0.21',
    });
    assert.equal((await quote({ optionId: 'courier', address: address('Valmiera') })).body['amount'], '7.90');
    const unserved = await quote({ optionId: 'courier', address: address('Nowhere') });
    assert.equal(unserved.status, 502, 'the merchant refused: the sandbox reports it');
    // A pickup point is priced by the point, with no street address.
    assert.equal(
      (await quote({ optionId: 'pickup-point', pickupPointId: 'riga-old-town' })).body['amount'],
      '2.49',
    );

    const paid = await pay(id, {
      customer: { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com', phone: '+37120000000' },
      shipping: { optionId: 'pickup-point', pickupPointId: 'riga-old-town' },
    });
    assert.equal(paid.body['state'], 'PAID', paid.text);
    const entry = await env.merchant.waitForNotification((n) => n.notification.id === id);
    assert.equal(entry.notification.total_amount, 32.49);
    assert.equal(entry.notification.shipping?.type, 'PICKUP_POINT');
    assert.deepEqual(entry.notification.shipping?.method, { id: 'pickup-point', name: 'Pickup point' });
    assert.equal(entry.notification.shipping?.pickup_point?.external_id, 'riga-old-town');
    // The demo's points have addresses: the point's is the delivery address.
    assert.equal(entry.notification.shipping?.address?.street, 'Audēju iela 16');
  });

  test('prices an option with only an id on the plain widget, which asks for no address', async () => {
    const order: OrderInput = {
      widgetId: DEMO_WIDGET_IDS.checkout,
      orderId: 'SHIP-PLAIN-1',
      items: [{ amount: '30.00', label: 'Lamp' }],
      shippingOptions: [{ id: 'courier', label: 'Courier' }],
    };
    const created = await createOrder(order, signed(order));
    assert.equal(created.status, 201, created.text);
    const id = String(created.body['id']);
    // The gateway asks the shop with empty address members; the demo prices that at its any-other-city price.
    const quoted = await request(`${env.sandbox.url}/widget-api/v1/orders/${id}/shipping-quotes`, 'POST', {
      optionId: 'courier',
    });
    assert.deepEqual(quoted.body, { amount: '7.90', currency: 'EUR', taxRate: '0.21' });
    const paid = await request(`${env.sandbox.url}/widget-api/v1/orders/${id}/payments`, 'POST', {
      idempotencyKey: 'ship-plain-1',
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Anna Berzina' },
      shipping: { optionId: 'courier' },
    });
    assert.equal(paid.body['state'], 'PAID', paid.text);
    const entry = await env.merchant.waitForNotification((n) => n.notification.id === id);
    assert.equal(entry.notification.total_amount, 37.9);
  });

  test('refuses a shipping cost request that the gateway did not sign', async () => {
    const answer = await request(`${env.merchantUrl}/api/shipping-cost`, 'POST', {
      order_id: 'x',
      order_items: [],
      shipping_method_id: 'courier',
      address: { city: 'Riga', address: 'a', postal_code: 'b' },
    });
    assert.equal(answer.status, 401);
  });

  test('approves orders of the callback-validation widget, except REJECT- order ids', async () => {
    const approved = await createOrder({
      widgetId: DEMO_WIDGET_IDS.callbackValidation,
      orderId: 'CB-1',
      items: [{ amount: '5.00', label: 'Pen' }],
    });
    assert.equal(approved.status, 201, approved.text);
    const rejected = await createOrder({
      widgetId: DEMO_WIDGET_IDS.callbackValidation,
      orderId: 'REJECT-1',
      items: [{ amount: '5.00', label: 'Pen' }],
    });
    assert.equal(rejected.status, 403);
  });

  test("passes the gateway console's connection test and serves the terms page", async () => {
    const connection = await request(
      `${env.sandbox.url}/sandbox/merchants/${DEMO_MERCHANT_ID}/connection-test`,
      'POST',
      undefined,
      { 'x-svc-api-key': DEMO_API_KEY },
    );
    assert.equal(connection.body['ok'], true, connection.text);

    const terms = await request(`${env.merchantUrl}/api/terms`, 'GET');
    assert.equal(terms.status, 200);
    assert.match(terms.headers.get('content-type') ?? '', /text\/html/);
    assert.match(terms.text, /<h1>Terms of sale<\/h1>/);
  });

  test('streams notifications as server-sent events', async () => {
    const controller = new AbortController();
    const response = await fetch(`${env.merchantUrl}/api/notifications/events`, {
      signal: controller.signal,
    });
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    try {
      await readUntil(/event: snapshot\n/);
      const order: OrderInput = {
        widgetId: DEMO_WIDGET_IDS.checkout,
        orderId: 'SSE-1',
        items: [{ amount: '1.00', label: 'Sticker' }],
      };
      const created = await createOrder(order, signed(order));
      await pay(String(created.body['id']));
      await readUntil(/event: notification\ndata: .*"SSE-1"/);
    } finally {
      controller.abort();
    }
  });

  test('leaves other paths to the host server', async () => {
    assert.equal((await request(`${env.merchantUrl}/index.html`, 'GET')).status, 404);
  });
});
