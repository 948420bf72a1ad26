/**
 * The demo shop's own pages pass axe, with the widget loaded and after a payment. The frame's documents are
 * the frame's tests' business (they run axe inside it); here axe sees the shop's document and the element.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { axeViolations } from './support/axe.js';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, ShopPage } from './support/shop-page.js';

const env = demoInBrowser();

const PAGES_WITH_WIDGET = [
  '/instant.html',
  '/single-item.html',
  '/order-json.html',
  '/full-checkout.html',
  '/script-tag.html',
  '/script-tag-classic.html',
  '/strict-csp.html',
];

describe('the demo pages are accessible', () => {
  for (const path of [
    '/index.html',
    '/notifications.html',
    '/cart.html',
    '/lazy.html',
    '/v1-checkout.html',
    '/back-office.html',
    '/tea-club.html',
  ]) {
    test(path, async () => {
      const shop = await ShopPage.open(env.browser, env.demo.shopUrl, path);
      try {
        assert.deepEqual(await axeViolations(shop.page), []);
      } finally {
        await shop.close();
      }
    });
  }

  for (const path of PAGES_WITH_WIDGET) {
    test(`${path} with the payment form`, async () => {
      const shop = await ShopPage.open(env.browser, env.demo.shopUrl, path);
      try {
        await shop.frame.waitForForm();
        assert.deepEqual(await axeViolations(shop.page), []);
      } finally {
        await shop.close();
      }
    });
  }

  test('/single-item.html after a payment, with its event log filled', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/single-item.html');
    try {
      await shop.frame.payWith({ number: CARDS.visa });
      await shop.frame.waitForStatus('Payment successful');
      await shop.paymentCompleted();
      assert.deepEqual(await axeViolations(shop.page), []);
    } finally {
      await shop.close();
    }
  });
});
