import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { NO_SHIPPING, type PurchaseNotification } from '../../../src/core/legacy-callbacks.js';
import {
  constructPurchaseNotification,
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  KeyFormatError,
  type MerchantKeyPair,
  SignatureVerificationError,
  signBody,
  verifySignedRequest,
} from '../../../src/server/index.js';
import { independentSign, listen } from '../support.js';

let gateway: MerchantKeyPair;
let impostor: MerchantKeyPair;
let gatewayCertificate: string;

/**
 * A notification as the gateway writes it, by hand: money with 2 decimals and quantities with 3 (`176.00`,
 * `2.000`), which JSON.stringify cannot write, and the signature is over these exact bytes.
 */
const body =
  '{"id":"ord_01HZX","order_id":"A-1001","status":"PAID",' +
  '"company":{"name":"Maiznīca SIA","address":"Rīga","registration_number":"40000000001","vat_number":"LV40000000001"},' +
  '"customer":{"email":"anna@example.lv","first_name":"Anna","last_name":"Bērziņa","phone_number":null},' +
  '"payment":{"method":"CARD","status":"SUCCEEDED","accountStatementReference":"SVC-A1001","card":{"bin":"411111"},"error":null},' +
  '"amount":145.45,"tax_amount":30.55,"total_amount":176.00,"effective_amount":176.00,' +
  '"items":[{"amount":72.73,"label":"Ķiploku maize","tax_amount":30.55,"total_amount":176.00,"tax_rate":0.21,' +
  '"order_item_id":"bread","quantity":2.000,"unit":"PIECE","type":"UNKNOWN"}],"currency":"EUR",' +
  '"merchant_urls":{"confirmation":null,"place_order":null,"terms":"https://shop.example/terms","verification":null},' +
  '"shipping":{"type":null,"date":null,"method":{"id":null,"name":null},' +
  '"address":{"country":null,"city":null,"street":null,"postal_code":null,"latitude":null,"longitude":null},' +
  '"contact_phone":null,"pickup_point":{"name":null,"external_id":null,"comments":null,"service_hours":null}}}';

/** The same notification as a merchant's code reads it. */
const notification: PurchaseNotification = {
  id: 'ord_01HZX',
  order_id: 'A-1001',
  status: 'PAID',
  company: {
    name: 'Maiznīca SIA',
    address: 'Rīga',
    registration_number: '40000000001',
    vat_number: 'LV40000000001',
  },
  customer: { email: 'anna@example.lv', first_name: 'Anna', last_name: 'Bērziņa', phone_number: null },
  payment: {
    method: 'CARD',
    status: 'SUCCEEDED',
    accountStatementReference: 'SVC-A1001',
    card: { bin: '411111' },
    error: null,
  },
  amount: 145.45,
  tax_amount: 30.55,
  total_amount: 176,
  effective_amount: 176,
  items: [
    {
      amount: 72.73,
      label: 'Ķiploku maize',
      tax_amount: 30.55,
      total_amount: 176,
      tax_rate: 0.21,
      order_item_id: 'bread',
      quantity: 2,
      unit: 'PIECE',
      type: 'UNKNOWN',
    },
  ],
  currency: 'EUR',
  merchant_urls: {
    confirmation: null,
    place_order: null,
    terms: 'https://shop.example/terms',
    verification: null,
  },
  shipping: NO_SHIPPING,
};

/** The error a promise rejects with, asserted to be a SignatureVerificationError. */
async function refusal(promise: Promise<unknown>): Promise<SignatureVerificationError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(
      error instanceof SignatureVerificationError,
      `expected SignatureVerificationError, got ${String(error)}`,
    );
    return error;
  }
  assert.fail('expected the promise to reject');
}

before(async () => {
  [gateway, impostor] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
  gatewayCertificate = createSelfSignedCertificate({
    privateKeyPem: gateway.privateKeyPem,
    subject: 'svc-gateway',
  });
});

describe('constructPurchaseNotification with Node IncomingMessage over real HTTP', () => {
  let server: Awaited<ReturnType<typeof listen>>;
  /** What the route did with each request: the notification, or the error code. */
  let handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>;

  before(async () => {
    server = await listen((req, res) => {
      handle(req, res).catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
    handle = async (req, res) => {
      try {
        const received = await constructPurchaseNotification(req, gatewayCertificate, { maxBodyBytes: 4096 });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(received));
      } catch (error) {
        if (!(error instanceof SignatureVerificationError)) throw error;
        res.writeHead(error.code.startsWith('signature') ? 401 : 400).end(error.code);
      }
    };
  });
  after(() => server.close());

  const put = (payload: string, headers: Record<string, string>) =>
    fetch(`${server.url}/notifications`, { method: 'PUT', body: payload, headers });

  it('returns the notification when X-Svc-Signature signs the raw body', async () => {
    const response = await put(body, { 'X-Svc-Signature': independentSign(body, gateway.privateKeyPem) });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), notification);
  });

  it('refuses a missing signature with signature_missing', async () => {
    const response = await put(body, {});
    assert.equal(response.status, 401);
    assert.equal(await response.text(), 'signature_missing');
  });

  it('refuses a signature of another key or another body with signature_invalid', async () => {
    const wrongKey = await put(body, { 'X-Svc-Signature': signBody(body, impostor.privateKeyPem) });
    assert.equal(await wrongKey.text(), 'signature_invalid');
    const tampered = body.replace('"PAID"', '"REFUNDED"');
    const altered = await put(tampered, { 'X-Svc-Signature': signBody(body, gateway.privateKeyPem) });
    assert.equal(await altered.text(), 'signature_invalid');
  });

  it('does not read the body before the signature: unsigned garbage is signature_invalid, not malformed_body', async () => {
    const response = await put('{not json', { 'X-Svc-Signature': signBody(body, gateway.privateKeyPem) });
    assert.equal(await response.text(), 'signature_invalid');
  });

  it('refuses a body over the limit without buffering it', async () => {
    const large = JSON.stringify({ ...notification, padding: 'x'.repeat(10_000) });
    const response = await put(large, { 'X-Svc-Signature': signBody(large, gateway.privateKeyPem) });
    assert.equal(response.status, 400);
    assert.equal(await response.text(), 'body_too_large');
  });

  it('serves a request whose stream a framework consumed into req.body as raw bytes, and refuses a parsed one', async () => {
    const previous = handle;
    try {
      handle = async (req, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const raw = Buffer.concat(chunks);
        const parsed = req.url === '/parsed';
        Object.assign(req, { body: parsed ? JSON.parse(raw.toString()) : raw });
        await previous(req, res);
      };
      const signature = signBody(body, gateway.privateKeyPem);
      const raw = await put(body, { 'X-Svc-Signature': signature });
      assert.equal(raw.status, 200);
      const parsed = await fetch(`${server.url}/parsed`, {
        method: 'PUT',
        body,
        headers: { 'X-Svc-Signature': signature },
      });
      assert.equal(await parsed.text(), 'body_unavailable');
    } finally {
      handle = previous;
    }
  });
});

describe('constructPurchaseNotification with a fetch Request', () => {
  const request = (payload: string, headers: Record<string, string>) =>
    new Request('https://shop.example/notifications', { method: 'PUT', body: payload, headers });

  it('returns the notification for a good signature, with any accepted key form', async () => {
    const signature = independentSign(body, gateway.privateKeyPem);
    for (const key of [gateway.publicKeyPem, gatewayCertificate]) {
      const received = await constructPurchaseNotification(
        request(body, { 'x-svc-signature': signature }),
        key,
      );
      assert.equal(received.id, 'ord_01HZX');
      assert.equal(received.items[0]?.label, 'Ķiploku maize');
    }
  });

  it('gives signature_missing, signature_invalid and malformed_body', async () => {
    assert.equal(
      (await refusal(constructPurchaseNotification(request(body, {}), gateway.publicKeyPem))).code,
      'signature_missing',
    );
    const blank = request(body, { 'X-Svc-Signature': '  ' });
    assert.equal(
      (await refusal(constructPurchaseNotification(blank, gateway.publicKeyPem))).code,
      'signature_missing',
    );
    const wrong = request(body, { 'X-Svc-Signature': signBody(`${body}\n`, gateway.privateKeyPem) });
    assert.equal(
      (await refusal(constructPurchaseNotification(wrong, gateway.publicKeyPem))).code,
      'signature_invalid',
    );
    for (const payload of [
      'not json',
      '[1,2]',
      '{"status":"PAID"}',
      '{"id":"x"}',
      '{"id":7,"status":"PAID"}',
    ]) {
      const signed = request(payload, { 'X-Svc-Signature': signBody(payload, gateway.privateKeyPem) });
      const error = await refusal(constructPurchaseNotification(signed, gateway.publicKeyPem));
      assert.equal(error.code, 'malformed_body', payload);
    }
  });

  it('reads the gateway’s bytes as the numbers they write, and refuses money written as strings', async () => {
    assert.deepEqual(JSON.parse(body), notification, 'the fixture is one notification, twice');
    const read = await constructPurchaseNotification(
      request(body, { 'X-Svc-Signature': signBody(body, gateway.privateKeyPem) }),
      gateway.publicKeyPem,
    );
    assert.equal(read.total_amount, 176);
    assert.equal(read.items[0]!.quantity, 2);
    assert.equal(read.items[0]!.amount, 72.73);
    // The format before issue 10 wrote decimal strings; a string is another format, named with its member.
    const cases: Array<[string, string, RegExp]> = [
      ['"total_amount":176.00', '"total_amount":"176.00"', /total_amount is "176\.00", not a JSON number/],
      ['"quantity":2.000', '"quantity":"2"', /items\[0\]\.quantity is "2", not a JSON number/],
      ['"tax_rate":0.21', '"tax_rate":"21"', /items\[0\]\.tax_rate is "21", not a JSON number/],
      ['"effective_amount":176.00,', '', /effective_amount is missing/],
    ];
    for (const [from, to, message] of cases) {
      assert.ok(body.includes(from), from);
      const payload = body.replace(from, to);
      const signed = request(payload, { 'X-Svc-Signature': signBody(payload, gateway.privateKeyPem) });
      const error = await refusal(constructPurchaseNotification(signed, gateway.publicKeyPem));
      assert.equal(error.code, 'malformed_body', to);
      assert.match(error.message, message);
    }
  });

  it('refuses a request whose body was already read', async () => {
    const used = request(body, { 'X-Svc-Signature': signBody(body, gateway.privateKeyPem) });
    await used.text();
    const error = await refusal(constructPurchaseNotification(used, gateway.publicKeyPem));
    assert.equal(error.code, 'body_unavailable');
    assert.match(error.message, /rawBody/);
  });

  it('throws KeyFormatError for a bad key before reading anything', async () => {
    const untouched = request(body, { 'X-Svc-Signature': 'x' });
    await assert.rejects(constructPurchaseNotification(untouched, gateway.privateKeyPem), KeyFormatError);
    assert.equal(untouched.bodyUsed, false);
  });
});

describe('constructPurchaseNotification with { rawBody, headers }', () => {
  it('takes a string or bytes, with plain-object headers in any case or fetch Headers', async () => {
    const signature = signBody(body, gateway.privateKeyPem);
    const shapes = [
      { rawBody: body, headers: { 'X-SVC-SIGNATURE': signature } },
      { rawBody: new TextEncoder().encode(body), headers: { 'x-svc-signature': [signature] } },
      { rawBody: Buffer.from(body), headers: new Headers({ 'X-Svc-Signature': signature }) },
    ];
    for (const shape of shapes) {
      assert.deepEqual(await constructPurchaseNotification(shape, gateway.publicKeyPem), notification);
    }
  });

  it('refuses a signature header sent twice', async () => {
    const signature = signBody(body, gateway.privateKeyPem);
    const twice = { rawBody: body, headers: { 'x-svc-signature': [signature, signature] } };
    assert.equal(
      (await refusal(constructPurchaseNotification(twice, gateway.publicKeyPem))).code,
      'signature_invalid',
    );
  });

  it('refuses signature_missing when only another header is signed', async () => {
    const v1 = { rawBody: body, headers: { 'X-Signature': signBody(body, gateway.privateKeyPem) } };
    assert.equal(
      (await refusal(constructPurchaseNotification(v1, gateway.publicKeyPem))).code,
      'signature_missing',
    );
  });
});

describe('verifySignedRequest', () => {
  it('checks another header when told, for the v1 callbacks', async () => {
    const request = { rawBody: body, headers: { 'X-Signature': signBody(body, gateway.privateKeyPem) } };
    const raw = await verifySignedRequest(request, gateway.publicKeyPem, { header: 'X-Signature' });
    assert.equal(raw.toString('utf8'), body);
  });

  it('gives the exact bytes signed, not a re-encoding', async () => {
    const bytes = Buffer.from([0x7b, 0x7d, 0x0a, 0xff]);
    const request = {
      rawBody: bytes,
      headers: { 'X-Svc-Signature': signBody(bytes, gateway.privateKeyPem) },
    };
    assert.deepEqual(await verifySignedRequest(request, gateway.publicKeyPem), bytes);
  });
});
