/**
 * The demo shop's server side without a browser: pages rendered with signatures the gateway accepts, the
 * back end reachable through Vite's dev server as the gateway calls it, and the strict policy where it
 * belongs.
 */
import assert from 'node:assert/strict';
import { dirname, join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  orderOfAttributes,
  PageRenderError,
  readAttributes,
  renderPage,
} from '../../demo/server/render-page.js';
import { DEMO_API_KEY, DEMO_MERCHANT_ID } from '../../src/sandbox/index.js';
import type { OrderInput } from '../../src/server/index.js';
import { type DemoEnv, startDemoEnv } from './support/demo-env.js';
import { request } from './support/merchant-server.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const SIGNED_PAGES = [
  '/single-item.html',
  '/order-json.html',
  '/full-checkout.html',
  '/script-tag.html',
  '/strict-csp.html',
];

/** The start tag of the page's `<svc-checkout>`. */
function checkoutTag(html: string): Map<string, string> {
  const tag = /<svc-checkout\b([^>]*)>/.exec(html);
  assert.ok(tag, 'the page has an <svc-checkout>');
  return readAttributes(tag[1]!);
}

describe('render-page', () => {
  const options = {
    gatewayUrl: 'http://gateway.test',
    shopUrl: 'http://shop.test',
    sign: (order: OrderInput) => `signed:${JSON.stringify(order)}`,
    certificateName: 'demo',
    newOrderId: (prefix: string) => `${prefix}-1`,
  };

  test('fills placeholders and signs the order the tag describes, HTML-escaped JSON included', () => {
    const html = renderPage(
      '<svc-checkout widget-id="w" order-id="{{order-id:A}}" order="{&quot;items&quot;:[{&quot;amount&quot;:&quot;1.50&quot;,&quot;label&quot;:&quot;Tea &amp; cake&quot;}]}" back-to-merchant-url="{{shop}}/cart" gateway="{{gateway}}" data-sign></svc-checkout><p>{{order-id:A}}</p>',
      options,
    );
    const attributes = checkoutTag(html);
    assert.equal(attributes.get('gateway'), 'http://gateway.test');
    assert.equal(attributes.get('certificate-name'), 'demo');
    assert.equal(attributes.has('data-sign'), false);
    assert.deepEqual(JSON.parse(attributes.get('signature')!.slice('signed:'.length)), {
      items: [{ amount: '1.50', label: 'Tea & cake' }],
      widgetId: 'w',
      certificateName: 'demo',
      backToMerchantUrl: 'http://shop.test/cart',
      orderId: 'A-1',
    });
    assert.match(html, /<p>A-1<\/p>/, 'one order id per prefix per page');
  });

  test('tells the shop the order of each unsigned tag with an order id, so it can check the notification', () => {
    const expected: OrderInput[] = [];
    renderPage(
      '<svc-checkout widget-id="fixed" order-id="{{order-id:T}}" back-to-merchant-url="{{shop}}/cart"></svc-checkout>' +
        '<svc-checkout widget-id="w" order-id="{{order-id:S}}" amount="1.00" label="x" data-sign></svc-checkout>' +
        '<svc-checkout lazy="true"></svc-checkout>',
      { ...options, expect: (order) => expected.push(order) },
    );
    assert.deepEqual(expected, [
      { widgetId: 'fixed', orderId: 'T-1', backToMerchantUrl: 'http://shop.test/cart', items: [] },
    ]);
  });

  test('refuses to render a tag whose order is not valid, naming the attribute', () => {
    assert.throws(
      () => renderPage('<svc-checkout widget-id="w" amount="-1" label="x" data-sign>', options),
      (error: unknown) => error instanceof PageRenderError && /amount/.test(error.message),
    );
  });

  test('reads the single-item form as the element does', () => {
    const order = orderOfAttributes(
      readAttributes(
        'widget-id="w" amount="24.90" currency="EUR" label="Hoodie" tax-rate="21" count="2" unit="PIECE"',
      ),
    );
    assert.deepEqual(order, {
      widgetId: 'w',
      items: [
        { amount: '24.90', currency: 'EUR', label: 'Hoodie', taxRate: '21', count: '2', unit: 'PIECE' },
      ],
    });
  });
});

describe('demo shop server', () => {
  let demo: DemoEnv;
  before(async () => {
    demo = await startDemoEnv();
  });
  after(async () => {
    await demo?.close();
  });

  for (const path of SIGNED_PAGES) {
    test(`${path} carries a signature the gateway accepts`, async () => {
      const page = await request(`${demo.shopUrl}${path}`, 'GET');
      assert.equal(page.status, 200);
      const attributes = checkoutTag(page.text);
      assert.equal(attributes.get('certificate-name'), 'demo');
      const created = await request(`${demo.gatewayUrl}/widget-api/v1/orders`, 'POST', {
        order: orderOfAttributes(attributes),
        signature: attributes.get('signature'),
        certificateName: attributes.get('certificate-name'),
        pageOrigin: demo.shopUrl,
      });
      assert.equal(created.status, 201, created.text);
    });
  }

  test('each visit gets a fresh order id', async () => {
    const first = checkoutTag((await request(`${demo.shopUrl}/single-item.html`, 'GET')).text);
    const second = checkoutTag((await request(`${demo.shopUrl}/single-item.html`, 'GET')).text);
    assert.notEqual(first.get('order-id'), second.get('order-id'));
    assert.notEqual(first.get('signature'), second.get('signature'));
  });

  test("the back end answers the gateway's connection test through the dev server", async () => {
    const answer = await request(
      `${demo.gatewayUrl}/sandbox/merchants/${DEMO_MERCHANT_ID}/connection-test`,
      'POST',
      undefined,
      { 'x-svc-api-key': DEMO_API_KEY },
    );
    assert.equal(answer.body['ok'], true, answer.text);
    const terms = await request(`${demo.shopUrl}/api/terms`, 'GET');
    assert.equal(terms.status, 200);
    assert.match(terms.text, /Terms of sale/);
  });

  test('the dev server serves the shop, the library and its dependencies, and no other file', async () => {
    const served = async (path: string) => (await request(`${demo.shopUrl}/@fs${path}`, 'GET')).status;
    assert.equal(await served(join(repoRoot, 'src', 'index.ts')), 200);
    assert.equal(await served(join(repoRoot, 'node_modules', 'lit', 'package.json')), 200);
    // The rest of the repository (where `npm start` keeps the demo merchant's key, in `.sandbox/`), and
    // the sandbox's data dir, key included.
    assert.equal(await served(join(repoRoot, 'package.json')), 403);
    assert.equal(await served(join(demo.dataDir, 'demo-merchant', 'private-key.pem')), 403);
  });

  test('only the strict page carries the strict policy', async () => {
    const strict = await request(`${demo.shopUrl}/strict-csp.html`, 'GET');
    assert.match(
      strict.headers.get('content-security-policy') ?? '',
      /script-src 'self' http:\/\/127\.0\.0\.1:\d+;/,
    );
    const plain = await request(`${demo.shopUrl}/single-item.html`, 'GET');
    assert.equal(plain.headers.get('content-security-policy'), null);
  });
});
