/**
 * The legacy widget API taking orders over HTTP: widget configuration, orders signed by us, by an independent
 * implementation and by jsrsasign over the legacy document's field order, the orders it refuses, fixed-price
 * widgets, and CALLBACK widgets asking the merchant to approve.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import jsrsasign from 'jsrsasign';
import { type OrderInput, orderSignatureInput } from '../../../src/core/index.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder, verifyOrderVerificationToken } from '../../../src/server/index.js';
import {
  call,
  legacyCard as card,
  type FakeMerchant,
  merchantKeys,
  WIDGETS,
  withLegacySandbox,
} from '../support.js';

describe('sandbox legacy widget API over HTTP: taking orders', () => {
  const legacy = withLegacySandbox();
  const { key, order, create, notificationFor } = legacy;
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => {
    ({ merchant, sandbox } = legacy);
  });

  test('serves widget configuration and refuses unknown widgets', async () => {
    const { status, body } = await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.instant}`);
    assert.equal(status, 200);
    assert.equal(body['type'], 'INSTANT');
    assert.equal(body['fixedOrder'].total, '15.00');
    const unknown = await call(sandbox, 'GET', '/widget-api/v1/widgets/nope');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['error'].code, 'unknown_widget');
  });

  test('takes an order signed by us, and one signed by an independent implementation', async () => {
    const ours = await create(order());
    assert.equal(ours.status, 201, JSON.stringify(ours.body));
    assert.equal(ours.body['total'], '25.00');
    assert.equal(ours.body['tax'], '4.34');

    const input = order({
      certificateName: 'cert',
      items: [{ amount: 3, label: 'Salt', count: '1.5', unit: 'KILOGRAM' }],
    });
    const signer = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
    signer.init(merchantKeys.cert.privateKeyPem);
    signer.updateString(orderSignatureInput(input));
    const independent = jsrsasign.hextob64(signer.sign());
    const theirs = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: independent,
    });
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));

    // The documentation's worked example writes counts as given (1.5, not 1.500); accepted too.
    const plainInput = { ...input, orderId: `${input.orderId}-plain` };
    const plain = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
    plain.init(merchantKeys.cert.privateKeyPem);
    plain.updateString(orderSignatureInput(plainInput, { countForm: 'as-given' }));
    const plainTaken = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: plainInput,
      signature: jsrsasign.hextob64(plain.sign()),
    });
    assert.equal(plainTaken.status, 201, JSON.stringify(plainTaken.body));
  });

  test("takes a jsrsasign signature over the legacy document's field order, and no other order", async () => {
    // Items with both a count or unit and a tax rate or item id: there the document's order (tax rate, item
    // id, count, unit) and the official client's (count, unit, tax rate, item id) write different texts.
    const items: OrderInput['items'] = [
      {
        amount: '12.50',
        currency: 'EUR',
        label: 'Tea',
        count: 2,
        unit: 'PIECE',
        taxRate: 21,
        orderItemId: 'T-1',
      },
      { amount: 3, label: 'Salt', count: '1.5', unit: 'KILOGRAM', orderItemId: 'S-1' },
    ];
    const jsrsasignSignature = (text: string) => {
      const signer = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
      signer.init(merchantKeys.cert.privateKeyPem);
      signer.updateString(text);
      return jsrsasign.hextob64(signer.sign());
    };
    /** Sends a new order (an order id is taken once) signed over its head and then `itemsText`. */
    const send = (itemsText: string) => {
      const input = order({ certificateName: 'cert', items });
      const text = `${WIDGETS.checkout}encert${input.orderId}${itemsText}`;
      return call(sandbox, 'POST', '/widget-api/v1/orders', {
        order: input,
        signature: jsrsasignSignature(text),
      });
    };
    // Written by hand from the document: amount, currency, label, tax rate, item id, count, unit; counts with
    // three decimals (its input diagram) or as given (its worked example).
    for (const itemsText of [
      '12.50EURTea21.00T-12.000PIECE' + '3.00SaltS-11.500KILOGRAM',
      '12.50EURTea21.00T-12PIECE' + '3.00SaltS-11.5KILOGRAM',
    ]) {
      const taken = await send(itemsText);
      assert.equal(taken.status, 201, `${itemsText}: ${JSON.stringify(taken.body)}`);
    }
    // Nothing else: unit before count, item id before tax rate, tax rate and item id swapped in the client's
    // order, the two orders mixed in one signature, a field left out.
    for (const itemsText of [
      '12.50EURTea21.00T-1PIECE2.000' + '3.00SaltS-1KILOGRAM1.500',
      '12.50EURTeaT-121.002.000PIECE' + '3.00SaltS-11.500KILOGRAM',
      '12.50EURTea2.000PIECET-121.00' + '3.00Salt1.500KILOGRAMS-1',
      '12.50EURTea21.00T-12.000PIECE' + '3.00Salt1.500KILOGRAMS-1',
      '12.50EURTea21.00T-12.000' + '3.00SaltS-11.500KILOGRAM',
    ]) {
      const refused = await send(itemsText);
      assert.equal(refused.status, 401, itemsText);
      assert.equal(refused.body['error'].code, 'signature_invalid', itemsText);
    }
  });

  test('refuses unsigned, tampered, revoked, unknown-certificate and wrong-origin orders', async () => {
    const input = order();
    const cases: Array<[unknown, number, string]> = [
      [{ order: input }, 401, 'signature_missing'],
      [
        {
          order: { ...input, items: [{ ...input.items[0]!, amount: '1.00' }] },
          signature: signOrder(input, merchantKeys.main.privateKeyPem),
          certificateName: 'main',
        },
        401,
        'signature_invalid',
      ],
      [
        { order: input, signature: signOrder(input, merchantKeys.old.privateKeyPem), certificateName: 'old' },
        401,
        'certificate_revoked',
      ],
      [
        {
          order: input,
          signature: signOrder(input, merchantKeys.main.privateKeyPem),
          certificateName: 'other',
        },
        401,
        'unknown_certificate',
      ],
      [
        {
          order: input,
          signature: signOrder(input, merchantKeys.main.privateKeyPem),
          certificateName: 'main',
          pageOrigin: 'https://evil.example',
        },
        403,
        'origin_not_allowed',
      ],
      [{ order: { ...input, items: [{ amount: '1.005', label: 'X' }] } }, 400, 'invalid_order'],
      [{ order: { ...input, items: [] } }, 400, 'invalid_order'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', body);
      assert.equal(answer.status, status, `${code}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body['error'].code, code);
    }
    const malformed = await fetch(`${sandbox.url}/widget-api/v1/orders`, {
      method: 'POST',
      body: '{"order":',
    });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: { code: string } }).error.code, 'malformed_json');
  });

  test('a fixed-price widget takes its order from the gateway', async () => {
    const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: { widgetId: WIDGETS.instant, items: [] },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body['total'], '15.00');
    const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${created.body['id']}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
    });
    assert.equal(paid.body['state'], 'PAID');
    const notification = await notificationFor(created.body['id']);
    assert.equal(notification.total_amount, 15);
    assert.equal(notification.items[0]?.label, 'Fixed T-shirt');
    // The merchant's default rate, 21 in the config, is written as the fraction.
    assert.equal(notification.items[0]?.tax_rate, 0.21);
  });

  test('CALLBACK widgets ask the merchant to approve with a signed token', async () => {
    merchant.respond('/verify-order', (request) => {
      const payload = verifyOrderVerificationToken(request.body, sandbox.serviceCertificatePem);
      return { status: 200, body: JSON.stringify({ approved: payload.externalOrderId !== 'REJECT-ME' }) };
    });
    const approved = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: order({ widgetId: WIDGETS.callback, orderId: 'OK-1' }),
    });
    assert.equal(approved.status, 201, JSON.stringify(approved.body));
    const token = merchant.requests('/verify-order').at(-1)!;
    const payload = verifyOrderVerificationToken(token.body, sandbox.serviceCertificatePem);
    assert.equal(payload.orderId, approved.body['id']);
    assert.equal(payload.externalOrderId, 'OK-1');
    const rejected = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: order({ widgetId: WIDGETS.callback, orderId: 'REJECT-ME' }),
    });
    assert.equal(rejected.status, 403);
    assert.equal(rejected.body['error'].code, 'order_rejected');
  });
});
