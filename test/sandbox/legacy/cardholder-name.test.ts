// The cardholder's name is not required by the legacy document, and a widget may not ask for it
// (`cardholder-name="hidden"` or `"optional"` on the element): the gateway takes a payment whose card has
// no holder, or an empty one, as the frame sends it then.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, takenOrder, WIDGETS, withLegacySandbox } from '../support.js';

let counter = 0;

describe('a card payment without the holder’s name', () => {
  const legacy = withLegacySandbox();

  function order(): Promise<string> {
    return takenOrder(legacy.sandbox, {
      widgetId: WIDGETS.checkout,
      orderId: `H-${++counter}`,
      items: [{ amount: '9.90', currency: 'EUR', label: 'Tea' }],
    });
  }

  for (const [name, card] of [
    ['left out', { number: '4111111111111111', expiry: '12/34', cvc: '123' }],
    ['empty', { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: '' }],
  ] as const) {
    test(`is paid with the holder ${name}`, async () => {
      const id = await order();
      const paid = await call(legacy.sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
        idempotencyKey: `h-${++counter}`,
        card,
      });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    });
  }
});
