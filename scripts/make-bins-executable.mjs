#!/usr/bin/env node
// Gives every file of package.json's `bin` its run bit. tsc writes its output with the default mode (0644 under
// the usual umask), and the build empties dist/ first, so without this step `npx svc-sandbox` in the
// repository fails with "Permission denied". npm sets the bit on install, but not for the package's own folder.
//
// Usage: node scripts/make-bins-executable.mjs [package folder]   (default: the working directory)
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? '.');
const { bin } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const files = typeof bin === 'string' ? [bin] : Object.values(bin ?? {});
for (const file of files) {
  const path = join(root, file);
  // Run bits for whoever may read it: 0644 becomes 0755, 0600 becomes 0700.
  const mode = statSync(path).mode & 0o777;
  chmodSync(path, mode | ((mode & 0o444) >> 2));
}
