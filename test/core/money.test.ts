import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  AmountError,
  formatMinorUnits,
  formatMoney,
  MAX_MINOR_UNITS,
  parseMinorUnits,
} from '../../src/core/money.js';

describe('money', () => {
  test('reads decimals exactly where floats would not', () => {
    assert.equal(parseMinorUnits(19.99), 1999); // 19.99 * 100 === 1998.9999999999998
    assert.equal(parseMinorUnits('0.29'), 29);
    assert.equal(parseMinorUnits(88), 8800);
    assert.equal(parseMinorUnits('12.5'), 1250);
    assert.equal(parseMinorUnits(' 7 '), 700);
    assert.equal(parseMinorUnits('-3.10'), -310);
  });

  test('refuses what is not a 2-decimal amount, saying what to write', () => {
    assert.throws(
      () => parseMinorUnits(0.1 + 0.2),
      (e: unknown) => e instanceof AmountError && e.code === 'too_many_decimals',
    );
    assert.throws(() => parseMinorUnits('12.345'), /3 decimals; amounts take at most 2/);
    assert.throws(
      () => parseMinorUnits('1,50'),
      (e: unknown) => e instanceof AmountError && e.code === 'not_a_decimal',
    );
    assert.throws(() => parseMinorUnits('1e3'), /not an amount/);
    assert.throws(() => parseMinorUnits(Number.NaN), /not an amount/);
    assert.throws(() => parseMinorUnits(null), /not an amount/);
    assert.throws(
      () => parseMinorUnits('100000000000.01'),
      (e: unknown) => e instanceof AmountError && e.code === 'too_large',
    );
  });

  test('formats with exactly two decimals, a dot and no separators', () => {
    assert.equal(formatMinorUnits(8800), '88.00');
    assert.equal(formatMinorUnits(0), '0.00');
    assert.equal(formatMinorUnits(5), '0.05');
    assert.equal(formatMinorUnits(-5), '-0.05');
    assert.equal(formatMinorUnits(123456789), '1234567.89');
  });

  test('property: format then parse returns the same minor units', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX_MINOR_UNITS, max: MAX_MINOR_UNITS }), (minor) => {
        assert.equal(parseMinorUnits(formatMinorUnits(minor)), minor);
      }),
    );
  });

  test('property: a number and its decimal string read the same', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (minor) => {
        const text = formatMinorUnits(minor);
        assert.equal(parseMinorUnits(Number(text)), parseMinorUnits(text));
      }),
    );
  });

  test('formats money for people with Intl', () => {
    assert.match(formatMoney(123456, 'EUR', 'en'), /€1,234\.56/);
    assert.match(formatMoney(123456, 'EUR', 'lv'), /1\s?234,56\s€/);
    assert.match(formatMoney(5, 'EUR', 'ru'), /0,05\s€/);
  });
});
