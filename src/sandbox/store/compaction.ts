/**
 * Compaction writes the state as a snapshot and a new journal (its header alone) to temporary files, fsyncs
 * them and renames them over the old ones, snapshot first, so the files on disk are a whole state at every
 * moment: the old journal stays valid beside the new snapshot, as loading skips the records it holds. The
 * journal writer decides when (journal-writer.ts); this module writes the files.
 */

import { closeSync, openSync, rmSync } from 'node:fs';
import type { Documents } from './collection.js';
import { storeFileSystem, writeAll } from './file-system.js';
import { journalHeader, snapshotDocument, snapshotEnd, snapshotHeader } from './line-format.js';
import type { DataFiles } from './open-data-dir.js';

const WRITE_CHUNK_CHARS = 1 << 20;

/** The new snapshot, in place, and the new journal, fsynced but still under its temporary name. */
export interface CompactedFiles {
  /** The new journal's descriptor, opened for appending. */
  journal: number;
  journalTemporary: string;
  journalBytes: number;
  snapshotBytes: number;
}

/**
 * Writes the snapshot of `documents` as of record `seq` and a journal continuing from it, fsyncs both, and
 * renames the snapshot into place. On failure, removes what it wrote (which frees the space it took on a full
 * disk) and leaves the old files as they were.
 */
export function writeSnapshotAndJournal(
  files: DataFiles,
  seq: number,
  documents: Map<string, Documents>,
): CompactedFiles {
  const snapshotTemporary = `${files.snapshotPath}.tmp`;
  const journalTemporary = `${files.journalPath}.tmp`;
  let journal: number | undefined;
  let snapshotBytes: number;
  const header = journalHeader(seq);
  try {
    snapshotBytes = writeSnapshot(snapshotTemporary, seq, documents);
    journal = openSync(journalTemporary, 'a');
    writeAll(journal, header);
    storeFileSystem.fsyncSync(journal);
    storeFileSystem.renameSync(snapshotTemporary, files.snapshotPath);
  } catch (error) {
    if (journal !== undefined) closeSync(journal);
    rmSync(snapshotTemporary, { force: true });
    rmSync(journalTemporary, { force: true });
    throw error;
  }
  return { journal, journalTemporary, journalBytes: header.length, snapshotBytes };
}

/** Renames the new journal over the old one; on failure closes and removes it. */
export function putJournalInPlace(files: DataFiles, compacted: CompactedFiles): void {
  try {
    storeFileSystem.renameSync(compacted.journalTemporary, files.journalPath);
  } catch (error) {
    closeSync(compacted.journal);
    rmSync(compacted.journalTemporary, { force: true });
    throw error;
  }
}

/** Writes every document to `path` and fsyncs it; returns its size. */
function writeSnapshot(path: string, seq: number, documents: Map<string, Documents>): number {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    let chunk = snapshotHeader(seq);
    let count = 0;
    const write = () => {
      const data = Buffer.from(chunk, 'utf8');
      writeAll(fd, data);
      bytes += data.length;
      chunk = '';
    };
    for (const [name, byId] of documents) {
      for (const [id, value] of byId) {
        chunk += snapshotDocument(name, id, value);
        count++;
        if (chunk.length >= WRITE_CHUNK_CHARS) write();
      }
    }
    chunk += snapshotEnd(count);
    write();
    storeFileSystem.fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return bytes;
}
