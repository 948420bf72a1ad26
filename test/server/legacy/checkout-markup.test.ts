/**
 * checkoutElementHtml and checkoutElementAttributes: the markup, parsed back by an independent HTML parser
 * (parse5, the WHATWG parsing algorithm that browsers implement), gives the element exactly the signed order,
 * whatever the values hold; attribute names never come from the input.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseFragment } from 'parse5';
import {
  type CheckoutElementOptions,
  CheckoutMarkupError,
  checkoutElementAttributes,
  checkoutElementHtml,
  generateMerchantKeyPair,
  type MerchantKeyPair,
  type OrderInput,
  OrderValidationError,
  orderFromAttributes,
  signOrder,
  verifyOrderSignature,
} from '../../../src/server/index.js';

let pair: MerchantKeyPair;

before(async () => {
  pair = await generateMerchantKeyPair();
});

const WIDGET_ID = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';

/** Every text a template has got wrong at some point. */
const HOSTILE = `Tea "Earl" 'Grey' <script>alert(1)</script> &amp; & &#x27; \u2028\u2029 \r\n\t ☕ 😀`;

/** The one element of an HTML fragment, with its attributes by name, as a browser's parser reads them. */
function parseElement(html: string): { tag: string; attributes: Record<string, string>; nodes: number } {
  const fragment = parseFragment(html);
  const element = fragment.childNodes[0] as {
    tagName?: string;
    attrs?: Array<{ name: string; value: string }>;
  };
  assert.ok(element.tagName && element.attrs, `an element, not ${JSON.stringify(html.slice(0, 80))}`);
  return {
    tag: element.tagName,
    attributes: Object.fromEntries(element.attrs.map(({ name, value }) => [name, value])),
    nodes: fragment.childNodes.length,
  };
}

/** What the element sends for these attributes (the order and its signature), checked as a server checks it. */
function orderOfAttributes(attributes: Record<string, string>): OrderInput {
  const { value, error } = orderFromAttributes({
    widgetId: attributes['widget-id'],
    language: attributes['language'],
    certificateName: attributes['certificate-name'],
    successRedirectUrl: attributes['success-redirect-url'],
    backToMerchantUrl: attributes['back-to-merchant-url'],
    orderId: attributes['order-id'],
    order: attributes['order'],
  });
  if (error) throw error;
  return value;
}

const hostileOrder = (): OrderInput => ({
  widgetId: WIDGET_ID,
  language: 'lv',
  certificateName: `main "<b>"`,
  successRedirectUrl: 'https://shop.example/thanks?order=1&from="checkout"',
  backToMerchantUrl: "https://shop.example/cart?a=1&b='2'#<x>",
  orderId: `A-1"><script>alert(1)</script>\u2028`,
  items: [
    { amount: '12.50', currency: 'EUR', label: HOSTILE, count: 2, orderItemId: '"></svc-checkout>' },
    { amount: 8.9, label: 'Honey & <i>bees</i>', taxRate: '21', unit: 'KILOGRAM', count: '0.5' },
  ],
  shippingOptions: [{ id: `post'"`, title: '</svc-checkout><script>', amount: '2.80' }],
  constraints: { brand: 'Visa "Electron"', issuer: null },
});

describe('checkoutElementHtml', () => {
  it('hostile values: one element, the fixed attributes, and exactly the signed order, whose signature verifies', () => {
    const order = hostileOrder();
    const html = checkoutElementHtml({
      order,
      privateKeyPem: pair.privateKeyPem,
      email: `"onmouseover="alert(1)`,
      firstName: 'Anna\r\nMarija',
      lastName: `O'Brien <script>`,
      gateway: 'https://pay.example',
      texts: { 'pay.button': 'Pay {amount} </svc-checkout><script>' },
      id: 'checkout',
      class: 'a "b" c',
    });
    assert.doesNotMatch(html, /<script|\r|\u2028|\u2029/);
    assert.match(html, /^<svc-checkout [^<>]*><\/svc-checkout>$/);
    const { tag, attributes, nodes } = parseElement(html);
    assert.equal(tag, 'svc-checkout');
    assert.equal(nodes, 1, 'nothing after the element');
    assert.deepEqual(Object.keys(attributes), [
      'widget-id',
      'language',
      'certificate-name',
      'success-redirect-url',
      'back-to-merchant-url',
      'order-id',
      'order',
      'signature',
      'gateway',
      'email',
      'first-name',
      'last-name',
      'id',
      'class',
      'texts',
    ]);
    assert.equal(attributes['email'], `"onmouseover="alert(1)`);
    assert.equal(attributes['first-name'], 'Anna\r\nMarija', 'a CR survives the parser');
    assert.equal(attributes['last-name'], `O'Brien <script>`);
    assert.equal(attributes['class'], 'a "b" c');
    assert.deepEqual(JSON.parse(attributes['texts']!), {
      'pay.button': 'Pay {amount} </svc-checkout><script>',
    });

    const read = orderOfAttributes(attributes);
    const { constraints, ...rest } = order;
    assert.deepEqual(read, { ...rest, constraints: { brand: 'Visa "Electron"' } });
    assert.ok(verifyOrderSignature(read, attributes['signature']!, pair.publicKeyPem));
    assert.equal(attributes['signature'], signOrder(order, pair.privateKeyPem));
  });

  it('any text in any field reads back as signed (property)', () => {
    // Any string a shop may hold: printable, control characters, astral characters, entities, markup.
    const unit = fc.oneof(
      fc.constantFrom('&', '"', "'", '<', '>', '\r', '\n', '\u2028', ';', '#'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const text = fc
      .string({ unit, minLength: 1, maxLength: 40 })
      .filter((value) => value.trim() !== '' && !value.includes('\0') && !lone.test(value));
    fc.assert(
      fc.property(text, text, text, text, (label, orderId, itemId, email) => {
        const order: OrderInput = {
          widgetId: WIDGET_ID,
          orderId,
          items: [{ amount: '1.00', label, orderItemId: itemId }],
        };
        const { attributes } = parseElement(
          checkoutElementHtml({ order, privateKeyPem: pair.privateKeyPem, email }),
        );
        assert.equal(attributes['email'], email);
        const read = orderOfAttributes(attributes);
        assert.deepEqual(read, order);
        assert.ok(verifyOrderSignature(read, attributes['signature']!, pair.publicKeyPem));
      }),
      { numRuns: 60 },
    );
  });

  it('writes a signature made elsewhere as given, and the order without null members', () => {
    const order: OrderInput = {
      widgetId: WIDGET_ID,
      orderId: '7',
      items: [{ amount: '1', label: 'x', count: null }],
    };
    const signature = signOrder(order, pair.privateKeyPem);
    const { attributes } = parseElement(checkoutElementHtml({ order, signature }));
    assert.equal(attributes['signature'], signature);
    assert.equal(attributes['order-id'], '7');
    assert.equal(attributes['order'], '{"items":[{"amount":"1","label":"x"}]}');
    assert.ok(verifyOrderSignature(orderOfAttributes(attributes), signature, pair.publicKeyPem));
  });

  it('refuses what it cannot write exactly: an invalid order, NUL, half a surrogate pair, no signature', () => {
    const order: OrderInput = { widgetId: WIDGET_ID, items: [{ amount: '1.00', label: 'x' }] };
    const key = { privateKeyPem: pair.privateKeyPem };
    assert.throws(
      () => checkoutElementHtml({ order: { ...order, items: [{ amount: '-1', label: 'x' }] }, ...key }),
      OrderValidationError,
    );
    // A member that is not the order's is refused, never written as an attribute.
    assert.throws(
      () => checkoutElementHtml({ order: { ...order, onload: 'alert(1)' } as OrderInput, ...key }),
      (error: unknown) => error instanceof OrderValidationError && /onload/.test(error.message),
    );
    const unwritable = (options: Parameters<typeof checkoutElementHtml>[0], attribute: string) =>
      assert.throws(
        () => checkoutElementHtml(options),
        (error: unknown) =>
          error instanceof CheckoutMarkupError &&
          error.code === 'unwritable_value' &&
          error.attribute === attribute,
      );
    unwritable({ order: { ...order, orderId: 'A\0' }, ...key }, 'order-id');
    unwritable({ order: { ...order, orderId: 'A\uD800' }, ...key }, 'order-id');
    unwritable({ order, ...key, email: 'a\uDC00@b' }, 'email');
    // In the order JSON both are written as JSON escapes, and read back exactly.
    const { attributes } = parseElement(
      checkoutElementHtml({ order: { ...order, items: [{ amount: '1.00', label: 'a\0b\uD800' }] }, ...key }),
    );
    assert.equal(orderOfAttributes(attributes).items[0]!.label, 'a\0b\uD800');
    assert.throws(
      () => checkoutElementHtml({ order, signature: ' ' }),
      (error: unknown) => error instanceof CheckoutMarkupError && error.code === 'missing_signature',
    );
  });

  it('takes a key or a signature, one of them (types)', () => {
    const order: OrderInput = { widgetId: WIDGET_ID, items: [{ amount: '1.00', label: 'x' }] };
    // @ts-expect-error a key and a signature: which would be written?
    const both: CheckoutElementOptions = { order, privateKeyPem: pair.privateKeyPem, signature: 'AAAA' };
    // @ts-expect-error neither a key nor a signature
    const neither: CheckoutElementOptions = { order };
    assert.ok(both && neither);
  });

  it('unknown options are not attributes', () => {
    const order: OrderInput = { widgetId: WIDGET_ID, items: [{ amount: '1.00', label: 'x' }] };
    const options = { order, privateKeyPem: pair.privateKeyPem, onclick: 'alert(1)', style: 'x' };
    const names = Object.keys(checkoutElementAttributes(options));
    assert.deepEqual(names, ['widget-id', 'order', 'signature']);
  });
});

describe('checkoutElementAttributes', () => {
  it('gives the values unescaped, for JSX and template engines that escape them', () => {
    const order = hostileOrder();
    const attributes = checkoutElementAttributes({ order, privateKeyPem: pair.privateKeyPem });
    assert.equal(attributes['order-id'], order.orderId);
    assert.equal(attributes['back-to-merchant-url'], order.backToMerchantUrl);
    assert.deepEqual(JSON.parse(attributes['order']!).items, order.items);
    assert.ok(
      verifyOrderSignature(orderOfAttributes(attributes), attributes['signature']!, pair.publicKeyPem),
    );
  });
});
