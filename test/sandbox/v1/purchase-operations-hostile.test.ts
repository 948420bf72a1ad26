/**
 * The Purchase operations and the acquirer's ledger under a hostile tester: concurrent duplicates, malformed
 * and oversized bodies, a fixed-seed fuzz over every operation with the money invariants checked after each
 * step, and a data dir of an earlier version whose payments predate the ledger.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import fc from 'fast-check';
import type { Authorisation } from '../../../src/sandbox/acquirer.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import type { StoredRefund } from '../../../src/sandbox/v1/purchase-view.js';
import { KEPT_FAILED_ATTEMPTS, type PurchaseRecord } from '../../../src/sandbox/v1/purchases.js';
import { createMerchantApiV2Client, createV1Client, type V1Client } from '../../../src/server/index.js';
import { API_KEY, type FakeMerchant, merchantKeys, paidOrder, startCli, tempDir } from '../support.js';
import {
  advanceClock,
  cardForm,
  postForm,
  purchaseBody,
  V1,
  v1,
  v1ConfigFile,
  withV1Sandbox,
} from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The slow acquirer's answer time of the test config. */
const SLOW_MS = 10_000;

describe('v1 purchase operations under a hostile tester', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let dataDir: string;

  const start = async () => {
    await fixture.restart();
    ({ sandbox, client } = fixture);
  };

  before(() => ({ merchant, sandbox, client, dataDir } = fixture));

  /** A purchase of 25.00 paid (or held) on the hosted page with the approving Visa. */
  async function checkout(overrides: Record<string, unknown> = {}): Promise<string> {
    const created = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ client: { email: 'a@example.com', full_name: 'Anna' }, ...overrides }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await postForm(sandbox, `/checkout/${created.body.id}/pay`, cardForm('4111111111111111'));
    return created.body.id as string;
  }

  test('concurrent captures of one hold: one takes it, the others are refused; nothing is taken twice', async () => {
    const id = await checkout({ skip_capture: true });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        v1(sandbox, 'POST', `/purchases/${id}/capture/`, { body: { amount: 2000 } }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 400, 400, 400, 400, 400]);
    const purchase = await client.purchases.get(id);
    assert.equal(purchase.refundable_amount, 2000);
  });

  test('concurrent refunds never give back more than was taken', async () => {
    const id = await checkout();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        v1(sandbox, 'POST', `/purchases/${id}/refund/`, { body: { amount: 1000 } }),
      ),
    );
    const refunded = answers.filter((answer) => answer.status === 200);
    assert.equal(refunded.length, 2);
    assert.ok(
      answers.every(
        (answer) => answer.status === 200 || answer.body.__all__?.code === 'purchase_refund_error',
      ),
    );
    assert.equal((await client.purchases.get(id)).refundable_amount, 500);
  });

  test('malformed, oversized and misdirected requests get 4xx in the document shape, and change nothing', async () => {
    const id = await checkout({ skip_capture: true });
    const raw = (path: string, body: string, type = 'application/json') =>
      fetch(`${sandbox.url}/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${V1.secretKey}`, 'content-type': type },
        body,
      });
    const garbage = await raw(`/purchases/${id}/capture/`, '{"amount": 5');
    assert.equal(garbage.status, 400);
    assert.equal(((await garbage.json()) as { __all__: { code: string } }).__all__.code, 'parse_error');
    const list = await raw(`/purchases/${id}/capture/`, '[1000]');
    assert.equal(list.status, 400);
    const huge = await raw(
      `/purchases/${id}/refund/`,
      JSON.stringify({ client_name: 'x'.repeat(2_000_000) }),
    );
    assert.equal(huge.status, 413);
    const notUuid = await raw('/purchases/not-a-purchase/capture/', '');
    assert.equal(notUuid.status, 404);
    const badEscape = await raw('/purchases/%zz/capture/', '');
    assert.equal(badEscape.status, 400);
    const wrongMethod = await fetch(`${sandbox.url}/api/v1/purchases/${id}/capture/`, {
      headers: { authorization: `Bearer ${V1.secretKey}` },
    });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    const unauthenticated = await fetch(`${sandbox.url}/api/v1/purchases/${id}/capture/`, { method: 'POST' });
    assert.equal(unauthenticated.status, 401);
    const tooBig = await raw(`/purchases/${id}/capture/`, JSON.stringify({ amount: 2 ** 60 }));
    assert.equal(tooBig.status, 400);
    assert.equal((await client.purchases.get(id)).status, 'hold', 'nothing was captured');
  });

  test('{"amount": null} is refused by name, not read as everything: capture and refund change nothing', async () => {
    const held = await checkout({ skip_capture: true });
    const paid = await checkout();
    const raw = (id: string, operation: string) =>
      fetch(`${sandbox.url}/api/v1/purchases/${id}/${operation}/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${V1.secretKey}`, 'content-type': 'application/json' },
        body: '{"amount": null}',
      });
    for (const [id, operation] of [
      [held, 'capture'],
      [paid, 'refund'],
    ] as const) {
      const answer = await raw(id, operation);
      assert.equal(answer.status, 400, operation);
      const body = (await answer.json()) as Record<string, { code: string; message: string }>;
      assert.equal(body['amount']?.code, 'null', JSON.stringify(body));
      assert.match(body['amount']?.message ?? '', /amount may not be null/);
    }
    assert.equal((await client.purchases.get(held)).status, 'hold', 'nothing was captured');
    assert.equal((await client.purchases.get(paid)).refundable_amount, 2500, 'nothing was refunded');
  });

  test('refused operations do not pile up: a Purchase keeps its newest refused attempts and every success', async () => {
    const held = await checkout({ skip_capture: true });
    for (let index = 0; index < KEPT_FAILED_ATTEMPTS + 15; index++) {
      const answer = await v1(sandbox, 'POST', `/purchases/${held}/capture/`, {
        body: { amount: 9000 + index },
      });
      assert.equal(answer.status, 400);
    }
    const { attempts } = (await client.purchases.get(held)).transaction_data;
    const failed = attempts.filter((attempt) => attempt.successful === false);
    assert.equal(failed.length, KEPT_FAILED_ATTEMPTS, 'the newest refused attempts only');
    assert.equal(attempts.length, KEPT_FAILED_ATTEMPTS + 1, 'and the payment that held the money');
    assert.ok(attempts.at(-1)?.successful, 'the hold itself is kept');
    const cause = await client.purchases.failureCause(held);
    assert.match(cause?.description ?? '', /90\.34/, 'the cause is the newest refusal');
  });

  test('fixed-seed fuzz over every operation: no 5xx, and the money adds up after each step', async () => {
    const tokenId = await checkout({ force_recurring: true });
    const ids = [
      await checkout({ skip_capture: true }),
      await checkout(),
      await checkout({ skip_capture: true }),
      (await client.purchases.create(purchaseBody() as never)).id,
    ];
    const operations = ['capture', 'release', 'refund', 'charge', 'mark_as_paid', 'resend_invoice', 'cancel'];
    const body = fc.oneof(
      fc.constant(undefined),
      fc.record(
        {
          amount: fc.oneof(fc.integer({ min: -10, max: 3000 }), fc.double(), fc.string(), fc.constant(null)),
          client_name: fc.string({ maxLength: 80 }),
          recurring_token: fc.oneof(fc.constant(tokenId), fc.uuid(), fc.string()),
          paid_on: fc.oneof(fc.integer(), fc.string()),
        },
        { requiredKeys: [] },
      ),
    );
    const mode = fc.constantFrom(undefined, 'normal', 'slow', 'fail', 'SLOW', '');
    const steps = fc.sample(fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...operations), body, mode), {
      numRuns: 150,
      seed: 11,
    });
    for (const [index, [id, operation, payload, acquirer]] of steps.entries()) {
      const answer = await v1(sandbox, 'POST', `/purchases/${id}/${operation}/`, {
        ...(payload !== undefined && { body: payload }),
        ...(acquirer !== undefined && { headers: { 'x-sandbox-acquirer': acquirer } }),
      });
      assert.ok(
        answer.status < 500,
        `${operation} ${JSON.stringify(payload)}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      // Every fifth step, the slow acquirer's answers come due.
      if (index % 5 === 4) sandbox.clock.advance(10_000);
      for (const purchaseId of ids) {
        const purchase = await client.purchases.get(purchaseId);
        const total = 2500;
        assert.ok(
          purchase.refundable_amount >= 0 && purchase.refundable_amount <= total,
          JSON.stringify(purchase),
        );
        if (purchase.status !== 'paid' && purchase.status !== 'pending_refund') {
          assert.equal(purchase.refundable_amount, 0, `${purchase.status}: nothing refundable`);
        }
      }
    }
    // Every slow answer due, the acquirer's ledger agrees with the Purchases: nothing pending, and money held
    // only for a Purchase on hold (mark_as_paid gives back what it held, whatever was in flight).
    sandbox.clock.advance(10_000);
    await sandbox.close();
    const store = openStore({ dataDir });
    const purchases = store.collection<PurchaseRecord>('v1-purchases');
    const authorisations = store.collection<Authorisation>('acquirer-authorisations');
    const ledger = ids.flatMap((id) => {
      const record = purchases.get(id)!;
      const authorisation = record.authorisationId ? authorisations.get(record.authorisationId) : undefined;
      return authorisation ? [{ status: record.purchase.status, authorisation }] : [];
    });
    await store.close();
    await start();
    assert.ok(ledger.length >= 3, 'the paid and held purchases have authorisations');
    for (const { status, authorisation } of ledger) {
      assert.equal(authorisation.pending, null, `${status}: nothing pending`);
      const held =
        authorisation.state === 'authorised'
          ? authorisation.amount - authorisation.captured - authorisation.released
          : 0;
      if (status !== 'hold') assert.equal(held, 0, `${status}: nothing held`);
      assert.ok(authorisation.refunded <= authorisation.captured, 'never refunded more than taken');
    }
  });

  test('fixed-seed racing pairs with the slow acquirer and token deletions: nothing stays pending, the ledger agrees', async () => {
    const tokenId = await checkout({ force_recurring: true });
    // Tokens mostly: each can be deleted once, and its deletion is what raced the money operations.
    const ids = [];
    for (let index = 0; index < 8; index++) {
      ids.push(await checkout({ force_recurring: true, skip_capture: index % 2 === 0 }));
    }
    ids.push(await checkout(), (await client.purchases.create(purchaseBody() as never)).id);
    const operation = fc.constantFrom(
      'capture',
      'release',
      'refund',
      'charge',
      'mark_as_paid',
      'delete_recurring_token',
      'delete_recurring_token',
    );
    const body = fc.oneof(fc.constant(undefined), fc.record({ amount: fc.integer({ min: 1, max: 1500 }) }));
    const mode = fc.constantFrom('slow', 'slow', 'slow', 'normal', 'fail');
    const request = fc.tuple(operation, body, mode);
    const steps = fc.sample(fc.tuple(fc.constantFrom(...ids), request, request, fc.nat(12_000)), {
      numRuns: 80,
      seed: 21,
    });
    // When a token deletion was first accepted, per Purchase: the deletion is done a slow answer later.
    const deletionAskedAt = new Map<string, number>();
    for (const [id, first, second, step] of steps) {
      // Two operations on one Purchase at once, then the clock moves less or more than the slow answer takes.
      const asked = sandbox.clock.now().getTime();
      const answers = await Promise.all(
        [first, second].map(([name, payload, acquirer]) =>
          v1(sandbox, 'POST', `/purchases/${id}/${name}/`, {
            ...(name === 'charge'
              ? { body: { recurring_token: tokenId } }
              : payload !== undefined && { body: payload }),
            headers: { 'x-sandbox-acquirer': acquirer },
          }),
        ),
      );
      for (const [index, answer] of answers.entries()) {
        assert.ok(answer.status < 500, JSON.stringify(answer.body));
        const name = (index === 0 ? first : second)[0];
        if (name === 'delete_recurring_token' && !deletionAskedAt.has(id)) deletionAskedAt.set(id, asked);
      }
      await advanceClock(sandbox, step);
      // Whatever else was asked meanwhile, a slow operation has its answer once the slow time has passed.
      const now = sandbox.clock.now().getTime();
      for (const purchaseId of ids) {
        const purchase = await client.purchases.get(purchaseId);
        if (purchase.status.startsWith('pending_')) {
          assert.ok(
            now - purchase.updated_on * 1000 <= SLOW_MS + 1000,
            `${purchaseId}: ${purchase.status} for ${now - purchase.updated_on * 1000} ms`,
          );
        }
        const deletion = deletionAskedAt.get(purchaseId);
        if (deletion !== undefined && now >= deletion + SLOW_MS) {
          assert.equal(purchase.is_recurring_token, false, `${purchaseId}: the token deletion completed`);
        }
      }
    }
    await advanceClock(sandbox, 60_000);

    await sandbox.close();
    const store = openStore({ dataDir });
    const stored = store.collection<PurchaseRecord>('v1-purchases');
    const records = ids.map((id) => stored.get(id)!);
    const authorisations = store.collection<Authorisation>('acquirer-authorisations');
    const refunds = [...store.collection<{ payment: StoredRefund }>('v1-payments').values()].map(
      (entry) => entry.payment,
    );
    // What the acquirer took, gave back and holds for every Purchase of the merchant: what its balance says.
    const ledger = { refunded: 0, held: 0 };
    for (const record of stored.values()) {
      const authorisation = record.authorisationId ? authorisations.get(record.authorisationId) : undefined;
      if (record.merchantId !== records[0]!.merchantId || !authorisation) continue;
      ledger.refunded += authorisation.refunded;
      if (record.purchase.status === 'hold') {
        ledger.held += authorisation.amount - authorisation.captured - authorisation.released;
      }
    }
    await store.close();
    await start();
    const balance = (await client.balance()).e_commerce['EUR']!;
    assert.equal(balance.refunded, ledger.refunded, 'refunded, as the acquirer gave back');
    assert.equal(balance.pending_refunds, 0, 'no refund pending');
    assert.equal(balance.held, ledger.held, 'held, as the acquirer holds');
    for (const { purchase, pending, tokenDeletionSettlesAt, authorisationId } of records) {
      const what = `${purchase.id} ${purchase.status}`;
      assert.ok(!pending && !tokenDeletionSettlesAt, `${what}: nothing pending`);
      assert.doesNotMatch(purchase.status, /^pending_/, what);
      const authorisation = authorisationId ? authorisations.get(authorisationId) : undefined;
      if (!authorisation) continue;
      assert.equal(authorisation.pending, null, `${what}: nothing pending at the acquirer`);
      assert.equal(authorisation.recurring, purchase.is_recurring_token, `${what}: the token agrees`);
      const held =
        authorisation.state === 'authorised'
          ? authorisation.amount - authorisation.captured - authorisation.released
          : 0;
      assert.equal(held > 0, purchase.status === 'hold', `${what}: held ${held}`);
      const own = refunds.filter((refund) => refund.related_to.id === purchase.id);
      assert.ok(
        own.every((refund) => refund.status === 'paid'),
        `${what}: every refund Payment completed`,
      );
      assert.equal(
        own.reduce((sum, refund) => sum + refund.amount, 0),
        authorisation.refunded,
        `${what}: the refund Payments are what the acquirer gave back`,
      );
      if (purchase.status === 'paid' && !purchase.marked_as_paid) {
        assert.equal(
          purchase.refundable_amount,
          authorisation.captured - authorisation.refunded,
          `${what}: refundable as the acquirer has it`,
        );
      }
    }
  });

  test('kill -9 with a slow capture pending and a hold open: after the restart both come due on the clock', async () => {
    const cliDir = await tempDir();
    const configPath = join(cliDir, '..', `${cliDir.split('/').at(-1)}-v1-config.json`);
    await writeFile(configPath, JSON.stringify(v1ConfigFile(merchant.url)));
    const start = async () => {
      const { cli, url } = await startCli(configPath, cliDir);
      return { cli, on: { url } as Sandbox };
    };
    const first = await start();
    const created = async (overrides: Record<string, unknown>) => {
      const answer = await v1(first.on, 'POST', '/purchases/', { body: purchaseBody(overrides) });
      await postForm(first.on, `/checkout/${answer.body.id}/pay`, cardForm('4111111111111111'));
      return answer.body.id as string;
    };
    const pending = await created({ skip_capture: true });
    const held = await created({ skip_capture: true });
    const capture = await v1(first.on, 'POST', `/purchases/${pending}/capture/`, {
      headers: { 'x-sandbox-acquirer': 'slow' },
    });
    assert.equal(capture.body.status, 'pending_capture');
    first.cli.kill('SIGKILL');
    await once(first.cli, 'exit');

    const second = await start();
    try {
      const read = async (id: string) => (await v1(second.on, 'GET', `/purchases/${id}/`)).body.status;
      assert.equal(await read(pending), 'pending_capture');
      await advanceClock(second.on, 10_000);
      assert.equal(await read(pending), 'paid');
      assert.equal(await read(held), 'hold');
      await advanceClock(second.on, 6 * DAY_MS);
      assert.equal(await read(held), 'released');
    } finally {
      second.cli.kill('SIGKILL');
      await once(second.cli, 'exit');
    }
  });

  test('kill -9 with a subscription active: after the restart its next month is charged on the clock', async () => {
    const cliDir = await tempDir();
    const configPath = join(cliDir, '..', `${cliDir.split('/').at(-1)}-billing-config.json`);
    await writeFile(configPath, JSON.stringify(v1ConfigFile(merchant.url)));
    const first = await startCli(configPath, cliDir);
    const on = { url: first.url } as Sandbox;
    const api = createV1Client({ baseUrl: first.url, secretKey: V1.secretKey });
    const customer = await api.clients.create({ email: 'club@example.com' });
    const plan = await api.billingTemplates.create({
      brand_id: V1.brandId,
      title: 'Tea club',
      is_subscription: true,
      subscription_period: { unit: 'month', count: 1 },
      purchase: { products: [{ name: 'Tea club', price: 990 }] },
    });
    const joined = await api.billingTemplates.addSubscriber(plan.id, { client_id: customer.id });
    await postForm(on, `/checkout/${joined.purchase!.id}/pay`, cardForm('4111111111111111'));
    first.cli.kill('SIGKILL');
    await once(first.cli, 'exit');

    const second = await startCli(configPath, cliDir);
    try {
      const after = createV1Client({ baseUrl: second.url, secretKey: V1.secretKey });
      const receipts = async () => {
        const answer = await fetch(`${second.url}/sandbox/v1/outbox/?per_page=100`, {
          headers: { authorization: `Bearer ${V1.secretKey}` },
        });
        const body = (await answer.json()) as { results: Array<{ kind: string }> };
        return body.results.filter((message) => message.kind === 'receipt').length;
      };
      assert.equal(await receipts(), 1, 'the first month, paid before the kill');
      await advanceClock(second, 32 * DAY_MS);
      assert.equal(await receipts(), 2, 'the second month, charged after the restart');
      assert.equal((await after.billingTemplates.clients.get(plan.id, customer.id)).status, 'active');
    } finally {
      second.cli.kill('SIGKILL');
      await once(second.cli, 'exit');
    }
  });

  test('a data dir of an earlier version, whose payments have no authorisation: refunds, captures and charges still work, within what was paid', async () => {
    const orderId = await paidOrder(sandbox, 'EARLIER-1');
    const held = await checkout({ skip_capture: true });
    const paid = await checkout();
    const token = await checkout({ force_recurring: true });
    await client.purchases.refund(paid, { amount: 500 });
    await sandbox.close();

    // What an earlier version left: no acquirer ledger, and purchases without an authorisation.
    const store = openStore({ dataDir });
    const authorisations = store.collection('acquirer-authorisations');
    const purchases = store.collection<Record<string, unknown>>('v1-purchases');
    store.transaction(() => {
      for (const key of [...authorisations.keys()]) authorisations.delete(key);
      for (const [key, record] of [...purchases.entries()]) {
        const { authorisationId: _a, releaseAt: _r, ...earlier } = record;
        purchases.put(key, earlier);
      }
    });
    await store.close();
    await start();

    const api = createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName: 'main',
      privateKeyPem: merchantKeys.main.privateKeyPem,
    });
    const refund = await api.refund(orderId, { amount: '20.00', reason: 'RETURNED_PRODUCT', note: '' });
    assert.equal(refund.httpStatus, 201);
    const again = await api
      .refund(orderId, { amount: '0.01', reason: 'RETURNED_PRODUCT', note: '' })
      .catch((error: unknown) => error);
    assert.ok(again instanceof Error, 'nothing more to refund');

    assert.equal((await client.purchases.capture(held, { amount: 2500 })).status, 'paid');
    assert.equal((await client.purchases.refund(paid)).payment.amount, 2000, 'what was left of it');
    const next = await client.purchases.create(purchaseBody() as never);
    assert.equal((await client.purchases.charge(next.id, { recurring_token: token })).status, 'paid');
  });
});
