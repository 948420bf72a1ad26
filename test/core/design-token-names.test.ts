// The element reads its tokens by the plain names; the frame checks and applies them by DESIGN_TOKENS.
// The types already hold the two lists to one another; this holds the values, as the bundles see them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DESIGN_TOKEN_NAMES } from '../../src/core/design-token-names.js';
import { DESIGN_TOKENS, TOKEN_NAMES } from '../../src/core/design-tokens.js';
import * as core from '../../src/core/index.js';

test('DESIGN_TOKEN_NAMES lists the names of DESIGN_TOKENS, in the same order, each once', () => {
  assert.deepEqual(
    [...DESIGN_TOKEN_NAMES],
    DESIGN_TOKENS.map((token) => token.name),
  );
  assert.deepEqual([...TOKEN_NAMES], [...DESIGN_TOKEN_NAMES]);
  assert.equal(new Set(DESIGN_TOKEN_NAMES).size, DESIGN_TOKEN_NAMES.length);
  for (const name of DESIGN_TOKEN_NAMES) assert.match(name, /^--svc-[a-z]+(-[a-z]+)*$/);
});

test('core’s index offers the names', () => {
  assert.equal(core.DESIGN_TOKEN_NAMES, DESIGN_TOKEN_NAMES);
});
