// The element's order: assembled from the attributes exactly as given (values unchecked: the gateway checks
// them), and light enough for the script-tag file: the module reaches no value of the order model.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { orderFromAttributes } from '../../src/core/order-attributes.js';
import {
  assembleOrderInput,
  givesSingleItem,
  orderInputFromAttributes,
} from '../../src/core/order-input-from-attributes.js';

const widgetId = 'w-1';

describe('orderInputFromAttributes', () => {
  test('the single-item attributes make one item of what was given, beside the element-level fields', () => {
    assert.deepEqual(
      orderInputFromAttributes({
        widgetId,
        amount: '9.99',
        label: 'Mug',
        taxRate: '21',
        currency: null,
        count: '',
        orderId: 'A1',
        language: 'lv',
        backToMerchantUrl: 'https://shop.example/cart',
      }).value,
      {
        items: [{ amount: '9.99', label: 'Mug', taxRate: '21' }],
        widgetId,
        language: 'lv',
        backToMerchantUrl: 'https://shop.example/cart',
        orderId: 'A1',
      },
    );
  });

  test('takes the values as given, unchecked: the gateway checks them at intake', () => {
    assert.deepEqual(orderInputFromAttributes({ widgetId, amount: '12,50', unit: 'BOX' }).value, {
      items: [{ amount: '12,50', unit: 'BOX' }],
      widgetId,
    });
    const json = { items: [{ amount: -1, label: 7 }], shippingOptions: [{ id: 'a' }, { id: 'a' }] };
    assert.deepEqual(orderInputFromAttributes({ widgetId, order: json }).value, { ...json, widgetId });
    assert.ok(orderFromAttributes({ widgetId, order: json }).error, 'orderFromAttributes checks them');
  });

  test('reads the order JSON as written, HTML-escaped, or as an object', () => {
    const json = '{"items":[{"amount":"5.00","label":"Tea & Co"}],"constraints":{"brand":"X"}}';
    const escaped = json.replaceAll('&', '&amp;').replaceAll('"', '&quot;');
    for (const order of [json, escaped, JSON.parse(json)]) {
      assert.deepEqual(orderInputFromAttributes({ widgetId, order, orderId: 'B2' }).value, {
        items: [{ amount: '5.00', label: 'Tea & Co' }],
        constraints: { brand: 'X' },
        widgetId,
        orderId: 'B2',
      });
    }
  });

  test('without an order or single-item attributes the order has no items (a fixed-price widget)', () => {
    assert.deepEqual(orderInputFromAttributes({ widgetId }).value, { items: [], widgetId });
    assert.deepEqual(orderInputFromAttributes({}).value, { items: [] });
  });

  test('refuses, naming the order attribute, JSON that does not parse or is not an object', () => {
    const broken = orderInputFromAttributes({ widgetId, order: '{"items": [' }).error;
    assert.equal(broken?.length, 1);
    assert.deepEqual(
      { path: broken?.[0]?.path, code: broken?.[0]?.code },
      { path: 'order', code: 'invalid_json' },
    );
    assert.match(broken?.[0]?.message ?? '', /^order: is not valid JSON \(.+\); write \{"items":/);
    for (const order of ['[1]', '"items"', 'null', '3']) {
      const error = orderInputFromAttributes({ widgetId, order }).error;
      assert.deepEqual(error, [
        { path: 'order', code: 'wrong_type', message: 'order: must be a JSON object with items' },
      ]);
    }
  });

  test('refuses members of the JSON that are not order contents, and both forms at once', () => {
    const stray = orderInputFromAttributes({ widgetId, order: '{"items":[],"language":"lv","shiping":[]}' });
    assert.deepEqual(
      stray.error?.map((issue) => issue.path),
      ['order.language', 'order.shiping'],
    );
    assert.match(stray.error?.[0]?.message ?? '', /use orderId, items, shippingOptions, constraints/);
    const both = orderInputFromAttributes({ widgetId, order: '{"items":[]}', amount: '1', taxRate: '21' });
    assert.equal(both.error?.[0]?.path, 'order');
    assert.match(both.error?.[0]?.message ?? '', /single-item attributes \(amount, tax-rate\), not both/);
  });

  test("takes the JSON's orderId as the order-id attribute's alternative; null is not given", () => {
    const json = '{"orderId":"36c4","items":[],"shippingOptions":[],"constraints":null}';
    assert.deepEqual(orderInputFromAttributes({ widgetId, order: json }).value, {
      widgetId,
      orderId: '36c4',
      items: [],
      shippingOptions: [],
      constraints: null,
    });
    assert.equal(orderInputFromAttributes({ widgetId, order: json, orderId: '36c4' }).value?.orderId, '36c4');
    const none = '{"orderId":null,"items":[]}';
    assert.equal(orderInputFromAttributes({ widgetId, order: none, orderId: 'B2' }).value?.orderId, 'B2');
    assert.equal(
      orderInputFromAttributes({ widgetId, order: '{"orderId":7,"items":[]}', orderId: '7' }).error,
      undefined,
    );
    // What the gateway reads of it: null is not given.
    assert.deepEqual(orderFromAttributes({ widgetId, order: none }).value, { widgetId, items: [] });
  });

  test('refuses an order-id and a JSON orderId that differ, naming both', () => {
    const { error } = orderInputFromAttributes({
      widgetId,
      order: '{"orderId":"A-1","items":[]}',
      orderId: 'A-2',
    });
    assert.deepEqual(error, [
      { path: 'order', code: 'conflicting_values', message: 'order: orderId "A-1" is not order-id "A-2"' },
    ]);
    const server = orderFromAttributes({ widgetId, order: '{"orderId":"A-1","items":[]}', orderId: 'A-2' });
    assert.equal(server.error?.issues[0]?.code, 'conflicting_values');
  });

  test('assembleOrderInput keeps the input beside the JSON’s stray members, for orderFromAttributes', () => {
    const { input, issues } = assembleOrderInput({ widgetId, order: { items: [], extra: 1 } });
    assert.deepEqual(input, { items: [], widgetId });
    assert.deepEqual(
      issues.map((issue) => issue.path),
      ['order.extra'],
    );
    assert.equal(assembleOrderInput({ widgetId, order: '{' }).input, undefined);
  });

  test('givesSingleItem: any single-item attribute given, empty values not counting', () => {
    assert.equal(givesSingleItem({ widgetId, order: '{}' }), false);
    assert.equal(givesSingleItem({ amount: '', label: null }), false);
    assert.equal(givesSingleItem({ unit: 'PIECE' }), true);
  });

  test('imports only types from the order model, so the element’s bundle carries none of it', () => {
    const source = readFileSync(
      new URL('../../src/core/order-input-from-attributes.ts', import.meta.url),
      'utf8',
    );
    const imports = [...source.matchAll(/^import\b[^;]*?from '([^']+)';/gms)].map((match) => match[0]);
    assert.ok(imports.length > 0);
    // The plain-object guard is the one value it takes: four lines that import nothing.
    const models = imports.filter((statement) => !statement.endsWith("from './plain-object.js';"));
    for (const statement of models) assert.match(statement, /^import type /, statement);
  });
});
