/**
 * Full checkout of legacy orders over HTTP: shipping priced by the merchant, the customer and pickup point in
 * the notification, and a failed order priced again for other delivery and paid.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { verifySignature } from '../../../src/server/index.js';
import { call, legacyCard as card, type FakeMerchant, WIDGETS, withLegacySandbox } from '../support.js';

describe('sandbox legacy widget API over HTTP: full checkout', () => {
  const legacy = withLegacySandbox();
  const { key, order, create, notificationFor, pay, notificationsOf } = legacy;
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => {
    ({ merchant, sandbox } = legacy);
  });

  test('full checkout: shipping priced by the merchant, customer and pickup point in the notification', async () => {
    merchant.respond('/shipping-cost', (request) => {
      assert.ok(
        verifySignature(
          request.body,
          request.headers['x-svc-signature'] as string,
          sandbox.serviceCertificatePem,
        ),
      );
      const body = JSON.parse(request.body) as { pickup_point?: unknown; order_items: unknown[] };
      return { status: 200, body: JSON.stringify({ amount: body.pickup_point ? '2.49' : '4.99' }) };
    });
    const input = order({
      widgetId: WIDGETS.full,
      items: [{ amount: '10.00', label: 'Book', orderItemId: 'B1' }],
      shippingOptions: [
        { id: 'courier' },
        { id: 'locker', label: 'Parcel locker', type: 'PICKUP_POINT' },
        { id: 'fixed', amount: '1.00' },
      ],
    });
    const { body: created } = await create(input);
    const base = `/widget-api/v1/orders/${created['id']}`;
    const notPriced = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      customer: { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com' },
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(notPriced.body['error'].code, 'shipping_not_priced');
    // A pickup point is priced by the point alone: no street address.
    const quote = await call(sandbox, 'POST', `${base}/shipping-quotes`, {
      optionId: 'locker',
      pickupPointId: 'p1',
    });
    assert.deepEqual(quote.body, { amount: '2.49', currency: 'EUR', taxRate: '21' });
    const sent = JSON.parse(merchant.requests('/shipping-cost').at(-1)!.body);
    assert.deepEqual(sent.order_items, [{ reference: 'B1', quantity: 1 }]);
    assert.equal(sent.shipping_method_id, 'locker');
    // The point has no address in the config: the request's address is there, with empty strings.
    assert.deepEqual(sent.address, { city: '', address: '', postal_code: '' });
    assert.equal(sent.pickup_point.external_id, 'p1');

    const missingCustomer = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(missingCustomer.body['error'].code, 'customer_required');
    const paid = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      customer: { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com', phone: '+37120000000' },
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    assert.equal(paid.body['order'].total, '12.49');
    const notification = await notificationFor(created['id']);
    assert.equal(notification.total_amount, 12.49);
    assert.equal(notification.items.at(-1)?.type, 'SHIPPING');
    assert.equal(notification.shipping?.type, 'PICKUP_POINT');
    assert.deepEqual(notification.shipping?.method, { id: 'locker', name: 'Parcel locker' });
    assert.equal(notification.shipping?.pickup_point?.external_id, 'p1');
    assert.equal(notification.shipping?.pickup_point?.name, 'Locker 1');
    assert.equal(notification.customer.email, 'anna@example.com');
  });

  test('a failed full-checkout order can still be priced for other delivery and paid', async () => {
    merchant.respond('/shipping-cost', () => ({ status: 200, body: JSON.stringify({ amount: '4.99' }) }));
    const { body: created } = await create(
      order({
        widgetId: WIDGETS.full,
        items: [{ amount: '10.00', label: 'Book' }],
        shippingOptions: [{ id: 'courier' }, { id: 'fixed', amount: '1.00' }],
      }),
    );
    const id = created['id'] as string;
    const customer = { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com' };
    const failed = await pay(id, key(), '4000000000000002', { customer, shipping: { optionId: 'fixed' } });
    assert.equal(failed.body['state'], 'FAILED');
    const address = { city: 'Riga', address: 'Brivibas 1', postalCode: 'LV-1010' };
    const quote = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/shipping-quotes`, {
      optionId: 'courier',
      address,
    });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    const paid = await pay(id, key(), '4111111111111111', {
      customer,
      shipping: { optionId: 'courier', address },
    });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    const [first, second] = await notificationsOf(id, 2);
    assert.deepEqual(
      [first!.status, first!.total_amount, first!.shipping?.method.id],
      ['FAILED', 11, 'fixed'],
    );
    assert.deepEqual(
      [second!.status, second!.total_amount, second!.shipping?.method.id],
      ['PAID', 14.99, 'courier'],
    );
  });
});
