/**
 * The store's errors and the two ways it makes them: a write that failed (`no_space`, `write_failed`) and
 * damage found on opening (`corrupt`). Each message says what happened to the data and what to do.
 */

import { dirname } from 'node:path';
import { SvcError } from '../../core/errors.js';

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

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/**
 * A failed write as the store's error: `no_space` for a full disk or quota, `write_failed` for the rest.
 * `describe` makes the whole message from the reason and the remedy (`free space on that disk`): it says what
 * happened to the data and what to do.
 */
export function writeFailure(
  error: unknown,
  describe: (reason: string, remedy: string) => string,
): StoreError {
  if (error instanceof StoreError) return error;
  const code = isErrno(error) ? error.code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const reason = code === 'ENOSPC' ? 'no space left on the disk' : 'the disk quota is used up';
    return new StoreError('no_space', describe(`${reason} (${code})`, 'free space on that disk'), {
      cause: error,
    });
  }
  return new StoreError('write_failed', describe(errorMessage(error), 'make that disk writable again'), {
    cause: error,
  });
}

/** Damage found on opening: names the file, the line and the way out, and keeps the data dir's keys safe. */
export function corrupt(path: string, lineNumber: number, problem: string): StoreError {
  const stateDir = dirname(path);
  return new StoreError(
    'corrupt',
    `The sandbox state file ${path} is damaged at line ${lineNumber}: ${problem}. The sandbox did not start ` +
      `and changed nothing. Restore the file from a backup, or move the state folder away to start with an ` +
      `empty state (mv ${stateDir} ${stateDir}.damaged); the keys in ${dirname(stateDir)} stay.`,
  );
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
