/**
 * Two operations on one Purchase while the slow acquirer has not answered the first: every pending operation
 * completes (or fails) whatever else is asked meanwhile. A token deletion runs alongside a money operation;
 * a second money operation is refused by the name of the one in flight. Each through HTTP, the events read
 * from a real webhook receiver, and the acquirer's ledger and the refund Payments read from the data dir.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Purchase } from '../../../src/core/v1-types.js';
import type { Authorisation } from '../../../src/sandbox/acquirer.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import type { StoredRefund } from '../../../src/sandbox/v1/purchase-view.js';
import type { PurchaseRecord } from '../../../src/sandbox/v1/purchases.js';
import type { V1Client } from '../../../src/server/index.js';
import type { FakeMerchant } from '../support.js';
import {
  advanceClock,
  cardForm,
  expectWebhookEvents,
  postForm,
  purchaseBody,
  subscribeToEveryEvent,
  v1,
  withV1Sandbox,
} from './support.js';

const WEBHOOK_PATH = '/v1/overlaps-webhook';
const HOUR_MS = 60 * 60 * 1000;
const slow = { 'x-sandbox-acquirer': 'slow' };

describe('v1 operations overlapping on one Purchase with the slow acquirer', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let dataDir: string;

  const start = async () => {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  };

  before(async () => {
    ({ merchant, sandbox, client, dataDir } = fixture);
    await subscribeToEveryEvent(fixture, WEBHOOK_PATH);
  });

  const operation = (id: string, name: string, body?: unknown) =>
    v1(sandbox, 'POST', `/purchases/${id}/${name}/`, { headers: slow, ...(body !== undefined && { body }) });

  /** A purchase of 25.00 with `force_recurring`, paid (held with `skip_capture`) on the hosted page. */
  async function token(overrides: Record<string, unknown> = {}): Promise<Purchase> {
    const created = await client.purchases.create(
      purchaseBody({ force_recurring: true, ...overrides }) as never,
    );
    const answer = await postForm(sandbox, `/checkout/${created.id}/pay`, cardForm('4111111111111111'));
    assert.equal(answer.status, 200, answer.html);
    const paid = await client.purchases.get(created.id);
    assert.equal(paid.is_recurring_token, true);
    return paid;
  }

  /**
   * The acquirer's authorisation and the refund Payments of a purchase, read from the data dir with the
   * sandbox stopped, then the sandbox started again on it.
   */
  async function stored(id: string): Promise<{ authorisation: Authorisation; refunds: StoredRefund[] }> {
    await sandbox.close();
    const store = openStore({ dataDir });
    const record = store.collection<PurchaseRecord>('v1-purchases').get(id)!;
    const authorisation = store
      .collection<Authorisation>('acquirer-authorisations')
      .get(record.authorisationId!)!;
    const refunds = [...store.collection<{ payment: StoredRefund }>('v1-payments').values()]
      .map((entry) => entry.payment)
      .filter((payment) => payment.related_to.id === id);
    await store.close();
    await start();
    return { authorisation, refunds };
  }

  const events = (id: string, expected: string[]) =>
    expectWebhookEvents(merchant, WEBHOOK_PATH, id, expected);

  test('slow refund, then slow token deletion: both complete, and a later refund is taken', async () => {
    const paid = await token();
    const refund = await operation(paid.id, 'refund', { amount: 400 });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    const deleting = await operation(paid.id, 'delete_recurring_token');
    assert.equal(deleting.status, 200, JSON.stringify(deleting.body));
    assert.equal(deleting.body.status, 'pending_refund', 'the refund is still in flight');
    await advanceClock(sandbox, HOUR_MS);

    const after = await client.purchases.get(paid.id);
    assert.equal(after.status, 'paid');
    assert.equal(after.refundable_amount, 2100);
    assert.equal(after.is_recurring_token, false);
    await events(paid.id, [
      'purchase.created',
      'purchase.paid',
      'purchase.pending_refund',
      'purchase.pending_recurring_token_delete',
      'purchase.recurring_token_deleted',
    ]);
    await events(refund.body.id, ['payment.refunded']);
    const { authorisation, refunds } = await stored(paid.id);
    assert.equal(authorisation.pending, null);
    assert.equal(authorisation.refunded, 400, 'the refund reached the acquirer');
    assert.equal(authorisation.recurring, false);
    assert.deepEqual(
      refunds.map((payment) => [payment.amount, payment.status]),
      [[400, 'paid']],
    );
    const later = await client.purchases.refund(paid.id, { amount: 100 });
    assert.equal(later.status, 'success');
    assert.equal((await client.purchases.get(paid.id)).refundable_amount, 2000);
  });

  test('slow token deletion, then slow refund: both complete, with purchase.recurring_token_deleted', async () => {
    const paid = await token();
    assert.equal((await operation(paid.id, 'delete_recurring_token')).status, 200);
    const refund = await operation(paid.id, 'refund', { amount: 400 });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    await advanceClock(sandbox, HOUR_MS);

    const after = await client.purchases.get(paid.id);
    assert.equal(after.status, 'paid');
    assert.equal(after.refundable_amount, 2100);
    assert.equal(after.is_recurring_token, false);
    await events(paid.id, [
      'purchase.created',
      'purchase.paid',
      'purchase.pending_recurring_token_delete',
      'purchase.pending_refund',
      'purchase.recurring_token_deleted',
    ]);
    const { authorisation, refunds } = await stored(paid.id);
    assert.equal(authorisation.pending, null);
    assert.equal(authorisation.refunded, 400);
    assert.equal(authorisation.recurring, false);
    assert.deepEqual(
      refunds.map((payment) => payment.status),
      ['paid'],
    );
  });

  for (const [money, status, event, captured] of [
    ['capture', 'paid', 'purchase.captured', 2500],
    ['release', 'released', 'purchase.released', 0],
  ] as const) {
    test(`a hold with force_recurring, slow ${money}, then slow token deletion: both complete`, async () => {
      const held = await token({ skip_capture: true });
      assert.equal(held.status, 'hold');
      assert.equal((await operation(held.id, money)).body.status, `pending_${money}`);
      assert.equal((await operation(held.id, 'delete_recurring_token')).status, 200);
      await advanceClock(sandbox, HOUR_MS);

      const after = await client.purchases.get(held.id);
      assert.equal(after.status, status);
      assert.equal(after.is_recurring_token, false);
      await events(held.id, [
        'purchase.created',
        'purchase.hold',
        `purchase.pending_${money}`,
        'purchase.pending_recurring_token_delete',
        event,
        'purchase.recurring_token_deleted',
      ]);
      const { authorisation } = await stored(held.id);
      assert.equal(authorisation.pending, null);
      assert.equal(authorisation.captured, captured);
      assert.equal(authorisation.captured + authorisation.released, authorisation.amount, 'nothing held');
    });
  }

  test('a second money operation while one is in flight is refused by its name; the first completes', async () => {
    const held = await token({ skip_capture: true });
    assert.equal((await operation(held.id, 'capture', { amount: 2000 })).status, 200);
    for (const [second, code] of [
      ['capture', 'purchase_capture_error'],
      ['release', 'purchase_release_error'],
      ['refund', 'purchase_refund_error'],
    ] as const) {
      const answer = await operation(held.id, second);
      assert.equal(answer.status, 400, `${second}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.__all__.code, code);
      assert.match(answer.body.__all__.message, /A capture of this purchase is still being processed/);
    }
    await advanceClock(sandbox, HOUR_MS);
    const captured = await client.purchases.get(held.id);
    assert.equal(captured.status, 'paid');
    assert.equal(captured.refundable_amount, 2000);

    assert.equal((await operation(held.id, 'refund', { amount: 500 })).status, 200);
    const again = await operation(held.id, 'refund', { amount: 500 });
    assert.equal(again.status, 400);
    assert.match(again.body.__all__.message, /A refund of this purchase is still being processed/);
    await advanceClock(sandbox, HOUR_MS);
    assert.equal((await client.purchases.get(held.id)).refundable_amount, 1500);
  });

  test('a token whose deletion is in flight charges no more: refused, and the charged Purchase stays payable', async () => {
    const saved = await token();
    assert.equal((await operation(saved.id, 'delete_recurring_token')).status, 200);
    const next = await client.purchases.create(purchaseBody() as never);
    const answer = await v1(sandbox, 'POST', `/purchases/${next.id}/charge/`, {
      body: { recurring_token: saved.id },
    });
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.__all__.code, 'purchase_charge_error');
    assert.match(answer.body.__all__.message, /being deleted/);
    assert.equal((await client.purchases.get(next.id)).status, 'created');
    await advanceClock(sandbox, HOUR_MS);
    assert.equal((await client.purchases.get(saved.id)).is_recurring_token, false);
  });

  test('a data dir where an earlier version kept a slow token deletion in the money slot: it completes', async () => {
    const paid = await token();
    assert.equal((await operation(paid.id, 'delete_recurring_token')).status, 200);
    await sandbox.close();
    const store = openStore({ dataDir });
    const purchases = store.collection<PurchaseRecord>('v1-purchases');
    const { tokenDeletionSettlesAt, ...record } = purchases.get(paid.id)!;
    const earlier = {
      ...record,
      pending: { kind: 'recurring_token_delete', settlesAt: tokenDeletionSettlesAt },
    };
    store.transaction(() => purchases.put(paid.id, earlier as unknown as PurchaseRecord));
    await store.close();
    await start();
    assert.equal(
      (await operation(paid.id, 'refund', { amount: 400 })).status,
      200,
      'no money operation in flight',
    );
    await advanceClock(sandbox, HOUR_MS);
    const after = await client.purchases.get(paid.id);
    assert.equal(after.is_recurring_token, false);
    assert.equal(after.status, 'paid');
    assert.equal(after.refundable_amount, 2100);
  });

  test('mark_as_paid while a token deletion is in flight: both complete', async () => {
    const held = await token({ skip_capture: true });
    assert.equal((await operation(held.id, 'delete_recurring_token')).status, 200);
    const marked = await client.purchases.markAsPaid(held.id);
    assert.equal(marked.status, 'paid');
    await advanceClock(sandbox, HOUR_MS);
    const after = await client.purchases.get(held.id);
    assert.equal(after.marked_as_paid, true);
    assert.equal(after.is_recurring_token, false);
    const { authorisation } = await stored(held.id);
    assert.equal(authorisation.pending, null);
    assert.equal(authorisation.captured + authorisation.released, authorisation.amount, 'nothing held');
  });
});
