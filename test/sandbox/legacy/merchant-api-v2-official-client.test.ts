/**
 * Merchant API v2 as the real service speaks it (issue 10): the refund body in both forms, its reasons, its
 * answer's two totals as JSON numbers; `Date` in the official client's `+0000` form and the HTTP form;
 * `Digest` with the algorithm name in any letter case. Requests are written by hand (raw headers on a raw
 * socket) and signed by jsrsasign, one of them exactly as the official client builds it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { REFUND_REASONS } from '../../../src/core/merchant-api-v2-types.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { createMerchantApiV2Client } from '../../../src/server/index.js';
import {
  API_KEY,
  FakeMerchant,
  merchantKeys,
  paidOrder,
  tempDir,
  testConfigFile,
  withLegacySandbox,
} from '../support.js';
import { digestOf, phpDate, rawExchange, signedHead } from './official-client.js';

describe('merchant API v2 as the official client speaks it', () => {
  const legacy = withLegacySandbox();
  let sandbox: Sandbox;

  before(() => {
    ({ sandbox } = legacy);
  });

  /** A request of merchant `m1` under its certificate `main`, signed as the official client signs. */
  const send = (
    method: string,
    path: string,
    options: { body?: string; date?: string; digest?: string; before?: string[] } = {},
  ) =>
    rawExchange(
      sandbox.port,
      signedHead(sandbox.port, {
        method,
        path,
        keyId: 'main',
        privateKeyPem: merchantKeys.main.privateKeyPem,
        ...options,
      }),
      options.body,
    );
  const refund = (orderId: string, body: object | string, options: { digest?: string } = {}) =>
    send('POST', `/v2/merchants/m1/orders/${orderId}/refunds`, {
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...options,
    });
  const error = (answer: { body: Record<string, unknown> }) =>
    answer.body['error'] as { code: string; message: string; field?: string };

  test('a refund built exactly as the official client builds it: +0000 date, no API key, unwrapped body', async () => {
    const orderId = await paidOrder(sandbox, 'OFFICIAL-1');
    // The official client's own test body, byte for byte; its test pins this Digest for it.
    const body = '{"amount":10,"reason":"OTHER_REFUND","note":"Actual weight differs from ordered"}';
    assert.equal(digestOf(body), 'SHA-256=T1tfEOr6+zk0tOzCIjaFSS/dd2tWDYrtNWA5gP5ivoQ=');
    const head = signedHead(sandbox.port, {
      method: 'POST',
      path: `/v2/merchants/m1/orders/${orderId}/refunds`,
      body,
      keyId: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
    });
    assert.match(head, /\r\ndate: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000\r\n/);
    assert.doesNotMatch(head, /x-svc-api-key|x-svc-key-id/i);
    const answer = await rawExchange(sandbox.port, head, body);
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body['totalRefundedAmount'], 10);
    assert.equal(answer.body['orderEffectiveAmount'], 10);
  });

  test('the refund body wrapped as the documents show it and unwrapped as the official client sends it', async () => {
    const orderId = await paidOrder(sandbox, 'FORMS-1');
    const wrapped = await refund(orderId, {
      refundRequest: { amount: 5, reason: 'RETURNED_PRODUCT', note: 'one back' },
    });
    assert.equal(wrapped.status, 201, JSON.stringify(wrapped.body));
    const unwrapped = await refund(orderId, { amount: 2.5, reason: 'PRICE_ADJUSTMENT' });
    assert.equal(unwrapped.status, 201, JSON.stringify(unwrapped.body));
    // The real service's two members, JSON numbers; ours beside them.
    assert.deepEqual(
      [wrapped, unwrapped].map(({ body }) => [body['totalRefundedAmount'], body['orderEffectiveAmount']]),
      [
        [5, 15],
        [7.5, 12.5],
      ],
    );
    for (const { body } of [wrapped, unwrapped]) {
      assert.equal(typeof body['totalRefundedAmount'], 'number');
      assert.equal(typeof body['orderEffectiveAmount'], 'number');
    }
    assert.equal(unwrapped.body['amount'], '2.50');
    assert.equal(unwrapped.body['status'], 'REFUNDED');
    const neither = await refund(orderId, { note: 'no amount' });
    assert.equal(neither.status, 400);
    assert.match(error(neither).message, /refundRequest.*amount/);
  });

  test('takes each of the six reasons, and refuses any other naming the field as the body wrote it', async () => {
    const orderId = await paidOrder(sandbox, 'REASONS-1');
    let refunded = 0;
    for (const [index, reason] of REFUND_REASONS.entries()) {
      const fields = { amount: '1.00', reason, note: reason };
      const answer = await refund(orderId, index % 2 === 0 ? fields : { refundRequest: fields });
      assert.equal(answer.status, 201, `${reason}: ${JSON.stringify(answer.body)}`);
      refunded += 1;
      assert.equal(answer.body['totalRefundedAmount'], refunded, reason);
    }
    const bad: Array<[unknown, boolean]> = [
      ['DAMAGED', false],
      ['other_refund', true],
      [7, false],
      [undefined, true],
    ];
    for (const [reason, wrapped] of bad) {
      const fields = { amount: 1, reason };
      const answer = await refund(orderId, wrapped ? { refundRequest: fields } : fields);
      assert.equal(answer.status, 400, String(reason));
      assert.equal(error(answer).code, 'invalid_reason');
      assert.equal(error(answer).field, wrapped ? 'refundRequest.reason' : 'reason');
      assert.match(error(answer).message, /PRODUCT_OUT_OF_STOCK, .*RESERVATION_EXPIRED/);
    }
    // Nothing was refunded by the refused ones: the next refund's total counts on from six.
    const next = await refund(orderId, { amount: 1, reason: 'OTHER_REFUND' });
    assert.equal(next.body['totalRefundedAmount'], 7);
    assert.equal(next.body['orderEffectiveAmount'], 13);
  });

  test('refuses a refund above what is left with 409, in either form', async () => {
    const orderId = await paidOrder(sandbox, 'OVER-1');
    for (const wrapped of [false, true]) {
      const fields = { amount: 20.01, reason: 'OTHER_REFUND' };
      const answer = await refund(orderId, wrapped ? { refundRequest: fields } : fields);
      assert.equal(answer.status, 409);
      assert.equal(error(answer).code, 'refund_exceeds_payment');
      assert.equal(error(answer).field, wrapped ? 'refundRequest.amount' : 'amount');
    }
    const all = await refund(orderId, { amount: 20, reason: 'CANCELLED_SERVICE' });
    assert.deepEqual([all.body['totalRefundedAmount'], all.body['orderEffectiveAmount']], [20, 0]);
  });

  test('the toolkit client sends the documents’ form and reads the totals as numbers', async () => {
    const orderId = await paidOrder(sandbox, 'CLIENT-1');
    const client = createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
    });
    const result = await client.refund(orderId, { amount: '4.00', reason: 'PRODUCT_OUT_OF_STOCK' });
    assert.equal(result.httpStatus, 201);
    assert.equal(result.totalRefundedAmount, 4);
    assert.equal(result.orderEffectiveAmount, 16);
    assert.equal(result.refundId, (result.raw as { refundId: string }).refundId);
  });

  test('Date as the official client writes it (+0000) and as HTTP writes it (GMT), both within the skew', async () => {
    const orderId = await paidOrder(sandbox, 'DATES-1');
    const path = `/v2/merchants/m1/orders/${orderId}`;
    const now = new Date();
    const accepted = [
      phpDate(now),
      now.toUTCString(),
      // The same instant in another zone: the offset is honoured, not ignored.
      phpDate(now, 120),
      phpDate(now, -330),
      phpDate(new Date(now.getTime() - 240_000)),
    ];
    for (const date of accepted) {
      const answer = await send('GET', path, { date });
      assert.equal(answer.status, 200, `${date}: ${JSON.stringify(answer.body)}`);
    }
    const stale = new Date(now.getTime() - 360_000);
    // Ten minutes ahead of the wall time, written as if it were UTC: outside the skew.
    const wrongZone = phpDate(new Date(now.getTime() + 600_000));
    for (const date of [phpDate(stale), stale.toUTCString(), wrongZone]) {
      const answer = await send('GET', path, { date });
      assert.equal(answer.status, 401, date);
      assert.equal(error(answer).code, 'date_skew');
    }
    // Text that Date.parse would read, but no HTTP date: refused with the forms to send.
    for (const date of [now.toISOString(), now.toString(), phpDate(now).replace(/^[A-Z][a-z]{2}/, 'Xyz')]) {
      const answer = await send('GET', path, { date });
      assert.equal(answer.status, 401, date);
      assert.equal(error(answer).code, 'date_skew');
      assert.match(error(answer).message, /GMT.*\+0000|not an HTTP date|says/);
    }
  });

  test('Digest with the algorithm name in any letter case; a wrong digest in any case is refused', async () => {
    const orderId = await paidOrder(sandbox, 'DIGEST-1');
    const body = JSON.stringify({ amount: 1, reason: 'OTHER_REFUND' });
    for (const name of ['SHA-256', 'sha-256', 'Sha-256']) {
      const answer = await refund(orderId, body, { digest: digestOf(body, name) });
      assert.equal(answer.status, 201, `${name}: ${JSON.stringify(answer.body)}`);
    }
    for (const name of ['SHA-256', 'sha-256']) {
      const answer = await refund(orderId, body, { digest: digestOf(`${body} `, name) });
      assert.equal(answer.status, 401, name);
      assert.equal(error(answer).code, 'digest_mismatch');
    }
    const unknown = await refund(orderId, body, { digest: digestOf(body, 'MD5') });
    assert.equal(error(unknown).code, 'digest_mismatch');
  });

  test('an API key or key id that is sent must still be the merchant’s (requireApiKey is off)', async () => {
    const orderId = await paidOrder(sandbox, 'KEYS-1');
    const path = `/v2/merchants/m1/orders/${orderId}/refunds`;
    const body = JSON.stringify({ amount: 1, reason: 'OTHER_REFUND' });
    const wrongKey = await send('POST', path, { body, before: ['X-Svc-Api-Key: not-the-key'] });
    assert.equal(error(wrongKey).code, 'api_key_invalid');
    const wrongId = await send('POST', path, { body, before: ['X-Svc-Key-ID: cert'] });
    assert.equal(error(wrongId).code, 'key_id_mismatch');
    const both = await send('POST', path, {
      body,
      before: [`X-Svc-Api-Key: ${API_KEY}`, 'X-Svc-Key-ID: main'],
    });
    assert.equal(both.status, 201, JSON.stringify(both.body));
  });
});

describe('merchant API v2 for a merchant with requireApiKey', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.requireApiKey = true;
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  test('the official client’s request, which carries no API key, is refused with a 401 naming the header', async () => {
    const orderId = await paidOrder(sandbox, 'REQUIRED-1');
    const path = `/v2/merchants/m1/orders/${orderId}/refunds`;
    const body = JSON.stringify({ amount: 1, reason: 'OTHER_REFUND' });
    const sign = (before: string[] = []) =>
      signedHead(sandbox.port, {
        method: 'POST',
        path,
        body,
        keyId: 'main',
        privateKeyPem: merchantKeys.main.privateKeyPem,
        before,
      });
    const missing = await rawExchange(sandbox.port, sign(), body);
    assert.equal(missing.status, 401);
    const refusal = missing.body['error'] as { code: string; message: string };
    assert.equal(refusal.code, 'api_key_missing');
    assert.match(refusal.message, /X-Svc-Api-Key/);
    const wrong = await rawExchange(sandbox.port, sign(['X-Svc-Api-Key: not-the-key']), body);
    assert.equal((wrong.body['error'] as { code: string }).code, 'api_key_invalid');
    const keyed = await rawExchange(sandbox.port, sign([`X-Svc-Api-Key: ${API_KEY}`]), body);
    assert.equal(keyed.status, 201, JSON.stringify(keyed.body));
  });

  test('the toolkit client sends the API key with every request, so it is taken', async () => {
    const orderId = await paidOrder(sandbox, 'REQUIRED-2');
    const client = createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
    });
    assert.equal((await client.getOrder(orderId)).status, 'PAID');
    assert.equal((await client.refund(orderId, { amount: '1.00', reason: 'OTHER_REFUND' })).httpStatus, 201);
  });
});
