/**
 * Bulk payments of v1 Purchases against the sandbox: bank bulk payments whose creditors pair with products
 * and are checked against each merchant's whitelist, the variable creditor, and card bulk payments with
 * receivers per product.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { OTHER, OTHER_CREDITORS, purchaseBody, SHORT_WINDOW, v1, withV1Sandbox } from './support.js';

/** The IBAN check digits that make `country + digits + bban` valid (ISO 13616), for IBANs off the whitelist. */
function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  return `${country}${String(98 - remainder).padStart(2, '0')}${bban}`;
}

describe('sandbox v1 purchases: bulk payments', () => {
  const fixture = withV1Sandbox();
  let sandbox: Sandbox;

  before(() => ({ sandbox } = fixture));

  test('bulk bank payments: creditors pair with products and must be whitelisted', async () => {
    const products = [
      { name: 'Rent', price: 50000 },
      { name: 'Utilities', price: 7000 },
    ];
    const whitelisted = [
      { creditor_name: 'Sandbox Creditor LV', creditor_iban: 'LV80BANK0000435195001' },
      { creditor_name: 'Sandbox Creditor EE', creditor_iban: 'EE38 2200 2210 2014 5685' },
    ];
    const ok = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: { products, payment_method_details: { pis_bulk_purchase: whitelisted } },
      }),
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(
      ok.body.purchase.payment_method_details.pis_bulk_purchase[1].creditor_iban,
      'EE382200221020145685',
    );

    const stranger = iban('LV', 'HABA0551234567890');
    const notWhitelisted = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products,
          payment_method_details: {
            pis_bulk_purchase: [whitelisted[0], { creditor_name: 'Stranger', creditor_iban: stranger }],
          },
        },
      }),
    });
    assert.equal(notWhitelisted.status, 400);
    assert.deepEqual(Object.keys(notWhitelisted.body), ['__all__']);
    assert.equal(notWhitelisted.body.__all__.code, 'invalid');
    assert.match(notWhitelisted.body.__all__.message, new RegExp(stranger));
    assert.match(notWhitelisted.body.__all__.message, /LV80BANK0000435195001, EE382200221020145685/);

    // Each IBAN off the whitelist is named once, however often it is listed; another merchant's creditor
    // is a stranger here.
    const otherMerchants = 'EE541700017000123456';
    const strangers = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [...products, { name: 'Parking', price: 2000 }],
          payment_method_details: {
            pis_bulk_purchase: [
              { creditor_name: 'Stranger', creditor_iban: stranger },
              { creditor_name: 'Other Creditor OÜ', creditor_iban: otherMerchants },
              { creditor_name: 'Stranger', creditor_iban: stranger },
            ],
          },
        },
      }),
    });
    assert.equal(strangers.status, 400);
    assert.deepEqual(Object.keys(strangers.body), ['__all__']);
    assert.deepEqual(
      strangers.body.__all__.map((issue: { code: string; message: string }) => [
        issue.code,
        issue.message.split(' ')[3],
      ]),
      [
        ['invalid', stranger],
        ['invalid', otherMerchants],
      ],
    );

    const miscounted = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: { products, payment_method_details: { pis_bulk_purchase: [whitelisted[0]] } },
      }),
    });
    assert.equal(miscounted.status, 400);
    assert.deepEqual(Object.keys(miscounted.body), ['purchase.payment_method_details.pis_bulk_purchase']);
    assert.equal(miscounted.body['purchase.payment_method_details.pis_bulk_purchase'].code, 'invalid');
    assert.match(
      miscounted.body['purchase.payment_method_details.pis_bulk_purchase'].message,
      /1 creditors for 2 products/,
    );

    const none = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ purchase: { products, payment_method_details: { pis_bulk_purchase: [] } } }),
    });
    assert.equal(none.status, 400);
    assert.match(
      none.body['purchase.payment_method_details.pis_bulk_purchase'].message,
      /0 creditors for 2 products/,
    );

    const nameless = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [products[0]],
          payment_method_details: { pis_bulk_purchase: [{ creditor_iban: whitelisted[0]!.creditor_iban }] },
        },
      }),
    });
    assert.equal(
      nameless.body['purchase.payment_method_details.pis_bulk_purchase[0].creditor_name'].code,
      'required',
    );

    const garbled = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [products[0]],
          payment_method_details: { pis_bulk_purchase: [{ creditor_name: 'X', creditor_iban: 'LV00BANK1' }] },
        },
      }),
    });
    assert.equal(
      garbled.body['purchase.payment_method_details.pis_bulk_purchase[0].creditor_iban'].code,
      'invalid',
    );

    const cardsForBulk = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        payment_method_whitelist: ['visa'],
        purchase: {
          products: [products[0]],
          payment_method_details: { pis_bulk_purchase: [whitelisted[0]] },
        },
      }),
    });
    assert.equal(cardsForBulk.status, 400);
    assert.match(cardsForBulk.body.payment_method_whitelist.message, /bank methods only/);
  });

  test('variable creditor: whitelisted name and IBAN, debtor identification needs the personal code', async () => {
    const creditor = { name: 'Sandbox Creditor LT', iban: 'LT121000011101001000' };
    const ok = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: { email: 'org@example.com', personal_code: '40003000000' },
        purchase: {
          products: [{ name: 'Invoice 12', price: 9900 }],
          payment_method_details: {
            pis_purchase: {
              creditor,
              debtor: { identification: { type: 'organisation', scheme_name: 'COID' } },
            },
          },
        },
      }),
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.purchase.payment_method_details.pis_purchase.debtor, {
      identification: { type: 'organisation', scheme_name: 'COID' },
    });

    const wrongName = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice 13', price: 100 }],
          payment_method_details: { pis_purchase: { creditor: { ...creditor, name: 'Someone Else' } } },
        },
      }),
    });
    assert.equal(wrongName.status, 400);
    assert.deepEqual(Object.keys(wrongName.body), ['creditor']);
    assert.equal(wrongName.body.creditor.code, 'invalid');

    // Name and IBAN must be one entry: a whitelisted name with another entry's IBAN is refused.
    const mixed = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice 13', price: 100 }],
          payment_method_details: {
            pis_purchase: { creditor: { ...creditor, iban: 'EE382200221020145685' } },
          },
        },
      }),
    });
    assert.equal(mixed.status, 400);
    assert.deepEqual(Object.keys(mixed.body), ['creditor']);
    assert.match(mixed.body.creditor.message, /"Sandbox Creditor LT" LT121000011101001000/);

    // A debtor without an identification needs no personal code.
    const plainDebtor = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice 13', price: 100 }],
          payment_method_details: {
            pis_purchase: { creditor: { ...creditor, name: ' Sandbox Creditor LT ' }, debtor: {} },
          },
        },
      }),
    });
    assert.equal(plainDebtor.status, 201, JSON.stringify(plainDebtor.body));

    const noCode = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice 14', price: 100 }],
          payment_method_details: {
            pis_purchase: { creditor, debtor: { identification: { type: 'private', scheme_name: 'NIDN' } } },
          },
        },
      }),
    });
    assert.equal(noCode.status, 400);
    assert.equal(noCode.body['client.personal_code'].code, 'required');

    const halfIdentification = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: { personal_code: '010190-12345' },
        purchase: {
          products: [{ name: 'Invoice 15', price: 100 }],
          payment_method_details: {
            pis_purchase: { creditor, debtor: { identification: { type: 'person' } } },
          },
        },
      }),
    });
    assert.equal(halfIdentification.status, 400);
    const base = 'purchase.payment_method_details.pis_purchase.debtor.identification';
    assert.equal(halfIdentification.body[`${base}.scheme_name`].code, 'required');
    assert.equal(halfIdentification.body[`${base}.type`].code, 'invalid');

    // An empty identification lacks all three, and each is named at once.
    const emptyIdentification = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Invoice 16', price: 100 }],
          payment_method_details: { pis_purchase: { creditor, debtor: { identification: {} } } },
        },
      }),
    });
    assert.equal(emptyIdentification.status, 400);
    assert.deepEqual(
      Object.entries(emptyIdentification.body)
        .map(([field, issue]) => [field, (issue as { code: string }).code])
        .sort(),
      [
        ['client.personal_code', 'required'],
        [`${base}.scheme_name`, 'required'],
        [`${base}.type`, 'required'],
      ],
    );
  });

  test('each merchant has its own creditor whitelist, and the variable creditor only where enabled', async () => {
    const products = [
      { name: 'Rent', price: 50000 },
      { name: 'Utilities', price: 7000 },
    ];
    const asOther = (body: Record<string, unknown>) =>
      v1(sandbox, 'POST', '/purchases/', {
        key: OTHER.secretKey,
        body: purchaseBody({ brand_id: OTHER.brandId, ...body }),
      });
    const own = await asOther({
      purchase: {
        products,
        payment_method_details: {
          pis_bulk_purchase: OTHER_CREDITORS.map((creditor) => ({
            creditor_name: creditor.name,
            creditor_iban: creditor.iban,
          })),
        },
      },
    });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    assert.deepEqual(
      own.body.purchase.payment_method_details.pis_bulk_purchase.map(
        (creditor: { creditor_iban: string }) => creditor.creditor_iban,
      ),
      ['LV14UNLA0050014207510', 'EE541700017000123456'],
    );

    // The sandbox's test creditors are not m2's: its config names its own.
    const testCreditor = await asOther({
      purchase: {
        products: [products[0]],
        payment_method_details: {
          pis_bulk_purchase: [
            { creditor_name: 'Sandbox Creditor LV', creditor_iban: 'LV80BANK0000435195001' },
          ],
        },
      },
    });
    assert.equal(testCreditor.status, 400);
    assert.equal(testCreditor.body.__all__.code, 'invalid');
    assert.match(
      testCreditor.body.__all__.message,
      /^The creditor IBAN LV80BANK0000435195001 is not whitelisted for bulk payments; this merchant's whitelist \(merchants\[\]\.v1\.creditors in the sandbox config\): LV14UNLA0050014207510, EE541700017000123456$/,
    );

    // m2 whitelists the creditor, but has no variable creditor agreement.
    const variable = await asOther({
      purchase: {
        products: [products[0]],
        payment_method_details: {
          pis_purchase: { creditor: { name: 'Other Creditor SIA', iban: 'LV14UNLA0050014207510' } },
        },
      },
    });
    assert.equal(variable.status, 400);
    assert.deepEqual(Object.keys(variable.body), ['creditor']);
    assert.equal(variable.body.creditor.code, 'invalid');
    assert.match(variable.body.creditor.message, /not enabled .*merchants\[\]\.v1\.variableCreditor: true/);

    // m3's config names no creditors: it takes the test creditors, and no variable creditor.
    const asShortWindow = (details: Record<string, unknown>) =>
      v1(sandbox, 'POST', '/purchases/', {
        key: SHORT_WINDOW.secretKey,
        body: purchaseBody({
          brand_id: SHORT_WINDOW.brandId,
          purchase: { products: [products[0]], payment_method_details: details },
        }),
      });
    const defaultWhitelist = await asShortWindow({
      pis_bulk_purchase: [{ creditor_name: 'Anyone', creditor_iban: 'LT121000011101001000' }],
    });
    assert.equal(defaultWhitelist.status, 201, JSON.stringify(defaultWhitelist.body));
    const notEnabled = await asShortWindow({
      pis_purchase: { creditor: { name: 'Sandbox Creditor LT', iban: 'LT121000011101001000' } },
    });
    assert.equal(notEnabled.status, 400);
    assert.match(notEnabled.body.creditor.message, /not enabled/);
  });

  test('card bulk payments need receivers per product, the client name and code, and total_override', async () => {
    const receivers = [
      {
        receiver_name: 'Jānis',
        receiver_iban: 'LV80BANK0000435195001',
        receiver_personal_id: '010101-10000',
      },
    ];
    const incomplete = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: { email: 'payer@example.com' },
        purchase: {
          products: [
            { name: 'Gift 1', price: 1000 },
            { name: 'Gift 2', price: 1000 },
          ],
          payment_method_details: { svc_bulk_purchase: [...receivers, { receiver_name: 'Ilze' }] },
        },
      }),
    });
    assert.equal(incomplete.status, 400);
    const base = 'purchase.payment_method_details.svc_bulk_purchase';
    assert.equal(incomplete.body[`${base}[1].receiver_iban`].code, 'required');
    assert.equal(incomplete.body[`${base}[1].receiver_personal_id`].code, 'required');

    const missingRest = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        purchase: {
          products: [{ name: 'Gift', price: 1000 }],
          payment_method_details: { svc_bulk_purchase: receivers },
        },
      }),
    });
    assert.equal(missingRest.status, 400);
    assert.equal(missingRest.body['client.full_name'].code, 'required');
    assert.equal(missingRest.body['client.personal_code'].code, 'required');
    assert.equal(missingRest.body['purchase.total_override'].code, 'required');

    const payer = { full_name: 'Payer', personal_code: '020202-20000' };
    const miscounted = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: payer,
        purchase: {
          products: [
            { name: 'Gift 1', price: 1000 },
            { name: 'Gift 2', price: 1000 },
          ],
          total_override: 2000,
          payment_method_details: { svc_bulk_purchase: receivers },
        },
      }),
    });
    assert.equal(miscounted.status, 400);
    assert.deepEqual(Object.keys(miscounted.body), [base]);
    assert.equal(miscounted.body[base].code, 'invalid');
    assert.match(miscounted.body[base].message, /1 receivers for 2 products/);

    const bankOnly = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: payer,
        payment_method_whitelist: ['swedbank_lv_pis'],
        purchase: {
          products: [{ name: 'Gift', price: 1000 }],
          total_override: 1000,
          payment_method_details: { svc_bulk_purchase: receivers },
        },
      }),
    });
    assert.equal(bankOnly.status, 400);
    assert.match(bankOnly.body.payment_method_whitelist.message, /card methods only/);

    const combined = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: payer,
        purchase: {
          products: [{ name: 'Gift', price: 1000 }],
          total_override: 1000,
          payment_method_details: {
            svc_bulk_purchase: receivers,
            pis_bulk_purchase: [
              { creditor_name: 'Sandbox Creditor LV', creditor_iban: 'LV80BANK0000435195001' },
            ],
          },
        },
      }),
    });
    assert.equal(combined.status, 400);
    assert.match(
      combined.body['purchase.payment_method_details'].message,
      /pis_bulk_purchase and svc_bulk_purchase cannot be combined/,
    );

    const ok = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        client: payer,
        purchase: {
          products: [{ name: 'Gift', price: 1000 }],
          total_override: 1000,
          payment_method_details: { svc_bulk_purchase: receivers },
        },
      }),
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });
});
