// The cardholder's name is not required by the legacy document, and a widget may not ask for it
// (`cardholder-name="hidden"` or `"optional"` on the element): the gateway takes a payment whose card has
// no holder, or an empty one, as the frame sends it then.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OrderInput } from '../../../src/core/index.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder } from '../../../src/server/index.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';

let counter = 0;

describe('a card payment without the holder’s name', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startSandbox({
      port: 0,
      config: parseConfig(testConfigFile(merchant.url)),
      dataDir: await tempDir(),
    });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  async function order(): Promise<string> {
    const input: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: `H-${++counter}`,
      items: [{ amount: '9.90', currency: 'EUR', label: 'Tea' }],
    };
    const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body['id'];
  }

  for (const [name, card] of [
    ['left out', { number: '4111111111111111', expiry: '12/34', cvc: '123' }],
    ['empty', { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: '' }],
  ] as const) {
    test(`is paid with the holder ${name}`, async () => {
      const id = await order();
      const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
        idempotencyKey: `h-${++counter}`,
        card,
      });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    });
  }
});
