import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type OrderIssue, parseOrder } from '../../src/core/order.js';
import { decodeHtmlEntities, orderFromAttributes } from '../../src/core/order-attributes.js';

const widgetId = 'w-1';

function issues(input: unknown): OrderIssue[] {
  const { error } = parseOrder(input);
  assert.ok(error, 'expected the order to be refused');
  return [...error.issues];
}

function only(input: unknown): OrderIssue {
  const found = issues(input);
  assert.equal(found.length, 1, `expected one issue, got ${found.map((i) => i.message).join(' | ')}`);
  return found[0]!;
}

describe('parseOrder', () => {
  test('reads a full order into exact values with defaults left open', () => {
    const { value, error } = parseOrder({
      widgetId,
      items: [
        { amount: '12.50', label: 'Tea', count: '2', taxRate: 21, orderItemId: 7 },
        { amount: 1, label: 'Salt', unit: 'KILOGRAM', count: 0.25 },
      ],
      shippingOptions: [{ id: 'dpd', amount: 3.99, currency: 'EUR' }, { id: 'pickup' }],
      constraints: { paymentScheme: 'VISA' },
    });
    assert.equal(error, undefined);
    assert.equal(value?.items[0]?.amount, 1250);
    assert.deepEqual(value?.items[0]?.count, { thousandths: 2000, text: '2' });
    assert.equal(value?.items[0]?.orderItemId, '7');
    assert.equal(value?.items[0]?.taxRate?.ppm, 210000);
    assert.equal(value?.items[1]?.unit, 'KILOGRAM');
    assert.equal(value?.items[1]?.count.thousandths, 250);
    assert.equal(value?.items[1]?.currency, undefined);
    assert.equal(value?.currency, 'EUR');
    assert.equal(value?.shippingOptions[1]?.amount, undefined);
  });

  test('names the field and the problem', () => {
    assert.match(only({ widgetId, items: [{ amount: 1 }] }).message, /^items\[0\]\.label: is required/);
    assert.equal(only({ widgetId, items: [{ amount: '1.234', label: 'A' }] }).code, 'too_many_decimals');
    assert.equal(only({ widgetId, items: [{ amount: 1, label: 'A', count: -1 }] }).code, 'not_positive');
    assert.equal(only({ widgetId, items: [{ amount: 1, label: 'A', count: 1.5 }] }).code, 'not_whole');
    const unit = only({ widgetId, items: [{ amount: 1, label: 'A', unit: 'BOX' }] });
    assert.equal(unit.code, 'unknown_unit');
    assert.match(unit.message, /use one of PIECE, KILOGRAM, METER, LITRE, HOUR/);
    assert.equal(only({ widgetId, items: [{ amount: 1, label: 'A', taxRate: 250 }] }).code, 'tax_rate_range');
    assert.equal(only({ widgetId, items: [{ amount: -1, label: 'A' }] }).code, 'negative');
    assert.equal(
      only({ widgetId, items: [{ amount: 1, label: 'A', currency: 'eur' }] }).code,
      'invalid_currency',
    );
    assert.equal(only({ items: [] }).path, 'widgetId');
    assert.equal(only({ widgetId, items: [{ amount: 1, label: 'A', qty: 2 }] }).path, 'items[0].qty');
    assert.equal(only({ widgetId, backToMerchantUrl: 'javascript:alert(1)' }).code, 'invalid_url');
    assert.equal(
      only({
        widgetId,
        items: [{ amount: 1, label: 'A', currency: 'EUR' }],
        shippingOptions: [{ id: 'x', currency: 'USD' }],
      }).code,
      'currency_mismatch',
    );
    assert.equal(only({ widgetId, shippingOptions: [{ id: 'x' }, { id: 'x' }] }).code, 'duplicate_id');
    assert.equal(only('nope').code, 'wrong_type');
  });

  test("reads a shipping option's label and type, our unsigned extension; ADDRESS by default", () => {
    const { value, error } = parseOrder({
      widgetId,
      items: [{ amount: 1, label: 'A' }],
      shippingOptions: [
        { id: 'courier', label: 'Courier' },
        { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT' },
        { id: 'post', amount: '2.80', type: 'ADDRESS' },
      ],
    });
    assert.equal(error, undefined, error?.message);
    assert.deepEqual(
      value?.shippingOptions.map((option) => [option.id, option.title, option.type]),
      [
        ['courier', 'Courier', 'ADDRESS'],
        ['locker', 'Pickup point', 'PICKUP_POINT'],
        ['post', undefined, 'ADDRESS'],
      ],
    );
  });

  test("a shipping option's label and type are checked, naming the field", () => {
    const order = (option: object) => ({
      widgetId,
      items: [{ amount: 1, label: 'A' }],
      shippingOptions: [{ id: 'a' }, { id: 'b', ...option }],
    });
    const type = only(order({ type: 'LOCKER' }));
    assert.equal(type.code, 'unknown_shipping_type');
    assert.equal(type.path, 'shippingOptions[1].type');
    assert.equal(type.message, 'shippingOptions[1].type: must be ADDRESS or PICKUP_POINT');
    assert.equal(only(order({ type: 'pickup_point' })).path, 'shippingOptions[1].type');
    const label = only(order({ label: 42 }));
    assert.equal(label.code, 'wrong_type');
    assert.equal(label.message, 'shippingOptions[1].label: must be a string, not number');
    assert.equal(only(order({ label: '  ' })).path, 'shippingOptions[1].label');
    assert.equal(only(order({ label: 'x'.repeat(501) })).code, 'too_long');
  });

  test('the order JSON as the official PHP client prints it: JSON numbers, every member, null for not given', () => {
    // CheckoutWidget::getHtmlRepresentation() of the client's README order (klix-app/merchant-api-php 2.0.2).
    const printed = {
      orderId: '1234567890',
      items: [
        {
          amount: 122.99,
          currency: 'EUR',
          label: 'Vacuum cleaner TC31',
          count: 2,
          unit: 'PIECE',
          taxRate: 0.21,
          orderItemId: 'ff713414-56f9-11ea-82b4-0242ac130003',
        },
        {
          amount: 7.05,
          currency: 'EUR',
          label: 'Filter for TC31',
          count: null,
          unit: null,
          taxRate: null,
          orderItemId: null,
        },
      ],
      shippingOptions: [
        {
          id: 'courier',
          amount: 3,
          currency: null,
          taxRate: null,
          title: null,
          excludeFromOrderIfFree: null,
        },
        {
          id: 'pickup',
          amount: 0,
          currency: 'EUR',
          taxRate: null,
          title: 'In store pickup',
          excludeFromOrderIfFree: true,
        },
      ],
      constraints: { paymentScheme: null, issuer: null, brand: 'Citadele' },
    };
    const { value, error } = parseOrder({ widgetId, ...printed });
    assert.equal(error, undefined, error?.message);
    assert.equal(value?.input.orderId, '1234567890');
    assert.deepEqual(
      value?.items.map((item) => [item.amount, item.count.thousandths, item.taxRate?.ppm, item.orderItemId]),
      [
        [12299, 2000, 210_000, 'ff713414-56f9-11ea-82b4-0242ac130003'],
        [705, 1000, undefined, undefined],
      ],
    );
    assert.deepEqual(value?.shippingOptions, [
      { id: 'courier', type: 'ADDRESS', excludeFromOrderIfFree: false, amount: 300 },
      {
        id: 'pickup',
        type: 'ADDRESS',
        excludeFromOrderIfFree: true,
        amount: 0,
        currency: 'EUR',
        title: 'In store pickup',
      },
    ]);
    assert.deepEqual(value?.constraints, { brand: 'Citadele' });
    // What readers see of the input: null members left out, as if never written.
    assert.deepEqual(value?.input.items[1], { amount: 7.05, currency: 'EUR', label: 'Filter for TC31' });
    assert.deepEqual(value?.input.constraints, { brand: 'Citadele' });
    assert.deepEqual(value?.input.shippingOptions?.[0], { id: 'courier', amount: 3 });
    assert.equal(parseOrder({ widgetId, ...printed, orderId: null }).value?.input.orderId, undefined);
    assert.equal(parseOrder({ widgetId, ...printed, orderId: 42 }).value?.input.orderId, '42');
  });

  test("a shipping option's title, its alias label, and excludeFromOrderIfFree", () => {
    const option = (fields: object) =>
      parseOrder({ widgetId, items: [{ amount: 1, label: 'A' }], shippingOptions: [{ id: 's', ...fields }] });
    assert.equal(option({ label: 'Courier' }).value?.shippingOptions[0]?.title, 'Courier');
    assert.equal(option({ title: 'Courier', label: 'Courier' }).value?.shippingOptions[0]?.title, 'Courier');
    assert.equal(option({ title: 'Courier', label: null }).value?.shippingOptions[0]?.title, 'Courier');
    const both = option({ title: 'Courier', label: 'Post' }).error?.issues;
    assert.equal(both?.length, 1);
    assert.equal(both?.[0]?.code, 'conflicting_values');
    assert.equal(
      both?.[0]?.message,
      'shippingOptions[0].title: "Courier" and shippingOptions[0].label "Post" differ; label is an alias of title: give title alone',
    );
    const flag = option({ excludeFromOrderIfFree: 'yes' }).error?.issues[0];
    assert.equal(flag?.path, 'shippingOptions[0].excludeFromOrderIfFree');
    assert.equal(flag?.code, 'wrong_type');
    assert.equal(
      option({ excludeFromOrderIfFree: false }).value?.shippingOptions[0]?.excludeFromOrderIfFree,
      false,
    );
  });

  test('collects every problem at once', () => {
    const found = issues({ widgetId, items: [{ amount: 'x' }, { label: 'B' }] });
    assert.deepEqual(
      found.map((i) => i.path),
      ['items[0].amount', 'items[0].label', 'items[1].amount'],
    );
  });
});

describe('orderFromAttributes', () => {
  test('the single-item attributes make one item, keeping only what was given', () => {
    const { value } = orderFromAttributes({
      widgetId,
      amount: '9.99',
      label: 'Mug',
      taxRate: '21',
      orderId: 'A1',
      currency: null,
    });
    assert.deepEqual(value, {
      items: [{ amount: '9.99', label: 'Mug', taxRate: '21' }],
      widgetId,
      orderId: 'A1',
    });
  });

  test('order JSON as written, HTML-escaped, or set as an object', () => {
    const json = '{"items":[{"amount":"5.00","label":"Tea & Co"}],"shippingOptions":[{"id":"dpd"}]}';
    const escaped = json.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    assert.notEqual(escaped, json);
    for (const order of [json, escaped, JSON.parse(json)]) {
      const { value, error } = orderFromAttributes({ widgetId, order, language: 'lv' });
      assert.equal(error, undefined);
      assert.equal(value?.items[0]?.label, 'Tea & Co');
      assert.equal(value?.language, 'lv');
      assert.equal(value?.shippingOptions?.[0]?.id, 'dpd');
    }
    assert.equal(decodeHtmlEntities('&#x41;&#66;&lt;&unknown;'), 'AB<&unknown;');
  });

  test('problems name the attribute to change', () => {
    const bad = orderFromAttributes({ widgetId, order: '{"items": [' });
    assert.equal(bad.error?.issues[0]?.code, 'invalid_json');
    assert.match(bad.error?.message ?? '', /order: is not valid JSON/);
    assert.equal(
      orderFromAttributes({ widgetId, amount: '1.999', label: 'A' }).error?.issues[0]?.path,
      'amount',
    );
    assert.equal(
      orderFromAttributes({ widgetId, label: 'A', taxRate: 'x', amount: '1' }).error?.issues[0]?.path,
      'tax-rate',
    );
    assert.equal(orderFromAttributes({ amount: '1', label: 'A' }).error?.issues[0]?.path, 'widget-id');
    assert.equal(
      orderFromAttributes({ widgetId, order: '{"items":[{"amount":1}]}' }).error?.issues[0]?.path,
      'order.items[0].label',
    );
    assert.equal(
      orderFromAttributes({ widgetId, order: '{"items":[],"language":"x"}' }).error?.issues[0]?.path,
      'order.language',
    );
    assert.match(
      orderFromAttributes({ widgetId, order: '{"items":[]}', amount: '1' }).error?.message ?? '',
      /not both/,
    );
    assert.equal(orderFromAttributes({ widgetId, order: '[1]' }).error?.issues[0]?.code, 'wrong_type');
  });

  test('a fixed-price widget needs nothing but its id', () => {
    assert.deepEqual(orderFromAttributes({ widgetId }).value, { items: [], widgetId });
  });

  test('certificate-name and success-redirect-url are part of the order (both are signed)', () => {
    const { value } = orderFromAttributes({
      widgetId,
      amount: '1',
      label: 'A',
      certificateName: 'main',
      successRedirectUrl: 'https://shop.example/thanks',
    });
    assert.deepEqual(value, {
      items: [{ amount: '1', label: 'A' }],
      widgetId,
      certificateName: 'main',
      successRedirectUrl: 'https://shop.example/thanks',
    });
  });

  test('a success-redirect-url that is not an absolute http(s) URL is refused, naming the attribute', () => {
    for (const url of ['/thanks', 'javascript:alert(1)', 'ftp://shop.example/']) {
      const { error } = orderFromAttributes({ widgetId, amount: '1', label: 'A', successRedirectUrl: url });
      assert.equal(error?.issues[0]?.path, 'success-redirect-url', url);
      assert.equal(error?.issues[0]?.code, 'invalid_url', url);
      assert.match(
        error?.message ?? '',
        /^Invalid order: success-redirect-url: .* is not an absolute http\(s\) URL/,
      );
    }
    const blank = orderFromAttributes({ widgetId, amount: '1', label: 'A', certificateName: ' ' });
    assert.equal(blank.error?.issues[0]?.path, 'certificate-name');
  });
});
