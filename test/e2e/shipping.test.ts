/**
 * Shipping as the shopper meets it on the demo shop, in a real browser against the real sandbox: a pickup
 * point chosen and paid with no street address, and the frame's "Including VAT" equal to the verified
 * notification's `tax_amount` once a priced shipping option is chosen.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatMoney, localeFor, parseMinorUnits } from '../../src/core/index.js';
import { demoInBrowser } from './support/demo-env.js';
import { fillContactAndDelivery } from './support/demo-pages.js';
import { CARDS, ShopPage } from './support/shop-page.js';

const env = demoInBrowser();

/** A notification's amount as the English frame writes it. */
/** A notification's amount (a JSON number with at most 2 decimals) as the frame shows it. */
const asShown = (amount: number) => formatMoney(parseMinorUnits(amount), 'EUR', localeFor('en'));

/** Opens `path`, runs `steps`, and closes the page whatever happens. */
async function onShopPage(path: string, steps: (shop: ShopPage) => Promise<void>): Promise<void> {
  const shop = await ShopPage.open(env.browser, env.demo.shopUrl, path);
  try {
    await steps(shop);
  } finally {
    await shop.close();
  }
}

describe('shipping on the demo shop', () => {
  test('a pickup point is chosen, priced and paid without a street address', async () => {
    await onShopPage('/full-checkout.html', async (shop) => {
      const { frame } = shop;
      await frame.waitForForm();
      // The options show their labels; the pickup option says its price comes with the point.
      await frame.frame
        .getByRole('radio', { name: /^Pickup point Price calculated once you choose a pickup point$/ })
        .waitFor();
      await frame.chooseShipping('Pickup point');
      // A required select, not "(optional)", and no street address asked.
      await frame.pickupPoint.waitFor();
      assert.equal(await frame.pickupPoint.getAttribute('required'), '');
      assert.equal(
        (await frame.frame.locator('label[for="svc-delivery-pickup"]').textContent())?.trim(),
        'Pickup point',
      );
      assert.equal(await frame.frame.getByLabel('Street address').count(), 0);

      await fillContactAndDelivery(frame, {
        option: 'Pickup point',
        pickupPointId: 'riga-old-town',
        price: '2.49',
      });
      // Lamp 39.00, two bulbs at 3.50, the Old Town shop 2.49.
      await frame.waitForPayAmount('48.49');
      const vat = await frame.taxIncluded();
      await frame.payWith({ number: CARDS.visa });
      await frame.waitForStatus('Payment successful');

      const completed = await shop.paymentCompleted();
      const { notification } = await env.demo.merchant.waitForNotification(
        (n) => n.notification.id === completed.orderId,
      );
      assert.equal(notification.status, 'PAID');
      assert.equal(notification.total_amount, 48.49);
      assert.equal(notification.shipping?.type, 'PICKUP_POINT');
      assert.deepEqual(notification.shipping?.method, { id: 'pickup-point', name: 'Pickup point' });
      assert.deepEqual(notification.shipping?.pickup_point, {
        name: 'Old Town shop',
        comments: null,
        external_id: 'riga-old-town',
        service_hours: 'Mon-Fri 10-19, Sat 10-16',
      });
      // The point's own address, not the customer's (who gave none).
      assert.equal(notification.shipping?.address?.street, 'Audēju iela 16');
      assert.equal(vat, asShown(notification.tax_amount));
    });
  });

  test('the frame’s “Including VAT” is the notification’s tax_amount with a priced shipping option', async () => {
    await onShopPage('/order-json.html', async (shop) => {
      const { frame } = shop;
      await frame.waitForForm();
      await frame.chooseShipping('Express courier');
      // 3 notebooks at 12.00, a pen set at 4.50, express 6.90.
      await frame.waitForPayAmount('47.40');
      const vat = await frame.taxIncluded();
      await frame.payWith({ number: CARDS.mastercard });
      await frame.waitForStatus('Payment successful');

      const completed = await shop.paymentCompleted();
      const { notification } = await env.demo.merchant.waitForNotification(
        (n) => n.notification.id === completed.orderId,
      );
      // 6.25 and 0.78 for the items and 1.20 for express, all at the merchant's 21%.
      assert.equal(notification.tax_amount, 8.23);
      assert.equal(vat, asShown(notification.tax_amount));
      assert.deepEqual(notification.shipping?.method, { id: 'express', name: 'Express courier' });
      assert.equal(notification.items.at(-1)?.label, 'Express courier');
    });
  });
});
