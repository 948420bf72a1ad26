/**
 * `<dataDir>/sandbox.lock` holds the owning process id: one process owns a data dir.
 */

import { closeSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError, writeFailure } from './errors.js';
import { readFileIfPresent, writeAll } from './file-system.js';

/** Data dirs this process holds, so a second open in the same process is refused too. */
const heldDataDirs = new Set<string>();

/**
 * Takes `<dataDir>/sandbox.lock` for this process. A lock left by a process that is gone is taken over; a live
 * owner (including this process) is refused.
 */
export function takeLock(dataDir: string): () => void {
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
