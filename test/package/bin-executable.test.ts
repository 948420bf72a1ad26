import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { readPackageJson, repoRoot, requireBuild } from './support.js';

const SCRIPT = join(repoRoot, 'scripts', 'make-bins-executable.mjs');

describe('the bin is executable', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bin-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("the build's last step gives each bin file its run bits, as a fresh tsc output lacks them", async () => {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ bin: { tool: './cli.js' } }));
    writeFileSync(join(dir, 'cli.js'), '#!/usr/bin/env node\n');
    chmodSync(join(dir, 'cli.js'), 0o644);
    await promisify(execFile)(process.execPath, [SCRIPT, dir]);
    assert.equal(statSync(join(dir, 'cli.js')).mode & 0o777, 0o755);
    assert.match(readPackageJson().scripts['build'] ?? '', /&& node scripts\/make-bins-executable\.mjs$/);
  });

  test('after `npm run build`, every file of package.json bin may be run', () => {
    requireBuild();
    for (const file of Object.values(readPackageJson().bin)) {
      assert.equal(statSync(join(repoRoot, file)).mode & 0o111, 0o111, `${file} lacks its run bits`);
    }
  });
});
