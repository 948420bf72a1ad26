/**
 * What a hostile tester found in the legacy order intake and order book (src/sandbox/legacy/): a merchant order
 * id naming several paid orders (merchant API v2 read and refunded the oldest), an empty certificate name
 * (looked up as a name, though the signature input leaves it out), and a paymentScheme constraint that none of
 * the widget's schemes meets (taken, then refused only after the customer typed a card).
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder } from '../../../src/server/index.js';
import { call, merchantKeys, WIDGETS, withLegacySandbox } from '../support.js';
import { rawExchange, signedHead } from './official-client.js';

describe('the legacy order intake and book under a hostile tester', () => {
  const legacy = withLegacySandbox();
  let sandbox: Sandbox;

  before(() => {
    ({ sandbox } = legacy);
  });

  const api = (method: 'GET' | 'POST', path: string, body?: string) =>
    rawExchange(
      sandbox.port,
      signedHead(sandbox.port, {
        method,
        path,
        ...(body !== undefined && { body }),
        keyId: 'main',
        privateKeyPem: merchantKeys.main.privateKeyPem,
      }),
      body,
    );
  const paid = async (amount: string) => {
    const order = {
      widgetId: WIDGETS.checkout,
      orderId: 'HOSTILE-TWICE',
      items: [{ amount, label: 'Lamp' }],
    };
    const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order,
      signature: signOrder(order, merchantKeys.main.privateKeyPem),
    });
    const id: string = created.body['id'];
    const payment = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
      idempotencyKey: `pay-${id}`,
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123' },
    });
    assert.equal(payment.body['state'], 'PAID');
    return id;
  };

  test('a merchant order id that names two paid orders is refused as ambiguous, not read as the oldest', async () => {
    // The merchant signed another cart under a paid order id (its approval): both carts are paid.
    const first = await paid('10.00');
    const second = await paid('99.00');
    assert.notEqual(first, second);
    const read = await api('GET', '/v2/merchants/m1/orders/HOSTILE-TWICE');
    assert.equal(read.status, 409, JSON.stringify(read.body).slice(0, 200));
    const error = read.body['error'] as { code: string; message: string };
    assert.equal(error.code, 'ambiguous_order_id');
    assert.ok(error.message.includes(first) && error.message.includes(second), error.message);
    const refund = await api(
      'POST',
      '/v2/merchants/m1/orders/HOSTILE-TWICE/refunds',
      '{"amount":5,"reason":"OTHER_REFUND"}',
    );
    assert.equal(refund.status, 409, JSON.stringify(refund.body).slice(0, 200));
    // By the gateway id each is still found, and nothing was refunded.
    for (const id of [first, second]) {
      const one = await api('GET', `/v2/merchants/m1/orders/${id}`);
      assert.equal(one.body['refunded_amount'], 0);
    }
  });

  test('an empty certificateName is no certificate name, as signOrder leaves it out', async () => {
    const order = {
      widgetId: WIDGETS.checkout,
      certificateName: '',
      items: [{ amount: '1.00', label: 'X' }],
    };
    const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order,
      signature: signOrder(order, merchantKeys.main.privateKeyPem),
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
  });

  test('an order whose paymentScheme constraint no card of the widget can meet is refused at intake', async () => {
    for (const paymentScheme of ['AMEX', 'BOGUS']) {
      const order = {
        widgetId: WIDGETS.checkout,
        items: [{ amount: '1.00', label: 'X' }],
        constraints: { paymentScheme },
      };
      const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', {
        order,
        signature: signOrder(order, merchantKeys.main.privateKeyPem),
      });
      assert.equal(answer.status, 400, `${paymentScheme}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body['error'].field, 'order.constraints.paymentScheme');
      assert.match(answer.body['error'].message, /VISA, MASTERCARD/);
    }
    // A constraint within the widget's schemes, in any letter case, is an order as before.
    const order = {
      widgetId: WIDGETS.checkout,
      items: [{ amount: '1.00', label: 'X' }],
      constraints: { paymentScheme: 'visa' },
    };
    const taken = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order,
      signature: signOrder(order, merchantKeys.main.privateKeyPem),
    });
    assert.equal(taken.status, 201);
  });
});
