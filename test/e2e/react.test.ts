/**
 * The demo's React 19 page (demo/react.html, built by Vite from demo/src/react-page.tsx) in a real browser
 * against the real sandbox: the cart changes before the payment, React renders `<svc-checkout>` with the
 * new signed order, the element reloads its frame with it, and the order paid, notified and heard by the
 * page's `onpaymentCompleted` prop is the new one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PANTRY_WIDGET_ID } from '../../demo/merchant/pantry-cart.js';
import { axeViolations } from './support/axe.js';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, ShopPage, waitUntil } from './support/shop-page.js';

const env = demoInBrowser();

describe('the React 19 page', () => {
  test('a cart changed before paying: the new order is the one paid, notified once, and heard by the prop', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/react.html');
    const { page, frame } = shop;
    try {
      // The first cart: 2 teas at 6.40, one honey at 8.90, Latvian Post 2.80.
      await frame.waitForForm();
      await frame.waitForPayAmount('24.50');
      const firstOrderId = await shop.element.getAttribute('order-id');
      assert.match(firstOrderId ?? '', /^PANTRY-/);
      // As svc-checkout/react types them: React 19 set `order` as the element's property (an object), the
      // hyphenated names as attributes, and the `on…` props as listeners (no attribute).
      const given = await shop.element.evaluate((element) => ({
        order: typeof (element as HTMLElement & { order?: unknown }).order,
        orderAttribute: element.hasAttribute('order'),
        widgetId: element.getAttribute('widget-id'),
        listenerAttributes: element.getAttributeNames().filter((name) => name.startsWith('on')),
      }));
      assert.deepEqual(given, {
        order: 'object',
        orderAttribute: false,
        widgetId: PANTRY_WIDGET_ID,
        listenerAttributes: [],
      });
      assert.deepEqual(await axeViolations(page), []);

      // Three honeys: the back end signs a new order (new order id), React renders the element with it.
      await page.getByLabel('Honey quantity').fill('3');
      const newOrderId = await waitUntil('the element to get the new order id', async () => {
        const id = await shop.element.getAttribute('order-id');
        return id !== firstOrderId ? id : undefined;
      });
      assert.match(newOrderId ?? '', /^PANTRY-/);
      // The same element, its frame reloaded with the new order: 2 x 6.40 + 3 x 8.90 + 2.80.
      assert.equal(await page.locator('svc-checkout').count(), 1);
      await frame.waitForPayAmount('42.30');

      await frame.payWith({ number: CARDS.visa });
      await frame.waitForStatus('Payment successful');

      // The page's log is filled by the element's event props (the page has no document listener).
      const completed = await shop.paymentCompleted();
      assert.equal(completed.paymentSucceeded, true);
      assert.equal(completed.merchantOrderId, newOrderId);
      await page
        .getByText('Thank you! Your order is paid; the shop has been notified.')
        .waitFor({ state: 'visible' });
      assert.deepEqual(await shop.events('checkoutError'), []);
      // Paid: the cart no longer changes.
      assert.equal(await page.getByLabel('Honey quantity').isDisabled(), true);

      const kept = await env.demo.merchant.waitForNotification(
        (n) => n.notification.id === completed.orderId,
      );
      const { notification } = kept;
      assert.equal(notification.status, 'PAID');
      assert.equal(notification.order_id, newOrderId);
      assert.equal(notification.total_amount, 42.3);
      assert.deepEqual(
        notification.items.map((item) => [item.order_item_id, item.quantity, item.type]),
        [
          ['tea', 2, 'UNKNOWN'],
          ['honey', 3, 'UNKNOWN'],
          [null, 1, 'SHIPPING'],
        ],
      );

      // A repeated or second notification would follow the first answer: give it time to come.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const ofThisPage = env.demo.merchant.notifications.filter(
        (n) => n.notification.order_id === firstOrderId || n.notification.order_id === newOrderId,
      );
      assert.equal(ofThisPage.length, 1, 'one notification, for the new order only');
      assert.equal(ofThisPage[0]!.deliveries, 1);
      assert.equal((await shop.events('paymentCompleted')).length, 1, 'onpaymentCompleted ran once');
      assert.deepEqual(await axeViolations(page), []);
    } finally {
      await shop.close();
    }
  });
});
