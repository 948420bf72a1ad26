import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jsrsasign from 'jsrsasign';
import { type OrderInput, orderSignatureInput } from '../../src/core/index.js';
import type { PurchaseNotification } from '../../src/core/legacy-callbacks.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import { signOrder, verifyOrderVerificationToken, verifySignature } from '../../src/server/index.js';
import { call, FakeMerchant, merchantKeys, PAGE_ORIGIN, startTestSandbox, WIDGETS } from './support.js';

const card = (number: string) => ({ number, expiry: '12/34', cvc: '123', holder: 'Test Person' });
let counter = 0;
const key = () => `k-${++counter}`;

describe('sandbox legacy widget API over HTTP', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startTestSandbox(merchant);
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  function order(overrides: Partial<OrderInput> = {}): OrderInput {
    return {
      widgetId: WIDGETS.checkout,
      language: 'en',
      orderId: `A-${++counter}`,
      items: [{ amount: '12.50', currency: 'EUR', label: 'Tea', count: 2, taxRate: 21 }],
      ...overrides,
    };
  }

  async function create(
    input: OrderInput,
    certificateName = 'main',
    privateKeyPem = merchantKeys.main.privateKeyPem,
  ) {
    return call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, privateKeyPem),
      certificateName,
      pageOrigin: PAGE_ORIGIN,
    });
  }

  async function notificationFor(id: string): Promise<PurchaseNotification> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const found = merchant
        .requests('/notify')
        .find((r) => (JSON.parse(r.body) as PurchaseNotification).id === id);
      if (found) {
        assert.equal(found.method, 'PUT');
        const signature = found.headers['x-svc-signature'];
        assert.equal(typeof signature, 'string');
        assert.ok(
          verifySignature(found.body, signature as string, sandbox.serviceCertificatePem),
          'notification signature',
        );
        return JSON.parse(found.body) as PurchaseNotification;
      }
      if (Date.now() > deadline) throw new Error(`no notification for ${id}`);
      await merchant.waitFor('/notify', merchant.requests('/notify').length + 1, 5000).catch(() => {});
    }
  }

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

    const input = order({ items: [{ amount: 3, label: 'Salt', count: '1.5', unit: 'KILOGRAM' }] });
    const signer = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
    signer.init(merchantKeys.cert.privateKeyPem);
    signer.updateString(orderSignatureInput(input));
    const independent = jsrsasign.hextob64(signer.sign());
    const theirs = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: independent,
      certificateName: 'cert',
    });
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));

    // The document's prose writes counts with 3 decimals; such signatures are accepted too.
    const prose = new jsrsasign.KJUR.crypto.Signature({ alg: 'SHA256withRSA' });
    prose.init(merchantKeys.main.privateKeyPem);
    prose.updateString(orderSignatureInput(input, { countForm: 'three-decimals' }));
    const proseSigned = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: jsrsasign.hextob64(prose.sign()),
      certificateName: 'main',
    });
    assert.equal(proseSigned.status, 201, JSON.stringify(proseSigned.body));
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
    assert.equal(notification.total_amount, '15.00');
    assert.equal(notification.items[0]?.label, 'Fixed T-shirt');
    assert.equal(notification.items[0]?.tax_rate, '21');
  });

  test('every test card gives its outcome, and final states notify the merchant once', async () => {
    const outcomes: Array<[string, string, string | undefined]> = [
      ['4111111111111111', 'PAID', undefined],
      ['5555555555554444', 'PAID', undefined],
      ['4000000000000002', 'FAILED', 'card_declined'],
      ['4000000000009995', 'FAILED', 'insufficient_funds'],
    ];
    for (const [number, state, code] of outcomes) {
      const { body: created } = await create(order());
      const { body } = await call(sandbox, 'POST', `/widget-api/v1/orders/${created['id']}/payments`, {
        idempotencyKey: key(),
        card: card(number),
      });
      assert.equal(body['state'], state, number);
      if (code) assert.equal(body['error'].code, code);
      const notification = await notificationFor(created['id']);
      assert.equal(notification.status, state);
      assert.equal(notification.order_id, created['orderId']);
      assert.equal(notification.total_amount, '25.00');
      assert.equal(notification.effective_amount, state === 'PAID' ? '25.00' : '0.00');
      if (code) assert.equal(notification.payment.error?.code, code);
      assert.equal(JSON.stringify(notification).includes(number), false, 'no card number in notifications');
    }
  });

  test('3-D Secure challenge: approve pays, deny fails', async () => {
    for (const approve of [true, false]) {
      const { body: created } = await create(order());
      const started = await call(sandbox, 'POST', `/widget-api/v1/orders/${created['id']}/payments`, {
        idempotencyKey: key(),
        card: card('4000000000003220'),
      });
      assert.equal(started.body['state'], 'CHALLENGE');
      const path = `/widget-api/v1/orders/${created['id']}/challenges/${started.body['challengeId']}`;
      const done = await call(sandbox, 'POST', path, { approve });
      assert.equal(done.body['state'], approve ? 'PAID' : 'FAILED');
      if (!approve) assert.equal(done.body['error'].code, 'authentication_failed');
      assert.equal((await notificationFor(created['id'])).status, approve ? 'PAID' : 'FAILED');
    }
  });

  test('a processing error can be retried; repeated requests never charge twice', async () => {
    const { body: created } = await create(order());
    const path = `/widget-api/v1/orders/${created['id']}/payments`;
    const failed = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: card('4000000000000119'),
    });
    assert.equal(failed.body['state'], 'RETRY');
    assert.equal(failed.body['error'].code, 'processing_error');
    const status = await call(sandbox, 'GET', `/widget-api/v1/orders/${created['id']}`);
    assert.equal(status.body['state'], 'CREATED');

    const idempotencyKey = key();
    const [first, second] = await Promise.all([
      call(sandbox, 'POST', path, { idempotencyKey, card: card('4111111111111111') }),
      call(sandbox, 'POST', path, { idempotencyKey, card: card('4111111111111111') }),
    ]);
    assert.equal(first.body['state'], 'PAID');
    assert.equal(second.body['state'], 'PAID');
    const again = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: card('5555555555554444'),
    });
    assert.equal(again.body['state'], 'PAID');
    await notificationFor(created['id']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const notifications = merchant
      .requests('/notify')
      .filter((r) => (JSON.parse(r.body) as PurchaseNotification).id === created['id']);
    assert.equal(notifications.length, 1);
  });

  test('card checks and constraints refuse before any charge', async () => {
    const { body: created } = await create(order({ constraints: { paymentScheme: 'VISA' } }));
    const path = `/widget-api/v1/orders/${created['id']}/payments`;
    const master = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: card('5555555555554444'),
    });
    assert.equal(master.status, 400);
    assert.equal(master.body['error'].code, 'card_not_accepted');
    assert.match(master.body['error'].message, /VISA/);
    const badLuhn = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: card('4111111111111112'),
    });
    assert.equal(badLuhn.body['error'].field, 'card.number');
    const expired = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: { ...card('4111111111111111'), expiry: '01/20' },
    });
    assert.equal(expired.body['error'].code, 'expiry_expired');
    const unknown = await call(sandbox, 'POST', path, {
      idempotencyKey: key(),
      card: card('4242424242424242'),
    });
    assert.equal(unknown.body['error'].code, 'unknown_test_card');

    const { body: issuerOrder } = await create(order({ constraints: { issuer: 'Nordic Bank' } }));
    const issuerPath = `/widget-api/v1/orders/${issuerOrder['id']}/payments`;
    const wrongIssuer = await call(sandbox, 'POST', issuerPath, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
    });
    assert.equal(wrongIssuer.body['error'].code, 'card_not_accepted');
    const rightIssuer = await call(sandbox, 'POST', issuerPath, {
      idempotencyKey: key(),
      card: card('4000056655665556'),
    });
    assert.equal(rightIssuer.body['state'], 'PAID');

    const { body: brandOrder } = await create(order({ constraints: { brand: 'debit mastercard' } }));
    const brandPath = `/widget-api/v1/orders/${brandOrder['id']}/payments`;
    assert.equal(
      (await call(sandbox, 'POST', brandPath, { idempotencyKey: key(), card: card('5555555555554444') }))
        .body['error'].code,
      'card_not_accepted',
    );
    assert.equal(
      (await call(sandbox, 'POST', brandPath, { idempotencyKey: key(), card: card('5200828282828210') }))
        .body['state'],
      'PAID',
    );
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

  test('full checkout: shipping priced by the merchant, customer and pickup point in the notification', async () => {
    merchant.respond('/shipping-cost', (request) => {
      assert.ok(
        verifySignature(
          request.body,
          request.headers['x-svc-signature'] as string,
          sandbox.serviceCertificatePem,
        ),
      );
      const body = JSON.parse(request.body) as { pickup_point?: unknown; order_items: unknown[] };
      return { status: 200, body: JSON.stringify({ amount: body.pickup_point ? '2.49' : '4.99' }) };
    });
    const input = order({
      widgetId: WIDGETS.full,
      items: [{ amount: '10.00', label: 'Book', orderItemId: 'B1' }],
      shippingOptions: [{ id: 'courier' }, { id: 'locker' }, { id: 'fixed', amount: '1.00' }],
    });
    const { body: created } = await create(input);
    const base = `/widget-api/v1/orders/${created['id']}`;
    const notPriced = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      customer: { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com' },
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(notPriced.body['error'].code, 'shipping_not_priced');
    const address = { city: 'Riga', address: 'Brivibas 1', postalCode: 'LV-1010' };
    const quote = await call(sandbox, 'POST', `${base}/shipping-quotes`, {
      optionId: 'locker',
      address,
      pickupPointId: 'p1',
    });
    assert.deepEqual(quote.body, { amount: '2.49', currency: 'EUR' });
    const sent = JSON.parse(merchant.requests('/shipping-cost').at(-1)!.body);
    assert.deepEqual(sent.order_items, [{ reference: 'B1', quantity: '1' }]);
    assert.equal(sent.shipping_method_id, 'locker');
    assert.deepEqual(sent.address, { city: 'Riga', address: 'Brivibas 1', postal_code: 'LV-1010' });
    assert.equal(sent.pickup_point.external_id, 'p1');

    const missingCustomer = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(missingCustomer.body['error'].code, 'customer_required');
    const paid = await call(sandbox, 'POST', `${base}/payments`, {
      idempotencyKey: key(),
      card: card('4111111111111111'),
      customer: { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com', phone: '+37120000000' },
      shipping: { optionId: 'locker', pickupPointId: 'p1', address },
    });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    assert.equal(paid.body['order'].total, '12.49');
    const notification = await notificationFor(created['id']);
    assert.equal(notification.total_amount, '12.49');
    assert.equal(notification.items.at(-1)?.type, 'SHIPPING');
    assert.equal(notification.shipping?.type, 'PICKUP_POINT');
    assert.equal(notification.shipping?.pickup_point?.external_id, 'p1');
    assert.equal(notification.customer.email, 'anna@example.com');
  });

  test('cancel notifies CANCELLED; the connection test reports the merchant answer', async () => {
    const { body: created } = await create(order());
    const cancelled = await call(sandbox, 'POST', `/widget-api/v1/orders/${created['id']}/cancel`);
    assert.equal(cancelled.body['state'], 'CANCELLED');
    assert.equal((await notificationFor(created['id'])).status, 'CANCELLED');

    const test = (apiKey: string) =>
      fetch(`${sandbox.url}/sandbox/merchants/m1/connection-test`, {
        method: 'POST',
        headers: { 'x-svc-api-key': apiKey },
      });
    merchant.respond('/connection', () => ({
      status: 200,
      headers: { 'access-control-allow-methods': 'GET, POST' },
    }));
    assert.deepEqual(
      { ...((await (await test('test-api-key')).json()) as object), message: undefined },
      { ok: true, status: 200, allowMethods: 'GET, POST', message: undefined },
    );
    merchant.respond('/connection', () => ({
      status: 200,
      headers: { 'access-control-allow-methods': 'GET' },
    }));
    assert.equal(((await (await test('test-api-key')).json()) as { ok: boolean }).ok, false);
    assert.equal((await test('wrong')).status, 401);
  });
});
