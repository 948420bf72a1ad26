import assert from 'node:assert/strict';
import { test } from 'node:test';

test('the browser entry imports in Node (server-side rendering) without throwing', async () => {
  const entry = await import('../../src/index.js');
  assert.equal(typeof entry.SvcCheckout, 'function');
  assert.equal(entry.PaymentCompletedEvent.eventName, 'paymentCompleted');
});

test('the script-tag entry and the define module import in Node without throwing or guessing a gateway', async () => {
  await import('../../src/element/define.js');
  await import('../../src/element/script-tag.js');
  const { SvcCheckout } = await import('../../src/element/svc-checkout.js');
  assert.equal(typeof SvcCheckout, 'function');
  // In Node the module's URL is a file: URL, which is no gateway.
  assert.equal(SvcCheckout.defaultGateway, undefined);
});
