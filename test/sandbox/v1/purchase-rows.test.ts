/**
 * The v1 rows the first audit found partial: `mark_as_paid` on a Purchase the acquirer holds money for (or
 * is about to), the card saved without a charge (`preauthorized`), `resend_invoice` in the outbox, a bank
 * payment refunded in part (`pis_partial`), and a charge accepted then declined. Each through HTTP as a
 * merchant's server makes it, the events read from a real webhook receiver, and the acquirer's ledger read
 * from the data dir between two starts: what it holds, takes and gives back must add up, nothing pending.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Purchase } from '../../../src/core/v1-types.js';
import type { Authorisation } from '../../../src/sandbox/acquirer.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import type { PurchaseRecord } from '../../../src/sandbox/v1/purchases.js';
import { V1ApiError, type V1Client } from '../../../src/server/index.js';
import type { FakeMerchant } from '../support.js';
import {
  advanceClock,
  cardForm,
  expectWebhookEvents,
  postForm,
  purchaseBody,
  subscribeToEveryEvent,
  V1,
  v1,
  withV1Sandbox,
} from './support.js';

const WEBHOOK_PATH = '/v1/rows-webhook';
const CALLBACK_PATH = '/v1/rows-success';
const DAY_MS = 24 * 60 * 60 * 1000;
const SLOW_MS = 10_000;
const CARD = {
  approved: '4111111111111111',
  challenge: '4000000000003220',
  declinedAfterAcceptance: '4000000000000358',
} as const;
const slow = { 'x-sandbox-acquirer': 'slow' };
/** The `purchase` of a Purchase that saves the card without a charge (with `skip_capture`). */
const CARD_CHECK = { products: [{ name: 'Card check', price: 0 }], language: 'en' } as const;

describe('v1 rows: mark_as_paid, preauthorized, resend_invoice, pis_partial, a charge declined later', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let dataDir: string;
  let webhookKey: string;

  const start = async () => {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  };

  before(async () => {
    ({ merchant, sandbox, client, dataDir } = fixture);
    webhookKey = await subscribeToEveryEvent(fixture, WEBHOOK_PATH);
  });

  const expectEvents = (id: string, expected: string[]) =>
    expectWebhookEvents(merchant, WEBHOOK_PATH, id, expected, webhookKey);
  const callbacksOf = (id: string) =>
    merchant.requests(CALLBACK_PATH).filter((request) => JSON.parse(request.body).id === id);
  const operation = (path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) =>
    v1(sandbox, 'POST', path, options);

  async function create(overrides: Record<string, unknown> = {}): Promise<Purchase> {
    return client.purchases.create(
      purchaseBody({
        client: { email: 'anna@example.com', full_name: 'Anna Tester' },
        success_callback: `${merchant.url}${CALLBACK_PATH}`,
        ...overrides,
      }) as never,
    );
  }

  /** A purchase of 25.00 paid (held with `skip_capture`) on the hosted page with `card`. */
  async function checkout(overrides: Record<string, unknown> = {}, card: string = CARD.approved) {
    const purchase = await create(overrides);
    const answer = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(card));
    assert.equal(answer.status, 200, answer.html);
    return client.purchases.get(purchase.id);
  }

  /** A Purchase that saves the card without a charge: `skip_capture` with a total of 0. */
  const cardSaving = (overrides: Record<string, unknown> = {}) =>
    checkout({
      skip_capture: true,
      purchase: CARD_CHECK,
      ...overrides,
    });

  /** The error a call rejects with: a 400 with the document's `code`. */
  async function refused(call: Promise<unknown>, code: string): Promise<V1ApiError> {
    const error = await call.then(
      () => assert.fail(`expected ${code}`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof V1ApiError, String(error));
    assert.equal(error.status, 400);
    assert.equal(error.errors?.[0]?.code, code, JSON.stringify(error.errors));
    return error;
  }

  /**
   * The acquirer's authorisation behind each purchase, read from the data dir with the sandbox stopped, then
   * the sandbox started again on it (so what waits on the clock must survive the restart too).
   */
  async function ledgerOf(...ids: string[]): Promise<Authorisation[]> {
    await sandbox.close();
    const store = openStore({ dataDir });
    const purchases = store.collection<PurchaseRecord>('v1-purchases');
    const authorisations = store.collection<Authorisation>('acquirer-authorisations');
    const found = ids.map((id) => {
      const authorisationId = purchases.get(id)?.authorisationId;
      assert.ok(authorisationId, `purchase ${id} has an authorisation`);
      return authorisations.get(authorisationId)!;
    });
    await store.close();
    await start();
    return found;
  }

  /** Nothing pending, nothing held: every minor unit authorised was taken or given back. */
  function settled(authorisation: Authorisation, taken: number): void {
    assert.equal(authorisation.pending, null, 'no operation pending');
    assert.equal(authorisation.captured, taken, 'taken');
    if (authorisation.state === 'authorised') {
      assert.equal(authorisation.captured + authorisation.released, authorisation.amount, 'nothing held');
    }
  }

  describe('mark_as_paid', () => {
    test('a hold: its money is given back first, then paid; the 6-day release finds nothing', async () => {
      const held = await checkout({ skip_capture: true });
      const marked = await client.purchases.markAsPaid(held.id);
      assert.equal(marked.status, 'paid');
      assert.equal(marked.marked_as_paid, true);
      assert.equal(marked.refundable_amount, 0);
      assert.equal(marked.transaction_data.attempts[0]?.type, 'release');
      assert.equal(marked.transaction_data.attempts[0]?.successful, true);
      const [authorisation] = await ledgerOf(held.id);
      settled(authorisation!, 0);
      assert.equal(authorisation!.released, 2500);
      await advanceClock(sandbox, 7 * DAY_MS);
      assert.equal((await client.purchases.get(held.id)).status, 'paid');
      await refused(client.purchases.capture(held.id), 'purchase_capture_error');
      await refused(client.purchases.refund(held.id), 'purchase_refund_error');
      await expectEvents(held.id, ['purchase.created', 'purchase.hold']);
    });

    test('a slow capture, release or charge in flight is dropped: its answer never comes, nothing is taken', async () => {
      const capturing = await checkout({ skip_capture: true });
      assert.equal(
        (await operation(`/purchases/${capturing.id}/capture/`, { headers: slow })).body.status,
        'pending_capture',
      );
      const releasing = await checkout({ skip_capture: true });
      assert.equal(
        (await operation(`/purchases/${releasing.id}/release/`, { headers: slow })).body.status,
        'pending_release',
      );
      const token = await checkout({ force_recurring: true });
      const charging = await create();
      const charge = await operation(`/purchases/${charging.id}/charge/`, {
        body: { recurring_token: token.id },
        headers: slow,
      });
      assert.equal(charge.body.status, 'pending_charge');

      for (const { id } of [capturing, releasing, charging]) {
        const marked = await client.purchases.markAsPaid(id);
        assert.equal(marked.status, 'paid');
        assert.equal(marked.marked_as_paid, true);
      }
      // The restart in ledgerOf sets again whatever the clock still had to do.
      const ledger = await ledgerOf(capturing.id, releasing.id, charging.id);
      for (const authorisation of ledger) settled(authorisation, 0);
      await advanceClock(sandbox, SLOW_MS);
      for (const { id } of [capturing, releasing, charging]) {
        const after = await client.purchases.get(id);
        assert.equal(after.status, 'paid');
        assert.equal(after.refundable_amount, 0);
      }
      await expectEvents(capturing.id, ['purchase.created', 'purchase.hold', 'purchase.pending_capture']);
      await expectEvents(releasing.id, ['purchase.created', 'purchase.hold', 'purchase.pending_release']);
      await expectEvents(charging.id, ['purchase.created', 'purchase.pending_charge']);
      assert.deepEqual(callbacksOf(capturing.id), [], 'no success callback: nothing was captured');
      assert.deepEqual(callbacksOf(charging.id), [], 'no success callback: nothing was charged');
      // The token charges again: the dropped charge did not use it up.
      const next = await create();
      assert.equal((await client.purchases.charge(next.id, { recurring_token: token.id })).status, 'paid');
    });

    test('an open 3-D Secure challenge is declined: answered later, it authorises nothing', async () => {
      const purchase = await create();
      const challenged = await postForm(sandbox, `/checkout/${purchase.id}/pay`, cardForm(CARD.challenge));
      assert.equal(challenged.status, 303);
      await client.purchases.markAsPaid(purchase.id);
      await postForm(sandbox, challenged.location!, { decision: 'approve' });
      const after = await client.purchases.get(purchase.id);
      assert.equal(after.status, 'paid');
      assert.equal(after.marked_as_paid, true);
      assert.equal(after.transaction_data.attempts.length, 0, 'no payment went through');
      await sandbox.close();
      const store = openStore({ dataDir });
      const open = [...store.collection<Authorisation>('acquirer-authorisations').values()].filter(
        (authorisation) => authorisation.state === 'challenge',
      );
      await store.close();
      await start();
      assert.deepEqual(open, [], 'no challenge is left open, as if it could still take money');
    });

    test('a paid purchase, or one whose refund is under way, is paid already: 400', async () => {
      const paid = await checkout();
      await operation(`/purchases/${paid.id}/refund/`, { body: { amount: 500 }, headers: slow });
      assert.equal((await client.purchases.get(paid.id)).status, 'pending_refund');
      const answer = await operation(`/purchases/${paid.id}/mark_as_paid/`);
      assert.equal(answer.status, 400);
      assert.equal(answer.body.__all__.code, 'invalid');
      assert.match(answer.body.__all__.message, /paid already; a refund of it is being processed/);
      await advanceClock(sandbox, SLOW_MS);
      const refunded = await client.purchases.get(paid.id);
      assert.equal(refunded.marked_as_paid, false);
      assert.equal(refunded.refundable_amount, 2000);
    });
  });

  describe('a card saved without a charge', () => {
    test('preauthorized with purchase.preauthorized, a token, no success callback, never released', async () => {
      const form = await (
        await fetch((await create({ skip_capture: true, purchase: CARD_CHECK })).checkout_url)
      ).text();
      assert.match(
        form,
        /<button type="submit" class="pay" aria-describedby="save-note">Save card<\/button>/,
      );
      const saved = await cardSaving({ force_recurring: true });
      assert.equal(saved.status, 'preauthorized');
      assert.equal(saved.is_recurring_token, true);
      assert.equal(saved.refundable_amount, 0);
      assert.equal(saved.refund_availability, 'none');
      assert.equal(saved.transaction_data.attempts[0]?.payment_method, 'visa');
      await expectEvents(saved.id, ['purchase.created', 'purchase.preauthorized']);
      await advanceClock(sandbox, 7 * DAY_MS);
      assert.equal((await client.purchases.get(saved.id)).status, 'preauthorized');
      const page = await (await fetch(saved.checkout_url)).text();
      assert.match(page, /Your card has been saved; nothing was charged/);
      assert.deepEqual(callbacksOf(saved.id), []);
      await expectEvents(saved.id, ['purchase.created', 'purchase.preauthorized']);
    });

    test('capture and release refuse it by name; charge uses it; delete_recurring_token deletes it', async () => {
      const saved = await cardSaving({ force_recurring: true });
      await refused(client.purchases.capture(saved.id), 'purchase_capture_error');
      const cause = await client.purchases.failureCause(saved.id);
      assert.equal(cause?.code, 'not_held');
      assert.match(cause?.description ?? '', /preauthorized: its card was saved without a charge/);
      await refused(client.purchases.release(saved.id), 'purchase_release_error');
      assert.equal((await client.purchases.get(saved.id)).status, 'preauthorized');

      const next = await create();
      const charged = await client.purchases.charge(next.id, { recurring_token: saved.id });
      assert.equal(charged.status, 'paid');
      assert.equal(charged.refundable_amount, 2500);

      const deleted = await client.purchases.deleteRecurringToken(saved.id);
      assert.equal(deleted.is_recurring_token, false);
      assert.equal(deleted.status, 'preauthorized', 'the status does not change, as in the samples');
      await expectEvents(saved.id, [
        'purchase.created',
        'purchase.preauthorized',
        'purchase.recurring_token_deleted',
      ]);
      const later = await create();
      await refused(
        client.purchases.charge(later.id, { recurring_token: saved.id }),
        'purchase_charge_error',
      );
      const [authorisation] = await ledgerOf(saved.id);
      settled(authorisation!, 0);
      assert.equal(authorisation!.amount, 0, 'nothing was ever held');
    });

    test('it saves the card without force_recurring too; cards only, so a wallet-only one is refused', async () => {
      const saved = await cardSaving();
      assert.equal(saved.status, 'preauthorized');
      assert.equal(saved.is_recurring_token, true);
      const walletOnly = await v1(sandbox, 'POST', '/purchases/', {
        body: purchaseBody({
          skip_capture: true,
          purchase: CARD_CHECK,
          payment_method_whitelist: ['svc_wallet_a'],
        }),
      });
      assert.equal(walletOnly.status, 400, JSON.stringify(walletOnly.body));
      assert.match(walletOnly.body.payment_method_whitelist.message, /preauthorization/);
    });

    test('no path leaves it open: refund, a charge of it, slow charges and deletions all end with nothing held', async () => {
      const saved = await cardSaving({ force_recurring: true });
      await refused(client.purchases.refund(saved.id), 'purchase_refund_error');
      assert.match((await client.purchases.failureCause(saved.id))?.description ?? '', /preauthorized/);
      const token = await checkout({ force_recurring: true });
      await refused(
        client.purchases.charge(saved.id, { recurring_token: token.id }),
        'purchase_charge_error',
      );

      // Saved again without the customer, through a slow acquirer: pending_charge, then preauthorized.
      const again = await create({ skip_capture: true, purchase: CARD_CHECK });
      const pending = await operation(`/purchases/${again.id}/charge/`, {
        body: { recurring_token: token.id },
        headers: slow,
      });
      assert.equal(pending.body.status, 'pending_charge', JSON.stringify(pending.body));
      await advanceClock(sandbox, SLOW_MS);
      assert.equal((await client.purchases.get(again.id)).status, 'preauthorized');
      await expectEvents(again.id, ['purchase.created', 'purchase.pending_charge', 'purchase.preauthorized']);

      const deleting = await operation(`/purchases/${saved.id}/delete_recurring_token/`, { headers: slow });
      assert.equal(deleting.status, 200);
      await advanceClock(sandbox, SLOW_MS);
      await expectEvents(saved.id, [
        'purchase.created',
        'purchase.preauthorized',
        'purchase.pending_recurring_token_delete',
        'purchase.recurring_token_deleted',
      ]);
      await advanceClock(sandbox, 7 * DAY_MS);
      const deleted = await client.purchases.get(saved.id);
      assert.equal(deleted.status, 'preauthorized');
      assert.equal(deleted.is_recurring_token, false);
      for (const authorisation of await ledgerOf(saved.id, again.id)) {
        settled(authorisation, 0);
        assert.equal(authorisation.amount, 0, 'nothing was ever held');
      }
      assert.equal((await client.purchases.markAsPaid(again.id)).status, 'paid', 'mark_as_paid ends it too');
    });

    test('a saved card of its Client: listed, offered at checkout, and pays in one click', async () => {
      const stored = await client.clients.create({ email: 'saver@example.com' });
      const saved = await cardSaving({ client_id: stored.id });
      const tokens = await v1(sandbox, 'GET', `/clients/${stored.id}/recurring_tokens/`);
      assert.deepEqual(
        tokens.body.results.map((token: { id: string }) => token.id),
        [saved.id],
      );
      const next = await create({ client_id: stored.id });
      const page = await (await fetch(next.checkout_url)).text();
      assert.match(page, new RegExp(`value="saved:${saved.id}"`));
      const paid = await postForm(sandbox, `/checkout/${next.id}/pay`, { method: `saved:${saved.id}` });
      assert.equal(paid.status, 200, paid.html);
      assert.equal((await client.purchases.get(next.id)).status, 'paid');
    });

    test('one an earlier version left as a hold of nothing is preauthorized at the next start', async () => {
      const saved = await cardSaving({ force_recurring: true });
      await sandbox.close();
      const store = openStore({ dataDir });
      const purchases = store.collection<PurchaseRecord>('v1-purchases');
      const record = purchases.get(saved.id)!;
      store.transaction(() =>
        purchases.put(saved.id, {
          ...record,
          releaseAt: sandbox.clock.now().getTime() + DAY_MS,
          purchase: { ...record.purchase, status: 'hold' },
        }),
      );
      await store.close();
      await start();
      assert.equal((await client.purchases.get(saved.id)).status, 'preauthorized');
      await advanceClock(sandbox, 2 * DAY_MS);
      assert.equal((await client.purchases.get(saved.id)).status, 'preauthorized');
      await expectEvents(saved.id, ['purchase.created', 'purchase.preauthorized']);
    });

    test('mark_as_paid takes it too: nothing was held', async () => {
      const saved = await cardSaving();
      const marked = await client.purchases.markAsPaid(saved.id);
      assert.equal(marked.status, 'paid');
      assert.equal(marked.marked_as_paid, true);
    });
  });

  test('resend_invoice puts one more invoice in the outbox; a paid purchase has none to send', async () => {
    const outbox = async () => {
      const answer = await fetch(`${sandbox.url}/sandbox/v1/outbox/?per_page=100`, {
        headers: { authorization: `Bearer ${V1.secretKey}` },
      });
      return ((await answer.json()) as { results: Array<Record<string, unknown>> }).results;
    };
    const open = await create();
    assert.equal((await client.purchases.resendInvoice(open.id)).id, open.id);
    assert.equal((await client.purchases.resendInvoice(open.id)).id, open.id);
    const mailed = (await outbox()).filter((message) => message.purchase_id === open.id);
    assert.equal(mailed.length, 2, 'one invoice per call');
    for (const message of mailed) {
      assert.equal(message.kind, 'invoice');
      assert.equal(message.to, 'anna@example.com');
      assert.equal(message.amount, 2500);
      assert.equal(message.checkout_url, open.checkout_url);
      assert.equal(message.billing_template_id, null);
    }
    const paid = await checkout();
    const answer = await operation(`/purchases/${paid.id}/resend_invoice/`);
    assert.equal(answer.status, 400);
    assert.equal((await outbox()).filter((message) => message.purchase_id === paid.id).length, 0);
  });

  test('a bank payment refunded in part is pis_partial, then none; the ledger took and gave back 25.00', async () => {
    const purchase = await create();
    const started = await postForm(sandbox, `/checkout/${purchase.id}/pay`, { method: 'swedbank_lv_pis' });
    await postForm(sandbox, started.location!, { decision: 'approve' });
    assert.equal((await client.purchases.get(purchase.id)).refund_availability, 'pis_all');
    await client.purchases.refund(purchase.id, { amount: 1000 });
    const part = await client.purchases.get(purchase.id);
    assert.equal(part.refund_availability, 'pis_partial');
    assert.equal(part.refundable_amount, 1500);
    // Slow, the rest: still pis_partial while it is under way.
    await operation(`/purchases/${purchase.id}/refund/`, { headers: slow });
    assert.equal((await client.purchases.get(purchase.id)).refund_availability, 'pis_partial');
    await advanceClock(sandbox, SLOW_MS);
    const all = await client.purchases.get(purchase.id);
    assert.equal(all.refund_availability, 'none');
    assert.equal(all.refundable_amount, 0);
    const [authorisation] = await ledgerOf(purchase.id);
    settled(authorisation!, 2500);
    assert.equal(authorisation!.refunded, 2500);
  });

  describe('a charge accepted, then declined (test card 4000 0000 0000 0358)', () => {
    test('pending_charge, then error with purchase.payment_failure; nothing held; payable again', async () => {
      const token = await checkout({ force_recurring: true }, CARD.declinedAfterAcceptance);
      assert.equal(token.is_recurring_token, true);
      const next = await create();
      const pending = await client.purchases.charge(next.id, { recurring_token: token.id });
      assert.equal(pending.status, 'pending_charge', 'accepted, even without the slow mode');
      await advanceClock(sandbox, SLOW_MS / 2);
      assert.equal((await client.purchases.get(next.id)).status, 'pending_charge');
      await advanceClock(sandbox, SLOW_MS / 2);
      const failed = await client.purchases.get(next.id);
      assert.equal(failed.status, 'error');
      assert.equal(failed.refundable_amount, 0);
      const cause = await client.purchases.failureCause(next.id);
      assert.equal(cause?.code, 'card_declined');
      assert.equal(failed.transaction_data.attempts[0]?.type, 'charge');
      assert.equal(failed.transaction_data.attempts[0]?.payment_method, 'visa');
      await expectEvents(next.id, [
        'purchase.created',
        'purchase.pending_charge',
        'purchase.payment_failure',
      ]);
      assert.deepEqual(callbacksOf(next.id), []);
      const [authorisation] = await ledgerOf(next.id);
      assert.equal(authorisation!.state, 'declined');
      settled(authorisation!, 0);

      const good = await checkout({ force_recurring: true });
      assert.equal((await client.purchases.charge(next.id, { recurring_token: good.id })).status, 'paid');
    });

    test('where the answer cannot wait (one click at checkout), the card is declined at once', async () => {
      const stored = await client.clients.create({ email: 'later@example.com' });
      const token = await checkout(
        { client_id: stored.id, force_recurring: true },
        CARD.declinedAfterAcceptance,
      );
      const next = await create({ client_id: stored.id });
      await postForm(sandbox, `/checkout/${next.id}/pay`, { method: `saved:${token.id}` });
      const after = await client.purchases.get(next.id);
      assert.equal(after.status, 'error');
      assert.equal((await client.purchases.failureCause(next.id))?.code, 'card_declined');
    });
  });
});
