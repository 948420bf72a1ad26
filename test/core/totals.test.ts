import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type OrderInput,
  parseOrder,
  parseTaxRate,
  type Quantity,
  type TaxRate,
} from '../../src/core/order.js';
import {
  lineAmounts,
  PricingError,
  priceOrder,
  shippingLineAmounts,
  shippingTaxRate,
} from '../../src/core/totals.js';

const defaults = { currency: 'EUR', taxRate: parseTaxRate('21') };

function order(input: Omit<OrderInput, 'widgetId'>) {
  const { value, error } = parseOrder({ widgetId: 'w', ...input });
  if (error) throw error;
  return value;
}

/** Independent reference: exact rationals, rounded half up at the end. */
function reference(amountCents: number, count: string, rate: string) {
  const [cw, cf = ''] = count.split('.');
  const countNum = BigInt(cw + cf);
  const countDen = 10n ** BigInt(cf.length);
  const [rw, rf = ''] = rate.split('.');
  const rateNum = BigInt(rw + rf);
  let rateDen = 10n ** BigInt(rf.length);
  if (rateNum > rateDen) rateDen *= 100n; // a value above 1 is a percentage
  const roundHalfUp = (n: bigint, d: bigint) => (2n * n + d) / (2n * d);
  const total = roundHalfUp(BigInt(amountCents) * countNum, countDen);
  const tax = roundHalfUp(total * rateNum, rateDen + rateNum);
  return { total: Number(total), tax: Number(tax) };
}

describe('tax and totals', () => {
  test('worked examples', () => {
    const rate = parseTaxRate('0.21');
    assert.deepEqual(lineAmounts(8800, { thousandths: 1000, text: '1' }, rate), { total: 8800, tax: 1527 });
    // 3.33 x 1.5 kg = 4.995, rounded half up to 5.00
    assert.deepEqual(lineAmounts(333, { thousandths: 1500, text: '1.5' }, rate).total, 500);
    assert.equal(lineAmounts(1000, { thousandths: 1000, text: '1' }, parseTaxRate(0)).tax, 0);
  });

  test('a rate above 1 is a percentage: 21 and 0.21 tax alike', () => {
    assert.deepEqual(parseTaxRate('21').ppm, parseTaxRate('0.21').ppm);
    assert.deepEqual(parseTaxRate(5.5).ppm, parseTaxRate('0.055').ppm);
    assert.throws(() => parseTaxRate('101'), /above 100%/);
    assert.throws(() => parseTaxRate('-0.1'), /negative/);
    assert.throws(() => parseTaxRate('abc'), /not a rate/);
  });

  test('property: line amounts agree with exact rational arithmetic', () => {
    const rates = fc.oneof(
      fc.integer({ min: 0, max: 100 }).map(String),
      fc.integer({ min: 0, max: 999999 }).map((n) => `0.${String(n).padStart(6, '0')}`),
    );
    const counts = fc.integer({ min: 1, max: 100000 }).map((n) => (n / 1000).toString());
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 8 }), counts, rates, (amount, count, rate) => {
        const quantity: Quantity = { thousandths: Math.round(Number(count) * 1000), text: count };
        const taxRate: TaxRate = parseTaxRate(rate);
        const got = lineAmounts(amount, quantity, taxRate);
        assert.deepEqual(got, reference(amount, count, rate));
        assert.ok(got.tax <= got.total && got.tax >= 0);
      }),
    );
  });

  test('property: the order total is the sum of its lines, shipping included', () => {
    const item = fc.record({
      amount: fc.integer({ min: 0, max: 10 ** 7 }).map((n) => (n / 100).toFixed(2)),
      label: fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() !== ''),
      count: fc.integer({ min: 1, max: 50 }),
      taxRate: fc.constantFrom('0', '0.05', '12', '21', 21),
    });
    fc.assert(
      fc.property(
        fc.array(item, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 5000 }),
        (items, ship) => {
          const priced = priceOrder(
            order({ items, shippingOptions: [{ id: 'dpd', amount: ship / 100 }] }),
            defaults,
            {
              id: 'dpd',
            },
          );
          assert.equal(priced.lines.length, items.length + 1);
          assert.equal(
            priced.total,
            priced.lines.reduce((s, l) => s + l.total, 0),
          );
          assert.equal(
            priced.tax,
            priced.lines.reduce((s, l) => s + l.tax, 0),
          );
          assert.equal(priced.lines.at(-1)?.total, ship);
        },
      ),
    );
  });

  test('a free option marked excludeFromOrderIfFree adds no line; priced above 0, or unmarked, it does', () => {
    const o = order({
      items: [{ amount: 10, label: 'Tea' }],
      shippingOptions: [
        { id: 'pickup', amount: 0, title: 'In store pickup', excludeFromOrderIfFree: true },
        { id: 'free', amount: 0, excludeFromOrderIfFree: null },
        { id: 'quoted', excludeFromOrderIfFree: true },
      ],
    });
    const shippingLines = (id: string, amount?: number) =>
      priceOrder(o, defaults, { id, ...(amount !== undefined && { amount }) }).lines.filter(
        (line) => line.type === 'SHIPPING',
      );
    assert.deepEqual(shippingLines('pickup'), []);
    assert.deepEqual(shippingLines('quoted', 0), [], 'priced 0 by the shipping cost URL');
    assert.deepEqual(
      shippingLines('quoted', 250).map((line) => line.total),
      [250],
    );
    assert.deepEqual(
      shippingLines('free').map((line) => [line.label, line.total]),
      [['free', 0]],
    );
    assert.equal(priceOrder(o, defaults, { id: 'pickup' }).total, 1000);
  });

  test('defaults fill what the order leaves open; shipping needs a price', () => {
    const o = order({ items: [{ amount: 10, label: 'Tea' }], shippingOptions: [{ id: 'later' }] });
    const priced = priceOrder(o, defaults);
    assert.equal(priced.currency, 'EUR');
    assert.equal(priced.lines[0]?.taxRate.text, '21');
    assert.throws(
      () => priceOrder(o, defaults, { id: 'later' }),
      (e: unknown) => e instanceof PricingError && e.code === 'shipping_not_priced',
    );
    assert.throws(() => priceOrder(o, defaults, { id: 'nope' }), /not in the order/);
    assert.equal(priceOrder(o, defaults, { id: 'later', amount: 499, label: 'Courier' }).total, 1499);
  });

  test("a shipping line is named by the option's label, else its id", () => {
    const o = order({
      items: [{ amount: 10, label: 'Tea' }],
      shippingOptions: [
        { id: 'express', amount: '6.90', label: 'Express courier' },
        { id: 'post', amount: '2.80' },
      ],
    });
    assert.equal(priceOrder(o, defaults, { id: 'express' }).lines[1]?.label, 'Express courier');
    assert.equal(priceOrder(o, defaults, { id: 'post' }).lines[1]?.label, 'post');
  });

  test("a shipping line's tax: the option's rate, else the quoted one, else the default; one computation", () => {
    const o = order({
      items: [{ amount: '30.00', label: 'Tea' }],
      shippingOptions: [
        { id: 'express', amount: '6.90' },
        { id: 'reduced', amount: '6.90', taxRate: '0.05' },
        { id: 'later' },
      ],
    });
    const five = parseTaxRate('5');
    const [express, reduced, later] = o.shippingOptions;
    assert.equal(shippingTaxRate(express!, defaults.taxRate).text, '21');
    assert.equal(shippingTaxRate(express!, defaults.taxRate, five).text, '5');
    assert.equal(shippingTaxRate(reduced!, defaults.taxRate, five).text, '0.05');
    assert.equal(shippingTaxRate(later!, defaults.taxRate).text, '21');
    // 6.90 gross at 21%: 1.20 of VAT, which priceOrder adds to the items' 5.21.
    assert.deepEqual(shippingLineAmounts(690, defaults.taxRate), { total: 690, tax: 120 });
    const priced = priceOrder(o, defaults, { id: 'express' });
    assert.equal(priced.tax, 521 + 120);
    assert.deepEqual(priced.lines[1], {
      ...priced.lines[1],
      ...shippingLineAmounts(690, defaults.taxRate),
    });
    assert.equal(
      priceOrder(o, defaults, { id: 'later', amount: 690, taxRate: five }).tax,
      521 + shippingLineAmounts(690, five).tax,
    );
  });
});
