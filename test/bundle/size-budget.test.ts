// Bytes are deterministic, so the size aims of issue 3 are held here; timings live in `npm run bench`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleSizes } from '../../bench/bundle-sizes.js';

const KB = 1024;

test('the script-tag file stays within 12 KB gzip, and the element with the frame within 40 KB', () => {
  const sizes = bundleSizes();
  assert.ok(sizes.scriptTag.gzip <= 12 * KB, `script-tag file: ${sizes.scriptTag.gzip} bytes gzip`);
  assert.ok(sizes.classicScript.gzip <= 12 * KB, `classic script: ${sizes.classicScript.gzip} bytes gzip`);
  const together = sizes.scriptTag.gzip + sizes.frame.gzip;
  assert.ok(together <= 40 * KB, `element and frame: ${together} bytes gzip`);
});
