/**
 * The file-system calls the store makes: the seam through which it writes (replaced by fault tests), whole
 * writes, directory fsyncs, and reading a file line by line.
 */

import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';

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

const READ_CHUNK_BYTES = 1 << 20;

/**
 * Writes all of `data` at the end of the file. A short write (the disk filled up part way) goes on with the
 * rest, which either fits or fails with the real reason (ENOSPC).
 */
export function writeAll(fd: number, data: Buffer): void {
  let offset = 0;
  while (offset < data.length) {
    const written = storeFileSystem.writeSync(fd, data, offset, data.length - offset);
    if (written <= 0) throw new Error(`the file took ${offset} of ${data.length} bytes`);
    offset += written;
  }
}

export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    storeFileSystem.fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export function readFileIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A torn last line: bytes after the last newline, left by a crash while they were written. */
export interface TornLine {
  /** The line it starts on (1-based). */
  line: number;
  bytes: number;
}

/**
 * Reads a file line by line in chunks, so its size is not bounded by the longest string. Returns undefined
 * when there is no file, else how many whole lines were read, their bytes, and the torn last line (bytes
 * after the last newline), if any.
 */
export function readLines(
  path: string,
  onLine: (line: Buffer, lineNumber: number) => void,
): { lines: number; validBytes: number; torn: TornLine | undefined } | undefined {
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
