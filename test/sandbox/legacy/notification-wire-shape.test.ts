/**
 * The gateway's bodies as the real service writes them (issue 10), over real HTTP: the sandbox pays orders
 * through the widget API and delivers signed purchase notifications and shipping cost requests to a merchant
 * on a loopback server; merchant API v2 answers a signed GET. Each body is checked against the facts written
 * out by hand here (the real service's worked example order, the official PHP client's models), not against
 * our own types: the exact bytes where the real service's are known, member by member and type by type.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { NO_SHIPPING } from '../../../src/core/legacy-callbacks.js';
import type { OrderInput } from '../../../src/core/order.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { constructPurchaseNotification, signOrder, verifySignature } from '../../../src/server/index.js';
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

// ---------------------------------------------------------------------------------------------------------
// The official PHP client's models, written out by hand from klix-app/merchant-api-php (lib/Klix/Api/*.php,
// 2020, the version with the widget and merchant API v2). Every getter returns one member of the decoded
// JSON (`$this->values['member']`); a nested model is `new Model($this->values['member'])`, whose `array`
// parameter refuses null (a TypeError in PHP), and a member that is not there is an undefined index. So a
// body these read without throwing carries every member where the client looks for it.

// biome-ignore lint/suspicious/noExplicitAny: getters called by name, as PHP calls them; assertions check values
type Model = any;
type ModelClass = (values: unknown) => Model;

/** A getter's member, or a nested model (one, or a list as `getItems` maps it). */
type Getter = string | [member: string, model: ModelClass] | [member: string, model: ModelClass, 'list'];

function phpModel(name: string, getters: Record<string, Getter>): ModelClass {
  return (values) => {
    if (typeof values !== 'object' || values === null || Array.isArray(values)) {
      throw new TypeError(`new ${name}(${JSON.stringify(values)}): argument 1 must be of the type array`);
    }
    const fields = values as Record<string, unknown>;
    const read = (member: string) => {
      if (!Object.hasOwn(fields, member)) throw new Error(`${name}: Undefined index: ${member}`);
      return fields[member];
    };
    const model: Record<string, () => unknown> = {};
    for (const [getter, how] of Object.entries(getters)) {
      if (typeof how === 'string') model[getter] = () => read(how);
      else if (how.length === 2) model[getter] = () => how[1](read(how[0]));
      else model[getter] = () => (read(how[0]) as unknown[]).map(how[1]);
    }
    return model;
  };
}

const Company = phpModel('Company', {
  getName: 'name',
  getAddress: 'address',
  getRegistrationNumber: 'registration_number',
  getVatNumber: 'vat_number',
});
const Customer = phpModel('Customer', {
  getEmail: 'email',
  getFirstName: 'first_name',
  getLastName: 'last_name',
  getPhoneNumber: 'phone_number',
});
const Card = phpModel('Card', { getBin: 'bin' });
const PaymentError = phpModel('PaymentError', { getCode: 'code', getMessage: 'message' });
const Payment = phpModel('Payment', {
  getMethod: 'method',
  getStatus: 'status',
  getAccountStatementReference: 'accountStatementReference',
  getCard: ['card', Card],
  getError: ['error', PaymentError],
});
const OrderItem = phpModel('OrderItem', {
  getAmount: 'amount',
  getLabel: 'label',
  getTaxAmount: 'tax_amount',
  getTotalAmount: 'total_amount',
  getTaxRate: 'tax_rate',
  getOrderItemId: 'order_item_id',
  getQuantity: 'quantity',
  getUnit: 'unit',
  getType: 'type',
});
const MerchantUrls = phpModel('MerchantUrls', {
  getConfirmation: 'confirmation',
  getPlaceOrder: 'place_order',
  getTerms: 'terms',
  getVerification: 'verification',
});
const ShippingMethod = phpModel('ShippingMethod', { getId: 'id', getName: 'name' });
const Address = phpModel('Address', {
  getCity: 'city',
  getCountry: 'country',
  getLatitude: 'latitude',
  getLongitude: 'longitude',
  getPostalCode: 'postal_code',
  getStreet: 'street',
});
const PickupPoint = phpModel('PickupPoint', {
  getName: 'name',
  getExternalId: 'external_id',
  getComments: 'comments',
  getServiceHours: 'service_hours',
});
const Shipping = phpModel('Shipping', {
  getMethod: ['method', ShippingMethod],
  getAddress: ['address', Address],
  getPickupPoint: ['pickup_point', PickupPoint],
  getContactPhone: 'contact_phone',
  getDate: 'date',
  getType: 'type',
});
const MerchantOrder = phpModel('MerchantOrder', {
  getId: 'id',
  getOrderId: 'order_id',
  getStatus: 'status',
  getCompany: ['company', Company],
  getCustomer: ['customer', Customer],
  getPayment: ['payment', Payment],
  getTaxAmount: 'tax_amount',
  getAmount: 'amount',
  getEffectiveAmount: 'effective_amount',
  getTotalAmount: 'total_amount',
  getItems: ['items', OrderItem, 'list'],
  getCurrency: 'currency',
  getMerchantUrls: ['merchant_urls', MerchantUrls],
  getShipping: ['shipping', Shipping],
});

// ---------------------------------------------------------------------------------------------------------

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** The sandbox clock: an evening in UTC, so that the notification's date is a day written here by hand. */
const CLOCK_START = Date.UTC(2030, 5, 30, 21, 0, 0);
const card = (number: string) => ({ number, expiry: '12/34', cvc: '123', holder: 'John Doe' });
const customer = {
  firstName: 'John',
  lastName: 'Doe',
  email: 'john.doe@example.com',
  phone: '37120000000',
};

let merchant: FakeMerchant;
let sandbox: Sandbox;
let dataDir: string;
let shift: number;
let keys = 0;
const now = () => new Date(Date.now() + shift);

before(async () => {
  merchant = await FakeMerchant.start();
  merchant.respond('/shipping-cost', () => ({ status: 200, body: '{"amount":"3.50"}' }));
  const file = testConfigFile(merchant.url);
  const merchantFile = file.merchants[0]!;
  merchantFile.company = {
    name: 'Putekļsūcēji SIA',
    address: 'Republikas laukums 2a, Rīga, LV-1010',
    registrationNumber: '40003000000',
    vatNumber: 'LV40003000000',
  };
  merchantFile
    .widgets!.find((widget) => widget.id === WIDGETS.full)!
    .pickupPoints!.push({
      externalId: '9934',
      name: 'Rīgas T/C Olimpia pakomāts',
      comments: 'Blakus iebrauktuvei',
      serviceHours: 'P-Pk. 10:00-17:00',
      address: {
        address: 'Āzenes iela 5',
        city: 'Rīga',
        postalCode: 'LV-1048',
        country: 'LV',
        latitude: 56.949924,
        longitude: 24.08128,
      },
    });
  dataDir = await tempDir();
  shift = CLOCK_START - Date.now();
  sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir, now });
});
after(async () => {
  // Both, even when the start failed, so that the run ends.
  await sandbox?.close();
  await merchant?.close();
});

/** Takes a signed order (no certificate name: any active certificate of the merchant verifies it). */
async function create(order: OrderInput): Promise<string> {
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order,
    signature: signOrder(order, merchantKeys.main.privateKeyPem),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body['id'] as string;
}

/** Pays, and returns the notification that this attempt's end delivered, as it came: raw bytes and headers. */
async function pay(
  id: string,
  number: string,
  extra: Record<string, unknown> = {},
): Promise<ReceivedRequest> {
  const before = merchant.requests('/notify').length;
  keys += 1;
  const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: `wire-${keys}`,
    card: card(number),
    ...extra,
  });
  assert.ok(['PAID', 'FAILED'].includes(paid.body['state']), JSON.stringify(paid.body));
  const delivered = await merchant.waitFor('/notify', before + 1);
  const request = delivered.at(-1)!;
  assert.equal(request.method, 'PUT');
  assert.equal(request.headers['content-type'], 'application/json');
  // The signature is over these exact bytes, as the real service signs them.
  assert.ok(
    verifySignature(
      request.body,
      request.headers['x-svc-signature'] as string,
      sandbox.serviceCertificatePem,
    ),
  );
  return request;
}

/** Merchant API v2's GET of an order, signed by hand, as raw text. */
async function getOrder(id: string): Promise<string> {
  const response = await handSignedV2Request(sandbox, {
    method: 'GET',
    path: `/v2/merchants/m1/orders/${id}`,
    date: now().toUTCString(),
  })();
  const text = await response.text();
  assert.equal(response.status, 200, text);
  return text;
}

/** The real service's worked example order: a vacuum cleaner, two filters, Omniva to a parcel locker. */
const vacuumOrder: OrderInput = {
  widgetId: WIDGETS.full,
  language: 'en',
  successRedirectUrl: 'https://shop.example/thanks',
  backToMerchantUrl: 'https://shop.example/cart',
  orderId: 'WIRE-1',
  items: [
    { amount: '88.00', label: 'Vacuum cleaner TP-3', orderItemId: '12345', taxRate: '0.21' },
    { amount: '9.39', label: 'TP-3 HEPA filter', count: 2, taxRate: 0.21 },
  ],
  shippingOptions: [{ id: 'omniva', label: 'Omniva', amount: '2.00', taxRate: '0', type: 'PICKUP_POINT' }],
};

describe('the purchase notification as the real service writes it', () => {
  let id: string;
  let paid: ReceivedRequest;

  before(async () => {
    id = await create(vacuumOrder);
    paid = await pay(id, '4111111111111111', {
      customer,
      shipping: { optionId: 'omniva', pickupPointId: '9934', contactPhone: '37120000000' },
    });
  });

  test('byte for byte: money with 2 decimals, quantities with 3, 72.73 the net unit price of a gross 88.00 at 0.21', () => {
    const parsed = JSON.parse(paid.body) as { id: string; payment: { accountStatementReference: string } };
    assert.equal(parsed.id, id);
    assert.match(id, UUID);
    const reference = parsed.payment.accountStatementReference;
    assert.equal(typeof reference, 'string');
    const expected =
      `{"id":"${id}","order_id":"WIRE-1","status":"PAID",` +
      '"company":{"name":"Putekļsūcēji SIA","address":"Republikas laukums 2a, Rīga, LV-1010",' +
      '"registration_number":"40003000000","vat_number":"LV40003000000"},' +
      '"customer":{"email":"john.doe@example.com","first_name":"John","last_name":"Doe","phone_number":"37120000000"},' +
      `"payment":{"method":"CARD","status":"SUCCEEDED","accountStatementReference":"${reference}","card":{"bin":"411111"},"error":null},` +
      '"amount":90.25,"tax_amount":18.53,"total_amount":108.78,"effective_amount":108.78,' +
      '"items":[' +
      '{"amount":72.73,"label":"Vacuum cleaner TP-3","tax_amount":15.27,"total_amount":88.00,"tax_rate":0.21,' +
      '"order_item_id":"12345","quantity":1.000,"unit":"PIECE","type":"UNKNOWN"},' +
      '{"amount":7.76,"label":"TP-3 HEPA filter","tax_amount":3.26,"total_amount":18.78,"tax_rate":0.21,' +
      '"order_item_id":null,"quantity":2.000,"unit":"PIECE","type":"UNKNOWN"},' +
      '{"amount":2.00,"label":"Omniva","tax_amount":0.00,"total_amount":2.00,"tax_rate":0.00,' +
      '"order_item_id":null,"quantity":1.000,"unit":"PIECE","type":"SHIPPING"}],' +
      '"currency":"EUR",' +
      `"merchant_urls":{"confirmation":"https://shop.example/thanks","place_order":"https://shop.example/cart","terms":"${merchant.url}/terms","verification":"${merchant.url}/verify-order"},` +
      '"shipping":{"type":"PICKUP_POINT","date":"2030-06-30","method":{"id":"omniva","name":"Omniva"},' +
      '"address":{"country":"LV","city":"Rīga","street":"Āzenes iela 5","postal_code":"LV-1048","latitude":56.949924,"longitude":24.08128},' +
      '"contact_phone":"37120000000",' +
      '"pickup_point":{"name":"Rīgas T/C Olimpia pakomāts","external_id":"9934","comments":"Blakus iebrauktuvei","service_hours":"P-Pk. 10:00-17:00"}}}';
    assert.equal(paid.body, expected);
  });

  test('the official client’s MerchantOrder reads every member where it looks, with its types', () => {
    const order = MerchantOrder(JSON.parse(paid.body));
    assert.equal(order.getId(), id);
    assert.equal(order.getOrderId(), 'WIRE-1');
    assert.equal(order.getStatus(), 'PAID');
    assert.equal(order.getCompany().getName(), 'Putekļsūcēji SIA');
    assert.equal(order.getCompany().getRegistrationNumber(), '40003000000');
    assert.equal(order.getCompany().getVatNumber(), 'LV40003000000');
    assert.equal(order.getCustomer().getFirstName(), 'John');
    assert.equal(order.getCustomer().getPhoneNumber(), '37120000000');
    assert.equal(order.getPayment().getMethod(), 'CARD');
    assert.equal(order.getPayment().getStatus(), 'SUCCEEDED');
    assert.equal(order.getPayment().getCard().getBin(), '411111');
    for (const [getter, value] of [
      ['getAmount', 90.25],
      ['getTaxAmount', 18.53],
      ['getTotalAmount', 108.78],
      ['getEffectiveAmount', 108.78],
    ] as const) {
      assert.equal(typeof order[getter]!(), 'number', getter);
      assert.equal(order[getter]!(), value, getter);
    }
    const [vacuum, filters, delivery] = order.getItems();
    for (const item of order.getItems()) {
      for (const getter of ['getAmount', 'getTaxAmount', 'getTotalAmount', 'getTaxRate', 'getQuantity'])
        assert.equal(typeof item[getter](), 'number', `${item.getLabel()} ${getter}`);
    }
    assert.deepEqual(
      [vacuum.getAmount(), vacuum.getTotalAmount(), vacuum.getTaxAmount(), vacuum.getTaxRate()],
      [72.73, 88, 15.27, 0.21],
    );
    assert.deepEqual(
      [vacuum.getOrderItemId(), vacuum.getQuantity(), vacuum.getUnit()],
      ['12345', 1, 'PIECE'],
    );
    assert.equal(vacuum.getType(), 'UNKNOWN');
    // (total - tax) / quantity: (18.78 - 3.26) / 2.
    assert.deepEqual([filters.getAmount(), filters.getQuantity(), filters.getOrderItemId()], [7.76, 2, null]);
    assert.deepEqual(
      [delivery.getType(), delivery.getLabel(), delivery.getTaxRate()],
      ['SHIPPING', 'Omniva', 0],
    );
    assert.equal(order.getCurrency(), 'EUR');
    assert.equal(order.getMerchantUrls().getConfirmation(), 'https://shop.example/thanks');
    assert.equal(order.getMerchantUrls().getPlaceOrder(), 'https://shop.example/cart');
    assert.equal(order.getMerchantUrls().getTerms(), `${merchant.url}/terms`);
    assert.equal(order.getMerchantUrls().getVerification(), `${merchant.url}/verify-order`);
    const shipping = order.getShipping();
    assert.equal(shipping.getType(), 'PICKUP_POINT');
    assert.equal(shipping.getDate(), '2030-06-30');
    // The method is the shipping option; the point is pickup_point.
    assert.deepEqual([shipping.getMethod().getId(), shipping.getMethod().getName()], ['omniva', 'Omniva']);
    assert.equal(shipping.getPickupPoint().getExternalId(), '9934');
    assert.equal(shipping.getPickupPoint().getServiceHours(), 'P-Pk. 10:00-17:00');
    assert.equal(shipping.getAddress().getStreet(), 'Āzenes iela 5');
    assert.equal(shipping.getAddress().getLatitude(), 56.949924);
    assert.equal(shipping.getContactPhone(), '37120000000');
  });

  test('constructPurchaseNotification gives the same numbers', async () => {
    const notification = await constructPurchaseNotification(
      { rawBody: paid.body, headers: paid.headers },
      sandbox.serviceCertificatePem,
    );
    assert.deepEqual(notification, JSON.parse(paid.body));
    assert.equal(notification.items[0]!.amount, 72.73);
  });

  test('merchant API v2’s GET answers the same model, with our members in snake_case, plain numbers', async () => {
    const text = await getOrder(id);
    const raw = JSON.parse(text) as Record<string, unknown>;
    const order = MerchantOrder(raw);
    assert.equal(order.getId(), id);
    assert.equal(order.getStatus(), 'PAID');
    assert.equal(order.getCompany().getAddress(), 'Republikas laukums 2a, Rīga, LV-1010');
    assert.equal(order.getPayment().getCard().getBin(), '411111');
    assert.equal(order.getTotalAmount(), 108.78);
    assert.equal(order.getEffectiveAmount(), 108.78);
    assert.equal(order.getItems()[0].getAmount(), 72.73);
    assert.equal(order.getItems()[1].getQuantity(), 2);
    assert.equal(order.getShipping().getPickupPoint().getName(), 'Rīgas T/C Olimpia pakomāts');
    assert.equal(order.getMerchantUrls().getPlaceOrder(), 'https://shop.example/cart');
    // The notification's members, each as the notification has it; then ours.
    const notified = JSON.parse(paid.body) as Record<string, unknown>;
    for (const [member, value] of Object.entries(notified)) assert.deepEqual(raw[member], value, member);
    const ours = Object.keys(raw).filter((member) => !Object.hasOwn(notified, member));
    assert.deepEqual(ours, ['refunded_amount', 'refundable_amount', 'created_at', 'paid_at']);
    assert.equal(raw['refunded_amount'], 0);
    assert.equal(raw['refundable_amount'], 108.78);
    assert.match(String(raw['created_at']), /^2030-06-30T2\d:\d\d:\d\d\.\d{3}Z$/);
    assert.match(String(raw['paid_at']), /^2030-06-30T2\d:\d\d:\d\d\.\d{3}Z$/);
    // Nobody signs this answer, so it is plain JSON: 88, not 88.00.
    assert.match(text, /"total_amount":88,/);
  });
});

describe('a failed attempt, then a paid one, to an address', () => {
  const order: OrderInput = {
    widgetId: WIDGETS.full,
    orderId: 'WIRE-2',
    items: [{ amount: '9.41', label: 'Dust bags', count: 2 }],
    shippingOptions: [{ id: 'courier', label: 'Courier', amount: '4.84' }],
  };
  const shipping = {
    optionId: 'courier',
    address: { address: 'Brīvības iela 1', city: 'Rīga', postalCode: 'LV-1010', country: 'LV' },
  };
  let id: string;
  let failed: ReceivedRequest;
  let paid: ReceivedRequest;

  before(async () => {
    id = await create(order);
    failed = await pay(id, '4000000000000002', { customer, shipping });
    paid = await pay(id, '5555555555554444', { customer, shipping });
  });

  test('the failed attempt’s payment: CARD, FAILED, the card’s first six digits, the error; nothing effective', () => {
    const body = JSON.parse(failed.body);
    assert.equal(body.status, 'FAILED');
    assert.equal(body.payment.method, 'CARD');
    assert.equal(body.payment.status, 'FAILED');
    assert.deepEqual(body.payment.card, { bin: '400000' });
    assert.deepEqual(Object.keys(body.payment.error), ['code', 'message']);
    assert.equal(body.payment.error.code, 'card_declined');
    assert.equal(typeof body.payment.error.message, 'string');
    assert.equal(body.effective_amount, 0);
    assert.match(failed.body, /"effective_amount":0\.00,/);
    assert.equal(body.total_amount, 23.66);
    const model = MerchantOrder(body);
    assert.equal(model.getPayment().getError().getCode(), 'card_declined');
    assert.equal(model.getPayment().getCard().getBin(), '400000');
  });

  test('the paid attempt: the other card’s six digits, no error; an address delivery has no point', () => {
    const body = JSON.parse(paid.body);
    assert.equal(body.status, 'PAID');
    assert.deepEqual(body.payment.card, { bin: '555555' });
    assert.equal(body.payment.error, null);
    assert.notEqual(
      body.payment.accountStatementReference,
      JSON.parse(failed.body).payment.accountStatementReference,
    );
    // The default tax rate, 21 in the config, is the fraction 0.21; (18.82 - 3.27) / 2 = 7.775, half up 7.78.
    assert.deepEqual(body.items[0], {
      amount: 7.78,
      label: 'Dust bags',
      tax_amount: 3.27,
      total_amount: 18.82,
      tax_rate: 0.21,
      order_item_id: null,
      quantity: 2,
      unit: 'PIECE',
      type: 'UNKNOWN',
    });
    assert.deepEqual(body.shipping, {
      type: 'ADDRESS',
      date: '2030-06-30',
      method: { id: 'courier', name: 'Courier' },
      address: {
        country: 'LV',
        city: 'Rīga',
        street: 'Brīvības iela 1',
        postal_code: 'LV-1010',
        latitude: null,
        longitude: null,
      },
      contact_phone: null,
      pickup_point: { name: null, external_id: null, comments: null, service_hours: null },
    });
    // The official client reads the point that is not there as a model of nulls.
    assert.equal(MerchantOrder(body).getShipping().getPickupPoint().getName(), null);
    assert.match(paid.body, /"quantity":2\.000,/);
  });

  test('never more of a card number than its first six digits, in a notification or on disk', async () => {
    const stored: string[] = [];
    for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) stored.push(await readFile(join(entry.parentPath, entry.name), 'utf8'));
    }
    assert.ok(stored.length > 0, 'the sandbox keeps its data in files');
    for (const number of ['4000000000000002', '5555555555554444']) {
      const seventh = number.slice(0, 7);
      for (const [where, text] of [
        ['failed', failed.body],
        ['paid', paid.body],
        ...stored.map((file, index) => [`data file ${index}`, file] as const),
      ] as const) {
        assert.ok(!text.includes(seventh), `${where} holds ${seventh}…`);
      }
    }
  });

  test('merchant API v2 tells the last outcome’s payment', async () => {
    const order = MerchantOrder(JSON.parse(await getOrder(id)));
    assert.equal(order.getStatus(), 'PAID');
    assert.equal(order.getPayment().getCard().getBin(), '555555');
    assert.equal(order.getShipping().getType(), 'ADDRESS');
  });
});

test('merchant API v2: a declined order’s payment, and none before an attempt ends', async () => {
  const order: OrderInput = {
    widgetId: WIDGETS.checkout,
    orderId: 'WIRE-3',
    items: [{ amount: '5.00', label: 'Filter' }],
  };
  const id = await create(order);
  const pending = JSON.parse(await getOrder(id));
  assert.equal(pending.status, 'PENDING');
  assert.equal(pending.payment, null);
  assert.deepEqual(pending.shipping, NO_SHIPPING);
  assert.equal(pending.effective_amount, 0);
  const notified = JSON.parse((await pay(id, '4000000000009995')).body);
  assert.equal(notified.order_id, 'WIRE-3');
  // An order without shipping: the official client's getShipping() and its getters read nulls.
  const shipping = MerchantOrder(notified).getShipping();
  assert.deepEqual(
    [shipping.getType(), shipping.getDate(), shipping.getMethod().getId(), shipping.getAddress().getCity()],
    [null, null, null, null],
  );
  assert.equal(shipping.getPickupPoint().getExternalId(), null);
  const declined = MerchantOrder(JSON.parse(await getOrder(id)));
  assert.equal(declined.getStatus(), 'FAILED');
  assert.equal(declined.getPayment().getStatus(), 'FAILED');
  assert.equal(declined.getPayment().getError().getCode(), 'insufficient_funds');
  assert.equal(declined.getPayment().getCard().getBin(), '400000');
});

test('the shipping cost request: order_items of {reference, quantity}, a number; null for an item without id', async () => {
  const order: OrderInput = {
    widgetId: WIDGETS.full,
    orderId: 'WIRE-4',
    items: [
      { amount: '10.00', label: 'Book', orderItemId: 'B1', count: 3 },
      { amount: '1.50', label: 'Bag' },
      { amount: '2.00', label: 'Flour', unit: 'KILOGRAM', count: '1.5', orderItemId: 'F' },
    ],
    shippingOptions: [{ id: 'courier' }],
  };
  const id = await create(order);
  const before = merchant.requests('/shipping-cost').length;
  const quote = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/shipping-quotes`, {
    optionId: 'courier',
    address: { address: 'Brīvības iela 1', city: 'Rīga', postalCode: 'LV-1010' },
  });
  assert.equal(quote.status, 200, JSON.stringify(quote.body));
  const [request] = (await merchant.waitFor('/shipping-cost', before + 1)).slice(before);
  assert.ok(
    verifySignature(
      request!.body,
      request!.headers['x-svc-signature'] as string,
      sandbox.serviceCertificatePem,
    ),
  );
  assert.equal(
    request!.body,
    `{"order_id":"${id}","order_items":[{"reference":"B1","quantity":3.000},{"reference":null,"quantity":1.000},` +
      '{"reference":"F","quantity":1.500}],"shipping_method_id":"courier",' +
      '"address":{"city":"Rīga","address":"Brīvības iela 1","postal_code":"LV-1010"}}',
  );
});
