/**
 * A signed merchant API v2 request is good for one use: the same bytes sent again within the Date window
 * (an attacker who saw them, or a proxy that repeats) are refused, so a refund cannot be replayed.
 * The requests are signed by hand with node:crypto, not with the toolkit's client.
 */
import assert from 'node:assert/strict';
import { createHash, createSign } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { signOrder } from '../../src/server/index.js';
import { API_KEY, call, FakeMerchant, merchantKeys, startTestSandbox, WIDGETS } from './support.js';

describe('sandbox merchant API v2 replays', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let orderId: string;

  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startTestSandbox(merchant);
    const input = {
      widgetId: WIDGETS.checkout,
      orderId: 'REPLAY-1',
      items: [{ amount: '20.00', label: 'Lamp' }],
    };
    const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
      certificateName: 'main',
    });
    orderId = created.body['id'];
    const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${orderId}/payments`, {
      idempotencyKey: 'replay-1',
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' },
    });
    assert.equal(paid.body['state'], 'PAID');
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  /** One signed request, as bytes and headers that can be sent again unchanged. */
  function signedRequest(method: 'GET' | 'POST', path: string, body = '') {
    const date = new Date().toUTCString();
    const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
    const names = body ? '(request-target) date digest content-type' : '(request-target) date';
    const signingString = body
      ? `(request-target): ${method.toLowerCase()} ${path}\ndate: ${date}\ndigest: ${digest}\ncontent-type: application/json`
      : `(request-target): ${method.toLowerCase()} ${path}\ndate: ${date}`;
    const signature = createSign('RSA-SHA256')
      .update(signingString)
      .sign(merchantKeys.main.privateKeyPem, 'base64');
    const headers: Record<string, string> = {
      date,
      'x-svc-api-key': API_KEY,
      'x-svc-key-id': 'main',
      authorization: `Signature keyId="main",algorithm="rsa-sha256",headers="${names}",signature="${signature}"`,
      ...(body && { digest, 'content-type': 'application/json' }),
    };
    return () => fetch(`${sandbox.url}${path}`, { method, headers, ...(body && { body }) });
  }

  const errorCode = async (response: Response) =>
    ((await response.json()) as { error: { code: string } }).error.code;

  test('the same signed refund sent three times refunds once; the repeats get 401 request_replayed', async () => {
    const body = JSON.stringify({ refundRequest: { amount: '5.00', reason: 'OTHER_REFUND', note: 'once' } });
    const send = signedRequest('POST', `/v2/merchants/m1/orders/${orderId}/refunds`, body);
    const answers = [await send(), await send(), await send()];
    assert.equal(answers[0]!.status, 201);
    for (const repeat of answers.slice(1)) {
      assert.equal(repeat.status, 401);
      assert.equal(await errorCode(repeat), 'request_replayed');
    }
    const read = await signedRequest('GET', `/v2/merchants/m1/orders/${orderId}`)();
    const order = (await read.json()) as { refundedAmount: string; status: string };
    assert.equal(order.refundedAmount, '5.00');
    assert.equal(order.status, 'PARTIALLY_REFUNDED');
  });

  test('concurrent copies of one signed refund: one succeeds', async () => {
    const body = JSON.stringify({ refundRequest: { amount: '1.00', reason: 'OTHER_REFUND', note: 'race' } });
    const send = signedRequest('POST', `/v2/merchants/m1/orders/${orderId}/refunds`, body);
    const answers = await Promise.all(Array.from({ length: 5 }, () => send()));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 401, 401, 401, 401]);
  });

  test('a signature re-encoded in other Base64 letters is still the same request', async () => {
    const body = JSON.stringify({ refundRequest: { amount: '1.00', reason: 'OTHER_REFUND', note: 'b64' } });
    const path = `/v2/merchants/m1/orders/${orderId}/refunds`;
    const date = new Date().toUTCString();
    const digest = `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
    const signingString = `(request-target): post ${path}\ndate: ${date}\ndigest: ${digest}\ncontent-type: application/json`;
    const signature = createSign('RSA-SHA256')
      .update(signingString)
      .sign(merchantKeys.main.privateKeyPem, 'base64');
    // RSA-2048 signatures are 256 bytes: Base64 ends in "==" and the last letter carries 4 unused bits.
    const last = signature.at(-3)!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const variant = `${signature.slice(0, -3)}${alphabet[alphabet.indexOf(last) ^ 1]}==`;
    assert.deepEqual(Buffer.from(variant, 'base64'), Buffer.from(signature, 'base64'));
    const send = (value: string) =>
      fetch(`${sandbox.url}${path}`, {
        method: 'POST',
        headers: {
          date,
          digest,
          'content-type': 'application/json',
          'x-svc-api-key': API_KEY,
          'x-svc-key-id': 'main',
          authorization: `Signature keyId="main",algorithm="rsa-sha256",headers="(request-target) date digest content-type",signature="${value}"`,
        },
        body,
      });
    assert.equal((await send(signature)).status, 201);
    const again = await send(variant);
    assert.equal(again.status, 401);
    assert.equal(await errorCode(again), 'request_replayed');
  });
});
