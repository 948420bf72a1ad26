// Shipping options' `label` and `type` (our unsigned extension of the order JSON) and pickup points, over the
// widget API as the frame uses it: intake, the order view, shipping quotes, payments and the notification.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { OrderInput } from '../../../src/core/index.js';
import type { PurchaseNotification, ShippingCostRequest } from '../../../src/core/legacy-callbacks.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder, verifySignature } from '../../../src/server/index.js';
import {
  call,
  type FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  WIDGETS,
  withLegacySandbox,
} from '../support.js';

const card = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Test Person' };
const customer = { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com' };
const address = { address: 'Brivibas iela 1', city: 'Riga', postalCode: 'LV-1010' };
let counter = 0;

describe('shipping option labels and types, and pickup points', () => {
  const legacy = withLegacySandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    ({ merchant, sandbox } = legacy);
    // Points by id, the courier by city; a reduced rate for the Old Town shop, as a merchant may quote one.
    merchant.respond('/shipping-cost', (request) => {
      const body = JSON.parse(request.body) as ShippingCostRequest;
      const point = body.pickup_point?.external_id;
      const answer =
        point === 'p2'
          ? { amount: '6.90', taxRate: '0.05' }
          : point === 'p1'
            ? { amount: '1.99' }
            : { amount: '6.90' };
      return { status: 200, body: JSON.stringify(answer) };
    });
  });

  function fullOrder(overrides: Partial<OrderInput> = {}): OrderInput {
    return {
      widgetId: WIDGETS.full,
      orderId: `S-${++counter}`,
      items: [{ amount: '30.00', label: 'Tea set', orderItemId: 'TS' }],
      shippingOptions: [
        { id: 'courier', label: 'Courier' },
        { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT' },
        { id: 'express', amount: '6.90' },
      ],
      ...overrides,
    };
  }

  async function create(input: OrderInput, signed: OrderInput = input) {
    return call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(signed, merchantKeys.main.privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });
  }

  async function created(input: OrderInput = fullOrder()): Promise<string> {
    const answer = await create(input);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return `/widget-api/v1/orders/${answer.body['id']}`;
  }

  function pay(base: string, shipping: Record<string, unknown>) {
    return call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: `pay-${++counter}`,
      card,
      customer,
      shipping,
    });
  }

  async function notificationFor(id: string): Promise<PurchaseNotification> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = merchant
        .requests('/notify')
        .find((request) => (JSON.parse(request.body) as PurchaseNotification).id === id);
      if (found) {
        assert.ok(
          verifySignature(
            found.body,
            found.headers['x-svc-signature'] as string,
            sandbox.serviceCertificatePem,
          ),
        );
        return JSON.parse(found.body) as PurchaseNotification;
      }
      if (Date.now() > deadline) throw new Error(`no notification for ${id}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  test('labels and types are not signed: an order signed without them is taken with them', async () => {
    const plain = fullOrder({
      shippingOptions: [{ id: 'courier' }, { id: 'locker' }, { id: 'express', amount: '6.90' }],
    });
    const answer = await create(fullOrder({ orderId: plain.orderId }), plain);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });

  test('intake refuses an unknown type, and a pickup-point option where no point can be chosen', async () => {
    // Signed without the type, which nobody could sign: the order is read before its signature is checked.
    const plain = fullOrder({ shippingOptions: [{ id: 'courier' }, { id: 'locker' }] });
    const unknown = await create(
      { ...plain, shippingOptions: [{ id: 'courier' }, { id: 'locker', type: 'LOCKER' as 'ADDRESS' }] },
      plain,
    );
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body['error'].field, 'order.shippingOptions[1].type');
    assert.match(
      unknown.body['error'].message,
      /shippingOptions\[1\]\.type: must be ADDRESS or PICKUP_POINT/,
    );

    const plainWidget = await create(
      fullOrder({
        widgetId: WIDGETS.checkout,
        shippingOptions: [
          { id: 'post', amount: '2.80' },
          { id: 'locker', amount: '1.99', type: 'PICKUP_POINT' },
        ],
      }),
    );
    assert.equal(plainWidget.status, 400);
    assert.equal(plainWidget.body['error'].field, 'order.shippingOptions[1].type');
    assert.match(plainWidget.body['error'].message, /offers no pickup points/);
  });

  test("the order view gives each option its label (else the id), type and line's tax rate", async () => {
    const base = await created(
      fullOrder({
        shippingOptions: [
          { id: 'courier', label: 'Courier' },
          { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT' },
          { id: 'express', amount: '6.90' },
          { id: 'reduced', amount: '3.00', taxRate: '0.05', type: 'ADDRESS' },
        ],
      }),
    );
    const { body } = await call(sandbox, 'GET', base);
    assert.deepEqual(body['shippingOptions'], [
      { id: 'courier', label: 'Courier', type: 'ADDRESS', amount: null, taxRate: '21' },
      { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT', amount: null, taxRate: '21' },
      { id: 'express', label: 'express', type: 'ADDRESS', amount: '6.90', taxRate: '21' },
      { id: 'reduced', label: 'reduced', type: 'ADDRESS', amount: '3.00', taxRate: '0.05' },
    ]);
  });

  test('a quote asks for what the option delivers to, and refuses the rest naming the field', async () => {
    const base = await created();
    const quote = (body: Record<string, unknown>) => call(sandbox, 'POST', `${base}/shipping-quotes`, body);
    const refusals = [
      [{ optionId: 'courier', address, pickupPointId: 'p1' }, 'pickup_point_not_allowed', 'pickupPointId'],
      [{ optionId: 'courier' }, 'address_required', 'address'],
      [{ optionId: 'locker' }, 'pickup_point_required', 'pickupPointId'],
      [{ optionId: 'locker', address }, 'pickup_point_required', 'pickupPointId'],
      [{ optionId: 'locker', pickupPointId: 'p1', address }, 'address_not_allowed', 'address'],
      [{ optionId: 'locker', pickupPointId: 'nope' }, 'unknown_pickup_point', 'pickupPointId'],
    ] as const;
    const before = merchant.requests('/shipping-cost').length;
    for (const [body, code, field] of refusals) {
      const answer = await quote(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.deepEqual([answer.body['error'].code, answer.body['error'].field], [code, field]);
    }
    assert.equal(merchant.requests('/shipping-cost').length, before, 'the merchant was not asked');

    // A point with an address in the config: the request carries it, and the merchant's rate comes back.
    const p2 = await quote({ optionId: 'locker', pickupPointId: 'p2' });
    assert.deepEqual(p2.body, { amount: '6.90', currency: 'EUR', taxRate: '0.05' });
    const sent = JSON.parse(merchant.requests('/shipping-cost').at(-1)!.body) as ShippingCostRequest;
    assert.deepEqual(sent.address, { address: 'Audeju iela 16', city: 'Riga', postal_code: 'LV-1050' });
    assert.deepEqual(sent.pickup_point, {
      external_id: 'p2',
      name: 'Old Town shop',
      comments: null,
      service_hours: null,
    });
    const courier = await quote({ optionId: 'courier', address });
    assert.deepEqual(courier.body, { amount: '6.90', currency: 'EUR', taxRate: '21' });
    const { body: view } = await call(sandbox, 'GET', base);
    assert.deepEqual(
      view['shippingOptions'].map((option: { amount: string; taxRate: string }) => [
        option.amount,
        option.taxRate,
      ]),
      [
        ['6.90', '21'],
        ['6.90', '0.05'],
        ['6.90', '21'],
      ],
    );
  });

  test('a payment refuses a point with an address option, and a pickup option without a point', async () => {
    const base = await created();
    await call(sandbox, 'POST', `${base}/shipping-quotes`, { optionId: 'courier', address });
    const withPoint = await pay(base, { optionId: 'courier', address, pickupPointId: 'p1' });
    assert.equal(withPoint.status, 400);
    assert.deepEqual(
      [withPoint.body['error'].code, withPoint.body['error'].field],
      ['pickup_point_not_allowed', 'shipping.pickupPointId'],
    );
    const withoutPoint = await pay(base, { optionId: 'locker' });
    assert.equal(withoutPoint.status, 400);
    assert.deepEqual(
      [withoutPoint.body['error'].code, withoutPoint.body['error'].field],
      ['pickup_point_required', 'shipping.pickupPointId'],
    );
    assert.match(withoutPoint.body['error'].message, /delivers to a pickup point/);
  });

  test("a point's price is the one quoted for that point", async () => {
    const base = await created();
    await call(sandbox, 'POST', `${base}/shipping-quotes`, { optionId: 'locker', pickupPointId: 'p1' });
    const other = await pay(base, { optionId: 'locker', pickupPointId: 'p2' });
    assert.equal(other.status, 409);
    assert.equal(other.body['error'].code, 'shipping_not_priced');
    assert.match(other.body['error'].message, /pickup point p2/);
  });

  test('paid at a pickup point without a street: the notification names the option, the point and its address', async () => {
    const base = await created();
    await call(sandbox, 'POST', `${base}/shipping-quotes`, { optionId: 'locker', pickupPointId: 'p2' });
    const paid = await pay(base, { optionId: 'locker', pickupPointId: 'p2', contactPhone: '+37120000000' });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    const notification = await notificationFor(paid.body['order'].id);
    const { date, ...shipping } = notification.shipping;
    assert.match(String(date), /^\d{4}-\d\d-\d\d$/, 'the payment day');
    assert.deepEqual(shipping, {
      type: 'PICKUP_POINT',
      address: {
        country: 'LV',
        city: 'Riga',
        street: 'Audeju iela 16',
        latitude: null,
        longitude: null,
        postal_code: 'LV-1050',
      },
      method: { id: 'locker', name: 'Pickup point' },
      contact_phone: '+37120000000',
      pickup_point: { name: 'Old Town shop', comments: null, external_id: 'p2', service_hours: null },
    });
    // 30.00 at 21% holds 5.21; the point's 6.90 at the quoted 5% holds 0.33.
    assert.equal(notification.tax_amount, 5.54);
    assert.deepEqual(
      notification.items.map((item) => [item.type, item.label, item.tax_amount, item.tax_rate]),
      [
        ['UNKNOWN', 'Tea set', 5.21, 0.21],
        ['SHIPPING', 'Pickup point', 0.33, 0.05],
      ],
    );
    assert.equal(paid.body['order'].tax, notification.tax_amount.toFixed(2));
  });

  test("an address option's label names the method; its type is ADDRESS with the customer's address", async () => {
    const base = await created();
    await call(sandbox, 'POST', `${base}/shipping-quotes`, { optionId: 'courier', address });
    const paid = await pay(base, { optionId: 'courier', address });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    const notification = await notificationFor(paid.body['order'].id);
    assert.equal(notification.shipping?.type, 'ADDRESS');
    assert.deepEqual(notification.shipping?.method, { id: 'courier', name: 'Courier' });
    // No point chosen: an object of nulls, which the official client's getPickupPoint() reads.
    assert.deepEqual(notification.shipping.pickup_point, {
      name: null,
      external_id: null,
      comments: null,
      service_hours: null,
    });
    assert.equal(notification.shipping?.address?.street, 'Brivibas iela 1');
    // 5.21 for the tea set and 1.20 for the courier's 6.90 at the default 21%.
    assert.equal(notification.tax_amount, 6.41);

    // Without a label, the id names the method.
    const express = await created();
    const paidExpress = await pay(express, { optionId: 'express', address });
    const byId = await notificationFor(paidExpress.body['order'].id);
    assert.deepEqual(byId.shipping?.method, { id: 'express', name: 'express' });
  });

  test('a widget that is no full checkout prices an option with only an id by the shipping cost URL, with no address', async () => {
    const base = await created({
      widgetId: WIDGETS.checkout,
      orderId: `S-${++counter}`,
      items: [{ amount: '30.00', label: 'Tea set', orderItemId: 'TS', count: 2 }],
      shippingOptions: [
        { id: 'courier', label: 'Courier' },
        { id: 'express', amount: '9.90' },
      ],
    });
    // Unpriced until quoted: paying now is refused, and the merchant is not asked.
    const early = await pay(base, { optionId: 'courier' });
    assert.equal(early.status, 409, JSON.stringify(early.body));
    assert.equal(early.body['error'].code, 'shipping_not_priced');

    const before = merchant.requests('/shipping-cost').length;
    const quoted = await call(sandbox, 'POST', `${base}/shipping-quotes`, { optionId: 'courier' });
    assert.deepEqual(quoted.body, { amount: '6.90', currency: 'EUR', taxRate: '21' });
    const asked = merchant.requests('/shipping-cost').slice(before);
    assert.equal(asked.length, 1);
    // Signed by the gateway like every callback; what is known: the order, its items and the method, and the
    // address as the document says it is always present, with empty members (the form asks for none).
    assert.ok(
      verifySignature(
        asked[0]!.body,
        asked[0]!.headers['x-svc-signature'] as string,
        sandbox.serviceCertificatePem,
      ),
    );
    const sent = JSON.parse(asked[0]!.body) as ShippingCostRequest;
    assert.deepEqual(sent, {
      order_id: base.split('/').at(-1),
      order_items: [{ reference: 'TS', quantity: 2 }],
      shipping_method_id: 'courier',
      address: { city: '', address: '', postal_code: '' },
    });

    const paid = await pay(base, { optionId: 'courier' });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    assert.equal(paid.body['order'].total, '66.90');
    const notification = await notificationFor(paid.body['order'].id);
    assert.deepEqual(notification.shipping?.method, { id: 'courier', name: 'Courier' });
    assert.equal(notification.total_amount, 66.9);
  });
});
