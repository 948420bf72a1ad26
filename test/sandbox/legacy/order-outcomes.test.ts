/**
 * The outcomes of legacy orders over HTTP: each test card's, 3-D Secure, processing errors and retries,
 * idempotency keys, card checks, cancelling and the connection test, final states, and notifications sent
 * once each and in order.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { PurchaseNotification } from '../../../src/core/legacy-callbacks.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { call, legacyCard as card, type FakeMerchant, withLegacySandbox } from '../support.js';

describe('sandbox legacy widget API over HTTP: payment outcomes', () => {
  const legacy = withLegacySandbox();
  const { key, order, create, notificationFor, pay, notificationsOf, allStatusesOf } = legacy;
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => {
    ({ merchant, sandbox } = legacy);
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
});
