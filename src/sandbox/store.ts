/**
 * The sandbox's state: named collections of JSON documents, held in memory and, when a data dir is given,
 * kept durable in an append-only journal with periodic snapshots.
 *
 * On disk (`<dataDir>/state/`):
 * - `journal.jsonl`: one line per committed change (a single put, or a whole transaction), written with one
 *   `write` call, so a crash leaves at most a torn last line, which loading ignores and cuts off;
 * - `snapshot.jsonl`: every document as of journal record `seq`, written to a temporary file, fsynced and
 *   renamed over the old one, so it is always whole. Records up to `seq` are then dropped from the journal.
 * `<dataDir>/sandbox.lock` holds the owning process id: one process owns a data dir.
 *
 * Durability: each change reaches the operating system before `put` / `transaction` returns, so a crash of
 * the sandbox process loses nothing it acknowledged. The journal is fsynced in the background at most every
 * `fsyncIntervalMs` (group commit), so a power loss loses at most that window; `durability: 'every-change'`
 * fsyncs before returning instead, at a cost of a disk flush per change. The sandbox is a test gateway, and a
 * power loss there costs a few test payments, not money, so the default favours throughput.
 */
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { SvcError } from '../core/errors.js';

/** Why the store refused something. */
export type StoreErrorCode =
  | 'locked'
  | 'corrupt'
  | 'closed'
  | 'not_found'
  | 'async_transaction'
  | 'not_json'
  | 'write_failed';

/** A store failure; the message says what to do about it. */
export class StoreError extends SvcError<StoreErrorCode> {}

/**
 * Documents of one kind, by id. Values are plain JSON: what `get` returns is what a restart would load (a
 * `Date` comes back as a string), never the object given to `put`. Treat returned values as read-only and
 * write changes back with `put` or `update`.
 */
export interface Collection<T> {
  readonly name: string;
  /** How many documents there are. */
  readonly size: number;
  get(id: string): T | undefined;
  has(id: string): boolean;
  /** Stores the value under `id`, replacing any earlier one. */
  put(id: string, value: T): void;
  /** Removes the document; false when there was none. */
  delete(id: string): boolean;
  /**
   * Replaces the document with `change(current)` and returns the new value.
   * @throws StoreError `not_found` when there is no document `id`.
   */
  update(id: string, change: (current: T) => T): T;
  keys(): IterableIterator<string>;
  values(): IterableIterator<T>;
  entries(): IterableIterator<[string, T]>;
}

/** The sandbox's state. */
export interface Store {
  /** The data dir, or undefined for a store in memory only. */
  readonly dataDir: string | undefined;
  /** The collection `name`, created empty on first use. */
  collection<T>(name: string): Collection<T>;
  /**
   * Runs `work` so that every change it makes is committed as one journal record: all of them survive a
   * crash or none does. If `work` throws, its changes are undone and the error passes on. Inside, reads see
   * the transaction's own changes. Nested calls join the outer transaction. `work` must be synchronous.
   */
  transaction<R>(work: () => R): R;
  /**
   * Runs `callback` once the current transaction has committed (not at all if it rolls back), or at once
   * outside a transaction: for side effects such as starting a delivery that must follow the state change.
   */
  afterCommit(callback: () => void): void;
  /** Writes a snapshot and empties the journal now; normally this happens on its own as the journal grows. */
  compact(): void;
  /** Resolves once every change so far is on disk (fsynced). */
  flush(): Promise<void>;
  /** Flushes, closes the files and releases the data dir. Further changes throw `closed`. */
  close(): Promise<void>;
}

/** Options of {@link openStore}. */
export interface StoreOptions {
  /** Where state is kept; without it, the store lives in memory only and is gone at exit. */
  dataDir?: string;
  /** `interval` (default): fsync in the background every `fsyncIntervalMs`. `every-change`: before returning. */
  durability?: 'interval' | 'every-change';
  /** Default 20. */
  fsyncIntervalMs?: number;
  /**
   * A snapshot is taken when the journal has grown past both this many bytes (default 16 MiB) and the size of
   * the last snapshot, so rewriting the state costs no more than the changes written since.
   */
  compactAfterBytes?: number;
}

const SNAPSHOT_FORMAT = 'svc-sandbox-store';
const SNAPSHOT_VERSION = 1;
const READ_CHUNK_BYTES = 1 << 20;
const WRITE_CHUNK_CHARS = 1 << 20;

/** Data dirs this process holds, so a second open in the same process is refused too. */
const heldDataDirs = new Set<string>();

type Op = ['put', string, string, unknown] | ['del', string, string];
type Documents = Map<string, unknown>;

/** One change of the running transaction: its journal text and how to undo it in memory. */
interface PendingChange {
  text: string;
  undo: () => void;
}

/**
 * Opens the store; with a data dir, loads the snapshot and replays the journal first.
 * @throws StoreError `locked` when another live process (or this one) has the data dir open, `corrupt` when
 *   the files cannot be read back.
 */
export function openStore(options: StoreOptions = {}): Store {
  return new JournalStore(options);
}

class JournalStore implements Store {
  readonly dataDir: string | undefined;
  private readonly documents = new Map<string, Documents>();
  private readonly collections = new Map<string, Collection<unknown>>();
  private readonly durability: 'interval' | 'every-change';
  private readonly fsyncIntervalMs: number;
  private readonly compactAfterBytes: number;
  private files: DataFiles | undefined;
  private seq = 0;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private pending: PendingChange[] | undefined;
  private committed: Array<() => void> = [];
  private closed = false;
  private compactionScheduled = false;
  private fsyncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private unsynced = false;

  constructor(options: StoreOptions) {
    this.durability = options.durability ?? 'interval';
    this.fsyncIntervalMs = options.fsyncIntervalMs ?? 20;
    this.compactAfterBytes = options.compactAfterBytes ?? 16 * 1024 * 1024;
    this.dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
    if (this.dataDir !== undefined) this.files = this.openFiles(this.dataDir);
  }

  collection<T>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new StoreCollection<unknown>(this, name, this.documentsOf(name));
      this.collections.set(name, collection);
    }
    return collection as Collection<T>;
  }

  private documentsOf(name: string): Documents {
    let documents = this.documents.get(name);
    if (!documents) {
      documents = new Map();
      this.documents.set(name, documents);
    }
    return documents;
  }

  transaction<R>(work: () => R): R {
    this.assertOpen();
    if (this.pending) return this.nested(this.pending, work);
    const changes: PendingChange[] = [];
    const callbacks: Array<() => void> = [];
    this.pending = changes;
    this.committed = callbacks;
    let result: R;
    try {
      result = work();
      assertSynchronous(result);
      this.commit(changes);
    } catch (error) {
      undo(changes, 0);
      throw error;
    } finally {
      this.pending = undefined;
      this.committed = [];
    }
    for (const callback of callbacks) callback();
    return result;
  }

  /** A transaction inside another: on error only its own changes are undone, so the outer one may go on. */
  private nested<R>(changes: PendingChange[], work: () => R): R {
    const mark = changes.length;
    const callbackMark = this.committed.length;
    try {
      const result = work();
      assertSynchronous(result);
      return result;
    } catch (error) {
      undo(changes, mark);
      this.committed.length = callbackMark;
      throw error;
    }
  }

  afterCommit(callback: () => void): void {
    if (this.pending) this.committed.push(callback);
    else callback();
  }

  /** Applies one change in memory and records it in the running transaction, or commits it alone. */
  change(text: string, apply: () => () => void): void {
    this.assertOpen();
    if (this.pending) {
      this.pending.push({ text, undo: apply() });
      return;
    }
    const undo = apply();
    try {
      this.commit([{ text, undo }]);
    } catch (error) {
      undo();
      throw error;
    }
  }

  /** Writes one journal record for `changes`; throws (and the caller undoes) if the write fails. */
  private commit(changes: PendingChange[]): void {
    if (changes.length === 0 || !this.files) return;
    const seq = this.seq + 1;
    const line = `{"seq":${seq},"ops":[${changes.map((change) => change.text).join(',')}]}\n`;
    const bytes = Buffer.byteLength(line);
    try {
      const written = writeSync(this.files.journal, line);
      if (written !== bytes) throw new Error(`wrote ${written} of ${bytes} bytes`);
      if (this.durability === 'every-change') fdatasyncSync(this.files.journal);
    } catch (error) {
      // Cut off whatever part of the record got written, so that the next record does not follow a torn one.
      try {
        ftruncateSync(this.files.journal, this.journalBytes);
      } catch {}
      throw new StoreError(
        'write_failed',
        `Cannot write the sandbox journal ${this.files.journalPath}: ${message(error)}`,
        {
          cause: error,
        },
      );
    }
    this.seq = seq;
    this.journalBytes += bytes;
    if (this.durability === 'interval') this.scheduleFsync();
    if (
      !this.compactionScheduled &&
      this.journalBytes >= Math.max(this.compactAfterBytes, this.snapshotBytes)
    ) {
      this.compactionScheduled = true;
      setImmediate(() => {
        this.compactionScheduled = false;
        if (!this.closed) this.compact();
      }).unref();
    }
  }

  private scheduleFsync(): void {
    this.unsynced = true;
    if (this.fsyncTimer || this.syncing) return;
    this.fsyncTimer = setTimeout(() => {
      this.fsyncTimer = undefined;
      void this.sync();
    }, this.fsyncIntervalMs);
    this.fsyncTimer.unref();
  }

  /** One background fdatasync at a time; changes made meanwhile are covered by the next. */
  private sync(): Promise<void> {
    if (this.syncing) return this.syncing.then(() => (this.unsynced ? this.sync() : undefined));
    const files = this.files;
    if (!files || !this.unsynced) return Promise.resolve();
    this.unsynced = false;
    this.syncing = new Promise<void>((done) => {
      fdatasync(files.journal, (error) => {
        // A failed background flush is retried with the next change; close() flushes synchronously.
        if (error) this.unsynced = true;
        this.syncing = undefined;
        if (this.unsynced && !this.closed) this.scheduleFsync();
        done();
      });
    });
    return this.syncing;
  }

  async flush(): Promise<void> {
    if (this.fsyncTimer) {
      clearTimeout(this.fsyncTimer);
      this.fsyncTimer = undefined;
    }
    await this.sync();
  }

  compact(): void {
    this.assertOpen();
    const files = this.files;
    if (!files) return;
    if (this.pending) {
      this.afterCommit(() => this.compact());
      return;
    }
    const temporary = `${files.snapshotPath}.tmp`;
    const fd = openSync(temporary, 'w');
    let bytes = 0;
    try {
      let chunk = `${JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, seq: this.seq })}\n`;
      let count = 0;
      const write = () => {
        bytes += writeSync(fd, chunk);
        chunk = '';
      };
      for (const [name, documents] of this.documents) {
        for (const [id, value] of documents) {
          chunk += `${JSON.stringify([name, id, value])}\n`;
          count++;
          if (chunk.length >= WRITE_CHUNK_CHARS) write();
        }
      }
      chunk += `${JSON.stringify({ end: count })}\n`;
      write();
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, files.snapshotPath);
    fsyncDirectory(files.stateDir);
    // Records up to `seq` are in the snapshot now; loading skips any that survive a crash right here.
    ftruncateSync(files.journal, 0);
    this.journalBytes = 0;
    this.snapshotBytes = bytes;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flush();
    this.closed = true;
    const files = this.files;
    if (!files) return;
    try {
      if (this.unsynced) fdatasyncSync(files.journal);
    } finally {
      closeSync(files.journal);
      files.releaseLock();
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
  }

  // -------------------------------------------------------------------------------------------------------
  // Files

  private openFiles(dataDir: string): DataFiles {
    const stateDir = join(dataDir, 'state');
    mkdirSync(stateDir, { recursive: true });
    const releaseLock = takeLock(dataDir);
    try {
      const snapshotPath = join(stateDir, 'snapshot.jsonl');
      const journalPath = join(stateDir, 'journal.jsonl');
      rmSync(`${snapshotPath}.tmp`, { force: true });
      this.loadSnapshot(snapshotPath);
      const validBytes = this.replayJournal(journalPath);
      const journal = openSync(journalPath, 'a');
      // Cut off a torn last record, so the next one starts on a line of its own.
      if (fstatSync(journal).size > validBytes) ftruncateSync(journal, validBytes);
      this.journalBytes = validBytes;
      return { stateDir, snapshotPath, journalPath, journal, releaseLock };
    } catch (error) {
      releaseLock();
      throw error;
    }
  }

  private loadSnapshot(path: string): void {
    let headerRead = false;
    let count = 0;
    let ended = false;
    const read = readLines(path, (line, lineNumber) => {
      const parsed = parseLine(line, path, lineNumber) as Record<string, unknown> | unknown[];
      if (!headerRead) {
        const header = parsed as { format?: unknown; version?: unknown; seq?: unknown };
        if (
          header.format !== SNAPSHOT_FORMAT ||
          header.version !== SNAPSHOT_VERSION ||
          typeof header.seq !== 'number'
        ) {
          throw corrupt(path, lineNumber, `is not a version ${SNAPSHOT_VERSION} store snapshot`);
        }
        this.seq = header.seq;
        headerRead = true;
      } else if (Array.isArray(parsed) && parsed.length === 3) {
        const [name, id, value] = parsed as [string, string, unknown];
        this.documentsOf(name).set(id, value);
        count++;
      } else if (!Array.isArray(parsed) && parsed['end'] === count) {
        ended = true;
      } else {
        throw corrupt(path, lineNumber, 'is not a document line');
      }
      return true;
    });
    if (read === undefined) return;
    if (!ended || read.torn) throw corrupt(path, read.lines, 'the snapshot ends early');
    this.snapshotBytes = read.validBytes;
  }

  /** Replays records after the snapshot; returns the byte length of the journal's whole records. */
  private replayJournal(path: string): number {
    const read = readLines(path, (line, lineNumber, isLast) => {
      let record: { seq: number; ops: Op[] };
      try {
        record = JSON.parse(line) as typeof record;
        if (typeof record.seq !== 'number' || !Array.isArray(record.ops)) throw new Error('not a record');
      } catch (error) {
        // A record is written with one write call, so only the last one can be torn by a crash.
        if (isLast) return false;
        throw corrupt(path, lineNumber, message(error));
      }
      if (record.seq <= this.seq) return true;
      for (const op of record.ops) {
        if (op[0] === 'put') this.documentsOf(op[1]).set(op[2], op[3]);
        else if (op[0] === 'del') this.documentsOf(op[1]).delete(op[2]);
        else throw corrupt(path, lineNumber, `unknown change ${JSON.stringify(op[0])}`);
      }
      this.seq = record.seq;
      return true;
    });
    return read?.validBytes ?? 0;
  }
}

class StoreCollection<T> implements Collection<T> {
  private readonly quotedName: string;

  constructor(
    private readonly store: JournalStore,
    readonly name: string,
    private readonly documents: Documents,
  ) {
    this.quotedName = JSON.stringify(name);
  }

  get size(): number {
    return this.documents.size;
  }

  get(id: string): T | undefined {
    return this.documents.get(id) as T | undefined;
  }

  has(id: string): boolean {
    return this.documents.has(id);
  }

  put(id: string, value: T): void {
    const text = JSON.stringify(value);
    if (text === undefined) {
      throw new StoreError('not_json', `${this.name}/${id}: ${typeof value} is not a JSON value`);
    }
    // Keep what a restart would load, not the caller's object: the two can never drift apart.
    const stored = JSON.parse(text) as unknown;
    this.store.change(`["put",${this.quotedName},${JSON.stringify(id)},${text}]`, () => this.set(id, stored));
  }

  delete(id: string): boolean {
    if (!this.documents.has(id)) return false;
    this.store.change(`["del",${this.quotedName},${JSON.stringify(id)}]`, () => this.set(id, undefined));
    return true;
  }

  update(id: string, change: (current: T) => T): T {
    const current = this.get(id);
    if (current === undefined) throw new StoreError('not_found', `${this.name}/${id} does not exist`);
    this.put(id, change(current));
    return this.get(id)!;
  }

  keys(): IterableIterator<string> {
    return this.documents.keys();
  }

  values(): IterableIterator<T> {
    return this.documents.values() as IterableIterator<T>;
  }

  entries(): IterableIterator<[string, T]> {
    return this.documents.entries() as IterableIterator<[string, T]>;
  }

  /** Sets or (with undefined) removes a document and returns how to undo that. */
  private set(id: string, value: unknown): () => void {
    const had = this.documents.has(id);
    const before = this.documents.get(id);
    if (value === undefined) this.documents.delete(id);
    else this.documents.set(id, value);
    return () => {
      if (had) this.documents.set(id, before);
      else this.documents.delete(id);
    };
  }
}

interface DataFiles {
  stateDir: string;
  snapshotPath: string;
  journalPath: string;
  journal: number;
  releaseLock: () => void;
}

/**
 * Takes `<dataDir>/sandbox.lock` for this process. A lock left by a process that is gone is taken over; a live
 * owner (including this process) is refused.
 */
function takeLock(dataDir: string): () => void {
  const lockPath = join(dataDir, 'sandbox.lock');
  const refuse = (pid: number) =>
    new StoreError(
      'locked',
      `The data dir ${dataDir} is in use by process ${pid}${pid === process.pid ? ' (this one)' : ''}: one sandbox ` +
        `owns a data dir. Stop that sandbox or give another --data-dir (lock file: ${lockPath}).`,
    );
  if (heldDataDirs.has(dataDir)) throw refuse(process.pid);
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const owner = Number.parseInt(readFileIfPresent(lockPath) ?? '', 10);
    // Our own pid in a lock we do not hold is a leftover of an earlier run that had the same pid (containers).
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) throw refuse(owner);
    rmSync(lockPath, { force: true });
  }
  heldDataDirs.add(dataDir);
  const release = () => {
    process.off('exit', release);
    if (!heldDataDirs.delete(dataDir)) return;
    if (readFileIfPresent(lockPath) === `${process.pid}\n`) rmSync(lockPath, { force: true });
  };
  process.on('exit', release);
  return release;
}

/** Undoes `changes` from the last back to index `from`, and drops them. */
function undo(changes: PendingChange[], from: number): void {
  for (let index = changes.length - 1; index >= from; index--) changes[index]!.undo();
  changes.length = from;
}

function assertSynchronous(result: unknown): void {
  if (result instanceof Promise) {
    // The transaction would commit before the awaited work did its part: refuse rather than half-commit.
    result.catch(() => {});
    throw new StoreError(
      'async_transaction',
      'A store transaction must be synchronous; do the awaiting before it',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readFileIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a file line by line in chunks, so its size is not bounded by the longest string. `onLine` returns
 * false to stop at a line that is not whole. Returns undefined when there is no file, else how many lines were
 * read, the bytes of whole lines, and whether the file ended in a line without its newline (a torn write).
 */
function readLines(
  path: string,
  onLine: (line: string, lineNumber: number, isLast: boolean) => boolean,
): { lines: number; validBytes: number; torn: boolean } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(READ_CHUNK_BYTES, Math.max(size, 1)));
    let carry = Buffer.alloc(0);
    let position = 0;
    let validBytes = 0;
    let lineNumber = 0;
    let held: Buffer | undefined;
    // A line is handed on only once the next is known, so that onLine can be told which line is the last.
    const emit = (line: Buffer, isLast: boolean): boolean => {
      lineNumber++;
      if (!onLine(line.toString('utf8'), lineNumber, isLast)) return false;
      validBytes += line.length + 1;
      return true;
    };
    while (position < size) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      let data =
        carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
      let newline = data.indexOf(10);
      while (newline !== -1) {
        if (held && !emit(held, false)) return { lines: lineNumber, validBytes, torn: true };
        held = Buffer.from(data.subarray(0, newline));
        data = data.subarray(newline + 1);
        newline = data.indexOf(10);
      }
      carry = Buffer.from(data);
    }
    const torn = carry.length > 0;
    if (held && !emit(held, !torn)) return { lines: lineNumber, validBytes, torn: true };
    if (torn) lineNumber++;
    return { lines: lineNumber, validBytes, torn };
  } finally {
    closeSync(fd);
  }
}

function parseLine(line: string, path: string, lineNumber: number): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    throw corrupt(path, lineNumber, message(error));
  }
}

function corrupt(path: string, lineNumber: number, problem: string): StoreError {
  return new StoreError(
    'corrupt',
    `The sandbox state file ${path} is damaged at line ${lineNumber} (${problem}). Restore it from a backup, ` +
      'or delete the data dir to start over.',
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
