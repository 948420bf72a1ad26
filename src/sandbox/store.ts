/**
 * The sandbox's state: named collections of JSON documents, held in memory and, when a data dir is given,
 * kept durable in an append-only journal with periodic snapshots. Each part in `store/`, where its doc comment
 * says more:
 * - `types.ts`: the contract (`Store`, `Collection`, options, warnings, health); `errors.ts`: `StoreError`
 *   and its codes, with messages that say what happened to the data and what to do.
 * - `collection.ts`: the documents in memory; `journal-store.ts`: transactions over them, each committed as
 *   one journal record.
 * - `line-format.ts`: the lines of `<dataDir>/state/journal.jsonl` and `snapshot.jsonl`, each ending in a
 *   checksum; `patch.ts`: a changed document journalled as what changed.
 * - `open-data-dir.ts`: opening loads the snapshot and replays the journal, cuts off a torn last record (a
 *   crash) and refuses any other damage (`corrupt`), rather than start on a part of the state; `lock.ts`:
 *   one process owns a data dir.
 * - `journal-writer.ts`: durability (each change reaches the operating system before it is acknowledged,
 *   fsynced in the background or at once) and write failures (a full disk refuses changes and changes
 *   nothing; the store resumes by itself); `compaction.ts`: a snapshot and a new journal replace the old
 *   files whole.
 * - `file-system.ts`: the calls through which the store writes, `storeFileSystem`, a seam for fault tests.
 */

import { JournalStore } from './store/journal-store.js';
import type { Store, StoreOptions } from './store/types.js';

export { isWriteFailure, StoreError, type StoreErrorCode } from './store/errors.js';
export { storeFileSystem } from './store/file-system.js';
export type { Collection, Store, StoreHealth, StoreOptions, StoreWarning } from './store/types.js';

/**
 * Opens the store; with a data dir, loads the snapshot and replays the journal first.
 * @throws StoreError `locked` when another live process (or this one) has the data dir open, `corrupt` when
 *   the files are damaged (the message names the file, the line and what to do), `no_space` /
 *   `write_failed` when the lock file or a new journal cannot be written.
 */
export function openStore(options: StoreOptions = {}): Store {
  return new JournalStore(options);
}
