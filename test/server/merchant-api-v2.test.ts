import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { MerchantApiV2Order, MerchantApiV2Refund } from '../../src/core/merchant-api-v2-types.js';
import {
  createMerchantApiV2Client,
  generateMerchantKeyPair,
  type HttpSignatureAlgorithmName,
  KeyFormatError,
  MerchantApiError,
  type MerchantKeyPair,
  verifyHttpSignature,
} from '../../src/server/index.js';
import { listen } from './support.js';

let merchant: MerchantKeyPair;
let impostor: MerchantKeyPair;
let api: Awaited<ReturnType<typeof listen>>;

/** What the tiny API server saw of each request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  verification: ReturnType<typeof verifyHttpSignature>;
}
const seen: Seen[] = [];

const order: MerchantApiV2Order = {
  id: 'ord_1',
  orderId: 'A-1001',
  status: 'PAID',
  currency: 'EUR',
  totalAmount: '176.00',
  refundedAmount: '0.00',
  refundableAmount: '176.00',
  items: [],
  createdAt: '2025-03-14T09:00:00.000Z',
  paidAt: '2025-03-14T09:01:00.000Z',
};

/** Sends an answer the way a real API v2 server would after checking the signature and API key. */
function answer(request: Seen): { status: number; body: string; type?: string } {
  if (!request.verification.ok) {
    return {
      status: 401,
      body: JSON.stringify({ error: request.verification.code, message: request.verification.message }),
    };
  }
  if (request.headers['x-svc-api-key'] !== 'api-key-1') {
    return { status: 401, body: JSON.stringify({ error: 'unauthorized', message: 'Unknown API key' }) };
  }
  const match = /^(?:\/legacy)?\/v2\/merchants\/m%201\/orders\/([^/]+)(\/refunds)?$/.exec(request.url);
  if (!match) return { status: 404, body: JSON.stringify({ error: 'not_found', message: 'No such path' }) };
  const orderId = decodeURIComponent(match[1]!);
  if (orderId === 'html') return { status: 200, body: '<html>login</html>', type: 'text/html' };
  if (orderId === 'boom') return { status: 503, body: 'upstream unavailable', type: 'text/plain' };
  if (orderId !== 'ord_1')
    return {
      status: 404,
      body: JSON.stringify({ error: 'not_found', message: `Order ${orderId} not found` }),
    };
  if (!match[2]) return { status: 200, body: JSON.stringify(order) };
  const { refundRequest } = JSON.parse(request.body) as { refundRequest: { amount: number } };
  if (refundRequest.amount > 176) {
    return {
      status: 409,
      body: JSON.stringify({ error: 'conflict', message: 'Amount exceeds the refundable 176.00' }),
    };
  }
  const amount = refundRequest.amount.toFixed(2);
  const refund: MerchantApiV2Refund = {
    refundId: 'ref_1',
    orderId: 'ord_1',
    amount,
    status: 'REFUNDED',
    order: { ...order, status: 'PARTIALLY_REFUNDED', refundedAmount: amount },
  };
  return { status: 201, body: JSON.stringify(refund) };
}

before(async () => {
  [merchant, impostor] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
  api = await listen(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const verification = verifyHttpSignature(
      { method: req.method!, path: req.url!, headers: req.headers, rawBody: body },
      (keyId) => (keyId === 'shop-2025' ? merchant.publicKeyPem : undefined),
    );
    const request: Seen = { method: req.method!, url: req.url!, headers: req.headers, body, verification };
    seen.push(request);
    const { status, body: text, type } = answer(request);
    res.writeHead(status, { 'content-type': type ?? 'application/json' }).end(text);
  });
});
after(() => api.close());

function client(
  overrides: {
    algorithm?: HttpSignatureAlgorithmName;
    privateKeyPem?: string;
    baseUrl?: string;
    apiKey?: string;
  } = {},
) {
  return createMerchantApiV2Client({
    baseUrl: overrides.baseUrl ?? api.url,
    merchantId: 'm 1',
    apiKey: overrides.apiKey ?? 'api-key-1',
    certificateName: 'shop-2025',
    privateKeyPem: overrides.privateKeyPem ?? merchant.privateKeyPem,
    ...(overrides.algorithm && { algorithm: overrides.algorithm }),
  });
}

async function rejection(promise: Promise<unknown>): Promise<MerchantApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof MerchantApiError, `expected MerchantApiError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('merchant API v2 client against a server that verifies with verifyHttpSignature', () => {
  it('gets an order with a signed GET carrying X-Svc-Api-Key but no X-Svc-Key-ID', async () => {
    seen.length = 0;
    assert.deepEqual(await client().getOrder('ord_1'), order);
    const [request] = seen;
    assert.equal(request?.method, 'GET');
    assert.equal(request?.url, '/v2/merchants/m%201/orders/ord_1');
    const signature = /signature="([^"]+)"/.exec(String(request?.headers.authorization))?.[1];
    assert.deepEqual(request?.verification, {
      ok: true,
      keyId: 'shop-2025',
      algorithm: 'rsa-sha256',
      signature,
    });
    assert.equal(request?.headers['x-svc-api-key'], 'api-key-1');
    assert.equal(request?.headers['x-svc-key-id'], undefined);
    assert.equal(request?.headers.digest, undefined);
  });

  for (const algorithm of ['rsa-sha256', 'rsa-sha384', 'rsa-sh512', 'rsa-sha512'] as const) {
    it(`refunds with a signed POST (${algorithm}) whose body has the amount with 2 decimals`, async () => {
      seen.length = 0;
      const refund = await client({ algorithm }).refund('ord_1', { amount: 12.3, note: 'Atgriezts' });
      assert.equal(refund.refundId, 'ref_1');
      assert.equal(refund.amount, '12.30');
      assert.equal(refund.order.refundedAmount, '12.30');
      const [request] = seen;
      assert.equal(request?.url, '/v2/merchants/m%201/orders/ord_1/refunds');
      assert.equal(
        request?.body,
        '{"refundRequest":{"amount":12.30,"reason":"OTHER_REFUND","note":"Atgriezts"}}',
      );
      assert.equal(request?.verification.ok, true);
      assert.equal(
        request?.verification.ok && request.verification.algorithm,
        algorithm === 'rsa-sha512' ? 'rsa-sh512' : algorithm,
      );
      assert.equal(request?.headers['x-svc-key-id'], 'shop-2025');
      assert.equal(request?.headers['content-type'], 'application/json');
      assert.match(
        request?.headers.authorization ?? '',
        /headers="\(request-target\) date digest content-type"/,
      );
    });
  }

  it('signs the full path when the base URL has a path prefix', async () => {
    seen.length = 0;
    const refund = await client({ baseUrl: `${api.url}/legacy/` }).refund('ord_1', {
      amount: '5',
      reason: 'DAMAGED',
    });
    assert.equal(refund.amount, '5.00');
    assert.equal(seen[0]?.url, '/legacy/v2/merchants/m%201/orders/ord_1/refunds');
    assert.equal(seen[0]?.body, '{"refundRequest":{"amount":5.00,"reason":"DAMAGED"}}');
  });

  it('refuses amounts that are not above 0 with at most 2 decimals, before sending', async () => {
    seen.length = 0;
    for (const amount of [0, -1, '1.234', 'ten', Number.NaN]) {
      const error = await rejection(client().refund('ord_1', { amount }));
      assert.equal(error.code, 'invalid_request', String(amount));
      assert.match(error.message, /amount/);
    }
    assert.equal((await rejection(client().getOrder(''))).code, 'invalid_request');
    assert.equal(seen.length, 0);
  });

  it('maps answers to error codes with the status and the server message', async () => {
    const missing = await rejection(client().getOrder('ord_9'));
    assert.equal(missing.code, 'not_found');
    assert.equal(missing.status, 404);
    assert.match(missing.message, /Order ord_9 not found/);
    const conflict = await rejection(client().refund('ord_1', { amount: 500 }));
    assert.equal(conflict.code, 'conflict');
    assert.match(conflict.message, /exceeds the refundable/);
    const forged = await rejection(client({ privateKeyPem: impostor.privateKeyPem }).getOrder('ord_1'));
    assert.equal(forged.code, 'unauthorized');
    assert.match(forged.message, /signature does not match/);
    const wrongApiKey = await rejection(client({ apiKey: 'other' }).getOrder('ord_1'));
    assert.equal(wrongApiKey.code, 'unauthorized');
    const down = await rejection(client().getOrder('boom'));
    assert.equal(down.code, 'server_error');
    assert.match(down.message, /upstream unavailable/);
    const html = await rejection(client().getOrder('html'));
    assert.equal(html.code, 'invalid_response');
  });

  it('gives network_error when nothing answers', async () => {
    const closed = await listen(() => {});
    const url = closed.url;
    await closed.close();
    const error = await rejection(client({ baseUrl: url }).getOrder('ord_1'));
    assert.equal(error.code, 'network_error');
    assert.equal(error.status, undefined);
  });

  it('refuses bad options when the client is made', () => {
    assert.throws(() => client({ privateKeyPem: merchant.publicKeyPem }), KeyFormatError);
    assert.throws(() => client({ baseUrl: 'not a url' }), /baseUrl/);
    assert.throws(() => client({ apiKey: '' }), /apiKey/);
    assert.throws(() => client({ algorithm: 'rsa-md5' as 'rsa-sha256' }), /algorithm/);
  });
});
