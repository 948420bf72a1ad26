/**
 * Every demo page, paid with both approving test cards, in a real browser against the real sandbox: the page
 * hears `paymentCompleted`, and the shop's back end receives exactly one verified notification per order.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoInBrowser } from './support/demo-env.js';
import { DEMO_PAGES } from './support/demo-pages.js';
import { CARDS, ShopPage } from './support/shop-page.js';

const env = demoInBrowser();
const paidOrders: string[] = [];

const APPROVING = [
  { name: 'Visa', number: CARDS.visa },
  { name: 'Mastercard', number: CARDS.mastercard },
] as const;

describe('each demo page takes a payment', () => {
  for (const page of DEMO_PAGES) {
    APPROVING.forEach((card, variant) => {
      test(`${page.path} with ${card.name}`, async () => {
        const shop = await ShopPage.open(env.browser, env.demo.shopUrl, page.path);
        try {
          await page.prepare(shop, variant);
          // After the preparation: the lazy page's order id comes from the shop's back end with its cart.
          const merchantOrderId = await shop.element.evaluate(
            (element) => (element as HTMLElement & { orderId?: string }).orderId ?? null,
          );
          await shop.frame.payWith({ number: card.number });
          await shop.frame.waitForStatus('Payment successful');

          const completed = await shop.paymentCompleted();
          assert.equal(completed.paymentSucceeded, true);
          assert.equal(completed.merchantOrderId, merchantOrderId);
          assert.equal(await shop.events('checkoutError').then((events) => events.length), 0);

          const kept = await env.demo.merchant.waitForNotification(
            (n) => n.notification.id === completed.orderId,
          );
          assert.equal(kept.notification.status, 'PAID');
          assert.equal(kept.notification.order_id, merchantOrderId);
          assert.equal(kept.notification.total_amount, Number(page.total(variant)));
          assert.equal(kept.notification.payment.status, 'SUCCEEDED');
          paidOrders.push(completed.orderId);
        } finally {
          await shop.close();
        }
      });
    });
  }

  test('the back end kept exactly one verified notification per paid order, each delivered once', async () => {
    assert.equal(paidOrders.length, DEMO_PAGES.length * APPROVING.length, 'every payment above succeeded');
    // A retry would come after the first answer; give it time to show up if the shop had answered wrong.
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const id of paidOrders) {
      const kept = env.demo.merchant.notifications.filter((entry) => entry.notification.id === id);
      assert.equal(kept.length, 1, `one notification for ${id}`);
      assert.equal(kept[0]!.deliveries, 1, `delivered once for ${id}`);
    }
    assert.equal(new Set(paidOrders).size, paidOrders.length, 'each payment was its own order');
    assert.equal(env.demo.merchant.refusedNotifications.length, 0, 'no delivery failed verification');
  });

  test('the notifications page lists them', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/notifications.html');
    try {
      const rows = shop.page.locator('#notifications tbody tr');
      await rows.nth(paidOrders.length - 1).waitFor();
      assert.equal(await rows.count(), paidOrders.length);
      const text = await shop.page.locator('#notifications').textContent();
      for (const id of paidOrders) assert.ok(text?.includes(id), `${id} is listed`);
    } finally {
      await shop.close();
    }
  });
});
