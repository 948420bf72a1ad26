// The order signature input, written out by hand from the facts of issue 10: the real service's documentation
// (its worked examples) and its official PHP client (klix-app/merchant-api-php, `toSignatureSource` and the
// unit test beside it). Fields joined with no separator, absent ones left out, in the client's order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type OrderInput, OrderValidationError } from '../../src/core/order.js';
import { orderSignatureInput } from '../../src/core/signature-input.js';

const widgetId = '6f1e1c1a-3b8e-4a8f-9e57-2f0d5c6a7b10';

describe('orderSignatureInput: the documentation’s worked examples', () => {
  test('single item: widget id, language, back URL, order id, amount, currency, label', () => {
    const input = orderSignatureInput({
      widgetId,
      language: 'lv',
      backToMerchantUrl: 'https://shop.example/cart',
      orderId: 'A-1',
      items: [{ amount: 88, currency: 'EUR', label: 'Kettle' }],
    });
    assert.equal(input, `${widgetId}lvhttps://shop.example/cartA-188.00EURKettle`);
  });

  // Each item has either count and unit or tax rate and item id, never both: so the documentation's order
  // (tax rate, item id, count, unit) and the client's (count, unit, tax rate, item id) write the same text.
  // (With both, they differ: see the next test.)
  const multiItem: OrderInput = {
    widgetId,
    language: 'en',
    orderId: 'A-2',
    items: [
      { amount: '12.5', currency: 'EUR', label: 'Tea', count: 2, unit: 'PIECE' },
      { amount: 88, currency: 'EUR', label: 'Kettle', taxRate: 0.21, orderItemId: 'K-1' },
    ],
    shippingOptions: [{ id: 'courier', amount: '4.99', currency: 'EUR', taxRate: 0.21 }],
  };

  test('several items, each with count/unit or tax rate/item id, and a shipping option: counts %.3f', () => {
    assert.equal(
      orderSignatureInput(multiItem),
      `${widgetId}enA-2` + '12.50EURTea2.000PIECE' + '88.00EURKettle0.21K-1' + 'courier4.99EUR',
    );
  });

  test('the same order in the plain-count form of the worked example (2, not 2.000), on request', () => {
    assert.equal(
      orderSignatureInput(multiItem, { countForm: 'as-given' }),
      `${widgetId}enA-2` + '12.50EURTea2PIECE' + '88.00EURKettle0.21K-1' + 'courier4.99EUR',
    );
  });
});

describe('orderSignatureInput: the documentation’s item field order, on request', () => {
  test('an item with both count/unit and tax rate/item id: tax rate and item id come first', () => {
    const order: OrderInput = {
      widgetId,
      items: [{ amount: 5, label: 'Jam', count: 3, unit: 'PIECE', taxRate: '0.12', orderItemId: 'J-1' }],
    };
    assert.equal(orderSignatureInput(order), `${widgetId}5.00Jam3.000PIECE0.12J-1`);
    assert.equal(
      orderSignatureInput(order, { itemFieldOrder: 'document' }),
      `${widgetId}5.00Jam0.12J-13.000PIECE`,
    );
    assert.equal(
      orderSignatureInput(order, { itemFieldOrder: 'document', countForm: 'as-given' }),
      `${widgetId}5.00Jam0.12J-13PIECE`,
    );
  });
});

describe('orderSignatureInput: the official client’s behaviour', () => {
  test('its unit test’s order: certificate name after the language, %.3f counts, constraints last', () => {
    // The client's own test order: the second item has no count, unit, tax rate or id, the first shipping
    // option no currency, and the constraints only a brand; each absent field is left out.
    const input = orderSignatureInput({
      widgetId: 'd700a786-56da-11ea-8e2d-0242ac130003',
      language: 'lv',
      certificateName: '6af6c4fc-56db-11ea-8e2d-0242ac130003',
      backToMerchantUrl: 'https://merchant.home.url.com',
      orderId: '36c420f4-5487-11ea-a2e3-2e728ce88125',
      items: [
        {
          amount: 122.99,
          count: 2,
          currency: 'EUR',
          label: 'Vacuum cleaner TC31',
          orderItemId: 'ff713414-56f9-11ea-82b4-0242ac130003',
          taxRate: 0.21,
          unit: 'PIECE',
        },
        { amount: 7.05, currency: 'EUR', label: 'Filter for TC31' },
      ],
      shippingOptions: [
        { id: 'courier', amount: 3 },
        { id: 'pickup', label: 'In store pickup', amount: 0, currency: 'EUR' },
      ],
      constraints: { brand: 'Citadele' },
    });
    assert.equal(
      input,
      'd700a786-56da-11ea-8e2d-0242ac130003' +
        'lv' +
        '6af6c4fc-56db-11ea-8e2d-0242ac130003' +
        'https://merchant.home.url.com' +
        '36c420f4-5487-11ea-a2e3-2e728ce88125' +
        '122.99EURVacuum cleaner TC312.000PIECE0.21ff713414-56f9-11ea-82b4-0242ac130003' +
        '7.05EURFilter for TC31' +
        'courier3.00' +
        'pickup0.00EUR' +
        'Citadele',
    );
  });

  test('every field in place: certificate name, success URL, back URL, order id, item, option, constraints', () => {
    const input = orderSignatureInput({
      // Members in another order than the input's: the input's order is fixed, not the object's.
      constraints: { brand: 'B', issuer: 'I', paymentScheme: 'VISA' },
      shippingOptions: [{ currency: 'EUR', amount: '2.8', id: 'post' }],
      items: [
        {
          orderItemId: 'T1',
          taxRate: '21',
          unit: 'KILOGRAM',
          count: '1.5',
          label: 'Tea',
          currency: 'EUR',
          amount: '6.4',
        },
      ],
      orderId: 'A-3',
      backToMerchantUrl: 'https://shop.example/cart',
      successRedirectUrl: 'https://shop.example/thanks',
      certificateName: 'main',
      language: 'lv',
      widgetId,
    });
    assert.equal(
      input,
      `${widgetId}lvmainhttps://shop.example/thankshttps://shop.example/cartA-3` +
        '6.40EURTea1.500KILOGRAM21.00T1' +
        'post2.80EUR' +
        'VISAIB',
    );
  });

  test('constraints alone, some of them: payment scheme, issuer, brand, each only when given', () => {
    const items = [{ amount: 1, label: 'A' }];
    const of = (constraints: OrderInput['constraints']) =>
      orderSignatureInput({ widgetId, items, constraints }).slice(`${widgetId}1.00A`.length);
    assert.equal(of({ issuer: 'Citadele' }), 'Citadele');
    assert.equal(of({ brand: 'VISA_ELECTRON', paymentScheme: 'VISA' }), 'VISAVISA_ELECTRON');
    assert.equal(of({}), '');
  });

  test('amounts %.2f, counts %.3f, tax rates %.2f of the value as given', () => {
    const itemText = (item: OrderInput['items'][number]) =>
      orderSignatureInput({ widgetId, items: [item] }).slice(widgetId.length);
    assert.equal(itemText({ amount: 88, label: 'X' }), '88.00X');
    assert.equal(itemText({ amount: '0', label: 'X' }), '0.00X');
    assert.equal(itemText({ amount: '12.5', label: 'X', count: '2' }), '12.50X2.000');
    assert.equal(itemText({ amount: 1, label: 'X', count: '2.50', unit: 'METER' }), '1.00X2.500METER');
    assert.equal(itemText({ amount: 1, label: 'X', count: 0.125, unit: 'LITRE' }), '1.00X0.125LITRE');
    assert.equal(itemText({ amount: 1, label: 'X', taxRate: 0.21 }), '1.00X0.21');
    assert.equal(itemText({ amount: 1, label: 'X', taxRate: 21 }), '1.00X21.00');
    assert.equal(itemText({ amount: 1, label: 'X', taxRate: '5.5' }), '1.00X5.50');
    assert.equal(itemText({ amount: 1, label: 'X', taxRate: '0' }), '1.00X0.00');
  });

  test('a tax rate with more places is written as the client’s sprintf("%.2f", float) writes it', () => {
    const rateText = (taxRate: string) =>
      orderSignatureInput({ widgetId, items: [{ amount: 1, label: 'X', taxRate }] }).slice(
        `${widgetId}1.00X`.length,
      );
    // The nearest double decides, not the decimal as written: 0.055's double is a little above 0.055, 0.075's
    // a little below 0.075. An exact tie in binary (0.125 = 1/8) goes to the even digit.
    const cases: Record<string, string> = {
      '0.055': '0.06',
      '0.075': '0.07',
      '0.015': '0.01',
      '0.045': '0.04',
      '0.005': '0.01',
      '0.0049': '0.00',
      '0.215': '0.21',
      '0.125': '0.12',
      '0.375': '0.38',
      '0.210': '0.21',
      '12.345': '12.35',
      '5.125': '5.12',
      '7.005': '7.00',
      '99.995': '100.00',
      '0.000001': '0.00',
    };
    for (const [rate, text] of Object.entries(cases)) assert.equal(rateText(rate), text, rate);
  });

  test('property: a rate’s text is ECMAScript’s exact toFixed(2) of its double, ties to even', () => {
    // toFixed rounds the double's exact value too, but takes an exact tie up; such ties are the multiples of
    // 1/8 that are not of 1/4 (0.125, 0.375, ...), which sprintf takes to the even hundredth.
    const rates = fc.oneof(
      fc.integer({ min: 0, max: 1_000_000 }).map((ppm) => (ppm / 1e6).toFixed(6)),
      fc.integer({ min: 0, max: 1_000_000 }).map((units) => (units / 1e4).toFixed(4)),
    );
    fc.assert(
      fc.property(rates, (rate) => {
        const value = Number(rate);
        const tie = Number.isInteger(value * 8) && !Number.isInteger(value * 4);
        const expected = tie ? (2 * Math.round(value * 50)) / 100 : value;
        const text = orderSignatureInput({ widgetId, items: [{ amount: 1, label: 'X', taxRate: rate }] });
        assert.equal(text, `${widgetId}1.00X${expected.toFixed(2)}`, rate);
      }),
      { seed: 10, numRuns: 2000 },
    );
  });
});

describe('orderSignatureInput: what is not signed', () => {
  test("a shipping option's tax rate, label and type are not signed", () => {
    const plain: OrderInput = {
      widgetId,
      orderId: 'A-2',
      items: [{ amount: '39.00', label: 'Desk lamp' }],
      shippingOptions: [{ id: 'courier' }, { id: 'locker' }, { id: 'post', amount: '2.80', currency: 'EUR' }],
    };
    const extended: OrderInput = {
      ...plain,
      shippingOptions: [
        { id: 'courier', label: 'Courier', type: 'ADDRESS' },
        { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT', taxRate: 0.21 },
        { id: 'post', amount: '2.80', currency: 'EUR', label: 'Latvian Post', taxRate: '12' },
      ],
    };
    assert.equal(orderSignatureInput(extended), orderSignatureInput(plain));
    assert.equal(orderSignatureInput(extended), `${widgetId}A-239.00Desk lampcourierlockerpost2.80EUR`);
  });

  test('an invalid order cannot be signed, naming the field', () => {
    assert.throws(
      () => orderSignatureInput({ widgetId, items: [{ amount: '1.999', label: 'X' }] }),
      (e: unknown) => e instanceof OrderValidationError && e.issues[0]?.path === 'items[0].amount',
    );
    assert.throws(
      () =>
        orderSignatureInput({ widgetId, successRedirectUrl: '/thanks', items: [{ amount: 1, label: 'X' }] }),
      (e: unknown) => e instanceof OrderValidationError && e.issues[0]?.path === 'successRedirectUrl',
    );
  });
});

describe('orderSignatureInput: properties', () => {
  const amount = fc.integer({ min: 0, max: 10 ** 8 });
  const generatedItem = fc.record(
    {
      amount,
      currency: fc.constant('EUR'),
      label: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
      taxRate: fc.constantFrom('0.21', '21', '0', '5.5', '0.12'),
      orderItemId: fc.stringMatching(/^[A-Z0-9-]{1,8}$/),
      count: fc.integer({ min: 1, max: 999 }),
      unit: fc.constantFrom('PIECE' as const, 'HOUR' as const),
    },
    { requiredKeys: ['amount', 'label'] },
  );
  const generatedOrder = fc.record(
    {
      widgetId: fc.uuid(),
      language: fc.constantFrom('lv', 'en', 'ru'),
      certificateName: fc.stringMatching(/^[a-z0-9-]{1,10}$/),
      successRedirectUrl: fc.constantFrom('https://shop.example/thanks', 'http://127.0.0.1:5173/paid?x=1'),
      backToMerchantUrl: fc.constantFrom('https://shop.example/cart'),
      orderId: fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/),
      items: fc.array(generatedItem, { minLength: 1, maxLength: 8 }),
      shippingOptions: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^[a-z]{1,6}$/), amount }, { requiredKeys: ['id'] }),
        { selector: (o) => o.id, maxLength: 3 },
      ),
      constraints: fc.record(
        {
          paymentScheme: fc.constantFrom('VISA', 'MASTERCARD'),
          issuer: fc.constantFrom('Citadele', 'Swedbank'),
          brand: fc.constantFrom('VISA_ELECTRON', 'MAESTRO'),
        },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: ['widgetId', 'items'] },
  );

  test('property: amounts as numbers, cents or decimal strings sign alike', () => {
    fc.assert(
      fc.property(generatedOrder, (order) => {
        const asStrings = (cents: number) => (cents / 100).toFixed(2);
        const asNumbers = (cents: number) => Number((cents / 100).toFixed(2));
        const withAmounts = (f: (c: number) => string | number): OrderInput => ({
          ...order,
          items: order.items.map((i) => ({ ...i, amount: f(i.amount) })),
          shippingOptions: order.shippingOptions?.map((o) =>
            o.amount === undefined ? o : { ...o, amount: f(o.amount) },
          ),
        });
        assert.equal(
          orderSignatureInput(withAmounts(asStrings)),
          orderSignatureInput(withAmounts(asNumbers)),
        );
      }),
      { seed: 10 },
    );
  });

  test('property: the input is the concatenation of the given fields in the settled order', () => {
    fc.assert(
      fc.property(generatedOrder, (raw) => {
        const order: OrderInput = {
          ...raw,
          items: raw.items.map((i) => ({ ...i, amount: (i.amount / 100).toFixed(2) })),
          shippingOptions: raw.shippingOptions?.map((o) => ({
            ...o,
            ...(o.amount !== undefined && { amount: (o.amount / 100).toFixed(2) }),
          })),
        };
        // An independent spelling of the rule, for rates of at most 2 places and whole counts.
        const twoPlaces = (rate: string | number | null | undefined) =>
          rate === undefined || rate === null ? undefined : Number(rate).toFixed(2);
        const fields: Array<string | null | undefined> = [
          order.widgetId,
          order.language,
          order.certificateName,
          order.successRedirectUrl,
          order.backToMerchantUrl,
          order.orderId,
        ];
        for (const i of order.items)
          fields.push(
            String(i.amount),
            i.currency,
            i.label,
            i.count === undefined ? undefined : `${i.count}.000`,
            i.unit,
            twoPlaces(i.taxRate),
            i.orderItemId?.toString(),
          );
        for (const o of order.shippingOptions ?? []) fields.push(o.id, o.amount?.toString(), o.currency);
        const { paymentScheme, issuer, brand } = order.constraints ?? {};
        fields.push(paymentScheme, issuer, brand);
        assert.equal(
          orderSignatureInput(order),
          fields.filter((f) => f !== undefined && f !== null).join(''),
        );
      }),
      { seed: 10 },
    );
  });
});
