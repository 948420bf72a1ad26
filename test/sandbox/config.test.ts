import assert from 'node:assert/strict';
import { createSign, createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { parseOrder } from '../../src/core/order.js';
import {
  ConfigError,
  DEMO_API_KEY,
  DEMO_CALLBACK_PATHS,
  DEMO_CERTIFICATE_NAME,
  DEMO_MERCHANT_ID,
  DEMO_SHOP_ORIGIN,
  DEMO_WIDGET_IDS,
  demoConfig,
  demoConfigFile,
  ensureDemoMerchantKeys,
  fieldPath,
  loadConfig,
  parseConfig,
  type SandboxConfigFile,
} from '../../src/sandbox/config.js';

const tmp = mkdtempSync(join(tmpdir(), 'svc-config-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const SPKI_PEM = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
const PKCS1_PEM = rsa.publicKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const PRIVATE_PEM = rsa.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const EC_PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .publicKey.export({ type: 'spki', format: 'pem' })
  .toString();
/** A self-signed RSA 2048 certificate (`openssl req -x509`, valid until 2126). */
const CERTIFICATE_PEM = `-----BEGIN CERTIFICATE-----
MIIDKzCCAhOgAwIBAgIUAr/ZMMqBBeF17WTgZHGegTmk5p4wDQYJKoZIhvcNAQEL
BQAwJDEiMCAGA1UEAwwZc3ZjLXNhbmRib3ggdGVzdCBtZXJjaGFudDAgFw0yNjEx
MjExODUzMTZaGA8yMTI2MTAyODE4NTMxNlowJDEiMCAGA1UEAwwZc3ZjLXNhbmRi
b3ggdGVzdCBtZXJjaGFudDCCASIwDQYJKoZIhvcNAQEBBQADggEPADCCAQoCggEB
AJFjpDuFDnNup/vir3+5bVu/FpDfMMP4p/kfDLyU8OE9OW6SbcroOqMdpuCOFgfE
Y4A9dDEEUCoXzHpGFZzz9NAJaRrAk4Y8AWu3dPuEh/22Qyawu4/9G42eOBPDymiY
VKSXISJDH3EExv5Fkksv9C8ATDtTpWxSfY3yV9XC+V7FQ6bwFfXm+esU1hgOkMjW
V2qlbFiwwpeIadqgTYHNzBZp0srnV9GT4iSe0YMReCDpuR3n6Q/b+0eHv5wkAkfM
O1JEur3XJ7GdCa0lUDEqrYnqF/twN6LYeCtvz+5SdExJBVSsRqM+pfSlaLD38NEe
DqNGiMdGuhse9l1mFWtZkDkCAwEAAaNTMFEwHQYDVR0OBBYEFJiQNZOGzLgS8tN7
o5TO1s5I9ftPMB8GA1UdIwQYMBaAFJiQNZOGzLgS8tN7o5TO1s5I9ftPMA8GA1Ud
EwEB/wQFMAMBAf8wDQYJKoZIhvcNAQELBQADggEBAIAhLrKS2iPorKhgN8fq6NR0
FKVTc0fja/AIAZvWDtyTqw+4DTzqLwNX0mMYUK8Ia4GQ/mfmQEbUStpJDsTuevWJ
LvXGexaatxdMBQCKbFyKnnWKXTZy17KFxA7Ue64Z5j9oeLKQ9xIlRAqk6kPBB1Mm
uUS6AOlhIYAuE/xa9PRI5OR7cBAOvI+qPyh/ZHU//HU2haLQPtgsNV0U1kKmkujW
dBQj8nGxlI4aCpWHtJEeGSAFed4/Rs2uvu0R53YCCXDOTqFFg5bVsLCFx1M0Fh2K
GIu5J3mjZ609tGvQfcWw8VtQRGrHD8dTXqFuPzX5PhdYF6zK6p4jtGq/w/m4uMM=
-----END CERTIFICATE-----
`;

const INSTANT_ID = '11111111-1111-4111-8111-111111111111';
const CHECKOUT_ID = '22222222-2222-4222-8222-222222222222';

/** A small valid config; each test breaks one thing in its own copy. */
function validConfig(): SandboxConfigFile {
  return {
    merchants: [
      {
        id: 'shop',
        name: 'Shop',
        apiKey: 'shop-key',
        callbacks: { notificationUrl: 'https://shop.example/notify', termsUrl: 'https://shop.example/terms' },
        allowedOrigins: ['https://shop.example'],
        certificates: [{ name: 'main', pem: SPKI_PEM }],
        widgets: [
          { id: INSTANT_ID, type: 'INSTANT', order: { items: [{ amount: '10.00', label: 'Ticket' }] } },
          { id: CHECKOUT_ID, type: 'CHECKOUT', validation: 'SIGNATURE' },
        ],
      },
    ],
  };
}

/** Asserts the config is refused with an issue at `path` whose message matches, and that the error says so. */
function assertRefused(json: unknown, path: string, message: RegExp): ConfigError {
  let caught: unknown;
  try {
    parseConfig(json, { baseDir: tmp });
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  assert.equal(caught.code, 'invalid_config');
  const issue = caught.issues.find((candidate) => candidate.path === path);
  assert.ok(issue, `no issue at ${path}; issues: ${JSON.stringify(caught.issues)}`);
  assert.match(issue.message, message);
  assert.ok(caught.message.includes(`${path}: ${issue.message}`), caught.message);
  return caught;
}

describe('fieldPath', () => {
  test('turns a JSON pointer into the dotted path people read', () => {
    assert.equal(fieldPath('/merchants/0/widgets/1/type'), 'merchants[0].widgets[1].type');
    assert.equal(fieldPath('/merchants/2', 'apiKey'), 'merchants[2].apiKey');
    assert.equal(fieldPath('', 'merchants'), 'merchants');
    assert.equal(fieldPath('/a~1b/c~0d'), 'a/b.c~d');
  });
});

describe('parseConfig', () => {
  test('fills in defaults and imports certificates', () => {
    const config = parseConfig(validConfig(), { baseDir: tmp });
    const merchant = config.merchants[0]!;
    assert.deepEqual(merchant.defaults, { currency: 'EUR', taxRate: '0.21', language: 'en' });
    assert.deepEqual(config.notifications, {
      retryBaseMs: 60_000,
      maxFurtherAttempts: 8,
      maxAgeMs: 36 * 3600_000,
      timeoutMs: 10_000,
    });
    assert.equal(merchant.certificates[0]!.revoked, false);
    assert.equal(merchant.certificates[0]!.publicKey.asymmetricKeyType, 'rsa');
    const [instant, checkout] = merchant.widgets;
    assert.equal(instant!.type, 'INSTANT');
    assert.deepEqual(instant!.order, { items: [{ amount: '10.00', label: 'Ticket' }] });
    assert.equal(checkout!.type, 'CHECKOUT');
    assert.equal(checkout!.order, undefined);
    assert.equal(checkout!.collectCustomerData, false);
    assert.deepEqual(checkout!.pickupPoints, []);
  });

  test('does not modify its input', () => {
    const input = validConfig();
    const before = structuredClone(input);
    parseConfig(input, { baseDir: tmp });
    assert.deepEqual(input, before);
  });

  test('takes PKCS#1 public keys and X.509 certificates', () => {
    const json = validConfig();
    json.merchants[0]!.certificates = [
      { name: 'pkcs1', pem: PKCS1_PEM },
      { name: 'x509', pem: CERTIFICATE_PEM, revoked: true },
    ];
    const [pkcs1, x509] = parseConfig(json, { baseDir: tmp }).merchants[0]!.certificates;
    assert.equal(pkcs1!.publicKey.export({ type: 'spki', format: 'pem' }), SPKI_PEM);
    assert.equal(x509!.publicKey.asymmetricKeyType, 'rsa');
    assert.equal(x509!.revoked, true);
  });

  test('resolves service.privateKeyFile against the base dir', () => {
    const json = { ...validConfig(), service: { privateKeyFile: 'keys/service.pem' } };
    assert.equal(
      parseConfig(json, { baseDir: tmp }).service.privateKeyFile,
      join(tmp, 'keys', 'service.pem'),
    );
  });

  test('refuses an unknown widget type, naming the field and the allowed values', () => {
    const json = validConfig() as unknown as { merchants: Array<{ widgets: Array<{ type: string }> }> };
    json.merchants[0]!.widgets[1]!.type = 'POPUP';
    assertRefused(json, 'merchants[0].widgets[1].type', /^must be one of INSTANT, CHECKOUT$/);
  });

  test('refuses a missing required member', () => {
    const json = validConfig() as unknown as { merchants: Array<Record<string, unknown>> };
    delete json.merchants[0]!['apiKey'];
    assertRefused(json, 'merchants[0].apiKey', /is required/);
  });

  test('refuses an unknown member and lists the known ones', () => {
    const json = validConfig() as unknown as { merchants: Array<Record<string, unknown>> };
    json.merchants[0]!['apikey'] = 'x';
    assertRefused(json, 'merchants[0].apikey', /not a setting here.*apiKey/);
  });

  test('refuses a widget id that is not a UUID', () => {
    const json = validConfig();
    json.merchants[0]!.widgets![1]!.id = 'widget-2';
    assertRefused(json, 'merchants[0].widgets[1].id', /must be a UUID/);
  });

  test('refuses relative callback URLs and origins with a path', () => {
    const json = validConfig();
    json.merchants[0]!.callbacks.notificationUrl = '/notify';
    json.merchants[0]!.allowedOrigins = ['https://shop.example/cart'];
    const error = assertRefused(json, 'merchants[0].callbacks.notificationUrl', /absolute http\(s\) URL/);
    assert.ok(
      error.issues.some(
        (issue) => issue.path === 'merchants[0].allowedOrigins[0]' && /origin/.test(issue.message),
      ),
    );
  });

  test('refuses a value of the wrong type', () => {
    const json = validConfig() as unknown as { merchants: Array<{ defaults?: unknown }> };
    json.merchants[0]!.defaults = { taxRate: true };
    assertRefused(json, 'merchants[0].defaults.taxRate', /^must be a number or a string$/);
  });

  test('refuses a default tax rate that is not a rate', () => {
    const json = validConfig();
    json.merchants[0]!.defaults = { taxRate: '21%' };
    assertRefused(json, 'merchants[0].defaults.taxRate', /not a rate/);
  });

  test('refuses more further attempts than the gateway makes', () => {
    const json = { ...validConfig(), notifications: { maxFurtherAttempts: 9 } };
    assertRefused(json, 'notifications.maxFurtherAttempts', /8/);
  });

  test('refuses duplicate merchant ids and API keys', () => {
    const json = validConfig();
    json.merchants.push({ ...structuredClone(json.merchants[0]!), widgets: [] });
    const error = assertRefused(json, 'merchants[1].id', /"shop" is already used by merchants\[0\]/);
    assert.ok(error.issues.some((issue) => issue.path === 'merchants[1].apiKey'));
    assert.ok(!error.message.includes('shop-key'), 'a secret is not repeated in the message');
  });

  test('refuses a widget id used twice, across merchants', () => {
    const json = validConfig();
    json.merchants.push({
      ...structuredClone(json.merchants[0]!),
      id: 'other',
      apiKey: 'other-key',
      widgets: [{ id: CHECKOUT_ID.toUpperCase(), type: 'CHECKOUT' }],
    });
    assertRefused(json, 'merchants[1].widgets[0].id', /already used by merchants\[0\]\.widgets\[1\]/);
  });

  test('refuses a certificate name used twice by one merchant', () => {
    const json = validConfig();
    json.merchants[0]!.certificates!.push({ name: 'main', pem: PKCS1_PEM });
    assertRefused(json, 'merchants[0].certificates[1].name', /"main" is already used/);
  });

  test('refuses PEMs that do not import as RSA public keys', () => {
    const cases: Array<[string, RegExp]> = [
      ['not a key at all', /is not PEM/],
      ['-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', /does not read as a public key/],
      [PRIVATE_PEM, /is a private key/],
      [EC_PEM, /is an ec key.*RSA/],
      [CERTIFICATE_PEM.replace('MIIDKz', 'MIIDKy'), /does not read as a certificate/],
    ];
    for (const [pem, message] of cases) {
      const json = validConfig();
      json.merchants[0]!.certificates = [{ name: 'main', pem }];
      assertRefused(json, 'merchants[0].certificates[0].pem', message);
    }
  });

  test('refuses a certificate with both pem and pemFile, or neither', () => {
    const json = validConfig();
    json.merchants[0]!.certificates = [
      { name: 'both', pem: SPKI_PEM, pemFile: 'x.pem' },
      { name: 'neither' },
    ];
    const error = assertRefused(json, 'merchants[0].certificates[0]', /either pem or pemFile/);
    assert.ok(error.issues.some((issue) => issue.path === 'merchants[0].certificates[1]'));
  });

  test('refuses an INSTANT widget without an order, and a CHECKOUT widget with one', () => {
    const json = validConfig();
    delete json.merchants[0]!.widgets![0]!.order;
    json.merchants[0]!.widgets![1]!.order = { items: [{ amount: 1, label: 'x' }] };
    const error = assertRefused(json, 'merchants[0].widgets[0].order', /required for an INSTANT widget/);
    assert.ok(error.issues.some((issue) => issue.path === 'merchants[0].widgets[1].order'));
  });

  test('refuses a bad item in an INSTANT order, naming the item field', () => {
    const json = validConfig();
    json.merchants[0]!.widgets![0]!.order = { items: [{ amount: '12.345', label: 'Ticket' }] };
    assertRefused(json, 'merchants[0].widgets[0].order.items[0].amount', /3 decimals/);
  });

  test("an INSTANT order in the official client's shape: title, excludeFromOrderIfFree, null for not given", () => {
    const json = validConfig();
    json.merchants[0]!.widgets![0]!.order = {
      items: [{ amount: 10, label: 'Ticket', count: null, unit: null, taxRate: null, orderItemId: null }],
      shippingOptions: [
        {
          id: 'pickup',
          amount: 0,
          currency: null,
          taxRate: null,
          title: 'At the door',
          excludeFromOrderIfFree: true,
        },
      ],
      constraints: { paymentScheme: null, issuer: null, brand: null },
    };
    const widget = parseConfig(json, { baseDir: tmp }).merchants[0]!.widgets[0]!;
    assert.deepEqual(widget.order, {
      items: [{ amount: 10, label: 'Ticket' }],
      shippingOptions: [{ id: 'pickup', amount: 0, title: 'At the door', excludeFromOrderIfFree: true }],
      constraints: {},
    });
    // Each page gives the order id: a fixed one would make the widget payable once.
    json.merchants[0]!.widgets![0]!.order = { items: [{ amount: 1, label: 'x' }], orderId: 'A' } as never;
    assertRefused(json, 'merchants[0].widgets[0].order.orderId', /^is not a setting here/);
  });

  test('refuses a CALLBACK widget when the merchant has no order verification URL', () => {
    const json = validConfig();
    json.merchants[0]!.widgets![1]!.validation = 'CALLBACK';
    assertRefused(json, 'merchants[0].widgets[1].validation', /orderVerificationUrl/);
    json.merchants[0]!.callbacks.orderVerificationUrl = 'https://shop.example/verify';
    assert.doesNotThrow(() => parseConfig(json, { baseDir: tmp }));
  });

  test('refuses pickup points outside the full checkout, and duplicate pickup point ids', () => {
    const json = validConfig();
    const points = [
      { externalId: 'a', name: 'A' },
      { externalId: 'a', name: 'B' },
    ];
    json.merchants[0]!.widgets![1]!.pickupPoints = points;
    const error = assertRefused(json, 'merchants[0].widgets[1].pickupPoints', /collectCustomerData/);
    assert.ok(
      error.issues.some((issue) => issue.path === 'merchants[0].widgets[1].pickupPoints[1].externalId'),
    );
  });

  test("takes a pickup point's address, and refuses one without its street, naming the field", () => {
    const json = validConfig();
    const widget = json.merchants[0]!.widgets![1]!;
    widget.collectCustomerData = true;
    const address = { address: 'Audeju iela 16', city: 'Riga', postalCode: 'LV-1050', country: 'LV' };
    widget.pickupPoints = [{ externalId: 'a', name: 'A', address }];
    const parsed = parseConfig(json, { baseDir: tmp });
    assert.deepEqual(parsed.merchants[0]!.widgets[1]!.pickupPoints[0]!.address, address);
    widget.pickupPoints = [
      { externalId: 'a', name: 'A', address: { city: 'Riga', postalCode: 'LV-1050' } },
    ] as never;
    assertRefused(json, 'merchants[0].widgets[1].pickupPoints[0].address.address', /required/);
  });

  test("refuses a fixed order's pickup-point option on a widget without pickup points", () => {
    const json = validConfig();
    json.merchants[0]!.widgets![0]!.order!.shippingOptions = [
      { id: 'post', amount: '2.80', label: 'Latvian Post' },
      { id: 'locker', amount: '1.99', type: 'PICKUP_POINT' },
    ];
    assertRefused(json, 'merchants[0].widgets[0].order.shippingOptions[1].type', /pickupPoints/);
  });

  test('lists every schema problem at once', () => {
    const json = validConfig() as unknown as { merchants: Array<Record<string, unknown>> };
    delete json.merchants[0]!['name'];
    json.merchants[0]!['defaults'] = { currency: 'eur', language: 'de' };
    let caught: unknown;
    try {
      parseConfig(json, { baseDir: tmp });
    } catch (error) {
      caught = error;
    }
    assert.ok(caught instanceof ConfigError);
    assert.deepEqual(caught.issues.map((issue) => issue.path).sort(), [
      'merchants[0].defaults.currency',
      'merchants[0].defaults.language',
      'merchants[0].name',
    ]);
    assert.match(caught.message, /merchants\[0\]\.defaults\.currency: must be an ISO 4217 currency code/);
    assert.match(caught.message, /merchants\[0\]\.defaults\.language: must be one of lv, en, ru/);
  });
});

describe('loadConfig', () => {
  test('reads pemFile relative to the config file, not the working directory', () => {
    const dir = join(tmp, 'project', 'config');
    mkdirSync(join(dir, 'keys'), { recursive: true });
    writeFileSync(join(dir, 'keys', 'merchant.pem'), SPKI_PEM);
    const json = validConfig();
    json.merchants[0]!.certificates = [{ name: 'main', pemFile: 'keys/merchant.pem' }];
    writeFileSync(join(dir, 'sandbox.json'), JSON.stringify(json));
    const config = loadConfig(join(dir, 'sandbox.json'));
    assert.equal(config.merchants[0]!.certificates[0]!.pem, SPKI_PEM);
  });

  test('names a pemFile that cannot be read, with the path it looked at', () => {
    const dir = join(tmp, 'missing-pem');
    mkdirSync(dir, { recursive: true });
    const json = validConfig();
    json.merchants[0]!.certificates = [{ name: 'main', pemFile: 'nope.pem' }];
    writeFileSync(join(dir, 'sandbox.json'), JSON.stringify(json));
    assert.throws(
      () => loadConfig(join(dir, 'sandbox.json')),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(`merchants[0].certificates[0].pemFile: cannot read ${join(dir, 'nope.pem')}`),
    );
  });

  test('says when the file cannot be read or is not JSON', () => {
    assert.throws(
      () => loadConfig(join(tmp, 'absent.json')),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.code === 'unreadable_config' &&
        error.message.includes('absent.json'),
    );
    const file = join(tmp, 'broken.json');
    writeFileSync(file, '{\n  "merchants": [,]\n}\n');
    assert.throws(
      () => loadConfig(file),
      (error: unknown) =>
        error instanceof ConfigError && error.code === 'invalid_config' && /is not JSON/.test(error.message),
    );
  });
});

describe('the demo merchant', () => {
  test('keys are made once, private key readable by its owner only', () => {
    const dataDir = join(tmp, 'demo-data');
    const first = ensureDemoMerchantKeys(dataDir);
    assert.equal(first.created, true);
    assert.equal(first.privateKeyFile, join(dataDir, 'demo-merchant', 'private-key.pem'));
    assert.equal(statSync(first.privateKeyFile).mode & 0o777, 0o600);
    const second = ensureDemoMerchantKeys(dataDir);
    assert.equal(second.created, false);
    assert.equal(second.privateKeyPem, first.privateKeyPem);
    assert.equal(second.publicKeyPem, first.publicKeyPem);
    const signature = createSign('sha256').update('order').sign(first.privateKeyPem);
    assert.ok(createVerify('sha256').update('order').verify(second.publicKeyPem, signature));
  });

  test('its config is valid and names the key pair, the widgets and the shop', () => {
    const keys = ensureDemoMerchantKeys(join(tmp, 'demo-data'));
    const config = demoConfig({ publicKeyPem: keys.publicKeyPem });
    const merchant = config.merchants[0]!;
    assert.equal(merchant.id, DEMO_MERCHANT_ID);
    assert.equal(merchant.apiKey, DEMO_API_KEY);
    assert.equal(merchant.certificates[0]!.name, DEMO_CERTIFICATE_NAME);
    assert.equal(merchant.certificates[0]!.pem, keys.publicKeyPem);
    assert.ok(merchant.allowedOrigins.includes(DEMO_SHOP_ORIGIN));
    assert.ok(merchant.allowedOrigins.includes('http://127.0.0.1:5173'));
    assert.equal(
      merchant.callbacks.notificationUrl,
      `${DEMO_SHOP_ORIGIN}${DEMO_CALLBACK_PATHS.notification}`,
    );
    const widgets = new Map(merchant.widgets.map((widget) => [widget.id, widget]));
    const instant = widgets.get(DEMO_WIDGET_IDS.instant);
    assert.equal(instant?.type, 'INSTANT');
    assert.ok(instant?.order && parseOrder({ widgetId: instant.id, ...instant.order }).value);
    assert.equal(widgets.get(DEMO_WIDGET_IDS.checkout)?.validation, 'SIGNATURE');
    const full = widgets.get(DEMO_WIDGET_IDS.fullCheckout);
    assert.equal(full?.collectCustomerData, true);
    assert.ok((full?.pickupPoints.length ?? 0) > 0);
    assert.equal(widgets.get(DEMO_WIDGET_IDS.callbackValidation)?.validation, 'CALLBACK');
  });

  test('its config file survives a trip through JSON, as written to disk', () => {
    const { publicKeyPem } = ensureDemoMerchantKeys(join(tmp, 'demo-data'));
    const file = join(tmp, 'demo.json');
    writeFileSync(file, JSON.stringify(demoConfigFile(publicKeyPem), null, 2));
    assert.equal(loadConfig(file).merchants[0]!.widgets.length, 4);
  });
});
