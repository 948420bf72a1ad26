// Every import rule of ARCHITECTURE.md ("Parts") still bites: each test writes files that break one rule
// into a copy of src beside the project's own biome.json and .dependency-cruiser.mjs, runs the tool that
// holds the rule, and expects it to name each offending import, and none of the allowed ones beside them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
let copy = '';

before(() => {
  copy = mkdtempSync(join(tmpdir(), 'svc-import-rules-'));
  for (const name of ['src', 'biome.json', '.dependency-cruiser.mjs', 'package.json'])
    cpSync(join(root, name), join(copy, name), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
});

after(() => rmSync(copy, { recursive: true, force: true }));

/** Writes files into the copy (path relative to it, lines joined); the function returned undoes that. */
function write(files: Record<string, string[]>): () => void {
  const previous = new Map<string, string | undefined>();
  for (const [path, lines] of Object.entries(files)) {
    const file = join(copy, path);
    previous.set(file, existsSync(file) ? readFileSync(file, 'utf8') : undefined);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${lines.join('\n')}\n`);
  }
  return () => {
    for (const [file, text] of previous) {
      if (text === undefined) rmSync(file);
      else writeFileSync(file, text);
    }
  };
}

/** The lines of `file` that Biome's noRestrictedImports reports, with the message of each. */
function biomeReports(file: string): Map<number, string> {
  const run = spawnSync(
    join(root, 'node_modules/.bin/biome'),
    ['lint', '--vcs-enabled=false', '--only=style/noRestrictedImports', '--reporter=github', file],
    { cwd: copy, encoding: 'utf8' },
  );
  const reports = new Map<number, string>();
  for (const match of run.stdout.matchAll(
    /^::error title=lint\/style\/noRestrictedImports,.*?line=(\d+),.*?::(.*)$/gm,
  ))
    reports.set(Number(match[1]), match[2] ?? '');
  assert.equal(run.status === 0, reports.size === 0, `biome exit ${run.status}: ${run.stdout}${run.stderr}`);
  return reports;
}

/** Lines (1-based) of the written file whose text contains a marker comment. */
const linesMarked = (lines: string[], marker: string) =>
  lines.flatMap((line, index) => (line.includes(marker) ? [index + 1] : []));

/** Checks a file whose lines marked `// refused` Biome must report, and whose other imports it must let be. */
function expectBiome(path: string, lines: string[], message: RegExp) {
  const remove = write({ [path]: lines });
  try {
    const reports = biomeReports(path);
    assert.deepEqual(
      [...reports.keys()].sort((a, b) => a - b),
      linesMarked(lines, '// refused'),
    );
    for (const [line, text] of reports) assert.match(text, message, `line ${line}`);
  } finally {
    remove();
  }
}

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

/** What dependency-cruiser reports for the given files of the copy, as `rule: from -> to`. */
function cruise(...paths: string[]): string[] {
  const run = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'),
      '--config',
      '.dependency-cruiser.mjs',
      '--output-type',
      'json',
      ...paths,
    ],
    { cwd: copy, encoding: 'utf8' },
  );
  assert.ok(run.stdout.startsWith('{'), `dependency-cruiser exit ${run.status}: ${run.stderr}`);
  const result = JSON.parse(run.stdout) as { summary: { violations: Violation[] } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

const CODE = ['export const unused = 0;'];

/** What dependency-cruiser reports of the imports these files make themselves (not of the files they reach). */
const cruiseFrom = (...paths: string[]) =>
  cruise(...paths).filter((line) => paths.includes(line.split(': ')[1]?.split(' -> ')[0] ?? ''));

test('core imports no package, no Node built-in and no other part, type-only and dynamic imports included', () => {
  expectBiome(
    'src/core/zz-violation.ts',
    [
      "import { html } from 'lit'; // refused",
      "import type { Server } from 'node:http'; // refused",
      "import { createHash } from 'crypto'; // refused",
      "import { KJUR } from 'jsrsasign'; // refused",
      "export { define } from '../element/define.js'; // refused",
      "export type { WidgetConfig } from '../frame/widget-api-types.js'; // refused",
      "const server = await import('../server/index.js'); // refused",
      "import '../sandbox/index.js'; // refused",
      "import { parseMoney } from './money.js';",
      "import type { Messages } from './messages/en.js';",
      ...CODE,
    ],
    /^core /,
  );
});

test('element imports only element, core and lit packages', () => {
  expectBiome(
    'src/element/zz-violation.ts',
    [
      "import { randomUUID } from 'node:crypto'; // refused",
      "import { KJUR } from 'jsrsasign'; // refused",
      "import Ajv from 'ajv'; // refused",
      "import { PaymentFrame } from '../frame/payment-frame.js'; // refused",
      "import type { ServerOptions } from '../server/index.js'; // refused",
      "export * from '../sandbox/index.js'; // refused",
      "import '../server'; // refused",
      "import { html } from 'lit';",
      "import { customElement } from 'lit/decorators.js';",
      "import { css } from '@lit/reactive-element';",
      "import { parseMoney } from '../core/money.js';",
      "import { define } from './define.js';",
      ...CODE,
    ],
    /^element /,
  );
});

test('frame imports only frame, core and lit packages', () => {
  expectBiome(
    'src/frame/zz-violation.ts',
    [
      "import { readFile } from 'node:fs/promises'; // refused",
      "import { KJUR } from 'jsrsasign'; // refused",
      "import { define } from '../element/define.js'; // refused",
      "import type { ServerOptions } from '../server/index.js'; // refused",
      "import { createSandbox } from '../sandbox/index.js'; // refused",
      "import { html } from 'lit';",
      "import { parseMoney } from '../core/money.js';",
      "import './main.js';",
      ...CODE,
    ],
    /^frame /,
  );
});

test('server imports no element, frame or sandbox code; packages and Node are its own to use', () => {
  expectBiome(
    'src/server/zz-violation.ts',
    [
      "import { define } from '../element/define.js'; // refused",
      "import type { WidgetConfig } from '../frame/widget-api-types.js'; // refused",
      "import { createSandbox } from '../sandbox/index.js'; // refused",
      "import { createHash } from 'node:crypto';",
      "import { KJUR } from 'jsrsasign';",
      "import { parseMoney } from '../core/money.js';",
      ...CODE,
    ],
    /^server /,
  );
});

test('sandbox imports no element or frame code; it may use server, core, packages and Node', () => {
  expectBiome(
    'src/sandbox/v1/zz-violation.ts',
    [
      "import { define } from '../../element/define.js'; // refused",
      "import '../../frame/main.js'; // refused",
      "import { createHash } from 'node:crypto';",
      "import Ajv from 'ajv';",
      "import * as server from '../../server/index.js';",
      "import { parseMoney } from '../../core/money.js';",
      ...CODE,
    ],
    /^sandbox /,
  );
});

test('testing imports only testing and core: no package, no Node built-in, no other part', () => {
  expectBiome(
    'src/testing/zz-violation.ts',
    [
      "import type { Page } from 'playwright-core'; // refused",
      "import { readFile } from 'node:fs/promises'; // refused",
      "import { define } from '../element/define.js'; // refused",
      "import '../frame/main.js'; // refused",
      "import { signOrder } from '../server/index.js'; // refused",
      "import { startSandbox } from '../sandbox/index.js'; // refused",
      "import { FRAME_MESSAGES } from '../core/i18n.js';",
      "import { payInCheckout } from './pay-in-checkout.js';",
      ...CODE,
    ],
    /^testing /,
  );
  // And no other part imports testing.
  expectBiome(
    'src/server/zz-violation.ts',
    ["import { payInCheckout } from '../testing/index.js'; // refused", ...CODE],
    /^server /,
  );
});

test('testing reaches files of testing and core only', () => {
  const remove = write({
    'src/shared/util.ts': CODE,
    'src/testing/zz-violation.ts': [
      "import '../shared/util.js';",
      "import '../element/define.js';",
      "import '../core/i18n.js';",
      "import './index.js';",
      ...CODE,
    ],
  });
  try {
    assert.deepEqual(cruise('src/testing/zz-violation.ts'), [
      'testing-imports-only-testing-and-core: src/testing/zz-violation.ts -> src/element/define.ts',
      'testing-imports-only-testing-and-core: src/testing/zz-violation.ts -> src/shared/util.ts',
    ]);
  } finally {
    remove();
  }
});

test('the browser entry exports element and core only, and of packages only lit', () => {
  expectBiome(
    'src/index.ts',
    [
      "export * from './frame/main.js'; // refused",
      "export * from './server/index.js'; // refused",
      "export { createSandbox } from './sandbox/index.js'; // refused",
      "import { createHash } from 'node:crypto'; // refused",
      "export { KJUR } from 'jsrsasign'; // refused",
      "export { html } from 'lit';",
      "export * from './element/define.js';",
      "export * from './core/index.js';",
    ],
    /^element and the browser entry /,
  );
});

test('a part imports files of the parts only: not src/index.ts, src/react.ts, another folder or outside src', () => {
  const entry = readFileSync(join(root, 'src/index.ts'), 'utf8').trimEnd().split('\n');
  const remove = write({
    'src/index.ts': [...entry, "import type {} from './react.js';"],
    'src/shared/util.ts': CODE,
    'tools/helper.ts': CODE,
    'src/element/zz-violation.ts': [
      "import '../index.js';",
      "import type {} from '../react.js';",
      "import '../shared/util.js';",
      "import '../../tools/helper.js';",
      "import '../core/money.js';",
      ...CODE,
    ],
    'src/core/messages/zz-violation.ts': ["import '../../../package.json';", "import '../en.js';", ...CODE],
  });
  try {
    assert.deepEqual(
      cruise('src/index.ts', 'src/element/zz-violation.ts', 'src/core/messages/zz-violation.ts'),
      [
        'browser-code-imports-only-parts: src/core/messages/zz-violation.ts -> package.json',
        'browser-code-imports-only-parts: src/element/zz-violation.ts -> src/index.ts',
        'browser-code-imports-only-parts: src/element/zz-violation.ts -> src/react.ts',
        'browser-code-imports-only-parts: src/element/zz-violation.ts -> src/shared/util.ts',
        'browser-code-imports-only-parts: src/element/zz-violation.ts -> tools/helper.ts',
        'browser-code-imports-only-parts: src/index.ts -> src/react.ts',
      ],
    );
  } finally {
    remove();
  }
});

test('server and sandbox import, outside the parts, JSON data only', () => {
  const remove = write({
    'tools/helper.ts': CODE,
    'src/server/zz-violation.ts': [
      "import '../../tools/helper.js';",
      "import '../../package.json';",
      ...CODE,
    ],
    'src/sandbox/v1/zz-violation.ts': [
      "import '../../../tools/helper.js';",
      "import '../../../package.json';",
      "import '../../server/index.js';",
      ...CODE,
    ],
  });
  try {
    assert.deepEqual(cruise('src/server/zz-violation.ts', 'src/sandbox/v1/zz-violation.ts'), [
      'node-code-imports-only-parts-and-json: src/sandbox/v1/zz-violation.ts -> tools/helper.ts',
      'node-code-imports-only-parts-and-json: src/server/zz-violation.ts -> tools/helper.ts',
    ]);
  } finally {
    remove();
  }
});

test('the sandbox imports the server part through its public entry and for-sandbox.ts only', () => {
  const remove = write({
    'src/sandbox/legacy/zz-violation.ts': [
      "import '../../server/keys.js';",
      "import '../../server/index.js';",
      "import '../../server/for-sandbox.js';",
      ...CODE,
    ],
  });
  try {
    assert.deepEqual(cruise('src/sandbox/legacy/zz-violation.ts'), [
      'sandbox-imports-server-through-its-entries: src/sandbox/legacy/zz-violation.ts -> src/server/keys.ts',
    ]);
  } finally {
    remove();
  }
});

test('browser code reaches no Node built-in, jsrsasign, server or sandbox code down an import chain', () => {
  const entry = readFileSync(join(root, 'src/index.ts'), 'utf8').trimEnd().split('\n');
  const remove = write({
    // A folder that no Biome override covers: only the graph sees what browser code reaches through it.
    'src/shared/bridge.ts': [
      "import 'node:fs';",
      "import 'path';",
      "import 'jsrsasign';",
      "import '../server/bounded-cache.js';",
      "import '../sandbox/test-cards.js';",
      ...CODE,
    ],
    'src/index.ts': [...entry, "import './shared/bridge.js';"],
    'src/frame/zz-violation.ts': ["import '../shared/bridge.js';", ...CODE],
  });
  try {
    const violations = cruise('src/index.ts', 'src/frame/zz-violation.ts');
    for (const from of ['src/index.ts', 'src/frame/zz-violation.ts']) {
      const prefix = `browser-code-reaches-no-node-code: ${from} -> `;
      const targets = violations
        .filter((line) => line.startsWith(prefix))
        .map((line) => line.slice(prefix.length));
      for (const expected of [
        'fs',
        'path',
        /node_modules\/jsrsasign\//,
        'src/server/bounded-cache.ts',
        'src/sandbox/test-cards.ts',
      ])
        assert.ok(
          targets.some((target) =>
            typeof expected === 'string' ? target === expected : expected.test(target),
          ),
          `${from} reaches ${expected}: ${JSON.stringify(targets)}`,
        );
    }
  } finally {
    remove();
  }
});

test('the legacy and v1 wings of the sandbox and of the toolkit never import each other', () => {
  const remove = write({
    'src/sandbox/v1/zz-violation.ts': [
      "import '../legacy/order-book.js';",
      "import '../store.js';",
      "import './purchases.js';",
      ...CODE,
    ],
    'src/server/legacy/zz-violation.ts': [
      "import '../v1/zz-target.js';",
      "import '../keys.js';",
      "import './zz-target.js';",
      ...CODE,
    ],
    'src/server/legacy/zz-target.ts': CODE,
    'src/server/v1/zz-target.ts': CODE,
  });
  try {
    assert.deepEqual(cruiseFrom('src/sandbox/v1/zz-violation.ts', 'src/server/legacy/zz-violation.ts'), [
      'wings-never-import-each-other: src/sandbox/v1/zz-violation.ts -> src/sandbox/legacy/order-book.ts',
      'wings-never-import-each-other: src/server/legacy/zz-violation.ts -> src/server/v1/zz-target.ts',
    ]);
  } finally {
    remove();
  }
});

test('what the wings share imports no wing; the entries, the sandbox start, its CLI and test helpers assemble them', () => {
  const remove = write({
    'src/sandbox/zz-shared.ts': ["import './v1/purchases.js';", "import './store.js';", ...CODE],
    'src/sandbox/zz-folder/shared.ts': ["import '../legacy/order-book.js';", ...CODE],
    'src/server/zz-shared.ts': ["import './v1/zz-target.js';", "import './keys.js';", ...CODE],
    'src/server/v1/zz-target.ts': CODE,
    'src/sandbox/test-helpers/zz-composition.ts': [
      "import '../v1/purchases.js';",
      "import '../legacy/order-book.js';",
      ...CODE,
    ],
  });
  try {
    assert.deepEqual(
      cruiseFrom(
        'src/sandbox/zz-shared.ts',
        'src/sandbox/zz-folder/shared.ts',
        'src/server/zz-shared.ts',
        'src/sandbox/test-helpers/zz-composition.ts',
        'src/sandbox/sandbox.ts',
        'src/server/index.ts',
      ),
      [
        'shared-root-imports-no-wing: src/sandbox/zz-folder/shared.ts -> src/sandbox/legacy/order-book.ts',
        'shared-root-imports-no-wing: src/sandbox/zz-shared.ts -> src/sandbox/v1/purchases.ts',
        'shared-root-imports-no-wing: src/server/zz-shared.ts -> src/server/v1/zz-target.ts',
      ],
    );
  } finally {
    remove();
  }
});
