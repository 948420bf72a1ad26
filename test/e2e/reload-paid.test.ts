/**
 * A reload after paying shows the paid status and charges nothing (issue 9: unsigned widgets took a new
 * order on every load), in a real browser against the demo: its fixed-price (INSTANT) page, and a page of
 * the demo merchant's CALLBACK widget, whose orders the shop's back end approves (the demo has no page of its
 * own for that widget, so the test serves one on the shop's origin). The reloaded page has the same order id,
 * as a shop that keeps the visit's order in its session serves it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEMO_WIDGET_IDS } from '../../src/sandbox/index.js';
import type { OrderInput } from '../../src/server/index.js';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, ShopPage } from './support/shop-page.js';

const env = demoInBrowser();

/**
 * Lets pages this test serves itself (`route.fulfill`) reach the gateway on the loopback address: Chromium
 * counts a fulfilled page as public, and its local network access checks would block the frame, though the
 * page is on the shop's own (loopback) origin.
 */
async function allowServedPages(shop: ShopPage): Promise<void> {
  await shop.page.context().grantPermissions(['local-network-access']);
}

/** From now on the shop serves this page with the order id it has now, however often it is loaded. */
async function keepOrderIdOnReload(shop: ShopPage): Promise<string> {
  const orderId = await shop.element.getAttribute('order-id');
  assert.ok(orderId, 'the page names its order id');
  await allowServedPages(shop);
  await shop.page.route(shop.page.url(), async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(/order-id="[^"]*"/, `order-id="${orderId}"`);
    await route.fulfill({ response, body: html });
  });
  return orderId;
}

/**
 * Pays the page's order, reloads the page, and checks the reload: the paid screen naming the order id, no
 * form, no second `paymentCompleted`; and the shop received one PAID notification for the order id.
 */
async function payReloadAndCheck(shop: ShopPage, orderId: string, total: string): Promise<void> {
  await shop.frame.payWith({ number: CARDS.visa });
  await shop.frame.waitForStatus('Payment successful');
  const completed = await shop.paymentCompleted();
  assert.equal(completed.merchantOrderId, orderId);
  const kept = await env.demo.merchant.waitForNotification((n) => n.notification.id === completed.orderId);
  assert.equal(kept.notification.total_amount, Number(total));

  await shop.page.reload();
  await shop.frame.waitForStatus('Payment successful');
  await shop.frame.statusText(`Order ${orderId}`).waitFor();
  assert.equal(await shop.element.getAttribute('state'), 'paid');
  assert.equal(await shop.frame.payButton().count(), 0, 'no form to pay again');
  assert.equal((await shop.events('paymentCompleted')).length, 0, 'the reload is no new payment');
  assert.equal((await shop.events('checkoutError')).length, 0);
  const paid = env.demo.merchant.notifications.filter(
    (entry) => entry.notification.order_id === orderId && entry.notification.status === 'PAID',
  );
  assert.equal(paid.length, 1, `one PAID notification for ${orderId}`);
}

describe('a reload after paying shows the paid status', () => {
  test('the fixed-price page', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/instant.html');
    try {
      const orderId = await keepOrderIdOnReload(shop);
      await payReloadAndCheck(shop, orderId, '15.00');
    } finally {
      await shop.close();
    }
  });

  test('a page of the CALLBACK widget, whose orders the shop approves', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/instant.html');
    try {
      // The shop's back end prices the cart and keeps it (as for its lazy page), so the shop knows the order
      // a notification must match; its order verification URL approves it for the CALLBACK widget.
      const signing = await fetch(`${env.demo.shopUrl}/api/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ id: 'tea', count: 2 }] }),
      });
      const { order } = (await signing.json()) as { order: OrderInput };
      const orderId = order.orderId!;
      const cart = JSON.stringify({ items: order.items }).replaceAll('"', '&quot;');
      // The fixed-price page's markup with the CALLBACK widget and that cart, on the shop's origin.
      await allowServedPages(shop);
      await shop.page.route(`${env.demo.shopUrl}/callback-widget.html`, async (route) => {
        const response = await route.fetch({ url: `${env.demo.shopUrl}/instant.html` });
        const html = (await response.text()).replace(
          /<svc-checkout[^>]*>/,
          `<svc-checkout widget-id="${DEMO_WIDGET_IDS.callbackValidation}" order-id="${orderId}" order="${cart}" gateway="${env.demo.gatewayUrl}">`,
        );
        await route.fulfill({ response, body: html });
      });
      await shop.goto('/callback-widget.html');
      await payReloadAndCheck(shop, orderId, '12.80');
    } finally {
      await shop.close();
    }
  });
});
