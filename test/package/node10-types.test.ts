// A TypeScript project on `moduleResolution: node10` (TypeScript 5 and older, `"moduleResolution": "node"`)
// reads no `exports`: it finds `svc-checkout/server`, `/sandbox`, `/react`, `/preact` and `/testing` through package.json
// `typesVersions`. Compiled here as such a merchant's project would, against the built dist/ through a
// node_modules link, with the TypeScript 5 the manifest analyzer brings (TypeScript 7, ours, has no node10).
// Run after `npm run build`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { repoRoot, requireBuild } from './support.js';

const CONSUMER = `
import type { OrderJson, PaymentCompletedDetail, SvcCheckout } from 'svc-checkout';
import type { OrderInput, signOrder } from 'svc-checkout/server';
import type { SandboxOptions, startSandbox } from 'svc-checkout/sandbox';
import type { SvcCheckoutProps } from 'svc-checkout/react';
import type { SvcCheckoutProps as PreactProps } from 'svc-checkout/preact';
import type { CheckoutOutcome } from 'svc-checkout/testing';

export const order: OrderJson = { items: [{ amount: '9.99', label: 'Tea' }] };
export const input: OrderInput = { ...order, widgetId: 'de300000-0000-4000-8000-000000000002' };
export type Sign = typeof signOrder;
export type Start = (options: SandboxOptions) => ReturnType<typeof startSandbox>;
export const props: SvcCheckoutProps = { 'widget-id': input.widgetId, onpaymentCompleted: (event) => event.detail.orderId };
export const preactProps: PreactProps = { 'widget-id': input.widgetId, oncheckoutError: (event) => event.detail.code };
export const outcome: CheckoutOutcome = { outcome: 'threeDSecureDenied', orderId: 'o', merchantOrderId: null };
export function succeeded(detail: PaymentCompletedDetail, element: SvcCheckout): boolean {
  return detail.paymentSucceeded && element.state === 'paid';
}
`;

let project: string;

/** The TypeScript 5 that @custom-elements-manifest/analyzer depends on; node10 resolution needs one below 7. */
async function typescript5(): Promise<string> {
  const fromAnalyzer = createRequire(
    createRequire(import.meta.url).resolve('@custom-elements-manifest/analyzer'),
  );
  const manifestPath = fromAnalyzer.resolve('typescript/package.json');
  const { version } = JSON.parse(await readFile(manifestPath, 'utf8')) as { version: string };
  assert.match(
    version,
    /^5\./,
    `this test needs TypeScript 5 for node10 resolution; the analyzer brings ${version}`,
  );
  return join(dirname(manifestPath), 'bin', 'tsc');
}

before(async () => {
  requireBuild();
  project = await mkdtemp(join(tmpdir(), 'svc-node10-'));
  await mkdir(join(project, 'node_modules'));
  // As `npm install` would place it; TypeScript follows the link to the package's own node_modules (lit, react,
  // preact).
  await symlink(repoRoot, join(project, 'node_modules', 'svc-checkout'), 'dir');
  await writeFile(join(project, 'consumer.ts'), CONSUMER);
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'commonjs',
        moduleResolution: 'node10',
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        strict: true,
        noEmit: true,
        // The point here is resolution, and TypeScript 5 still parses every declaration file it reaches.
        // test/e2e/readme-examples.test.ts checks our declarations with skipLibCheck off; checking
        // @types/node and @types/react again here would make this test 4 times as long.
        skipLibCheck: true,
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

test('a moduleResolution node10 project resolves every entry to its declarations in dist', async () => {
  const tsc = await typescript5();
  const result = spawnSync(process.execPath, [tsc, '-p', project, '--pretty', 'false', '--traceResolution'], {
    cwd: project,
    encoding: 'utf8',
  });
  const errors = result.stdout.split('\n').filter((line) => /error TS\d+/.test(line));
  assert.deepEqual(errors, [], `tsc (node10) failed:\n${errors.join('\n')}`);
  assert.equal(result.status, 0, result.stderr);
  // Where each entry resolved: dist's declarations, never the sources (which are not shipped).
  for (const [entry, file] of [
    ['svc-checkout', 'dist/index.d.ts'],
    ['svc-checkout/server', 'dist/server/index.d.ts'],
    ['svc-checkout/sandbox', 'dist/sandbox/index.d.ts'],
    ['svc-checkout/react', 'dist/react.d.ts'],
    ['svc-checkout/preact', 'dist/preact.d.ts'],
    ['svc-checkout/testing', 'dist/testing/index.d.ts'],
  ] as const) {
    const resolved = new RegExp(`Module name '${entry}' was successfully resolved to '[^']*/${file}'`);
    assert.match(result.stdout, resolved, `${entry} should resolve to ${file}`);
  }
});
