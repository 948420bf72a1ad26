/**
 * Certificates expire: the sandbox refuses an X.509 certificate outside its validity dates at the time of use
 * (the sandbox clock), for order signatures and for merchant API v2 requests, each with its own code. A bare
 * public key has no dates and stays valid.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { OrderInput } from '../../../src/core/order.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { loadOrCreateServiceKeys } from '../../../src/sandbox/service-keys.js';
import {
  certificateInfo,
  createMerchantApiV2Client,
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  MerchantApiError,
  type MerchantKeyPair,
  signBody,
  signHttpRequest,
  signOrder,
  verifySignature,
} from '../../../src/server/index.js';
import { API_KEY, call, FakeMerchant, PAGE_ORIGIN, tempDir, testConfigFile, WIDGETS } from '../support.js';

const DAY = 86_400_000;
/**
 * The sandbox clock of this file: stopped at the start, so each certificate's dates sit clear of it; near the
 * real time, which the merchant API v2 client signs its requests' Date with.
 */
const CLOCK_START = new Date(Math.floor(Date.now() / 1000) * 1000);
/** An X.509 time as the messages write it. */
const text = (date: Date) => date.toISOString().replace('.000Z', 'Z');

describe('sandbox: expired and not yet valid certificates', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let clock = CLOCK_START;
  let keys: Record<'expired' | 'future' | 'current' | 'bare', MerchantKeyPair>;
  const certificates: Record<string, string> = {};
  let counter = 0;
  let dataDir: string;
  /** An order taken under the current certificate, for the merchant API v2 to read. */
  let orderId: string;

  before(async () => {
    const [expired, future, current, bare] = await Promise.all(
      Array.from({ length: 4 }, () => generateMerchantKeyPair()),
    );
    keys = { expired: expired!, future: future!, current: current!, bare: bare! };
    // Two years, ended a day before the clock; two years from tomorrow; two years around the clock.
    certificates['shop-2029'] = createSelfSignedCertificate({
      privateKeyPem: keys.expired.privateKeyPem,
      subject: 'shop-2029',
      notBefore: new Date(CLOCK_START.getTime() - 731 * DAY),
      validDays: 730,
    });
    certificates['shop-2031b'] = createSelfSignedCertificate({
      privateKeyPem: keys.future.privateKeyPem,
      subject: 'shop-2031b',
      notBefore: new Date(CLOCK_START.getTime() + DAY),
      validDays: 730,
    });
    certificates['shop-2031'] = createSelfSignedCertificate({
      privateKeyPem: keys.current.privateKeyPem,
      subject: 'shop-2031',
      notBefore: new Date(CLOCK_START.getTime() - 30 * DAY),
      validDays: 730,
    });
    merchant = await FakeMerchant.start();
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.certificates = [
      ...Object.entries(certificates).map(([name, pem]) => ({ name, pem })),
      { name: 'bare', pem: keys.bare.publicKeyPem },
    ];
    dataDir = await tempDir();
    sandbox = await startSandbox({ port: 0, config: parseConfig(file), dataDir, now: () => clock });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const order = (): OrderInput => ({
    widgetId: WIDGETS.checkout,
    orderId: `CERT-${++counter}`,
    items: [{ amount: '9.90', label: 'Tea' }],
  });

  /** The order as a page with `certificate-name` sends it: the name is part of what is signed. */
  const create = (input: OrderInput, certificateName: string | undefined, privateKeyPem: string) => {
    const named = certificateName === undefined ? input : { ...input, certificateName };
    return call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: named,
      signature: signOrder(named, privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });
  };

  const dates = (name: string) => {
    const info = certificateInfo(certificates[name]!);
    return { from: text(info.notBefore), to: text(info.notAfter) };
  };

  test('an order signed under an expired certificate is refused: 401 certificate_expired, with its dates', async () => {
    const answer = await create(order(), 'shop-2029', keys.expired.privateKeyPem);
    assert.equal(answer.status, 401);
    assert.equal(answer.body['error'].code, 'certificate_expired');
    assert.equal(answer.body['error'].field, 'certificateName');
    const { from, to } = dates('shop-2029');
    assert.equal(
      answer.body['error'].message,
      `The certificate "shop-2029" expired on ${to} (valid from ${from} to ${to}, checked at ${text(CLOCK_START)}); use the current certificate`,
    );
  });

  test('an order signed under a certificate not yet valid is refused: 401 certificate_not_yet_valid', async () => {
    const answer = await create(order(), 'shop-2031b', keys.future.privateKeyPem);
    assert.equal(answer.status, 401);
    assert.equal(answer.body['error'].code, 'certificate_not_yet_valid');
    const { from, to } = dates('shop-2031b');
    assert.match(
      answer.body['error'].message,
      new RegExp(`^The certificate "shop-2031b" is not valid until ${from} `),
    );
    assert.ok(answer.body['error'].message.includes(`valid from ${from} to ${to}`));
  });

  test('a current certificate and a bare public key still verify orders', async () => {
    const taken = await create(order(), 'shop-2031', keys.current.privateKeyPem);
    assert.equal(taken.status, 201);
    orderId = taken.body['id'];
    assert.equal((await create(order(), 'bare', keys.bare.privateKeyPem)).status, 201);
  });

  test('without certificate-name, only a certificate within its validity verifies the order', async () => {
    // Any active certificate may verify an order that names none; an expired or not yet valid one is not.
    assert.equal((await create(order(), undefined, keys.current.privateKeyPem)).status, 201);
    assert.equal((await create(order(), undefined, keys.bare.privateKeyPem)).status, 201);
    for (const outdated of [keys.expired, keys.future]) {
      const answer = await create(order(), undefined, outdated.privateKeyPem);
      assert.equal(answer.status, 401);
      assert.equal(answer.body['error'].code, 'signature_invalid');
    }
  });

  test('a forged order under an expired certificate gets the same answer: the dates are checked first', async () => {
    const answer = await create(order(), 'shop-2029', keys.current.privateKeyPem);
    assert.equal(answer.body['error'].code, 'certificate_expired');
  });

  const client = (certificateName: string, privateKeyPem: string) =>
    createMerchantApiV2Client({
      baseUrl: sandbox.url,
      merchantId: 'm1',
      apiKey: API_KEY,
      certificateName,
      privateKeyPem,
    });

  /** A merchant API v2 read signed at the sandbox clock, which the client cannot do (it signs at real time). */
  const readAtClock = async (orderId: string, certificateName: string, privateKeyPem: string) => {
    const path = `/v2/merchants/m1/orders/${orderId}`;
    const headers = signHttpRequest(
      { method: 'GET', path },
      { keyId: certificateName, privateKeyPem },
      { now: clock },
    );
    const response = await fetch(`${sandbox.url}${path}`, {
      headers: { ...headers, 'X-Svc-Api-Key': API_KEY },
    });
    return { status: response.status, body: (await response.json()) as { error: { code: string } } };
  };

  const refusedWith = (code: string, name: string) => (error: unknown) => {
    assert.ok(error instanceof MerchantApiError, String(error));
    assert.equal(error.status, 401);
    assert.equal(error.code, 'unauthorized');
    const body = error.body as { error: { code: string; message: string } };
    assert.equal(body.error.code, code);
    const { from, to } = dates(name);
    assert.ok(body.error.message.includes(`"${name}"`), body.error.message);
    assert.ok(body.error.message.includes(`valid from ${from} to ${to}`), body.error.message);
    return true;
  };

  test('merchant API v2 refuses requests signed under an expired or not yet valid certificate', async () => {
    const id = orderId;
    await assert.rejects(
      client('shop-2029', keys.expired.privateKeyPem).getOrder(id),
      refusedWith('certificate_expired', 'shop-2029'),
    );
    await assert.rejects(
      client('shop-2031b', keys.future.privateKeyPem).getOrder(id),
      refusedWith('certificate_not_yet_valid', 'shop-2031b'),
    );
    await assert.rejects(
      client('shop-2029', keys.expired.privateKeyPem).refund(id, { amount: '1.00', reason: 'OTHER_REFUND' }),
      refusedWith('certificate_expired', 'shop-2029'),
    );
    assert.equal((await client('shop-2031', keys.current.privateKeyPem).getOrder(id)).id, id);
    assert.equal((await client('bare', keys.bare.privateKeyPem).getOrder(id)).id, id);
  });

  test('the sandbox clock is the time of use: moved past the end, the current certificate expires too', async () => {
    const input = order();
    clock = new Date(CLOCK_START.getTime() + 731 * DAY);
    try {
      const answer = await create(input, 'shop-2031', keys.current.privateKeyPem);
      assert.equal(answer.body['error'].code, 'certificate_expired');
      const read = await readAtClock(orderId, 'shop-2031', keys.current.privateKeyPem);
      assert.equal(read.status, 401);
      assert.equal(read.body.error.code, 'certificate_expired');
      // A bare public key has no dates.
      assert.equal((await create(order(), 'bare', keys.bare.privateKeyPem)).status, 201);
      assert.equal((await readAtClock(orderId, 'bare', keys.bare.privateKeyPem)).status, 200);
    } finally {
      clock = CLOCK_START;
    }
  });
});

describe("sandbox: the gateway's own certificate", () => {
  test('an expired one in the data dir is issued anew for the same key, which merchants verify by today', async () => {
    const dataDir = await tempDir();
    const first = await loadOrCreateServiceKeys(dataDir);
    const expired = createSelfSignedCertificate({
      privateKeyPem: first.privateKeyPem,
      subject: 'svc-sandbox gateway',
      notBefore: new Date(Date.now() - 800 * DAY),
      validDays: 730,
    });
    mkdirSync(join(dataDir, 'service'), { recursive: true });
    writeFileSync(join(dataDir, 'service', 'certificate.pem'), expired);

    const second = await loadOrCreateServiceKeys(dataDir);
    assert.equal(second.privateKeyPem, first.privateKeyPem);
    assert.notEqual(second.certificatePem, expired);
    assert.equal(readFileSync(join(dataDir, 'service', 'certificate.pem'), 'utf8'), second.certificatePem);
    const info = certificateInfo(second.certificatePem);
    assert.ok(info.notBefore.getTime() <= Date.now() && Date.now() <= info.notAfter.getTime());
    // Still the same key: a signature made with it verifies under the new certificate.
    assert.ok(verifySignature('x', signBody('x', first.privateKeyPem), second.certificatePem));
    // A current certificate is kept as it is.
    assert.equal((await loadOrCreateServiceKeys(dataDir)).certificatePem, second.certificatePem);
    await rm(dataDir, { recursive: true, force: true });
  });
});
