/**
 * The README as a whole: every code block has a marker, its links lead somewhere, the package its examples
 * import builds, and its ts examples typecheck as a merchant's code; and the examples outside the element,
 * sandbox and server toolkit sections (the `keys` example, the commands CI and developers run).
 * readme-element.test.ts, readme-sandbox.test.ts and readme-server.test.ts run the others; how each kind of
 * example runs is support/readme-run.ts's.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { test } from 'node:test';
import { describeExamples, JS_CHECKS, JSON_CHECKS, TS_CHECKS } from './support/readme-checks.js';
import { PRELUDE_NAMES } from './support/readme-prelude.js';
import { env, examples, problems, readmeFile, typecheck } from './support/readme-run.js';

describeExamples('rest', () => {
  test('every code block is an example with a marker', () => {
    assert.deepEqual(problems, []);
    const checked = new Set([
      ...Object.keys(TS_CHECKS),
      ...Object.keys(JSON_CHECKS),
      ...Object.keys(JS_CHECKS),
    ]);
    const present = new Set(examples.flatMap((example) => (example.name ? [example.name] : [])));
    assert.deepEqual(
      [...checked].filter((name) => !present.has(name)),
      [],
      'every check has its example (a check whose example is gone must go too)',
    );
    const unknown = examples
      .filter((example) => example.kind === 'ts')
      .flatMap((example) => example.uses.filter((name) => !PRELUDE_NAMES.includes(name as never)));
    assert.deepEqual(unknown, [], `uses= of a ts example takes ${PRELUDE_NAMES.join(', ')}`);
  });

  test('its links lead to files of the repository and to its own headings', () => {
    const markdown = readFileSync(readmeFile, 'utf8').replace(/^ *```[\s\S]*?^ *```/gm, '');
    // GitHub's heading ids: lower case, punctuation other than hyphens dropped, spaces as hyphens.
    const headings = new Set(
      [...markdown.matchAll(/^#+ (.+)$/gm)].map(([, text]) =>
        text!
          .toLowerCase()
          .replace(/[^\p{L}\p{N} _-]/gu, '')
          .replace(/ /g, '-'),
      ),
    );
    const broken = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
      .map(([, target]) => target!)
      .filter((target) => !/^[a-z]+:/.test(target))
      .filter((target) =>
        target.startsWith('#')
          ? !headings.has(target.slice(1))
          : !existsSync(resolve(dirname(readmeFile), target.split('#')[0]!)),
      );
    assert.deepEqual(broken, []);
  });

  test('the package builds (tsc -p tsconfig.build.json), as the examples import it', () => {
    assert.ok(env.build.ok, env.build.output);
  });

  test('the ts examples typecheck as a merchant’s code (strict, skipLibCheck: false)', () => {
    const result = typecheck('tsconfig.json');
    assert.ok(result.ok, result.output);
  });
});
