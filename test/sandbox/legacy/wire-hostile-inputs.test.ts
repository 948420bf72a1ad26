/**
 * What a hostile tester found in issue 10's additions, each against a real sandbox over real HTTP: a refund
 * body in both forms at once, a JWS decision whose time claim is no number, a count written with a leading
 * zero as the official client signs it, a certificate name beside the order that the order itself would not
 * be allowed, and a widget that lists a card scheme twice. Requests are written by hand and signed by
 * jsrsasign or node:crypto, never by the toolkit.
 */
import assert from 'node:assert/strict';
import { createSign } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../../../src/sandbox/config.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { orderSignatureInput } from '../../../src/server/index.js';
import {
  API_KEY,
  call,
  type FakeMerchant,
  merchantKeys,
  paidOrder,
  testConfigFile,
  WIDGETS,
  withLegacySandbox,
} from '../support.js';
import { officialJws, rawExchange, signedHead } from './official-client.js';

describe('issue 10 under a hostile tester', () => {
  const legacy = withLegacySandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => {
    ({ merchant, sandbox } = legacy);
  });

  const refund = (orderId: string, body: string) =>
    rawExchange(
      sandbox.port,
      signedHead(sandbox.port, {
        method: 'POST',
        path: `/v2/merchants/m1/orders/${orderId}/refunds`,
        body,
        keyId: 'main',
        privateKeyPem: merchantKeys.main.privateKeyPem,
      }),
      body,
    );
  const error = (answer: { body: Record<string, unknown> }) =>
    answer.body['error'] as { code: string; message: string; field?: string };

  test('a refund body in both forms at once is refused, naming both, and refunds nothing', async () => {
    const orderId = await paidOrder(sandbox, 'HOSTILE-BOTH');
    // Which amount is meant, 1.00 or 20.00? Taking either one silently refunds what nobody asked for.
    const both = await refund(
      orderId,
      '{"refundRequest":{"amount":1,"reason":"OTHER_REFUND"},"amount":20,"reason":"RETURNED_PRODUCT"}',
    );
    assert.equal(both.status, 400, JSON.stringify(both.body));
    assert.equal(error(both).code, 'invalid_request');
    assert.match(error(both).message, /refundRequest/);
    assert.match(error(both).message, /amount, reason/);
    const wrappedWithNote = await refund(
      orderId,
      '{"refundRequest":{"amount":1,"reason":"OTHER_REFUND"},"note":"x"}',
    );
    assert.equal(wrappedWithNote.status, 400, JSON.stringify(wrappedWithNote.body));
    // Nothing was refunded: the whole 20.00 still is.
    const whole = await refund(orderId, '{"amount":20,"reason":"OTHER_REFUND"}');
    assert.equal(whole.status, 201, JSON.stringify(whole.body));
    assert.equal(whole.body['totalRefundedAmount'], 20);
  });

  test('a refund without an amount says the amount is required, not that "undefined" is no amount', async () => {
    const orderId = await paidOrder(sandbox, 'HOSTILE-NO-AMOUNT');
    const answer = await refund(orderId, '{"refundRequest":{"reason":"OTHER_REFUND"}}');
    assert.equal(answer.status, 400);
    assert.deepEqual(
      { code: error(answer).code, field: error(answer).field },
      { code: 'invalid_amount', field: 'refundRequest.amount' },
    );
    assert.doesNotMatch(error(answer).message, /undefined/);
    assert.match(error(answer).message, /required/);
  });

  test('a JWS decision whose exp, nbf or iat is no number is refused, not taken as having none', async () => {
    merchant.respond('/verify-order', () => ({ status: 200, body: '' })); // no decision: merchant API v2 decides
    const intake = call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: {
        widgetId: WIDGETS.callback,
        orderId: 'HOSTILE-EXP',
        items: [{ amount: '3.00', label: 'Cup' }],
      },
    });
    const [asked] = await merchant.waitFor('/verify-order', 1);
    const id = JSON.parse(Buffer.from(asked!.body.split('.')[1]!, 'base64url').toString()).orderId as string;
    const decide = (payload: object) =>
      rawExchange(
        sandbox.port,
        [
          `PUT /v2/merchants/m1/orders/${id} HTTP/1.1`,
          `Host: 127.0.0.1:${sandbox.port}`,
          'Content-Type: application/json',
          `X-Svc-Api-Key: ${API_KEY}`,
        ].join('\r\n'),
        officialJws(payload, 'main', merchantKeys.main.privateKeyPem),
      );
    // jsrsasign skips a time claim that is not a number: an approval that expired in 1970 would pass.
    for (const claim of ['exp', 'nbf', 'iat']) {
      const odd = await decide({ id, [claim]: '1' });
      assert.equal(odd.status, 401, `${claim}: ${JSON.stringify(odd.body)}`);
      assert.equal(error(odd).code, 'signature_invalid', claim);
    }
    const good = await decide({ id });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    assert.equal((await intake).status, 201);
  });

  test('a count written with a leading zero verifies as the official client signs it (%.3f: 2.000)', async () => {
    const order = {
      widgetId: WIDGETS.checkout,
      orderId: 'HOSTILE-COUNT',
      items: [{ amount: '6.40', label: 'Tea', count: '02' }],
    };
    // PHP's sprintf('%.3f', '02') is 2.000; the leading zero is no part of the number.
    const signed = `${WIDGETS.checkout}HOSTILE-COUNT6.40Tea2.000`;
    assert.equal(orderSignatureInput(order), signed, 'signOrder signs what the official client signs');
    const signature = createSign('RSA-SHA256').update(signed).sign(merchantKeys.main.privateKeyPem, 'base64');
    const taken = await call(sandbox, 'POST', '/widget-api/v1/orders', { order, signature });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    assert.equal(taken.body['total'], '12.80');
  });

  test('a certificate name given beside the order is held to the order’s own rules', async () => {
    const order = { widgetId: WIDGETS.checkout, items: [{ amount: '1.00', label: 'X' }] };
    for (const [name, rule] of [
      ['n'.repeat(256), /at most 255/],
      ['   ', /blank/],
    ] as const) {
      const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', {
        order,
        signature: 'AAAA',
        certificateName: name,
      });
      assert.equal(answer.status, 400, JSON.stringify(answer.body).slice(0, 300));
      assert.equal(answer.body['error'].field, 'certificateName');
      assert.match(answer.body['error'].message, rule);
      // The answer does not echo a name of any length back.
      assert.ok(JSON.stringify(answer.body).length < 400);
    }
  });

  test('a widget that lists a card scheme twice is refused at start, naming the entry', () => {
    const file = testConfigFile('http://127.0.0.1:1');
    file.merchants[0]!.widgets![1] = {
      ...file.merchants[0]!.widgets![1]!,
      cardSchemes: ['VISA', 'AMEX', 'VISA'],
    };
    assert.throws(
      () => parseConfig(file),
      (thrown: unknown) =>
        thrown instanceof ConfigError &&
        /merchants\[0\]\.widgets\[1\]\.cardSchemes\[2\]: VISA is listed twice/.test(thrown.message),
    );
  });
});
