/**
 * The markup the official legacy PHP client prints (test/interop/klix-merchant-api-php, unchanged), on a
 * merchant page in Chromium with the gateway's own script: only the tag `klix-checkout` is renamed
 * `svc-checkout`. Both of the client's README orders reach the card form with the client's signature and are
 * paid with a test card (the multi-item one with a card of the brand Citadele, which it asks for); the client's
 * decoder and every `MerchantOrder` getter work on the notifications those payments produce. The frame speaks
 * Latvian: the client's README orders say `language="lv"`, and that is signed.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, FrameLocator } from 'playwright-core';
import { lvFrame } from '../../src/core/messages/lv.js';
import { parseConfig } from '../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { FakeMerchant, merchantKeys, tempDir, testConfigFile, WIDGETS } from '../sandbox/support.js';
import {
  assertGettersWork,
  type DecodedNotification,
  decodeNotification,
  printWidget,
  type ReadmeOrder,
  referenceNotification,
} from '../support/official-php-client.js';
import { launchBrowser } from './support/browser.js';
import { freshPage } from './support/shop-page.js';

const CITADELE_CARD = '4012000000000008';

let browser: Browser;
let merchant: FakeMerchant;
let sandbox: Sandbox;
/** Where the client's scripts read their files (keys, bodies); the sandbox keeps its data elsewhere. */
let dir: string;
let reference: DecodedNotification;
const pages = createServer();
let pageOrigin = '';
/** The page each path serves. */
const pageHtml = new Map<string, string>();

before(async () => {
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  pages.on('request', (req, res) => {
    const html = pageHtml.get(req.url ?? '');
    if (html === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  merchant = await FakeMerchant.start();
  const file = testConfigFile(merchant.url);
  file.merchants[0]!.allowedOrigins = [pageOrigin];
  dir = await tempDir();
  sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  browser = await launchBrowser();
  const gateway = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body = await referenceNotification();
  reference = await decodeNotification(
    body,
    sign('sha256', Buffer.from(body), gateway.privateKey).toString('base64'),
    gateway.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    dir,
  );
});
after(async () => {
  await browser?.close();
  await sandbox?.close();
  await merchant?.close();
  pages.closeAllConnections();
  await new Promise<void>((resolve) => pages.close(() => resolve()));
});

/** A merchant page with the client's markup, the tag renamed and nothing else changed. */
async function merchantPage(order: ReadmeOrder): Promise<{ path: string; markup: string }> {
  const printed = await printWidget(order, WIDGETS.checkout, merchantKeys.main.privateKeyPem, 'main', dir);
  const tag = /^<klix-checkout( [\s\S]*)><\/klix-checkout>$/.exec(printed.trim());
  assert.ok(tag, `the client printed one klix-checkout element: ${printed}`);
  const markup = `<svc-checkout${tag[1]}></svc-checkout>`;
  const path = `/${order}.html`;
  pageHtml.set(
    path,
    `<!doctype html><html lang="lv"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="${sandbox.url}/widget/svc-checkout.js"></script></head><body>
${markup}
<script>
  window.completed = [];
  document.querySelector('svc-checkout').addEventListener('paymentCompleted', (event) => completed.push(event.detail));
  document.querySelector('svc-checkout').addEventListener('checkoutError', (event) => completed.push(event.detail));
</script>
</body></html>`,
  );
  return { path, markup };
}

/** Fills the card form in the frame's Latvian and pays. */
async function pay(frame: FrameLocator, number: string): Promise<void> {
  await frame.getByLabel(lvFrame['card.number.label']).fill(number);
  await frame.getByLabel(lvFrame['card.expiry.label']).fill('12/34');
  await frame.getByLabel(lvFrame['card.cvc.label']).fill('123');
  await frame.getByLabel(lvFrame['card.holder.label']).fill('Jānis Bērziņš');
  const terms = frame.getByLabel(lvFrame['terms.agree']);
  if ((await terms.count()) > 0) await terms.check();
  await frame.locator('button.svc-pay[aria-disabled="false"]').click();
}

/** Pays the page's order in Chromium; the delivered notification, decoded by the client. */
async function payOnPage(order: ReadmeOrder, number: string, shipping?: string) {
  const { path, markup } = await merchantPage(order);
  const before = merchant.requests('/notify').length;
  const tab = await freshPage(browser);
  try {
    await tab.goto(`${pageOrigin}${path}`);
    // The element keeps the client's signature as printed.
    const signature = /signature="([^"]+)"/.exec(markup)![1]!;
    assert.equal(await tab.locator('svc-checkout').getAttribute('signature'), signature);
    const frame = tab.frameLocator('svc-checkout iframe');
    try {
      // Ready: the pay button takes a payment, or (shipping options) names the shipping to choose first.
      await frame
        .locator('button.svc-pay[aria-disabled="false"]')
        .or(frame.getByRole('button', { name: lvFrame['pay.chooseShipping'] }))
        .waitFor();
    } catch (error) {
      const told = await tab.evaluate(() =>
        JSON.stringify((window as unknown as { completed: unknown }).completed),
      );
      throw new Error(`The card form did not take the order: ${told}`, { cause: error });
    }
    if (shipping) await frame.getByRole('radio', { name: new RegExp(`^${shipping}\\b`) }).check();
    await pay(frame, number);
    await frame.getByRole('heading', { name: lvFrame['status.paid.title'] }).waitFor();
    const [completed] = await tab.evaluate(
      () => (window as unknown as { completed: Array<Record<string, unknown>> }).completed,
    );
    const request = (await merchant.waitFor('/notify', before + 1)).at(-1)!;
    const decoded = await decodeNotification(
      request.body,
      request.headers['x-svc-signature'] as string,
      sandbox.serviceCertificatePem,
      dir,
    );
    assertGettersWork(decoded, reference, ['MerchantOrder.getPayment().getError()'], order);
    // biome-ignore lint/suspicious/noExplicitAny: the decoded getters are read loosely and asserted on
    return { completed: completed!, getters: decoded.getters as Record<string, any> };
  } finally {
    await tab.context().close();
  }
}

describe("the official PHP client's markup in the browser", () => {
  test('the single item README order: the form takes it and a Visa pays it', async () => {
    const { completed, getters } = await payOnPage('single', '4111111111111111');
    assert.equal(completed['paymentSucceeded'], true);
    assert.equal(completed['merchantOrderId'], '36c420f4-5487-11ea-a2e3-2e728ce88125');
    assert.equal(getters['getStatus'], 'PAID');
    assert.equal(getters['getTotalAmount'], 120.04);
    assert.equal(getters['getItems'][0]['getLabel'], 'Order No 1234567890');
    assert.equal(getters['getShipping']['getType'], null);
  });

  test('the multi-item README order (order JSON with orderId, shipping titles, brand Citadele): a Citadele card pays it', async () => {
    const { completed, getters } = await payOnPage('multi', CITADELE_CARD, 'In store pickup');
    assert.equal(completed['paymentSucceeded'], true);
    // The order id came in the order JSON only.
    assert.equal(completed['merchantOrderId'], '1234567890');
    assert.equal(getters['getOrderId'], '1234567890');
    assert.equal(getters['getTotalAmount'], 253.03);
    assert.deepEqual(getters['getShipping']['getMethod'], { getId: 'pickup', getName: 'In store pickup' });
    assert.deepEqual(
      getters['getItems'].map((item: Record<string, unknown>) => [item['getLabel'], item['getType']]),
      [
        ['Vacuum cleaner TC31', 'UNKNOWN'],
        ['Filter for TC31', 'UNKNOWN'],
        ['In store pickup', 'SHIPPING'],
      ],
    );
    assert.equal(getters['getPayment']['getCard']['getBin'], '401200');
  });
});
