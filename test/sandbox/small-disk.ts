/**
 * A small disk for full-disk tests. Where the machine lets the test mount (root with CAP_SYS_ADMIN, as CI
 * runs), it is a real tmpfs of a few hundred KiB, filled with a file until the kernel answers ENOSPC: every
 * write path of the store meets a real full disk, short writes included. Elsewhere it is a folder on the usual
 * disk, and "full" means that the store's writes (its `storeFileSystem` seam) fail with ENOSPC, as the kernel's
 * would. `SVC_TEST_SIMULATED_DISK=1` forces the second kind, to run both where mounting works.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeFileSystem } from '../../src/sandbox/store.js';

export interface SmallDisk {
  /** A folder on the disk, for data dirs. */
  readonly dir: string;
  /** How the disk is made: a real tmpfs, or a folder whose store writes fail while it is full. */
  readonly kind: 'tmpfs' | 'simulated';
  /** Takes every free byte. */
  fill(): void;
  /** Gives the bytes back. */
  free(): void;
  /** Frees, unmounts and removes the folder. */
  dispose(): void;
}

/** An ENOSPC error as node:fs throws it. */
export function noSpaceError(syscall: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOSPC: no space left on device, ${syscall}`), {
    code: 'ENOSPC',
    errno: -28,
    syscall,
  });
}

export function smallDisk(sizeKiB = 512): SmallDisk {
  const dir = mkdtempSync(join(tmpdir(), 'svc-small-disk-'));
  if (process.env['SVC_TEST_SIMULATED_DISK'] !== '1') {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k`, 'tmpfs', dir], { stdio: 'pipe' });
      return tmpfsDisk(dir);
    } catch {
      // Not allowed here (no root, or a container without CAP_SYS_ADMIN): simulate below.
    }
  }
  return simulatedDisk(dir);
}

function tmpfsDisk(dir: string): SmallDisk {
  const filler = join(dir, 'filler');
  const free = () => rmSync(filler, { force: true });
  return {
    dir,
    kind: 'tmpfs',
    fill() {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(64 * 1024, 0x2e);
      try {
        // Short writes take the last partial chunk; the write after them fails.
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free,
    dispose() {
      free();
      try {
        execFileSync('umount', [dir], { stdio: 'pipe' });
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function simulatedDisk(dir: string): SmallDisk {
  const realWriteSync = storeFileSystem.writeSync;
  const free = () => {
    storeFileSystem.writeSync = realWriteSync;
  };
  return {
    dir,
    kind: 'simulated',
    fill() {
      storeFileSystem.writeSync = (() => {
        throw noSpaceError('write');
      }) as typeof realWriteSync;
    },
    free,
    dispose() {
      free();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
