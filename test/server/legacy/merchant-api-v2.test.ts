import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { NO_SHIPPING } from '../../../src/core/legacy-callbacks.js';
import type { MerchantApiV2Order, MerchantApiV2Refund } from '../../../src/core/merchant-api-v2-types.js';
import {
  createMerchantApiV2Client,
  generateMerchantKeyPair,
  type HttpSignatureAlgorithmName,
  KeyFormatError,
  MerchantApiError,
  type MerchantKeyPair,
  signHttpRequest,
  verifyHttpSignature,
} from '../../../src/server/index.js';
import { listen } from '../support.js';

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
  order_id: 'A-1001',
  status: 'PAID',
  company: { name: 'Shop SIA', address: null, registration_number: null, vat_number: null },
  customer: { email: 'anna@example.lv', first_name: 'Anna', last_name: null, phone_number: null },
  payment: {
    method: 'CARD',
    status: 'SUCCEEDED',
    accountStatementReference: 'SVC-1',
    card: { bin: '411111' },
    error: null,
  },
  amount: 145.45,
  tax_amount: 30.55,
  total_amount: 176,
  effective_amount: 176,
  items: [],
  currency: 'EUR',
  merchant_urls: {
    confirmation: null,
    place_order: null,
    terms: 'https://shop.example/terms',
    verification: null,
  },
  shipping: NO_SHIPPING,
  refunded_amount: 0,
  refundable_amount: 176,
  created_at: '2025-03-14T09:00:00.000Z',
  paid_at: '2025-03-14T09:01:00.000Z',
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
    totalRefundedAmount: refundRequest.amount,
    orderEffectiveAmount: 176 - refundRequest.amount,
    refundId: 'ref_1',
    orderId: 'ord_1',
    amount,
    status: 'REFUNDED',
    order: { ...order, status: 'PARTIALLY_REFUNDED', refunded_amount: Number(amount) },
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
      assert.equal(refund.order?.refunded_amount, 12.3);
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
        /headers="\(request-target\) date digest content-type x-svc-request-id"/,
      );
    });
  }

  it('signs the full path when the base URL has a path prefix', async () => {
    seen.length = 0;
    const refund = await client({ baseUrl: `${api.url}/legacy/` }).refund('ord_1', {
      amount: '5',
      reason: 'RETURNED_PRODUCT',
    });
    assert.equal(refund.amount, '5.00');
    assert.equal(seen[0]?.url, '/legacy/v2/merchants/m%201/orders/ord_1/refunds');
    assert.equal(seen[0]?.body, '{"refundRequest":{"amount":5.00,"reason":"RETURNED_PRODUCT"}}');
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

describe('merchant API v2 client against servers that answer oddly (issue 9)', () => {
  /** A server that records each request (headers and body) and answers with `reply`. */
  async function recordingServer(reply: (req: IncomingMessage, res: ServerResponse) => void) {
    const requests: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
    const server = await listen(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      requests.push({ url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      reply(req, res);
    });
    return { ...server, requests };
  }

  function clientOf(baseUrl: string, timeoutMs?: number) {
    return createMerchantApiV2Client({
      baseUrl,
      merchantId: 'm1',
      apiKey: 'secret-api-key',
      certificateName: 'shop-2025',
      privateKeyPem: merchant.privateKeyPem,
      ...(timeoutMs !== undefined && { timeoutMs }),
    });
  }

  it('returns a 2xx refund answer it does not recognise, with the raw body, instead of rejecting after the money moved', async () => {
    const bodies = [
      // The real service's answer (issue 10), with a member more, and with a total as text: kept, typed.
      { status: 200, text: '{"totalRefundedAmount":5.00,"orderEffectiveAmount":15.00,"extra":true}' },
      { status: 200, text: '{"totalRefundedAmount":"5.00","orderEffectiveAmount":15}' },
      { status: 201, text: 'Refund accepted' },
      { status: 204, text: '' },
      { status: 200, text: '[1,2]' },
      // Ours, but with a member of the wrong type: that member is left out, the rest kept.
      { status: 201, text: '{"refundId":7,"orderId":"ord_1","amount":"5.00","status":"REFUNDED"}' },
    ];
    let next = 0;
    const server = await recordingServer((_req, res) => {
      const { status, text } = bodies[next++]!;
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    });
    try {
      const results = [];
      for (const _ of bodies) results.push(await clientOf(server.url).refund('ord_1', { amount: 5 }));
      assert.deepEqual(
        results.map(({ requestId, ...rest }) => rest),
        [
          {
            httpStatus: 200,
            raw: { totalRefundedAmount: 5, orderEffectiveAmount: 15, extra: true },
            totalRefundedAmount: 5,
            orderEffectiveAmount: 15,
          },
          {
            httpStatus: 200,
            raw: { totalRefundedAmount: '5.00', orderEffectiveAmount: 15 },
            orderEffectiveAmount: 15,
          },
          { httpStatus: 201, raw: 'Refund accepted' },
          { httpStatus: 204, raw: '' },
          { httpStatus: 200, raw: [1, 2] },
          {
            httpStatus: 201,
            raw: { refundId: 7, orderId: 'ord_1', amount: '5.00', status: 'REFUNDED' },
            orderId: 'ord_1',
            amount: '5.00',
            status: 'REFUNDED',
          },
        ],
      );
      assert.equal(server.requests.length, bodies.length, 'one request per refund: nothing was retried');
    } finally {
      await server.close();
    }
  });

  it('never follows a redirect, so the API key and the signed request stay with the API', async () => {
    const elsewhere = await recordingServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
    const redirecting = await recordingServer((req, res) => {
      res.writeHead(req.method === 'GET' ? 302 : 307, { location: `${elsewhere.url}${req.url}` }).end();
    });
    try {
      const refund = await rejection(clientOf(redirecting.url).refund('ord_1', { amount: 5 }));
      assert.equal(refund.code, 'redirected');
      assert.equal(refund.status, 307);
      assert.match(refund.message, new RegExp(`redirect to ${elsewhere.url}/v2/.*set baseUrl`));
      assert.equal(refund.requestId, redirecting.requests[0]?.headers['x-svc-request-id']);
      const read = await rejection(clientOf(redirecting.url).getOrder('ord_1'));
      assert.equal(read.code, 'redirected');
      assert.equal(read.status, 302);
      assert.equal(redirecting.requests.length, 2);
      assert.equal(redirecting.requests[0]?.headers['x-svc-api-key'], 'secret-api-key');
      assert.deepEqual(elsewhere.requests, [], 'the other origin saw no request, so no API key');
    } finally {
      await Promise.all([elsewhere.close(), redirecting.close()]);
    }
  });

  it('takes an AbortSignal per call, and tells an abort from a timeout', async () => {
    const arrived: Array<() => void> = [];
    // Holds every request without answering, so only the signal or the timeout ends the call.
    const silent = await recordingServer(() => {
      arrived.shift()?.();
    });
    try {
      const controller = new AbortController();
      const reached = new Promise<void>((resolve) => arrived.push(resolve));
      const pending = clientOf(silent.url).refund(
        'ord_1',
        { amount: 5 },
        { signal: controller.signal, requestId: 'refund-41' },
      );
      await reached;
      controller.abort(new Error('the shopper left'));
      const aborted = await rejection(pending);
      assert.equal(aborted.code, 'aborted');
      assert.equal(
        aborted.requestId,
        'refund-41',
        'the id to retry with, since the refund may have been made',
      );
      assert.equal(aborted.status, undefined);

      const readController = new AbortController();
      const readReached = new Promise<void>((resolve) => arrived.push(resolve));
      const read = clientOf(silent.url).getOrder('ord_1', { signal: readController.signal });
      await readReached;
      readController.abort();
      assert.equal((await rejection(read)).code, 'aborted');

      const before = silent.requests.length;
      const early = await rejection(
        clientOf(silent.url).refund('ord_1', { amount: 5 }, { signal: AbortSignal.abort() }),
      );
      assert.equal(early.code, 'aborted');
      assert.match(early.message, /aborted before it was sent/);
      assert.equal(silent.requests.length, before, 'an aborted signal sends nothing');

      const late = await rejection(clientOf(silent.url, 50).getOrder('ord_1'));
      assert.equal(late.code, 'timeout');
      assert.match(late.message, /no answer within 50 ms/);
    } finally {
      await silent.close();
    }
  });

  it('gives each refund a signed X-Svc-Request-Id of its own, or the caller’s, and refuses a bad one before sending', async () => {
    const server = await recordingServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('try later');
    });
    try {
      const first = await rejection(clientOf(server.url).refund('ord_1', { amount: 5 }));
      const second = await rejection(clientOf(server.url).refund('ord_1', { amount: 5 }));
      const own = await rejection(
        clientOf(server.url).refund('ord_1', { amount: 5 }, { requestId: 'rf_2025-0001' }),
      );
      assert.equal(first.code, 'server_error');
      assert.match(first.requestId ?? '', /^[0-9a-f-]{36}$/);
      assert.notEqual(first.requestId, second.requestId);
      assert.equal(own.requestId, 'rf_2025-0001');
      assert.deepEqual(
        server.requests.map((request) => request.headers['x-svc-request-id']),
        [first.requestId, second.requestId, 'rf_2025-0001'],
      );
      for (const request of server.requests) {
        const verification = verifyHttpSignature(
          { method: 'POST', path: request.url, headers: request.headers, rawBody: request.body },
          () => merchant.publicKeyPem,
          { signedIfPresent: ['x-svc-request-id'] },
        );
        assert.equal(verification.ok, true, JSON.stringify(verification));
        assert.match(String(request.headers.authorization), /headers="[^"]* x-svc-request-id"/);
      }
      // The same request with its request id swapped in transit no longer verifies.
      const [request] = server.requests;
      const swapped = verifyHttpSignature(
        {
          method: 'POST',
          path: request!.url,
          headers: { ...request!.headers, 'x-svc-request-id': 'other' },
          rawBody: request!.body,
        },
        () => merchant.publicKeyPem,
      );
      assert.equal(swapped.ok ? 'ok' : swapped.code, 'signature_invalid');

      const sent = server.requests.length;
      for (const requestId of ['', 'has space', 'line\nbreak', 'x'.repeat(256), 'ā']) {
        const refused = await rejection(clientOf(server.url).refund('ord_1', { amount: 5 }, { requestId }));
        assert.equal(refused.code, 'invalid_request', JSON.stringify(requestId));
        assert.match(refused.message, /requestId/);
      }
      await assert.rejects(
        clientOf(server.url).refund('ord_1', { amount: 5 }, { requestID: 'x' } as never),
        /refund: unknown option "requestID"; did you mean "requestId"\?/,
      );
      assert.equal(server.requests.length, sent, 'nothing sent for a bad request id');
    } finally {
      await server.close();
    }
  });
});

describe('signHttpRequest with further headers (the request id)', () => {
  it('signs them after the document’s, and refuses names it signs itself or values that break lines', () => {
    const key = { keyId: 'shop-2025', privateKeyPem: merchant.privateKeyPem };
    const request = { method: 'POST', path: '/v2/x', body: '{}' };
    const signed = signHttpRequest({ ...request, headers: { 'X-Svc-Request-Id': 'r-1' } }, key);
    assert.match(
      signed.Authorization,
      /headers="\(request-target\) date digest content-type x-svc-request-id"/,
    );
    const headers = { ...signed, 'X-Svc-Request-Id': 'r-1' };
    const verify = (sent: Record<string, string>) =>
      verifyHttpSignature(
        { method: 'POST', path: '/v2/x', headers: sent, rawBody: '{}' },
        () => merchant.publicKeyPem,
      );
    assert.equal(verify(headers).ok, true);
    assert.equal(verify({ ...headers, 'X-Svc-Request-Id': 'r-2' }).ok, false);
    for (const name of ['Date', 'digest', '(request-target)', 'Content-Type', 'bad name']) {
      assert.throws(() => signHttpRequest({ ...request, headers: { [name]: 'x' } }, key), TypeError, name);
    }
    assert.throws(() => signHttpRequest({ ...request, headers: { 'X-A': 'a\r\nB: b' } }, key), /line breaks/);
  });
});
