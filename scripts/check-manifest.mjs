#!/usr/bin/env node
// Checks that the committed custom-elements.json is what `npm run analyze` would write now.
//
// The analyzer runs in this process with the exact arguments of package.json's "analyze" script, and its
// manifest is compared with the committed file. It is not run with `--outdir <temp dir>`: in analyzer 0.11
// that option is joined onto the working directory (an absolute temp path lands inside the project) and,
// worse, the analyzer then rewrites package.json's "customElements" field to point into the temp dir.
// The analyzer's `cli({ noWrite: true })` builds the same manifest without writing anything; it still sets
// "customElements" in package.json when missing or different, exactly as `npm run analyze` does.
//
// Usage: node scripts/check-manifest.mjs   (exit 1 when the manifest is missing or out of date)
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '@custom-elements-manifest/analyzer/cli.js';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
const OUT_OF_DATE = 'custom-elements.json is out of date: run npm run analyze and commit it';

/** Splits a shell command into words, honouring single and double quotes (enough for a package script). */
function shellWords(command) {
  const words = [];
  for (const match of command.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g)) {
    words.push(match[1] ?? match[2]?.replace(/\\(.)/g, '$1') ?? match[3]);
  }
  return words;
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const script = packageJson.scripts?.analyze ?? '';
const words = shellWords(script);
if (words[0] !== 'cem' || words[1] !== 'analyze' || /[;&|<>$`]/.test(script)) {
  fail(
    `package.json's "analyze" script must be a plain \`cem analyze ...\` command for this check to rerun it; it is ${JSON.stringify(script)}`,
  );
}
const outdirIndex = words.indexOf('--outdir');
const outdir = outdirIndex >= 0 ? (words[outdirIndex + 1] ?? '') : '';
const manifestPath = join(root, outdir, 'custom-elements.json');

const generated = await cli({ argv: [...words.slice(1), '--quiet'], cwd: root, noWrite: true });

let committedText;
try {
  committedText = readFileSync(manifestPath, 'utf8');
} catch {
  fail(`custom-elements.json is missing: run npm run analyze and commit it`);
}
let committed;
try {
  committed = JSON.parse(committedText);
} catch {
  fail(`${OUT_OF_DATE} (the committed file is not JSON)`);
}

if (JSON.stringify(committed) !== JSON.stringify(generated)) {
  const byPath = (manifest) =>
    new Map((manifest?.modules ?? []).map((module) => [module.path, JSON.stringify(module)]));
  const before = byPath(committed);
  const after = byPath(generated);
  for (const [path, text] of after) {
    if (!before.has(path)) console.error(`  new module: ${path}`);
    else if (before.get(path) !== text) console.error(`  changed module: ${path}`);
  }
  for (const path of before.keys()) if (!after.has(path)) console.error(`  removed module: ${path}`);
  fail(OUT_OF_DATE);
}
const count = generated.modules?.length ?? 0;
console.log(`custom-elements.json is up to date (${count} module${count === 1 ? '' : 's'})`);
