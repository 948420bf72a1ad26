#!/usr/bin/env node
// Runs Node's test runner over the Node tests (core, server, sandbox, testing, bundle sizes, import rules, the packed
// package) with tsx as the TypeScript loader. Node 20's --test takes no globs, so the files are listed here.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

// A test that hangs fails after this long, naming itself, instead of holding CI until its own limit.
const TEST_TIMEOUT_MS = 180_000;
const roots = process.argv.slice(2).length
  ? process.argv.slice(2)
  : ['test/core', 'test/server', 'test/sandbox', 'test/testing', 'test/bundle', 'test/lint', 'test/package'];
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.ts')) files.push(path);
  }
};
for (const root of roots) walk(root);
if (files.length === 0) {
  console.error(`No *.test.ts files under ${roots.join(', ')}`);
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    '--test-concurrency=2',
    `--test-timeout=${TEST_TIMEOUT_MS}`,
    '--test-reporter=spec',
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
