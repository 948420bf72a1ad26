/**
 * The v1 client's Purchase operations on the wire: each test asserts what the client sent to a recording
 * gateway and how it read the answer. End-to-end runs against the sandbox live elsewhere.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createV1Client, type Purchase, type V1Client } from '../../../../src/server/index.js';
import { failure } from '../../support.js';
import {
  attempt,
  attempts,
  ID,
  PAYMENT,
  purchase,
  type Recorded,
  recordingGateway,
  TOKEN_ID,
} from '../recording-gateway.js';

describe('v1 client: Purchase operations on the wire', () => {
  let gateway: Awaited<ReturnType<typeof recordingGateway>>;
  let v1: V1Client;

  before(async () => {
    gateway = await recordingGateway();
    v1 = createV1Client({ baseUrl: gateway.url, secretKey: 'sk_test_ops' });
  });
  after(() => gateway.close());
  beforeEach(() => {
    gateway.received.length = 0;
    gateway.answer(() => ({ status: 200, body: purchase() }));
  });

  /** The one request the last call sent. */
  function sent(): Recorded {
    assert.equal(gateway.received.length, 1, `one request, got ${JSON.stringify(gateway.received)}`);
    return gateway.received[0]!;
  }

  function assertNoBody(request: Recorded): void {
    assert.equal(request.body, '');
    assert.equal(request.headers['content-type'], undefined, 'no content type without a body');
  }

  function assertJsonBody(request: Recorded, expected: unknown): void {
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body), expected);
  }

  test('each operation posts to its path with a trailing slash and the bearer key, and resolves the Purchase', async () => {
    const calls: Array<[string, () => Promise<Purchase>]> = [
      ['cancel', () => v1.purchases.cancel(ID)],
      ['capture', () => v1.purchases.capture(ID)],
      ['release', () => v1.purchases.release(ID)],
      ['charge', () => v1.purchases.charge(ID, { recurring_token: TOKEN_ID })],
      ['delete_recurring_token', () => v1.purchases.deleteRecurringToken(ID)],
      ['mark_as_paid', () => v1.purchases.markAsPaid(ID)],
      ['resend_invoice', () => v1.purchases.resendInvoice(ID)],
    ];
    for (const [action, call] of calls) {
      gateway.received.length = 0;
      const answered = await call();
      assert.deepEqual(answered, purchase(), action);
      const request = sent();
      assert.equal(request.method, 'POST', action);
      assert.equal(request.path, `/api/v1/purchases/${ID}/${action}/`);
      assert.equal(request.headers.authorization, 'Bearer sk_test_ops');
      assert.equal(request.headers.accept, 'application/json');
    }
  });

  test('release, delete_recurring_token and resend_invoice send no body', async () => {
    await v1.purchases.release(ID);
    assertNoBody(sent());
    gateway.received.length = 0;
    await v1.purchases.deleteRecurringToken(ID);
    assertNoBody(sent());
    gateway.received.length = 0;
    await v1.purchases.resendInvoice(ID);
    assertNoBody(sent());
  });

  test('capture sends {amount} when an amount is given, and no body at all for a full capture', async () => {
    await v1.purchases.capture(ID, { amount: 500 });
    assertJsonBody(sent(), { amount: 500 });
    for (const full of [undefined, {}, { amount: undefined }]) {
      gateway.received.length = 0;
      await v1.purchases.capture(ID, full);
      assertNoBody(sent());
    }
    gateway.received.length = 0;
    await v1.purchases.capture(ID, { amount: 700, note: 'not sent' } as never);
    assertJsonBody(sent(), { amount: 700 });
  });

  test('charge sends {recurring_token}', async () => {
    gateway.answer(() => ({ status: 200, body: purchase({ status: 'paid' }) }));
    const charged = await v1.purchases.charge(ID, { recurring_token: TOKEN_ID });
    assert.equal(charged.status, 'paid');
    assertJsonBody(sent(), { recurring_token: TOKEN_ID });
  });

  test('refund sends the members given, or no body, and resolves the Payment', async () => {
    gateway.answer(() => ({ status: 200, body: PAYMENT }));
    const payment = await v1.purchases.refund(ID);
    assert.deepEqual(payment, PAYMENT);
    const request = sent();
    assert.equal(request.path, `/api/v1/purchases/${ID}/refund/`);
    assertNoBody(request);

    gateway.received.length = 0;
    await v1.purchases.refund(ID, { amount: 500, client_name: 'Jānis Bērziņš' });
    assertJsonBody(sent(), { amount: 500, client_name: 'Jānis Bērziņš' });

    gateway.received.length = 0;
    await v1.purchases.refund(ID, { client_name: 'Anna' });
    assertJsonBody(sent(), { client_name: 'Anna' });

    // 70 characters, each two UTF-16 units: the limit counts characters.
    const seventyEmoji = '😀'.repeat(70);
    gateway.received.length = 0;
    await v1.purchases.refund(ID, { client_name: seventyEmoji });
    assertJsonBody(sent(), { client_name: seventyEmoji });
  });

  test('mark_as_paid sends {paid_on} when given, else no body', async () => {
    gateway.answer(() => ({ status: 200, body: purchase({ status: 'paid', marked_as_paid: true }) }));
    const marked = await v1.purchases.markAsPaid(ID, { paid_on: 1_900_000_000 });
    assert.equal(marked.marked_as_paid, true);
    assertJsonBody(sent(), { paid_on: 1_900_000_000 });
    gateway.received.length = 0;
    await v1.purchases.markAsPaid(ID, {});
    assertNoBody(sent());
  });

  test('an id is one path segment', async () => {
    await v1.purchases.capture('a/b?c');
    assert.equal(sent().path, '/api/v1/purchases/a%2Fb%3Fc/capture/');
  });

  test('refuses bad arguments before sending, naming the field', async () => {
    const refusals: Array<[() => Promise<unknown>, RegExp]> = [
      [() => v1.purchases.capture('', { amount: 5 }), /^id must be a non-empty string/],
      [() => v1.purchases.release(' '), /^id must be/],
      [() => v1.purchases.capture(ID, 5 as never), /capture body must be an object/],
      [() => v1.purchases.capture(ID, { amount: 0 }), /^amount must be a positive whole number.*not 0/],
      [() => v1.purchases.capture(ID, { amount: -100 }), /^amount .*not -100/],
      [() => v1.purchases.capture(ID, { amount: 12.5 }), /^amount .*not 12\.5/],
      [() => v1.purchases.capture(ID, { amount: Number.NaN }), /^amount .*not NaN/],
      [() => v1.purchases.capture(ID, { amount: 2 ** 53 }), /^amount /],
      [
        () => v1.purchases.refund(ID, { amount: 100_000_000_001 }),
        /^amount .*at most 100000000000, not 100000000001/,
      ],
      [() => v1.purchases.capture(ID, { amount: '500' as never }), /^amount .*not "500"/],
      [() => v1.purchases.charge(ID, undefined as never), /^recurring_token must be .*not undefined/],
      [() => v1.purchases.charge(ID, {} as never), /^recurring_token /],
      [() => v1.purchases.charge(ID, { recurring_token: '  ' }), /^recurring_token .*not " {2}"/],
      [() => v1.purchases.charge(ID, { recurring_token: 42 as never }), /^recurring_token .*not 42/],
      [() => v1.purchases.refund(ID, 'all' as never), /refund body must be an object/],
      [() => v1.purchases.refund(ID, { amount: 0 }), /^amount /],
      [() => v1.purchases.refund(ID, { amount: 1.01 }), /^amount /],
      [() => v1.purchases.refund(ID, { client_name: 'x'.repeat(71) }), /^client_name .*at most 70/],
      [() => v1.purchases.refund(ID, { client_name: '' }), /^client_name /],
      [() => v1.purchases.refund(ID, { client_name: 7 as never }), /^client_name .*not 7/],
      [() => v1.purchases.markAsPaid(ID, { paid_on: Number.POSITIVE_INFINITY }), /^paid_on .*Infinity/],
      [() => v1.purchases.markAsPaid(ID, { paid_on: 'now' as never }), /^paid_on .*"now"/],
      [() => v1.purchases.failureCause(''), /^id must be/],
    ];
    for (const [call, message] of refusals) {
      const error = await failure(call, 'invalid_request');
      assert.match(error.message, message);
      assert.equal(error.status, undefined);
    }
    assert.deepEqual(gateway.received, [], 'nothing was sent');
  });

  test('refuses a 2xx answer that is not the resource', async () => {
    gateway.answer(() => ({ status: 200, body: { id: ID } }));
    const notPurchase = await failure(() => v1.purchases.capture(ID), 'invalid_response');
    assert.match(notPurchase.message, /not a Purchase/);
    assert.deepEqual(notPurchase.body, { id: ID });

    // A refund answers the Payment, not the Purchase.
    gateway.answer(() => ({ status: 200, body: purchase({ status: 'paid' }) }));
    const notPayment = await failure(() => v1.purchases.refund(ID), 'invalid_response');
    assert.match(notPayment.message, /not a Payment/);
    gateway.answer(() => ({ status: 200, body: { ...PAYMENT, type: 'payout' } }));
    await failure(() => v1.purchases.refund(ID), 'invalid_response');
    gateway.answer(() => ({ status: 200, body: [PAYMENT] }));
    await failure(() => v1.purchases.refund(ID), 'invalid_response');
  });

  test("a documented 400 is bad_request with the document's code under __all__; failureCause then reads why", async () => {
    const declined = purchase({
      status: 'hold',
      transaction_data: attempts(
        attempt({
          error: { code: 'insufficient_funds', message: 'Insufficient funds' },
          successful: false,
          type: 'capture',
        }),
        attempt({ type: 'authorize' }),
      ),
    });
    const operations: Array<[string, string, () => Promise<unknown>]> = [
      ['capture/', 'purchase_capture_error', () => v1.purchases.capture(ID, { amount: 500 })],
      ['release/', 'purchase_release_error', () => v1.purchases.release(ID)],
      ['charge/', 'purchase_charge_error', () => v1.purchases.charge(ID, { recurring_token: TOKEN_ID })],
      ['refund/', 'purchase_refund_error', () => v1.purchases.refund(ID, { amount: 99_999 })],
    ];
    for (const [action, code, call] of operations) {
      gateway.received.length = 0;
      gateway.answer((request) =>
        request.method === 'POST'
          ? { status: 400, body: { __all__: { message: 'Processing failed', code } } }
          : { status: 200, body: declined },
      );
      const error = await failure(call, 'bad_request');
      assert.equal(error.status, 400);
      assert.deepEqual(error.errors, [{ field: '__all__', message: 'Processing failed', code }]);
      assert.match(
        error.message,
        new RegExp(`^POST /api/v1/purchases/${ID}/${action} answered 400: Processing failed$`),
      );

      const cause = await v1.purchases.failureCause(ID);
      assert.deepEqual(cause, {
        code: 'insufficient_funds',
        description: 'Insufficient funds',
        attempt: declined.transaction_data.attempts[0],
      });
      assert.deepEqual(
        gateway.received.map(({ method, path }) => `${method} ${path}`),
        [`POST /api/v1/purchases/${ID}/${action}`, `GET /api/v1/purchases/${ID}/`],
      );
    }
  });

  test('failureCause is undefined when the newest attempt succeeded, and passes errors of the GET on', async () => {
    gateway.answer(() => ({
      status: 200,
      body: purchase({
        status: 'paid',
        transaction_data: attempts(
          attempt(),
          attempt({ error: { code: 'card_declined', message: 'Declined' }, successful: false }),
        ),
      }),
    }));
    assert.equal(await v1.purchases.failureCause(ID), undefined);
    gateway.answer(() => ({ status: 404, body: { __all__: { message: 'Not found.', code: 'not_found' } } }));
    await failure(() => v1.purchases.failureCause(ID), 'not_found');
    gateway.answer(() => ({ status: 200, body: { nothing: true } }));
    await failure(() => v1.purchases.failureCause(ID), 'invalid_response');
  });

  test('a 404 of an operation is not_found', async () => {
    gateway.answer(() => ({ status: 404, body: { __all__: { message: 'Not found.', code: 'not_found' } } }));
    const error = await failure(() => v1.purchases.resendInvoice(ID), 'not_found');
    assert.equal(error.errors[0]?.code, 'not_found');
  });
});
