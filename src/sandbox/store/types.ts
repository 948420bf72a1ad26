/** What the store promises its users: the contract `openStore` (../store.ts) returns, and its options. */

import type { StoreError } from './errors.js';

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

/** Options of `openStore`. */
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
