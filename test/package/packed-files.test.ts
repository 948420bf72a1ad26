// What `npm install svc-checkout` puts on a merchant's disk: the file list of `npm pack --dry-run` against an
// explicit expectation, so that a stray file (an old build's leftover, a module no entry reaches, a map
// pointing at sources that are not shipped) fails here rather than ships. Run after `npm run build`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { before, describe, test } from 'node:test';
import { readPackageJson, repoRoot, requireBuild } from './support.js';

/** The files at the package root, exactly. */
const ROOT_FILES = [
  'LICENSE',
  'README.md',
  'custom-elements.json',
  'package.json',
  'sandbox-config.schema.json',
];

/**
 * What the sandbox serves to browsers (src/sandbox/legacy/widget-pages.ts), as vite.config.ts builds it, exactly:
 * each script with its source map, which carries its sources' text, and served-files.json, which names the
 * file built for each role. `<hash>` stands for the content hash in a name: each pattern matches one file,
 * so a leftover of an older build (another hash) fails too.
 */
const BROWSER_FILES = [
  'svc-checkout.js',
  'svc-checkout-v1-<hash>.js',
  'console-message-<hash>.js',
  'svc-checkout.classic.js',
  'frame/assets/frame-<hash>.js',
  'frame/assets/frame-checkout-<hash>.js',
  'frame/assets/messages-en-<hash>.js',
  'frame/assets/messages-lv-<hash>.js',
  'frame/assets/messages-ru-<hash>.js',
  'frame/assets/delivery-fields-<hash>.js',
  'frame/assets/customer-fields-<hash>.js',
  'frame/assets/challenge-step-<hash>.js',
  'frame/assets/status-screen-<hash>.js',
  'frame/assets/checkout-challenge-step-<hash>.js',
  'frame/assets/checkout-status-screen-<hash>.js',
  'frame/assets/appearance-messages-<hash>.js',
  'frame/assets/checkout-appearance-messages-<hash>.js',
  // The appearance checks, loaded with a page's first design token; the form's styles (and the tokens they
  // read), for a frame page without its first view's.
  'frame/assets/appearance-<hash>.js',
  'frame/assets/checkout-appearance-<hash>.js',
  'frame/assets/frame-styles-<hash>.js',
  'frame/assets/checkout-frame-styles-<hash>.js',
  'frame/assets/tokens-<hash>.js',
  'frame/assets/design-tokens-<hash>.js',
  'checkout/checkout-card-<hash>.js',
]
  .flatMap((file) => [`dist/browser/${file}`, `dist/browser/${file}.map`])
  // The sandbox's renderer of the frame's first view (Node, never served), built without a map.
  .concat('dist/browser/served-files.json', 'dist/browser/server/first-view.js')
  .map(
    (file) =>
      new RegExp(
        `^${file
          .split('<hash>')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[A-Za-z0-9_-]{8}')}$`,
      ),
  );

/**
 * The npm modules, as tsc emits them from the package's entries (tsconfig.build.json): each a `.js` with its
 * `.d.ts`, no maps (they would point at src/, which is not shipped), and no frame (Vite bundles it).
 */
const MODULE_FILE =
  /^dist\/(?:(?:core|element|server|sandbox|testing)\/(?:[\w-]+\/)*)?[\w-]+(?:\.[\w-]+)*\.(?:js|d\.ts)$/;

interface PackResult {
  files: Array<{ path: string; size: number }>;
  entryCount: number;
  unpackedSize: number;
}

let packed: string[];

function read(file: string): string {
  return readFileSync(`${repoRoot}/${file}`, 'utf8');
}

/** The relative specifiers a module imports or re-exports (tsc's output: no comments to mislead the pattern). */
function relativeImports(file: string): string[] {
  const text = read(file);
  const found = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)];
  return found.map(([, specifier]) => posix.join(posix.dirname(file), specifier!));
}

/** Every module (path without extension) the package's entries and bin reach, by imports of code or types. */
function reachableModules(): Set<string> {
  const manifest = readPackageJson();
  const targets = [
    manifest.main,
    manifest.types,
    ...Object.values(manifest.exports).flatMap((target) =>
      typeof target === 'string' ? [target] : Object.values(target),
    ),
    ...Object.values(manifest.bin),
  ]
    .map((target) => posix.normalize(target))
    .filter((target) => target.startsWith('dist/'));
  const reached = new Set<string>();
  const pending = targets.map((target) => target.replace(/\.(?:d\.ts|js)$/, ''));
  while (pending.length > 0) {
    const module = pending.pop()!;
    if (reached.has(module)) continue;
    reached.add(module);
    for (const file of [`${module}.js`, `${module}.d.ts`]) {
      if (!packed.includes(file)) continue;
      for (const target of relativeImports(file)) pending.push(target.replace(/\.(?:d\.ts|js)$/, ''));
    }
  }
  return reached;
}

describe('the packed package (npm pack --dry-run)', () => {
  before(() => {
    requireBuild();
    // --ignore-scripts: `prepack` would build again; this checks the build that is there.
    const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [result] = JSON.parse(output) as PackResult[];
    packed = result!.files.map((file) => file.path).sort();
  });

  test('holds the root files, the browser files and tsc modules, and nothing else', () => {
    const stray = packed.filter(
      (file) =>
        !ROOT_FILES.includes(file) &&
        !BROWSER_FILES.some((pattern) => pattern.test(file)) &&
        !MODULE_FILE.test(file),
    );
    assert.deepEqual(
      stray,
      [],
      'files outside the expected list; ship what is used, or add it here with why',
    );
    const missing = [
      ...ROOT_FILES.filter((file) => !packed.includes(file)),
      ...BROWSER_FILES.filter((pattern) => packed.filter((file) => pattern.test(file)).length !== 1).map(
        String,
      ),
    ];
    assert.deepEqual(missing, [], 'expected files not packed once each (run `npm run build`)');
  });

  test('its modules are those the entries and the bin reach, each as .js and .d.ts', () => {
    const reached = reachableModules();
    const modules = packed.filter((file) => MODULE_FILE.test(file));
    const unreached = modules.filter((file) => !reached.has(file.replace(/\.(?:d\.ts|js)$/, '')));
    assert.deepEqual(
      unreached,
      [],
      'modules no entry reaches: a leftover of an old build? (`npm run build` cleans)',
    );
    const twinless = modules.filter((file) => {
      const module = file.replace(/\.(?:d\.ts|js)$/, '');
      return !packed.includes(`${module}.js`) || !packed.includes(`${module}.d.ts`);
    });
    assert.deepEqual(twinless, []);
  });

  test('its source maps carry the text of every source they name', () => {
    for (const file of packed.filter((name) => name.endsWith('.map'))) {
      const map = JSON.parse(read(file)) as { sources: string[]; sourcesContent?: Array<string | null> };
      const without = map.sources.filter((_, index) => typeof map.sourcesContent?.[index] !== 'string');
      assert.deepEqual(without, [], `${file} names sources it does not carry, and src/ is not shipped`);
    }
  });

  test('every file package.json and custom-elements.json name is packed', () => {
    const manifest = readPackageJson();
    const named = [
      manifest.main,
      manifest.types,
      manifest.customElements,
      ...Object.values(manifest.exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      ),
      ...Object.values(manifest.bin),
      ...manifest.sideEffects,
      ...Object.values(manifest.typesVersions).flatMap((paths) => Object.values(paths).flat()),
    ];
    const elements = JSON.parse(read('custom-elements.json')) as {
      modules: Array<{ path: string; exports?: Array<{ declaration: { module?: string } }> }>;
    };
    for (const module of elements.modules) {
      named.push(module.path);
      for (const exported of module.exports ?? []) {
        if (exported.declaration.module) named.push(exported.declaration.module);
      }
    }
    const absent = [...new Set(named.map((file) => posix.normalize(file)))].filter(
      (file) => !packed.includes(file),
    );
    assert.deepEqual(absent, []);
  });

  test("the README's relative links lead to packed files", () => {
    const markdown = read('README.md').replace(/^ *```[\s\S]*?^ *```/gm, '');
    const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#'))
      .map((target) => posix.normalize(target.split('#')[0]!));
    assert.deepEqual(
      targets.filter((target) => !packed.includes(target)),
      [],
      'npm shows the README without the repository: link to a packed file or a full URL',
    );
  });

  test('carries no schema validator: the sandbox config check is generated code, ajv a devDependency', () => {
    const { dependencies } = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
    assert.ok(!('ajv' in dependencies), 'ajv is needed only to generate src/sandbox/generated/');
    const importing = packed.filter(
      (file) =>
        MODULE_FILE.test(file) &&
        /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\(\s*)['"]ajv(?:\/|['"])/.test(read(file)),
    );
    assert.deepEqual(importing, [], 'modules that import ajv, which a merchant install does not have');
  });

  test('installing it runs no script, and npm asks the merchant to review none', () => {
    // npm runs preinstall, install and postinstall of a package it installs. npm 11 also lists `prepare`
    // among the install scripts a merchant must review and approve, and approving it would run a build that
    // cannot work in node_modules (no sources are packed): the build runs before packing (`prepack`) instead.
    const { scripts } = readPackageJson();
    const installScripts = ['preinstall', 'install', 'postinstall', 'prepare'].filter(
      (name) => name in scripts,
    );
    assert.deepEqual(installScripts, []);
    assert.equal(scripts['prepack'], 'npm run build');
  });
});
