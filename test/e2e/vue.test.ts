/**
 * The README's Vue 3 example (its `vue` block, run as written) in Chromium against the sandbox: Vue's build
 * with the template compiler in the browser, `svc-checkout` from the gateway's script (the same element
 * `import 'svc-checkout'` defines) by an import map, and the lazy example's `/checkout/order` endpoint on the
 * shop. The element gets the order as its property, the form shows, the order is paid, and the
 * `@paymentCompleted` handler runs once. Also the same template compiled as a `.vue` file's
 * (vue/compiler-sfc, Vue's own), an in-DOM template, and a server render (vue/server-renderer) of the
 * attributes that checkoutElementAttributes gives. Run after `npm run build:browser`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { parseFragment } from 'parse5';
import { createSSRApp } from 'vue';
import { compileTemplate } from 'vue/compiler-sfc';
import { renderToString } from 'vue/server-renderer';
import { DEMO_CERTIFICATE_NAME, DEMO_WIDGET_IDS } from '../../src/sandbox/index.js';
import { checkoutElementAttributes, type OrderInput, signOrder } from '../../src/server/index.js';
import { payInCheckout } from '../../src/testing/index.js';
import { type OnePageShop, startOnePageShop } from './support/one-page-shop.js';
import { readExamples } from './support/readme-examples.js';
import { waitUntil } from './support/shop-page.js';

const readmeName = 'README.md';
const vueExamples = readExamples(
  readFileSync(new URL(`../../${readmeName}`, import.meta.url), 'utf8'),
).examples.filter((example) => example.kind === 'vue');
/** Vue's ES module build with the template compiler, as a page without a build step loads it. */
const vueBuild = createRequire(import.meta.url).resolve('vue/dist/vue.esm-browser.js');

let shop: OnePageShop;
/** The orders the shop signed, by merchant order id. */
const signed = new Map<string, OrderInput>();

before(async () => {
  shop = await startOnePageShop();
  shop.files.set('/vue.js', { type: 'text/javascript', body: readFileSync(vueBuild, 'utf8') });
  // The lazy example's endpoint: the page names products and a shipping option, the shop prices and signs.
  shop.routes.set('POST /checkout/order', (body, response) => {
    const { products } = JSON.parse(body) as { products: { tea: number } };
    const order = {
      widgetId: DEMO_WIDGET_IDS.fullCheckout,
      certificateName: DEMO_CERTIFICATE_NAME,
      orderId: `A-${crypto.randomUUID()}`,
      items: [{ amount: '6.40', label: 'Tea, 100 g', orderItemId: 'tea', count: products.tea }],
      shippingOptions: [{ id: 'courier', title: 'Courier', amount: '4.99' }],
    };
    signed.set(order.orderId, order);
    const signature = signOrder(order, shop.sandbox.demoMerchant!.privateKeyPem);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ order, signature }));
  });
});

after(() => shop?.close());

/** A page that runs the example as its entry module, its `uses=` recording their calls. */
function pageOf(uses: string[]): string {
  const imports = { vue: '/vue.js', 'svc-checkout': `${shop.sandbox.url}/widget/svc-checkout.js` };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vue shop</title>
<script type="importmap">${JSON.stringify({ imports })}</script>
<script>window.calls = []; for (const name of ${JSON.stringify(uses)}) window[name] = (...args) => calls.push([name, ...args]);</script>
<script type="module" src="/app.js"></script></head>
<body><main><h1>Checkout</h1><div id="checkout"></div></main></body></html>`;
}

describe(`${readmeName}: the Vue 3 example`, () => {
  test('there is one', () => assert.equal(vueExamples.length, 1));

  test('rendered on a server: v-bind of checkoutElementAttributes writes them as signed, a .prop binding nothing', async () => {
    const attributes = checkoutElementAttributes({
      order: {
        widgetId: DEMO_WIDGET_IDS.checkout,
        orderId: 'A-1 "<b>"',
        items: [{ amount: '1.00', label: 'Tea "Earl Grey" & <milk> \u2028' }],
      },
      privateKeyPem: shop.sandbox.demoMerchant!.privateKeyPem,
    });
    const app = createSSRApp({
      setup: () => ({ attributes, order: { items: [] } }),
      template: `<svc-checkout v-bind="attributes"></svc-checkout><svc-checkout :order.prop="order"></svc-checkout>`,
    });
    app.config.compilerOptions.isCustomElement = (tag) => tag === 'svc-checkout';
    const html = await renderToString(app);
    // A fragment of two elements, between Vue's hydration comments.
    const [bound, prop] = (
      parseFragment(html).childNodes as unknown as Array<{
        nodeName: string;
        attrs: Array<{ name: string; value: string }>;
      }>
    ).filter((node) => node.nodeName === 'svc-checkout');
    assert.deepEqual(Object.fromEntries(bound!.attrs.map(({ name, value }) => [name, value])), attributes);
    assert.deepEqual(prop!.attrs, []);
  });

  test('its template compiled as in a .vue file (Vite’s vue plugin passes compilerOptions to compileTemplate): the element, its order property, paymentCompleted as written', () => {
    const template = /template: `([^`]*)`/.exec(vueExamples[0]?.code ?? '')?.[1];
    assert.ok(template, 'the example has a template string');
    const compile = (isCustomElement?: (tag: string) => boolean) =>
      compileTemplate({
        source: template,
        filename: 'Checkout.vue',
        id: 'checkout',
        compilerOptions: isCustomElement ? { isCustomElement } : {},
      });
    const asElement = compile((tag) => tag === 'svc-checkout');
    assert.deepEqual(asElement.errors, []);
    // The element, its order set as the property, and the event listened to by its name as written.
    assert.match(asElement.code, /createElementBlock\("svc-checkout"/);
    assert.match(asElement.code, /"\.order": /);
    assert.match(asElement.code, /"on:paymentCompleted": /);
    // Without isCustomElement: a component Vue cannot resolve, with a listener of `payment-completed`.
    const asComponent = compile();
    assert.match(asComponent.code, /resolveComponent\("svc-checkout"\)/);
    assert.match(asComponent.code, /onPaymentCompleted: /);
  });

  for (const example of vueExamples) {
    test(`${readmeName}:${example.line} pays, and its paymentCompleted handler runs once`, async () => {
      shop.files.set('/app.js', {
        type: 'text/javascript',
        body: example.code.replaceAll('https://GATEWAY', shop.sandbox.url),
      });
      shop.files.set('/vue.html', {
        type: 'text/html; charset=utf-8',
        body: pageOf(example.uses),
      });
      const { page, console } = await shop.open('/vue.html');
      try {
        await page.locator('svc-checkout[state="form"]').waitFor();
        // Every paymentCompleted the element fires, beside the ones Vue's handler hears.
        await page.evaluate(
          `document.addEventListener('paymentCompleted', (event) => window.calls.push(['event', event.detail.merchantOrderId]))`,
        );
        const given = await page.evaluate(`(() => {
          const element = document.querySelector('svc-checkout');
          return {
            order: typeof element.order,
            orderAttribute: element.hasAttribute('order'),
            widgetId: element.getAttribute('widget-id'),
            orderId: element.getAttribute('order-id'),
          };
        })()`);
        const orderId = (given as { orderId: string }).orderId;
        assert.ok(signed.has(orderId), 'the order the shop signed');
        assert.deepEqual(given, {
          order: 'object',
          orderAttribute: false,
          widgetId: DEMO_WIDGET_IDS.fullCheckout,
          orderId,
        });

        const outcome = await payInCheckout(page, {
          customer: {
            firstName: 'Anna',
            lastName: 'Bērziņa',
            email: 'anna@example.com',
            phone: '+37120000000',
          },
          delivery: {
            option: 'Courier',
            address: { street: 'Brīvības iela 1', city: 'Rīga', postalCode: 'LV-1010' },
          },
        });
        assert.deepEqual(outcome.outcome === 'paid' && outcome.merchantOrderId, orderId);
        await page.getByRole('status').getByText('Thank you! Your order is paid.').waitFor();
        const notification = await waitUntil('the purchase notification', async () =>
          shop.notifications.find((candidate) => candidate.order_id === orderId),
        );
        assert.equal(notification.status, 'PAID');
        assert.equal(notification.total_amount, 2 * 6.4 + 4.99);
        // A moment for a second event or call to come, were there one.
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual(await page.evaluate('window.calls'), [
          ['showThankYou', orderId],
          ['event', orderId],
        ]);
        assert.deepEqual(console, [], 'no console error or warning (Vue warns of an unknown component)');
      } finally {
        await page.context().close();
      }
    });
  }

  test('an in-DOM template, the element defined after mount: the order property is taken, v-on with an object keeps the event name, @paymentCompleted is lowered', async () => {
    const signature = signOrder(
      { widgetId: DEMO_WIDGET_IDS.checkout, items: [{ amount: '1.00', label: 'Tea' }] },
      shop.sandbox.demoMerchant!.privateKeyPem,
    );
    const imports = { vue: '/vue.js', 'svc-checkout': `${shop.sandbox.url}/widget/svc-checkout.js` };
    shop.files.set('/in-dom.html', {
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Vue shop</title>
<script type="importmap">${JSON.stringify({ imports })}</script></head>
<body><main><h1>Checkout</h1><div id="checkout">
<svc-checkout widget-id="${DEMO_WIDGET_IDS.checkout}" :order.prop="order" signature="${signature}"
  v-on="{ paymentCompleted: heard }" @paymentCompleted="lowered"></svc-checkout></div></main>
<script type="module">
  import { createApp } from 'vue';
  window.calls = [];
  const app = createApp({
    setup: () => ({
      order: { items: [{ amount: '1.00', label: 'Tea' }] },
      heard: (event) => calls.push(['heard', event.type]),
      lowered: (event) => calls.push(['lowered', event.type]),
    }),
  });
  app.config.compilerOptions.isCustomElement = (tag) => tag === 'svc-checkout';
  app.mount('#checkout');
  // Defined after Vue took the template: the browser would start the template's own element otherwise.
  await import('svc-checkout');
</script></body></html>`,
    });
    const { page, console } = await shop.open('/in-dom.html');
    try {
      await page.locator('svc-checkout[state="form"]').waitFor();
      assert.deepEqual(
        await page.evaluate(`document.querySelector('svc-checkout').order`),
        { items: [{ amount: '1.00', label: 'Tea' }] },
        'the property Vue set before the element was defined',
      );
      // The event as the element fires it; the browser made the attribute @paymentcompleted.
      await page.evaluate(`(() => {
        const element = document.querySelector('svc-checkout');
        for (const type of ['paymentCompleted', 'paymentcompleted']) element.dispatchEvent(new CustomEvent(type));
      })()`);
      assert.deepEqual(await page.evaluate('window.calls'), [
        ['heard', 'paymentCompleted'],
        ['lowered', 'paymentcompleted'],
      ]);
      assert.deepEqual(console, []);
    } finally {
      await page.context().close();
    }
  });
});
