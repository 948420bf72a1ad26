/**
 * The README's code blocks as examples to run. Every fenced block must have a marker on the line before it
 * (blank lines between are allowed):
 *
 *   <!-- example: KIND [name=NAME] [uses=a,b] [after=NAME] [path=FILE] -->
 *
 * KIND says what the tests do with the block (test/e2e/readme-*.test.ts, support/readme-run.ts):
 * - `ts`: typechecked as a merchant's code and run in Node; `uses=` lists what it takes from around it
 *   (readme-prelude.ts);
 * - `tsx`: typechecked with `svc-checkout/react`; a block of `svc-checkout/preact` starts with
 *   `/** @jsxImportSource preact *\/`, so that its JSX is Preact's (without it the block would compile against
 *   React's JSX, which types `<svc-checkout>` too, and prove nothing about Preact); with `path=FILE` the block
 *   is that file, which other blocks import (test/e2e/react-ssr.test.ts runs the React blocks so, and
 *   test/e2e/nextjs.test.ts the files of a Next.js app, such as `path=app/checkout/page.tsx`);
 * - `html`: loaded in Chromium; `js after=NAME`: run in the page of the `html` block NAME;
 * - `vue`: a Vue 3 app's entry module, run in Chromium by test/e2e/vue.test.ts (`uses=` as a `js` block's);
 * - `json`: a config the test uses (by name);
 * - `sh`: commands the test runs; `ci` and `scripts`: commands CI runs, checked against package.json;
 * - `file path=FILE` and `steps`: the walkthrough's files and its commands, in order, which
 *   test/e2e/walkthrough.test.ts writes and runs in a merchant's empty folder.
 * `name=` is required where the test looks a block up or checks what it did (`ts`, `html`, `json`).
 */

export const EXAMPLE_KINDS = [
  'ts',
  'tsx',
  'js',
  'vue',
  'html',
  'json',
  'sh',
  'ci',
  'scripts',
  'file',
  'steps',
] as const;
export type ExampleKind = (typeof EXAMPLE_KINDS)[number];

/** The fence languages each kind may be written in. */
const FENCE_LANGUAGES: Record<ExampleKind, readonly string[]> = {
  ts: ['ts', 'typescript'],
  tsx: ['tsx'],
  js: ['js', 'javascript'],
  vue: ['js', 'javascript'],
  html: ['html'],
  json: ['json'],
  sh: ['sh', 'bash', 'shell'],
  ci: ['sh', 'bash', 'shell'],
  scripts: ['sh', 'bash', 'shell'],
  file: ['js', 'javascript', 'ts', 'json', 'html'],
  steps: ['sh', 'bash', 'shell'],
};

/** Kinds whose blocks the test finds by name. */
const NAMED_KINDS: readonly ExampleKind[] = ['ts', 'html', 'json'];

export interface Example {
  kind: ExampleKind;
  /** The block's name (`name=`), for the test's checks and for `after=`. */
  name?: string;
  /** What a `ts` block takes from around it (`uses=`). */
  uses: string[];
  /** A `js` block's page: the `html` block of this name. */
  after?: string;
  /** A `file` block's file, relative to the merchant's folder. */
  path?: string;
  /** The block's text, its list indentation removed, ending with a line break. */
  code: string;
  /** The line of the block's first line of code (1-based), for messages. */
  line: number;
}

export interface ReadResult {
  examples: Example[];
  /** What is wrong with the markers, each naming its line: a block without a marker, an unknown kind, ... */
  problems: string[];
}

const FENCE_OPEN = /^( *)(`{3,}|~{3,})\s*([\w-]*)[^`]*$/;
/** The pragma that makes a file's JSX Preact's: TypeScript reads it only in the file's leading comments. */
const PREACT_PRAGMA = /^\/\*\*\s*@jsxImportSource preact\s*\*\//;
const MARKER = /^\s*<!--\s*example:\s*(.*?)\s*-->\s*$/;
const OPTION_NAMES = new Set(['name', 'uses', 'after', 'path']);

/** The marker's kind and options, or the problem with it. */
function readMarker(
  text: string,
  line: number,
): { example: Omit<Example, 'code' | 'line'> } | { problem: string } {
  const [kind, ...options] = text.split(/\s+/);
  if (!(EXAMPLE_KINDS as readonly string[]).includes(kind ?? '')) {
    return {
      problem: `line ${line}: unknown example kind ${JSON.stringify(kind)}; use ${EXAMPLE_KINDS.join(', ')}`,
    };
  }
  const example: Omit<Example, 'code' | 'line'> = { kind: kind as ExampleKind, uses: [] };
  for (const option of options) {
    const [key, value] = option.split('=', 2);
    if (key === undefined || !OPTION_NAMES.has(key) || !value) {
      return {
        problem: `line ${line}: ${JSON.stringify(option)} is not an option; write name=…, uses=a,b, after=… or path=…`,
      };
    }
    if (key === 'uses') example.uses = value.split(',').filter(Boolean);
    else example[key as 'name' | 'after' | 'path'] = value;
  }
  return { example };
}

/** A file name in the merchant's folder, or a relative path under it: no leading `/`, no `..`. */
function isProjectPath(path: string | undefined): boolean {
  return path?.split('/').every((part) => part !== '' && part !== '..') === true;
}

/**
 * The examples of a Markdown text, in order, and every problem with their markers. A block without a
 * marker, a marker without a block, a fence language that does not fit the kind, an unnamed block of a kind
 * that needs a name, a name given twice, an `after=` naming no `html` block, and a `file` example without a
 * path of the merchant's folder, or with one another block has, are problems.
 */
export function readExamples(markdown: string): ReadResult {
  const lines = markdown.split('\n');
  const examples: Example[] = [];
  const problems: string[] = [];
  let pending: { marker: string; line: number } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const text = lines[index]!;
    const marker = MARKER.exec(text);
    if (marker) {
      if (pending) problems.push(`line ${pending.line}: the example marker is followed by no code block`);
      pending = { marker: marker[1]!, line: index + 1 };
      continue;
    }
    const open = FENCE_OPEN.exec(text);
    if (!open) {
      if (pending && text.trim() !== '') {
        problems.push(`line ${pending.line}: the example marker is followed by text, not a code block`);
        pending = undefined;
      }
      continue;
    }
    const [, indent = '', fence = '', language = ''] = open;
    const start = index + 1;
    const body: string[] = [];
    let closed = false;
    for (index++; index < lines.length; index++) {
      const line = lines[index]!;
      if (line.trim().startsWith(fence) && line.trim().replace(/[`~]/g, '') === '') {
        closed = true;
        break;
      }
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    if (!closed) problems.push(`line ${start}: the code block is never closed`);
    if (!pending) {
      problems.push(
        `line ${start}: the \`\`\`${language} block has no example marker; put <!-- example: KIND … --> on the line before it`,
      );
      continue;
    }
    const read = readMarker(pending.marker, pending.line);
    pending = undefined;
    if ('problem' in read) {
      problems.push(read.problem);
      continue;
    }
    const example: Example = { ...read.example, code: `${body.join('\n')}\n`, line: start + 1 };
    if (!FENCE_LANGUAGES[example.kind].includes(language)) {
      problems.push(
        `line ${start}: a ${example.kind} example is written as \`\`\`${language}; use \`\`\`${FENCE_LANGUAGES[example.kind][0]}`,
      );
    }
    if (
      example.kind === 'tsx' &&
      /['"]svc-checkout\/preact['"]/.test(example.code) &&
      !PREACT_PRAGMA.test(example.code)
    ) {
      problems.push(
        `line ${start}: a tsx example of svc-checkout/preact starts with /** @jsxImportSource preact */; without it, its JSX is checked as React's`,
      );
    }
    if (NAMED_KINDS.includes(example.kind) && example.name === undefined) {
      problems.push(`line ${start}: a ${example.kind} example needs name=… so that the test can check it`);
    }
    if (example.kind === 'file' && !isProjectPath(example.path)) {
      problems.push(
        `line ${start}: a file example needs path=FILE, a file name in the merchant's folder such as shop.mjs`,
      );
    }
    if (example.kind === 'js' && example.after === undefined) {
      problems.push(`line ${start}: a js example needs after=NAME, the html example whose page it runs in`);
    }
    examples.push(example);
  }
  if (pending) problems.push(`line ${pending.line}: the example marker is followed by no code block`);

  const paths = new Set<string>();
  for (const example of examples) {
    if (example.path === undefined) continue;
    if (paths.has(example.path))
      problems.push(`line ${example.line - 1}: the path ${example.path} is written twice`);
    paths.add(example.path);
  }
  const names = new Map<string, Example>();
  for (const example of examples) {
    if (example.name === undefined) continue;
    if (names.has(example.name))
      problems.push(`line ${example.line - 1}: the name ${example.name} is used twice`);
    names.set(example.name, example);
  }
  for (const example of examples) {
    if (example.after !== undefined && names.get(example.after)?.kind !== 'html') {
      problems.push(`line ${example.line - 1}: after=${example.after} names no html example`);
    }
  }
  return { examples, problems };
}

/** The commands of an `sh`-like block, one a line, without comments and blank lines. */
export function commandsOf(example: Example): string[] {
  return example.code
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
