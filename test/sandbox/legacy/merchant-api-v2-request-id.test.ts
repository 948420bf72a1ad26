/**
 * Our refund request id (`X-Svc-Request-Id`) against the real sandbox over HTTP: a merchant's retry of the
 * same refund, signed anew, is answered with the first refund's answer and refunds nothing more. Issue 9: the
 * sandbox refuses a byte-identical replay, but a retry is signed anew, and before this a retry after a lost
 * answer refunded twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  createMerchantApiV2Client,
  MerchantApiError,
  type MerchantApiV2RefundResult,
} from '../../../src/server/index.js';
import {
  API_KEY,
  FakeMerchant,
  handSignedV2Request,
  merchantKeys,
  paidOrder,
  startTestSandbox,
  tempDir,
} from '../support.js';

describe('sandbox merchant API v2 refund request ids', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let dataDir: string;
  let orders = 0;

  before(async () => {
    merchant = await FakeMerchant.start();
    dataDir = await tempDir();
    sandbox = await startTestSandbox(merchant, dataDir);
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  /** A new order of 20.00, paid; its gateway id. */
  const paidOrderOf = () => paidOrder(sandbox, `RID-${++orders}`);

  const client = (fetchImpl?: typeof fetch) =>
    createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
      ...(fetchImpl && { fetch: fetchImpl }),
    });

  const refunded = async (id: string) => (await client().getOrder(id)).refunded_amount.toFixed(2);

  test('a retry after a lost answer reuses the error’s request id and gets the first answer: one refund', async () => {
    const id = await paidOrderOf();
    // The request reaches the sandbox and the refund is made; the answer is lost on the way back.
    const losesAnswers: typeof fetch = async (url, init) => {
      await fetch(url, init);
      throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
    };
    const lost = await client(losesAnswers)
      .refund(id, { amount: '5.00', note: 'scratched' })
      .then(
        () => assert.fail('the answer was lost'),
        (error: unknown) => error as MerchantApiError,
      );
    assert.ok(lost instanceof MerchantApiError);
    assert.equal(lost.code, 'network_error');
    assert.ok(lost.requestId);
    assert.equal(await refunded(id), '5.00', 'the refund was made');

    const retried = await client().refund(
      id,
      { amount: '5.00', note: 'scratched' },
      { requestId: lost.requestId },
    );
    assert.equal(retried.httpStatus, 201);
    assert.equal(retried.amount, '5.00');
    assert.equal(retried.order?.refunded_amount, 5, 'the first answer, as it was');
    assert.equal(await refunded(id), '5.00', 'not refunded again');
  });

  test('the same request id answers the first refund’s answer, byte for byte, however often and however fast', async () => {
    const id = await paidOrderOf();
    const first = await client().refund(id, { amount: '2.50' }, { requestId: 'shop-refund-1' });
    assert.equal(first.httpStatus, 201);
    const copies = await Promise.all(
      Array.from({ length: 5 }, () =>
        client().refund(id, { amount: '2.50' }, { requestId: 'shop-refund-1' }),
      ),
    );
    for (const copy of copies) assert.deepEqual(copy, first);
    // Another id is another refund.
    const second = await client().refund(id, { amount: '2.50' }, { requestId: 'shop-refund-2' });
    assert.notEqual(second.refundId, first.refundId);
    assert.equal(await refunded(id), '5.00');
  });

  test('a request id is remembered as long as the order, across a restart', async () => {
    const id = await paidOrderOf();
    const first = await client().refund(id, { amount: '1.00' }, { requestId: 'before-restart' });
    await sandbox.close();
    sandbox = await startTestSandbox(merchant, dataDir);
    const again: MerchantApiV2RefundResult = await client().refund(
      id,
      { amount: '1.00' },
      { requestId: 'before-restart' },
    );
    assert.deepEqual(again, first);
    assert.equal(await refunded(id), '1.00');
  });

  test('a request id used for another refund is refused with 409, naming the first', async () => {
    const id = await paidOrderOf();
    const other = await paidOrderOf();
    await client().refund(id, { amount: '3.00' }, { requestId: 'taken' });
    for (const [orderId, refund] of [
      [id, { amount: '4.00' }],
      [id, { amount: '3.00', note: 'changed' }],
      [id, { amount: '3.00', reason: 'RETURNED_PRODUCT' }],
      [other, { amount: '3.00' }],
    ] as const) {
      const error = await client()
        .refund(orderId, refund, { requestId: 'taken' })
        .then(
          () => assert.fail(`${JSON.stringify(refund)} on ${orderId} reused the id`),
          (caught: unknown) => caught as MerchantApiError,
        );
      assert.equal(error.code, 'conflict');
      assert.equal((error.body as { error: { code: string } }).error.code, 'request_id_reused');
      assert.match(error.message, new RegExp(`was used for another refund \\(3\\.00 of order ${id}\\)`));
    }
    assert.equal(await refunded(id), '3.00');
    assert.equal(await refunded(other), '0.00');
  });

  /** A refund signed by hand: with the request id signed or not, and sent as many times as asked. */
  function handSigned(id: string, requestId: string, signIt: boolean) {
    return handSignedV2Request(sandbox, {
      method: 'POST',
      path: `/v2/merchants/m1/orders/${id}/refunds`,
      body: JSON.stringify({ refundRequest: { amount: '1.00', reason: 'OTHER_REFUND' } }),
      [signIt ? 'signed' : 'unsigned']: { 'x-svc-request-id': requestId },
    });
  }

  test('an unsigned request id is refused: it could be swapped on the way', async () => {
    const id = await paidOrderOf();
    const answer = await handSigned(id, 'unsigned-1', false)();
    assert.equal(answer.status, 401);
    const { error } = (await answer.json()) as { error: { code: string; message: string } };
    assert.equal(error.code, 'missing_signed_header');
    assert.match(error.message, /x-svc-request-id/);
    assert.equal(await refunded(id), '0.00');
  });

  test('a byte-identical copy of a refund with a request id gets the first answer, not a second refund', async () => {
    const id = await paidOrderOf();
    const send = handSigned(id, 'copied-1', true);
    const first = await send();
    assert.equal(first.status, 201);
    const repeat = await send();
    assert.equal(repeat.status, 201);
    assert.equal(repeat.headers.get('x-svc-idempotent-replayed'), 'true');
    assert.equal(await repeat.text(), await first.text());
    assert.equal(await refunded(id), '1.00');
    // A malformed request id is refused before anything is refunded.
    const malformed = await handSigned(id, 'x'.repeat(256), true)();
    assert.equal(malformed.status, 400);
    assert.equal(await refunded(id), '1.00');
  });
});
