/**
 * The store's implementation: collections in memory and the transactions that change them, committed through
 * the journal writer when there is a data dir.
 */

import { resolve } from 'node:path';
import { type ChangeRecorder, type Documents, documentsOf, StoreCollection } from './collection.js';
import { StoreError } from './errors.js';
import { JournalWriter } from './journal-writer.js';
import { openDataDir } from './open-data-dir.js';
import type { Collection, Store, StoreOptions, StoreWarning } from './types.js';

/** One change of the running transaction: its journal text and how to undo it in memory. */
interface PendingChange {
  text: string;
  undo: () => void;
}

export class JournalStore implements Store, ChangeRecorder {
  readonly dataDir: string | undefined;
  readonly warnings: StoreWarning[] = [];
  private readonly documents = new Map<string, Documents>();
  private readonly collections = new Map<string, Collection<unknown>>();
  /** Undefined for a store in memory only. */
  private readonly journal: JournalWriter | undefined;
  private pending: PendingChange[] | undefined;
  private committed: Array<() => void> = [];
  private closed = false;

  constructor(options: StoreOptions) {
    this.dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
    if (this.dataDir !== undefined) {
      const opened = openDataDir(this.dataDir, this.documents, this.warnings);
      this.journal = new JournalWriter(opened, this.documents, options);
      if (opened.outdated) this.journal.upgrade();
    }
  }

  get failure(): StoreError | undefined {
    return this.journal?.failure;
  }

  collection<T>(name: string): Collection<T> {
    let collection = this.collections.get(name);
    if (!collection) {
      collection = new StoreCollection<unknown>(this, name, documentsOf(this.documents, name));
      this.collections.set(name, collection);
    }
    return collection as Collection<T>;
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
    if (changes.length === 0 || !this.journal) return;
    this.journal.append(changes.map((change) => change.text));
  }

  compact(): void {
    this.assertOpen();
    if (!this.journal) return;
    if (this.pending) {
      this.afterCommit(() => this.compact());
      return;
    }
    this.journal.compact();
  }

  async flush(): Promise<void> {
    await this.journal?.flush();
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
    this.journal?.close(failure);
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError('closed', 'The store is closed');
  }
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
