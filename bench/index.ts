/**
 * `npm run bench`: prints the speed figures. Nothing here asserts: figures vary with the machine, so they
 * are read, not tested. Each part can also run alone (`node --import tsx bench/<part>.ts`).
 */
import { type BrowserFigures, benchBrowser, SLOW_NETWORK, type Visits } from './browser.js';
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
const sizes = await bundleSizes();
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
/** Cold and warm figures, each against another page's (`x` times its figure). */
const against = (page: Visits, other: Visits, name: string) =>
  `${page.cold.toFixed(0)} ms first visit (${(page.cold / other.cold).toFixed(2)}x ${name}), ${page.warm.toFixed(0)} ms repeat (${(page.warm / other.warm).toFixed(2)}x)`;
/** The card field's figures of one network, each page against the baseline and its floor. */
const printCardField = (figures: BrowserFigures['cardField']) => {
  const { widget, declared, baseline, declaredFloor, scriptedFloor } = figures;
  console.log(`  widget by script tag: ${against(widget, baseline, 'the baseline')}`);
  console.log(`    (aim 1.15x the scripted floor) ${against(widget, scriptedFloor, 'the scripted floor')}`);
  console.log(
    `  widget, its frame declared in the page's HTML (checkoutElementHtml): ${against(declared, baseline, 'the baseline')}`,
  );
  console.log(`    (aim 1.1x the declared floor) ${against(declared, declaredFloor, 'the declared floor')}`);
  console.log(
    `  baseline, a minimal Lit card form on the page itself: ${baseline.cold.toFixed(0)} ms first visit, ${baseline.warm.toFixed(0)} ms repeat`,
  );
  console.log(
    '  the floor under any cross-site frame here, a frame page that is one static card input and no script:',
  );
  console.log(
    `    in an iframe of the page's HTML (the declared floor): ${against(declaredFloor, baseline, 'the baseline')}`,
  );
  console.log(
    `    in an iframe that a module script adds (the scripted floor): ${against(scriptedFloor, baseline, 'the baseline')}`,
  );
};
console.log(
  `card number field focusable, from navigation start (median of ${browser.runs}; aims 150 ms, 2.5x the baseline cold, 1.5x warm):`,
);
printCardField(browser.cardField);
console.log(
  `the same on a slow network (${SLOW_NETWORK.latencyMs} ms round trip, ${SLOW_NETWORK.kbps / 1000} Mbps, as Chromium emulates it; median of ${browser.slowRuns}):`,
);
printCardField(browser.cardFieldSlow);
console.log(
  `order of 1,000 items rendered in the frame, from navigation start: ${browser.thousandItemsRenderedMs.toFixed(0)} ms median of ${browser.runs}`,
);
console.log(
  `  from the order reaching the frame (aim 100 ms): ${browser.thousandItemsFromInitMs.toFixed(0)} ms from init, ${browser.thousandItemsFromIntakeMs.toFixed(0)} ms from the gateway's answer to its intake`,
);
console.log(
  `v1 picker interactive (a payment method can be chosen), from navigation start: ${browser.methodChoosableMs.toFixed(0)} ms median of ${browser.runs}`,
);
