/**
 * The README's element section, "The element: `<svc-checkout>`": its html pages in Chromium with their js,
 * the signing and lazy-start examples of a shop's server, and the React and Preact examples typechecked.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeExamples } from './support/readme-checks.js';
import { typecheck } from './support/readme-run.js';

describeExamples('element', () => {
  test('the tsx example typechecks with svc-checkout/react', () => {
    const result = typecheck('tsconfig.react.json');
    assert.ok(result.ok, result.output);
  });
});
