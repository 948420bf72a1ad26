// svc-checkout/testing as a merchant's Playwright project compiles it: @playwright/test installed (and so
// @types/node), no playwright of our own, strict, skipLibCheck off, against the built declarations. The
// helper takes Playwright's objects as shapes of its own, so its declarations name no Playwright module;
// Playwright's Page, Frame and Locator must still fit them. @playwright/test's types are playwright-core's,
// re-exported: a stand-in package here does just that. Run after `npm run build`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot, requireBuild } from './support.js';

let project: string;

before(async () => {
  requireBuild();
  project = await mkdtemp(join(tmpdir(), 'svc-testing-types-'));
  const modules = join(project, 'node_modules');
  await mkdir(join(modules, '@playwright', 'test'), { recursive: true });
  await symlink(repoRoot, join(modules, 'svc-checkout'), 'dir');
  await symlink(join(repoRoot, 'node_modules', 'playwright-core'), join(modules, 'playwright-core'), 'dir');
  await writeFile(
    join(modules, '@playwright', 'test', 'package.json'),
    JSON.stringify({
      name: '@playwright/test',
      types: 'index.d.ts',
      exports: { '.': { types: './index.d.ts' } },
    }),
  );
  await writeFile(join(modules, '@playwright', 'test', 'index.d.ts'), "export * from 'playwright-core';\n");
  const consumer = await readFile(join(repoRoot, 'test', 'types', 'testing-playwright.ts'), 'utf8');
  await writeFile(
    join(project, 'consumer.ts'),
    consumer.replace("from 'playwright-core'", "from '@playwright/test'"),
  );
  await writeFile(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2023', 'DOM', 'ESNext.Disposable'],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        typeRoots: [join(repoRoot, 'node_modules', '@types')],
        types: ['node'],
      },
      files: ['consumer.ts'],
    }),
  );
});

after(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

test('svc-checkout/testing compiles with @playwright/test types, strict and skipLibCheck off', () => {
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false', '--listFiles'], {
    cwd: project,
    encoding: 'utf8',
  });
  const errors = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  assert.deepEqual(errors, [], `tsc failed:\n${errors.join('\n')}`);
  assert.equal(result.status, 0, result.stderr);
  // The helper's types came from the shipped declarations, not the sources.
  assert.match(result.stdout, /dist\/testing\/index\.d\.ts/);
  assert.doesNotMatch(result.stdout, /src\/testing\//);
});
