/**
 * Company statements streamed: the file is generated as it is read (a bounded part of the Purchases before the
 * first chunk), a statement of 20,000 Purchases seeded straight into the store arrives in many chunks and
 * agrees with the balance, and a statement still queued at a stop is taken up after a start.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import type { PurchaseRecord } from '../../../src/sandbox/v1/purchases.js';
import { statementChunks, ZoneTime } from '../../../src/sandbox/v1/statement-rows.js';
import { STATEMENT_QUEUE_MS } from '../../../src/sandbox/v1/statements.js';
import { createV1Client } from '../../../src/server/index.js';
import { FakeMerchant, tempDir } from '../support.js';
import { seedPaidPurchases } from './seed.js';
import { startV1Sandbox, V1 } from './support.js';

describe('a statement generated as it is read', () => {
  test('the download is generated as it is read: the first chunk comes after a bounded part of the Purchases', () => {
    let read = 0;
    const template = {
      merchantId: 'm1',
      purchase: {
        id: '',
        brand_id: V1.brandId,
        client: { email: 'a@example.com' },
        purchase: { products: [{ name: 'Tea', price: 100, quantity: 1 }], currency: 'EUR', total: 100 },
        reference: null,
        status: 'created',
        marked_as_paid: false,
        refundable_amount: 0,
        transaction_data: { attempts: [] },
        created_on: 0,
        updated_on: 0,
      },
    } as unknown as PurchaseRecord;
    function* many(): Generator<PurchaseRecord> {
      for (let index = 0; index < 1_000_000; index += 1) {
        read += 1;
        yield { ...template, purchase: { ...template.purchase, id: `p${index}` } };
      }
    }
    const chunks = statementChunks(
      many(),
      'csv',
      { refunds: new Map(), acquirer: { get: () => undefined } },
      new ZoneTime('UTC'),
    );
    const first = chunks.next();
    assert.equal(first.done, false);
    assert.ok(read < 2000, `the first chunk read ${read} of a million Purchases`);
    assert.ok((first.value as string).length < 128 * 1024, 'a chunk is bounded');
    const second = chunks.next();
    assert.ok(read < 4000 && (second.value as string).length < 128 * 1024);
  });
});

describe('a statement of 20,000 Purchases', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let dataDir: string;
  const count = 20_000;

  before(async () => {
    merchant = await FakeMerchant.start();
    dataDir = await tempDir();
    const fromSeconds = Math.floor(Date.now() / 1000) - count - 60;
    await seedPaidPurchases({ dataDir, count, merchantId: 'm1', brandId: V1.brandId, fromSeconds });
    sandbox = await startV1Sandbox(merchant, { dataDir });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  test('streams in many chunks, every row there, and agrees with the balance', async () => {
    const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    const statement = await client.statements.create({ format: 'csv', timezone: 'Europe/Riga' });
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    const file = await client.statements.download(statement.id, { intervalMs: 20, waitMs: 60_000 });
    assert.equal(file.statement.row_count, count);
    let chunks = 0;
    let bytes = 0;
    let lines = 0;
    let paid = 0;
    let tail = '';
    const decoder = new TextDecoder();
    for await (const chunk of file) {
      chunks += 1;
      bytes += chunk.byteLength;
      // Nothing of the file is kept but the line being read.
      const text = tail + decoder.decode(chunk, { stream: true });
      const parts = text.split('\r\n');
      tail = parts.pop()!;
      for (const line of parts) {
        lines += 1;
        // paid_amount: the 9th of 19 columns; the client's name is quoted and holds a comma, so count from the end.
        if (lines > 1) paid += Number(line.split(',').at(-12));
      }
    }
    assert.equal(tail, '');
    assert.equal(lines, count + 1, 'the header and every Purchase');
    assert.ok(chunks >= 20, `${bytes} bytes arrived in ${chunks} chunks`);
    const balance = await client.balance();
    assert.equal(balance.e_commerce['EUR']?.paid, paid);

    // A reader that stops after the first chunk stops the download; the sandbox answers on.
    for await (const chunk of await client.statements.download(statement.id)) {
      assert.ok(chunk.byteLength > 0);
      break;
    }
    assert.equal((await client.statements.get(statement.id)).status, 'ready');
  });

  test('a statement still queued when the sandbox stops is taken up after a start on the same data dir', async () => {
    const client = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    const statement = await client.statements.create({ q: 'customer1999@' });
    await sandbox.close();
    sandbox = await startV1Sandbox(merchant, { dataDir });
    const restarted = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
    assert.equal((await restarted.statements.get(statement.id)).status, 'queued');
    sandbox.clock.advance(STATEMENT_QUEUE_MS);
    const ready = await restarted.statements.waitUntilReady(statement.id, { intervalMs: 10 });
    assert.equal(ready.row_count, 1);
  });
});
