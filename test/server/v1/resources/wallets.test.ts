/**
 * The v1 client's wallet post, server to server, on the wire: what it sent to a recording gateway as a form,
 * and how it read each of the gateway's answers.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  createV1Client,
  type V1Client,
  type WalletBPaymentAnswer,
  type WalletPaymentFailure,
} from '../../../../src/server/index.js';
import { failure } from '../../support.js';
import { ID, purchase, recordingGateway } from '../recording-gateway.js';

const WALLET_B_ANSWER: WalletBPaymentAnswer = {
  merchant: 'TESTMERCHANT01',
  order: {
    amount: 12.5,
    creationTime: '2030-01-01T12:00:00.000Z',
    currency: 'EUR',
    id: 'order-abc',
    lastUpdatedTime: '2030-01-01T12:00:01.000Z',
    totalRefundedAmount: 0,
    totalAuthorizedAmount: 12.5,
    totalCapturedAmount: 0,
    totalDisbursedAmount: 0,
    merchantCurrency: 'EUR',
  },
  response: { gatewayCode: 'PENDING', threeDsRedirectUrl: 'https://gateway.example/3ds/abc' },
  result: 'SUCCESS',
  transaction: { id: 'tx-1', amount: 12.5, currency: 'EUR', type: 'AUTHENTICATION', retRefNr: '000123' },
};

const WALLET_FAILURE: WalletPaymentFailure = {
  error_response: { response: { gatewayCode: 'DECLINED', threeDsRedirectUrl: null }, result: 'FAILURE' },
};

/** The fields of a form-encoded body, in order. */
const formFields = (body: string) => [...new URLSearchParams(body)];

const fromBase64Json = (text: string | null): unknown =>
  JSON.parse(Buffer.from(text ?? '', 'base64').toString('utf8'));

describe('v1 client: wallet payments, server to server', () => {
  let gateway: Awaited<ReturnType<typeof recordingGateway>>;
  let v1: V1Client;
  const walletAData = { version: 'EC_v1', data: 'ZW5jcnlwdGVk', signature: 'c2ln', header: { keyId: 'k1' } };
  const walletBPayload = {
    apiVersion: 2,
    paymentMethodData: { description: 'Visa •••• 1111', type: 'CARD' },
  };

  before(async () => {
    gateway = await recordingGateway();
    v1 = createV1Client({ baseUrl: gateway.url, secretKey: 'sk_test_wallet' });
  });
  after(() => gateway.close());
  beforeEach(() => {
    gateway.received.length = 0;
    gateway.answer(() => ({ status: 200, body: { status: 'Wait for the webhook' } }));
  });

  test('wallet A posts pm, s2s and token (Base64 of paymentData as JSON) to {base_url}/p/{id}/', async () => {
    const result = await v1.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData });
    assert.deepEqual(result, { kind: 'accepted', status: 'Wait for the webhook' });
    assert.equal(gateway.received.length, 1);
    const request = gateway.received[0]!;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, `/p/${ID}/`);
    assert.equal(request.headers.authorization, 'Bearer sk_test_wallet');
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    const fields = formFields(request.body);
    assert.deepEqual(
      fields.map(([name]) => name),
      ['pm', 's2s', 'token'],
    );
    const form = new URLSearchParams(request.body);
    assert.equal(form.get('pm'), 'svc_wallet_a');
    assert.equal(form.get('s2s'), 'true');
    assert.deepEqual(fromBase64Json(form.get('token')), walletAData);
  });

  test('wallet B posts pm, s2s and data (Base64 of the whole payload as UTF-8 JSON)', async () => {
    await v1.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload });
    const request = gateway.received[0]!;
    assert.equal(request.path, `/p/${ID}/`);
    assert.deepEqual(
      formFields(request.body).map(([name]) => name),
      ['pm', 's2s', 'data'],
    );
    const form = new URLSearchParams(request.body);
    assert.equal(form.get('pm'), 'svc_wallet_b');
    assert.equal(form.get('s2s'), 'true');
    assert.deepEqual(fromBase64Json(form.get('data')), walletBPayload);
  });

  test('posts beside /api/v1, whether the base URL names it or carries a path of its own', async () => {
    const withPrefix = createV1Client({ baseUrl: `${gateway.url}/api/v1/`, secretKey: 'k' });
    await withPrefix.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData });
    const underPath = createV1Client({ baseUrl: `${gateway.url}/gw/`, secretKey: 'k' });
    await underPath.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData });
    gateway.answer(() => ({ status: 200, body: purchase() }));
    await underPath.purchases.get(ID);
    const prefixedApi = createV1Client({ baseUrl: `${gateway.url}/gw/api/v1`, secretKey: 'k' });
    await prefixedApi.purchases.get(ID);
    gateway.answer(() => ({ status: 200, body: { status: 'ok' } }));
    await prefixedApi.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload });
    assert.deepEqual(
      gateway.received.map(({ path }) => path),
      [
        `/p/${ID}/`,
        `/gw/p/${ID}/`,
        `/gw/api/v1/purchases/${ID}/`,
        `/gw/api/v1/purchases/${ID}/`,
        `/gw/p/${ID}/`,
      ],
    );
  });

  test("reads wallet B's 3-D Secure answer as three_ds, and without a redirect as approved", async () => {
    gateway.answer(() => ({ status: 200, body: WALLET_B_ANSWER }));
    const challenged = await v1.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload });
    assert.deepEqual(challenged, {
      kind: 'three_ds',
      redirectUrl: 'https://gateway.example/3ds/abc',
      answer: WALLET_B_ANSWER,
    });

    const frictionless = {
      ...WALLET_B_ANSWER,
      response: { gatewayCode: 'APPROVED', threeDsRedirectUrl: null },
    };
    gateway.answer(() => ({ status: 200, body: frictionless }));
    const approved = await v1.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload });
    assert.deepEqual(approved, { kind: 'approved', answer: frictionless });
  });

  test('reads the failure answer as declined, with 400 or with 200', async () => {
    for (const status of [400, 200]) {
      gateway.answer(() => ({ status, body: WALLET_FAILURE }));
      const declined = await v1.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload });
      assert.deepEqual(
        declined,
        { kind: 'declined', gatewayCode: 'DECLINED', answer: WALLET_FAILURE },
        `${status}`,
      );
    }
  });

  test('other refusals reject as every call does', async () => {
    gateway.answer(() => ({
      status: 400,
      body: { __all__: { message: 'svc_wallet_a is not allowed for this Purchase', code: 'invalid' } },
    }));
    const refused = await failure(
      () => v1.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData }),
      'bad_request',
    );
    assert.equal(refused.errors[0]?.code, 'invalid');
    assert.match(refused.message, new RegExp(`^POST /p/${ID}/ answered 400: svc_wallet_a is not allowed`));

    gateway.answer(() => ({ status: 404, body: { __all__: { message: 'Not found.', code: 'not_found' } } }));
    await failure(
      () => v1.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData }),
      'not_found',
    );

    // The failure shape is an answer with 400 or 2xx only: a 5xx stays a server error.
    gateway.answer(() => ({ status: 502, body: WALLET_FAILURE }));
    await failure(
      () => v1.wallets.pay(ID, { method: 'svc_wallet_a', paymentData: walletAData }),
      'server_error',
    );
  });

  test('refuses a 2xx answer of none of the three shapes', async () => {
    const odd: unknown[] = [
      {},
      [],
      'ok',
      { status: 7 },
      { result: 'SUCCESS', status: 'x' },
      { ...WALLET_B_ANSWER, response: { gatewayCode: 'PENDING', threeDsRedirectUrl: '/3ds/abc' } },
      { ...WALLET_B_ANSWER, response: { gatewayCode: 'PENDING', threeDsRedirectUrl: 'javascript:alert(1)' } },
      { ...WALLET_B_ANSWER, response: { gatewayCode: 'PENDING' } },
      { ...WALLET_B_ANSWER, order: undefined },
      { error_response: { result: 'FAILURE' } },
    ];
    for (const body of odd) {
      gateway.answer(() => ({ status: 200, body }));
      const error = await failure(
        () => v1.wallets.pay(ID, { method: 'svc_wallet_b', payload: walletBPayload }),
        'invalid_response',
      );
      assert.match(error.message, /none of the wallet answers/, JSON.stringify(body));
    }
  });

  test('refuses a bad payment before sending', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const refusals: Array<[unknown, RegExp]> = [
      [undefined, /must be an object/],
      [
        { method: 'svc_wallet_c', payload: {} },
        /^method must be 'svc_wallet_a' or 'svc_wallet_b', not "svc_wallet_c"/,
      ],
      [{ method: 'svc_wallet_a', payload: walletAData }, /^paymentData must be .*not undefined/],
      [
        { method: 'svc_wallet_b', payload: JSON.stringify(walletBPayload) },
        /^payload .*JSON\.parse.*not a string/,
      ],
      [{ method: 'svc_wallet_b', payload: circular }, /^payload cannot be written as JSON/],
      [{ method: 'svc_wallet_a', paymentData: { amount: 10n } }, /^paymentData cannot be written as JSON/],
    ];
    for (const [payment, message] of refusals) {
      const error = await failure(() => v1.wallets.pay(ID, payment as never), 'invalid_request');
      assert.match(error.message, message);
    }
    await failure(
      () => v1.wallets.pay('', { method: 'svc_wallet_a', paymentData: walletAData }),
      'invalid_request',
    );
    await failure(
      () =>
        v1.wallets.pay(
          ID,
          { method: 'svc_wallet_a', paymentData: walletAData },
          { signal: AbortSignal.abort() },
        ),
      'aborted',
    );
    assert.deepEqual(gateway.received, [], 'nothing was sent');
  });
});
