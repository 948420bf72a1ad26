import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { OTHER, purchaseBody, V1, v1, withV1Sandbox } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Payout methods of `GET /payout_methods/`, for a Purchase's `payout_method_whitelist`. */
const PAYOUT_WHITELIST = ['sepa_credit_transfer', 'visa'];

describe('sandbox v1 purchases', () => {
  const fixture = withV1Sandbox();
  let sandbox: Sandbox;

  before(() => ({ sandbox } = fixture));

  test('answers 401 in the error shape without a key, with a wrong key or another scheme', async () => {
    const missing = await v1(sandbox, 'GET', '/public_key/', { key: null });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.__all__.code, 'not_authenticated');
    assert.match(missing.body.__all__.message, /Bearer/);
    assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer /);

    const wrong = await v1(sandbox, 'POST', '/purchases/', { key: 'not-a-key', body: purchaseBody() });
    assert.equal(wrong.status, 401);
    assert.deepEqual(Object.keys(wrong.body), ['__all__']);
    assert.equal(wrong.body.__all__.code, 'authentication_failed');

    const basic = await v1(sandbox, 'GET', '/public_key/', { authorization: `Basic ${V1.secretKey}` });
    assert.equal(basic.status, 401);
    assert.equal(basic.body.__all__.code, 'authentication_failed');

    const lowerCaseScheme = await v1(sandbox, 'GET', '/public_key/', {
      authorization: `bearer ${V1.secretKey}`,
    });
    assert.equal(lowerCaseScheme.status, 200);
  });

  test('creates a purchase with every named field, defaults filled in, and a checkout URL on the sandbox', async () => {
    const created = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
    assert.equal(created.status, 201);
    const purchase = created.body;
    assert.match(purchase.id, UUID);
    assert.equal(purchase.checkout_url, `${sandbox.url}/checkout/${purchase.id}/`);
    assert.equal(purchase.status, 'created');
    assert.equal(purchase.brand_id, V1.brandId);
    // Every member of the platform's ClientDetails, "" where nothing was given.
    assert.equal(purchase.client.email, 'customer@example.com');
    assert.equal(purchase.client.personal_code, '');
    assert.equal(purchase.client.shipping_street_address, '');
    assert.deepEqual(purchase.client.cc, []);
    assert.equal(purchase.client.client_type, null);
    assert.deepEqual(purchase.client.delivery_methods, [{ method: 'email', options: {} }]);
    assert.deepEqual(purchase.purchase, {
      products: [
        { name: 'Tea', price: 1250, quantity: '2.0000', discount: 0, tax_percent: '0.00', category: '' },
      ],
      currency: 'EUR',
      language: 'lv',
      due_strict: false,
      total_override: null,
      payment_method_details: {},
      total: 2500,
      notes: '',
      debt: 0,
      subtotal_override: null,
      total_tax_override: null,
      total_discount_override: null,
      request_client_details: [],
      timezone: 'UTC',
      email_message: '',
      shipping_options: [],
      has_upsell_products: false,
    });
    // The platform's defaults: "" for texts and redirects, a due an hour on.
    for (const field of [
      'reference',
      'success_callback',
      'success_redirect',
      'failure_redirect',
      'cancel_redirect',
    ]) {
      assert.equal(purchase[field], '', field);
    }
    for (const field of ['payment_method_whitelist', 'payout_method_whitelist', 'payment', 'viewed_on']) {
      assert.equal(purchase[field], null, field);
    }
    assert.equal(purchase.due, purchase.created_on + 3600);
    assert.equal(purchase.type, 'purchase');
    assert.equal(purchase.is_test, true, 'every sandbox key is a test key');
    assert.deepEqual(purchase.status_history, [{ status: 'created', timestamp: purchase.created_on }]);
    assert.match(purchase.reference_generated, /^SV\d+$/);
    assert.match(purchase.company_id, UUID);
    // A Client is made for every Purchase, and found again by its email.
    assert.match(purchase.client_id, UUID);
    const client = await v1(sandbox, 'GET', `/clients/${purchase.client_id}/`);
    assert.equal(client.body.email, 'customer@example.com');
    const again = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
    assert.equal(again.body.client_id, purchase.client_id);
    const abroad = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ client: { email: 'abroad@example.com', country: 'Latvia', city: 'Rīga' } }),
    });
    const made = await v1(sandbox, 'GET', `/clients/${abroad.body.client_id}/`);
    assert.deepEqual(
      [made.body.country, made.body.city],
      ['', 'Rīga'],
      'a country the Clients API refuses is left out',
    );
    const { id: _, ...asRead } = made.body;
    assert.equal((await v1(sandbox, 'PUT', `/clients/${made.body.id}/`, { body: asRead })).status, 200);
    assert.equal(purchase.skip_capture, false);
    assert.equal(purchase.force_recurring, false);
    assert.equal(purchase.is_recurring_token, false);
    assert.equal(purchase.marked_as_paid, false);
    assert.equal(purchase.refundable_amount, 0);
    assert.equal(purchase.refund_availability, 'none');
    assert.deepEqual(purchase.transaction_data, {
      flow: 'payform',
      extra: {},
      country: '',
      payment_method: '',
      attempts: [],
    });
    assert.equal(purchase.event_type, undefined);
    assert.equal(typeof purchase.created_on, 'number');

    const read = await v1(sandbox, 'GET', `/purchases/${purchase.id}/`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, purchase);
  });

  test('echoes every request field it takes', async () => {
    const due = Math.floor(Date.now() / 1000) + 3600;
    const stored = await v1(sandbox, 'POST', '/clients/', { body: { email: 'anna@example.org' } });
    const clientId = (stored.body.id as string).toUpperCase();
    const body = purchaseBody({
      client: {
        email: 'anna@example.com',
        full_name: 'Anna Bērziņa',
        personal_code: '010190-12345',
        phone: '+371 20000000',
        shipping_city: 'Rīga',
        cc: ['accounts@example.com'],
      },
      client_id: clientId,
      purchase: {
        products: [
          { name: 'Lamp', price: 4000, category: 'lighting' },
          { name: 'Bulb', price: 250, quantity: 4 },
        ],
        currency: 'usd',
        language: 'RU',
        due_strict: true,
        total_override: 4500,
        payment_method_details: { ip_address: '203.0.113.7' },
        notes: 'Leave at the door',
        timezone: 'Europe/Riga',
        email_message: 'Thank you',
      },
      reference: 'ORDER-77',
      success_callback: 'https://shop.example/callback',
      success_redirect: 'https://shop.example/ok',
      failure_redirect: 'https://shop.example/failed',
      cancel_redirect: 'https://shop.example/cart',
      skip_capture: true,
      force_recurring: true,
      payment_method_whitelist: ['visa', 'mastercard', 'visa'],
      payout_method_whitelist: PAYOUT_WHITELIST,
      due,
      notes: 'not a member of a Purchase: ignored',
    });
    const created = await v1(sandbox, 'POST', '/purchases', { body });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const purchase = created.body;
    const { client } = purchase;
    for (const [member, value] of Object.entries(body['client'] as object)) {
      assert.deepEqual(client[member], value, member);
    }
    assert.equal(client.street_address, '');
    assert.equal(purchase.client_id, clientId.toLowerCase());
    const product = { discount: 0, tax_percent: '0.00' };
    assert.deepEqual(purchase.purchase.products, [
      { name: 'Lamp', price: 4000, quantity: '1.0000', category: 'lighting', ...product },
      { name: 'Bulb', price: 250, quantity: '4.0000', category: '', ...product },
    ]);
    assert.equal(purchase.purchase.notes, 'Leave at the door');
    assert.equal(purchase.purchase.timezone, 'Europe/Riga');
    assert.equal(purchase.purchase.email_message, 'Thank you');
    assert.deepEqual(purchase.payout_method_whitelist, PAYOUT_WHITELIST);
    assert.equal(purchase.purchase.currency, 'USD');
    assert.equal(purchase.purchase.language, 'ru');
    assert.equal(purchase.purchase.due_strict, true);
    assert.equal(purchase.purchase.total_override, 4500);
    assert.equal(purchase.purchase.total, 4500);
    assert.deepEqual(purchase.purchase.payment_method_details, { ip_address: '203.0.113.7' });
    assert.equal(purchase.reference, 'ORDER-77');
    assert.equal(purchase.success_callback, 'https://shop.example/callback');
    assert.equal(purchase.success_redirect, 'https://shop.example/ok');
    assert.equal(purchase.failure_redirect, 'https://shop.example/failed');
    assert.equal(purchase.cancel_redirect, 'https://shop.example/cart');
    assert.equal(purchase.skip_capture, true);
    assert.equal(purchase.force_recurring, true);
    assert.deepEqual(purchase.payment_method_whitelist, ['visa', 'mastercard']);
    assert.equal(purchase.due, due);
    assert.equal(purchase.notes, undefined);
    assert.deepEqual((await v1(sandbox, 'GET', `/purchases/${purchase.id}/`)).body, purchase);
  });

  test('names each wrong field: one object for one problem, an array for several', async () => {
    const answer = await v1(sandbox, 'POST', '/purchases/', {
      body: {
        brand_id: 'not-a-uuid',
        client: { email: 'nobody', cc: ['nobody'] },
        purchase: {
          products: [{ name: '', price: -1 }, { name: 'Ok', price: 1.5, quantity: 0 }, 'tea'],
          currency: 'EURO',
          timezone: 'Mars/Olympus',
        },
        payout_method_whitelist: ['cash'],
        success_redirect: 'shop.example/ok',
        skip_capture: 'yes',
        due: 'tomorrow',
        payment_method_whitelist: ['visa', 'cash', 'cheque'],
      },
    });
    assert.equal(answer.status, 400);
    const body = answer.body;
    assert.deepEqual(body['brand_id'], { code: 'invalid', message: 'brand_id must be a UUID' });
    assert.equal(body['client.email'].code, 'invalid');
    assert.equal(body['client.cc'].code, 'invalid');
    assert.equal(body['purchase.timezone'].code, 'invalid');
    assert.match(body['payout_method_whitelist'].message, /"cash" is not a payout method/);
    assert.equal(body['purchase.products[0].name'].code, 'blank');
    assert.equal(body['purchase.products[0].price'].code, 'min_value');
    assert.equal(body['purchase.products[1].price'].code, 'invalid');
    assert.equal(body['purchase.products[1].quantity'].code, 'min_value');
    assert.equal(body['purchase.products[2]'].code, 'invalid');
    assert.equal(body['purchase.currency'].code, 'invalid');
    assert.equal(body['success_redirect'].code, 'invalid');
    assert.equal(body['skip_capture'].code, 'invalid');
    assert.equal(body['due'].code, 'invalid');
    assert.ok(Array.isArray(body['payment_method_whitelist']), 'several problems of one field: an array');
    assert.deepEqual(
      body['payment_method_whitelist'].map((detail: { code: string; message: string }) => detail.code),
      ['invalid', 'invalid'],
    );
    assert.match(body['payment_method_whitelist'][0].message, /"cash"/);
    assert.match(body['payment_method_whitelist'][1].message, /"cheque"/);
    for (const value of Object.values(body) as unknown[]) {
      for (const detail of Array.isArray(value) ? value : [value]) {
        assert.deepEqual(Object.keys(detail as object).sort(), ['code', 'message']);
        assert.equal(typeof (detail as { message: unknown }).message, 'string');
      }
    }
  });

  test('requires brand_id of the key and the purchase with products', async () => {
    const missing = await v1(sandbox, 'POST', '/purchases/', { body: {} });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.brand_id.code, 'required');
    assert.equal(missing.body.purchase.code, 'required');

    const foreignBrand = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ brand_id: OTHER.brandId }),
    });
    assert.equal(foreignBrand.status, 400);
    assert.equal(foreignBrand.body.brand_id.code, 'invalid');
    assert.match(foreignBrand.body.brand_id.message, /not a brand/);

    const noProducts = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ purchase: { products: [] } }),
    });
    assert.equal(noProducts.body['purchase.products'].code, 'empty');
    const nullProducts = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ purchase: { products: null } }),
    });
    assert.equal(nullProducts.body['purchase.products'].code, 'null');

    const emptyWhitelist = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ payment_method_whitelist: [] }),
    });
    assert.equal(emptyWhitelist.body.payment_method_whitelist.code, 'empty');
  });

  test('refuses a purchase no method could pay, naming why', async () => {
    const yen = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ purchase: { products: [{ name: 'Tea', price: 100 }], currency: 'JPY' } }),
    });
    assert.equal(yen.status, 400);
    assert.equal(yen.body['purchase.currency'].code, 'invalid');
    assert.match(yen.body['purchase.currency'].message, /No payment method takes JPY/);

    const bankWithHold = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ payment_method_whitelist: ['swedbank_lv_pis'], skip_capture: true }),
    });
    assert.equal(bankWithHold.status, 400);
    assert.equal(bankWithHold.body.payment_method_whitelist.code, 'invalid');
    assert.match(bankWithHold.body.payment_method_whitelist.message, /skip_capture/);

    const tooMuch = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: { products: [{ name: 'Yacht', price: 100_000_000_000, quantity: 2 }] },
      }),
    });
    assert.equal(tooMuch.body['purchase.products'].code, 'max_value');
  });

  test('answers malformed bodies in the error shape', async () => {
    const notJson = await v1(sandbox, 'POST', '/purchases/', { body: '{"brand_id":' });
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.__all__.code, 'parse_error');
    const array = await v1(sandbox, 'POST', '/purchases/', { body: '[]' });
    assert.equal(array.status, 400);
    assert.equal(array.body.__all__.code, 'parse_error');
  });

  test("404 for unknown, malformed and other merchants' purchases; 405 and 404 for paths", async () => {
    const unknown = await v1(sandbox, 'GET', '/purchases/00000000-0000-4000-8000-000000000000/');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.__all__.code, 'not_found');
    assert.equal((await v1(sandbox, 'GET', '/purchases/nope/')).status, 404);

    const theirs = await v1(sandbox, 'POST', '/purchases/', {
      key: OTHER.secretKey,
      body: purchaseBody({ brand_id: OTHER.brandId }),
    });
    assert.equal(theirs.status, 201);
    assert.equal((await v1(sandbox, 'GET', `/purchases/${theirs.body.id}/`)).status, 404);
    assert.equal((await v1(sandbox, 'POST', `/purchases/${theirs.body.id}/cancel/`)).status, 404);
    assert.equal(
      (await v1(sandbox, 'GET', `/purchases/${theirs.body.id}/`, { key: OTHER.secretKey })).status,
      200,
    );

    const wrongMethod = await v1(sandbox, 'DELETE', `/purchases/${theirs.body.id}/`, {
      key: OTHER.secretKey,
    });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.body.__all__.code, 'method_not_allowed');
    assert.equal(wrongMethod.headers.get('allow'), 'GET');

    const nowhere = await v1(sandbox, 'GET', '/nowhere/');
    assert.equal(nowhere.status, 404);
    assert.equal(nowhere.body.__all__.code, 'not_found');

    // Another merchant's purchase is no purchase of this key, for the operations as well.
    const capture = await v1(sandbox, 'POST', `/purchases/${theirs.body.id}/capture/`);
    assert.equal(capture.status, 404);
    assert.equal(capture.body.__all__.code, 'not_found');

    // Every endpoint of the document is served: a path it does not list is a 404 in its shape.
    const payouts = await v1(sandbox, 'POST', '/payouts/');
    assert.equal(payouts.status, 404);
    assert.equal(payouts.body.__all__.code, 'not_found');
  });

  test('cancel makes a payable purchase unpayable, and says so again when repeated', async () => {
    const created = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
    const cancelled = await v1(sandbox, 'POST', `/purchases/${created.body.id}/cancel/`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'cancelled');
    assert.equal(cancelled.body.checkout_url, created.body.checkout_url);
    const again = await v1(sandbox, 'POST', `/purchases/${created.body.id}/cancel`);
    assert.equal(again.status, 200);
    assert.equal(again.body.status, 'cancelled');
    assert.equal((await v1(sandbox, 'GET', `/purchases/${created.body.id}/`)).body.status, 'cancelled');
  });

  test('a strict due time that passed expires the purchase; a lax one does not', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    const strict = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        due: past,
        purchase: { products: [{ name: 'Late', price: 100 }], due_strict: true },
      }),
    });
    assert.equal(strict.status, 201);
    assert.equal(strict.body.status, 'created');
    assert.equal((await v1(sandbox, 'GET', `/purchases/${strict.body.id}/`)).body.status, 'expired');
    const cancelled = await v1(sandbox, 'POST', `/purchases/${strict.body.id}/cancel/`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.status, 'expired');

    const lax = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ due: past, purchase: { products: [{ name: 'Late', price: 100 }] } }),
    });
    assert.equal((await v1(sandbox, 'GET', `/purchases/${lax.body.id}/`)).body.status, 'created');
  });

  test('purchases survive a restart on the same data dir', async () => {
    const created = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody({ reference: 'KEEP-1' }) });
    const cancelled = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ reference: 'KEEP-2' }),
    });
    await v1(sandbox, 'POST', `/purchases/${cancelled.body.id}/cancel/`);
    await sandbox.close();
    sandbox = await fixture.restart();
    const read = await v1(sandbox, 'GET', `/purchases/${created.body.id}/`);
    assert.equal(read.status, 200);
    const { checkout_url: before, ...restBefore } = created.body;
    const { checkout_url: afterRestart, ...restAfter } = read.body;
    assert.deepEqual(restAfter, restBefore);
    assert.equal(afterRestart, `${sandbox.url}/checkout/${created.body.id}/`);
    assert.notEqual(before, undefined);
    assert.equal((await v1(sandbox, 'GET', `/purchases/${cancelled.body.id}/`)).body.status, 'cancelled');
  });
});
