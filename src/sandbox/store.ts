/**
 * The sandbox's state: named collections of JSON documents, held in memory and, when a data dir is given,
 * kept durable in an append-only journal with periodic snapshots.
 *
 * On disk (`<dataDir>/state/`):
 * - `journal.jsonl`: a header line `{"format":"svc-sandbox-journal","version":2,"after":N,"sum":...}` naming
 *   the snapshot record it continues from, then one line per committed change (a single put, or a whole
 *   transaction) with consecutive `seq` numbers N+1, N+2, ..., each appended before the next starts, so a
 *   crash leaves at most a torn last line: opening cuts it off and reports it in {@link Store.warnings}. A
 *   put of a document that exists is journalled as a patch of what changed when that is shorter, so a small
 *   change of a large document costs a small record.
 * - `snapshot.jsonl`: every document as of journal record `seq`. Compaction writes the snapshot and a new
 *   journal (its header alone) to temporary files, fsyncs them and renames them over the old ones, snapshot
 *   first, so the files on disk are a whole state at every moment.
 * Every line of both ends in a checksum of the rest (see {@link sealed}). Files of earlier versions, without
 * checksums, are read once as they are and rewritten in the current format on opening.
 * Any other damage refuses to open (`corrupt`, naming the file, the line and what to do): a line before the
 * last that does not parse or whose checksum does not match, a snapshot that is not whole, a journal
 * emptied or missing, records missing
 * between the snapshot and the journal or within the journal. Starting on a part of the state would lose the
 * rest without a word, and a gateway that forgets payments is worse than one that does not start. (A journal
 * cut exactly at a line boundary past its header cannot be told from a shorter history.)
 * `<dataDir>/sandbox.lock` holds the owning process id: one process owns a data dir.
 *
 * Durability: each change reaches the operating system before `put` / `transaction` returns, so a crash of
 * the sandbox process loses nothing it acknowledged. The journal is fsynced in the background at most every
 * `fsyncIntervalMs` (group commit), so a power loss loses at most that window; `durability: 'every-change'`
 * fsyncs before returning instead, at a cost of a disk flush per change. The sandbox is a test gateway, and a
 * power loss there costs a few test payments, not money, so the default favours throughput.
 *
 * Write failures (a full disk): a change whose journal record cannot be written throws `no_space` (or
 * `write_failed`) and is undone in memory, and whatever part of the record reached the file is cut off, so
 * memory and disk stay as they were before it. Every change tries the disk again, so the store resumes by
 * itself once space returns. A failed background fsync may have cost pages the kernel could not write (a
 * later fsync can succeed without them), so the store then rewrites its whole state from memory in a
 * compaction as soon as it can. A failed compaction removes its temporary files, leaves the old files as they
 * were, and is retried later. Background failures never throw: they go to `onHealthChange`.
 */

import { createHash } from 'node:crypto';
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
  writeSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { SvcError } from '../core/errors.js';

/** Why the store refused something. */
export type StoreErrorCode =
  | 'locked'
  | 'corrupt'
  | 'closed'
  | 'not_found'
  | 'async_transaction'
  | 'not_json'
  /** The disk (or the user's quota) is full: nothing was changed, and the next change tries again. */
  | 'no_space'
  /** Another write failure (an I/O error, a read-only file system): nothing was changed. */
  | 'write_failed';

/** A store failure; the message says what to do about it. */
export class StoreError extends SvcError<StoreErrorCode> {}

/** True for the errors of a write that failed (`no_space`, `write_failed`): the change was not made. */
export function isWriteFailure(error: unknown): error is StoreError {
  return error instanceof StoreError && (error.code === 'no_space' || error.code === 'write_failed');
}

/** What opening a data dir repaired, and what that cost. */
export interface StoreWarning {
  /** The journal ended in a record cut short by a crash while it was written; it was cut off. */
  code: 'torn_record_dropped';
  /** The file that was repaired. */
  file: string;
  /** The line the torn record started on (1-based). */
  line: number;
  /** How many bytes were cut off. */
  bytes: number;
  /** All of the above as a sentence, for a log. */
  message: string;
}

/**
 * Whether the store's writes succeed: `ok: false` with the failure while they do not (a full disk), and
 * which write failed first: a change's journal record (changes are refused), the background fsync, or a
 * snapshot (both retried in the background while changes go on).
 */
export type StoreHealth =
  | { ok: true }
  | { ok: false; error: StoreError; failed: 'journal' | 'fsync' | 'snapshot' };

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
  /**
   * Stores the value under `id`, replacing any earlier one.
   * @throws StoreError `no_space` / `write_failed` when it cannot be written; then nothing changed.
   */
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
  /** What opening the data dir repaired (a torn last record cut off), for the caller to report. */
  readonly warnings: readonly StoreWarning[];
  /** The write failure that lasts (a full disk), or undefined while writes succeed. */
  readonly failure: StoreError | undefined;
  /** The collection `name`, created empty on first use. */
  collection<T>(name: string): Collection<T>;
  /**
   * Runs `work` so that every change it makes is committed as one journal record: all of them survive a
   * crash or none does. If `work` throws, or the record cannot be written (`no_space`, `write_failed`), its
   * changes are undone and the error passes on. Inside, reads see the transaction's own changes. Nested calls
   * join the outer transaction. `work` must be synchronous.
   */
  transaction<R>(work: () => R): R;
  /**
   * Runs `callback` once the current transaction has committed (not at all if it rolls back), or at once
   * outside a transaction: for side effects such as starting a delivery that must follow the state change.
   */
  afterCommit(callback: () => void): void;
  /**
   * Writes a snapshot and starts an empty journal now; normally this happens on its own as the journal grows.
   * @throws StoreError `no_space` / `write_failed` when it cannot; the files stay as they were.
   */
  compact(): void;
  /**
   * Resolves once every change so far is on disk (fsynced).
   * @throws StoreError `no_space` / `write_failed` when that cannot be done now.
   */
  flush(): Promise<void>;
  /** Flushes, closes the files and releases the data dir (even if the flush fails). Further changes throw `closed`. */
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
  /**
   * Told when writes start failing (a full disk) and when they succeed again, once per change of state, for a
   * log line. Called from a microtask: an error it throws is its own.
   */
  onHealthChange?: (health: StoreHealth) => void;
}

/**
 * The file-system calls through which the store writes. A seam for tests on machines that cannot mount a
 * small file system: they replace members to fail as a full disk does. Not part of any public entry.
 */
export const storeFileSystem = {
  writeSync,
  fdatasync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  renameSync,
};

const SNAPSHOT_FORMAT = 'svc-sandbox-store';
/**
 * Version 3: every line ends in its checksum. Version 2: the journal beside it starts with a header line.
 * Versions 1 and 2 (before) are still read, and rewritten as version 3 on opening.
 */
const SNAPSHOT_VERSION = 3;
const JOURNAL_FORMAT = 'svc-sandbox-journal';
/** Version 2: every line ends in its checksum. Version 1 (and a journal without header) is still read. */
const JOURNAL_VERSION = 2;
const READ_CHUNK_BYTES = 1 << 20;
const WRITE_CHUNK_CHARS = 1 << 20;
/** After a failed background compaction, the next waits 1 s, then 2 s, 4 s, ... up to a minute. */
const COMPACTION_RETRY_MS = 1_000;
const COMPACTION_RETRY_MAX_MS = 60_000;

/** Data dirs this process holds, so a second open in the same process is refused too. */
const heldDataDirs = new Set<string>();

type Documents = Map<string, unknown>;

/** One change of the running transaction: its journal text and how to undo it in memory. */
interface PendingChange {
  text: string;
  undo: () => void;
}

/** What the snapshot's header says. */
interface SnapshotInfo {
  seq: number;
  version: number;
}

/**
 * Opens the store; with a data dir, loads the snapshot and replays the journal first.
 * @throws StoreError `locked` when another live process (or this one) has the data dir open, `corrupt` when
 *   the files are damaged (the message names the file, the line and what to do), `no_space` /
 *   `write_failed` when the lock file or a new journal cannot be written.
 */
export function openStore(options: StoreOptions = {}): Store {
  return new JournalStore(options);
}

class JournalStore implements Store {
  readonly dataDir: string | undefined;
  readonly warnings: StoreWarning[] = [];
  private readonly documents = new Map<string, Documents>();
  private readonly collections = new Map<string, Collection<unknown>>();
  private readonly durability: 'interval' | 'every-change';
  private readonly fsyncIntervalMs: number;
  private readonly compactAfterBytes: number;
  private readonly onHealthChange: ((health: StoreHealth) => void) | undefined;
  private files: DataFiles | undefined;
  private seq = 0;
  /** Bytes of whole lines in the journal, its header included: where the next record starts. */
  private journalBytes = 0;
  private snapshotBytes = 0;
  private pending: PendingChange[] | undefined;
  private committed: Array<() => void> = [];
  private closed = false;
  private fsyncTimer: NodeJS.Timeout | undefined;
  private syncing: Promise<void> | undefined;
  private unsynced = false;
  /** A failed write left bytes after `journalBytes` that could not be cut off yet; the next write cuts first. */
  private tailDirty = false;
  /** An fsync failed: only rewriting the state (a compaction) makes it durable again. */
  private rewriteNeeded = false;
  private currentFailure: StoreError | undefined;
  private failedWrite: 'journal' | 'fsync' | 'snapshot' | undefined;
  private compactionTimer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  private compactionFailures = 0;

  constructor(options: StoreOptions) {
    this.durability = options.durability ?? 'interval';
    this.fsyncIntervalMs = options.fsyncIntervalMs ?? 20;
    this.compactAfterBytes = options.compactAfterBytes ?? 16 * 1024 * 1024;
    this.onHealthChange = options.onHealthChange;
    this.dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
    if (this.dataDir !== undefined) this.files = this.openFiles(this.dataDir);
  }

  get failure(): StoreError | undefined {
    return this.currentFailure;
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
    const files = this.files;
    if (changes.length === 0 || !files) return;
    const seq = this.seq + 1;
    const line = Buffer.from(
      sealed(`{"seq":${seq},"ops":[${changes.map((change) => change.text).join(',')}]}`),
      'utf8',
    );
    let written = false;
    try {
      if (this.tailDirty) this.cutTail(files);
      writeAll(files.journal, line);
      written = true;
      if (this.durability === 'every-change') storeFileSystem.fdatasyncSync(files.journal);
    } catch (error) {
      // Cut off whatever part of the record got written (all of it, when the fsync failed): the change is
      // refused, so the disk must not keep it, and the next record must not follow a torn one.
      this.tailDirty = true;
      try {
        this.cutTail(files);
      } catch {}
      if (written) {
        // A failed fsync may have cost pages of records written before, too: see sync().
        this.rewriteNeeded = true;
        this.scheduleCompaction();
      }
      throw this.fail(
        writeFailure(
          error,
          (reason, remedy) =>
            `The sandbox cannot save this change: ${reason} (writing ${files.journalPath}). Nothing was ` +
            `changed; ${remedy} and send it again: the sandbox resumes by itself.`,
        ),
        'journal',
      );
    }
    this.seq = seq;
    this.journalBytes += line.length;
    this.recovered();
    if (this.durability === 'interval') this.scheduleFsync();
    if (this.journalBytes >= Math.max(this.compactAfterBytes, this.snapshotBytes)) this.scheduleCompaction();
  }

  private cutTail(files: DataFiles): void {
    storeFileSystem.ftruncateSync(files.journal, this.journalBytes);
    this.tailDirty = false;
  }

  /** Records a write failure and reports it if writes were succeeding until now. */
  private fail(error: StoreError, failed: 'journal' | 'fsync' | 'snapshot'): StoreError {
    // Reported once per spell of failures, and again if changes start being refused within it.
    const report =
      this.currentFailure === undefined || (failed === 'journal' && this.failedWrite !== 'journal');
    this.currentFailure = error;
    if (this.failedWrite !== 'journal') this.failedWrite = failed;
    if (report) this.report({ ok: false, error, failed });
    return error;
  }

  /** A write succeeded: healthy again, unless a rewrite is still owed. */
  private recovered(): void {
    if (this.currentFailure === undefined || this.rewriteNeeded || this.tailDirty) return;
    this.currentFailure = undefined;
    this.failedWrite = undefined;
    this.report({ ok: true });
  }

  private report(health: StoreHealth): void {
    const listener = this.onHealthChange;
    if (listener) queueMicrotask(() => listener(health));
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

  /** One background fdatasync at a time; changes made meanwhile are covered by the next. Never rejects. */
  private sync(): Promise<void> {
    if (this.syncing) return this.syncing.then(() => (this.unsynced ? this.sync() : undefined));
    const files = this.files;
    if (!files || !this.unsynced) return Promise.resolve();
    this.unsynced = false;
    const journal = files.journal;
    const generation = files.generation;
    this.syncing = new Promise<void>((done) => {
      storeFileSystem.fdatasync(journal, (error) => {
        this.syncing = undefined;
        // A compaction since then replaced the journal and fsynced everything itself.
        if (files.generation === generation && !this.closed) {
          if (error) {
            // The kernel may have dropped the pages it could not write, and a later fsync can succeed without
            // them: retrying the fsync proves nothing. Memory is whole, so the state is rewritten from it.
            this.rewriteNeeded = true;
            this.fail(
              writeFailure(
                error,
                (reason) =>
                  `The sandbox cannot flush its journal ${files.journalPath} to disk: ${reason}. Changes are ` +
                  'kept in memory and rewritten as a new snapshot once the disk takes them.',
              ),
              'fsync',
            );
            this.scheduleCompaction();
          } else if (this.unsynced) this.scheduleFsync();
        }
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
    if (this.rewriteNeeded && !this.closed) this.compact();
  }

  /**
   * A compaction in the background: soon after the journal outgrew its bound or an fsync failed, and after a
   * failure again later, each time twice as late.
   */
  private scheduleCompaction(): void {
    if (this.compactionTimer !== undefined || this.closed || !this.files) return;
    const run = () => {
      this.compactionTimer = undefined;
      if (this.closed) return;
      try {
        this.compact();
      } catch (error) {
        if (!isWriteFailure(error)) throw error;
        // compact() reported it. Without a rewrite owed, the next change past the bound tries again.
        if (this.rewriteNeeded) this.scheduleCompaction();
      }
    };
    if (this.compactionFailures === 0) this.compactionTimer = setImmediate(run).unref();
    else {
      const delay = Math.min(
        COMPACTION_RETRY_MS * 2 ** (this.compactionFailures - 1),
        COMPACTION_RETRY_MAX_MS,
      );
      this.compactionTimer = setTimeout(run, delay).unref();
    }
  }

  compact(): void {
    this.assertOpen();
    const files = this.files;
    if (!files) return;
    if (this.pending) {
      this.afterCommit(() => this.compact());
      return;
    }
    try {
      this.rewrite(files);
    } catch (error) {
      this.compactionFailures++;
      throw this.fail(
        writeFailure(
          error,
          (reason, remedy) =>
            `The sandbox cannot write a new snapshot ${files.snapshotPath}: ${reason}. The journal stays as ` +
            `it was and nothing is lost; ${remedy}, and the sandbox tries again by itself.`,
        ),
        'snapshot',
      );
    }
    this.compactionFailures = 0;
    this.recovered();
  }

  /**
   * Writes the state as a new snapshot and a new journal holding only its header, each to a temporary file,
   * fsynced, then renamed into place: the snapshot first, so that at every moment the files on disk hold a
   * whole state (the old journal stays valid beside the new snapshot: loading skips the records it holds).
   */
  private rewrite(files: DataFiles): void {
    const snapshotTemporary = `${files.snapshotPath}.tmp`;
    const journalTemporary = `${files.journalPath}.tmp`;
    let journal: number | undefined;
    let snapshotBytes: number;
    const header = journalHeader(this.seq);
    try {
      snapshotBytes = this.writeSnapshot(snapshotTemporary);
      journal = openSync(journalTemporary, 'a');
      writeAll(journal, header);
      storeFileSystem.fsyncSync(journal);
      storeFileSystem.renameSync(snapshotTemporary, files.snapshotPath);
    } catch (error) {
      // Removing what was written frees the space it took on a full disk.
      if (journal !== undefined) closeSync(journal);
      rmSync(snapshotTemporary, { force: true });
      rmSync(journalTemporary, { force: true });
      throw error;
    }
    this.snapshotBytes = snapshotBytes;
    try {
      storeFileSystem.renameSync(journalTemporary, files.journalPath);
    } catch (error) {
      closeSync(journal);
      rmSync(journalTemporary, { force: true });
      throw error;
    }
    // The new journal is in place: write on in it. The old descriptor is closed once no fsync uses it.
    const old = files.journal;
    files.journal = journal;
    files.generation++;
    const closeOld = () => closeSync(old);
    if (this.syncing) void this.syncing.then(closeOld);
    else closeOld();
    this.journalBytes = header.length;
    this.tailDirty = false;
    this.unsynced = false;
    this.rewriteNeeded = false;
    try {
      fsyncDirectory(files.stateDir);
    } catch (error) {
      // The renames may not survive a power loss, and records written from now on would be lost with them.
      this.rewriteNeeded = true;
      throw error;
    }
  }

  /** Writes every document to `path` and fsyncs it; returns its size. */
  private writeSnapshot(path: string): number {
    const fd = openSync(path, 'w');
    let bytes = 0;
    try {
      let chunk = sealed(
        JSON.stringify({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION, seq: this.seq }),
      );
      let count = 0;
      const write = () => {
        const data = Buffer.from(chunk, 'utf8');
        writeAll(fd, data);
        bytes += data.length;
        chunk = '';
      };
      for (const [name, documents] of this.documents) {
        for (const [id, value] of documents) {
          chunk += sealed(JSON.stringify([name, id, value]));
          count++;
          if (chunk.length >= WRITE_CHUNK_CHARS) write();
        }
      }
      chunk += sealed(JSON.stringify({ end: count }));
      write();
      storeFileSystem.fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    return bytes;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    let failure: unknown;
    try {
      await this.flush();
    } catch (error) {
      failure = error;
    }
    this.closed = true;
    clearTimeout(this.fsyncTimer);
    this.fsyncTimer = undefined;
    if (this.compactionTimer !== undefined) {
      clearTimeout(this.compactionTimer as NodeJS.Timeout);
      clearImmediate(this.compactionTimer as NodeJS.Immediate);
      this.compactionTimer = undefined;
    }
    const files = this.files;
    if (!files) return;
    try {
      if (this.unsynced && failure === undefined) storeFileSystem.fdatasyncSync(files.journal);
    } catch (error) {
      failure = writeFailure(
        error,
        (reason) =>
          `The sandbox could not flush its journal ${files.journalPath} to disk at close: ${reason}.`,
      );
    } finally {
      closeSync(files.journal);
      files.releaseLock();
    }
    if (failure !== undefined) throw failure;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
  }

  // -------------------------------------------------------------------------------------------------------
  // Files

  private openFiles(dataDir: string): DataFiles {
    const stateDir = join(dataDir, 'state');
    try {
      mkdirSync(stateDir, { recursive: true });
    } catch (error) {
      throw writeFailure(
        error,
        (reason) => `Cannot create the sandbox's state folder ${stateDir}: ${reason}.`,
      );
    }
    const releaseLock = takeLock(dataDir);
    let journal: number | undefined;
    try {
      const snapshotPath = join(stateDir, 'snapshot.jsonl');
      const journalPath = join(stateDir, 'journal.jsonl');
      // Left by a compaction that did not finish: the files they were to replace are whole.
      rmSync(`${snapshotPath}.tmp`, { force: true });
      rmSync(`${journalPath}.tmp`, { force: true });
      const snapshot = this.loadSnapshot(snapshotPath);
      const replayed = this.replayJournal(journalPath, snapshotPath, snapshot);
      const files: DataFiles = {
        stateDir,
        snapshotPath,
        journalPath,
        journal: -1,
        generation: 0,
        releaseLock,
      };
      if (replayed === undefined) {
        files.journal = this.createJournal(journalPath);
        return files;
      }
      journal = openSync(journalPath, 'a');
      files.journal = journal;
      this.journalBytes = replayed.validBytes;
      if (replayed.torn !== undefined) {
        // Cut off the torn last record, so the next one starts on a line of its own.
        ftruncateSync(files.journal, replayed.validBytes);
        const { line, bytes } = replayed.torn;
        this.warnings.push({
          code: 'torn_record_dropped',
          file: journalPath,
          line,
          bytes,
          message:
            `Dropped the torn last record of ${journalPath} (line ${line}, ${bytes} bytes): a crash cut it ` +
            'short while it was written, so the change it held was never acknowledged (unless the crash was a ' +
            'power loss within the fsync interval).',
        });
      }
      if (!replayed.sealed || (snapshot !== undefined && snapshot.version !== SNAPSHOT_VERSION)) {
        // Files of an earlier version (without checksums, or without a journal header) were read once as they
        // are; a compaction now rewrites them in the current format, so damage is noticed from here on. If
        // the disk is full, that waits for the next compaction.
        this.files = files;
        try {
          this.rewrite(files);
        } catch {}
      }
      return files;
    } catch (error) {
      if (journal !== undefined) closeSync(journal);
      releaseLock();
      throw error;
    }
  }

  /** A new journal holding only its header, created under a temporary name and renamed into place. */
  private createJournal(journalPath: string): number {
    const temporary = `${journalPath}.tmp`;
    const header = journalHeader(this.seq);
    let fd: number | undefined;
    try {
      fd = openSync(temporary, 'a');
      writeAll(fd, header);
      storeFileSystem.fsyncSync(fd);
      storeFileSystem.renameSync(temporary, journalPath);
      fsyncDirectory(dirname(journalPath));
    } catch (error) {
      if (fd !== undefined) closeSync(fd);
      rmSync(temporary, { force: true });
      throw writeFailure(
        error,
        (reason, remedy) =>
          `Cannot create the sandbox journal ${journalPath}: ${reason}; ${remedy} and start again.`,
      );
    }
    this.journalBytes = header.length;
    return fd;
  }

  private loadSnapshot(path: string): SnapshotInfo | undefined {
    let header: SnapshotInfo | undefined;
    let count = 0;
    let ended = false;
    const read = readLines(path, (line, lineNumber) => {
      if (ended) throw corrupt(path, lineNumber, 'there are lines after the end line');
      if (header === undefined) {
        const fields = parseLine(line, path, lineNumber, 'if-present') as {
          format?: unknown;
          version?: unknown;
          seq?: unknown;
        } | null;
        if (
          fields?.format !== SNAPSHOT_FORMAT ||
          (fields.version !== 1 && fields.version !== 2 && fields.version !== SNAPSHOT_VERSION) ||
          !isSeq(fields.seq) ||
          (fields.version === SNAPSHOT_VERSION && unseal(line, 'object') === undefined)
        ) {
          throw corrupt(path, lineNumber, `it is not a version ${SNAPSHOT_VERSION} store snapshot header`);
        }
        header = { seq: fields.seq, version: fields.version };
        this.seq = fields.seq;
        return;
      }
      // A document line is an array, the end line an object: the last byte tells which seal to look for.
      const parsed = parseLine(
        line,
        path,
        lineNumber,
        header.version === SNAPSHOT_VERSION ? 'required' : 'none',
        line[line.length - 1] === 0x5d ? 'array' : 'object',
      ) as Record<string, unknown> | unknown[] | null;
      if (
        Array.isArray(parsed) &&
        parsed.length === 3 &&
        typeof parsed[0] === 'string' &&
        typeof parsed[1] === 'string'
      ) {
        const [name, id, value] = parsed as [string, string, unknown];
        this.documentsOf(name).set(id, value);
        count++;
      } else if (parsed !== null && !Array.isArray(parsed) && parsed['end'] === count) {
        ended = true;
      } else {
        throw corrupt(path, lineNumber, 'it is not a document line');
      }
    });
    if (read === undefined) return undefined;
    // A snapshot is renamed into place whole: one that ends early was damaged afterwards.
    if (!ended || read.torn !== undefined) {
      throw corrupt(path, read.lines + 1, 'the snapshot ends early, without its end line');
    }
    this.snapshotBytes = read.validBytes;
    return header;
  }

  /**
   * Replays the journal's records after the snapshot, checking that none is missing. Returns undefined when
   * there is no journal (and none is needed), else the byte length of its whole lines, whether it is of the
   * current version (a header and checksums), and the torn last record, if any.
   */
  private replayJournal(
    path: string,
    snapshotPath: string,
    snapshot: SnapshotInfo | undefined,
  ): { validBytes: number; sealed: boolean; torn: { line: number; bytes: number } | undefined } | undefined {
    const snapshotSeq = snapshot?.seq ?? 0;
    const snapshotName = snapshot
      ? `the snapshot ${snapshotPath}`
      : `no snapshot (${snapshotPath} is missing)`;
    // Before version 2, an empty journal was normal beside a snapshot (compaction emptied it).
    const legacy = snapshot?.version === 1;
    /** The last record read (or the header's `after`); undefined before the first line. */
    let previous: number | undefined;
    // Until a version 2 header says every line has a checksum.
    let sealing = 'if-present' as 'required' | 'if-present';
    const read = readLines(path, (line, lineNumber) => {
      const parsed = parseLine(line, path, lineNumber, sealing);
      if (lineNumber === 1 && isJournalHeader(parsed)) {
        if (parsed.version === JOURNAL_VERSION) {
          if (unseal(line, 'object') === undefined) {
            throw corrupt(path, 1, 'it lacks the checksum every line of this file ends with');
          }
          sealing = 'required';
        }
        if (parsed.after > snapshotSeq) {
          throw corrupt(
            path,
            1,
            `the journal continues from record ${parsed.after}, but there is ${snapshotName}` +
              (snapshot ? ` ending at record ${snapshotSeq}` : '') +
              `: the records up to ${parsed.after} are lost (was the snapshot deleted or replaced by an older copy?)`,
          );
        }
        previous = parsed.after;
        return;
      }
      if (!isRecord(parsed)) throw corrupt(path, lineNumber, 'it is not a journal record');
      if (previous === undefined) {
        // A journal from before headers: its records start where the snapshot ends, or earlier.
        if (!legacy && snapshot !== undefined) {
          throw corrupt(
            path,
            lineNumber,
            'the journal has lost its header line, which belongs before this record',
          );
        }
        previous = 0;
      }
      // Records come one after another, except that the snapshot may cover a stretch the journal lacks (the
      // journal of before a compaction, left in place by a crash).
      const known = Math.max(previous, snapshotSeq);
      if (parsed.seq <= previous || parsed.seq > known + 1) {
        throw corrupt(
          path,
          lineNumber,
          parsed.seq <= previous
            ? `it holds record ${parsed.seq} after record ${previous}: records are repeated or out of order`
            : `it holds record ${parsed.seq}, but the journal ${previous > 0 ? `before it ends at record ${previous}` : 'starts there'}` +
                (snapshot ? ` and ${snapshotName} at record ${snapshotSeq}` : '') +
                `: the records between are lost`,
        );
      }
      previous = parsed.seq;
      if (parsed.seq <= this.seq) return;
      for (const op of parsed.ops) {
        if (!Array.isArray(op) || typeof op[1] !== 'string' || typeof op[2] !== 'string') {
          throw corrupt(path, lineNumber, `a change in it is not [kind, collection, id, ...]`);
        }
        const documents = this.documentsOf(op[1]);
        if (op[0] === 'put' && op.length === 4) documents.set(op[2], op[3]);
        else if (op[0] === 'del' && op.length === 3) documents.delete(op[2]);
        else if (op[0] === 'patch' && op.length === 4) {
          const patched = documents.has(op[2]) ? applyPatch(documents.get(op[2]), op[3]) : invalidPatch;
          if (patched === invalidPatch) {
            throw corrupt(path, lineNumber, `a patch in it does not fit ${op[1]}/${op[2]}`);
          }
          documents.set(op[2], patched);
        } else throw corrupt(path, lineNumber, `unknown change ${JSON.stringify(op[0])}`);
      }
      this.seq = parsed.seq;
    });
    if (read === undefined) {
      if (snapshot !== undefined && !legacy) {
        throw corrupt(
          path,
          1,
          `the journal is missing, beside ${snapshotName}: changes made after it are lost`,
        );
      }
      return undefined;
    }
    if (read.lines === 0 && !legacy) {
      // Every journal is created with its header line: no line at all means it was emptied.
      throw corrupt(
        path,
        1,
        `the journal is empty${read.torn ? ' but for a torn line' : ''}; it always holds at least its header ` +
          'line, so it was emptied and the changes it held are lost',
      );
    }
    return { validBytes: read.validBytes, sealed: sealing === 'required', torn: read.torn };
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
    const quotedId = JSON.stringify(id);
    const before = this.documents.get(id);
    // A small change of a large document (an attempt added to a Purchase) is journalled as what changed.
    const patch = before === undefined ? undefined : patchText(before, stored, text.length);
    this.store.change(
      patch === undefined
        ? `["put",${this.quotedName},${quotedId},${text}]`
        : `["patch",${this.quotedName},${quotedId},${patch}]`,
      () => this.set(id, stored),
    );
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

/**
 * A patch: steps applied in order, each a path of object keys and array indices from the document's root
 * and what to do there. `[path, value]` sets the member (an index one past an array's end appends);
 * `[path]` removes an object's member, or cuts an array at that index.
 */
type PatchStep = [path: Array<string | number>, value?: unknown];

/** Returned by {@link applyPatch} for a patch whose paths do not lead anywhere in the document. */
const invalidPatch = Symbol('invalid patch');

/**
 * The patch from `before` to `after` as JSON text, or undefined when the whole document is not longer.
 * Applied to `before`, it gives `after` down to the order of object members, so what a restart loads
 * serializes byte for byte as what was stored.
 */
function patchText(before: unknown, after: unknown, wholeLength: number): string | undefined {
  const steps: PatchStep[] = [];
  diff(before, after, [], steps);
  const text = JSON.stringify(steps);
  return text.length < wholeLength ? text : undefined;
}

function diff(before: unknown, after: unknown, path: Array<string | number>, steps: PatchStep[]): void {
  if (before === after) return;
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let index = 0; index < common; index++) {
      path.push(index);
      diff(before[index], after[index], path, steps);
      path.pop();
    }
    if (after.length < before.length) steps.push([[...path, after.length]]);
    for (let index = common; index < after.length; index++) steps.push([[...path, index], after[index]]);
    return;
  }
  if (isPlainObject(before) && isPlainObject(after) && keptInOrder(before, after)) {
    for (const key of Object.keys(before)) {
      if (!Object.hasOwn(after, key)) steps.push([[...path, key]]);
    }
    for (const key of Object.keys(after)) {
      if (Object.hasOwn(before, key)) {
        path.push(key);
        diff(before[key], after[key], path, steps);
        path.pop();
      } else steps.push([[...path, key], after[key]]);
    }
    return;
  }
  steps.push([[...path], after]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when the members `after` keeps of `before` come first in it, in the same order: added ones follow. */
function keptInOrder(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const afterKeys = Object.keys(after);
  let position = 0;
  for (const key of Object.keys(before)) {
    if (!Object.hasOwn(after, key)) continue;
    if (afterKeys[position] !== key) return false;
    position++;
  }
  return true;
}

/** Applies a journalled patch to a loaded document (changing it in place) and returns the result. */
function applyPatch(document: unknown, steps: unknown): unknown {
  if (!Array.isArray(steps)) return invalidPatch;
  let root = document;
  for (const step of steps) {
    if (!Array.isArray(step) || !Array.isArray(step[0]) || step.length < 1 || step.length > 2) {
      return invalidPatch;
    }
    const path = step[0] as unknown[];
    if (path.length === 0) {
      if (step.length !== 2) return invalidPatch;
      root = step[1];
      continue;
    }
    let parent: unknown = root;
    for (const key of path.slice(0, -1)) {
      parent = member(parent, key);
      if (parent === invalidPatch) return invalidPatch;
    }
    const last = path[path.length - 1];
    if (Array.isArray(parent) && typeof last === 'number' && Number.isSafeInteger(last) && last >= 0) {
      if (last > parent.length) return invalidPatch;
      if (step.length === 2) parent[last] = step[1];
      else parent.length = last;
    } else if (isPlainObject(parent) && typeof last === 'string') {
      // defineProperty, so a member named __proto__ stays a member, as JSON.parse makes it.
      if (step.length === 2) {
        Object.defineProperty(parent, last, {
          value: step[1],
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else delete parent[last];
    } else return invalidPatch;
  }
  return root;
}

/** An existing member of an object or array, or `invalidPatch`. */
function member(container: unknown, key: unknown): unknown {
  if (Array.isArray(container) && typeof key === 'number' && key >= 0 && key < container.length) {
    return container[key];
  }
  if (isPlainObject(container) && typeof key === 'string' && Object.hasOwn(container, key)) {
    return container[key];
  }
  return invalidPatch;
}

interface DataFiles {
  stateDir: string;
  snapshotPath: string;
  journalPath: string;
  /** The journal's descriptor, opened for appending; a compaction replaces it. */
  journal: number;
  /** Counts the journals a compaction put in place, so a late fsync result of an old one is ignored. */
  generation: number;
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
    let fd: number;
    try {
      fd = openSync(lockPath, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) {
        throw writeFailure(error, (reason) => `Cannot create the lock file ${lockPath}: ${reason}.`);
      }
      const owner = Number.parseInt(readFileIfPresent(lockPath) ?? '', 10);
      // Our own pid in a lock we do not hold is a leftover of an earlier run that had the same pid (containers).
      if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) throw refuse(owner);
      rmSync(lockPath, { force: true });
      continue;
    }
    try {
      writeAll(fd, Buffer.from(`${process.pid}\n`));
    } catch (error) {
      // An empty lock of ours would be taken over later, but it would not say whose it is meanwhile.
      closeSync(fd);
      rmSync(lockPath, { force: true });
      throw writeFailure(
        error,
        (reason, remedy) => `Cannot write the lock file ${lockPath}: ${reason}; ${remedy} and start again.`,
      );
    }
    closeSync(fd);
    break;
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
    storeFileSystem.fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes all of `data` at the end of the file. A short write (the disk filled up part way) goes on with the
 * rest, which either fits or fails with the real reason (ENOSPC).
 */
function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    const written = storeFileSystem.writeSync(fd, data, offset, data.length - offset);
    if (written <= 0) throw new Error(`the file took ${offset} of ${data.length} bytes`);
    offset += written;
  }
}

function journalHeader(after: number): Buffer {
  return Buffer.from(sealed(JSON.stringify({ format: JOURNAL_FORMAT, version: JOURNAL_VERSION, after })));
}

function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isJournalHeader(value: unknown): value is { version: 1 | 2; after: number } {
  const fields = value as { format?: unknown; version?: unknown; after?: unknown } | null;
  return (
    typeof fields === 'object' &&
    fields !== null &&
    fields.format === JOURNAL_FORMAT &&
    (fields.version === 1 || fields.version === JOURNAL_VERSION) &&
    isSeq(fields.after)
  );
}

function isRecord(value: unknown): value is { seq: number; ops: unknown[] } {
  const fields = value as { seq?: unknown; ops?: unknown } | null;
  return typeof fields === 'object' && fields !== null && isSeq(fields.seq) && Array.isArray(fields.ops);
}

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/**
 * A failed write as the store's error: `no_space` for a full disk or quota, `write_failed` for the rest.
 * `describe` makes the whole message from the reason and the remedy (`free space on that disk`): it says what
 * happened to the data and what to do.
 */
function writeFailure(error: unknown, describe: (reason: string, remedy: string) => string): StoreError {
  if (error instanceof StoreError) return error;
  const code = isErrno(error) ? error.code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const reason = code === 'ENOSPC' ? 'no space left on the disk' : 'the disk quota is used up';
    return new StoreError('no_space', describe(`${reason} (${code})`, 'free space on that disk'), {
      cause: error,
    });
  }
  return new StoreError('write_failed', describe(message(error), 'make that disk writable again'), {
    cause: error,
  });
}

/**
 * Reads a file line by line in chunks, so its size is not bounded by the longest string. Returns undefined
 * when there is no file, else how many whole lines were read, their bytes, and the torn last line (bytes
 * after the last newline), if any.
 */
function readLines(
  path: string,
  onLine: (line: Buffer, lineNumber: number) => void,
): { lines: number; validBytes: number; torn: { line: number; bytes: number } | undefined } | undefined {
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
    while (position < size) {
      const read = readSync(fd, buffer, 0, buffer.length, position);
      if (read === 0) break;
      position += read;
      let data =
        carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, read)]) : buffer.subarray(0, read);
      let newline = data.indexOf(10);
      while (newline !== -1) {
        lineNumber++;
        onLine(data.subarray(0, newline), lineNumber);
        validBytes += newline + 1;
        data = data.subarray(newline + 1);
        newline = data.indexOf(10);
      }
      carry = Buffer.from(data);
    }
    const torn = carry.length > 0 ? { line: lineNumber + 1, bytes: carry.length } : undefined;
    return { lines: lineNumber, validBytes, torn };
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses a line and checks its checksum: `required` in the formats that have them; `if-present` in an old
 * journal, which may end in records of the new format (appended when the disk was too full to rewrite it);
 * `none` in an old snapshot, where a document's last string could look like a checksum.
 */
function parseLine(
  line: Buffer,
  path: string,
  lineNumber: number,
  sealing: 'required' | 'if-present' | 'none',
  shape: 'object' | 'array' = 'object',
): unknown {
  const opened = sealing === 'none' ? undefined : unseal(line, shape);
  if (opened === 'mismatch') {
    throw corrupt(
      path,
      lineNumber,
      'its checksum does not match its content: the line was changed after it was written',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(opened ?? line.toString('utf8'));
  } catch (error) {
    throw corrupt(path, lineNumber, `it is not JSON: ${message(error)}`);
  }
  if (opened === undefined && sealing === 'required') {
    throw corrupt(path, lineNumber, 'it lacks the checksum every line of this file ends with');
  }
  return parsed;
}

/**
 * A line as written: the JSON text of an object or array with its checksum inserted as a last member
 * (`,"sum":"<16 hex>"}` or `,"<16 hex>"]`), so the files stay JSON lines. The checksum covers the text
 * before it; SHA-256 cut to 64 bits, as `node:crypto` has no CRC32 on every Node version this package
 * supports, and it costs about 2 µs a record, far below the write itself.
 */
function sealed(json: string): string {
  const body = json.slice(0, -1);
  const sum = checksum(body);
  return json.endsWith('}') ? `${body},"sum":"${sum}"}\n` : `${body},"${sum}"]\n`;
}

const SUM_CHARS = 16;
const OBJECT_SEAL = Buffer.from(',"sum":"');
const ARRAY_SEAL = Buffer.from(',"');

function checksum(body: string | Buffer): string {
  return createHash('sha256').update(body).digest('hex').slice(0, SUM_CHARS);
}

/**
 * The text of a sealed line without its checksum; undefined when the line has none, `mismatch` when the
 * checksum does not match the text.
 */
function unseal(line: Buffer, shape: 'object' | 'array'): string | 'mismatch' | undefined {
  const seal = shape === 'object' ? OBJECT_SEAL : ARRAY_SEAL;
  const close = shape === 'object' ? '}' : ']';
  const sumStart = line.length - 2 - SUM_CHARS;
  const sealStart = sumStart - seal.length;
  if (
    sealStart < 1 ||
    line[line.length - 1] !== close.charCodeAt(0) ||
    line[line.length - 2] !== 0x22 ||
    !line.subarray(sealStart, sumStart).equals(seal)
  ) {
    return undefined;
  }
  const sum = line.toString('latin1', sumStart, sumStart + SUM_CHARS);
  if (!/^[0-9a-f]+$/.test(sum)) return undefined;
  const body = line.subarray(0, sealStart);
  if (checksum(body) !== sum) return 'mismatch';
  return `${body.toString('utf8')}${close}`;
}

/** Damage found on opening: names the file, the line and the way out, and keeps the data dir's keys safe. */
function corrupt(path: string, lineNumber: number, problem: string): StoreError {
  const stateDir = dirname(path);
  return new StoreError(
    'corrupt',
    `The sandbox state file ${path} is damaged at line ${lineNumber}: ${problem}. The sandbox did not start ` +
      `and changed nothing. Restore the file from a backup, or move the state folder away to start with an ` +
      `empty state (mv ${stateDir} ${stateDir}.damaged); the keys in ${dirname(stateDir)} stay.`,
  );
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
