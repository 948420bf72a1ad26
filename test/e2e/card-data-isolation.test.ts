/**
 * Card data stays in the frame: a script on the shop's page that tries every way to see it (the DOM with its
 * shadow roots, the frame's document, events, messages posted to the window, storage, the URL, the console,
 * the page's own requests) finds nothing. And the widget works on a page under a strict
 * Content-Security-Policy.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { demoInBrowser } from './support/demo-env.js';
import { CARDS, ShopPage, waitUntil } from './support/shop-page.js';

const env = demoInBrowser();

/** What the customer types; each value is distinctive enough not to turn up by chance. */
const CARD = { number: CARDS.visa, expiry: '07/31', cvc: '737', holder: 'Quentin Spyholder' };
const SECRETS = [CARD.number, '4111 1111 1111 1111', CARD.expiry, CARD.holder];

// The in-page scripts are source text, not functions: the TypeScript loader would wrap nested functions
// in a helper (`__name`) that exists only in Node.

/**
 * Installed before any page script: records every message posted to the window and every event the
 * element fires or the page sees from typing, as a hostile or careless script on the shop's page could.
 */
const SPY = `(() => {
  const seen = [];
  window.__spy = seen;
  const record = (value) => {
    try { seen.push(typeof value === 'string' ? value : JSON.stringify(value)); } catch { seen.push(String(value)); }
  };
  window.addEventListener('message', (event) => record({ origin: event.origin, data: event.data }), true);
  for (const name of ['paymentCompleted', 'navigateBackToCart', 'checkoutError', 'input', 'change', 'keydown']) {
    document.addEventListener(name, (event) => record({ type: event.type, detail: event.detail }), true);
  }
})()`;

/** Everything the page's own scripts can read: `{texts, frameReadable}`. */
const HARVEST = `(() => {
  const texts = [...window.__spy];
  const frames = [];
  const walk = (root) => {
    for (const element of root.querySelectorAll('*')) {
      if (element.shadowRoot) {
        texts.push(element.shadowRoot.innerHTML);
        walk(element.shadowRoot);
      }
      if (element instanceof HTMLIFrameElement) frames.push(element);
      if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) texts.push(element.value);
      for (const attribute of element.attributes) texts.push(attribute.value);
    }
  };
  texts.push(document.documentElement.outerHTML);
  walk(document);
  for (const storage of [localStorage, sessionStorage]) {
    for (let index = 0; index < storage.length; index++) {
      const key = storage.key(index);
      texts.push(key, storage.getItem(key) ?? '');
    }
  }
  texts.push(location.href, document.cookie, document.title, String(history.state ?? ''));
  // The frame is on the gateway's origin: its document must be out of reach.
  let frameReadable = false;
  for (const frame of frames) {
    try {
      if (frame.contentDocument !== null) frameReadable = true;
      texts.push(frame.contentWindow.document.body.innerHTML);
      frameReadable = true;
    } catch {
      // SecurityError: as it should be.
    }
  }
  return { texts, frameReadable, frames: frames.length };
})()`;

interface Harvest {
  texts: string[];
  frameReadable: boolean;
  frames: number;
}

describe('card data stays in the frame', () => {
  for (const path of ['/single-item.html', '/full-checkout.html']) {
    test(`a script on ${path} finds no card data before, during or after the payment`, async () => {
      const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/index.html');
      const { page } = shop;
      const consoleTexts: string[] = [];
      const pageRequests: string[] = [];
      page.on('console', (message) => consoleTexts.push(message.text()));
      page.on('request', (request) => {
        if (request.frame() === page.mainFrame())
          pageRequests.push(`${request.url()} ${request.postData() ?? ''}`);
      });
      try {
        await page.addInitScript({ content: SPY });
        await shop.goto(path);
        if (path === '/full-checkout.html') {
          const { frame } = shop;
          await frame.waitForForm();
          await frame.fillContactIfEmpty('Phone', '+37120000000');
          await frame.chooseShipping('Latvian Post');
          await frame.fillDeliveryAddress({ street: 'Krasta iela 1', city: 'Riga', postalCode: 'LV-1019' });
        }
        await shop.frame.fillCard(CARD);

        const typed = await page.evaluate<Harvest>(HARVEST);
        assert.equal(typed.frames, 1, 'the spy found the frame');
        assert.equal(typed.frameReadable, false, "the frame's document is out of the page's reach");

        await shop.frame.agreeToTerms();
        await shop.frame.payButton().click();
        await shop.frame.waitForStatus('Payment successful');
        const paid = await page.evaluate<Harvest>(HARVEST);
        assert.ok(paid.texts.length > 10, 'the spy saw the page');
        assert.ok(
          paid.texts.some((text) => text.includes('paymentCompleted')),
          'the spy heard the events the element fired',
        );
        assert.ok(
          paid.texts.some((text) => text.includes(`"origin":"${env.demo.gatewayUrl}"`)),
          "the spy read the frame's messages to the page",
        );
        const orderId = await shop.element.getAttribute('order-id');
        assert.ok(orderId && paid.texts.some((text) => text.includes(orderId)), 'the spy read the DOM');

        const everything = [...typed.texts, ...paid.texts, ...consoleTexts, ...pageRequests].join('\n');
        for (const secret of SECRETS) {
          assert.equal(everything.includes(secret), false, `${secret} is not visible to the page`);
        }
      } finally {
        await shop.close();
      }
    });
  }
});

describe('strict Content-Security-Policy', () => {
  test('the widget takes a payment on a page with script-src self + gateway and frame-src gateway', async () => {
    const shop = await ShopPage.open(env.browser, env.demo.shopUrl, '/index.html');
    const { page } = shop;
    try {
      await page.addInitScript(() => {
        const violations: string[] = [];
        (window as unknown as { __violations: string[] }).__violations = violations;
        document.addEventListener('securitypolicyviolation', (event) =>
          violations.push(`${event.violatedDirective} ${event.blockedURI}`),
        );
      });
      const response = await page.goto(`${env.demo.shopUrl}/strict-csp.html`);
      const policy = response?.headers()['content-security-policy'] ?? '';
      assert.match(policy, new RegExp(`script-src 'self' ${env.demo.gatewayUrl}(;|$)`));
      assert.match(policy, new RegExp(`frame-src ${env.demo.gatewayUrl}(;|$)`));

      await shop.frame.payWith({ number: CARDS.visa });
      await shop.frame.waitForStatus('Payment successful');
      assert.equal((await shop.paymentCompleted()).paymentSucceeded, true);
      const violations = await page.evaluate(
        () => (window as unknown as { __violations: string[] }).__violations,
      );
      assert.deepEqual(violations, [], 'nothing the page or widget did was blocked');

      // The policy is in force, and the listener above hears it: an inline script is refused.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.__inlineRan = true';
        document.body.append(script);
      });
      const refused = await waitUntil('the inline script to be refused', async () => {
        const seen = await page.evaluate(
          () => (window as unknown as { __violations: string[] }).__violations,
        );
        return seen.length > 0 ? seen : undefined;
      });
      assert.match(refused[0]!, /^script-src/);
      assert.equal(await page.evaluate(() => 'inlineRan' in window || '__inlineRan' in window), false);
    } finally {
      await shop.close();
    }
  });
});
