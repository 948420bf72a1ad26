/**
 * `npm run bench`: prints the speed figures. Nothing here asserts: figures vary with the machine, so they
 * are read, not tested. Each part can also run alone (`node --import tsx bench/<part>.ts`).
 */
import { benchBrowser } from './browser.js';
import { bundleSizes } from './bundle-sizes.js';
import { benchCrypto } from './crypto.js';
import { benchDelivery } from './delivery.js';
import { benchFuzz } from './fuzz.js';
import { benchSandboxPayments, describeSandboxPayments } from './sandbox-payments.js';

console.log('# svc-checkout benchmarks');
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);

await benchCrypto();
console.log('');
await benchDelivery();
console.log('');
console.log(describeSandboxPayments(await benchSandboxPayments()));
console.log(await benchFuzz());

console.log('');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = bundleSizes();
for (const [name, label] of [
  ['scriptTag', 'script-tag file (ES module)'],
  ['classicScript', 'script-tag file (classic)'],
  ['frame', "frame's code"],
  ['picker', 'v1 picker chunk (ES module, loaded on demand)'],
] as const) {
  const { minified, gzip, brotli } = sizes[name];
  console.log(`${label}: ${kb(minified)} minified, ${kb(gzip)} gzip, ${kb(brotli)} brotli`);
}
console.log(
  `element + frame: ${kb(sizes.scriptTag.gzip + sizes.frame.gzip)} gzip (aims: script tag <= 12 KB, together <= 40 KB)`,
);
const browser = await benchBrowser();
console.log(
  `card number field focusable, from navigation start: ${browser.cardFieldFocusableMs.toFixed(0)} ms median of ${browser.runs} (aim 150 ms)`,
);
console.log(
  `order of 1,000 items rendered in the frame, from navigation start: ${browser.thousandItemsRenderedMs.toFixed(0)} ms median of ${browser.runs}`,
);
console.log(
  `v1 picker interactive (a payment method can be chosen), from navigation start: ${browser.methodChoosableMs.toFixed(0)} ms median of ${browser.runs}`,
);
