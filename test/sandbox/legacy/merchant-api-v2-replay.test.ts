/**
 * A signed merchant API v2 request is good for one use: the same bytes sent again within the Date window
 * (an attacker who saw them, or a proxy that repeats) are refused, so a refund cannot be replayed.
 * The requests are signed by hand with node:crypto, not with the toolkit's client.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { handSignedV2Request, paidOrder, withLegacySandbox } from '../support.js';

describe('sandbox merchant API v2 replays', () => {
  const legacy = withLegacySandbox();
  let sandbox: Sandbox;
  let orderId: string;

  before(async () => {
    ({ sandbox } = legacy);
    orderId = await paidOrder(sandbox, 'REPLAY-1');
  });

  const refund = (note: string, amount = '1.00') =>
    JSON.stringify({ refundRequest: { amount, reason: 'OTHER_REFUND', note } });
  const refundPath = () => `/v2/merchants/m1/orders/${orderId}/refunds`;
  const errorCode = async (response: Response) =>
    ((await response.json()) as { error: { code: string } }).error.code;

  test('the same signed refund sent three times refunds once; the repeats get 401 request_replayed', async () => {
    const send = handSignedV2Request(sandbox, {
      method: 'POST',
      path: refundPath(),
      body: refund('once', '5.00'),
    });
    const answers = [await send(), await send(), await send()];
    assert.equal(answers[0]!.status, 201);
    for (const repeat of answers.slice(1)) {
      assert.equal(repeat.status, 401);
      assert.equal(await errorCode(repeat), 'request_replayed');
    }
    const read = await handSignedV2Request(sandbox, {
      method: 'GET',
      path: `/v2/merchants/m1/orders/${orderId}`,
    })();
    const order = (await read.json()) as { refunded_amount: number; status: string };
    assert.equal(order.refunded_amount, 5);
    assert.equal(order.status, 'PARTIALLY_REFUNDED');
  });

  test('concurrent copies of one signed refund: one succeeds', async () => {
    const send = handSignedV2Request(sandbox, { method: 'POST', path: refundPath(), body: refund('race') });
    const answers = await Promise.all(Array.from({ length: 5 }, () => send()));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 401, 401, 401, 401]);
  });

  test('a signature re-encoded in other Base64 letters is still the same request', async () => {
    // RSA-2048 signatures are 256 bytes: Base64 ends in "==" and the last letter carries 4 unused bits.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const respell = (signature: string) => {
      const variant = `${signature.slice(0, -3)}${alphabet[alphabet.indexOf(signature.at(-3)!) ^ 1]}==`;
      assert.notEqual(variant, signature);
      assert.deepEqual(Buffer.from(variant, 'base64'), Buffer.from(signature, 'base64'));
      return variant;
    };
    // One Date for both: RSA PKCS#1 v1.5 signatures are deterministic, so both carry the same bytes.
    const request = {
      method: 'POST',
      path: refundPath(),
      body: refund('b64'),
      date: new Date().toUTCString(),
    } as const;
    assert.equal((await handSignedV2Request(sandbox, request)()).status, 201);
    const again = await handSignedV2Request(sandbox, { ...request, respell })();
    assert.equal(again.status, 401);
    assert.equal(await errorCode(again), 'request_replayed');
  });
});
