/**
 * The merchant API v2 client's approveOrder / rejectOrder and its refund reasons (issue 10), against a tiny
 * server that checks each request with verifyHttpSignature and records it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createMerchantApiV2Client,
  generateMerchantKeyPair,
  MerchantApiError,
  type MerchantKeyPair,
  verifyHttpSignature,
} from '../../../src/server/index.js';
import { listen } from '../support.js';

let merchant: MerchantKeyPair;
let api: Awaited<ReturnType<typeof listen>>;
const seen: Array<{ method: string; url: string; body: string; keyId: string | undefined; ok: boolean }> = [];
/** The next answers, in order; `{}` with 200 when none is queued. */
const answers: Array<{ status: number; body: string }> = [];

before(async () => {
  merchant = await generateMerchantKeyPair();
  api = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const verification = verifyHttpSignature(
      { method: req.method!, path: req.url!, headers: req.headers, rawBody: body },
      (keyId) => (keyId === 'main' ? merchant.publicKeyPem : undefined),
    );
    seen.push({
      method: req.method!,
      url: req.url!,
      body,
      keyId: req.headers['x-svc-key-id'] as string | undefined,
      ok: verification.ok,
    });
    const { status, body: text } = answers.shift() ?? { status: 200, body: '{}' };
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  });
});
after(() => api.close());

const client = () =>
  createMerchantApiV2Client({
    baseUrl: api.url,
    merchantId: 'm1',
    apiKey: 'key',
    certificateName: 'main',
    privateKeyPem: merchant.privateKeyPem,
  });

describe('merchant API v2 client: approveOrder and rejectOrder', () => {
  it('approves with a signed PUT of {id} and rejects with a signed DELETE of {reasonCode}', async () => {
    seen.length = 0;
    answers.push(
      { status: 200, body: '{"id":"o 1","decision":"APPROVED","reasonCode":null}' },
      { status: 200, body: '{"id":"o2","decision":"REJECTED","reasonCode":"PRICE_CHANGED"}' },
    );
    const approved = await client().approveOrder('o 1');
    assert.deepEqual(
      { ...approved },
      {
        id: 'o 1',
        decision: 'APPROVED',
        reasonCode: null,
        httpStatus: 200,
        raw: { id: 'o 1', decision: 'APPROVED', reasonCode: null },
      },
    );
    const rejected = await client().rejectOrder('o2', 'PRICE_CHANGED');
    assert.equal(rejected.reasonCode, 'PRICE_CHANGED');
    assert.deepEqual(
      seen.map(({ method, url, body, keyId, ok }) => [method, url, body, keyId, ok]),
      [
        ['PUT', '/v2/merchants/m1/orders/o%201', '{"id":"o 1"}', 'main', true],
        ['DELETE', '/v2/merchants/m1/orders/o2', '{"reasonCode":"PRICE_CHANGED"}', 'main', true],
      ],
    );
  });

  it('returns a 2xx answer it does not recognise, since the decision was taken; a 409 rejects with conflict', async () => {
    answers.push({ status: 204, body: '' }, { status: 200, body: '{"decision":"MAYBE","id":7}' });
    assert.deepEqual({ ...(await client().approveOrder('o3')) }, { httpStatus: 204, raw: '' });
    assert.deepEqual(
      { ...(await client().rejectOrder('o3', 'OTHER')) },
      { httpStatus: 200, raw: { decision: 'MAYBE', id: 7 } },
    );
    answers.push({
      status: 409,
      body: '{"error":{"code":"order_already_decided","message":"Order o3 was already approved"}}',
    });
    await assert.rejects(
      client().approveOrder('o3'),
      (error: unknown) =>
        error instanceof MerchantApiError &&
        error.code === 'conflict' &&
        /already approved/.test(error.message),
    );
  });

  it('refuses, before sending, a rejection reason and a refund reason the gateway does not know', async () => {
    seen.length = 0;
    for (const reasonCode of ['OUT_OF_STOCK', 'other', '']) {
      await assert.rejects(
        client().rejectOrder('o4', reasonCode as never),
        (error: unknown) =>
          error instanceof MerchantApiError &&
          error.code === 'invalid_request' &&
          /PRICE_CHANGED, .*OTHER/.test(error.message),
        reasonCode,
      );
    }
    await assert.rejects(
      client().refund('o4', { amount: 1, reason: 'DAMAGED' as never }),
      (error: unknown) =>
        error instanceof MerchantApiError &&
        error.code === 'invalid_request' &&
        /PRODUCT_OUT_OF_STOCK, .*RESERVATION_EXPIRED/.test(error.message),
    );
    assert.equal(seen.length, 0);
  });
});
