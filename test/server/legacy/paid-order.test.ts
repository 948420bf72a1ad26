/**
 * verifyPaidOrder against the real sandbox: orders created and paid over the widget API, notifications
 * signed and delivered by the sandbox to a merchant on a loopback server, verified with
 * constructPurchaseNotification, then checked against the order the merchant signed. Issue 9: the order
 * signature joins fields with no separator, so `Tea` + count `2` re-split as `Tea2` with no count carries the
 * same signature, and the gateway took the cheaper order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OrderValidationError } from '../../../src/core/order.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  constructPurchaseNotification,
  type ExpectedPaidOrder,
  type OrderInput,
  orderSignatureInput,
  type PurchaseNotification,
  signOrder,
  verifyOrderSignature,
  verifyPaidOrder,
} from '../../../src/server/index.js';
import { call, FakeMerchant, merchantKeys, startTestSandbox, WIDGETS } from '../../sandbox/support.js';

// biome-ignore lint/suspicious/noExplicitAny: the tests alter notifications as loose JSON, as a forger would
type Loose = Record<string, any>;

/** The test merchant's widget configuration defaults (test/sandbox/support.ts). */
const DEFAULTS = { currency: 'EUR', taxRate: '21' };
const VISA = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' };

let merchant: FakeMerchant;
let sandbox: Sandbox;
let sequence = 0;

before(async () => {
  merchant = await FakeMerchant.start();
  // A delivery price for options the order leaves unpriced (full checkout only).
  merchant.respond('/shipping-cost', () => ({ status: 200, body: JSON.stringify({ amount: '3.50' }) }));
  sandbox = await startTestSandbox(merchant);
});
after(async () => {
  await sandbox.close();
  await merchant.close();
});

/** Creates an order with `signature` (the shop's signature of `order` by default); the gateway's order id. */
async function create(order: OrderInput, signature = signOrder(order, merchantKeys.main.privateKeyPem)) {
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order,
    signature,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body['id'] as string;
}

/** Pays with `card` and returns the verified notification that this attempt's end sent. */
async function pay(
  id: string,
  extra: Record<string, unknown> = {},
  card: typeof VISA = VISA,
): Promise<PurchaseNotification> {
  const before = merchant.requests('/notify').length;
  sequence += 1;
  const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: `pay-${sequence}`,
    card,
    ...extra,
  });
  assert.ok(['PAID', 'FAILED'].includes(paid.body['state']), JSON.stringify(paid.body));
  const delivered = await merchant.waitFor('/notify', before + 1);
  const request = delivered.findLast((candidate) => JSON.parse(candidate.body).id === id)!;
  // What a merchant's route does first: the signature over the raw bytes.
  return constructPurchaseNotification(
    { rawBody: request.body, headers: request.headers },
    sandbox.serviceCertificatePem,
  );
}

const expected = (order: OrderInput): ExpectedPaidOrder => ({ order, defaults: DEFAULTS });

/** A copy of the notification with `change` applied to its parsed JSON. */
function altered(notification: PurchaseNotification, change: (body: Loose) => void): PurchaseNotification {
  const copy = structuredClone(notification) as unknown as Loose;
  change(copy);
  return copy as unknown as PurchaseNotification;
}

describe('verifyPaidOrder', () => {
  test('the field-boundary forgery passes the signature check but not verifyPaidOrder', async () => {
    const signed: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: 'FORGE-1',
      items: [{ amount: '12.50', label: 'Tea', count: 2 }],
    };
    const signature = signOrder(signed, merchantKeys.main.privateKeyPem);
    // The page's script moves the count into the label: whichever way counts are written, one of these
    // signs the very text the shop signed.
    const forged = ['Tea2', 'Tea2.000']
      .map((label): OrderInput => ({ ...signed, items: [{ amount: '12.50', label }] }))
      .find((order) => orderSignatureInput(order) === orderSignatureInput(signed));
    assert.ok(forged, 'a re-split order signs the same text');
    assert.ok(verifyOrderSignature(forged, signature, merchantKeys.main.publicKeyPem));

    const notification = await pay(await create(forged, signature));
    // The gateway's notification is genuine (constructPurchaseNotification passed): it took 12.50, not 25.00.
    assert.equal(notification.status, 'PAID');
    assert.equal(notification.order_id, 'FORGE-1');
    assert.equal(notification.total_amount, 12.5);

    const result = verifyPaidOrder(notification, expected(signed));
    assert.equal(result.ok, false);
    assert.ok(!result.ok);
    assert.equal(result.code, 'total_mismatch');
    assert.equal(result.field, 'total_amount');
    assert.match(result.message, /12\.50 was paid, but the signed order comes to 25\.00/);

    // The same order paid as signed passes, and says what was paid.
    const honest = { ...signed, orderId: 'FORGE-2' };
    const honestId = await create(honest);
    assert.deepEqual(verifyPaidOrder(await pay(honestId), expected(honest)), {
      ok: true,
      orderId: 'FORGE-2',
      gatewayOrderId: honestId,
      currency: 'EUR',
      totalAmount: '25.00',
      shippingOptionId: null,
    });
  });

  test("a forgery over the document's field order passes the signature check but not verifyPaidOrder", async () => {
    const signed: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: 'FORGE-DOC',
      items: [{ amount: '12.50', label: 'Tea', count: 2, unit: 'PIECE', taxRate: '21', orderItemId: 'T-1' }],
    };
    const signature = signOrder(signed, merchantKeys.main.privateKeyPem);
    // The gateway also reads the document's order (tax rate and item id before count and unit): the page
    // turns the count into a 2 % tax rate and the rest into the item id, and writes the shop's very text.
    const forged: OrderInput = {
      ...signed,
      items: [{ amount: '12.50', label: 'Tea', taxRate: '2', orderItemId: '0PIECE21.00T-1' }],
    };
    assert.equal(orderSignatureInput(forged, { itemFieldOrder: 'document' }), orderSignatureInput(signed));
    assert.ok(verifyOrderSignature(forged, signature, merchantKeys.main.publicKeyPem));

    const result = verifyPaidOrder(await pay(await create(forged, signature)), expected(signed));
    assert.ok(!result.ok);
    assert.equal(result.code, 'total_mismatch');
  });

  test('a fixed-seed fuzz of re-split orders: every one the gateway takes is refused', async () => {
    const random = mulberry32(9);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    let forgeries = 0;
    for (let round = 0; round < 12; round += 1) {
      const signed: OrderInput = {
        widgetId: WIDGETS.checkout,
        orderId: `FUZZ-${round}`,
        items: Array.from({ length: 1 + Math.floor(random() * 2) }, (_, index) => ({
          amount: pick(['1.00', '4.90', '12.50', '0.99']),
          label: `${pick(['Tea', 'Mug', 'Jam'])}${pick(['', ' 1', '7'])}`,
          ...(random() < 0.6 && { count: pick([2, 3, 12]) }),
          ...(random() < 0.5 && { taxRate: pick(['5', '0.12', '21']) }),
          ...(random() < 0.5 && { orderItemId: `sku${index}${pick(['', '1', '9'])}` }),
        })),
      };
      for (const resplit of resplits(signed)) {
        // Each forgery its own order: the shop signed `honest`, the page sent `forged` with that signature.
        forgeries += 1;
        const orderId = `${signed.orderId}-${forgeries}`;
        const honest = { ...signed, orderId };
        const forged = { ...resplit, orderId };
        const signature = signOrder(honest, merchantKeys.main.privateKeyPem);
        assert.ok(verifyOrderSignature(forged, signature, merchantKeys.main.publicKeyPem));
        const result = verifyPaidOrder(await pay(await create(forged, signature)), expected(honest));
        assert.equal(
          result.ok,
          false,
          `${JSON.stringify(forged.items)} passed as ${JSON.stringify(signed.items)}`,
        );
      }
    }
    assert.ok(forgeries >= 20, `the fuzz found ${forgeries} forgeries; it should find several`);
  });

  test('full checkout: shipping among the signed options, priced in the order or quoted by the shop', async () => {
    const signed: OrderInput = {
      widgetId: WIDGETS.full,
      orderId: 'SHIP-1',
      items: [{ amount: '30.00', label: 'Lamp', orderItemId: 'lamp' }],
      shippingOptions: [{ id: 'courier' }, { id: 'post', amount: '2.80', taxRate: '0' }],
    };
    const customer = { firstName: 'A', lastName: 'B', email: 'a@example.com', phone: '+37120000000' };
    const address = { city: 'Riga', address: 'Brivibas iela 1', postalCode: 'LV-1010' };
    const quoted = await create(signed);
    const quote = await call(sandbox, 'POST', `/widget-api/v1/orders/${quoted}/shipping-quotes`, {
      optionId: 'courier',
      address,
    });
    assert.equal(quote.status, 200, JSON.stringify(quote.body));
    const byCourier = await pay(quoted, { customer, shipping: { optionId: 'courier', address } });
    const courier = verifyPaidOrder(byCourier, expected(signed));
    assert.ok(courier.ok, JSON.stringify(courier));
    assert.equal(courier.totalAmount, '33.50');
    assert.equal(courier.shippingOptionId, 'courier');

    const byPost = { ...signed, orderId: 'SHIP-2' };
    const post = await pay(await create(byPost), { customer, shipping: { optionId: 'post', address } });
    assert.ok(verifyPaidOrder(post, expected(byPost)).ok);

    // A shipping option's tax rate is not signed: the shop signed post at its default rate, and the page
    // sent it at 0 with the same signature. The total is the same; the tax is not.
    const shopSigned: OrderInput = {
      ...signed,
      orderId: 'SHIP-3',
      shippingOptions: [{ id: 'courier' }, { id: 'post', amount: '2.80' }],
    };
    const pageSent = { ...byPost, orderId: 'SHIP-3' };
    const zeroRated = await pay(
      await create(pageSent, signOrder(shopSigned, merchantKeys.main.privateKeyPem)),
      {
        customer,
        shipping: { optionId: 'post', address },
      },
    );
    const otherRate = verifyPaidOrder(zeroRated, expected(shopSigned));
    assert.deepEqual(otherRate.ok ? otherRate : [otherRate.code, otherRate.field], [
      'tax_mismatch',
      'tax_amount',
    ]);
    const otherPrice = verifyPaidOrder(post, {
      ...expected(byPost),
      order: {
        ...byPost,
        shippingOptions: [{ id: 'courier' }, { id: 'post', amount: '4.80', taxRate: '0' }],
      },
    });
    assert.deepEqual(otherPrice.ok ? otherPrice : [otherPrice.code, otherPrice.field], [
      'total_mismatch',
      'total_amount',
    ]);
    const notOffered = verifyPaidOrder(post, {
      ...expected(byPost),
      order: { ...byPost, shippingOptions: [{ id: 'courier' }] },
    });
    assert.ok(!notOffered.ok);
    assert.equal(notOffered.code, 'shipping_mismatch');
    assert.equal(notOffered.field, 'shipping.method.id');
    assert.match(
      notOffered.message,
      /"post" is not a shipping option of the signed order, which offers only courier/,
    );
    const noShipping = verifyPaidOrder(post, {
      ...expected(byPost),
      order: { ...byPost, shippingOptions: [] },
    });
    assert.ok(!noShipping.ok);
    assert.equal(noShipping.code, 'shipping_mismatch');
  });

  test('a free option marked excludeFromOrderIfFree: no shipping line, named in shipping.method', async () => {
    const flagged: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: 'FREE-1',
      items: [{ amount: '30.00', label: 'Lamp' }],
      shippingOptions: [
        { id: 'courier', amount: '4.99' },
        { id: 'pickup', amount: 0, title: 'In store pickup', excludeFromOrderIfFree: true },
      ],
    };
    const free = await pay(await create(flagged), { shipping: { optionId: 'pickup' } });
    assert.deepEqual(
      free.items.map((item) => item.type),
      ['UNKNOWN'],
    );
    const ok = verifyPaidOrder(free, expected(flagged));
    assert.ok(ok.ok, JSON.stringify(ok));
    assert.equal(ok.shippingOptionId, 'pickup');
    assert.equal(ok.totalAmount, '30.00');
    // The flag is not signed: checked against an order without it, the missing free line is a mismatch, and
    // a notification with the line is one against the order with it.
    const unflagged = {
      ...flagged,
      shippingOptions: flagged.shippingOptions!.map(({ excludeFromOrderIfFree: _, ...option }) => option),
    };
    const missing = verifyPaidOrder(free, expected(unflagged));
    assert.deepEqual(missing.ok ? missing : [missing.code, missing.field], ['shipping_mismatch', 'items']);
    const withLine = await pay(await create({ ...unflagged, orderId: 'FREE-2' }), {
      shipping: { optionId: 'pickup' },
    });
    const extra = verifyPaidOrder(withLine, expected({ ...flagged, orderId: 'FREE-2' }));
    assert.deepEqual(extra.ok ? extra : [extra.code, extra.field], ['shipping_mismatch', 'items[1]']);
  });

  describe('each part of a real notification is compared', () => {
    const signed: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: 'PARTS-1',
      items: [
        { amount: '12.50', label: 'Tea', count: 2, orderItemId: 'tea' },
        { amount: '4.00', label: 'Mug', taxRate: '5' },
        // 18.82 holding 3.27 at 21%: (18.82 - 3.27) / 2 = 7.775, a net unit price that rounds either way.
        { amount: '9.41', label: 'Jam', count: 2 },
      ],
    };
    let notification: PurchaseNotification;
    before(async () => {
      notification = await pay(await create(signed));
    });
    const verdict = (changed: PurchaseNotification, order: OrderInput = signed) => {
      const result = verifyPaidOrder(changed, expected(order));
      return result.ok ? 'ok' : `${result.code} ${result.field}`;
    };

    test('the notification as delivered passes', () => {
      assert.equal(verdict(notification), 'ok');
    });

    test('what a page could change, or another order, is named with its field', () => {
      const cases: Array<[string, (body: Loose) => void]> = [
        ['order_id_mismatch order_id', (body) => (body['order_id'] = 'PARTS-2')],
        ['order_id_mismatch order_id', (body) => (body['order_id'] = null)],
        ['currency_mismatch currency', (body) => (body['currency'] = 'USD')],
        ['total_mismatch total_amount', (body) => (body['total_amount'] = 25)],
        ['tax_mismatch tax_amount', (body) => (body['tax_amount'] = 0)],
        ['item_count_mismatch items', (body) => body['items'].pop()],
        ['item_mismatch items[0].label', (body) => (body['items'][0].label = 'Tea2')],
        ['item_mismatch items[0].label', (body) => body['items'].reverse()],
        ['item_mismatch items[0].quantity', (body) => (body['items'][0].quantity = 1)],
        ['item_mismatch items[0].unit', (body) => (body['items'][0].unit = 'KILOGRAM')],
        ['item_mismatch items[1].tax_rate', (body) => (body['items'][1].tax_rate = 0.21)],
        ['item_mismatch items[0].total_amount', (body) => (body['items'][0].total_amount = 12.5)],
        ['item_mismatch items[0].tax_amount', (body) => (body['items'][0].tax_amount = 0)],
        // The net unit price is 10.33: a tampered one is refused, even by a cent.
        ['item_mismatch items[0].amount', (body) => (body['items'][0].amount = 12.5)],
        ['item_mismatch items[0].amount', (body) => (body['items'][0].amount = 10.34)],
        ['item_mismatch items[2].amount', (body) => (body['items'][2].amount = 7.76)],
        ['item_mismatch items[0].order_item_id', (body) => (body['items'][0].order_item_id = 'tea2')],
        ['item_mismatch items[1].order_item_id', (body) => (body['items'][1].order_item_id = 'mug')],
        [
          'shipping_mismatch shipping.method.id',
          (body) => {
            body['items'].push({ ...body['items'][1], type: 'SHIPPING' });
            body['shipping'] = { method: { id: 'teleport', name: 'Teleport' } };
          },
        ],
        ['malformed_notification total_amount', (body) => (body['total_amount'] = 'lots')],
        ['malformed_notification items', (body) => (body['items'] = null)],
        ['malformed_notification items[0].quantity', (body) => (body['items'][0].quantity = -2)],
        ['malformed_notification id', (body) => delete body['id']],
        // The format before issue 10: decimal strings, a tax rate as given. Numbers are the format now.
        ['malformed_notification total_amount', (body) => (body['total_amount'] = '33.32')],
        ['malformed_notification items[0].quantity', (body) => (body['items'][0].quantity = '2')],
        ['malformed_notification items[0].amount', (body) => (body['items'][0].amount = '10.33')],
        ['malformed_notification items[1].tax_rate', (body) => (body['items'][1].tax_rate = 5)],
        ['malformed_notification items[0].tax_amount', (body) => (body['items'][0].tax_amount = 4.339)],
      ];
      for (const [wanted, change] of cases) {
        assert.equal(verdict(altered(notification, change)), wanted, change.toString());
      }
    });

    test('a notification of another state is not a payment', async () => {
      const declined = { ...signed, orderId: 'PARTS-DECLINED' };
      const failed = await pay(await create(declined), {}, { ...VISA, number: '4000000000000002' });
      assert.equal(failed.status, 'FAILED');
      const result = verifyPaidOrder(failed, expected(declined));
      assert.ok(!result.ok);
      assert.equal(result.code, 'not_paid');
      assert.match(result.message, /^status: is "FAILED", not PAID/);
    });

    test('reads the real service’s wire shape: numbers, net unit prices, fractional tax rates', () => {
      // As the sandbox delivered it (test/sandbox/notification-wire-shape.test.ts checks its bytes).
      const [tea, mug, jam] = notification.items;
      assert.deepEqual(
        [tea!.amount, tea!.total_amount, tea!.tax_amount, tea!.quantity, tea!.tax_rate],
        [10.33, 25, 4.34, 2, 0.21],
      );
      assert.deepEqual([mug!.amount, mug!.tax_rate], [3.81, 0.05]);
      assert.equal(jam!.amount, 7.78, 'half up');
      assert.equal(notification.total_amount, 47.82);
      // A net unit price is derived, so another rounding of it is the same price; goods of a stated type are
      // items as UNKNOWN ones are.
      const otherRounding = altered(notification, (body) => {
        body['items'][2].amount = 7.77;
        for (const item of body['items']) item.type = 'PHYSICAL_GOODS';
      });
      assert.equal(verdict(otherRounding), 'ok');
    });

    test('refuses, as the caller’s mistake, an expected order that could never have been signed', () => {
      assert.throws(
        () => verifyPaidOrder(notification, { order: signed } as unknown as ExpectedPaidOrder),
        /verifyPaidOrder: the option "defaults" is required/,
      );
      assert.throws(
        () => verifyPaidOrder(notification, { order: signed, defaults: { currency: 'eur', taxRate: 21 } }),
        /verifyPaidOrder: defaults: the option "currency" must be an ISO 4217 code/,
      );
      assert.throws(
        () => verifyPaidOrder(notification, expected({ ...signed, items: [{ amount: '-1', label: 'x' }] })),
        (error: unknown) => error instanceof OrderValidationError && /items\[0\]\.amount/.test(error.message),
      );
    });
  });
});

/** A small seeded generator, so the fuzz runs the same cases every time. */
function mulberry32(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Orders that differ from `order` in one item, made by moving text across the boundary between the label and
 * the fields signed right around it (count, tax rate, item id), kept when they parse and sign the same text:
 * the forgeries a page can make without the merchant's key, whatever order the fields are signed in, and
 * whichever of the field orders the gateway accepts the page writes them in.
 */
function resplits(order: OrderInput): OrderInput[] {
  const found: OrderInput[] = [];
  const target = orderSignatureInput(order);
  const members = ['count', 'taxRate', 'orderItemId'] as const;
  order.items.forEach((item, index) => {
    const label = item.label;
    for (const member of members) {
      const text = item[member] === undefined ? '' : String(item[member]);
      const variants: Array<{ label: string; value: string }> = [];
      // The member's text (or a part of it) joins the label, or the label's tail becomes the member.
      for (let cut = 0; cut < text.length; cut += 1)
        variants.push({
          label: label + text.slice(0, text.length - cut),
          value: text.slice(text.length - cut),
        });
      for (let cut = 1; cut < label.length; cut += 1)
        variants.push({ label: label.slice(0, cut), value: label.slice(cut) + text });
      for (const variant of variants) {
        const changed = { ...item, label: variant.label };
        if (variant.value === '') delete changed[member];
        else changed[member] = variant.value;
        const candidate = {
          ...order,
          items: order.items.map((other, at) => (at === index ? changed : other)),
        };
        try {
          const texts = [
            orderSignatureInput(candidate),
            orderSignatureInput(candidate, { itemFieldOrder: 'document' }),
          ];
          if (texts.includes(target)) found.push(candidate);
        } catch {
          // Not a valid order: the gateway would refuse it before any signature check.
        }
      }
    }
  });
  return found;
}
