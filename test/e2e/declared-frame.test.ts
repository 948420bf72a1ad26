/**
 * checkoutElementHtml's declared frame in Chromium, the shop and the sandbox on two origins: the browser
 * requests the payment frame while it parses the shop's page, the frame starts and shows its card form while
 * the element's script is still held back, and the element, when it comes, adopts that frame (one frame
 * request in all, the same frame document, what the shopper typed kept) and the order is paid. A frame
 * declared for another page origin is replaced by the element's own, and that order is paid too.
 * Run after `npm run build:browser`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page, Route } from 'playwright-core';
import { DEMO_CERTIFICATE_NAME, DEMO_WIDGET_IDS } from '../../src/sandbox/index.js';
import { type CheckoutElementHtmlOptions, checkoutElementHtml } from '../../src/server/index.js';
import { payInCheckout } from '../../src/testing/index.js';
import { type OnePageShop, startOnePageShop } from './support/one-page-shop.js';
import { waitUntil } from './support/shop-page.js';

let shop: OnePageShop;

before(async () => {
  shop = await startOnePageShop();
});

after(() => shop?.close());

/** A page with the element as checkoutElementHtml writes it, its frame declared for `pageOrigin`. */
function servePage(path: string, pageOrigin: string): string {
  const orderId = `D-${crypto.randomUUID()}`;
  const options: CheckoutElementHtmlOptions = {
    order: {
      widgetId: DEMO_WIDGET_IDS.checkout,
      language: 'en',
      certificateName: DEMO_CERTIFICATE_NAME,
      orderId,
      items: [{ amount: '12.50', currency: 'EUR', label: 'Green tea' }],
    },
    privateKeyPem: shop.sandbox.demoMerchant!.privateKeyPem,
    gateway: shop.sandbox.url,
    declaredFrame: { pageOrigin },
  };
  shop.files.set(path, {
    type: 'text/html; charset=utf-8',
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<script type="module" src="${shop.sandbox.url}/widget/svc-checkout.js"></script></head>
<body><main><h1>Checkout</h1>${checkoutElementHtml(options)}</main></body></html>`,
  });
  return orderId;
}

/**
 * Opens the page with the element's script held back until `release()`: the frame the HTML declares loads
 * meanwhile. Counts the requests of frame pages (documents, not their scripts) and keeps the page's console errors and warnings.
 */
async function openHeld(path: string) {
  const page = await (await shop.browser.newContext()).newPage();
  const frameRequests: string[] = [];
  const console: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document' && request.url().includes('/widget/frame/'))
      frameRequests.push(request.url());
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.push(message.text());
  });
  page.on('pageerror', (error) => console.push(`page error: ${error.message}`));
  let held: Route | undefined;
  await page.route(`${shop.sandbox.url}/widget/svc-checkout.js`, (route) => {
    held = route;
  });
  await page.goto(`${shop.url}${path}`, { waitUntil: 'commit' });
  const release = async () => {
    await waitUntil('the page asks for the element script', async () => held);
    await held!.continue();
    await page.waitForFunction(`customElements.get('svc-checkout') !== undefined`);
  };
  return { page, frameRequests, console, release };
}

async function paymentFrame(page: Page): Promise<Frame> {
  return waitUntil('the payment frame', async () =>
    page.frames().find((frame) => frame.url().includes('/widget/frame/')),
  );
}

describe('checkoutElementHtml with a declared frame', () => {
  test('the frame loads before the element script runs, is adopted as it stands and pays', async () => {
    const orderId = servePage('/declared.html', shop.url);
    const { page, frameRequests, console, release } = await openHeld('/declared.html');
    try {
      // The element's script is held: the parser alone asked for the frame, which shows its card form.
      const frame = await paymentFrame(page);
      const number = frame.getByLabel('Card number');
      await number.waitFor();
      assert.equal(
        await page.evaluate(`customElements.get('svc-checkout') === undefined`),
        true,
        'the element is not defined yet',
      );
      assert.equal(frameRequests.length, 1, frameRequests.join(', '));
      // The declared iframe has the title the element gives its own.
      assert.equal(
        await page.evaluate(
          `document.querySelector('svc-checkout').shadowRoot.querySelector('iframe').title`,
        ),
        'Secure payment form',
      );
      await frame.evaluate(() => {
        (globalThis as { svcDeclared?: string }).svcDeclared = 'the same document';
      });
      await number.fill('4111 1111');

      await release();
      await page.waitForFunction(`document.querySelector('svc-checkout').getAttribute('state') === 'form'`);
      // The same frame document, with what was typed before the element came.
      assert.equal(
        await frame.evaluate(() => (globalThis as { svcDeclared?: string }).svcDeclared),
        'the same document',
      );
      assert.equal(await number.inputValue(), '4111 1111');

      const outcome = await payInCheckout(page);
      assert.deepEqual(outcome.outcome === 'paid' && outcome.merchantOrderId, orderId);
      assert.equal(frameRequests.length, 1, `one frame request in all: ${frameRequests.join(', ')}`);
      assert.deepEqual(console, [], 'no console error or warning');
    } finally {
      await page.context().close();
    }
  });

  test('a frame declared for another page origin is replaced by the element, which pays', async () => {
    const orderId = servePage('/elsewhere.html', 'https://shop.example');
    const { page, frameRequests, release } = await openHeld('/elsewhere.html');
    try {
      await waitUntil('the declared frame requested', async () => frameRequests.length === 1 || undefined);
      const iframeSrc = `document.querySelector('svc-checkout').shadowRoot.querySelector('iframe').src`;
      const declared = await page.evaluate(iframeSrc);
      await release();
      const outcome = await payInCheckout(page);
      assert.deepEqual(outcome.outcome === 'paid' && outcome.merchantOrderId, orderId);
      assert.equal(frameRequests.length, 2, 'the declared frame, then the element own');
      const opened = String(await page.evaluate(iframeSrc));
      assert.notEqual(opened, declared);
      assert.ok(opened.includes(`origin=${encodeURIComponent(shop.url)}`), opened);
      assert.equal(
        await page.evaluate(
          `document.querySelector('svc-checkout').shadowRoot.querySelectorAll('iframe').length`,
        ),
        1,
      );
    } finally {
      await page.context().close();
    }
  });
});
