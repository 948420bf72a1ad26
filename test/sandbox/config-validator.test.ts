// The config validator is ajv's standalone code for sandbox-config.schema.json, committed in
// src/sandbox/generated/ so that ajv is needed only to develop (a devDependency), not at run time. These
// tests regenerate it and require identical bytes, so the committed code always matches the schema and the
// ajv version in the lock file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const GENERATED = 'src/sandbox/generated/config-validator.ts';

describe('the generated config validator', () => {
  test('is what scripts/generate-config-validator.mjs makes from the schema now', () => {
    const regenerated = execFileSync(process.execPath, ['scripts/generate-config-validator.mjs', '--print'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.ok(
      regenerated === readFileSync(`${root}${GENERATED}`, 'utf8'),
      `${GENERATED} is out of date: run npm run generate:config-validator and commit it`,
    );
  });

  test('carries the schema it was made from', () => {
    const schema = readFileSync(`${root}sandbox-config.schema.json`, 'utf8');
    const generated = readFileSync(`${root}${GENERATED}`, 'utf8');
    const embedded = /^const schema\d+ = (\{"\$schema".*\});$/m.exec(generated)?.[1];
    assert.ok(embedded, 'the root schema is not embedded');
    assert.deepEqual(JSON.parse(embedded), JSON.parse(schema));
  });

  test('imports nothing: no ajv runtime helper, no package at all', () => {
    const generated = readFileSync(`${root}${GENERATED}`, 'utf8');
    assert.doesNotMatch(generated, /\brequire\(|^\s*import\b|\bfrom\s*['"]/m);
  });
});
