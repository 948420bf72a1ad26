/**
 * The element opens its frame as it connects (issue 13): on a page whose parsing waits for a slow script after
 * the element, the card form shows and takes focus before the document is parsed, while the order waits for
 * the start; the later script still adds an item to the order and hears the failure of another element.
 * The page loads the gateway's classic script in its head, as pages without modules do. The slow script is
 * held by the test until the card form is seen, so the order of events is forced, not timed.
 */
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { type GatewayFixture, startGatewayFixture } from '../support/gateway-fixture.js';
import { launchBrowser } from './support/browser.js';
import { waitUntil } from './support/shop-page.js';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

describe('the frame opened before the page is parsed', () => {
  let browser: Browser;
  let gateway: GatewayFixture;
  const pages = createServer();
  let pageOrigin = '';
  let heldScript: ServerResponse | undefined;

  before(async () => {
    await new Promise<void>((resolve) => pages.listen(0, 'localhost', resolve));
    pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
    gateway = await startGatewayFixture({ pageOrigin });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await gateway?.close();
    pages.closeAllConnections();
    await new Promise<void>((resolve) => pages.close(() => resolve()));
  });

  test('the card form shows before the document is parsed; the order and the listeners of later scripts count', async () => {
    const attributeItem = { amount: '12.50', label: 'Green tea' };
    const scriptItem = { amount: '3.99', label: 'Tea strainer' };
    const order = {
      widgetId: gateway.widgets.checkout,
      certificateName: gateway.certificateName,
      items: [attributeItem, scriptItem],
    };
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Early start</title>
<script src="${gateway.gatewayUrl}/widget/svc-checkout.classic.js"></script></head><body>
<svc-checkout id="pay" widget-id="${order.widgetId}" certificate-name="${order.certificateName}"
  order="${escapeAttribute(JSON.stringify({ items: [attributeItem] }))}" signature="${gateway.sign(order)}"></svc-checkout>
<svc-checkout id="unknown" widget-id="00000000-0000-4000-8000-00000000dead" amount="1.00" label="Tea"></svc-checkout>
<script src="/slow.js"></script>
</body></html>`;
    const slowScript = `
      window.heard = [];
      document.getElementById('unknown').addEventListener('checkoutError', (event) => heard.push(event.detail.code));
      document.getElementById('pay').addOrderItem(${JSON.stringify(scriptItem)});`;
    pages.on('request', (req, res) => {
      if (req.url === '/slow.js') {
        heldScript = res;
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });

    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      await tab.goto(pageOrigin, { waitUntil: 'commit' });
      const frame = await waitUntil('the payment frame', async () =>
        tab.frames().find((candidate) => candidate.url().includes(`/widget/frame/${order.widgetId}`)),
      );
      // The card number takes the focus while the page is still being parsed (the slow script is held).
      await frame.waitForFunction(() => {
        const number = document.querySelector<HTMLInputElement>('[autocomplete="cc-number"]');
        number?.focus();
        return number !== null && document.activeElement === number;
      });
      assert.equal(await tab.evaluate(() => document.readyState), 'loading');
      assert.equal(
        await tab.evaluate(() => document.getElementById('pay')?.getAttribute('state')),
        'loading',
      );
      assert.ok(heldScript, 'the page asked for its slow script');

      heldScript.writeHead(200, { 'content-type': 'text/javascript' }).end(slowScript);
      // The order sent at the start holds the item the later script added, as signed with it.
      await tab.waitForFunction(() => document.getElementById('pay')?.getAttribute('state') === 'form');
      const lines = await frame.locator('.svc-line-label').allTextContents();
      assert.deepEqual(lines, [attributeItem.label, scriptItem.label]);
      // The unknown widget's failure is told once the page's listeners are there.
      await tab.waitForFunction(() => (window as unknown as { heard: string[] }).heard.length > 0);
      assert.deepEqual(await tab.evaluate(() => (window as unknown as { heard: string[] }).heard), [
        'unknown_widget',
      ]);
    } finally {
      await context.close();
    }
  });
});
