/**
 * svc-checkout/server's checkoutElementHtml in a server-rendered page: the markup with hostile values (quotes,
 * markup, `&`, U+2028, a CR) served as is, opened in Chromium against the sandbox: the browser reads back
 * exactly the signed order (the gateway takes its signature), the form shows, and the order is paid and
 * notified with the shop's values. Run after `npm run build:browser`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_CERTIFICATE_NAME, DEMO_WIDGET_IDS } from '../../src/sandbox/index.js';
import { checkoutElementHtml, type OrderInput } from '../../src/server/index.js';
import { payInCheckout } from '../../src/testing/index.js';
import { type OnePageShop, startOnePageShop } from './support/one-page-shop.js';
import { waitUntil } from './support/shop-page.js';

let shop: OnePageShop;

before(async () => {
  shop = await startOnePageShop();
});

after(() => shop?.close());

describe('checkoutElementHtml in a server-rendered page', () => {
  test('hostile values reach the gateway as signed: the form shows and the order is paid', async () => {
    const orderId = `A-${crypto.randomUUID()} "quoted" <b>&amp;</b> \u2028`;
    const order: OrderInput = {
      widgetId: DEMO_WIDGET_IDS.checkout,
      language: 'en',
      certificateName: DEMO_CERTIFICATE_NAME,
      backToMerchantUrl: `${shop.url}/cart?from=checkout&step="2"`,
      orderId,
      items: [
        {
          amount: '12.50',
          currency: 'EUR',
          label: `Tea "Earl Grey" <script>alert(1)</script> & milk`,
          count: 2,
        },
        { amount: '8.90', currency: 'EUR', label: `Honey 'raw' &amp; \u2028 sweet`, orderItemId: '"honey"' },
      ],
    };
    const markup = checkoutElementHtml({
      order,
      privateKeyPem: shop.sandbox.demoMerchant!.privateKeyPem,
      firstName: `Anna "<script>"`,
      email: 'anna@example.com',
    });
    shop.files.set('/checkout.html', {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title>
<script type="module" src="${shop.sandbox.url}/widget/svc-checkout.js"></script></head>
<body><main><h1>Checkout</h1>${markup}</main></body></html>`,
    });
    const { page, console } = await shop.open('/checkout.html');
    try {
      // Nothing of the values became markup: no script ran, one element, the attributes as signed.
      const read = await page.evaluate(`(() => {
        const element = document.querySelector('svc-checkout');
        return {
          elements: document.querySelectorAll('svc-checkout').length,
          scripts: document.querySelectorAll('main script').length,
          orderId: element.getAttribute('order-id'),
          firstName: element.getAttribute('first-name'),
          labels: JSON.parse(element.getAttribute('order')).items.map((item) => item.label),
        };
      })()`);
      assert.deepEqual(read, {
        elements: 1,
        scripts: 0,
        orderId,
        firstName: `Anna "<script>"`,
        labels: order.items.map((item) => item.label),
      });

      const outcome = await payInCheckout(page);
      assert.deepEqual(outcome.outcome === 'paid' && outcome.merchantOrderId, orderId);
      const notification = await waitUntil('the purchase notification', async () =>
        shop.notifications.find((candidate) => candidate.order_id === orderId),
      );
      assert.equal(notification.status, 'PAID');
      assert.equal(notification.total_amount, 33.9);
      assert.deepEqual(
        notification.items.map((item) => item.label),
        order.items.map((item) => item.label),
      );
      assert.deepEqual(console, [], 'no console error or warning');
    } finally {
      await page.context().close();
    }
  });
});
