import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import jsrsasign from 'jsrsasign';
import { type OrderInput, orderSignatureInput } from '../../../src/core/index.js';
import type { PurchaseNotification } from '../../../src/core/legacy-callbacks.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder, verifyOrderVerificationToken, verifySignature } from '../../../src/server/index.js';
import { call, FakeMerchant, merchantKeys, PAGE_ORIGIN, startTestSandbox, WIDGETS } from '../support.js';

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
    // As a page with certificate-name sends it: the name is part of the order, and signed.
    const named = { ...input, certificateName };
    return call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: named,
      signature: signOrder(named, privateKeyPem),
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

  test('idempotency keys that name Object.prototype members pay like any other, and stay idempotent', async () => {
    for (const idempotencyKey of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      const { body: created } = await create(order());
      const pay = () =>
        call(sandbox, 'POST', `/widget-api/v1/orders/${created['id']}/payments`, {
          idempotencyKey,
          card: card('4111111111111111'),
        });
      const first = await pay();
      assert.equal(first.body['state'], 'PAID', idempotencyKey);
      const again = await pay();
      assert.equal(again.body['state'], 'PAID', idempotencyKey);
      const notification = await notificationFor(created['id']);
      assert.equal(notification.status, 'PAID');
    }
  });

  test('every test card gives its outcome, and each outcome notifies the merchant once', async () => {
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
      assert.equal(notification.total_amount, 25);
      assert.equal(notification.effective_amount, state === 'PAID' ? 25 : 0);
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
      shippingOptions: [
        { id: 'courier' },
        { id: 'locker', label: 'Parcel locker', type: 'PICKUP_POINT' },
        { id: 'fixed', amount: '1.00' },
      ],
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
    // A pickup point is priced by the point alone: no street address.
    const quote = await call(sandbox, 'POST', `${base}/shipping-quotes`, {
      optionId: 'locker',
      pickupPointId: 'p1',
    });
    assert.deepEqual(quote.body, { amount: '2.49', currency: 'EUR', taxRate: '21' });
    const sent = JSON.parse(merchant.requests('/shipping-cost').at(-1)!.body);
    assert.deepEqual(sent.order_items, [{ reference: 'B1', quantity: 1 }]);
    assert.equal(sent.shipping_method_id, 'locker');
    // The point has no address in the config: the request's address is there, with empty strings.
    assert.deepEqual(sent.address, { city: '', address: '', postal_code: '' });
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
      shipping: { optionId: 'locker', pickupPointId: 'p1' },
    });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    assert.equal(paid.body['order'].total, '12.49');
    const notification = await notificationFor(created['id']);
    assert.equal(notification.total_amount, 12.49);
    assert.equal(notification.items.at(-1)?.type, 'SHIPPING');
    assert.equal(notification.shipping?.type, 'PICKUP_POINT');
    assert.deepEqual(notification.shipping?.method, { id: 'locker', name: 'Parcel locker' });
    assert.equal(notification.shipping?.pickup_point?.external_id, 'p1');
    assert.equal(notification.shipping?.pickup_point?.name, 'Locker 1');
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
  /** One payment request for a gateway order, as the frame sends it. */
  function pay(id: string, idempotencyKey: string, number: string, more: Record<string, unknown> = {}) {
    return call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
      idempotencyKey,
      card: card(number),
      ...more,
    });
  }

  /** The notifications sent for a gateway order, signatures checked, in the order they arrived, once `count` are there. */
  async function notificationsOf(id: string, count: number): Promise<PurchaseNotification[]> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const sent = merchant
        .requests('/notify')
        .filter((r) => (JSON.parse(r.body) as PurchaseNotification).id === id);
      if (sent.length >= count) {
        for (const request of sent) {
          assert.ok(
            verifySignature(
              request.body,
              request.headers['x-svc-signature'] as string,
              sandbox.serviceCertificatePem,
            ),
            'notification signature',
          );
        }
        return sent.map((request) => JSON.parse(request.body) as PurchaseNotification);
      }
      if (Date.now() > deadline)
        throw new Error(`expected ${count} notifications for ${id}, got ${sent.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Waits a moment for anything sent late, then the statuses of every notification sent for the order. */
  async function allStatusesOf(id: string, atLeast: number): Promise<string[]> {
    await notificationsOf(id, atLeast);
    await new Promise((resolve) => setTimeout(resolve, 150));
    return (await notificationsOf(id, atLeast)).map((notification) => notification.status);
  }

  test('a decline, insufficient funds or a denied 3-D Secure step leaves the order payable: FAILED, then another card pays', async () => {
    const failures = [
      { how: 'card declined', code: 'card_declined' },
      { how: 'insufficient funds', code: 'insufficient_funds' },
      { how: '3-D Secure denied', code: 'authentication_failed' },
    ];
    for (const { how, code } of failures) {
      const { body: created } = await create(order());
      const id = created['id'] as string;
      let failed: Awaited<ReturnType<typeof call>>;
      if (code === 'authentication_failed') {
        const started = await pay(id, key(), '4000000000003220');
        assert.equal(started.body['state'], 'CHALLENGE', how);
        failed = await call(
          sandbox,
          'POST',
          `/widget-api/v1/orders/${id}/challenges/${started.body['challengeId']}`,
          {
            approve: false,
          },
        );
      } else {
        failed = await pay(id, key(), code === 'card_declined' ? '4000000000000002' : '4000000000009995');
      }
      assert.equal(failed.body['state'], 'FAILED', how);
      assert.equal(failed.body['error'].code, code, how);
      assert.equal((await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`)).body['state'], 'FAILED', how);

      const paid = await pay(id, key(), '4111111111111111');
      assert.equal(paid.status, 200, `${how}: ${JSON.stringify(paid.body)}`);
      assert.equal(paid.body['state'], 'PAID', how);
      assert.equal(paid.body['order'].lastError, null, how);

      const [first, second] = await notificationsOf(id, 2);
      assert.deepEqual(
        [first!.status, first!.payment.status, first!.payment.error?.code, first!.effective_amount],
        ['FAILED', 'FAILED', code, 0],
        how,
      );
      assert.deepEqual(
        [second!.status, second!.payment.status, second!.payment.error, second!.effective_amount],
        ['PAID', 'SUCCEEDED', null, 25],
        how,
      );
      // Each attempt has its own reference, so the merchant can tell the two apart.
      assert.notEqual(first!.payment.accountStatementReference, second!.payment.accountStatementReference);
      assert.deepEqual(await allStatusesOf(id, 2), ['FAILED', 'PAID'], how);
    }
  });

  test('a repeated idempotency key answers its own attempt again and charges nothing', async () => {
    const { body: created } = await create(order());
    const id = created['id'] as string;
    const declinedKey = key();
    assert.equal((await pay(id, declinedKey, '4000000000000002')).body['state'], 'FAILED');
    // The same key with another card is the same attempt: nothing is charged, nothing new is notified.
    const repeated = await pay(id, declinedKey, '4111111111111111');
    assert.equal(repeated.body['state'], 'FAILED');
    assert.equal(repeated.body['error'].code, 'card_declined');

    const paidKey = key();
    assert.equal((await pay(id, paidKey, '4111111111111111')).body['state'], 'PAID');
    const [late, again] = await Promise.all([
      pay(id, declinedKey, '4111111111111111'),
      pay(id, paidKey, '4111111111111111'),
    ]);
    assert.equal(late.body['state'], 'FAILED', 'the declined attempt stays declined');
    assert.equal(late.body['error'].code, 'card_declined');
    assert.equal(late.body['order'].state, 'PAID', 'with the order as it is now');
    assert.equal(again.body['state'], 'PAID');
    assert.deepEqual(await allStatusesOf(id, 2), ['FAILED', 'PAID']);
  });

  test('a processing error after a decline keeps the order FAILED, notifies nothing, and the order stays payable', async () => {
    const { body: created } = await create(order());
    const id = created['id'] as string;
    assert.equal((await pay(id, key(), '4000000000009995')).body['state'], 'FAILED');
    const errorKey = key();
    const retry = await pay(id, errorKey, '4000000000000119');
    assert.equal(retry.body['state'], 'RETRY');
    assert.equal(retry.body['error'].code, 'processing_error');
    assert.equal((await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`)).body['state'], 'FAILED');
    const repeated = await pay(id, errorKey, '4000000000000119');
    assert.deepEqual([repeated.body['state'], repeated.body['error'].code], ['RETRY', 'processing_error']);
    assert.equal((await pay(id, key(), '5555555555554444')).body['state'], 'PAID');
    assert.deepEqual(await allStatusesOf(id, 2), ['FAILED', 'PAID']);
  });

  test('paid and cancelled orders stay final; a failed one can still be cancelled', async () => {
    const { body: paidOrder } = await create(order());
    assert.equal((await pay(paidOrder['id'], key(), '4111111111111111')).body['state'], 'PAID');
    const afterPaid = await pay(paidOrder['id'], key(), '4000000000000002');
    assert.equal(afterPaid.body['state'], 'PAID');
    const cancelPaid = await call(sandbox, 'POST', `/widget-api/v1/orders/${paidOrder['id']}/cancel`);
    assert.equal(cancelPaid.body['state'], 'PAID');

    const { body: cancelledOrder } = await create(order());
    const cancelled = await call(sandbox, 'POST', `/widget-api/v1/orders/${cancelledOrder['id']}/cancel`);
    assert.equal(cancelled.body['state'], 'CANCELLED');
    assert.equal((await pay(cancelledOrder['id'], key(), '4111111111111111')).body['state'], 'CANCELLED');

    const { body: failedOrder } = await create(order());
    assert.equal((await pay(failedOrder['id'], key(), '4000000000000002')).body['state'], 'FAILED');
    const cancelFailed = await call(sandbox, 'POST', `/widget-api/v1/orders/${failedOrder['id']}/cancel`);
    assert.equal(cancelFailed.body['state'], 'CANCELLED');
    assert.equal((await pay(failedOrder['id'], key(), '4111111111111111')).body['state'], 'CANCELLED');

    assert.deepEqual(await allStatusesOf(paidOrder['id'], 1), ['PAID']);
    assert.deepEqual(await allStatusesOf(cancelledOrder['id'], 1), ['CANCELLED']);
    assert.deepEqual(await allStatusesOf(failedOrder['id'], 2), ['FAILED', 'CANCELLED']);
  });

  test('a later outcome waits until the merchant accepted the earlier one', async () => {
    const { body: created } = await create(order());
    const id = created['id'] as string;
    let refusals = 0;
    const answered: string[] = [];
    merchant.respond('/notify', (request) => {
      const notification = JSON.parse(request.body) as PurchaseNotification;
      if (notification.id !== id) return { status: 200, body: '{}' };
      const refuse = notification.status === 'FAILED' && refusals++ < 2;
      answered.push(`${notification.status} ${refuse ? 503 : 200}`);
      return refuse ? { status: 503 } : { status: 200, body: '{}' };
    });
    assert.equal((await pay(id, key(), '4000000000000002')).body['state'], 'FAILED');
    assert.equal((await pay(id, key(), '4111111111111111')).body['state'], 'PAID');
    await notificationsOf(id, 4);
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.deepEqual(answered, ['FAILED 503', 'FAILED 503', 'FAILED 200', 'PAID 200']);
  });

  test('a failed full-checkout order can still be priced for other delivery and paid', async () => {
    merchant.respond('/shipping-cost', () => ({ status: 200, body: JSON.stringify({ amount: '4.99' }) }));
    const { body: created } = await create(
      order({
        widgetId: WIDGETS.full,
        items: [{ amount: '10.00', label: 'Book' }],
        shippingOptions: [{ id: 'courier' }, { id: 'fixed', amount: '1.00' }],
      }),
    );
    const id = created['id'] as string;
    const customer = { firstName: 'Anna', lastName: 'Berzina', email: 'anna@example.com' };
    const failed = await pay(id, key(), '4000000000000002', { customer, shipping: { optionId: 'fixed' } });
    assert.equal(failed.body['state'], 'FAILED');
    const address = { city: 'Riga', address: 'Brivibas 1', postalCode: 'LV-1010' };
    const quote = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/shipping-quotes`, {
      optionId: 'courier',
      address,
    });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    const paid = await pay(id, key(), '4111111111111111', {
      customer,
      shipping: { optionId: 'courier', address },
    });
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
    const [first, second] = await notificationsOf(id, 2);
    assert.deepEqual(
      [first!.status, first!.total_amount, first!.shipping?.method.id],
      ['FAILED', 11, 'fixed'],
    );
    assert.deepEqual(
      [second!.status, second!.total_amount, second!.shipping?.method.id],
      ['PAID', 14.99, 'courier'],
    );
  });
});
