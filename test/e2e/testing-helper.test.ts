/**
 * svc-checkout/testing's payInCheckout, as a merchant's Playwright test uses it: Chromium, the sandbox on its
 * own origin, and a shop on another, whose pages carry signed `<svc-checkout>` elements: the card widget and
 * the full checkout, paid, declined (and paid after), 3-D Secure denied, an element two shadow roots deep in
 * Latvian, a page with two elements, and an element that shows a setup error. Run after `npm run build`.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  DEMO_CERTIFICATE_NAME,
  DEMO_WIDGET_IDS,
  type Sandbox,
  startSandbox,
} from '../../src/sandbox/index.js';
import { type OrderInput, signOrder } from '../../src/server/index.js';
import { CheckoutTestError, payInCheckout, TEST_CARD_NUMBERS } from '../../src/testing/index.js';
import { launchBrowser } from './support/browser.js';
import { waitUntil } from './support/shop-page.js';

let sandbox: Sandbox;
let shop: Server;
let shopUrl: string;
let dataDir: string;
let browser: Browser;
/** The page each path serves. */
const pages = new Map<string, string>();

before(async () => {
  shop = createServer((request, response) => {
    const page = pages.get(request.url ?? '');
    // Anything else (the sandbox's notifications) is taken.
    response.writeHead(200, { 'content-type': page ? 'text/html; charset=utf-8' : 'text/plain' });
    response.end(page ?? 'OK');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  // Another origin than the sandbox's (127.0.0.1): the frame is cross-origin, as in production.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'svc-testing-helper-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir, demoShopOrigin: shopUrl });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** A signed `<svc-checkout>` of the card widget (one item) or the full checkout (an order JSON with shipping). */
function checkoutTag(kind: 'card' | 'full', extra: { id?: string; language?: 'lv' } = {}): string {
  const orderId = `TEST-${crypto.randomUUID()}`;
  const common = {
    widgetId: kind === 'card' ? DEMO_WIDGET_IDS.checkout : DEMO_WIDGET_IDS.fullCheckout,
    ...(extra.language && { language: extra.language }),
    certificateName: DEMO_CERTIFICATE_NAME,
    orderId,
  };
  const order =
    kind === 'card'
      ? { items: [{ amount: '12.50', currency: 'EUR', label: 'Green tea' }] }
      : {
          items: [{ amount: '39.00', label: 'Desk lamp', orderItemId: 'lamp' }],
          shippingOptions: [{ id: 'latvian-post', amount: '2.80', label: 'Latvian Post' }],
        };
  const signature = signOrder({ ...common, ...order } as OrderInput, sandbox.demoMerchant!.privateKeyPem);
  const attributes: Record<string, string> = {
    ...(extra.id && { id: extra.id }),
    'widget-id': common.widgetId,
    ...(extra.language && { language: extra.language }),
    'certificate-name': DEMO_CERTIFICATE_NAME,
    'order-id': orderId,
    ...(kind === 'card'
      ? { amount: '12.50', currency: 'EUR', label: 'Green tea' }
      : { order: JSON.stringify(order) }),
    signature,
  };
  const written = Object.entries(attributes).map(([name, value]) => `${name}="${escapeAttribute(value)}"`);
  return `<svc-checkout ${written.join(' ')}></svc-checkout>`;
}

/**
 * Serves a shop page with this body (the element's script from the sandbox), opens it in a fresh context, and
 * runs `steps` with the page and the console errors it logs.
 */
async function onShop<T>(
  body: string,
  steps: (page: Page, consoleErrors: string[]) => Promise<T>,
): Promise<T> {
  const path = `/${crypto.randomUUID()}.html`;
  pages.set(
    path,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script type="module" src="${sandbox.url}/widget/svc-checkout.js"></script></head>
<body><main>${body}</main></body></html>`,
  );
  const page = await (await browser.newContext()).newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  try {
    await page.goto(`${shopUrl}${path}`);
    return await steps(page, consoleErrors);
  } finally {
    await page.context().close();
  }
}

describe('payInCheckout', () => {
  test('pays the card widget with the approved card by default', async () => {
    const outcome = await onShop(checkoutTag('card'), (page) => payInCheckout(page));
    assert.equal(outcome.outcome, 'paid');
    assert.match(outcome.merchantOrderId ?? '', /^TEST-/);
    assert.ok(outcome.orderId);
  });

  test('a declined card fails with the gateway’s code; the next call tries another card on the same order', async () => {
    await onShop(checkoutTag('card'), async (page) => {
      const declined = await payInCheckout(page, { card: { number: TEST_CARD_NUMBERS.declined } });
      assert.deepEqual(declined.outcome === 'failed' && [declined.code, declined.retryable], [
        'card_declined',
        false,
      ]);
      const paid = await payInCheckout(page);
      assert.equal(paid.outcome, 'paid');
      assert.equal(paid.orderId, declined.orderId, 'the same order, paid with another card');
    });
  });

  test('answers the 3-D Secure step: deny gives threeDSecureDenied, approve pays', async () => {
    const card = { number: TEST_CARD_NUMBERS.threeDSecure };
    const denied = await onShop(checkoutTag('card'), (page) =>
      payInCheckout(page, { card, threeDSecure: 'deny' }),
    );
    assert.equal(denied.outcome, 'threeDSecureDenied');
    const approved = await onShop(checkoutTag('card'), (page) => payInCheckout(page, { card }));
    assert.equal(approved.outcome, 'paid');
  });

  test('fills the full checkout’s contact and delivery fields, chooses the shipping, and pays', async () => {
    await onShop(checkoutTag('full'), async (page) => {
      const outcome = await payInCheckout(page, {
        customer: {
          firstName: 'Anna',
          lastName: 'Bērziņa',
          email: 'anna@example.com',
          phone: '+37120000000',
        },
        delivery: {
          option: 'Latvian Post',
          address: { street: 'Brīvības iela 1', city: 'Rīga', postalCode: 'LV-1010' },
        },
      });
      assert.equal(outcome.outcome, 'paid');
    });
  });

  test('finds the element two shadow roots deep, in Latvian', async () => {
    const tag = checkoutTag('card', { language: 'lv' });
    const body = `<shop-cart></shop-cart>
<script type="module">
  const nest = (name, html) => customElements.define(name, class extends HTMLElement {
    connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = html; }
  });
  nest('shop-panel', ${JSON.stringify(tag)});
  nest('shop-cart', '<section><shop-panel></shop-panel></section>');
</script>`;
    const outcome = await onShop(body, async (page) => {
      assert.equal(await page.locator('main > svc-checkout').count(), 0, 'not in the light DOM');
      return payInCheckout(page);
    });
    assert.equal(outcome.outcome, 'paid');
  });

  test('with two elements on the page, asks which, and pays the one named', async () => {
    const body = `${checkoutTag('card', { id: 'first' })}${checkoutTag('card', { id: 'second' })}`;
    await onShop(body, async (page) => {
      await assert.rejects(payInCheckout(page, { timeout: 5000 }), (error: unknown) => {
        assert.ok(error instanceof CheckoutTestError);
        assert.match(
          error.message,
          /2 <svc-checkout> elements match in the page; name the one to pay with the element option/,
        );
        return true;
      });
      const second = await payInCheckout(page, { element: page.locator('#second') });
      const first = await payInCheckout(page, { element: '#first' });
      assert.equal(second.outcome, 'paid');
      assert.equal(first.outcome, 'paid');
      assert.notEqual(first.orderId, second.orderId);
    });
  });

  test('an element that cannot take a payment: the helper says so, the shopper reads shopper words, the console the fix', async () => {
    const tag = checkoutTag('card').replace(/amount="12\.50"/, 'amount="12.40"');
    await onShop(tag, async (page, consoleErrors) => {
      await assert.rejects(payInCheckout(page, { timeout: 5000 }), (error: unknown) => {
        assert.ok(error instanceof CheckoutTestError);
        assert.match(error.message, /shows an error instead of the payment form \(state="error"\)/);
        return true;
      });
      const alert = page.locator('svc-checkout [role="alert"]');
      assert.equal(
        (await alert.textContent())?.trim(),
        'Payment is not availableThis shop cannot take payments right now. Please try again later.',
      );
      // The line follows the event by a moment: its fix sentences load on demand.
      const logged = await waitUntil('the console line of signature_invalid', async () =>
        consoleErrors.find((text) => text.startsWith('<svc-checkout> signature_invalid')),
      ).catch(() => consoleErrors.join('\n'));
      assert.match(logged, /\[attribute: signature\]: .* Sign exactly the values the page gives/);
    });
  });
});
