// Card schemes at the gateway: "by default all cards of two card schemes are accepted", Visa and Mastercard.
// A payment request made by hand, past the frame (which refuses other cards as they are typed), is refused
// with `card_scheme_not_accepted` unless the widget's config (`cardSchemes`) takes the scheme; an order's
// `constraints.paymentScheme` narrows further. The config's checks of the setting are here too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { luhnCheckDigit, type OrderInput } from '../../../src/core/index.js';
import { ConfigError, parseConfig } from '../../../src/sandbox/config.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { startSandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder } from '../../../src/server/index.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  takenOrder,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';

/** A widget of the test merchant that takes every scheme the sandbox knows. */
const ALL_SCHEMES = '00000000-0000-4000-8000-0000000000a5';
const AMEX = '378282246310005';
const MAESTRO = '6759649826438453';

const card = (number: string, cvc = '123') => ({ number, expiry: '12/34', cvc, holder: 'Test Person' });
let counter = 0;

describe('card schemes at the gateway', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.widgets!.push({
      id: ALL_SCHEMES,
      type: 'CHECKOUT',
      cardSchemes: ['VISA', 'MASTERCARD', 'AMEX', 'MAESTRO'],
    });
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  /** An order of 9.90 for `widgetId`, taken by the gateway (see takenOrder); its gateway id. */
  function order(widgetId: string, extra: Partial<OrderInput> = {}): Promise<string> {
    return takenOrder(sandbox, {
      widgetId,
      orderId: `S-${++counter}`,
      items: [{ amount: '9.90', currency: 'EUR', label: 'Tea' }],
      ...extra,
    });
  }

  /** A payment request as anyone can make it, without the frame. */
  function pay(id: string, number: string, cvc?: string) {
    return call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
      idempotencyKey: `k-${++counter}`,
      card: card(number, cvc),
    });
  }

  test('tells the frame which schemes a widget takes: Visa and Mastercard unless its config says more', async () => {
    const plain = await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.checkout}`);
    assert.deepEqual(plain.body['cardSchemes'], ['VISA', 'MASTERCARD']);
    const instant = await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.instant}`);
    assert.deepEqual(instant.body['cardSchemes'], ['VISA', 'MASTERCARD']);
    const all = await call(sandbox, 'GET', `/widget-api/v1/widgets/${ALL_SCHEMES}`);
    assert.deepEqual(all.body['cardSchemes'], ['VISA', 'MASTERCARD', 'AMEX', 'MAESTRO']);
  });

  test('refuses an American Express or Maestro card by default, charging nothing, and then takes a Visa', async () => {
    const id = await order(WIDGETS.checkout);
    for (const [number, cvc, scheme] of [
      [AMEX, '1234', 'AMEX'],
      [MAESTRO, '123', 'MAESTRO'],
    ] as const) {
      const refused = await pay(id, number, cvc);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body['error'].code, 'card_scheme_not_accepted');
      assert.equal(refused.body['error'].field, 'card.number');
      // The developer reads which setting decides, and what the card was.
      assert.match(refused.body['error'].message, /takes only VISA, MASTERCARD cards \(its cardSchemes/);
      assert.match(refused.body['error'].message, new RegExp(`scheme is ${scheme}$`));
    }
    const status = await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`);
    assert.equal(status.body['state'], 'CREATED');
    const paid = await pay(id, '5555555555554444');
    assert.equal(paid.body['state'], 'PAID', JSON.stringify(paid.body));
  });

  test('takes American Express and Maestro where the widget’s config allows them', async () => {
    const amex = await pay(await order(ALL_SCHEMES), AMEX, '1234');
    assert.equal(amex.body['state'], 'PAID', JSON.stringify(amex.body));
    const maestro = await pay(await order(ALL_SCHEMES), MAESTRO);
    assert.equal(maestro.body['state'], 'PAID', JSON.stringify(maestro.body));
  });

  test('lets the order’s paymentScheme constraint narrow the widget’s schemes further', async () => {
    const visaOnly = await order(ALL_SCHEMES, { constraints: { paymentScheme: 'VISA' } });
    const refused = await pay(visaOnly, AMEX, '1234');
    assert.equal(refused.status, 400);
    assert.equal(refused.body['error'].code, 'card_not_accepted');
    // A constraint cannot widen them: an AMEX-only order on a Visa and Mastercard widget could take no card,
    // so the gateway refuses it at once, naming the constraint, rather than after the customer typed a card.
    const input: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: `S-${++counter}`,
      items: [{ amount: '9.90', currency: 'EUR', label: 'Tea' }],
      constraints: { paymentScheme: 'AMEX' },
    };
    const amexOnly = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });
    assert.equal(amexOnly.status, 400, JSON.stringify(amexOnly.body));
    assert.equal(amexOnly.body['error'].code, 'invalid_order');
    assert.equal(amexOnly.body['error'].field, 'order.constraints.paymentScheme');
    assert.match(
      amexOnly.body['error'].message,
      /none of the card schemes this widget takes \(VISA, MASTERCARD\)/,
    );
  });

  test('refuses every card of another scheme in a fixed-seed run of hand-made requests', async () => {
    // A small linear congruential generator: the same numbers on every run, so a failure repeats.
    let seed = 0x5eed;
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    const digits = (count: number) => Array.from({ length: count }, () => String(next(10))).join('');
    // Prefixes of American Express (15 digits), Maestro (16) and numbers of no scheme we know (16).
    const kinds = [
      { prefixes: ['34', '37'], length: 15 },
      { prefixes: ['50', '56', '58', '6', '6759'], length: 16 },
      { prefixes: ['1', '7', '8', '9', '30', '36'], length: 16 },
    ];
    const id = await order(WIDGETS.checkout);
    for (let run = 0; run < 150; run++) {
      const kind = kinds[next(kinds.length)]!;
      const prefix = kind.prefixes[next(kind.prefixes.length)]!;
      const partial = prefix + digits(kind.length - prefix.length - 1);
      const number = partial + luhnCheckDigit(partial);
      // As people write numbers: grouped with spaces or dashes, or not at all.
      const written = [
        number,
        number.replace(/(\d{4})(?=\d)/g, '$1 '),
        number.replace(/(\d{4})(?=\d)/g, '$1-'),
      ][next(3)]!;
      const answer = await pay(id, written, kind.length === 15 ? '1234' : '123');
      assert.equal(answer.status, 400, `${written}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body['error'].code, 'card_scheme_not_accepted', written);
    }
    const status = await call(sandbox, 'GET', `/widget-api/v1/orders/${id}`);
    assert.equal(status.body['state'], 'CREATED');
  });
});

describe('the cardSchemes setting', () => {
  function widgetsWith(cardSchemes: unknown) {
    const file = testConfigFile('http://127.0.0.1:9');
    (file.merchants[0]!.widgets![1] as unknown as Record<string, unknown>)['cardSchemes'] = cardSchemes;
    return file;
  }

  function refusal(cardSchemes: unknown): string {
    try {
      parseConfig(widgetsWith(cardSchemes));
    } catch (error) {
      assert.ok(error instanceof ConfigError, String(error));
      return error.message;
    }
    assert.fail(`cardSchemes ${JSON.stringify(cardSchemes)} was taken`);
  }

  test('defaults to Visa and Mastercard, and keeps what the config names', () => {
    const widgets = parseConfig(testConfigFile('http://127.0.0.1:9')).merchants[0]!.widgets;
    for (const widget of widgets) assert.deepEqual(widget.cardSchemes, ['VISA', 'MASTERCARD'], widget.id);
    const amex = parseConfig(widgetsWith(['AMEX', 'VISA'])).merchants[0]!.widgets[1]!;
    assert.deepEqual(amex.cardSchemes, ['AMEX', 'VISA']);
  });

  test('refuses a scheme it does not know, and a widget that would take no card, naming the field', () => {
    assert.match(
      refusal(['VISA', 'DINERS']),
      /merchants\[0\]\.widgets\[1\]\.cardSchemes\[1\]: must be one of/,
    );
    assert.match(
      refusal(['visa']),
      /widgets\[1\]\.cardSchemes\[0\]: must be one of VISA, MASTERCARD, AMEX, MAESTRO/,
    );
    assert.match(refusal([]), /merchants\[0\]\.widgets\[1\]\.cardSchemes: must list at least 1 entry/);
    assert.match(refusal('VISA'), /merchants\[0\]\.widgets\[1\]\.cardSchemes: must be an array/);
  });
});
