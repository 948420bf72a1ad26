/**
 * The official legacy PHP client, unchanged (test/interop/klix-merchant-api-php), against the sandbox: the markup
 * its README orders print is taken as the element assembles it, with the client's own signature, and its
 * decoder and every `MerchantOrder` getter work on each notification the sandbox sends (paid, failed,
 * cancelled; with and without shipping, with and without a pickup point; a fixed-price widget's) wherever
 * they work on the client's own test notification. The browser path is test/e2e/official-php-client.test.ts.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { orderInputFromAttributes } from '../../../src/core/order-attributes.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder, verifyPaidOrder } from '../../../src/server/index.js';
import {
  assertGettersWork,
  attributesOf,
  type DecodedNotification,
  decodeNotification,
  orderAttributesOf,
  printWidget,
  type ReadmeOrder,
  referenceNotification,
} from '../../support/official-php-client.js';
import {
  call,
  FakeMerchant,
  handSignedV2Request,
  merchantKeys,
  type ReceivedRequest,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';

/** `payment.card` is null when no card was tried, `payment.error` when the payment did not fail. */
const NO_CARD = 'MerchantOrder.getPayment().getCard()';
const NO_ERROR = 'MerchantOrder.getPayment().getError()';
const CITADELE_CARD = '4012000000000008';
const card = (number: string) => ({ number, expiry: '12/34', cvc: '123', holder: 'Jānis Bērziņš' });
const defaults = { currency: 'EUR', taxRate: '21' };

let merchant: FakeMerchant;
let sandbox: Sandbox;
/** Where the client's scripts read their files (keys, bodies); the sandbox keeps its data elsewhere. */
let dir: string;
let reference: DecodedNotification;
let keys = 0;

before(async () => {
  merchant = await FakeMerchant.start();
  dir = await tempDir();
  sandbox = await startSandbox({
    port: 0,
    config: parseConfig(testConfigFile(merchant.url)),
    dataDir: await tempDir(),
  });
  // The client's test notification, signed here: its decoder checks a signature before anything else.
  const gateway = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const body = await referenceNotification();
  const signature = sign('sha256', Buffer.from(body), gateway.privateKey).toString('base64');
  const certificate = gateway.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  reference = await decodeNotification(body, signature, certificate, dir);
  assert.ok(reference.errors.length > 0, 'the test notification lacks members some getters read');
});
after(async () => {
  await sandbox?.close();
  await merchant?.close();
});

/** The markup the client prints for a README order, and the order the element makes of it. */
async function printed(order: ReadmeOrder, widgetId: string) {
  const html = await printWidget(order, widgetId, merchantKeys.main.privateKeyPem, 'main', dir);
  const attributes = attributesOf(html);
  const { value: input, error } = orderInputFromAttributes(orderAttributesOf(attributes));
  assert.equal(error, undefined, JSON.stringify(error));
  return { html, attributes, input: input!, signature: attributes['signature']! };
}

/** Takes an order as the frame sends it; its gateway id. */
async function create(order: unknown, signature?: string): Promise<string> {
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', { order, signature });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body['id'];
}

/** The notification that `action` makes the sandbox deliver, checked to verify with the gateway's key. */
async function notified(action: () => Promise<unknown>): Promise<ReceivedRequest> {
  const before = merchant.requests('/notify').length;
  await action();
  return (await merchant.waitFor('/notify', before + 1)).at(-1)!;
}

async function pay(id: string, number: string, extra: Record<string, unknown> = {}) {
  keys += 1;
  return call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: `php-${keys}`,
    card: card(number),
    ...extra,
  });
}

/** Decodes a delivered notification with the client and checks every getter; the body as JSON. */
async function decodedWithClient(request: ReceivedRequest, allowed: string[], what: string) {
  const decoded = await decodeNotification(
    request.body,
    request.headers['x-svc-signature'] as string,
    sandbox.serviceCertificatePem,
    dir,
  );
  assertGettersWork(decoded, reference, allowed, what);
  // biome-ignore lint/suspicious/noExplicitAny: the decoded getters are read loosely and asserted on
  return { decoded: decoded.getters as Record<string, any>, body: JSON.parse(request.body) };
}

describe("the client's README orders, printed by the client", () => {
  test('the single item order: attributes, no JSON; the sandbox takes its signature and signOrder makes the same', async () => {
    const { html, input, signature } = await printed('single', WIDGETS.checkout);
    assert.match(html, /^<klix-checkout widget-id="[^"]+" language="lv" back-to-merchant-url=/);
    assert.deepEqual(input, {
      items: [{ amount: '120.04', currency: 'EUR', label: 'Order No 1234567890' }],
      widgetId: WIDGETS.checkout,
      language: 'lv',
      backToMerchantUrl: 'https://merchant.home.url.com',
      orderId: '36c420f4-5487-11ea-a2e3-2e728ce88125',
    });
    assert.equal(signOrder(input as never, merchantKeys.main.privateKeyPem), signature);
    const id = await create(input, signature);
    const request = await notified(() => pay(id, '4111111111111111'));
    const { decoded, body } = await decodedWithClient(request, [NO_ERROR], 'single, paid');
    assert.equal(body.status, 'PAID');
    assert.equal(decoded['getOrderId'], '36c420f4-5487-11ea-a2e3-2e728ce88125');
    assert.equal(decoded['getTotalAmount'], 120.04);
    // No shipping: the client's getShipping() reads a model of nulls.
    assert.deepEqual(decoded['getShipping']['getMethod'], { getId: null, getName: null });
    assert.equal(decoded['getShipping']['getPickupPoint']['getExternalId'], null);
  });

  test('the multi-item order: its JSON with orderId, null members and JSON numbers; paid with a Citadele card', async () => {
    const { attributes, input, signature } = await printed('multi', WIDGETS.checkout);
    const json = JSON.parse(attributes['order']!);
    assert.deepEqual(Object.keys(json), ['orderId', 'items', 'shippingOptions', 'constraints']);
    assert.deepEqual(json.shippingOptions[1], {
      id: 'pickup',
      amount: 0,
      currency: 'EUR',
      taxRate: null,
      title: 'In store pickup',
      excludeFromOrderIfFree: null,
    });
    assert.equal(attributes['order-id'], undefined, 'the order id is in the JSON only');
    assert.equal(input.orderId, '1234567890');
    assert.equal(signOrder(input as never, merchantKeys.main.privateKeyPem), signature);
    const id = await create(input, signature);

    // The README constrains the order to the brand Citadele: another Visa is refused.
    const refused = await pay(id, '4111111111111111', { shipping: { optionId: 'courier' } });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body['error'].code, 'card_not_accepted');
    const request = await notified(() => pay(id, CITADELE_CARD, { shipping: { optionId: 'courier' } }));
    const { decoded, body } = await decodedWithClient(request, [NO_ERROR], 'multi, paid');
    assert.equal(body.status, 'PAID');
    assert.deepEqual(
      decoded['getItems'].map((item: Record<string, unknown>) => [
        item['getLabel'],
        item['getQuantity'],
        item['getTotalAmount'],
        item['getOrderItemId'],
        item['getType'],
      ]),
      [
        ['Vacuum cleaner TC31', 2, 245.98, 'ff713414-56f9-11ea-82b4-0242ac130003', 'UNKNOWN'],
        ['Filter for TC31', 1, 7.05, null, 'UNKNOWN'],
        ['courier', 1, 3, null, 'SHIPPING'],
      ],
    );
    assert.equal(decoded['getTotalAmount'], 256.03);
    assert.deepEqual(decoded['getShipping']['getMethod'], { getId: 'courier', getName: 'courier' });
    assert.equal(decoded['getPayment']['getCard']['getBin'], '401200');
    const verified = verifyPaidOrder(body, { order: input as never, defaults });
    assert.equal(verified.ok, true, JSON.stringify(verified));
  });

  test("the multi-item order's free option: its title is the method's name, and its line is there (not excluded)", async () => {
    const { input, signature } = await printed('multi', WIDGETS.full);
    const id = await create(input, signature);
    const request = await notified(() =>
      pay(id, CITADELE_CARD, {
        customer: {
          firstName: 'Jānis',
          lastName: 'Bērziņš',
          email: 'janis@example.lv',
          phone: '+37120000000',
        },
        shipping: {
          optionId: 'pickup',
          address: { address: 'Brīvības iela 1', city: 'Rīga', postalCode: 'LV-1010', country: 'LV' },
        },
      }),
    );
    const { decoded } = await decodedWithClient(request, [NO_ERROR], 'multi, free option');
    assert.deepEqual(decoded['getShipping']['getMethod'], { getId: 'pickup', getName: 'In store pickup' });
    assert.equal(decoded['getShipping']['getAddress']['getStreet'], 'Brīvības iela 1');
    assert.deepEqual(decoded['getShipping']['getPickupPoint'], {
      getComments: null,
      getExternalId: null,
      getName: null,
      getServiceHours: null,
    });
    assert.equal(decoded['getItems'].at(-1)['getType'], 'SHIPPING');
    assert.equal(decoded['getItems'].at(-1)['getLabel'], 'In store pickup');
  });
});

describe('every notification the sandbox sends, read by the client', () => {
  test('a failed attempt, then a cancellation after it, then one cancelled before any card', async () => {
    const order = {
      widgetId: WIDGETS.checkout,
      orderId: 'PHP-FAILED',
      items: [{ amount: 9.99, label: 'Filter', count: 2 }],
    };
    const id = await create(order, signOrder(order, merchantKeys.main.privateKeyPem));
    const failed = await notified(() => pay(id, '4000000000000002'));
    const read = await decodedWithClient(failed, [], 'failed');
    assert.equal(read.body.status, 'FAILED');
    assert.equal(read.decoded['getPayment']['getError']['getCode'], 'card_declined');
    const cancelled = await notified(() => call(sandbox, 'POST', `/widget-api/v1/orders/${id}/cancel`, {}));
    const afterCard = await decodedWithClient(cancelled, [NO_ERROR], 'cancelled after a card');
    assert.equal(afterCard.body.status, 'CANCELLED');

    const untried = {
      widgetId: WIDGETS.checkout,
      orderId: 'PHP-CANCELLED',
      items: [{ amount: 1, label: 'A' }],
    };
    const untriedId = await create(untried, signOrder(untried, merchantKeys.main.privateKeyPem));
    const cancelledFirst = await notified(() =>
      call(sandbox, 'POST', `/widget-api/v1/orders/${untriedId}/cancel`, {}),
    );
    const untouched = await decodedWithClient(cancelledFirst, [NO_CARD, NO_ERROR], 'cancelled, no card');
    assert.equal(untouched.body.status, 'CANCELLED');
  });

  test('a pickup point chosen on the full checkout', async () => {
    const order = {
      widgetId: WIDGETS.full,
      orderId: 'PHP-POINT',
      items: [{ amount: 30, label: 'Tea set', count: null, unit: null, taxRate: 0.21, orderItemId: 7 }],
      shippingOptions: [
        {
          id: 'locker',
          amount: 2.5,
          currency: null,
          taxRate: null,
          title: 'Parcel locker',
          type: 'PICKUP_POINT',
        },
      ],
      constraints: null,
    };
    const id = await create(order, signOrder(order as never, merchantKeys.main.privateKeyPem));
    const request = await notified(() =>
      pay(id, '5555555555554444', {
        customer: { firstName: 'A', lastName: 'B', email: 'a@example.lv', phone: '+37120000000' },
        shipping: { optionId: 'locker', pickupPointId: 'p2', contactPhone: '+37120000000' },
      }),
    );
    const { decoded } = await decodedWithClient(request, [NO_ERROR], 'pickup point');
    assert.equal(decoded['getShipping']['getType'], 'PICKUP_POINT');
    assert.equal(decoded['getShipping']['getPickupPoint']['getExternalId'], 'p2');
    assert.equal(decoded['getShipping']['getMethod']['getName'], 'Parcel locker');
    assert.equal(decoded['getItems'][0]['getOrderItemId'], '7');
  });

  test('a fixed-price (INSTANT) widget', async () => {
    const order = { widgetId: WIDGETS.instant, orderId: 'PHP-INSTANT', items: [] };
    const id = await create(order);
    const request = await notified(() => pay(id, '4111111111111111'));
    const { decoded } = await decodedWithClient(request, [NO_ERROR], 'instant');
    assert.equal(decoded['getTotalAmount'], 15);
    assert.equal(decoded['getShipping']['getType'], null);
  });

  test('excludeFromOrderIfFree: the free option chosen adds no line, and verifyPaidOrder agrees', async () => {
    const order = {
      widgetId: WIDGETS.checkout,
      orderId: 'PHP-FREE',
      items: [{ amount: 20, label: 'Lamp' }],
      shippingOptions: [
        { id: 'courier', amount: 3, title: 'Courier', excludeFromOrderIfFree: true },
        { id: 'pickup', amount: 0, title: 'In store pickup', excludeFromOrderIfFree: true },
      ],
    };
    const id = await create(order, signOrder(order, merchantKeys.main.privateKeyPem));
    const request = await notified(() => pay(id, '4111111111111111', { shipping: { optionId: 'pickup' } }));
    const { decoded, body } = await decodedWithClient(request, [NO_ERROR], 'free, excluded');
    assert.deepEqual(
      decoded['getItems'].map((item: Record<string, unknown>) => item['getType']),
      ['UNKNOWN'],
    );
    assert.deepEqual(decoded['getShipping']['getMethod'], { getId: 'pickup', getName: 'In store pickup' });
    assert.equal(body.total_amount, 20);
    assert.equal(verifyPaidOrder(body, { order, defaults }).ok, true);
    // Merchant API v2's order has the same items.
    const answer = await handSignedV2Request(sandbox, {
      method: 'GET',
      path: `/v2/merchants/m1/orders/${id}`,
      date: new Date().toUTCString(),
    })();
    assert.deepEqual((await answer.json()).items, body.items);
    // The same order with a priced option chosen keeps its line.
    const other = { ...order, orderId: 'PHP-FREE-2' };
    const otherId = await create(other, signOrder(other, merchantKeys.main.privateKeyPem));
    const priced = await notified(() =>
      pay(otherId, '4111111111111111', { shipping: { optionId: 'courier' } }),
    );
    const pricedBody = JSON.parse(priced.body);
    assert.deepEqual(
      pricedBody.items.map((item: { type: string }) => item.type),
      ['UNKNOWN', 'SHIPPING'],
    );
    assert.equal(verifyPaidOrder(pricedBody, { order: other, defaults }).ok, true);
  });
});
