/**
 * What the README's element examples must have done ("The element: `<svc-checkout>`", readme-element.test.ts):
 * the shop's signature of the first element example, the text it signs, the lazy start's server, and the
 * js examples driven in their pages as a customer would.
 */
import assert from 'node:assert/strict';
import {
  type OrderInput,
  orderSignatureInput,
  signOrder,
  verifyOrderSignature,
} from '../../../src/server/index.js';
import { type Checks, elementOrder, env, json, merchant, named } from './readme-run.js';
import { CARDS, PaymentFrame } from './shop-page.js';

export const ELEMENT_CHECKS: Checks = {
  // The v1-picker page's payment-methods-url is the payment-methods example's endpoint.
  runsFirst: ['keys', 'sandbox-config', 'payment-methods'],
  ts: {
    'sign-order': {
      exports: ['signature'],
      async check({ signature }) {
        const [tag] = /<svc-checkout\b[^>]*>/.exec(named('element-examples').code) ?? [];
        assert.ok(tag, 'the element-examples example has an element');
        const first = elementOrder(tag);
        assert.equal(
          signature,
          signOrder(first.order, env.keys!.privateKeyPem),
          `the sign-order example must sign exactly the attributes of the first element example:\n${first.tag}`,
        );
      },
    },
    'signature-input': {
      exports: ['text'],
      async check({ text }) {
        // The text the example's comment shows, written out here by hand: the given fields joined, the count
        // with three decimals; and the text of the first element example, which the sign-order example signs.
        const rest = 'enmainhttps://shop.example/cartA-100112.50EURTea2.000';
        const shown = `// \`\${widgetId}${rest}\``;
        assert.ok(named('signature-input').code.includes(shown), `the example shows ${shown}`);
        assert.equal(text, `${merchant().plain.id}${rest}`);
        const { order } = elementOrder(/<svc-checkout\b[^>]*>/.exec(named('element-examples').code)![0]);
        assert.equal(text, orderSignatureInput(order), 'the text of the first element example');
      },
    },
    'lazy-server': {
      async check() {
        const answer = await json(`${env.shopUrl}/checkout/order`, 'POST', {
          products: { tea: 2 },
          shipping: 'courier',
        });
        assert.equal(answer.status, 200, answer.text);
        const { order, signature } = answer.body as { order: OrderInput; signature: string };
        assert.equal(order.certificateName, 'main', 'the page sets certificate-name, which is signed');
        assert.equal(order.widgetId, merchant().plain.id);
        assert.ok(verifyOrderSignature(order, signature, env.keys!.publicKeyPem), 'the order verifies');
        assert.ok(
          order.shippingOptions?.every((option) => option.amount !== undefined),
          'a plain widget takes only priced shipping options',
        );
        const priced = await json(`${env.shopUrl}/checkout/order`, 'POST', {
          products: { tea: 1, caviar: 1 },
          shipping: 'courier',
        });
        assert.equal(priced.status, 400, 'an unknown product is refused');
      },
    },
  },
  /** What a named js example must have done, driven in its page as a customer would. */
  js: {
    async 'replace-order'(page) {
      // Tea 2 × 6.40, honey 8.90, Latvian Post 2.80, by the lazy-server example's prices.
      const element = page.locator('svc-checkout[order-id]').nth(1);
      await new PaymentFrame(element.frameLocator('iframe')).waitForPayAmount('24.50');
    },
    /** A declined card, "Back to the shop" (the page goes itself), another card, paid. */
    async events(page, calls) {
      const frame = new PaymentFrame(page.locator('svc-checkout').first().frameLocator('iframe'));
      await frame.payWith({ number: CARDS.declined });
      await frame.waitForStatus('Payment failed');
      const url = page.url();
      await frame.backToShop();
      assert.deepEqual(
        await calls(1),
        [['goTo', 'https://shop.example/cart']],
        'navigateBackToCart carries the URL',
      );
      assert.equal(page.url(), url, 'preventDefault() keeps the page');
      await frame.frame.getByRole('button', { name: 'Try another card' }).click();
      await frame.payWith({ number: CARDS.visa });
      await frame.waitForStatus('Payment successful');
      assert.deepEqual((await calls(2))[1], ['showThankYou', 'A-1001']);
    },
  },
};
