/**
 * What a customer meets besides an approved card, on the single-item page: declines, another card after a
 * decline, 3-D Secure both ways, a processing error followed by a retry, cancelling, and going back to the cart.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, ShopPage, waitUntil } from './support/shop-page.js';

const PAGE = '/single-item.html';

const env = demoInBrowser();

/** Opens the page, runs `steps`, and closes it whatever happens. */
async function onShopPage(steps: (shop: ShopPage) => Promise<void>): Promise<void> {
  const shop = await ShopPage.open(env.browser, env.demo.shopUrl, PAGE);
  try {
    await steps(shop);
  } finally {
    await shop.close();
  }
}

/** The notifications kept for a gateway order, once the one with `status` is there. */
async function notificationsOf(orderId: string, status: string) {
  await env.demo.merchant.waitForNotification(
    (n) => n.notification.id === orderId && n.notification.status === status,
  );
  return env.demo.merchant.notifications.filter((n) => n.notification.id === orderId);
}

describe('payment outcomes', () => {
  for (const { card, name, reason } of [
    { card: CARDS.declined, name: 'a declined card', reason: 'The card was declined' },
    {
      card: CARDS.insufficientFunds,
      name: 'a card without funds',
      reason: 'There are not enough funds on the card',
    },
  ]) {
    test(`${name} fails the payment with its reason, and the shop is told once`, async () => {
      await onShopPage(async (shop) => {
        await shop.frame.payWith({ number: card });
        await shop.frame.waitForStatus('Payment failed');
        await shop.frame.statusText(reason).waitFor();
        const completed = await shop.paymentCompleted();
        assert.equal(completed.paymentSucceeded, false);
        const kept = await notificationsOf(completed.orderId, 'FAILED');
        assert.deepEqual(
          kept.map((n) => [n.notification.status, n.notification.payment.status]),
          [['FAILED', 'FAILED']],
        );
      });
    });
  }

  test('a declined card, then another card in the same frame, pays the order: the shop hears both outcomes in order', async () => {
    await onShopPage(async (shop) => {
      await shop.frame.payWith({ number: CARDS.declined });
      await shop.frame.waitForStatus('Payment failed');
      assert.equal(await shop.element.getAttribute('state'), 'failed');
      const declined = await shop.paymentCompleted();
      assert.equal(declined.paymentSucceeded, false);

      await shop.frame.tryAnotherCard();
      assert.equal(await shop.element.getAttribute('state'), 'form');
      assert.equal(await shop.frame.cardNumber.inputValue(), '', 'the card fields start empty');
      await shop.frame.payWith({ number: CARDS.visa });
      await shop.frame.waitForStatus('Payment successful');
      const paid = await shop.paymentCompleted(2);
      assert.deepEqual(
        (await shop.events<{ orderId: string; paymentSucceeded: boolean }>('paymentCompleted')).map(
          (event) => [event.orderId, event.paymentSucceeded],
        ),
        [
          [declined.orderId, false],
          [declined.orderId, true],
        ],
        'paymentCompleted for each attempt, on the same order',
      );
      assert.equal(paid.orderId, declined.orderId);

      const kept = await notificationsOf(paid.orderId, 'PAID');
      assert.deepEqual(
        kept.map((n) => [n.notification.status, n.notification.payment.status]),
        [
          ['FAILED', 'FAILED'],
          ['PAID', 'SUCCEEDED'],
        ],
        'two verified notifications, FAILED then PAID',
      );
      assert.ok(kept[0]!.receivedAt <= kept[1]!.receivedAt);
    });
  });

  test('3-D Secure approved by the customer pays the order', async () => {
    await onShopPage(async (shop) => {
      await shop.frame.payWith({ number: CARDS.threeDSecure });
      await shop.frame.waitForChallenge();
      assert.equal(
        await shop.events('paymentCompleted').then((events) => events.length),
        0,
        'not before the answer',
      );
      await shop.frame.approveChallenge();
      await shop.frame.waitForStatus('Payment successful');
      const completed = await shop.paymentCompleted();
      assert.equal(completed.paymentSucceeded, true);
      assert.equal((await notificationsOf(completed.orderId, 'PAID')).length, 1);
    });
  });

  test('3-D Secure denied by the customer fails the order', async () => {
    await onShopPage(async (shop) => {
      await shop.frame.payWith({ number: CARDS.threeDSecure });
      await shop.frame.waitForChallenge();
      await shop.frame.denyChallenge();
      await shop.frame.waitForStatus('Payment failed');
      await shop.frame.statusText('The card issuer did not confirm the payment').waitFor();
      const completed = await shop.paymentCompleted();
      assert.equal(completed.paymentSucceeded, false);
      assert.equal((await notificationsOf(completed.orderId, 'FAILED')).length, 1);
    });
  });

  test('a processing error lets the customer retry, and the retry pays once', async () => {
    await onShopPage(async (shop) => {
      await shop.frame.payWith({ number: CARDS.processingError });
      await shop.frame.frame
        .getByText('The payment could not be processed; please try again.')
        .first()
        .waitFor();
      assert.equal(
        await shop.events('paymentCompleted').then((events) => events.length),
        0,
        'nothing final yet',
      );

      // The form stays, with the notice above its buttons: pay again with a good card.
      await shop.frame.payWith({ number: CARDS.visa });
      await shop.frame.waitForStatus('Payment successful');
      const completed = await shop.paymentCompleted();
      assert.equal(completed.paymentSucceeded, true);
      assert.equal((await shop.events('paymentCompleted')).length, 1);
      const kept = await notificationsOf(completed.orderId, 'PAID');
      assert.deepEqual(
        kept.map((n) => n.notification.status),
        ['PAID'],
      );
    });
  });

  test('back to the shop after a failure fires navigateBackToCart and goes to back-to-merchant-url', async () => {
    await onShopPage(async (shop) => {
      const heard: string[] = [];
      shop.page.on('console', (message) => heard.push(message.text()));
      const backUrl = await shop.element.getAttribute('back-to-merchant-url');
      assert.equal(backUrl, `${env.demo.shopUrl}/cart.html`);

      await shop.frame.payWith({ number: CARDS.declined });
      await shop.frame.waitForStatus('Payment failed');
      await Promise.all([shop.page.waitForURL(backUrl!), shop.frame.backToShop()]);

      assert.ok(
        heard.some((text) => text.startsWith('[svc-demo] navigateBackToCart')),
        'the event fired',
      );
      // The cart page lists what the checkout page logged, navigateBackToCart last.
      const earlier = shop.page.locator('#earlier-events li');
      await earlier.last().waitFor();
      assert.equal(await earlier.last().getAttribute('data-event'), 'navigateBackToCart');
    });
  });

  test('a page that prevents navigateBackToCart stays where it is', async () => {
    await onShopPage(async (shop) => {
      await shop.page.evaluate(() => {
        document.addEventListener('navigateBackToCart', (event) => event.preventDefault());
      });
      await shop.frame.payWith({ number: CARDS.declined });
      await shop.frame.waitForStatus('Payment failed');
      await shop.frame.backToShop();
      await shop.waitForEvent('navigateBackToCart');
      assert.equal(new URL(shop.page.url()).pathname, PAGE);
    });
  });

  test('cancelling tells the shop the order was cancelled', async () => {
    await onShopPage(async (shop) => {
      await shop.frame.fillCard({ number: CARDS.visa });
      await shop.frame.cancel();
      await shop.frame.waitForStatus('Payment cancelled');
      const merchantOrderId = await shop.element.getAttribute('order-id');
      const kept = await waitUntil('the CANCELLED notification', async () =>
        env.demo.merchant.notifications.find(
          (n) => n.notification.order_id === merchantOrderId && n.notification.status === 'CANCELLED',
        ),
      );
      assert.equal(kept.deliveries, 1);
      assert.equal(
        env.demo.merchant.notifications.filter((n) => n.notification.order_id === merchantOrderId).length,
        1,
        'no other notification for a cancelled order',
      );
    });
  });
});
