/**
 * The journal's writer: one record per committed change, appended whole before the next starts (so a crash
 * leaves at most a torn last line, which opening cuts off), fsynced, and compacted as the journal grows.
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

import { closeSync } from 'node:fs';
import type { Documents } from './collection.js';
import { putJournalInPlace, writeSnapshotAndJournal } from './compaction.js';
import { isWriteFailure, type StoreError, writeFailure } from './errors.js';
import { fsyncDirectory, storeFileSystem, writeAll } from './file-system.js';
import { journalRecord } from './line-format.js';
import type { DataFiles, OpenedDataDir } from './open-data-dir.js';
import type { StoreHealth, StoreOptions } from './types.js';

/** After a failed background compaction, the next waits 1 s, then 2 s, 4 s, ... up to a minute. */
const COMPACTION_RETRY_MS = 1_000;
const COMPACTION_RETRY_MAX_MS = 60_000;

export class JournalWriter {
  private readonly files: DataFiles;
  private readonly durability: 'interval' | 'every-change';
  private readonly fsyncIntervalMs: number;
  private readonly compactAfterBytes: number;
  private readonly onHealthChange: ((health: StoreHealth) => void) | undefined;
  private seq: number;
  /** Bytes of whole lines in the journal, its header included: where the next record starts. */
  private journalBytes: number;
  private snapshotBytes: number;
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

  /** Writes on in the files of `opened`; a compaction writes the snapshot of `documents`, the state in memory. */
  constructor(
    opened: OpenedDataDir,
    private readonly documents: Map<string, Documents>,
    options: StoreOptions,
  ) {
    this.files = opened.files;
    this.seq = opened.seq;
    this.journalBytes = opened.journalBytes;
    this.snapshotBytes = opened.snapshotBytes;
    this.durability = options.durability ?? 'interval';
    this.fsyncIntervalMs = options.fsyncIntervalMs ?? 20;
    this.compactAfterBytes = options.compactAfterBytes ?? 16 * 1024 * 1024;
    this.onHealthChange = options.onHealthChange;
  }

  /** The write failure that lasts, or undefined while writes succeed. */
  get failure(): StoreError | undefined {
    return this.currentFailure;
  }

  /**
   * Files of an earlier version (without checksums, or without a journal header) were read once as they are;
   * a compaction now rewrites them in the current format, so damage is noticed from here on. If the disk is
   * full, that waits for the next compaction.
   */
  upgrade(): void {
    try {
      this.rewrite();
    } catch {}
  }

  /** Writes one journal record of `ops`; throws (and the caller undoes them) if the write fails. */
  append(ops: readonly string[]): void {
    const files = this.files;
    const seq = this.seq + 1;
    const line = journalRecord(seq, ops);
    let written = false;
    try {
      if (this.tailDirty) this.cutTail();
      writeAll(files.journal, line);
      written = true;
      if (this.durability === 'every-change') storeFileSystem.fdatasyncSync(files.journal);
    } catch (error) {
      // Cut off whatever part of the record got written (all of it, when the fsync failed): the change is
      // refused, so the disk must not keep it, and the next record must not follow a torn one.
      this.tailDirty = true;
      try {
        this.cutTail();
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

  private cutTail(): void {
    storeFileSystem.ftruncateSync(this.files.journal, this.journalBytes);
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
    if (!this.unsynced) return Promise.resolve();
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

  /** Resolves once every record so far is fsynced, or rewritten when an fsync failed. */
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
    if (this.compactionTimer !== undefined || this.closed) return;
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

  /** Writes a snapshot and starts an empty journal; a failure is reported and thrown. */
  compact(): void {
    const files = this.files;
    try {
      this.rewrite();
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

  /** Compacts (compaction.ts), then writes on in the new journal. */
  private rewrite(): void {
    const files = this.files;
    const compacted = writeSnapshotAndJournal(files, this.seq, this.documents);
    this.snapshotBytes = compacted.snapshotBytes;
    putJournalInPlace(files, compacted);
    // The new journal is in place: write on in it. The old descriptor is closed once no fsync uses it.
    const old = files.journal;
    files.journal = compacted.journal;
    files.generation++;
    const closeOld = () => closeSync(old);
    if (this.syncing) void this.syncing.then(closeOld);
    else closeOld();
    this.journalBytes = compacted.journalBytes;
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

  /**
   * Stops the background work, fsyncs what is not yet (unless the flush before already failed: `failure`),
   * closes the journal and releases the data dir.
   * @throws the flush's failure, or the fsync's.
   */
  close(failure: unknown): void {
    this.closed = true;
    clearTimeout(this.fsyncTimer);
    this.fsyncTimer = undefined;
    if (this.compactionTimer !== undefined) {
      clearTimeout(this.compactionTimer as NodeJS.Timeout);
      clearImmediate(this.compactionTimer as NodeJS.Immediate);
      this.compactionTimer = undefined;
    }
    const files = this.files;
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
}
