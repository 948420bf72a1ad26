/** Shared by the package tests: the repository root, its package.json, and the check that dist is built. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The parts of package.json these tests read. */
export interface PackageJson {
  name: string;
  main: string;
  types: string;
  exports: Record<string, string | Record<string, string>>;
  typesVersions: Record<string, Record<string, string[]>>;
  bin: Record<string, string>;
  sideEffects: string[];
  customElements: string;
  scripts: Record<string, string>;
}

export function readPackageJson(): PackageJson {
  return JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as PackageJson;
}

/** The newest source file and its time: dist/ older than it is a build of other sources. */
function newestSource(dir = join(repoRoot, 'src')): { file: string; time: number } {
  let newest = { file: '', time: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newestSource(path) : { file: path, time: statSync(path).mtimeMs };
    if (found.time > newest.time) newest = found;
  }
  return newest;
}

/**
 * @throws Error naming the command to run when dist/ (tsc and Vite) is not built, or was built before a
 *   source changed (tsc writes every file of dist/ on each build).
 */
export function requireBuild(): void {
  const missing = ['dist/index.js', 'dist/server/index.d.ts', 'dist/browser/svc-checkout.js'].filter(
    (file) => !existsSync(join(repoRoot, file)),
  );
  if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run \`npm run build\` first`);
  const built = statSync(join(repoRoot, 'dist', 'index.js')).mtimeMs;
  const newest = newestSource();
  if (newest.time > built) {
    throw new Error(`dist/ is older than ${relative(repoRoot, newest.file)}: run \`npm run build\` first`);
  }
}
