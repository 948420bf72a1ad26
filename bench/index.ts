/**
 * `npm run bench`: prints the speed figures. Nothing here asserts: figures vary with the machine, so they
 * are read, not tested. Each part can also run alone (`node --import tsx bench/<part>.ts`).
 */
import { benchBrowser } from './browser.js';
import { bundleSizes, type Sizes } from './bundle-sizes.js';
import { benchClockDeliveries, describeClockDeliveries } from './clock-deliveries.js';
import { benchCrypto } from './crypto.js';
import { benchDelivery } from './delivery.js';
import { benchFuzz } from './fuzz.js';
import { benchSandboxPayments, describeSandboxPayments } from './sandbox-payments.js';
import { benchStatements, describeStatements } from './statements.js';

console.log('# svc-checkout benchmarks');
console.log(`node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`);

await benchCrypto();
console.log('');
await benchDelivery();
console.log(describeClockDeliveries(await benchClockDeliveries()));
console.log('');
console.log(describeSandboxPayments(await benchSandboxPayments()));
console.log(describeStatements(await benchStatements()));
console.log(await benchFuzz());

console.log('');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = bundleSizes();
const row = (label: string, { minified, gzip, brotli }: Sizes) =>
  `${label}: ${kb(minified)} minified, ${kb(gzip)} gzip, ${kb(brotli)} brotli`;
console.log('files the gateway serves to browsers:');
for (const [file, fileSizes] of sizes.files) console.log(`  ${row(file, fileSizes)}`);
console.log('a page load, element + frame (aims: script tag <= 12 KB, each page load <= 40 KB gzip):');
for (const load of sizes.pageLoads) console.log(`  ${row(load.name, load.sizes)}`);
console.log(`  ${row('v1 hosted checkout page (its card form script)', sizes.hostedCheckout)}`);
console.log('after the customer acts:');
for (const step of sizes.afterAction) console.log(`  ${row(step.name, step.sizes)}`);
const browser = await benchBrowser();
const ratio = (ms: number, baseline: number) => `${(ms / baseline).toFixed(2)}x the baseline`;
const visits = (cold: number, warm: number) =>
  `${cold.toFixed(0)} ms first visit (${ratio(cold, browser.baselineMs)}), ${warm.toFixed(0)} ms repeat (${ratio(warm, browser.baselineWarmMs)})`;
console.log(
  `card number field focusable, from navigation start (median of ${browser.runs}; aims 150 ms, 2.5x cold, 1.5x warm):`,
);
console.log(`  widget: ${visits(browser.cardFieldFocusableMs, browser.cardFieldFocusableWarmMs)}`);
/** Cold and warm figures against a floor's (aims: script tag 1.15x the scripted floor, declared 1.1x the declared). */
const againstFloor = (cold: number, warm: number, floorCold: number, floorWarm: number, floor: string) =>
  `${cold.toFixed(0)} ms first visit (${(cold / floorCold).toFixed(2)}x the ${floor} floor), ${warm.toFixed(0)} ms repeat (${(warm / floorWarm).toFixed(2)}x)`;
console.log(
  `    by script tag: ${againstFloor(browser.cardFieldFocusableMs, browser.cardFieldFocusableWarmMs, browser.scriptedFrameFloorMs, browser.scriptedFrameFloorWarmMs, 'scripted')}`,
);
console.log(
  `  widget, its frame declared in the page's HTML (checkoutElementHtml): ${visits(browser.declaredFrameMs, browser.declaredFrameWarmMs)}`,
);
console.log(
  `    ${againstFloor(browser.declaredFrameMs, browser.declaredFrameWarmMs, browser.frameFloorMs, browser.frameFloorWarmMs, 'declared')}`,
);
console.log(
  `  baseline, a minimal Lit card form on the page itself: ${browser.baselineMs.toFixed(0)} ms first visit, ${browser.baselineWarmMs.toFixed(0)} ms repeat`,
);
console.log(
  '  the floor under any cross-site frame here, a frame page that is one static card input and no script:',
);
console.log(
  `    in an iframe of the page's HTML (the declared floor): ${visits(browser.frameFloorMs, browser.frameFloorWarmMs)}`,
);
console.log(
  `    in an iframe that a module script adds (the scripted floor): ${visits(browser.scriptedFrameFloorMs, browser.scriptedFrameFloorWarmMs)}`,
);
console.log(
  `order of 1,000 items rendered in the frame, from navigation start: ${browser.thousandItemsRenderedMs.toFixed(0)} ms median of ${browser.runs}`,
);
console.log(
  `  from the order reaching the frame (aim 100 ms): ${browser.thousandItemsFromInitMs.toFixed(0)} ms from init, ${browser.thousandItemsFromIntakeMs.toFixed(0)} ms from the gateway's answer to its intake`,
);
console.log(
  `v1 picker interactive (a payment method can be chosen), from navigation start: ${browser.methodChoosableMs.toFixed(0)} ms median of ${browser.runs}`,
);
