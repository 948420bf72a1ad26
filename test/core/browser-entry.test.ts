import assert from 'node:assert/strict';
import { test } from 'node:test';

test('the browser entry imports in Node (server-side rendering) without throwing', async () => {
  const entry = await import('../../src/index.js');
  assert.equal(typeof entry.parseOrder, 'function');
  assert.equal(typeof entry.orderSignatureInput, 'function');
  assert.equal(entry.luhnValid('4111111111111111'), true);
});
