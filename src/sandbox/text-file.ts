/**
 * Reading the small text files the sandbox is pointed at (its config, PEM files, keys in the data dir) within
 * a size limit. A path may name anything: `/dev/zero`, a FIFO, a 4 GB log. `readFileSync` reads until the end
 * of the file, which a device never reaches, so memory grows until the process dies; these readers take at
 * most the limit plus one byte from a file descriptor, which works the same for devices, pipes and FIFOs.
 */
import { closeSync, fchmodSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { SvcError } from '../core/errors.js';

/** The largest config file read: 1 MiB, some thousand times a config with a few merchants. */
export const MAX_CONFIG_FILE_BYTES = 1024 * 1024;
/** The largest PEM file read: 64 KiB, room for a chain of certificates with 8192-bit keys. */
export const MAX_PEM_FILE_BYTES = 64 * 1024;

/** A file larger than the limit its reader allows. */
export class FileTooLargeError extends SvcError<'file_too_large'> {
  constructor(
    readonly file: string,
    readonly limitBytes: number,
  ) {
    super('file_too_large', `${file} is larger than ${byteSize(limitBytes)}, the most read from such a file`);
  }
}

/** `1 MiB`, `64 KiB` or `100 bytes`, as the limits are written in the documentation. */
export function byteSize(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Reads a UTF-8 text file of at most `limitBytes` bytes, without a leading byte order mark (editors on
 * Windows write one; JSON.parse refuses it).
 * @throws FileTooLargeError when the file holds more than `limitBytes` bytes.
 * @throws the file system's error (ENOENT, EACCES, EISDIR, ...) when it cannot be opened or read.
 */
export function readTextFile(file: string, limitBytes: number): string {
  const fd = openSync(file, 'r');
  try {
    // One byte more than allowed tells "exactly the limit" from "larger" without reading further.
    const buffer = Buffer.allocUnsafe(limitBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > limitBytes) throw new FileTooLargeError(file, limitBytes);
    const text = buffer.toString('utf8', 0, length);
    return text.startsWith('\uFEFF') ? text.slice(1) : text;
  } finally {
    closeSync(fd);
  }
}

/** {@link readTextFile}, or undefined when there is no such file. */
export function readTextFileIfPresent(file: string, limitBytes: number): string | undefined {
  try {
    return readTextFile(file, limitBytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes a file whole or not at all: beside the target, flushed to the disk, then renamed over it. A crash
 * leaves the old file or the new one, never an empty or half-written one in its place.
 */
export function writeTextFileAtomic(file: string, text: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  // Created anew ('wx'), so that nothing left at that name, such as a symbolic link, is written through.
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode); // the mode asked for, whatever the umask
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    // A full disk: no half-written file is left beside the key either.
    rmSync(temporary, { force: true });
    throw error;
  }
}
