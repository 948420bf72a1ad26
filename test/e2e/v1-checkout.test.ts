/**
 * The v1 path end to end on the demo shop and the real sandbox: the back end creates a Purchase of its own
 * cart, `<svc-checkout>` in v1 mode lists the methods through the shop's cached endpoint, the customer picks
 * a bank or a card and lands on the gateway's hosted page with it preselected, pays, and comes back to the
 * shop; the back end receives the success callback and the webhook's `purchase.created` and `purchase.paid`,
 * each once, in order, verified. Then the back end alone, over HTTP: what it refuses, and a repeated delivery.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type CreatedPurchase, V1_PATHS } from '../../demo/merchant/v1-shop.js';
import { createDemoMerchantApp } from '../../demo/server/demo-merchant.js';
import { DEMO_V1_BRAND_ID } from '../../src/sandbox/index.js';
import { generateMerchantKeyPair, signBody } from '../../src/server/index.js';
import { axeViolations } from './support/axe.js';
import { demoInBrowser } from './support/demo-env.js';
import { request } from './support/merchant-server.js';
import { CARDS } from './support/shop-page.js';
import { payOnHostedPage, v1Demo } from './support/v1-demo.js';
import { type HostedCheckoutPage, V1CheckoutPage, V1ResultPage } from './support/v1-pages.js';

const env = demoInBrowser();
const { gateway, backEnd, assertDeliveredOnce } = v1Demo(env);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The cart of demo/merchant/v1-cart.ts: two towels at 12.50 and a mug at 9.90. */
const CART_TOTAL = 3490;

/**
 * The back end received the success callback and the webhook's `purchase.created` then `purchase.paid`, each
 * once, verified (only verified deliveries are kept), and answered each delivery 200 at its first attempt.
 */
async function assertReceivedOnceInOrder(purchase: CreatedPurchase, paymentMethod: string): Promise<void> {
  const v1 = backEnd();
  const id = purchase.purchaseId;
  await v1.waitForEvent((event) => event.objectId === id && event.source === 'success_callback');
  await v1.waitForEvent(
    (event) => event.objectId === id && event.source === 'webhook' && event.eventType === 'purchase.paid',
  );
  // A repeat would follow a wrong answer; give it time to show up.
  await sleep(500);
  const events = v1.events.filter((event) => event.objectId === id);
  const webhooks = events.filter((event) => event.source === 'webhook');
  assert.deepEqual(
    webhooks.map((event) => [event.eventType, event.status, event.deliveries]),
    [
      ['purchase.created', 'created', 1],
      ['purchase.paid', 'paid', 1],
    ],
  );
  assert.ok(webhooks[0]!.sequence < webhooks[1]!.sequence, 'purchase.created arrived before purchase.paid');
  const callbacks = events.filter((event) => event.source === 'success_callback');
  assert.deepEqual(
    callbacks.map((event) => [event.eventType, event.status, event.deliveries]),
    [['purchase.paid', 'paid', 1]],
  );
  for (const event of events) assert.equal(event.reference, purchase.reference);
  for (const event of [webhooks[1]!, callbacks[0]!]) assert.equal(event.paymentMethod, paymentMethod);
  assert.equal(v1.order(purchase.reference)?.status, 'paid');

  await assertDeliveredOnce(id, ['purchase.created', 'purchase.paid']);
}

interface MethodCase {
  title: string;
  /** Picks the method in `<svc-checkout>`. */
  choose(shop: V1CheckoutPage): Promise<void>;
  /** The method the element sends as `preferred`. */
  preferred: string;
  /** The hosted page's radio button that the preselection checks (`#method-<value>`). */
  hostedChoice: string;
  /** Pays on the hosted page. */
  pay(hosted: HostedCheckoutPage): Promise<void>;
  /** The method of the paying attempt, as the events report it. */
  paidWith: string;
}

const METHODS: readonly MethodCase[] = [
  {
    title: 'a Latvian bank (swedbank_lv_pis)',
    async choose(shop) {
      // country="lv": the bank methods show Latvia's banks first.
      assert.equal(await shop.countrySelect.locator('option:checked').textContent(), 'Latvia');
      await shop.method('Swedbank').check();
    },
    preferred: 'swedbank_lv_pis',
    hostedChoice: 'swedbank_lv_pis',
    async pay(hosted) {
      await hosted.pay();
      // The test bank's confirmation step.
      await hosted.approveStep();
    },
    paidWith: 'swedbank_lv_pis',
  },
  {
    title: 'a card (Visa)',
    async choose(shop) {
      await shop.cardChoice.check();
    },
    preferred: 'visa',
    // Card methods are one choice on the hosted page too.
    hostedChoice: 'card',
    async pay(hosted) {
      await hosted.payWithCard({ number: CARDS.visa });
    },
    paidWith: 'visa',
  },
];

describe('v1 checkout in the browser', () => {
  for (const method of METHODS) {
    test(`pick ${method.title}, pay on the hosted page, come back; callback and webhooks once each, in order`, async () => {
      const refusedBefore = backEnd().refused.length;
      const shop = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
      try {
        const purchase = await shop.startCheckout();
        assert.equal(purchase.total, CART_TOTAL);
        assert.ok(purchase.checkoutUrl.startsWith(`${env.demo.gatewayUrl}/checkout/`), purchase.checkoutUrl);
        assert.deepEqual(await axeViolations(shop.page), [], 'the picker passes axe');

        await method.choose(shop);
        const hosted = await shop.confirm();

        const expectedUrl = new URL(purchase.checkoutUrl);
        expectedUrl.searchParams.set('preferred', method.preferred);
        assert.equal(shop.page.url(), expectedUrl.href);
        assert.deepEqual(shop.navigations, [{ method: method.preferred, url: expectedUrl.href }]);
        assert.equal(hosted.preferred(), method.preferred);
        assert.equal(await hosted.choice(method.hostedChoice).isChecked(), true, 'the method is preselected');

        await method.pay(hosted);
        const expectedReturn = `${env.demo.shopUrl}/v1-success.html?reference=${purchase.reference}`;
        await shop.page.waitForURL(expectedReturn);

        const result = new V1ResultPage(shop.page);
        await result.waitForStatus(/is paid: the gateway's success callback confirmed it/);
        await assertReceivedOnceInOrder(purchase, method.paidWith);
        // The page lists what the back end received, in the order it arrived (it updates live).
        await shop.page.locator('#received tbody tr').nth(2).waitFor();
        const rows = await result.received();
        assert.equal(rows.length, 3);
        assert.deepEqual(rows[0]!.event, 'purchase.created');
        assert.deepEqual(
          rows
            .slice(1)
            .map((row) => `${row.source} ${row.event}`)
            .sort(),
          ['success_callback purchase.paid', 'webhook purchase.paid'],
        );
        assert.deepEqual(await axeViolations(shop.page), [], 'the success page passes axe');
        assert.equal(backEnd().refused.length, refusedBefore, 'no delivery failed verification');
      } finally {
        await shop.page.context().close();
      }
    });
  }

  test('a declined card lands on the failure page; no success callback, a payment_failure webhook', async () => {
    const shop = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    try {
      const purchase = await shop.startCheckout();
      await shop.cardChoice.check();
      const hosted = await shop.confirm();
      await hosted.payWithCard({ number: CARDS.declined });
      await shop.page.waitForURL(`${env.demo.shopUrl}/v1-failure.html?reference=${purchase.reference}`);
      const result = new V1ResultPage(shop.page);
      await result.waitForStatus(/is not paid/);
      // The Purchase can still be paid: the page leads back to its checkout URL.
      assert.equal(
        await shop.page.getByRole('link', { name: 'Try to pay again' }).getAttribute('href'),
        purchase.checkoutUrl,
      );
      const failure = await backEnd().waitForEvent(
        (event) => event.objectId === purchase.purchaseId && event.eventType === 'purchase.payment_failure',
      );
      assert.equal(failure.source, 'webhook');
      assert.equal(
        backEnd().events.some(
          (event) => event.objectId === purchase.purchaseId && event.source === 'success_callback',
        ),
        false,
      );
      assert.deepEqual(await axeViolations(shop.page), [], 'the failure page passes axe');
    } finally {
      await shop.page.context().close();
    }
  });

  test("the hosted page's way back (cancel_redirect) leads to the cart, which says the order is not paid", async () => {
    const shop = await V1CheckoutPage.open(env.browser, env.demo.shopUrl);
    try {
      const purchase = await shop.startCheckout();
      await shop.method('SEB').check();
      const hosted = await shop.confirm();
      assert.equal(await hosted.choice('seb_lv_pis').isChecked(), true);
      await hosted.page.getByRole('link', { name: 'Back to the shop' }).click();
      await shop.page.waitForURL(`${env.demo.shopUrl}/v1-checkout.html?cancelled=${purchase.reference}`);
      await shop.page
        .getByRole('status')
        .filter({ hasText: `order ${purchase.reference} is not paid` })
        .waitFor();
      assert.equal(backEnd().order(purchase.reference)?.status, 'created');
    } finally {
      await shop.page.context().close();
    }
  });

  test('the notifications page lists the v1 events in the order they arrived', async () => {
    const page = await (await env.browser.newContext()).newPage();
    try {
      await page.goto(`${env.demo.shopUrl}/notifications.html`);
      const rows = page.locator('#v1-events tbody tr');
      await rows.nth(backEnd().events.length - 1).waitFor();
      const shown = await rows.evaluateAll((list) =>
        list.map(
          (row) => `${(row as HTMLElement).dataset['source']} ${(row as HTMLElement).dataset['event']}`,
        ),
      );
      assert.deepEqual(
        shown,
        backEnd().events.map((event) => `${event.source} ${event.eventType}`),
      );
      assert.deepEqual(await axeViolations(page), []);
    } finally {
      await page.context().close();
    }
  });
});

describe('v1 back end over HTTP', () => {
  const url = (path: string) => `${env.demo.shopUrl}${path}`;

  test('serves the payment methods through the cache, with the brand and key from the server', async () => {
    const first = await request(url(`${V1_PATHS.paymentMethods}?language=en`), 'GET');
    assert.equal(first.status, 200);
    assert.ok((first.body['available_payment_methods'] as string[]).includes('swedbank_lv_pis'));
    // Again within the minute: the gateway would answer 429 to a second call, the cache answers.
    const second = await request(url(`${V1_PATHS.paymentMethods}?language=en`), 'GET');
    assert.equal(second.status, 200);
    assert.deepEqual(second.body, first.body);
    const brand = await request(url(`${V1_PATHS.paymentMethods}?brand_id=${DEMO_V1_BRAND_ID}`), 'GET');
    assert.equal(brand.status, 400);
    assert.equal(brand.body['parameter'], 'brand_id');
  });

  test('creates Purchases of its own cart only, with the redirects and callback leading back to the shop', async () => {
    const priced = await request(url(V1_PATHS.purchase), 'POST', { products: [{ name: 'Mug', price: 1 }] });
    assert.equal(priced.status, 400);
    assert.equal(priced.body['error'], 'invalid_request');

    const created = await request(url(V1_PATHS.purchase), 'POST');
    assert.equal(created.status, 201);
    const { reference, purchaseId } = created.body as unknown as CreatedPurchase;
    const purchase = await gateway().purchases.get(purchaseId);
    assert.equal(purchase.reference, reference);
    assert.equal(purchase.purchase.total, CART_TOTAL);
    assert.deepEqual(
      purchase.purchase.products.map((product) => [product.name, product.price, product.quantity]),
      [
        ['Linen tea towel', 1250, '2.0000'],
        ['Stoneware mug', 990, '1.0000'],
      ],
    );
    assert.equal(purchase.success_callback, url(V1_PATHS.successCallback));
    assert.equal(purchase.success_redirect, url(`/v1-success.html?reference=${reference}`));
    assert.equal(purchase.failure_redirect, url(`/v1-failure.html?reference=${reference}`));
    assert.equal(purchase.cancel_redirect, url(`/v1-checkout.html?cancelled=${reference}`));
  });

  test('registered one webhook for all events, and a restarted back end reuses it', async () => {
    const callback = url(V1_PATHS.webhooks);
    const mine = async () =>
      (await gateway().webhooks.list().toArray()).filter((webhook) => webhook.callback === callback);
    const [registered, ...others] = await mine();
    assert.ok(registered, 'the shop registered its webhook at start');
    assert.deepEqual(others, []);
    assert.equal(registered.all_events, true);

    // A copy left by an earlier run, then a restart on the same gateway: one webhook remains, the first.
    await gateway().webhooks.create({ title: 'left over', callback, all_events: true });
    const restarted = createDemoMerchantApp({
      privateKeyPem: env.demo.sandbox.demoMerchant!.privateKeyPem,
      serviceCertificatePem: env.demo.sandbox.serviceCertificatePem,
      gatewayUrl: env.demo.gatewayUrl,
      shopUrl: env.demo.shopUrl,
    });
    try {
      const setup = await restarted.ready();
      assert.equal(setup?.webhook.id, registered.id);
      assert.deepEqual(
        (await mine()).map((webhook) => webhook.id),
        [registered.id],
      );
    } finally {
      restarted.close();
    }
  });

  test('refuses unsigned and forged callbacks and webhooks with 401 and keeps nothing of them', async () => {
    const v1 = backEnd();
    const kept = v1.events.length;
    const refused = v1.refused.length;
    const body = JSON.stringify({ id: 'forged-1', event_type: 'purchase.paid', status: 'paid' });
    const forger = await generateMerchantKeyPair();
    const forged = {
      'content-type': 'application/json',
      'x-signature': signBody(body, forger.privateKeyPem),
    };
    for (const path of [V1_PATHS.successCallback, V1_PATHS.webhooks]) {
      const unsigned = await request(url(path), 'POST', body);
      assert.equal(unsigned.status, 401, path);
      assert.equal(unsigned.body['error'], 'signature_missing');
      const wrong = await request(url(path), 'POST', body, forged);
      assert.equal(wrong.status, 401, path);
      assert.equal(wrong.body['error'], 'signature_invalid');
    }
    assert.equal(v1.events.length, kept);
    assert.deepEqual(
      v1.refused.slice(refused).map((entry) => `${entry.source} ${entry.status} ${entry.code}`),
      [
        'success_callback 401 signature_missing',
        'success_callback 401 signature_invalid',
        'webhook 401 signature_missing',
        'webhook 401 signature_invalid',
      ],
    );
  });

  test('answers a repeated success callback 200 and counts it, without keeping it twice', async () => {
    const created = (await request(url(V1_PATHS.purchase), 'POST')).body as unknown as CreatedPurchase;
    await payOnHostedPage(created, CARDS.mastercard);
    const v1 = backEnd();
    const first = await v1.waitForEvent(
      (event) => event.objectId === created.purchaseId && event.source === 'success_callback',
    );

    // The same event again, signed with the demo merchant's company key, as the gateway repeats a delivery.
    const companyKeyPem = await readFile(
      join(env.demo.dataDir, 'company-keys', 'merchant-demo-merchant.pem'),
      'utf8',
    );
    const repeat = JSON.stringify({
      ...(await gateway().purchases.get(created.purchaseId)),
      event_type: 'purchase.paid',
    });
    const answer = await request(url(V1_PATHS.successCallback), 'POST', repeat, {
      'content-type': 'application/json',
      'x-signature': signBody(repeat, companyKeyPem),
    });
    assert.equal(answer.status, 200, 'a repeat is answered 200 too, or the gateway would retry it');
    const callbacks = v1.events.filter(
      (event) => event.objectId === created.purchaseId && event.source === 'success_callback',
    );
    assert.equal(callbacks.length, 1);
    assert.equal(callbacks[0], first);
    assert.equal(first.deliveries, 2);
  });
});
