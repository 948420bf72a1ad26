import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type OrderInput, OrderValidationError } from '../../src/core/order.js';
import { orderSignatureInput } from '../../src/core/signature-input.js';

const widgetId = '6f1e1c1a-3b8e-4a8f-9e57-2f0d5c6a7b10';

describe('orderSignatureInput', () => {
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

  test('several items and shipping options, absent fields left out entirely', () => {
    const input = orderSignatureInput({
      widgetId,
      language: 'en',
      items: [
        {
          amount: '12.5',
          currency: 'EUR',
          label: 'Tea',
          taxRate: 0.21,
          orderItemId: 'T1',
          count: 2,
          unit: 'PIECE',
        },
        { amount: 0, label: 'Gift wrap' },
        { amount: 3.3, label: 'Apples', taxRate: '21', count: '1.5', unit: 'KILOGRAM' },
      ],
      shippingOptions: [{ id: 'dpd', amount: 4.99, currency: 'EUR', taxRate: 0.21 }, { id: 'pickup' }],
      constraints: { paymentScheme: 'VISA' },
    });
    assert.equal(
      input,
      `${widgetId}en` +
        '12.50EURTea0.21T12PIECE' +
        '0.00Gift wrap' +
        '3.30Apples211.5KILOGRAM' +
        'dpd4.99EUR' +
        'pickup',
    );
  });

  test('counts in the three-decimal form of the prose, on request', () => {
    const order: OrderInput = {
      widgetId,
      items: [
        { amount: 1, label: 'A', count: 2 },
        { amount: 1, label: 'B', count: '1.5', unit: 'LITRE' },
      ],
    };
    assert.equal(orderSignatureInput(order), `${widgetId}1.00A21.00B1.5LITRE`);
    assert.equal(
      orderSignatureInput(order, { countForm: 'three-decimals' }),
      `${widgetId}1.00A2.0001.00B1.500LITRE`,
    );
  });

  test("a shipping option's label and type are not signed: the input stays the same with them", () => {
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
        { id: 'locker', label: 'Pickup point', type: 'PICKUP_POINT' },
        { id: 'post', amount: '2.80', currency: 'EUR', label: 'Latvian Post' },
      ],
    };
    assert.equal(orderSignatureInput(extended), orderSignatureInput(plain));
    assert.equal(orderSignatureInput(extended), `${widgetId}A-239.00Desk lampcourierlockerpost2.80EUR`);
  });

  test('an invalid order cannot be signed', () => {
    assert.throws(
      () => orderSignatureInput({ widgetId, items: [{ amount: '1.999', label: 'X' }] }),
      (e: unknown) => e instanceof OrderValidationError && e.issues[0]?.path === 'items[0].amount',
    );
  });

  const amount = fc.integer({ min: 0, max: 10 ** 8 });
  const generatedItem = fc.record(
    {
      amount,
      currency: fc.constant('EUR'),
      label: fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== ''),
      taxRate: fc.constantFrom('0.21', '21', '0', '5.5'),
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
      orderId: fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/),
      items: fc.array(generatedItem, { minLength: 1, maxLength: 8 }),
      shippingOptions: fc.uniqueArray(
        fc.record({ id: fc.stringMatching(/^[a-z]{1,6}$/), amount }, { requiredKeys: ['id'] }),
        { selector: (o) => o.id, maxLength: 3 },
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
        // An independent spelling of the rule: every present field as text, in order.
        const fields = [order.widgetId, order.language, order.backToMerchantUrl, order.orderId];
        for (const i of order.items)
          fields.push(
            String(i.amount),
            i.currency,
            i.label,
            i.taxRate?.toString(),
            i.orderItemId?.toString(),
            i.count?.toString(),
            i.unit,
          );
        for (const o of order.shippingOptions ?? []) fields.push(o.id, o.amount?.toString(), o.currency);
        assert.equal(orderSignatureInput(order), fields.filter((f) => f !== undefined).join(''));
      }),
    );
  });
});
