/**
 * What the payment frame downloads, as a real browser loads the demo pages: each kind of widget takes the
 * chunks that the size budget counts for its page load (bench/bundle-sizes.ts, test/bundle/size-budget.test.ts),
 * and the 3-D Secure step and the status screens come only once the customer pays.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, type CheckoutErrorDetail, ShopPage, waitUntil } from './support/shop-page.js';

const env = demoInBrowser();
const LANGUAGE_CHUNK = /^messages-[a-z]+\.js$/;
/** The content hash in a built name (vite.config.ts): `frame-<hash>.js` is the role `frame.js`. */
const CONTENT_HASH = /-[A-Za-z0-9_-]{8}(?=\.js$)/;

/**
 * The frame's assets that its document has fetched so far, by role (the file name without its content hash);
 * a language chunk (whichever language the page speaks) is named `texts`, once for each language fetched.
 */
async function frameAssets(shop: ShopPage): Promise<string[]> {
  const frame = await waitUntil('the frame document', async () =>
    shop.page.frames().find((candidate) => candidate.url().includes('/widget/frame/')),
  );
  const urls = await frame.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => entry.name),
  );
  const files = urls
    .map((url) => new URL(url).pathname)
    .filter((path) => path.startsWith('/widget/frame/assets/'))
    .map((path) => path.slice('/widget/frame/assets/'.length).replace(CONTENT_HASH, ''));
  return [...new Set(files)].map((file) => (LANGUAGE_CHUNK.test(file) ? 'texts' : file)).sort();
}

async function onShopPage(path: string, steps: (shop: ShopPage) => Promise<void>): Promise<void> {
  const shop = await ShopPage.open(env.browser, env.demo.shopUrl, path);
  try {
    await steps(shop);
  } finally {
    await shop.close();
  }
}

/**
 * The demo shop sets design tokens (demo/public/shop.css): its pages also load the appearance checks, which a
 * page that keeps the defaults never downloads (bench/bundle-sizes.ts, "on demand").
 */
const CARD_FORM_CHECKS = ['appearance.js', 'design-tokens.js'];
const FULL_CHECKOUT_CHECKS = ['checkout-appearance.js'];

describe('what the payment frame downloads', () => {
  for (const { kind, path, assets } of [
    { kind: 'a fixed-price widget', path: '/instant.html', assets: [...CARD_FORM_CHECKS, 'frame.js'] },
    { kind: 'a payment-option widget', path: '/single-item.html', assets: [...CARD_FORM_CHECKS, 'frame.js'] },
    {
      kind: 'a payment-option widget whose order has shipping options',
      path: '/order-json.html',
      assets: [...FULL_CHECKOUT_CHECKS, 'frame-checkout.js'],
    },
    {
      kind: 'the full checkout',
      path: '/full-checkout.html',
      assets: [...FULL_CHECKOUT_CHECKS, 'frame-checkout.js'],
    },
  ]) {
    test(`${kind} loads ${assets.join(', ')} until the customer acts`, async () => {
      await onShopPage(path, async (shop) => {
        await shop.frame.waitForForm();
        assert.deepEqual(await frameAssets(shop), assets);
      });
    });
  }

  test("the widget's configuration and the page language's texts come in the frame's page; another language loads its chunk", async () => {
    await onShopPage('/single-item.html', async (shop) => {
      await shop.frame.waitForForm();
      const frame = shop.page.frames().find((candidate) => candidate.url().includes('/widget/frame/'))!;
      const configRequests = await frame.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname.startsWith('/widget-api/v1/widgets/')),
      );
      assert.deepEqual(configRequests, []);
      assert.deepEqual(await frameAssets(shop), [...CARD_FORM_CHECKS, 'frame.js']);
      await shop.page.locator('svc-checkout').evaluate((element) => element.setAttribute('language', 'ru'));
      await waitUntil('the frame in Russian', async () =>
        (await frame.evaluate(() => document.documentElement.lang)) === 'ru' ? true : undefined,
      );
      assert.deepEqual(await frameAssets(shop), [...CARD_FORM_CHECKS, 'frame.js', 'texts']);
    });
  });

  test('the status screens load when the customer pays, the 3-D Secure step when a payment meets one', async () => {
    await onShopPage('/single-item.html', async (shop) => {
      await shop.frame.payWith({ number: CARDS.threeDSecure });
      await shop.frame.waitForChallenge();
      assert.deepEqual(
        await frameAssets(shop),
        [...CARD_FORM_CHECKS, 'challenge-step.js', 'frame.js', 'status-screen.js'].sort(),
      );
      await shop.frame.approveChallenge();
      await shop.frame.waitForStatus('Payment successful');
    });
  });

  test('a 3-D Secure step whose chunk did not load offers to retry, and the retry shows it', async () => {
    await onShopPage('/single-item.html', async (shop) => {
      const chunk = '**/widget/frame/assets/challenge-step-*.js';
      await shop.page.route(chunk, (route) => route.abort('connectionreset'));
      await shop.frame.payWith({ number: CARDS.threeDSecure });
      await shop.frame.statusText('Something went wrong').waitFor();
      await shop.page.unroute(chunk);
      await shop.frame.frame.getByRole('button', { name: 'Retry' }).click();
      await shop.frame.waitForChallenge();
      await shop.frame.approveChallenge();
      await shop.frame.waitForStatus('Payment successful');
    });
  });

  test('delivery fields whose chunk did not load leave no form that cannot be sent: the page is told', async () => {
    await onShopPage('/order-json.html', async (shop) => {
      await shop.frame.waitForForm();
      // As from an element that does not say its order has shipping options: the card form, which fetches them.
      await shop.page.route(/\/widget\/frame\/[^/?]+\?fields=1(&|$)/, (route) =>
        route.continue({ url: route.request().url().replace('fields=1', '') }),
      );
      await shop.page.route('**/widget/frame/assets/delivery-fields-*.js', (route) =>
        route.abort('connectionreset'),
      );
      await shop.goto('/order-json.html');
      const error = await shop.waitForEvent<CheckoutErrorDetail>('checkoutError');
      assert.equal(error.code, 'gateway_unreachable');
      assert.match(error.message, /could not load its fields/);
    });
  });
});
