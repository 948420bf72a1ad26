/** The README examples' markers, as support/readme-examples.ts reads them for the readme-*.test.ts files. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readExamples } from './support/readme-examples.js';

const fence = '```';

describe('README example markers', () => {
  test('reads kind, name, uses and after, and the code without its list indentation', () => {
    const { examples, problems } = readExamples(
      [
        '- A list item:',
        '',
        '  <!-- example: html name=page -->',
        `  ${fence}html`,
        '  <svc-checkout></svc-checkout>',
        `  ${fence}`,
        '',
        '<!-- example: js after=page uses=goTo,show -->',
        '',
        `${fence}js`,
        'goTo(1);',
        `${fence}`,
      ].join('\n'),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(examples, [
      { kind: 'html', name: 'page', uses: [], code: '<svc-checkout></svc-checkout>\n', line: 5 },
      { kind: 'js', after: 'page', uses: ['goTo', 'show'], code: 'goTo(1);\n', line: 11 },
    ]);
  });

  test('a block without a marker is a problem that names its line', () => {
    const { problems } = readExamples(['# Title', '', `${fence}sh`, 'npm test', fence].join('\n'));
    assert.deepEqual(problems, [
      'line 3: the ```sh block has no example marker; put <!-- example: KIND … --> on the line before it',
    ]);
  });

  test('a marker must be right before its block, of a known kind, with known options', () => {
    const { problems } = readExamples(
      [
        '<!-- example: ts name=a -->',
        'Some text.',
        `${fence}ts`,
        'x;',
        fence,
        '<!-- example: python -->',
        `${fence}py`,
        fence,
        '<!-- example: ts nmae=b -->',
        `${fence}ts`,
        fence,
        '<!-- example: sh -->',
      ].join('\n'),
    );
    assert.deepEqual(problems, [
      'line 1: the example marker is followed by text, not a code block',
      'line 3: the ```ts block has no example marker; put <!-- example: KIND … --> on the line before it',
      'line 6: unknown example kind "python"; use ts, tsx, js, vue, html, json, sh, ci, scripts, file, steps',
      'line 9: "nmae=b" is not an option; write name=…, uses=a,b, after=… or path=…',
      'line 12: the example marker is followed by no code block',
    ]);
  });

  test('names: required where the test looks a block up, unique, and after= names an html block', () => {
    const { problems } = readExamples(
      [
        '<!-- example: ts -->',
        `${fence}ts`,
        fence,
        '<!-- example: html name=a -->',
        `${fence}html`,
        fence,
        '<!-- example: json name=a -->',
        `${fence}json`,
        fence,
        '<!-- example: js -->',
        `${fence}js`,
        fence,
        '<!-- example: js after=b -->',
        `${fence}js`,
        fence,
      ].join('\n'),
    );
    assert.deepEqual(problems, [
      'line 2: a ts example needs name=… so that the test can check it',
      'line 11: a js example needs after=NAME, the html example whose page it runs in',
      'line 8: the name a is used twice',
      'line 14: after=b names no html example',
    ]);
  });

  test('the walkthrough: file blocks with their path in the merchant’s folder, once each, and steps', () => {
    const { examples, problems } = readExamples(
      [
        '<!-- example: steps -->',
        `${fence}sh`,
        'node shop.mjs',
        fence,
        '<!-- example: file path=shop.mjs -->',
        `${fence}js`,
        'export {};',
        fence,
        '<!-- example: file -->',
        `${fence}js`,
        fence,
        '<!-- example: file path=../shop.mjs -->',
        `${fence}js`,
        fence,
        '<!-- example: file path=shop.mjs -->',
        `${fence}js`,
        fence,
      ].join('\n'),
    );
    assert.deepEqual(examples.slice(0, 2), [
      { kind: 'steps', uses: [], code: 'node shop.mjs\n', line: 3 },
      { kind: 'file', path: 'shop.mjs', uses: [], code: 'export {};\n', line: 7 },
    ]);
    const noPath = "a file example needs path=FILE, a file name in the merchant's folder such as shop.mjs";
    assert.deepEqual(problems, [
      `line 10: ${noPath}`,
      `line 13: ${noPath}`,
      'line 16: the path shop.mjs is written twice',
    ]);
  });

  test('the fence language must fit the kind, and a block must be closed', () => {
    const { problems } = readExamples(
      ['<!-- example: tsx -->', `${fence}ts`, fence, '<!-- example: sh -->', `${fence}sh`, 'npm test'].join(
        '\n',
      ),
    );
    assert.deepEqual(problems, [
      'line 2: a tsx example is written as ```ts; use ```tsx',
      'line 5: the code block is never closed',
    ]);
  });

  test('a tsx example of svc-checkout/preact starts with the jsxImportSource pragma, or its JSX is React’s', () => {
    const preact = "import type {} from 'svc-checkout/preact';";
    const withoutPragma =
      "a tsx example of svc-checkout/preact starts with /** @jsxImportSource preact */; without it, its JSX is checked as React's";
    const { problems } = readExamples(
      [
        '<!-- example: tsx -->',
        `${fence}tsx`,
        preact,
        fence,
        '<!-- example: tsx -->',
        `${fence}tsx`,
        "import type {} from 'svc-checkout/react';",
        '/** @jsxImportSource preact */',
        preact,
        fence,
        '<!-- example: tsx -->',
        `${fence}tsx`,
        '/** @jsxImportSource preact */ // or in tsconfig',
        preact,
        fence,
      ].join('\n'),
    );
    assert.deepEqual(problems, [`line 2: ${withoutPragma}`, `line 6: ${withoutPragma}`]);
  });
});
