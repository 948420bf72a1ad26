/**
 * Opening a data dir: its lock, then the state in `<dataDir>/state/` loaded from the snapshot and the journal's
 * records after it.
 *
 * A crash while a record was appended leaves at most a torn last line: opening cuts it off and reports it in
 * `Store.warnings`. Any other damage refuses to open (`corrupt`, naming the file, the line and what to do): a
 * line before the last that does not parse or whose checksum does not match, a snapshot that is not whole, a
 * journal emptied or missing, records missing between the snapshot and the journal or within the journal.
 * Starting on a part of the state would lose the rest without a word, and a gateway that forgets payments is
 * worse than one that does not start. (A journal cut exactly at a line boundary past its header cannot be told
 * from a shorter history.)
 */

import { closeSync, ftruncateSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isPlainObject } from '../../core/plain-object.js';
import { type Documents, documentsOf } from './collection.js';
import { corrupt, writeFailure } from './errors.js';
import { fsyncDirectory, readLines, storeFileSystem, type TornLine, writeAll } from './file-system.js';
import {
  isJournalHeader,
  isRecord,
  isSeq,
  JOURNAL_VERSION,
  journalHeader,
  parseLine,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  unseal,
} from './line-format.js';
import { takeLock } from './lock.js';
import { applyPatch, invalidPatch } from './patch.js';
import type { StoreWarning } from './types.js';

/** The state folder's files, open. */
export interface DataFiles {
  stateDir: string;
  snapshotPath: string;
  journalPath: string;
  /** The journal's descriptor, opened for appending; a compaction replaces it. */
  journal: number;
  /** Counts the journals a compaction put in place, so a late fsync result of an old one is ignored. */
  generation: number;
  releaseLock: () => void;
}

/** A data dir opened, its state loaded into the documents given. */
export interface OpenedDataDir {
  files: DataFiles;
  /** The last journal record the state holds. */
  seq: number;
  /** Bytes of whole lines in the journal, its header included: where the next record starts. */
  journalBytes: number;
  /** The snapshot's size; 0 without one. */
  snapshotBytes: number;
  /**
   * The files are of an earlier version (without checksums, or without a journal header): they were read
   * once as they are, and a compaction should rewrite them in the current format.
   */
  outdated: boolean;
}

/** The state as it loads: the documents, and the last journal record applied to them. */
interface Loading {
  documents: Map<string, Documents>;
  seq: number;
}

/** What the snapshot's header says, and its size. */
interface SnapshotInfo {
  seq: number;
  version: number;
  bytes: number;
}

/**
 * Takes the data dir's lock and loads its state into `documents`; a torn last record is cut off and reported
 * in `warnings`.
 * @throws StoreError `locked`, `corrupt`, `no_space` / `write_failed` (see `openStore`).
 */
export function openDataDir(
  dataDir: string,
  documents: Map<string, Documents>,
  warnings: StoreWarning[],
): OpenedDataDir {
  const stateDir = join(dataDir, 'state');
  try {
    mkdirSync(stateDir, { recursive: true });
  } catch (error) {
    throw writeFailure(error, (reason) => `Cannot create the sandbox's state folder ${stateDir}: ${reason}.`);
  }
  const releaseLock = takeLock(dataDir);
  let journal: number | undefined;
  try {
    const snapshotPath = join(stateDir, 'snapshot.jsonl');
    const journalPath = join(stateDir, 'journal.jsonl');
    // Left by a compaction that did not finish: the files they were to replace are whole.
    rmSync(`${snapshotPath}.tmp`, { force: true });
    rmSync(`${journalPath}.tmp`, { force: true });
    const loading: Loading = { documents, seq: 0 };
    const snapshot = loadSnapshot(snapshotPath, loading);
    const replayed = replayJournal(journalPath, snapshotPath, snapshot, loading);
    const files: DataFiles = {
      stateDir,
      snapshotPath,
      journalPath,
      journal: -1,
      generation: 0,
      releaseLock,
    };
    const opened = (journalBytes: number, outdated: boolean): OpenedDataDir => ({
      files,
      seq: loading.seq,
      journalBytes,
      snapshotBytes: snapshot?.bytes ?? 0,
      outdated,
    });
    if (replayed === undefined) {
      const created = createJournal(journalPath, loading.seq);
      files.journal = created.fd;
      return opened(created.bytes, false);
    }
    journal = openSync(journalPath, 'a');
    files.journal = journal;
    if (replayed.torn !== undefined) {
      // Cut off the torn last record, so the next one starts on a line of its own.
      ftruncateSync(files.journal, replayed.validBytes);
      const { line, bytes } = replayed.torn;
      warnings.push({
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
    return opened(
      replayed.validBytes,
      !replayed.sealed || (snapshot !== undefined && snapshot.version !== SNAPSHOT_VERSION),
    );
  } catch (error) {
    if (journal !== undefined) closeSync(journal);
    releaseLock();
    throw error;
  }
}

/** A new journal holding only its header, created under a temporary name and renamed into place. */
function createJournal(journalPath: string, seq: number): { fd: number; bytes: number } {
  const temporary = `${journalPath}.tmp`;
  const header = journalHeader(seq);
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
  return { fd, bytes: header.length };
}

function loadSnapshot(path: string, loading: Loading): SnapshotInfo | undefined {
  let header: { seq: number; version: number } | undefined;
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
      loading.seq = fields.seq;
      return;
    }
    // A document line is an array, the end line an object: the last byte tells which seal to look for.
    const parsed = parseLine(
      line,
      path,
      lineNumber,
      header.version === SNAPSHOT_VERSION ? 'required' : 'none',
      line[line.length - 1] === 0x5d ? 'array' : 'object',
    );
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      typeof parsed[0] === 'string' &&
      typeof parsed[1] === 'string'
    ) {
      const [name, id, value] = parsed as [string, string, unknown];
      documentsOf(loading.documents, name).set(id, value);
      count++;
    } else if (isPlainObject(parsed) && parsed['end'] === count) {
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
  return { ...header!, bytes: read.validBytes };
}

/**
 * Replays the journal's records after the snapshot, checking that none is missing. Returns undefined when
 * there is no journal (and none is needed), else the byte length of its whole lines, whether it is of the
 * current version (a header and checksums), and the torn last record, if any.
 */
function replayJournal(
  path: string,
  snapshotPath: string,
  snapshot: SnapshotInfo | undefined,
  loading: Loading,
): { validBytes: number; sealed: boolean; torn: TornLine | undefined } | undefined {
  const snapshotSeq = snapshot?.seq ?? 0;
  const snapshotName = snapshot ? `the snapshot ${snapshotPath}` : `no snapshot (${snapshotPath} is missing)`;
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
    if (parsed.seq <= loading.seq) return;
    for (const op of parsed.ops) {
      if (!Array.isArray(op) || typeof op[1] !== 'string' || typeof op[2] !== 'string') {
        throw corrupt(path, lineNumber, `a change in it is not [kind, collection, id, ...]`);
      }
      const documents = documentsOf(loading.documents, op[1]);
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
    loading.seq = parsed.seq;
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
