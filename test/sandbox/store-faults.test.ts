// The store under faults, on real files: a data dir damaged in each way a crash, a full disk or a person can
// damage it, a disk that fills up and frees again, failing fsyncs and renames, and a process killed while it
// writes. Opening either repairs what a crash explains (a torn last record: cut off and reported) or refuses,
// naming the file and the line; a write that fails changes nothing, and the next one after it succeeds.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  openStore,
  type Store,
  StoreError,
  type StoreHealth,
  storeFileSystem,
} from '../../src/sandbox/store.js';
import { noSpaceError, smallDisk } from './small-disk.js';

const tmp = mkdtempSync(join(tmpdir(), 'svc-store-faults-'));
after(() => rmSync(tmp, { recursive: true, force: true }));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

let dirs = 0;
function freshDir(root = tmp): string {
  return join(root, `data-${++dirs}`);
}

const paths = (dataDir: string) => ({
  journal: join(dataDir, 'state', 'journal.jsonl'),
  snapshot: join(dataDir, 'state', 'snapshot.jsonl'),
  lock: join(dataDir, 'sandbox.lock'),
});

function lines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

/** A data dir holding n1..n{count} in collection `n`, closed. */
async function dataDirWith(count: number, options: { compactAfter?: number } = {}): Promise<string> {
  const dataDir = freshDir();
  const store = openStore({ dataDir });
  const n = store.collection<number>('n');
  for (let i = 1; i <= count; i++) {
    n.put(`n${i}`, i);
    if (i === options.compactAfter) store.compact();
  }
  await store.close();
  return dataDir;
}

function contents(store: Store): Record<string, number> {
  return Object.fromEntries(store.collection<number>('n').entries());
}

/** Asserts that opening refuses with `corrupt`, naming `file` and `line`, and leaves no lock behind. */
function assertRefused(dataDir: string, file: string, line: number, problem: RegExp): void {
  assert.throws(
    () => openStore({ dataDir }),
    (error: unknown) => {
      assert.ok(error instanceof StoreError, String(error));
      assert.equal(error.code, 'corrupt');
      assert.ok(error.message.includes(`${file} is damaged at line ${line}:`), error.message);
      assert.match(error.message, problem);
      assert.ok(error.message.includes(`mv ${join(dataDir, 'state')} `), `says what to do: ${error.message}`);
      return true;
    },
  );
  assert.ok(!existsSync(paths(dataDir).lock), 'a refused open leaves no lock behind');
}

describe('a damaged data dir', () => {
  test('a torn last record is cut off and reported: file, line and bytes dropped', async () => {
    const dataDir = await dataDirWith(3);
    const { journal } = paths(dataDir);
    const whole = statSync(journal).size;
    const torn = '{"seq":4,"ops":[["put","n","n4",4';
    writeFileSync(journal, torn, { flag: 'a' });

    let store = openStore({ dataDir });
    assert.deepEqual(contents(store), { n1: 1, n2: 2, n3: 3 });
    assert.equal(store.warnings.length, 1);
    const [warning] = store.warnings;
    assert.deepEqual(
      { code: warning!.code, file: warning!.file, line: warning!.line, bytes: warning!.bytes },
      { code: 'torn_record_dropped', file: journal, line: 5, bytes: torn.length },
    );
    assert.ok(warning!.message.includes(`${journal} (line 5, ${torn.length} bytes)`), warning!.message);
    assert.equal(statSync(journal).size, whole, 'the torn bytes are cut off the file');
    store.collection<number>('n').put('n4', 40);
    await store.close();

    store = openStore({ dataDir });
    assert.deepEqual(store.warnings, [], 'repaired once, not again');
    assert.deepEqual(contents(store), { n1: 1, n2: 2, n3: 3, n4: 40 });
    await store.close();
  });

  test('a corrupt line in the middle of the journal refuses to start, naming the file and line', async () => {
    const dataDir = await dataDirWith(4);
    const { journal } = paths(dataDir);
    const text = lines(journal);
    text[2] = text[2]!.replace('"n2"', '"n2');
    writeFileSync(journal, `${text.join('\n')}\n`);
    assertRefused(dataDir, journal, 3, /its checksum does not match its content/);
  });

  test('a changed digit or id inside a line that still parses refuses, naming the line', async () => {
    // The attack of issue 21: refundable_amount 1004 -> 9004 made the balance say money was paid that no
    // card paid; a changed id made a paid Purchase `created` again. Both lines still parse.
    const dataDir = freshDir();
    const store = openStore({ dataDir });
    const purchases = store.collection<{ id: string; status: string; refundable_amount: number }>(
      'purchases',
    );
    purchases.put('p-1', { id: 'p-1', status: 'created', refundable_amount: 0 });
    purchases.put('p-1', { id: 'p-1', status: 'paid', refundable_amount: 1004 });
    purchases.put('p-2', { id: 'p-2', status: 'paid', refundable_amount: 500 });
    store.compact();
    purchases.put('p-3', { id: 'p-3', status: 'paid', refundable_amount: 1004 });
    purchases.put('p-4', { id: 'p-4', status: 'created', refundable_amount: 0 });
    await store.close();
    const { journal, snapshot } = paths(dataDir);
    const originalJournal = readFileSync(journal, 'utf8');
    const originalSnapshot = readFileSync(snapshot, 'utf8');
    const damaged = (file: string, original: string, from: string, to: string) => {
      assert.ok(original.includes(from), `${file} holds ${from}`);
      writeFileSync(file, original.replace(from, to));
    };

    damaged(journal, originalJournal, '1004', '9004');
    assertRefused(dataDir, journal, 2, /its checksum does not match its content/);
    damaged(journal, originalJournal, '"p-4"', '"p-3"');
    assertRefused(dataDir, journal, 3, /its checksum does not match its content/);
    writeFileSync(journal, originalJournal);
    damaged(snapshot, originalSnapshot, '1004', '9004');
    assertRefused(dataDir, snapshot, 2, /its checksum does not match its content/);
    damaged(snapshot, originalSnapshot, '"p-2",{"id":"p-2"', '"p-2",{"id":"p-1"');
    assertRefused(dataDir, snapshot, 3, /its checksum does not match its content/);
    // A checksum cut away is damage too, in a format where every line has one.
    damaged(snapshot, originalSnapshot, /,"[0-9a-f]{16}"\]\n\{"end"/.exec(originalSnapshot)![0], ']\n{"end"');
    assertRefused(dataDir, snapshot, 3, /lacks the checksum/);

    writeFileSync(snapshot, originalSnapshot);
    const reopened = openStore({ dataDir });
    assert.equal(
      reopened.collection<{ refundable_amount: number }>('purchases').get('p-1')?.refundable_amount,
      1004,
    );
    await reopened.close();
  });

  test('a whole last line that does not parse is damage, not a torn write, and refuses', async () => {
    const dataDir = await dataDirWith(2);
    const { journal } = paths(dataDir);
    writeFileSync(journal, 'garbage\n', { flag: 'a' });
    assertRefused(dataDir, journal, 4, /it is not JSON/);
  });

  test('a record missing from the middle of the journal refuses', async () => {
    const dataDir = await dataDirWith(4);
    const { journal } = paths(dataDir);
    const text = lines(journal);
    text.splice(2, 1);
    writeFileSync(journal, `${text.join('\n')}\n`);
    assertRefused(dataDir, journal, 3, /holds record 3, but the journal before it ends at record 1/);
  });

  test('a journal emptied refuses, with or without a snapshot', async () => {
    const withoutSnapshot = await dataDirWith(3);
    truncateSync(paths(withoutSnapshot).journal, 0);
    assertRefused(withoutSnapshot, paths(withoutSnapshot).journal, 1, /emptied/);

    const withSnapshot = await dataDirWith(5, { compactAfter: 3 });
    truncateSync(paths(withSnapshot).journal, 0);
    assertRefused(withSnapshot, paths(withSnapshot).journal, 1, /emptied/);
  });

  test('a journal emptied but for a torn line refuses too', async () => {
    const dataDir = await dataDirWith(3);
    writeFileSync(paths(dataDir).journal, '{"seq":1,"op');
    assertRefused(dataDir, paths(dataDir).journal, 1, /empty but for a torn line/);
  });

  test('a journal missing beside a snapshot refuses', async () => {
    const dataDir = await dataDirWith(5, { compactAfter: 3 });
    const { journal, snapshot } = paths(dataDir);
    rmSync(journal);
    assertRefused(dataDir, journal, 1, /the journal is missing, beside the snapshot/);
    assert.ok(existsSync(snapshot));
  });

  test('a snapshot deleted, or replaced by an older one, refuses: the journal names the record it follows', async () => {
    const dataDir = await dataDirWith(6, { compactAfter: 2 });
    const { journal, snapshot } = paths(dataDir);
    copyFileSync(snapshot, `${snapshot}.old`);
    let store = openStore({ dataDir });
    store.compact();
    store.collection<number>('n').put('n7', 7);
    await store.close();
    copyFileSync(snapshot, `${snapshot}.new`);

    copyFileSync(`${snapshot}.old`, snapshot);
    assertRefused(
      dataDir,
      journal,
      1,
      /continues from record 6, but there is the snapshot .* ending at record 2/,
    );
    rmSync(snapshot);
    assertRefused(dataDir, journal, 1, /continues from record 6, but there is no snapshot/);
    // With the right snapshot back, it opens with everything: the refusals changed nothing.
    copyFileSync(`${snapshot}.new`, snapshot);
    store = openStore({ dataDir });
    assert.deepEqual(contents(store), { n1: 1, n2: 2, n3: 3, n4: 4, n5: 5, n6: 6, n7: 7 });
    await store.close();
  });

  test('a snapshot that does not parse, or ends early, refuses, naming the snapshot and line', async () => {
    const dataDir = await dataDirWith(5, { compactAfter: 4 });
    const { snapshot } = paths(dataDir);
    const original = readFileSync(snapshot, 'utf8');
    const text = original.split('\n');
    text[2] = text[2]!.slice(0, 5);
    writeFileSync(snapshot, text.join('\n'));
    assertRefused(dataDir, snapshot, 3, /it is not JSON/);

    writeFileSync(snapshot, `${original.split('\n').slice(0, 3).join('\n')}\n`);
    assertRefused(dataDir, snapshot, 4, /the snapshot ends early/);
    writeFileSync(snapshot, original.slice(0, -3));
    assertRefused(dataDir, snapshot, 6, /the snapshot ends early/);
  });

  test('a data dir of the format before checksums loads once as it is, and is rewritten with them', async () => {
    const dataDir = freshDir();
    const { journal, snapshot } = paths(dataDir);
    mkdirSync(join(dataDir, 'state'), { recursive: true });
    writeFileSync(
      snapshot,
      '{"format":"svc-sandbox-store","version":2,"seq":2}\n["n","n1",1]\n["n","n2","0123456789abcdef"]\n{"end":2}\n',
    );
    writeFileSync(
      journal,
      '{"format":"svc-sandbox-journal","version":1,"after":2}\n{"seq":3,"ops":[["put","n","n3",3]]}\n',
    );
    let store = openStore({ dataDir });
    assert.deepEqual(contents(store), { n1: 1, n2: '0123456789abcdef', n3: 3 });
    await store.close();
    assert.equal(JSON.parse(lines(snapshot)[0]!).version, 3);
    assert.equal(JSON.parse(lines(journal)[0]!).version, 2);
    assert.match(lines(snapshot)[2]!, /^\["n","n2","0123456789abcdef","[0-9a-f]{16}"\]$/);
    // From now on a changed value is noticed.
    writeFileSync(snapshot, readFileSync(snapshot, 'utf8').replace('["n","n1",1,', '["n","n1",7,'));
    assertRefused(dataDir, snapshot, 2, /its checksum does not match/);
    store = openStore({ dataDir: await dataDirWith(1) });
    await store.close();
  });

  test('a data dir of the format before journal headers opens and gets a header', async () => {
    const dataDir = freshDir();
    const { journal, snapshot } = paths(dataDir);
    mkdirSync(join(dataDir, 'state'), { recursive: true });
    writeFileSync(
      snapshot,
      '{"format":"svc-sandbox-store","version":1,"seq":2}\n["n","n1",1]\n["n","n2",2]\n{"end":2}\n',
    );
    writeFileSync(journal, '{"seq":3,"ops":[["put","n","n3",3]]}\n');
    let store = openStore({ dataDir });
    assert.deepEqual(contents(store), { n1: 1, n2: 2, n3: 3 });
    await store.close();
    assert.deepEqual(JSON.parse(lines(journal)[0]!), {
      format: 'svc-sandbox-journal',
      version: 2,
      after: 3,
      sum: JSON.parse(lines(journal)[0]!).sum,
    });
    // From now on an emptied journal is noticed.
    truncateSync(journal, 0);
    assertRefused(dataDir, journal, 1, /emptied/);
    // An old snapshot beside an empty journal was normal then (compaction emptied it).
    writeFileSync(snapshot, '{"format":"svc-sandbox-store","version":1,"seq":1}\n["n","n1",1]\n{"end":1}\n');
    store = openStore({ dataDir });
    assert.deepEqual(contents(store), { n1: 1 });
    await store.close();
  });

  test('the CLI prints the repair on stderr, and refuses a damaged dir with one line naming the file', {
    timeout: 60_000,
  }, async () => {
    const dataDir = await dataDirWith(2);
    const { journal } = paths(dataDir);
    const torn = '{"seq":3,"ops":[["put"';
    writeFileSync(journal, torn, { flag: 'a' });
    const cli = join(repoRoot, 'src/sandbox/cli.ts');
    const started = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data-dir', dataDir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Read as it comes (a for-await left early would close the pipe under the CLI's next line).
    started.stdout.resume();
    let stderr = '';
    await new Promise<void>((resolve) => {
      started.stderr.on('data', (chunk) => {
        stderr += String(chunk);
        if (/warning: .*\n/.test(stderr)) resolve();
      });
    });
    started.kill('SIGTERM');
    const [exitCode] = await once(started, 'exit');
    assert.equal(exitCode, 0);
    assert.ok(
      stderr.includes(
        `svc-sandbox: warning: Dropped the torn last record of ${journal} (line 4, ${torn.length} bytes)`,
      ),
      stderr,
    );

    writeFileSync(journal, 'not json\n');
    const refused = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', '--data-dir', dataDir], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let refusal = '';
    refused.stderr.on('data', (chunk) => {
      refusal += String(chunk);
    });
    const [refusedCode] = await once(refused, 'exit');
    assert.equal(refusedCode, 1);
    assert.equal(refusal.trim().split('\n').length, 1, refusal);
    assert.ok(refusal.includes(`${journal} is damaged at line 1`), refusal);
  });
});

describe('a full disk', () => {
  test('refuses the change and leaves memory and disk as before it; the next write after space returns succeeds', async (t) => {
    const disk = smallDisk();
    t.diagnostic(`disk: ${disk.kind}`);
    try {
      const dataDir = freshDir(disk.dir);
      const health: StoreHealth[] = [];
      const store = openStore({ dataDir, onHealthChange: (h) => health.push(h) });
      const n = store.collection<number | string>('n');
      n.put('before', 1);
      const { journal } = paths(dataDir);
      const bytesBefore = statSync(journal).size;

      disk.fill();
      // A transaction big enough that a tmpfs page left over at the journal's end cannot hold it.
      const big = 'x'.repeat(16 * 1024);
      assert.throws(
        () =>
          store.transaction(() => {
            n.put('before', 2);
            n.put('refused', big);
          }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'no_space' &&
          error.message.includes(journal) &&
          /no space left on the disk \(ENOSPC\)/.test(error.message) &&
          /Nothing was changed/.test(error.message),
      );
      assert.deepEqual(Object.fromEntries(n.entries()), { before: 1 }, 'memory as before');
      assert.equal(statSync(journal).size, bytesBefore, 'no part of the refused record stays on disk');
      assert.equal(store.failure?.code, 'no_space');
      assert.throws(() => n.put('refused', big), /no space left/);
      assert.throws(
        () => store.compact(),
        (error: unknown) => (error as StoreError).code === 'no_space',
      );
      assert.deepEqual(
        readdirSync(join(dataDir, 'state')),
        ['journal.jsonl'],
        'a failed compaction leaves no temporary file behind',
      );

      disk.free();
      n.put('after', big);
      assert.equal(store.failure, undefined);
      store.compact();
      n.put('after compaction', 3);
      await store.close();
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        health.map((h) => (h.ok ? 'ok' : h.error.code)),
        ['no_space', 'ok'],
        'one report when writes start failing, one when they succeed again',
      );

      const reopened = openStore({ dataDir });
      assert.deepEqual(Object.keys(Object.fromEntries(reopened.collection('n').entries())).sort(), [
        'after',
        'after compaction',
        'before',
      ]);
      assert.equal(reopened.collection<number>('n').get('before'), 1);
      assert.deepEqual(reopened.warnings, []);
      await reopened.close();
    } finally {
      disk.dispose();
    }
  });

  test('the lock file cannot be written: the open is refused with no_space and leaves no lock', async (t) => {
    const disk = smallDisk();
    t.diagnostic(`disk: ${disk.kind}`);
    try {
      const dataDir = freshDir(disk.dir);
      mkdirSync(join(dataDir, 'state'), { recursive: true });
      disk.fill();
      assert.throws(
        () => openStore({ dataDir }),
        (error: unknown) =>
          error instanceof StoreError &&
          error.code === 'no_space' &&
          error.message.includes(paths(dataDir).lock),
      );
      assert.ok(!existsSync(paths(dataDir).lock));
      disk.free();
      const store = openStore({ dataDir });
      store.collection<number>('n').put('a', 1);
      await store.close();
    } finally {
      disk.dispose();
    }
  });
});

describe('failing writes (through the store file-system seam: no real disk fails these on demand)', () => {
  test('a short write whose rest fails, and a cut-off that fails too: the next write cuts first', async () => {
    const dataDir = freshDir();
    const store = openStore({ dataDir });
    const n = store.collection<string>('n');
    n.put('a', 'kept');
    const { journal } = paths(dataDir);
    const realWrite = storeFileSystem.writeSync;
    const realTruncate = storeFileSystem.ftruncateSync;
    let writes = 0;
    storeFileSystem.writeSync = ((fd: number, data: Buffer, offset: number, length: number) => {
      // The first call takes half, as a disk filling up part way does; the rest fails.
      if (writes++ === 0) return realWrite(fd, data, offset, Math.floor(length / 2));
      throw noSpaceError('write');
    }) as typeof realWrite;
    storeFileSystem.ftruncateSync = (() => {
      throw Object.assign(new Error('EIO: i/o error, ftruncate'), { code: 'EIO' });
    }) as typeof realTruncate;
    try {
      assert.throws(
        () => n.put('b', 'refused'),
        (error: unknown) => (error as StoreError).code === 'no_space',
      );
    } finally {
      storeFileSystem.writeSync = realWrite;
      storeFileSystem.ftruncateSync = realTruncate;
    }
    assert.ok(!readFileSync(journal, 'utf8').endsWith('\n'), 'half a record is left, for now');
    n.put('c', 'after');
    await store.close();

    const reopened = openStore({ dataDir });
    assert.deepEqual(Object.fromEntries(reopened.collection('n').entries()), { a: 'kept', c: 'after' });
    assert.deepEqual(reopened.warnings, [], 'no torn line was left between records');
    await reopened.close();
  });

  test('a failing background fsync is no unhandled rejection: the state is rewritten once the disk works', async () => {
    const dataDir = freshDir();
    const health: StoreHealth[] = [];
    const store = openStore({ dataDir, fsyncIntervalMs: 1, onHealthChange: (h) => health.push(h) });
    const n = store.collection<number>('n');
    const realFdatasync = storeFileSystem.fdatasync;
    const failed = new Promise<void>((resolve) => {
      storeFileSystem.fdatasync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
        storeFileSystem.fdatasync = realFdatasync;
        realFdatasync(fd, () => {
          callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
          resolve();
        });
      }) as typeof realFdatasync;
    });
    // The store's timers do not hold the process open; this does, while the background work runs.
    const keepAlive = setInterval(() => {}, 1_000);
    try {
      n.put('a', 1);
      await failed;
      assert.equal(store.failure?.code, 'write_failed');
      assert.match(store.failure!.message, /cannot flush its journal .* EIO.* rewritten as a new snapshot/);
      // The rewrite owed follows in the background.
      while (store.failure !== undefined) await new Promise((resolve) => setImmediate(resolve));
    } finally {
      clearInterval(keepAlive);
    }
    assert.ok(existsSync(paths(dataDir).snapshot), 'the state was rewritten as a snapshot');
    n.put('b', 2);
    await store.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      health.map((h) => (h.ok ? 'ok' : h.error.code)),
      ['write_failed', 'ok'],
    );
    const reopened = openStore({ dataDir });
    assert.deepEqual(contents(reopened), { a: 1, b: 2 });
    await reopened.close();
  });

  test('with an fsync per change, a failing fsync refuses that change and has the state rewritten', async () => {
    const dataDir = freshDir();
    const store = openStore({ dataDir, durability: 'every-change' });
    const n = store.collection<number>('n');
    n.put('a', 1);
    const { journal, snapshot } = paths(dataDir);
    const bytesBefore = statSync(journal).size;
    const realFdatasyncSync = storeFileSystem.fdatasyncSync;
    storeFileSystem.fdatasyncSync = (() => {
      storeFileSystem.fdatasyncSync = realFdatasyncSync;
      throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
    }) as typeof realFdatasyncSync;
    assert.throws(
      () => n.put('b', 2),
      (error: unknown) =>
        error instanceof StoreError &&
        error.code === 'write_failed' &&
        /EIO.*Nothing was changed; make that disk writable again/.test(error.message),
    );
    assert.equal(n.get('b'), undefined);
    assert.equal(statSync(journal).size, bytesBefore, 'the refused record is cut off the journal');
    // The earlier records' pages are in doubt too: the state is rewritten from memory.
    await store.flush();
    assert.equal(store.failure, undefined);
    assert.ok(existsSync(snapshot));
    await store.close();
    const reopened = openStore({ dataDir });
    assert.deepEqual(contents(reopened), { a: 1 });
    await reopened.close();
  });

  test('a background compaction that fails is retried later, and the journal stays whole meanwhile', async () => {
    const dataDir = freshDir();
    const health: StoreHealth[] = [];
    const store = openStore({ dataDir, compactAfterBytes: 2_000, onHealthChange: (h) => health.push(h) });
    const n = store.collection<string>('n');
    const realRename = storeFileSystem.renameSync;
    storeFileSystem.renameSync = (() => {
      throw noSpaceError('rename');
    }) as typeof realRename;
    try {
      for (let i = 0; i < 40; i++) n.put(`k${i % 5}`, `${i}`.padEnd(100, '.'));
      // The compaction the journal's size asked for runs in the background, and fails there.
      while (store.failure === undefined) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(store.failure.code, 'no_space');
      assert.match(store.failure.message, /cannot write a new snapshot .* The journal stays as it was/);
      assert.deepEqual(readdirSync(join(dataDir, 'state')), ['journal.jsonl']);
    } finally {
      storeFileSystem.renameSync = realRename;
    }
    n.put('k0', 'last');
    store.compact();
    await store.close();
    const reopened = openStore({ dataDir });
    assert.equal(reopened.collection<string>('n').get('k0'), 'last');
    assert.equal(reopened.collection<string>('n').get('k4'), '39'.padEnd(100, '.'));
    await reopened.close();
  });
});

describe('kill -9 while writing', () => {
  test('every change the killed process acknowledged is there after reopening', async (t) => {
    const dataDir = freshDir();
    const child = join(tmp, 'writer.ts');
    // Records of ~32 KiB, so that the kill often lands inside a write: a torn last record is the point.
    writeFileSync(
      child,
      `import { openStore } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'src/sandbox/store.ts')).href)};
      const store = openStore({ dataDir: ${JSON.stringify(dataDir)} });
      const n = store.collection('n');
      const padding = 'p'.repeat(32 * 1024);
      for (let i = 0; ; i++) {
        store.transaction(() => { n.put('k' + i, { i, padding }); n.put('last', i); });
        // Written to a pipe, which is synchronous on Linux: the line leaves only after the change is in.
        process.stdout.write(i + '\\n');
      }`,
    );
    const writer = spawn(process.execPath, ['--import', 'tsx', child], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let acknowledged = -1;
    let text = '';
    for await (const chunk of writer.stdout) {
      text += String(chunk);
      const done = text.lastIndexOf('\n');
      if (done === -1) continue;
      acknowledged = Number(text.slice(0, done).split('\n').at(-1));
      text = text.slice(done + 1);
      if (acknowledged >= 300) {
        writer.kill('SIGKILL');
        break;
      }
    }
    const [, signal] = await once(writer, 'exit');
    assert.equal(signal, 'SIGKILL');

    const store = openStore({ dataDir });
    t.diagnostic(
      `acknowledged up to ${acknowledged}, stored up to ${store.collection('n').get('last')}; warnings: ${store.warnings.map((w) => w.message).join(' ') || 'none'}`,
    );
    const n = store.collection<{ i: number } | number>('n');
    const last = n.get('last') as number;
    assert.ok(last >= acknowledged, `the last change is ${last}, ${acknowledged} was acknowledged`);
    for (let i = 0; i <= last; i++) assert.equal((n.get(`k${i}`) as { i: number }).i, i);
    n.put('after', 1);
    await store.close();
  });
});
