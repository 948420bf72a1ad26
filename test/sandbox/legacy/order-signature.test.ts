// The sandbox's order signature check at intake, over real HTTP, with signatures made by node:crypto directly
// over text written out here by hand (issue 10): the official client's `%.3f` counts and the documentation's
// plain-count variant, each in the client's or (issue 20) the documentation's item field order, nothing else;
// `certificate-name` optional (any active certificate verifies an order
// that names none) and, when given, signed and the only certificate that may verify.
import assert from 'node:assert/strict';
import { sign } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { parseConfig } from '../../../src/sandbox/config.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { startSandbox } from '../../../src/sandbox/sandbox.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  tempDir,
  testConfigFile,
  WIDGETS,
  withLegacySandbox,
} from '../support.js';

/** Base64 SHA256withRSA of the text, by node:crypto alone. */
const rsa = (text: string, privateKeyPem: string) =>
  sign('sha256', Buffer.from(text, 'utf8'), privateKeyPem).toString('base64');

describe('sandbox: the order signature', () => {
  const legacy = withLegacySandbox();
  let sandbox: Sandbox;
  let counter = 0;

  before(() => {
    ({ sandbox } = legacy);
  });

  const post = (body: Record<string, unknown>) =>
    call(sandbox, 'POST', '/widget-api/v1/orders', { pageOrigin: PAGE_ORIGIN, ...body });

  /** The documentation's multi-item shape: one item with count and unit, one with tax rate and item id. */
  const multiItem = (orderId: string) => ({
    widgetId: WIDGETS.checkout,
    language: 'en',
    orderId,
    items: [
      { amount: '12.50', currency: 'EUR', label: 'Tea', count: 2, unit: 'PIECE' },
      { amount: '88.00', currency: 'EUR', label: 'Kettle', taxRate: '0.21', orderItemId: 'K-1' },
    ],
    shippingOptions: [{ id: 'courier', amount: '4.99', currency: 'EUR', taxRate: '0.21' }],
  });
  const text = (orderId: string, count: string, items = `12.50EURTea${count}PIECE88.00EURKettle0.21K-1`) =>
    `${WIDGETS.checkout}en${orderId}${items}courier4.99EUR`;

  test('takes the multi-item order signed with counts %.3f and with plain counts, without certificate-name', async () => {
    for (const count of ['2.000', '2']) {
      const orderId = `SIG-${++counter}`;
      const answer = await post({
        order: multiItem(orderId),
        signature: rsa(text(orderId, count), merchantKeys.main.privateKeyPem),
      });
      assert.equal(answer.status, 201, `count ${count}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body['total'], '113.00', 'tea 2 × 12.50 and the kettle, before shipping is chosen');
    }
  });

  test('an item with count, unit, tax rate and id: the client’s or the document’s order of fields, nothing else varies', async () => {
    const orderId = `SIG-${++counter}`;
    const order = {
      widgetId: WIDGETS.checkout,
      orderId,
      items: [
        {
          amount: '6.40',
          currency: 'EUR',
          label: 'Honey',
          count: 3,
          unit: 'PIECE',
          taxRate: '12',
          orderItemId: 'H-1',
        },
      ],
    };
    const head = `${WIDGETS.checkout}${orderId}6.40EURHoney`;
    const others = [
      `${head}12H-13PIECE`, // the document's order with values as given: the tax rate is still %.2f
      `${head}H-112.003.000PIECE`, // the item id before the tax rate
      `${head}12.00H-1PIECE3.000`, // the unit before the count
      `${head}3.0PIECE12.00H-1`, // another count format
      `${head}3.000PIECE12H-1`, // the tax rate as given, not %.2f
      `${head}3.000PIECE12.000H-1`,
      `${WIDGETS.checkout}${orderId}6.4EURHoney3.000PIECE12.00H-1`, // the amount as given
      `${WIDGETS.checkout}|${orderId}|6.40|EUR|Honey|3.000|PIECE|12.00|H-1`, // separators
    ];
    for (const other of others) {
      const answer = await post({ order, signature: rsa(other, merchantKeys.main.privateKeyPem) });
      assert.equal(answer.status, 401, other);
      assert.equal(answer.body['error'].code, 'signature_invalid', other);
    }
    // The client's order and the legacy document's (tax rate and item id before count and unit), each with
    // either count form (issue 20).
    for (const right of [
      `${head}3.000PIECE12.00H-1`,
      `${head}3PIECE12.00H-1`,
      `${head}12.00H-13.000PIECE`,
      `${head}12.00H-13PIECE`,
    ]) {
      const answer = await post({ order, signature: rsa(right, merchantKeys.main.privateKeyPem) });
      assert.equal(answer.status, 201, right);
    }
  });

  test('without certificate-name, any active certificate verifies; a revoked one does not', async () => {
    const signed = (privateKeyPem: string) => {
      const orderId = `SIG-${++counter}`;
      return post({ order: multiItem(orderId), signature: rsa(text(orderId, '2.000'), privateKeyPem) });
    };
    assert.equal((await signed(merchantKeys.main.privateKeyPem)).status, 201, 'main (a public key)');
    assert.equal((await signed(merchantKeys.cert.privateKeyPem)).status, 201, 'cert (an X.509 certificate)');
    const revoked = await signed(merchantKeys.old.privateKeyPem);
    assert.equal(revoked.status, 401);
    assert.equal(revoked.body['error'].code, 'signature_invalid');
    assert.match(revoked.body['error'].message, /an active certificate/);
  });

  test('with certificate-name, the name is signed after the language, and only that certificate verifies', async () => {
    const orderId = `SIG-${++counter}`;
    const order = { ...multiItem(orderId), certificateName: 'cert' };
    const named = `${WIDGETS.checkout}encert${text(orderId, '2.000').slice(`${WIDGETS.checkout}en`.length)}`;
    const refusals = [
      // The certificate name left out of the signed text: what the page gives is signed.
      rsa(text(orderId, '2.000'), merchantKeys.cert.privateKeyPem),
      // Another active certificate's key: only the named one may verify.
      rsa(named, merchantKeys.main.privateKeyPem),
    ];
    for (const signature of refusals) {
      const answer = await post({ order, signature });
      assert.equal(answer.status, 401);
      assert.equal(answer.body['error'].code, 'signature_invalid');
    }
    const taken = await post({ order, signature: rsa(named, merchantKeys.cert.privateKeyPem) });
    assert.equal(taken.status, 201, JSON.stringify(taken.body));
    const plain = `${WIDGETS.checkout}encert${text(orderId, '2').slice(`${WIDGETS.checkout}en`.length)}`;
    const again = await post({ order, signature: rsa(plain, merchantKeys.cert.privateKeyPem) });
    assert.equal(again.status, 201, 'the plain-count variant, with the name');
  });

  test('a certificate name beside the order (an API client’s) is signed as the page’s; two different ones are refused', async () => {
    const orderId = `SIG-${++counter}`;
    const named = `${WIDGETS.checkout}enmain${text(orderId, '2.000').slice(`${WIDGETS.checkout}en`.length)}`;
    const signature = rsa(named, merchantKeys.main.privateKeyPem);
    const beside = await post({ order: multiItem(orderId), signature, certificateName: 'main' });
    assert.equal(beside.status, 201, JSON.stringify(beside.body));
    const both = await post({
      order: { ...multiItem(orderId), certificateName: 'main' },
      signature,
      certificateName: 'cert',
    });
    assert.equal(both.status, 400);
    assert.equal(both.body['error'].code, 'invalid_order');
    assert.equal(both.body['error'].field, 'order.certificateName');
  });

  test('the success redirect URL is signed, after the certificate name and before the back URL', async () => {
    const orderId = `SIG-${++counter}`;
    const order = {
      ...multiItem(orderId),
      certificateName: 'main',
      successRedirectUrl: 'https://shop.example/thanks',
      backToMerchantUrl: 'https://shop.example/cart',
    };
    const rest = text(orderId, '2.000').slice(`${WIDGETS.checkout}en`.length);
    const signed = `${WIDGETS.checkout}enmainhttps://shop.example/thankshttps://shop.example/cart${rest}`;
    const signature = rsa(signed, merchantKeys.main.privateKeyPem);
    const changed = await post({
      order: { ...order, successRedirectUrl: 'https://evil.example/' },
      signature,
    });
    assert.equal(changed.status, 401);
    assert.equal(changed.body['error'].code, 'signature_invalid');
    const relative = await post({ order: { ...order, successRedirectUrl: '/thanks' }, signature });
    assert.equal(relative.status, 400);
    assert.equal(relative.body['error'].field, 'order.successRedirectUrl');
    assert.equal((await post({ order, signature })).status, 201);
  });

  test('hostile certificate names are answered 4xx, never tried as another certificate or a 5xx', async () => {
    const orderId = `SIG-${++counter}`;
    const signature = rsa(text(orderId, '2.000'), merchantKeys.main.privateKeyPem);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ order: { ...multiItem(orderId), certificateName: 7 } }, 400, 'invalid_order'],
      [{ order: { ...multiItem(orderId), certificateName: { name: 'main' } } }, 400, 'invalid_order'],
      [{ order: { ...multiItem(orderId), certificateName: 'x'.repeat(10_000) } }, 400, 'invalid_order'],
      [{ order: multiItem(orderId), certificateName: ['main'] }, 400, 'invalid_request'],
      [{ order: { ...multiItem(orderId), certificateName: '__proto__' } }, 401, 'unknown_certificate'],
      [{ order: { ...multiItem(orderId), certificateName: 'old' } }, 401, 'certificate_revoked'],
    ];
    for (const [body, status, code] of cases) {
      const answer = await post({ ...body, signature });
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body['error'].code, code);
    }
  });

  test('the constraints are signed: payment scheme, issuer, brand, last', async () => {
    const orderId = `SIG-${++counter}`;
    const order = { ...multiItem(orderId), constraints: { brand: 'VISA_CLASSIC', paymentScheme: 'VISA' } };
    const signature = rsa(`${text(orderId, '2.000')}VISAVISA_CLASSIC`, merchantKeys.main.privateKeyPem);
    const loosened = await post({ order: { ...order, constraints: { paymentScheme: 'VISA' } }, signature });
    assert.equal(loosened.status, 401, 'a page that drops a constraint');
    assert.equal((await post({ order, signature })).status, 201);
  });
});

describe('sandbox: an order without certificate-name when the merchant has no active certificate', () => {
  test('is refused with certificate_missing, which says what to do', async () => {
    const merchant = await FakeMerchant.start();
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.certificates = [{ name: 'old', pem: merchantKeys.old.publicKeyPem, revoked: true }];
    const sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
    try {
      const order = { widgetId: WIDGETS.checkout, items: [{ amount: '1.00', label: 'Tea' }] };
      const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', {
        order,
        signature: rsa(`${WIDGETS.checkout}1.00Tea`, merchantKeys.old.privateKeyPem),
      });
      assert.equal(answer.status, 401);
      assert.equal(answer.body['error'].code, 'certificate_missing');
      assert.equal(answer.body['error'].field, 'certificateName');
      assert.match(answer.body['error'].message, /no active certificate/);
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });
});
