/**
 * checkoutElementHtml's `declaredFrame`: the element's shadow root declared in the markup, holding the iframe
 * the element would open for the same attributes (core's frameUrl, on a fresh channel per render), with the
 * element's title for it; parsed back by parse5 (the WHATWG parsing algorithm), whatever the values hold.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { parseFragment } from 'parse5';
import type { CardLayout } from '../../../src/core/frame-channel.js';
import { cardSettings, frameUrl, frameUrlChannel } from '../../../src/core/frame-url.js';
import {
  type CheckoutElementHtmlOptions,
  CheckoutMarkupError,
  checkoutElementHtml,
  generateMerchantKeyPair,
  type MerchantKeyPair,
} from '../../../src/server/index.js';

let pair: MerchantKeyPair;

before(async () => {
  pair = await generateMerchantKeyPair();
});

const WIDGET_ID = '3f1e2d4c-5b6a-4978-8a9b-0c1d2e3f4a5b';
const GATEWAY = 'https://pay.example';
const SHOP = 'https://shop.example';
const HOSTILE = `Tea "Earl" 'Grey' <script>alert(1)</script></template></svc-checkout> &amp; & \u2028 \r\n ☕`;

interface ParsedNode {
  nodeName: string;
  tagName?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: ParsedNode[];
  content?: ParsedNode;
}

const attributesOf = (node: ParsedNode) =>
  Object.fromEntries((node.attrs ?? []).map(({ name, value }) => [name, value]));

/** The element, its declarative shadow root's template and what the template holds, as a browser parses them. */
function parse(html: string) {
  const fragment = parseFragment(html) as unknown as ParsedNode;
  assert.equal(fragment.childNodes?.length, 1, 'one element');
  const element = fragment.childNodes[0]!;
  assert.equal(element.tagName, 'svc-checkout');
  assert.equal(element.childNodes?.length, 1, 'one child: the template');
  const template = element.childNodes[0]!;
  assert.equal(template.tagName, 'template');
  const inside = template.content?.childNodes ?? [];
  assert.deepEqual(
    inside.map((node) => node.nodeName),
    ['iframe'],
    'the shadow root holds the iframe alone',
  );
  assert.deepEqual(inside[0]!.childNodes ?? [], []);
  return {
    element: attributesOf(element),
    template: attributesOf(template),
    iframe: attributesOf(inside[0]!),
  };
}

function options(extra: Partial<CheckoutElementHtmlOptions> = {}): CheckoutElementHtmlOptions {
  return {
    order: {
      widgetId: WIDGET_ID,
      orderId: 'A-1001',
      items: [{ amount: '12.50', currency: 'EUR', label: 'Tea' }],
    },
    privateKeyPem: pair.privateKeyPem,
    gateway: `${GATEWAY}/widget/svc-checkout.js`,
    declaredFrame: { pageOrigin: SHOP },
    ...extra,
  } as CheckoutElementHtmlOptions;
}

describe('checkoutElementHtml with declaredFrame', () => {
  it('declares the shadow root with the iframe of the element: its URL, part, title and first view size', () => {
    const { element, template, iframe } = parse(checkoutElementHtml(options()));
    assert.equal(element['gateway'], `${GATEWAY}/widget/svc-checkout.js`);
    assert.deepEqual(template, { shadowrootmode: 'open' });
    assert.deepEqual(Object.keys(iframe), ['part', 'title', 'src', 'width', 'height']);
    // Sized as the element sizes its frame until the frame reports its height (core's firstViewHeight).
    assert.equal(iframe['width'], '100%');
    assert.equal(iframe['height'], '680');
    assert.equal(parse(checkoutElementHtml(options({ cardLayout: 'compact' }))).iframe['height'], '512');
    assert.equal(iframe['part'], 'frame');
    assert.equal(iframe['title'], 'Secure payment form');
    const channel = frameUrlChannel(iframe['src']!);
    assert.match(channel ?? '', /^[0-9a-f]{32}$/);
    assert.equal(
      iframe['src'],
      frameUrl({
        gateway: GATEWAY,
        widgetId: WIDGET_ID,
        fields: false,
        language: undefined,
        channel: channel!,
        pageOrigin: SHOP,
        card: cardSettings(undefined, undefined),
      }),
    );
    assert.equal(
      iframe['src'],
      `${GATEWAY}/widget/frame/${WIDGET_ID}?fields=0&lang=&card-layout=&cardholder-name=#channel=${channel}&origin=https%3A%2F%2Fshop.example`,
    );
  });

  it('makes a new channel for each render', () => {
    const channels = new Set(
      Array.from({ length: 5 }, () => frameUrlChannel(parse(checkoutElementHtml(options())).iframe['src']!)),
    );
    assert.equal(channels.size, 5);
  });

  it('takes the settings as the element reads them: the language of the order, else of the page, shipping options, the card form', () => {
    const signed = options().order;
    const lv = parse(checkoutElementHtml(options({ order: { ...signed, language: 'lv' } }))).iframe;
    assert.equal(lv['title'], 'Droša maksājuma forma');
    assert.match(lv['src']!, /\?fields=0&lang=lv&/);
    const page = options({ declaredFrame: { pageOrigin: SHOP, pageLanguage: 'ru-RU' } });
    const ru = parse(checkoutElementHtml(page)).iframe;
    assert.equal(ru['title'], 'Защищённая форма оплаты');
    assert.match(ru['src']!, /&lang=ru&/);
    const shipped = parse(
      checkoutElementHtml(
        options({
          order: { ...signed, shippingOptions: [{ id: 'courier', amount: '4.99', currency: 'EUR' }] },
          cardLayout: 'compact',
          cardholderName: 'hidden',
        }),
      ),
    ).iframe;
    assert.match(shipped['src']!, /\?fields=1&lang=&/);
    assert.match(shipped['src']!, /&card-layout=compact&cardholder-name=hidden#/);
  });

  it('escapes hostile values: the title and the URL read back exactly, and nothing becomes markup', () => {
    const { element, iframe } = parse(
      checkoutElementHtml(
        options({ texts: { 'frame.title': HOSTILE }, cardLayout: HOSTILE as CardLayout, id: HOSTILE }),
      ),
    );
    assert.equal(element['id'], HOSTILE);
    assert.equal(iframe['title'], HOSTILE);
    assert.ok(iframe['src']!.includes(`${cardSettings(HOSTILE, undefined)}#channel=`));
  });

  it('refuses a gateway or a page origin that is not an http(s) origin', () => {
    for (const gateway of ['javascript:alert(1)', 'pay.example', '']) {
      assert.throws(
        () => checkoutElementHtml(options({ gateway })),
        (error: unknown) =>
          error instanceof CheckoutMarkupError &&
          error.code === 'invalid_origin' &&
          error.attribute === 'gateway',
        gateway,
      );
    }
    for (const pageOrigin of [
      `${SHOP}/`,
      `${SHOP}/checkout`,
      'null',
      '*',
      'HTTPS://SHOP.EXAMPLE',
      'ftp://shop.example',
    ]) {
      assert.throws(
        () => checkoutElementHtml(options({ declaredFrame: { pageOrigin } })),
        (error: unknown) => error instanceof CheckoutMarkupError && error.code === 'invalid_origin',
        pageOrigin,
      );
    }
  });

  it('writes no shadow root without declaredFrame', () => {
    const html = checkoutElementHtml(options({ declaredFrame: undefined }));
    assert.ok(html.endsWith('></svc-checkout>') && !html.includes('<template'), html);
  });
});
