import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { createMerchantApiV2Client, MerchantApiError, signOrder } from '../../../src/server/index.js';
import {
  API_KEY,
  call,
  handSignedV2Request,
  merchantKeys,
  paidOrder,
  WIDGETS,
  withLegacySandbox,
} from '../support.js';

describe('sandbox merchant API v2', () => {
  const legacy = withLegacySandbox();
  let sandbox: Sandbox;
  let orderId: string;

  before(async () => {
    ({ sandbox } = legacy);
    orderId = await paidOrder(sandbox, 'API-1');
  });

  const client = (overrides: Partial<Parameters<typeof createMerchantApiV2Client>[0]> = {}) =>
    createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
      ...overrides,
    });

  test('reads an order by the gateway id or the merchant id, with every algorithm', async () => {
    for (const algorithm of ['rsa-sha256', 'rsa-sha384', 'rsa-sh512'] as const) {
      const order = await client({ algorithm }).getOrder(orderId);
      assert.equal(order.status, 'PAID');
      assert.equal(order.total_amount, 20);
    }
    assert.equal((await client().getOrder('API-1')).id, orderId);
    // The typed client reads the real service's order model: numbers, the card's first six digits, and the
    // company, which this merchant's config leaves out: its name, and nulls.
    const paid = await client().getOrder(orderId);
    assert.deepEqual(paid.company, {
      name: 'Test Merchant',
      address: null,
      registration_number: null,
      vat_number: null,
    });
    assert.deepEqual(
      [paid.payment?.method, paid.payment?.card, paid.payment?.error],
      ['CARD', { bin: '411111' }, null],
    );
    assert.deepEqual(paid.items, [
      {
        amount: 16.53,
        label: 'Lamp',
        tax_amount: 3.47,
        total_amount: 20,
        tax_rate: 0.21,
        order_item_id: null,
        quantity: 1,
        unit: 'PIECE',
        type: 'UNKNOWN',
      },
    ]);
    const open = {
      widgetId: WIDGETS.checkout,
      orderId: 'API-OPEN',
      items: [{ amount: '1.00', label: 'Clip' }],
    };
    await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: open,
      signature: signOrder(open, merchantKeys.main.privateKeyPem),
    });
    const pending = await client().getOrder('API-OPEN');
    assert.equal(pending.status, 'PENDING');
    assert.equal(pending.refundable_amount, 0);
    await assert.rejects(
      client().getOrder('missing'),
      (e: unknown) => e instanceof MerchantApiError && e.code === 'not_found',
    );
  });

  test('shows the latest outcome: FAILED after a decline and while another card is in 3-D Secure, then PAID', async () => {
    const input = {
      widgetId: WIDGETS.checkout,
      orderId: 'API-RETRY',
      items: [{ amount: '20.00', label: 'Lamp' }],
    };
    const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
    });
    const id = created.body['id'] as string;
    const pay = (idempotencyKey: string, number: string) =>
      call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
        idempotencyKey,
        card: { number, expiry: '12/34', cvc: '123', holder: 'T' },
      });
    const status = async () => {
      const order = await client().getOrder('API-RETRY');
      return [order.status, order.refundable_amount, order.paid_at === null ? 'unpaid' : 'paid'];
    };
    assert.deepEqual(await status(), ['PENDING', 0, 'unpaid']);
    assert.equal((await pay('retry-1', '4000000000000002')).body['state'], 'FAILED');
    assert.deepEqual(await status(), ['FAILED', 0, 'unpaid']);
    const challenge = await pay('retry-2', '4000000000003220');
    assert.equal(challenge.body['state'], 'CHALLENGE');
    // The merchant was told FAILED; nothing has ended since, so the API says the same.
    assert.deepEqual(await status(), ['FAILED', 0, 'unpaid']);
    await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/challenges/${challenge.body['challengeId']}`, {
      approve: false,
    });
    assert.deepEqual(await status(), ['FAILED', 0, 'unpaid']);
    assert.equal((await pay('retry-3', '4111111111111111')).body['state'], 'PAID');
    assert.deepEqual(await status(), ['PAID', 20, 'paid']);
    await assert.rejects(
      client().refund('API-RETRY', { amount: '20.01', reason: 'OTHER_REFUND', note: '' }),
      (e: unknown) => e instanceof MerchantApiError && e.status === 409,
    );
  });

  test('refunds never exceed what was paid and change the order state', async () => {
    const partial = await client().refund(orderId, {
      amount: '5.00',
      reason: 'OTHER_REFUND',
      note: 'scratched',
    });
    assert.equal(partial.amount, '5.00');
    assert.equal(partial.order?.status, 'PARTIALLY_REFUNDED');
    assert.equal(partial.order?.refundable_amount, 15);
    await assert.rejects(
      client().refund(orderId, { amount: '15.01', reason: 'OTHER_REFUND', note: '' }),
      (e: unknown) => e instanceof MerchantApiError && e.status === 409,
    );
    const rest = await client({ algorithm: 'rsa-sha384' }).refund(orderId, {
      amount: 15,
      reason: 'OTHER_REFUND',
      note: '',
    });
    assert.equal(rest.order?.status, 'REFUNDED');
    assert.equal((await client().getOrder(orderId)).refundable_amount, 0);
  });

  test('refuses bad keys, API keys, digests, dates and missing signatures with a clear 401', async () => {
    await assert.rejects(
      client({ privateKeyPem: merchantKeys.cert.privateKeyPem }).getOrder(orderId),
      (e: unknown) => e instanceof MerchantApiError && e.status === 401 && /signature/i.test(e.message),
    );
    await assert.rejects(
      client({ apiKey: 'nope' }).getOrder(orderId),
      (e: unknown) => e instanceof MerchantApiError && e.status === 401,
    );
    await assert.rejects(
      client({ certificateName: 'old', privateKeyPem: merchantKeys.old.privateKeyPem }).getOrder(orderId),
      (e: unknown) => e instanceof MerchantApiError && e.status === 401,
    );

    const path = `/v2/merchants/m1/orders/${orderId}/refunds`;
    const body = JSON.stringify({ refundRequest: { amount: 1, reason: 'OTHER_REFUND', note: '' } });
    const handMade = (date: string, digestOf: string) =>
      handSignedV2Request(sandbox, { method: 'POST', path, body, date, digestOf })();
    const stale = await handMade(new Date(Date.now() - 3_600_000).toUTCString(), body);
    assert.equal(stale.status, 401);
    assert.equal(((await stale.json()) as { error: { code: string } }).error.code, 'date_skew');
    const tampered = await handMade(new Date().toUTCString(), `${body} `);
    assert.equal(((await tampered.json()) as { error: { code: string } }).error.code, 'digest_mismatch');
    // A correct hand-made request gets past authentication (the order is refunded in full by now: 409).
    assert.equal((await handMade(new Date().toUTCString(), body)).status, 409);
    const unsigned = await fetch(`${sandbox.url}/v2/merchants/m1/orders/${orderId}`, {
      headers: { 'x-svc-api-key': API_KEY },
    });
    assert.equal(unsigned.status, 401);
    assert.equal(
      ((await unsigned.json()) as { error: { code: string } }).error.code,
      'missing_authorization',
    );
  });
});
