/**
 * The v1 client's Purchase operations and its wallet post, on the wire: a node:http server records each
 * request as it arrived (method, path, headers, raw body) and answers canned JSON, so each test asserts what
 * the client sent and how it read the answer. End-to-end runs against the sandbox live elsewhere.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import {
  createV1Client,
  type Payment,
  type Purchase,
  type PurchaseAttempt,
  readFailureCause,
  type V1Client,
  type WalletBPaymentAnswer,
  type WalletPaymentFailure,
} from '../../../src/server/index.js';
import { failure, listen } from '../support.js';

interface Recorded {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, '' when none was sent. */
  body: string;
}

interface Canned {
  status: number;
  body: unknown;
}

/** A gateway stand-in: records every request; answers what `answer` gives for it (200 `{}` otherwise). */
async function recordingGateway() {
  const received: Recorded[] = [];
  let answer: (request: Recorded) => Canned = () => ({ status: 200, body: {} });
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return {
    ...server,
    received,
    answer(next: (request: Recorded) => Canned) {
      answer = next;
    },
  };
}

const ID = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
const TOKEN_ID = '0b7a3c1e-5d2f-4e8a-9c6b-1f2e3d4c5b6a';

/** A real held Purchase of the platform (its `purchase.hold` sample payload), with `overrides`. */
function purchase(overrides: Partial<Purchase> = {}): Purchase {
  const { event_type: _, ...held } = sample('08-event-Purchase-hold.json');
  return { ...(held as unknown as Purchase), id: ID, ...overrides };
}

/** A real refund Payment of the platform (its `payment.refunded` sample payload, without `event_type`). */
const PAYMENT: Payment = (() => {
  const { event_type: _, ...payment } = sample('12-event-Purchase-refunded.json');
  return payment as unknown as Payment;
})();

function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/v1-samples/${name}`, import.meta.url), 'utf8'));
}

/** An attempt as the platform writes it: a successful payment, with `overrides`. */
function attempt(overrides: Partial<PurchaseAttempt> = {}): PurchaseAttempt {
  return {
    flow: 'payform',
    type: 'execute',
    error: null,
    extra: {},
    country: '',
    client_ip: '',
    fee_amount: 0,
    successful: true,
    payment_method: 'visa',
    processing_time: 1_900_000_000,
    ...overrides,
  };
}

/** The transaction data of a Purchase with these attempts. */
function attempts(...list: PurchaseAttempt[]): Purchase['transaction_data'] {
  return { flow: 'payform', extra: {}, country: '', payment_method: 'visa', attempts: list };
}

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

describe('readFailureCause', () => {
  const failed = attempt({ error: { code: 'card_declined', message: 'Card declined' }, successful: false });

  test('reads the error of the newest attempt (the first), with the attempt', () => {
    assert.deepEqual(readFailureCause({ transaction_data: attempts(failed, attempt()) }), {
      code: 'card_declined',
      description: 'Card declined',
      attempt: failed,
    });
  });

  test("reads the sandbox's earlier error.description too", () => {
    const earlier = { error: { code: 'card_declined', description: 'Card declined' }, successful: false };
    const read = readFailureCause({ transaction_data: { attempts: [earlier] } } as never);
    assert.equal(read?.description, 'Card declined');
  });

  test('is undefined when the newest attempt succeeded or there is none', () => {
    assert.equal(readFailureCause({ transaction_data: attempts() }), undefined);
    assert.equal(readFailureCause({ transaction_data: attempts(attempt(), failed) }), undefined);
    assert.equal(readFailureCause({ transaction_data: attempts(attempt({ error: null })) }), undefined);
  });

  test('reads a Purchase that lacks what the type promises without throwing', () => {
    assert.equal(readFailureCause({} as never), undefined);
    assert.equal(readFailureCause({ transaction_data: null } as never), undefined);
    assert.equal(readFailureCause({ transaction_data: { attempts: 'none' } } as never), undefined);
    assert.equal(readFailureCause({ transaction_data: { attempts: [null] } } as never), undefined);
  });

  test('an error without code or description still tells of a failure', () => {
    const bare = attempt({ error: {} as never, successful: false });
    assert.deepEqual(readFailureCause({ transaction_data: attempts(bare) }), {
      code: 'unknown',
      description: '',
      attempt: bare,
    });
  });
});

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
