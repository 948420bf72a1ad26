import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openStore, type Store, StoreError } from '../../src/sandbox/store.js';

const tmp = mkdtempSync(join(tmpdir(), 'svc-store-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const storeModule = pathToFileURL(join(repoRoot, 'src/sandbox/store.ts')).href;

let dirs = 0;
function freshDir(): string {
  return join(tmp, `data-${++dirs}`);
}

/** The journal's lines: its header, then one per committed change. */
function journalLines(dataDir: string): string[] {
  return readFileSync(join(dataDir, 'state', 'journal.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean);
}

interface Order {
  state: string;
  total: number;
}

/** Runs a TypeScript snippet in another Node process that has `openStore` in scope. */
function spawnStoreProcess(body: string): ChildProcess {
  const file = join(tmp, `child-${++dirs}.ts`);
  writeFileSync(file, `import { openStore } from ${JSON.stringify(storeModule)};\n${body}\n`);
  return spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

async function firstLine(child: ChildProcess): Promise<string> {
  let text = '';
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.trim();
}

describe('store in memory', () => {
  test('puts, reads, updates and deletes documents', async () => {
    const store = openStore();
    const orders = store.collection<Order>('orders');
    orders.put('a', { state: 'CREATED', total: 100 });
    orders.put('b', { state: 'CREATED', total: 200 });
    assert.equal(orders.update('a', (order) => ({ ...order, state: 'PAID' })).state, 'PAID');
    assert.equal(orders.delete('b'), true);
    assert.equal(orders.delete('b'), false);
    assert.deepEqual([...orders.entries()], [['a', { state: 'PAID', total: 100 }]]);
    assert.equal(orders.size, 1);
    assert.equal(store.collection<Order>('orders'), orders);
    assert.throws(
      () => orders.update('zz', (order) => order),
      (error: unknown) => error instanceof StoreError && error.code === 'not_found',
    );
    await store.close();
    assert.throws(
      () => orders.put('c', { state: 'x', total: 0 }),
      (error: unknown) => error instanceof StoreError && error.code === 'closed',
    );
  });

  test('keeps what a restart would load, not the caller object', async () => {
    const store = openStore();
    const things = store.collection<{ at: unknown; list: number[]; gone?: undefined }>('things');
    const value = { at: new Date(0), list: [1], gone: undefined };
    things.put('x', value);
    value.list.push(2);
    assert.deepEqual(things.get('x'), { at: '1970-01-01T00:00:00.000Z', list: [1] });
    assert.throws(() => store.collection<unknown>('things').put('y', () => 1), /not a JSON value/);
    await store.close();
  });
});

describe('store transactions', () => {
  test('are all or nothing in memory: an error undoes every change and passes on', async () => {
    const store = openStore();
    const orders = store.collection<Order>('orders');
    const notifications = store.collection<string>('notifications');
    orders.put('a', { state: 'CREATED', total: 1 });
    assert.throws(
      () =>
        store.transaction(() => {
          orders.put('a', { state: 'PAID', total: 1 });
          orders.delete('a');
          notifications.put('n1', 'paid');
          assert.equal(orders.get('a'), undefined, 'reads inside see the transaction');
          throw new Error('card declined');
        }),
      /card declined/,
    );
    assert.deepEqual(orders.get('a'), { state: 'CREATED', total: 1 });
    assert.equal(notifications.size, 0);
    await store.close();
  });

  test('write one journal record, and a torn record loads as none of its parts', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir });
    const orders = store.collection<Order>('orders');
    const notifications = store.collection<string>('notifications');
    orders.put('a', { state: 'CREATED', total: 1 });
    store.transaction(() => {
      orders.put('a', { state: 'PAID', total: 1 });
      notifications.put('n1', 'paid');
    });
    await store.close();
    const lines = journalLines(dataDir);
    assert.equal(lines.length, 3, 'the header, then one record per commit');

    // Cut the transaction's record in half, as a crash in the middle of its write would.
    const journal = join(dataDir, 'state', 'journal.jsonl');
    writeFileSync(journal, `${lines[0]}\n${lines[1]}\n${lines[2]!.slice(0, lines[2]!.length / 2)}`);
    store = openStore({ dataDir });
    assert.deepEqual(store.collection<Order>('orders').get('a'), { state: 'CREATED', total: 1 });
    assert.equal(store.collection<string>('notifications').size, 0);
    await store.close();
  });

  test('nested: an inner error caught by the outer undoes only the inner changes', async () => {
    const store = openStore();
    const items = store.collection<number>('items');
    store.transaction(() => {
      items.put('outer', 1);
      try {
        store.transaction(() => {
          items.put('inner', 2);
          store.afterCommit(() => items.put('inner-callback', 3));
          throw new Error('inner');
        });
      } catch {}
    });
    assert.deepEqual([...items.keys()], ['outer']);
    await store.close();
  });

  test('run afterCommit callbacks once committed, never after a rollback', async () => {
    const store = openStore();
    const calls: string[] = [];
    const items = store.collection<number>('items');
    store.transaction(() => {
      items.put('a', 1);
      store.afterCommit(() => calls.push(`committed with a=${items.get('a')}`));
      assert.deepEqual(calls, []);
    });
    assert.throws(() =>
      store.transaction(() => {
        store.afterCommit(() => calls.push('rolled back'));
        throw new Error('no');
      }),
    );
    store.afterCommit(() => calls.push('outside'));
    assert.deepEqual(calls, ['committed with a=1', 'outside']);
    await store.close();
  });

  test('refuse asynchronous work, which would commit before it finished', async () => {
    const store = openStore();
    const items = store.collection<number>('items');
    assert.throws(
      () =>
        store.transaction(async () => {
          items.put('a', 1);
        }),
      (error: unknown) => error instanceof StoreError && error.code === 'async_transaction',
    );
    assert.equal(items.size, 0);
    await store.close();
  });
});

describe('store on disk', () => {
  test('keeps data across a restart', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir });
    const orders = store.collection<Order>('orders');
    orders.put('a', { state: 'CREATED', total: 100 });
    orders.put('b', { state: 'CREATED', total: 200 });
    orders.update('a', (order) => ({ ...order, state: 'PAID' }));
    orders.delete('b');
    store.collection<string>('other').put('line\nbreak', 'value with "quotes"');
    await store.close();

    store = openStore({ dataDir });
    assert.deepEqual(
      [...store.collection<Order>('orders').entries()],
      [['a', { state: 'PAID', total: 100 }]],
    );
    assert.equal(store.collection<string>('other').get('line\nbreak'), 'value with "quotes"');
    await store.close();
  });

  test('keeps what was written before the process was killed, and takes over its lock', async () => {
    const dataDir = freshDir();
    const child = spawnStoreProcess(`
      const store = openStore({ dataDir: ${JSON.stringify(dataDir)} });
      const orders = store.collection('orders');
      for (let i = 0; i < 100; i++) orders.put('o' + i, { n: i });
      store.transaction(() => { orders.put('o0', { n: 'last' }); store.collection('queue').put('q', 1); });
      process.kill(process.pid, 'SIGKILL');
    `);
    const [, signal] = await once(child, 'exit');
    assert.equal(signal, 'SIGKILL');
    assert.ok(existsSync(join(dataDir, 'sandbox.lock')), 'the killed process left its lock');
    const store = openStore({ dataDir });
    const orders = store.collection<{ n: unknown }>('orders');
    assert.equal(orders.size, 100);
    assert.deepEqual(orders.get('o0'), { n: 'last' });
    assert.equal(store.collection<number>('queue').get('q'), 1);
    await store.close();
  });

  test('ignores a torn last journal line and writes on after it', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir });
    store.collection<number>('n').put('a', 1);
    await store.close();
    appendFileSync(join(dataDir, 'state', 'journal.jsonl'), '{"seq":2,"ops":[["put","n","b",{"half');

    store = openStore({ dataDir });
    assert.deepEqual([...store.collection<number>('n').keys()], ['a']);
    store.collection<number>('n').put('c', 3);
    await store.close();

    store = openStore({ dataDir });
    assert.deepEqual(
      [...store.collection<number>('n').entries()],
      [
        ['a', 1],
        ['c', 3],
      ],
    );
    await store.close();
    assert.equal(journalLines(dataDir).length, 3);
  });

  test('refuses a journal damaged before its last line', async () => {
    const dataDir = freshDir();
    const store = openStore({ dataDir });
    store.collection<number>('n').put('a', 1);
    store.collection<number>('n').put('b', 2);
    await store.close();
    const journal = join(dataDir, 'state', 'journal.jsonl');
    writeFileSync(journal, readFileSync(journal, 'utf8').replace('"a"', '"a'));
    assert.throws(
      () => openStore({ dataDir }),
      (error: unknown) =>
        error instanceof StoreError && error.code === 'corrupt' && /line 2:/.test(error.message),
    );
    assert.ok(!existsSync(join(dataDir, 'sandbox.lock')), 'a refused open leaves no lock behind');
  });

  test('compaction keeps everything and empties the journal', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir });
    const docs = store.collection<{ i: number; text: string }>('docs');
    for (let i = 0; i < 500; i++) docs.put(`d${i}`, { i, text: 'x'.repeat(i % 50) });
    for (let i = 0; i < 500; i += 5) docs.delete(`d${i}`);
    store.collection<number>('empty-after').put('x', 1);
    store.collection<number>('empty-after').delete('x');
    store.compact();
    assert.deepEqual(
      journalLines(dataDir).map((line) => {
        const { sum, ...header } = JSON.parse(line) as { sum: unknown };
        assert.match(String(sum), /^[0-9a-f]{16}$/, 'every line ends in its checksum');
        return header;
      }),
      [{ format: 'svc-sandbox-journal', version: 2, after: 602 }],
      'the journal holds only its header, naming the last record in the snapshot',
    );
    docs.put('after', { i: -1, text: 'after the snapshot' });
    await store.close();

    store = openStore({ dataDir });
    const loaded = store.collection<{ i: number; text: string }>('docs');
    assert.equal(loaded.size, 401);
    assert.deepEqual(loaded.get('d7'), { i: 7, text: 'x'.repeat(7) });
    assert.equal(loaded.get('d5'), undefined);
    assert.deepEqual(loaded.get('after'), { i: -1, text: 'after the snapshot' });
    assert.equal(store.collection<number>('empty-after').size, 0);
    await store.close();
  });

  test('compacts on its own once the journal outgrows the threshold', async () => {
    const dataDir = freshDir();
    const store = openStore({ dataDir, compactAfterBytes: 10_000 });
    const docs = store.collection<string>('docs');
    for (let i = 0; i < 200; i++) docs.put(`d${i % 20}`, `${i}`.padEnd(100, '.'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(existsSync(join(dataDir, 'state', 'snapshot.jsonl')));
    assert.ok(statSync(join(dataDir, 'state', 'journal.jsonl')).size < 10_000);
    await store.close();
    const reopened = openStore({ dataDir });
    assert.equal(reopened.collection<string>('docs').get('d19'), '199'.padEnd(100, '.'));
    await reopened.close();
  });

  test('skips journal records already in the snapshot (a crash between the renames of snapshot and journal)', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir });
    const journal = join(dataDir, 'state', 'journal.jsonl');
    store.collection<number>('n').put('x', 1);
    copyFileSync(journal, `${journal}.old`);
    store.collection<number>('n').put('x', 2);
    store.compact();
    await store.close();
    copyFileSync(`${journal}.old`, journal);

    store = openStore({ dataDir });
    assert.equal(store.collection<number>('n').get('x'), 2);
    await store.close();
  });

  test('fsyncs every change when asked to, and flush resolves', async () => {
    const dataDir = freshDir();
    const store = openStore({ dataDir, durability: 'every-change' });
    store.collection<number>('n').put('a', 1);
    await store.flush();
    await store.close();
    assert.equal(journalLines(dataDir).length, 2);
  });
});

describe('store journal records what changed', () => {
  test('3,000 refused attempts added to one document write what changed, not the document each time', async () => {
    // Issue 21: 3,000 refused captures of one Purchase rewrote it whole each time, 848 MB in all.
    const dataDir = freshDir();
    let store = openStore({ dataDir, compactAfterBytes: Number.MAX_SAFE_INTEGER });
    const purchases = store.collection<{ id: string; status: string; attempts: Array<{ error: string }> }>(
      'purchases',
    );
    purchases.put('p-1', { id: 'p-1', status: 'paid', attempts: [] });
    for (let i = 0; i < 3000; i++) {
      purchases.update('p-1', (p) => ({ ...p, attempts: [...p.attempts, { error: `refused ${i}` }] }));
    }
    const journalBytes = statSync(join(dataDir, 'state', 'journal.jsonl')).size;
    const wholeRecordBytes = JSON.stringify(purchases.get('p-1')).length;
    assert.ok(wholeRecordBytes > 70_000, `the document grew to ${wholeRecordBytes} bytes`);
    assert.ok(journalBytes < 3000 * 200, `the journal took ${journalBytes} bytes for 3,000 small changes`);
    const before = JSON.stringify(purchases.get('p-1'));
    await store.close();
    store = openStore({ dataDir });
    assert.equal(JSON.stringify(store.collection('purchases').get('p-1')), before);
    await store.close();
  });

  test('random changes of nested documents load byte for byte as stored (fixed seed)', async () => {
    const dataDir = freshDir();
    let store = openStore({ dataDir, compactAfterBytes: Number.MAX_SAFE_INTEGER });
    const docs = store.collection<unknown>('docs');
    let seed = 21;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const keys = ['a', 'b', 'c', '__proto__', 'constructor', 'x.y', ''];
    const leaf = (): unknown =>
      [0, -1, 1004, 'text', '', null, true, false, 'caf\u00e9 \ud83d\ude00'][random(9)];
    const mutate = (value: unknown, depth: number): unknown => {
      const choice = random(8);
      if (depth > 3 || choice === 0) return leaf();
      if (Array.isArray(value)) {
        const copy = [...value];
        if (choice === 1) copy.push(mutate(undefined, depth + 1));
        else if (choice === 2) copy.length = random(copy.length + 1);
        else if (choice === 3) return [...copy].reverse();
        else if (copy.length > 0) {
          const index = random(copy.length);
          copy[index] = mutate(copy[index], depth + 1);
        } else return {};
        return copy;
      }
      if (value !== null && typeof value === 'object') {
        const copy: Record<string, unknown> = {};
        const entries = Object.entries(value);
        // Sometimes the members come in another order: the patch must keep it.
        if (choice === 3) entries.reverse();
        for (const [key, member] of entries) {
          if (choice === 2 && random(3) === 0) continue;
          Object.defineProperty(copy, key, {
            value: random(3) === 0 ? mutate(member, depth + 1) : member,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        if (choice === 1 || choice === 4) {
          Object.defineProperty(copy, keys[random(keys.length)]!, {
            value: mutate(undefined, depth + 1),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        return copy;
      }
      return choice < 4 ? [] : {};
    };
    const expected = new Map<string, string>();
    for (let step = 0; step < 3000; step++) {
      const id = `d${random(5)}`;
      const next = mutate(docs.get(id), 0);
      if (random(2) === 0) {
        store.transaction(() => {
          docs.put(id, next);
          docs.put(id, mutate(docs.get(id), 0));
        });
      } else docs.put(id, next);
      expected.set(id, JSON.stringify(docs.get(id)));
    }
    await store.close();
    assert.ok(
      journalLines(dataDir).some((line) => line.includes('["patch",')),
      'some changes were journalled as patches',
    );
    store = openStore({ dataDir });
    const loaded = store.collection<unknown>('docs');
    for (const [id, text] of expected) assert.equal(JSON.stringify(loaded.get(id)), text, id);
    assert.equal(Object.hasOwn(Object.prototype, 'a'), false);
    await store.close();
  });
});

describe('store lock', () => {
  test('refuses a second opener in the same process until the first closes', async () => {
    const dataDir = freshDir();
    const first = openStore({ dataDir });
    assert.throws(
      () => openStore({ dataDir }),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'locked' &&
        error.message.includes(`process ${process.pid} (this one)`),
    );
    await first.close();
    const second: Store = openStore({ dataDir });
    await second.close();
    assert.ok(!existsSync(join(dataDir, 'sandbox.lock')));
  });

  test('refuses while another live process holds the data dir', async () => {
    const dataDir = freshDir();
    const child = spawnStoreProcess(`
      openStore({ dataDir: ${JSON.stringify(dataDir)} });
      console.log('ready');
      setInterval(() => {}, 1000);
    `);
    try {
      assert.equal(await firstLine(child), 'ready');
      assert.throws(
        () => openStore({ dataDir }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'locked' &&
          error.message.includes(`process ${child.pid}`),
      );
    } finally {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    const store = openStore({ dataDir });
    await store.close();
  });
});
