/**
 * The v1 Purchase operations end to end: the toolkit's typed client against the sandbox over HTTP, the
 * customer's part on the hosted page by form posts, every event read from a real webhook receiver (checked
 * with node:crypto against the webhook's own key) in the order it arrived, and time moved on the sandbox
 * clock, never slept. Each row of the document's "States and transitions" table is reached here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Purchase } from '../../../src/core/v1-types.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { createV1Client, V1ApiError, type V1Client } from '../../../src/server/index.js';
import { FakeMerchant, tempDir } from '../support.js';
import {
  advanceClock,
  cardForm,
  expectWebhookEvents,
  OTHER,
  postForm,
  purchaseBody,
  signedBy,
  startV1Sandbox,
  subscribeToEveryEvent,
  V1,
  v1,
  v1ConfigFile,
  withV1Sandbox,
} from './support.js';

const WEBHOOK_PATH = '/v1/webhook';
const CALLBACK_PATH = '/v1/success';
const DAY_MS = 24 * 60 * 60 * 1000;
const SLOW_MS = 10_000;

/** Cards of the sandbox. */
const CARD = { approved: '4111111111111111', chargesDeclined: '4000000000000341' } as const;

describe('v1 purchase operations against the sandbox', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let webhookKey: string;
  let companyKey: string;

  async function start(): Promise<void> {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  }

  before(async () => {
    ({ merchant, sandbox, client } = fixture);
    webhookKey = await subscribeToEveryEvent(fixture, WEBHOOK_PATH);
    companyKey = await client.publicKey();
  });

  /** Resolves once the webhook events of `id` are exactly `expected`, each checked against the webhook's key. */
  const expectEvents = (id: string, expected: string[]) =>
    expectWebhookEvents(merchant, WEBHOOK_PATH, id, expected, webhookKey);

  function callbacksOf(id: string): Array<{ event_type: string; status: string }> {
    return merchant
      .requests(CALLBACK_PATH)
      .filter((request) => (JSON.parse(request.body) as { id: string }).id === id)
      .map((request) => {
        assert.ok(signedBy(request, companyKey), 'the success callback verifies with the company key');
        return JSON.parse(request.body) as { event_type: string; status: string };
      });
  }

  async function create(overrides: Record<string, unknown> = {}): Promise<Purchase> {
    return client.purchases.create(
      purchaseBody({
        client: { email: 'anna@example.com', full_name: 'Anna Tester' },
        success_callback: `${merchant.url}${CALLBACK_PATH}`,
        ...overrides,
      }) as unknown as Parameters<V1Client['purchases']['create']>[0],
    );
  }

  /** A purchase of 25.00 paid (or held, with `skip_capture`) on the hosted page with `card`. */
  async function checkout(overrides: Record<string, unknown> = {}, card: string = CARD.approved) {
    const purchase = await create(overrides);
    const answer = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(card));
    // The result page (no redirect URLs given).
    assert.equal(answer.status, 200, answer.html);
    return client.purchases.get(purchase.id);
  }

  const slow = { 'x-sandbox-acquirer': 'slow' };
  const failing = { 'x-sandbox-acquirer': 'fail' };

  async function operation(path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
    return v1(sandbox, 'POST', path, options);
  }

  const advance = (ms: number) => advanceClock(sandbox, ms);

  /** The error a call rejects with, checked to be the document's code under `__all__`. */
  async function refused(call: Promise<unknown>, code: string): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail(`expected ${code}`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.errors?.[0]?.code, code, JSON.stringify(error.errors));
    assert.equal(error.errors?.[0]?.field, '__all__');
    return error;
  }

  test('hold, then a full capture: paid, refundable, captured with its success callback', async () => {
    const held = await checkout({ skip_capture: true });
    assert.equal(held.status, 'hold');
    assert.equal(held.refundable_amount, 0);
    assert.equal(held.refund_availability, 'none');
    const paid = await client.purchases.capture(held.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.refundable_amount, 2500);
    assert.equal(paid.refund_availability, 'all');
    assert.equal(paid.transaction_data.attempts[0]?.type, 'capture');
    await expectEvents(held.id, ['purchase.created', 'purchase.hold', 'purchase.captured']);
    await merchant.waitFor(CALLBACK_PATH, 1);
    const callbacks = callbacksOf(held.id);
    assert.deepEqual(
      callbacks.map((callback) => [callback.event_type, callback.status]),
      [['purchase.captured', 'paid']],
    );
  });

  test('a partial capture takes part and releases the rest: only that much can be refunded', async () => {
    const held = await checkout({ skip_capture: true });
    const paid = await client.purchases.capture(held.id, { amount: 1000 });
    assert.equal(paid.status, 'paid');
    assert.equal(paid.refundable_amount, 1000);
    await refused(client.purchases.refund(held.id, { amount: 1001 }), 'purchase_refund_error');
    const cause = await client.purchases.failureCause(held.id);
    assert.equal(cause?.code, 'amount_exceeds_refundable');
    const payment = await client.purchases.refund(held.id);
    assert.equal(payment.payment.amount, 1000);
    // Nothing held is left either.
    await refused(client.purchases.capture(held.id), 'purchase_capture_error');
  });

  test('a capture of more than is held, or of a purchase not on hold, is refused with its cause', async () => {
    const held = await checkout({ skip_capture: true });
    await refused(client.purchases.capture(held.id, { amount: 2501 }), 'purchase_capture_error');
    const after = await client.purchases.get(held.id);
    assert.equal(after.status, 'hold');
    assert.deepEqual(after.transaction_data.attempts[0]?.error?.code, 'amount_exceeds_authorisation');
    assert.equal(after.transaction_data.attempts[0]?.successful, false);

    const paid = await checkout();
    await refused(client.purchases.capture(paid.id), 'purchase_capture_error');
    assert.equal((await client.purchases.failureCause(paid.id))?.code, 'not_held');
    await refused(client.purchases.release(paid.id), 'purchase_release_error');
    assert.equal((await client.purchases.get(paid.id)).status, 'paid');
  });

  test('release gives the hold back: released, and no capture after it', async () => {
    const held = await checkout({ skip_capture: true });
    const released = await client.purchases.release(held.id);
    assert.equal(released.status, 'released');
    assert.equal(released.refundable_amount, 0);
    await expectEvents(held.id, ['purchase.created', 'purchase.hold', 'purchase.released']);
    await refused(client.purchases.capture(held.id), 'purchase_capture_error');
    assert.equal(callbacksOf(held.id).length, 0, 'no success callback for a release');
  });

  test('a hold nobody captures is released after 6 days on the sandbox clock, not a second before', async () => {
    const held = await checkout({ skip_capture: true });
    await advance(6 * DAY_MS - 2000);
    assert.equal((await client.purchases.get(held.id)).status, 'hold');
    await advance(2000);
    assert.equal((await client.purchases.get(held.id)).status, 'released');
    await expectEvents(held.id, ['purchase.created', 'purchase.hold', 'purchase.released']);
  });

  test('the slow acquirer: pending_capture, then captured once the clock passes its answer', async () => {
    const held = await checkout({ skip_capture: true });
    const pending = await operation(`/purchases/${held.id}/capture/`, { headers: slow });
    assert.equal(pending.status, 200);
    assert.equal(pending.body.status, 'pending_capture');
    // While pending, nothing else can move the money.
    await refused(client.purchases.release(held.id), 'purchase_release_error');
    // A second short of the answer (real time passes meanwhile too, by milliseconds).
    await advance(SLOW_MS - 1000);
    assert.equal((await client.purchases.get(held.id)).status, 'pending_capture');
    await advance(1000);
    const paid = await client.purchases.get(held.id);
    assert.equal(paid.status, 'paid');
    assert.equal(paid.refundable_amount, 2500);
    await expectEvents(held.id, [
      'purchase.created',
      'purchase.hold',
      'purchase.pending_capture',
      'purchase.captured',
    ]);
  });

  test('the slow acquirer: pending_release, then released', async () => {
    const held = await checkout({ skip_capture: true });
    const pending = await operation(`/purchases/${held.id}/release/`, { headers: slow });
    assert.equal(pending.body.status, 'pending_release');
    await advance(SLOW_MS);
    assert.equal((await client.purchases.get(held.id)).status, 'released');
    await expectEvents(held.id, [
      'purchase.created',
      'purchase.hold',
      'purchase.pending_release',
      'purchase.released',
    ]);
  });

  test('a failing acquirer: purchase_capture_error and purchase_release_error, the hold kept', async () => {
    const held = await checkout({ skip_capture: true });
    const capture = await operation(`/purchases/${held.id}/capture/`, { headers: failing });
    assert.equal(capture.status, 400);
    assert.equal(capture.body.__all__.code, 'purchase_capture_error');
    assert.equal((await client.purchases.failureCause(held.id))?.code, 'processing_error');
    const release = await operation(`/purchases/${held.id}/release/`, { headers: failing });
    assert.equal(release.body.__all__.code, 'purchase_release_error');
    const after = await client.purchases.get(held.id);
    assert.equal(after.status, 'hold');
    assert.deepEqual(
      after.transaction_data.attempts.slice(0, 2).map((attempt) => attempt.type),
      ['release', 'capture'],
      'newest first',
    );
    assert.equal((await client.purchases.capture(held.id)).status, 'paid');
  });

  test('refunds: partial then the rest, each a Payment delivered with payment.refunded; never more', async () => {
    const paid = await checkout();
    const first = await client.purchases.refund(paid.id, { amount: 1000, client_name: 'Anna T.' });
    assert.equal(first.type, 'payment');
    assert.equal(first.payment.payment_type, 'refund');
    assert.equal(first.payment.is_outgoing, true);
    assert.equal(first.payment.amount, 1000);
    assert.equal(first.payment.currency, 'EUR');
    assert.equal(first.client.full_name, 'Anna T.');
    assert.deepEqual(first.related_to, {
      type: 'purchase',
      id: paid.id,
      reference: paid.reference_generated,
    });
    assert.equal(first.status, 'success');
    assert.equal(first.is_test, true);
    assert.ok(first.payment.paid_on > 0);
    let now = await client.purchases.get(paid.id);
    assert.equal(now.status, 'paid');
    assert.equal(now.refundable_amount, 1500);
    const rest = await client.purchases.refund(paid.id);
    assert.equal(rest.payment.amount, 1500);
    assert.equal(rest.client.full_name, 'Anna Tester', 'the client’s full name by default');
    now = await client.purchases.get(paid.id);
    assert.equal(now.refundable_amount, 0);
    assert.equal(now.refund_availability, 'none');
    await refused(client.purchases.refund(paid.id, { amount: 1 }), 'purchase_refund_error');
    await expectEvents(first.id, ['payment.refunded']);
    await expectEvents(rest.id, ['payment.refunded']);
    const delivered = merchant
      .requests(WEBHOOK_PATH)
      .map((request) => JSON.parse(request.body) as { id: string })
      .find((body) => body.id === rest.id);
    assert.deepEqual(delivered, { ...rest, event_type: 'payment.refunded' });
  });

  test('a refund Payment has its own delivery history; another account cannot read it', async () => {
    const paid = await checkout();
    const payment = await client.purchases.refund(paid.id, { amount: 100 });
    await expectEvents(payment.id, ['payment.refunded']);
    const listed = [];
    for await (const delivery of client.webhooks.deliveries({ id: payment.id, source_type: 'payment' })) {
      listed.push(delivery);
    }
    assert.deepEqual(
      listed.map((delivery) => [delivery.event, (delivery.payload as { id: string }).id]),
      [['payment.refunded', payment.id]],
    );
    const theirs = await v1(sandbox, 'GET', `/webhooks/deliveries/?id=${payment.id}&source_type=payment`, {
      key: OTHER.secretKey,
    });
    assert.equal(theirs.status, 404);
  });

  test('due_strict on the sandbox clock: payable until due, expired and unpayable after it', async () => {
    const clock = await (await fetch(`${sandbox.url}/sandbox/v1/clock`)).json();
    const purchase = await create({
      due: clock.now_unix + 3600,
      purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], due_strict: true },
    });
    await advance(3590 * 1000);
    assert.equal((await client.purchases.get(purchase.id)).status, 'created');
    await advance(20 * 1000);
    assert.equal((await client.purchases.get(purchase.id)).status, 'expired');
    const page = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(CARD.approved));
    assert.notEqual((await client.purchases.get(purchase.id)).status, 'paid', page.html);
    await refused(
      client.purchases.charge(purchase.id, {
        recurring_token: (await checkout({ force_recurring: true })).id,
      }),
      'purchase_charge_error',
    );
  });

  test('a slow refund: pending_refund and a pending Payment, then payment.refunded', async () => {
    const paid = await checkout();
    const answer = await operation(`/purchases/${paid.id}/refund/`, {
      body: { amount: 500 },
      headers: slow,
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'pending');
    assert.equal(answer.body.payment.paid_on, 0, 'not paid yet');
    assert.equal((await client.purchases.get(paid.id)).status, 'pending_refund');
    await refused(client.purchases.refund(paid.id, { amount: 500 }), 'purchase_refund_error');
    await advance(SLOW_MS);
    const after = await client.purchases.get(paid.id);
    assert.equal(after.status, 'paid');
    assert.equal(after.refundable_amount, 2000);
    await expectEvents(paid.id, ['purchase.created', 'purchase.paid', 'purchase.pending_refund']);
    await expectEvents(answer.body.id, ['payment.refunded']);
  });

  test('refund bodies are checked field by field; an unknown member is refused, not ignored', async () => {
    const paid = await checkout();
    const typo = await operation(`/purchases/${paid.id}/refund/`, { body: { ammount: 500 } });
    assert.equal(typo.status, 400);
    assert.equal(typo.body.ammount.code, 'invalid');
    const long = await operation(`/purchases/${paid.id}/refund/`, { body: { client_name: 'x'.repeat(71) } });
    assert.equal(long.body.client_name.code, 'max_length');
    // Core's rule, as the toolkit's: leaving client_name out takes the Purchase's client name; a blank one is refused.
    const blank = await operation(`/purchases/${paid.id}/refund/`, { body: { client_name: '  ' } });
    assert.equal(blank.body.client_name.code, 'blank');
    const emoji = await operation(`/purchases/${paid.id}/refund/`, {
      body: { client_name: '😀'.repeat(71) },
    });
    assert.equal(emoji.body.client_name.code, 'max_length');
    const tooBig = await operation(`/purchases/${paid.id}/refund/`, { body: { amount: 100_000_000_001 } });
    assert.equal(tooBig.body.amount.code, 'max_value');
    const zero = await operation(`/purchases/${paid.id}/refund/`, { body: { amount: 0 } });
    assert.equal(zero.body.amount.code, 'min_value');
    const text = await operation(`/purchases/${paid.id}/capture/`, { body: { amount: '5' } });
    assert.equal(text.body.amount.code, 'invalid');
    const header = await operation(`/purchases/${paid.id}/refund/`, {
      headers: { 'x-sandbox-acquirer': 'sometimes' },
    });
    assert.equal(header.status, 400);
    assert.match(header.body.__all__.message, /normal, slow, fail/);
    assert.equal((await client.purchases.get(paid.id)).refundable_amount, 2500, 'nothing was refunded');
  });

  test('recurring: a token purchase pays a new purchase without the customer; skip_capture holds', async () => {
    const token = await checkout({ force_recurring: true });
    assert.equal(token.is_recurring_token, true);

    const next = await create();
    // The guide's path, without the trailing slash.
    const charged = await operation(`/purchases/${next.id}/charge`, { body: { recurring_token: token.id } });
    assert.equal(charged.status, 200, JSON.stringify(charged.body));
    assert.equal(charged.body.status, 'paid');
    assert.equal(charged.body.refundable_amount, 2500);
    await expectEvents(next.id, ['purchase.created', 'purchase.paid']);
    await merchant.waitFor(CALLBACK_PATH, 1);
    assert.deepEqual(
      callbacksOf(next.id).map((callback) => callback.event_type),
      ['purchase.paid'],
    );

    const reservation = await create({ skip_capture: true });
    const held = await client.purchases.charge(reservation.id, { recurring_token: token.id });
    assert.equal(held.status, 'hold');
    await expectEvents(reservation.id, ['purchase.created', 'purchase.hold']);
    assert.equal((await client.purchases.capture(reservation.id, { amount: 700 })).refundable_amount, 700);

    // A paid purchase is charged no second time.
    await refused(client.purchases.charge(next.id, { recurring_token: token.id }), 'purchase_charge_error');
    assert.equal((await client.purchases.failureCause(next.id))?.code, 'not_payable');
  });

  test('recurring: a card that declines later charges fails the charge with payment_failure', async () => {
    const token = await checkout({ force_recurring: true }, CARD.chargesDeclined);
    assert.equal(token.status, 'paid');
    const next = await create();
    await refused(client.purchases.charge(next.id, { recurring_token: token.id }), 'purchase_charge_error');
    const after = await client.purchases.get(next.id);
    assert.equal(after.status, 'error');
    assert.equal((await client.purchases.failureCause(next.id))?.code, 'card_declined');
    await expectEvents(next.id, ['purchase.created', 'purchase.payment_failure']);
  });

  test('recurring: a slow charge is pending_charge, then paid', async () => {
    const token = await checkout({ force_recurring: true });
    const next = await create();
    const pending = await operation(`/purchases/${next.id}/charge/`, {
      body: { recurring_token: token.id },
      headers: slow,
    });
    assert.equal(pending.body.status, 'pending_charge');
    await advance(SLOW_MS);
    assert.equal((await client.purchases.get(next.id)).status, 'paid');
    await expectEvents(next.id, ['purchase.created', 'purchase.pending_charge', 'purchase.paid']);
  });

  test('delete_recurring_token: no longer a token, at once unusable; slow: pending, then deleted', async () => {
    const token = await checkout({ force_recurring: true });
    const deleted = await client.purchases.deleteRecurringToken(token.id);
    assert.equal(deleted.is_recurring_token, false);
    assert.equal(deleted.status, 'paid', 'the status does not change');
    const next = await create();
    await refused(client.purchases.charge(next.id, { recurring_token: token.id }), 'purchase_charge_error');
    assert.equal((await client.purchases.failureCause(next.id))?.code, 'invalid_recurring_token');
    await expectEvents(token.id, ['purchase.created', 'purchase.paid', 'purchase.recurring_token_deleted']);
    // Again: nothing more happens.
    assert.equal((await client.purchases.deleteRecurringToken(token.id)).is_recurring_token, false);

    const slowToken = await checkout({ force_recurring: true });
    const pending = await operation(`/purchases/${slowToken.id}/delete_recurring_token/`, { headers: slow });
    assert.equal(pending.status, 200);
    const other = await create();
    await refused(
      client.purchases.charge(other.id, { recurring_token: slowToken.id }),
      'purchase_charge_error',
    );
    await advance(SLOW_MS);
    assert.equal((await client.purchases.get(slowToken.id)).is_recurring_token, false);
    await expectEvents(slowToken.id, [
      'purchase.created',
      'purchase.paid',
      'purchase.pending_recurring_token_delete',
      'purchase.recurring_token_deleted',
    ]);
  });

  test('a token of another account, or no token, charges nothing', async () => {
    const theirs = await v1(sandbox, 'POST', '/purchases/', {
      key: OTHER.secretKey,
      body: purchaseBody({ brand_id: OTHER.brandId, force_recurring: true }),
    });
    await postForm(sandbox, `/checkout/${theirs.body.id}/pay`, cardForm(CARD.approved));
    const token = await v1(sandbox, 'GET', `/purchases/${theirs.body.id}/`, { key: OTHER.secretKey });
    assert.equal(token.body.is_recurring_token, true, 'a token of the other account');
    const plain = await checkout();
    const next = await create();
    for (const id of [theirs.body.id as string, plain.id]) {
      await refused(client.purchases.charge(next.id, { recurring_token: id }), 'purchase_charge_error');
      assert.equal((await client.purchases.failureCause(next.id))?.code, 'invalid_recurring_token');
    }
    const missing = await operation(`/purchases/${next.id}/charge/`, { body: {} });
    assert.equal(missing.body.recurring_token.code, 'required');
    assert.equal((await client.purchases.get(next.id)).status, 'created');
  });

  test('mark_as_paid: paid with marked_as_paid and paid_on, nothing refundable; a paid one is refused', async () => {
    const open = await create();
    const marked = await client.purchases.markAsPaid(open.id, { paid_on: 1_700_000_000 });
    assert.equal(marked.status, 'paid');
    assert.equal(marked.marked_as_paid, true);
    assert.equal(marked.paid_on, 1_700_000_000);
    assert.equal(marked.refundable_amount, 0);
    await refused(client.purchases.refund(open.id), 'purchase_refund_error');
    const again = await operation(`/purchases/${open.id}/mark_as_paid/`);
    assert.equal(again.status, 400);
    assert.equal(again.body.__all__.code, 'invalid');
    const held = await checkout({ skip_capture: true });
    const holdMarked = await client.purchases.markAsPaid(held.id);
    assert.equal(holdMarked.status, 'paid', 'any purchase not paid yet, a hold too');
    const cancelled = await create();
    await client.purchases.cancel(cancelled.id);
    const now = Math.floor(Date.now() / 1000);
    const late = await client.purchases.markAsPaid(cancelled.id);
    assert.ok(late.paid_on! >= now, 'paid_on is now when left out');
  });

  test('resend_invoice answers a purchase that can be paid, and refuses one that cannot', async () => {
    const open = await create();
    assert.equal((await client.purchases.resendInvoice(open.id)).id, open.id);
    const paid = await checkout();
    const refusedInvoice = await operation(`/purchases/${paid.id}/resend_invoice/`);
    assert.equal(refusedInvoice.status, 400);
  });

  test('a restart keeps what waits on the clock: a slow capture settles and a hold is released', async () => {
    const pendingCapture = await checkout({ skip_capture: true });
    await operation(`/purchases/${pendingCapture.id}/capture/`, { headers: slow });
    const held = await checkout({ skip_capture: true });
    await sandbox.close();
    await start();
    assert.equal((await client.purchases.get(pendingCapture.id)).status, 'pending_capture');
    await advance(SLOW_MS);
    assert.equal((await client.purchases.get(pendingCapture.id)).status, 'paid');
    await advance(6 * DAY_MS);
    assert.equal((await client.purchases.get(held.id)).status, 'released');
  });
});

describe('the sandbox clock control', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => ({ merchant, sandbox } = fixture));

  const post = (body: string, type = 'application/json', authorization = `Bearer ${V1.secretKey}`) =>
    fetch(`${sandbox.url}/sandbox/v1/clock`, {
      method: 'POST',
      headers: { 'content-type': type, authorization },
      body,
    });

  test("moves only with a merchant's v1 secret key", async () => {
    for (const authorization of ['', 'Bearer wrong-key', `Basic ${V1.secretKey}`]) {
      const answer = await post(JSON.stringify({ advance_seconds: 60 }), 'application/json', authorization);
      assert.equal(answer.status, 401, authorization);
      assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
    }
    const read = await (await fetch(`${sandbox.url}/sandbox/v1/clock`)).json();
    assert.equal(read.ahead_ms, 0, 'nothing moved');
  });

  test('reads and moves forward, saying how far it is ahead of real time', async () => {
    const before = await (await fetch(`${sandbox.url}/sandbox/v1/clock`)).json();
    assert.equal(before.ahead_ms, 0);
    const moved = await (await post(JSON.stringify({ advance_seconds: 3600 }))).json();
    assert.equal(moved.ahead_ms, 3_600_000);
    assert.ok(moved.now_unix - before.now_unix >= 3600);
    assert.equal(Math.floor(Date.parse(moved.now) / 1000), moved.now_unix);
  });

  test('refuses what is not one forward step in JSON, and moves nothing', async () => {
    const form = await post('advance_seconds=10', 'application/x-www-form-urlencoded');
    assert.equal(form.status, 415);
    const plain = await post(JSON.stringify({ advance_seconds: 10 }), 'text/plain');
    assert.equal(plain.status, 415);
    for (const body of [
      {},
      { advance_seconds: -1 },
      { advance_seconds: 1.5 },
      { advance_seconds: '10' },
      { advance_seconds: 1, advance_ms: 1 },
      { advance_ms: 400 * 24 * 3600 * 1000 },
      { back: 1 },
    ]) {
      const answer = await post(JSON.stringify(body));
      assert.equal(answer.status, 400, JSON.stringify(body));
      const error = (await answer.json()) as { error: { code: string; message: string } };
      assert.equal(error.error.code, 'invalid_request');
    }
    assert.equal((await post('[')).status, 400);
    const after = await (await fetch(`${sandbox.url}/sandbox/v1/clock`)).json();
    assert.equal(after.ahead_ms, 3_600_000, 'only the first test moved it');
  });
});

describe('the acquirer mode in the sandbox config', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    const file = v1ConfigFile(merchant.url);
    file.merchants[0]!.v1 = { ...V1, acquirer: { mode: 'slow', slowMs: 5000 } };
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  test('slow for every request of the merchant, at its slowMs; the header still overrides it', async () => {
    const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    const hold = async () => {
      const purchase = await client.purchases.create(purchaseBody({ skip_capture: true }) as never);
      await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(CARD.approved));
      return purchase.id;
    };
    const slowly = await hold();
    assert.equal((await client.purchases.capture(slowly)).status, 'pending_capture');
    sandbox.clock.advance(4000);
    assert.equal((await client.purchases.get(slowly)).status, 'pending_capture');
    sandbox.clock.advance(1000);
    assert.equal((await client.purchases.get(slowly)).status, 'paid');
    const promptly = await hold();
    const answer = await v1(sandbox, 'POST', `/purchases/${promptly}/capture/`, {
      headers: { 'x-sandbox-acquirer': 'normal' },
    });
    assert.equal(answer.body.status, 'paid');
  });

  test('a mode or slowMs the sandbox does not know is refused at start, naming the field', () => {
    const file = v1ConfigFile(merchant.url);
    file.merchants[0]!.v1 = { ...V1, acquirer: { mode: 'sometimes' as never, slowMs: 0 } };
    assert.throws(
      () => parseConfig(file),
      (error: Error) =>
        /merchants\[0\]\.v1\.acquirer\.mode/.test(error.message) &&
        /merchants\[0\]\.v1\.acquirer\.slowMs/.test(error.message),
    );
  });
});

describe('delivery retries on the sandbox clock', () => {
  test('a webhook refused once is sent again when the clock reaches its retry, not before', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startV1Sandbox(merchant, { retryBaseMs: 60_000 });
    try {
      const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
      let refused = 0;
      merchant.respond('/hooks', () => (refused++ === 0 ? { status: 500 } : { status: 200 }));
      await client.webhooks.create({ title: 'all', callback: `${merchant.url}/hooks`, all_events: true });
      await client.purchases.create(purchaseBody() as never);
      await merchant.waitFor('/hooks', 1);
      // A minute on the real clock would be the test's wait; the sandbox clock takes it at once.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(merchant.requests('/hooks').length, 1, 'no retry before it is due');
      sandbox.clock.advance(59_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(merchant.requests('/hooks').length, 1, 'still not due');
      sandbox.clock.advance(1_000);
      await merchant.waitFor('/hooks', 2);
      const [first, second] = merchant.requests('/hooks');
      assert.equal(second!.body, first!.body, 'the same bytes again');
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });
});
