// A sandbox whose data dir's disk fills up while payments come in over HTTP: it answers 507 with a JSON error
// naming the problem (in the v1 shape under /api/v1), never crashes, keeps every change it acknowledged,
// stores none it refused, and takes payments again by itself once space returns. A restart loads it all.
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/sandbox/config.js';
import type { Delivery } from '../../src/sandbox/delivery-queue.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { openStore, storeFileSystem } from '../../src/sandbox/store.js';
import { signOrder } from '../../src/server/index.js';
import { type SmallDisk, smallDisk } from './small-disk.js';
import { call, FakeMerchant, merchantKeys, PAGE_ORIGIN, tempDir, until, WIDGETS } from './support.js';
import { purchaseBody, v1, v1ConfigFile } from './v1/support.js';

const card = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' };

/** What the sandbox answered for one customer: the order it created (if it did) and its state. */
interface Outcome {
  orderId: string;
  id?: string;
  state?: 'CREATED' | 'PAID';
  statuses: number[];
}

/** One customer: create a signed order, then pay it. Stops at the first answer that is not a success. */
async function customer(sandbox: Sandbox, orderId: string): Promise<Outcome> {
  const input = { widgetId: WIDGETS.checkout, orderId, items: [{ amount: '5.00', label: 'Pen' }] };
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order: input,
    signature: signOrder(input, merchantKeys.main.privateKeyPem),
    pageOrigin: PAGE_ORIGIN,
  });
  const outcome: Outcome = { orderId, statuses: [created.status] };
  if (created.status !== 201) {
    assertRefusal(created);
    return outcome;
  }
  outcome.id = created.body['id'] as string;
  outcome.state = 'CREATED';
  const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${outcome.id}/payments`, {
    idempotencyKey: `${orderId}-pay`,
    card,
  });
  outcome.statuses.push(paid.status);
  if (paid.status === 200) {
    assert.equal(paid.body['state'], 'PAID');
    outcome.state = 'PAID';
  } else assertRefusal(paid);
  return outcome;
}

/**
 * The merchant's notification URL: it records the order id of each notification and holds its answer (200)
 * while `holding`, so that the test decides when the sandbox learns the outcome.
 */
async function notificationReceiver() {
  const received: string[] = [];
  const held: ServerResponse[] = [];
  let holding = true;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += String(chunk);
    });
    req.on('end', () => {
      received.push(JSON.parse(body).id as string);
      if (holding) held.push(res);
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    received,
    /** Answers the held notifications, and every later one at once. */
    release() {
      holding = false;
      for (const res of held.splice(0)) res.end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function assertRefusal(answer: Awaited<ReturnType<typeof call>>): void {
  assert.equal(answer.status, 507, JSON.stringify(answer.body));
  assert.equal(answer.body['error'].code, 'insufficient_storage');
  assert.match(answer.body['error'].message, /no space left on the disk \(ENOSPC\).*Nothing was changed/);
}

describe('a full disk under the sandbox', () => {
  let disk: SmallDisk;
  let merchant: FakeMerchant;
  let receiver: Awaited<ReturnType<typeof notificationReceiver>>;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  before(async () => {
    disk = smallDisk();
    merchant = await FakeMerchant.start();
    receiver = await notificationReceiver();
    process.on('unhandledRejection', onRejection);
  });
  after(async () => {
    process.off('unhandledRejection', onRejection);
    await receiver.close();
    await merchant.close();
    disk.dispose();
  });

  test('answers 507 and stays up; payments resume when space returns; a restart has every acknowledged change', async (t) => {
    t.diagnostic(`disk: ${disk.kind}`);
    const dataDir = join(disk.dir, 'data');
    const file = v1ConfigFile(merchant.url);
    file.merchants[0]!.callbacks.notificationUrl = receiver.url;
    const config = parseConfig(file);
    let sandbox = await startSandbox({ port: 0, config, dataDir });
    const outcomes: Outcome[] = [];
    try {
      for (let i = 0; i < 3; i++) outcomes.push(await customer(sandbox, `BEFORE-${i}`));
      assert.ok(outcomes.every((outcome) => outcome.state === 'PAID'));
      await until(() => receiver.received.length === 3, 'the first notifications were sent', 20_000);

      disk.fill();
      // The merchant accepts the first notifications now: the sandbox cannot store that (this ended the
      // process before), so it keeps the outcome in memory until it can.
      receiver.release();
      // A tmpfs page left over at the journal's end may still take a record or two: go on until the
      // refusals are steady.
      let refusedInARow = 0;
      for (let i = 0; refusedInARow < 5; i++) {
        assert.ok(i < 50, 'the sandbox never refused a change on a full disk');
        const outcome = await customer(sandbox, `FULL-${i}`);
        outcomes.push(outcome);
        refusedInARow = outcome.statuses.includes(507) ? refusedInARow + 1 : 0;
      }
      const full = outcomes.filter((outcome) => outcome.orderId.startsWith('FULL-'));
      t.diagnostic(
        `on the full disk: ${full.filter((o) => o.statuses.includes(507)).length} customers refused, ` +
          `${full.filter((o) => o.state === 'PAID').length} paid in what space was left`,
      );
      const v1Refused = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
      assert.equal(v1Refused.status, 507);
      assert.equal(v1Refused.body.__all__.code, 'insufficient_storage');
      assert.match(v1Refused.body.__all__.message, /no space left on the disk/);
      // Reads need no disk.
      const first = outcomes[0]!;
      const read = await call(sandbox, 'GET', `/widget-api/v1/orders/${first.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body['state'], 'PAID');
      assert.equal((await call(sandbox, 'GET', '/sandbox/health')).status, 200);

      disk.free();
      for (let i = 0; i < 3; i++) {
        const outcome = await customer(sandbox, `AFTER-${i}`);
        outcomes.push(outcome);
        assert.equal(outcome.state, 'PAID', `payments resume by themselves: ${outcome.statuses}`);
      }
      assert.equal((await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() })).status, 201);
      const paid = outcomes.filter((outcome) => outcome.state === 'PAID');
      await until(() => receiver.received.length >= paid.length, 'every paid order was notified', 20_000);
    } finally {
      await sandbox.close();
    }

    // Every paid order's notification went out once and is stored as delivered: an outcome the full disk
    // kept from being stored was stored later, not sent again.
    const paid = outcomes.filter((outcome) => outcome.state === 'PAID');
    assert.deepEqual([...receiver.received].sort(), paid.map((outcome) => outcome.id!).sort());
    const store = openStore({ dataDir });
    const deliveries = [...store.collection<Delivery>('deliveries').values()];
    await store.close();
    assert.deepEqual(
      deliveries.map((delivery) => [delivery.state, delivery.attempts.map((attempt) => attempt.status)]),
      paid.map(() => ['delivered', [200]]),
    );

    sandbox = await startSandbox({ port: 0, config, dataDir });
    try {
      assert.deepEqual(sandbox.warnings, []);
      for (const outcome of outcomes) {
        if (outcome.id === undefined) continue;
        const stored = await call(sandbox, 'GET', `/widget-api/v1/orders/${outcome.id}`);
        assert.equal(stored.status, 200, `order ${outcome.orderId} was acknowledged, so it is kept`);
        // A payment refused with 507 did not happen, and one acknowledged did.
        assert.equal(stored.body['state'], outcome.state, `order ${outcome.orderId}: ${outcome.statuses}`);
      }
    } finally {
      await sandbox.close();
    }
    assert.deepEqual(rejections, [], 'no unhandled rejection');
  });

  test('another write failure (an I/O error) answers 503 storage_unavailable, in the v1 shape too', async () => {
    const sandbox = await startSandbox({
      port: 0,
      config: parseConfig(v1ConfigFile(merchant.url)),
      dataDir: await tempDir(),
    });
    const realWrite = storeFileSystem.writeSync;
    // No real disk fails with EIO on demand: the store's file-system seam does.
    storeFileSystem.writeSync = (() => {
      throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
    }) as typeof realWrite;
    try {
      const input = {
        widgetId: WIDGETS.checkout,
        orderId: 'EIO-1',
        items: [{ amount: '5.00', label: 'Pen' }],
      };
      const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
        order: input,
        signature: signOrder(input, merchantKeys.main.privateKeyPem),
        pageOrigin: PAGE_ORIGIN,
      });
      assert.equal(created.status, 503);
      assert.equal(created.body['error'].code, 'storage_unavailable');
      assert.match(created.body['error'].message, /EIO.*Nothing was changed; make that disk writable again/);
      const purchase = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
      assert.equal(purchase.status, 503);
      assert.equal(purchase.body.__all__.code, 'storage_unavailable');
    } finally {
      storeFileSystem.writeSync = realWrite;
      await sandbox.close();
    }
  });
});
