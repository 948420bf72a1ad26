/**
 * The toolkit checks an X.509 certificate's validity dates wherever it verifies with one. A merchant verifying
 * the gateway's signatures with an expired gateway certificate gets a typed error (a set-up to fix), not a
 * quiet `false` (which reads as a forgery); a signer's expired certificate fails verifyHttpSignature with its
 * own code. A bare public key has no dates.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  CertificateValidityError,
  certificateInfo,
  checkCertificateValidity,
  constructPurchaseNotification,
  createSelfSignedCertificate,
  createShippingCostHandler,
  generateMerchantKeyPair,
  KeyFormatError,
  type MerchantKeyPair,
  signHttpRequest,
  signOrder,
  signOrderVerificationToken,
  verifyHttpSignature,
  verifyOrderSignature,
  verifyOrderVerificationToken,
  verifySignature,
} from '../../src/server/index.js';
import { independentSign } from './support.js';

const DAY = 86_400_000;
const NOT_BEFORE = new Date('2024-03-01T00:00:00Z');
const NOT_AFTER = new Date('2026-03-01T00:00:00Z');

let pair: MerchantKeyPair;
/** Valid from NOT_BEFORE through NOT_AFTER. */
let certificate: string;
/** The gateway's certificate as a merchant kept it: expired yesterday by the real clock. */
let expiredGateway: string;

before(async () => {
  pair = await generateMerchantKeyPair();
  certificate = createSelfSignedCertificate({
    privateKeyPem: pair.privateKeyPem,
    subject: 'shop-2024',
    notBefore: NOT_BEFORE,
    validDays: (NOT_AFTER.getTime() - NOT_BEFORE.getTime()) / DAY,
  });
  expiredGateway = createSelfSignedCertificate({
    privateKeyPem: pair.privateKeyPem,
    subject: 'svc gateway',
    notBefore: new Date(Date.now() - 731 * DAY),
    validDays: 730,
  });
});

function validityError(run: () => unknown): CertificateValidityError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof CertificateValidityError, `expected a CertificateValidityError, got ${error}`);
    return error;
  }
  assert.fail('the certificate was accepted');
}

describe('checkCertificateValidity', () => {
  it('takes notBefore through notAfter, both included, and nothing outside', () => {
    assert.deepEqual(
      [certificateInfo(certificate).notBefore, certificateInfo(certificate).notAfter],
      [NOT_BEFORE, NOT_AFTER],
    );
    checkCertificateValidity(certificate, { now: NOT_BEFORE });
    checkCertificateValidity(certificate, { now: NOT_AFTER });
    const early = validityError(() =>
      checkCertificateValidity(certificate, { now: new Date(NOT_BEFORE.getTime() - 1) }),
    );
    assert.equal(early.code, 'certificate_not_yet_valid');
    const late = validityError(() =>
      checkCertificateValidity(certificate, { now: new Date(NOT_AFTER.getTime() + 1) }),
    );
    assert.equal(late.code, 'certificate_expired');
  });

  it('names the certificate and its dates, by its common name or the name given', () => {
    const now = new Date('2026-07-01T08:30:00Z');
    const error = validityError(() => checkCertificateValidity(certificate, { now }));
    assert.equal(
      error.message,
      'The certificate "shop-2024" expired on 2026-03-01T00:00:00Z (valid from 2024-03-01T00:00:00Z to ' +
        '2026-03-01T00:00:00Z, checked at 2026-07-01T08:30:00Z); use the current certificate',
    );
    assert.deepEqual(
      [error.certificateName, error.notBefore, error.notAfter, error.checkedAt],
      ['shop-2024', NOT_BEFORE, NOT_AFTER, now],
    );
    const named = validityError(() =>
      checkCertificateValidity(certificate, { now: new Date('2020-01-01T00:00:00Z'), name: 'main' }),
    );
    assert.match(named.message, /^The certificate "main" is not valid until 2024-03-01T00:00:00Z \(/);
  });

  it('passes a bare public key at any time, and refuses what is no key at all', () => {
    checkCertificateValidity(pair.publicKeyPem, { now: new Date('1970-01-01T00:00:00Z') });
    checkCertificateValidity(pair.publicKeyPem, { now: new Date('2999-01-01T00:00:00Z') });
    assert.throws(() => checkCertificateValidity('not a pem'), KeyFormatError);
    assert.throws(() => checkCertificateValidity(certificate, { now: new Date('soon') }), TypeError);
  });
});

describe('verification helpers given an X.509 certificate', () => {
  const body = '{"id":"ord_1","status":"PAID"}';

  it('verifySignature throws CertificateValidityError outside the dates, and verifies inside them', () => {
    const signature = independentSign(body, pair.privateKeyPem);
    assert.equal(
      verifySignature(body, signature, certificate, { now: new Date('2025-01-01T00:00:00Z') }),
      true,
    );
    const error = validityError(() => verifySignature(body, signature, expiredGateway));
    assert.equal(error.code, 'certificate_expired');
    assert.equal(error.certificateName, 'svc gateway');
    // A wrong signature under an expired certificate is still the certificate's problem first.
    validityError(() => verifySignature(body, 'AAAA', expiredGateway));
    assert.equal(verifySignature(body, signature, pair.publicKeyPem), true);
  });

  it('verifyOrderSignature checks at options.now', () => {
    const order = { widgetId: 'w-1', orderId: 'A-1', items: [{ amount: '1.00', label: 'Tea' }] };
    const signature = signOrder(order, pair.privateKeyPem);
    assert.equal(
      verifyOrderSignature(order, signature, certificate, { now: new Date('2025-01-01T00:00:00Z') }),
      true,
    );
    const error = validityError(() =>
      verifyOrderSignature(order, signature, certificate, { now: new Date('2027-01-01T00:00:00Z') }),
    );
    assert.equal(error.code, 'certificate_expired');
  });

  it("verifyHttpSignature refuses a signer's certificate outside its dates with its own codes", () => {
    const lookup = (keyId: string) => (keyId === 'shop-2024' ? certificate : undefined);
    const request = (now: Date) => ({
      method: 'GET',
      path: '/v2/merchants/m-1/orders/o-1',
      headers: signHttpRequest(
        { method: 'GET', path: '/v2/merchants/m-1/orders/o-1' },
        { keyId: 'shop-2024', privateKeyPem: pair.privateKeyPem },
        { now },
      ) as unknown as Record<string, string>,
    });
    const inside = new Date('2025-06-01T00:00:00Z');
    assert.equal(verifyHttpSignature(request(inside), lookup, { now: inside }).ok, true);
    for (const [now, code] of [
      [new Date('2026-03-01T00:00:01Z'), 'certificate_expired'],
      [new Date('2024-02-29T23:59:59Z'), 'certificate_not_yet_valid'],
    ] as const) {
      const result = verifyHttpSignature(request(now), lookup, { now });
      assert.equal(result.ok, false);
      if (result.ok) continue;
      assert.equal(result.code, code);
      assert.match(
        result.message,
        /^The certificate "shop-2024" .*valid from 2024-03-01T00:00:00Z to 2026-03-01T00:00:00Z/,
      );
    }
  });

  it('verifyOrderVerificationToken throws CertificateValidityError for an expired gateway certificate', () => {
    const token = signOrderVerificationToken({ orderId: 'o-1', externalOrderId: null }, pair.privateKeyPem);
    assert.equal(verifyOrderVerificationToken(token, pair.publicKeyPem).orderId, 'o-1');
    assert.equal(
      validityError(() => verifyOrderVerificationToken(token, expiredGateway)).code,
      'certificate_expired',
    );
  });

  it('a notification and a callback handler fail loudly with the typed error, never as a forged request', async () => {
    const signature = independentSign(body, pair.privateKeyPem);
    await assert.rejects(
      constructPurchaseNotification(
        { rawBody: body, headers: { 'X-Svc-Signature': signature } },
        expiredGateway,
      ),
      (error: unknown) => error instanceof CertificateValidityError && error.code === 'certificate_expired',
    );
    const handler = createShippingCostHandler({
      servicePublicKeyPem: expiredGateway,
      quote: async () => ({ amount: '1.00' }),
      onError: () => {},
    });
    const request = new Request('http://shop.example/shipping-cost', {
      method: 'POST',
      body,
      headers: { 'X-Svc-Signature': signature, 'content-type': 'application/json' },
    });
    // It rejects (toNodeHandler then logs it and answers 500), so the gateway retries until the key is fixed.
    await assert.rejects(handler(request), CertificateValidityError);
  });
});
