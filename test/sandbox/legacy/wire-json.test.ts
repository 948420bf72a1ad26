/**
 * The writer of the real service's number forms: money with 2 decimals, quantities with 3, tax rates as
 * fractions with at least 2; net unit prices in integers, rounded half up.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  fraction,
  JsonNumber,
  money,
  netUnitAmount,
  quantity,
  writeJson,
} from '../../../src/sandbox/legacy/wire-json.js';

describe('wire JSON', () => {
  test('money, quantities and tax rates as the real service writes them', () => {
    assert.deepEqual(
      [8800, 7273, 5, 0, 10_000_000_000_000].map((minor) => money(minor).text),
      ['88.00', '72.73', '0.05', '0.00', '100000000000.00'],
    );
    assert.deepEqual(
      [1000, 2000, 1500, 1, 12_345].map((thousandths) => quantity({ thousandths, text: '' }).text),
      ['1.000', '2.000', '1.500', '0.001', '12.345'],
    );
    assert.deepEqual(
      [210_000, 0, 1_000_000, 55_000, 125_000, 123_456, 50_000].map(
        (ppm) => fraction({ ppm, text: '' }).text,
      ),
      ['0.21', '0.00', '1.00', '0.055', '0.125', '0.123456', '0.05'],
    );
  });

  test('the net unit price: (total - tax) / quantity in integers, half up', () => {
    const one = { thousandths: 1000, text: '1' };
    const two = { thousandths: 2000, text: '2' };
    assert.equal(netUnitAmount(8800, 1527, one), 7273);
    assert.equal(netUnitAmount(1882, 327, two), 778, '777.5 rounds up');
    assert.equal(netUnitAmount(1878, 326, two), 776);
    assert.equal(netUnitAmount(300, 0, { thousandths: 1500, text: '1.5' }), 200);
  });

  test('writes JSON.stringify’s text, numbers kept as written; JSON.stringify reads them plain', () => {
    const value = {
      a: money(8800),
      b: [quantity({ thousandths: 2000, text: '2' }), null, 'x"y'],
      c: { d: undefined, e: true, f: new JsonNumber('-0.50') },
    };
    const text = writeJson(value);
    assert.equal(text, '{"a":88.00,"b":[2.000,null,"x\\"y"],"c":{"e":true,"f":-0.50}}');
    assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
    assert.equal(JSON.stringify(value), '{"a":88,"b":[2,null,"x\\"y"],"c":{"e":true,"f":-0.5}}');
  });
});
