/**
 * The sandbox's test helpers for legacy orders: a signed order paid headlessly (in process and over HTTP with
 * the merchant's API key), a decline, 3-D Secure approved and denied, and refusals that name what to fix. The
 * merchant's notification endpoint is a small node:http server here that checks each notification's signature
 * with the toolkit, as a merchant's own would.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { TestHelperError } from '../../../src/sandbox/test-helpers/test-helper-error.js';
import {
  constructPurchaseNotification,
  type PurchaseNotification,
  signOrder,
} from '../../../src/server/index.js';
import { API_KEY, merchantKeys, PAGE_ORIGIN, tempDir, testConfigFile, WIDGETS } from '../support.js';

/** The merchant's notification endpoint: verifies each notification and keeps it. */
async function startReceiver(certificatePem: () => string) {
  const received: PurchaseNotification[] = [];
  const server: Server = createServer(async (req, res) => {
    // The merchant prices its courier at 4.90 wherever it goes.
    if (req.url === '/shipping-cost') {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"amount": "4.90"}');
      return;
    }
    try {
      received.push(await constructPurchaseNotification(req, certificatePem()));
      res.writeHead(200).end();
    } catch {
      res.writeHead(400).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** What the merchant's server renders for an order: the element's attributes, signed. */
function rendered(orderId: string, amount = '12.50') {
  const attributes = {
    'widget-id': WIDGETS.checkout,
    'order-id': orderId,
    amount,
    label: 'Tea',
    count: '2',
    'certificate-name': 'main',
  };
  const signature = signOrder(
    {
      widgetId: WIDGETS.checkout,
      orderId,
      certificateName: 'main',
      items: [{ amount, label: 'Tea', count: 2 }],
    },
    merchantKeys.main.privateKeyPem,
  );
  return { ...attributes, signature };
}

describe('test helpers: legacy orders', () => {
  let sandbox: Sandbox;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver(() => sandbox.serviceCertificatePem);
    const file = testConfigFile(receiver.url);
    file.merchants[0]!.callbacks.notificationUrl = `${receiver.url}/notify`;
    file.merchants[0]!.callbacks.shippingCostUrl = `${receiver.url}/shipping-cost`;
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir: await tempDir() });
  });
  after(async () => {
    await sandbox.close();
    await receiver.close();
  });

  it('pays a signed order in process, and the signed PAID notification has arrived when it answers', async () => {
    const started = performance.now();
    const paid = await sandbox.testHelpers.payOrder({ attributes: rendered('A-1') });
    const notification = receiver.received.find((candidate) => candidate.order_id === 'A-1');
    console.log(`paid order and its notification: ${(performance.now() - started).toFixed(1)} ms`);
    assert.equal(paid.status, 'PAID');
    assert.equal(paid.merchantOrderId, 'A-1');
    assert.equal(paid.order.total, '25.00');
    assert.deepEqual(paid.notification, {
      url: `${receiver.url}/notify`,
      state: 'delivered',
      status: 200,
      error: null,
    });
    assert.equal(notification?.status, 'PAID');
    assert.equal(notification?.id, paid.orderId);
  });

  it('takes the attributes under their property names, and the order JSON as the page carries it', async () => {
    const order = { items: [{ amount: '3.00', label: 'Cup' }] };
    const signature = signOrder(
      { widgetId: WIDGETS.checkout, orderId: 'A-2', ...order },
      merchantKeys.main.privateKeyPem,
    );
    const paid = await sandbox.testHelpers.payOrder({
      attributes: { widgetId: WIDGETS.checkout, orderId: 'A-2', order: JSON.stringify(order), signature },
      card: '5555 5555 5555 4444',
    });
    assert.equal(paid.status, 'PAID');
    assert.equal(paid.order.total, '3.00');
  });

  it('a declined card fails the attempt and notifies FAILED; the order stays payable', async () => {
    const failed = await sandbox.testHelpers.payOrder({ attributes: rendered('A-3'), card: 'declined' });
    assert.equal(failed.status, 'FAILED');
    assert.equal(failed.status === 'FAILED' && failed.error.code, 'card_declined');
    assert.equal(receiver.received.find((candidate) => candidate.order_id === 'A-3')?.status, 'FAILED');
    // The same rendered order, reloaded and paid with another card: the same gateway order, now paid.
    const paid = await sandbox.testHelpers.payOrder({ attributes: rendered('A-3') });
    assert.equal(paid.status, 'PAID');
    assert.equal(paid.orderId, failed.orderId);
  });

  it('answers the 3-D Secure challenge: approve pays, deny fails with authentication_failed', async () => {
    const approved = await sandbox.testHelpers.payOrder({
      attributes: rendered('A-4'),
      card: 'three_d_secure', // any spelling of a name
      threeDSecure: 'approve',
    });
    assert.equal(approved.status, 'PAID');
    const denied = await sandbox.testHelpers.payOrder({
      attributes: rendered('A-5'),
      card: '4000000000003220',
      threeDSecure: 'deny',
    });
    assert.equal(denied.status, 'FAILED');
    assert.equal(denied.status === 'FAILED' && denied.error.code, 'authentication_failed');
    assert.equal(receiver.received.find((candidate) => candidate.order_id === 'A-5')?.status, 'FAILED');
  });

  it('a full checkout: the customer filled in with test values, a courier quoted by the merchant first', async () => {
    const order = { items: [{ amount: '10.00', label: 'Lamp' }], shippingOptions: [{ id: 'courier' }] };
    const signature = signOrder(
      { widgetId: WIDGETS.full, orderId: 'A-11', ...order },
      merchantKeys.main.privateKeyPem,
    );
    const paid = await sandbox.testHelpers.payOrder({
      attributes: { 'widget-id': WIDGETS.full, 'order-id': 'A-11', order: JSON.stringify(order), signature },
      customer: { email: 'anna@example.com' },
      shipping: {
        optionId: 'courier',
        address: { address: 'Brivibas iela 1', city: 'Riga', postalCode: 'LV-1010' },
      },
    });
    assert.equal(paid.status, 'PAID');
    assert.equal(paid.order.total, '14.90');
    const notification = receiver.received.find((candidate) => candidate.order_id === 'A-11');
    assert.equal(notification?.status, 'PAID');
    assert.match(JSON.stringify(notification), /anna@example\.com/);
  });

  it('a re-priced page is refused by the signature check, as for the frame', async () => {
    const tampered = { ...rendered('A-6'), amount: '1.00' };
    await assert.rejects(sandbox.testHelpers.payOrder({ attributes: tampered }), (error: unknown) => {
      assert.ok(error instanceof TestHelperError);
      assert.equal(error.code, 'refused_by_gateway');
      assert.equal(error.gatewayCode, 'signature_invalid');
      assert.equal(error.field, 'attributes.signature');
      return true;
    });
  });

  it('a page attribute that was not signed is named in the refusal', async () => {
    const added = { ...rendered('A-6'), language: 'lv' };
    await assert.rejects(
      sandbox.testHelpers.payOrder({ attributes: added }),
      /signature does not match.*the signature verifies without `language`: the page added language="lv"/s,
    );
  });

  it('refuses bad input, naming what to fix', async () => {
    const refusal = async (input: unknown) => {
      try {
        await sandbox.testHelpers.payOrder(input as never);
      } catch (error) {
        assert.ok(error instanceof TestHelperError);
        return { code: error.code, field: error.field, message: error.message };
      }
      throw new Error('not refused');
    };
    assert.deepEqual(await refusal({ attributes: rendered('A-7'), card: 'vsia' }), {
      code: 'invalid_input',
      field: 'card',
      message:
        '"vsia" is no test card name (approved, declined, insufficientFunds, threeDSecure, processingError, visa, mastercard, recurringDeclined, recurringDeclinedAfterAcceptance, visaElectronNordic, debitMastercardNordic, visaCitadele, amex, maestro) and no card number',
    });
    const threeDs = await refusal({ attributes: rendered('A-7'), threeDSecure: 'approve' });
    assert.equal(threeDs.field, 'threeDSecure');
    assert.match(threeDs.message, /only the card threeDSecure/);
    assert.equal(
      (await refusal({ attributes: { ...rendered('A-7'), colour: 'red' } })).field,
      'attributes.colour',
    );
    assert.equal((await refusal({ attributes: rendered('A-7'), threeDSecur: 'deny' })).field, 'threeDSecur');
    const unknownWidget = await refusal({ attributes: { ...rendered('A-7'), 'widget-id': 'nope' } });
    assert.deepEqual([unknownWidget.code, unknownWidget.field], ['not_found', 'attributes.widgetId']);
    const unknownCard = await refusal({ attributes: rendered('A-7'), card: '4242 4242 4242 4242' });
    assert.deepEqual([unknownCard.code, unknownCard.field], ['refused_by_gateway', 'card']);
    const origin = await refusal({ attributes: rendered('A-7'), pageOrigin: 'https://elsewhere.example' });
    assert.equal(origin.field, 'pageOrigin');
  });

  it('checks a page origin when given, as for a page', async () => {
    const paid = await sandbox.testHelpers.payOrder({ attributes: rendered('A-8'), pageOrigin: PAGE_ORIGIN });
    assert.equal(paid.status, 'PAID');
  });

  it('over HTTP with the merchant API key: POST /sandbox/test-helpers/legacy/pay-order', async () => {
    const post = (body: unknown, key?: string) =>
      fetch(`${sandbox.url}/sandbox/test-helpers/legacy/pay-order`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key !== undefined && { 'x-svc-api-key': key }) },
        body: JSON.stringify(body),
      });
    const paid = await post({ attributes: rendered('A-9'), card: 'visa' }, API_KEY);
    assert.equal(paid.status, 200);
    const body = await paid.json();
    assert.equal(body.status, 'PAID');
    assert.equal(body.notification.state, 'delivered');
    assert.equal(receiver.received.find((candidate) => candidate.order_id === 'A-9')?.status, 'PAID');

    const missing = await post({ attributes: rendered('A-10') });
    assert.equal(missing.status, 401);
    assert.equal((await missing.json()).error.code, 'api_key_missing');
    const wrong = await post({ attributes: rendered('A-10') }, 'not-the-key');
    assert.equal((await wrong.json()).error.code, 'api_key_invalid');
    const refused = await post({ attributes: { ...rendered('A-10'), amount: '1.00' } }, API_KEY);
    assert.equal(refused.status, 401);
    const { error } = await refused.json();
    assert.deepEqual(
      { ...error, message: undefined },
      {
        code: 'refused_by_gateway',
        message: undefined,
        field: 'attributes.signature',
        gatewayCode: 'signature_invalid',
      },
    );
    assert.match(
      error.message,
      /^The signature does not match the order; sign exactly the attributes on the page with the named certificate\. The sandbox found: no single field the page gave explains it.*\. The text checked: ".*mainA-101\.00Tea2\.000"$/,
    );
    const bad = await post({ attributes: rendered('A-10'), card: 7 }, API_KEY);
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error.field, 'card');
  });
});
