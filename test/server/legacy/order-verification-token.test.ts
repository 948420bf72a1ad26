/** `verifyOrderVerificationToken` and `signOrderVerificationToken`, checked against jsrsasign. */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import jsrsasign from 'jsrsasign';
import {
  generateMerchantKeyPair,
  type MerchantKeyPair,
  SignatureVerificationError,
  signOrderVerificationToken,
  verifyOrderVerificationToken,
} from '../../../src/server/index.js';
import { independentToken } from '../support.js';

let gateway: MerchantKeyPair;
let impostor: MerchantKeyPair;

before(async () => {
  [gateway, impostor] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
});

describe('verifyOrderVerificationToken', () => {
  const now = Math.floor(Date.now() / 1000);

  it('reads a token signed by jsrsasign with RS256', () => {
    const token = independentToken(
      { alg: 'RS256' },
      { orderId: 'ord_1', externalOrderId: 'A-1', iat: now },
      gateway.privateKeyPem,
    );
    assert.deepEqual(verifyOrderVerificationToken(token, gateway.publicKeyPem), {
      orderId: 'ord_1',
      externalOrderId: 'A-1',
      iat: now,
    });
  });

  it('makes tokens of the real shape, {kid, alg} over {orderId, externalOrderId} without iat, that jsrsasign verifies', () => {
    const token = signOrderVerificationToken(
      { orderId: 'ord_2', externalOrderId: null },
      gateway.privateKeyPem,
      { kid: 'gateway-2025' },
    );
    assert.ok(jsrsasign.KJUR.jws.JWS.verifyJWT(token, gateway.publicKeyPem, { alg: ['RS256'] }));
    const [header, payload] = token.split('.').map((part) => Buffer.from(part, 'base64url').toString('utf8'));
    assert.equal(header, '{"kid":"gateway-2025","alg":"RS256"}');
    assert.equal(payload, '{"orderId":"ord_2","externalOrderId":null}');
    assert.deepEqual(verifyOrderVerificationToken(token, gateway.publicKeyPem), {
      orderId: 'ord_2',
      externalOrderId: null,
    });
    const dated = signOrderVerificationToken(
      { orderId: 'ord_3', externalOrderId: 'A-3', iat: now },
      gateway.privateKeyPem,
    );
    assert.equal(Buffer.from(dated.split('.')[0]!, 'base64url').toString('utf8'), '{"alg":"RS256"}');
    assert.equal(verifyOrderVerificationToken(dated, gateway.publicKeyPem).iat, now);
  });

  it('reads the real token, made by jsrsasign alone, without iat; checks iat and exp only when present', () => {
    const real = independentToken(
      { kid: 'svc-gateway', alg: 'RS256' },
      { orderId: 'ord_4', externalOrderId: 'A-4' },
      gateway.privateKeyPem,
    );
    assert.deepEqual(verifyOrderVerificationToken(real, gateway.publicKeyPem), {
      orderId: 'ord_4',
      externalOrderId: 'A-4',
    });
    const valid = independentToken(
      { kid: 'svc-gateway', alg: 'RS256' },
      { orderId: 'ord_5', externalOrderId: null, iat: now - 60, exp: now + 60 },
      gateway.privateKeyPem,
    );
    assert.equal(verifyOrderVerificationToken(valid, gateway.publicKeyPem).iat, now - 60);
    // A time claim jsrsasign would skip, being no number, is refused rather than ignored.
    for (const claim of ['iat', 'exp', 'nbf']) {
      const odd = independentToken(
        { alg: 'RS256' },
        { orderId: 'ord_6', externalOrderId: null, [claim]: String(now) },
        gateway.privateKeyPem,
      );
      assert.throws(
        () => verifyOrderVerificationToken(odd, gateway.publicKeyPem),
        (error: unknown) =>
          error instanceof SignatureVerificationError &&
          error.code === 'malformed_body' &&
          error.message.includes(claim),
        claim,
      );
    }
  });

  it('refuses other keys, other algorithms, expired and garbled tokens', () => {
    const claims = { orderId: 'ord_1', externalOrderId: null, iat: now };
    const tokens = {
      otherKey: independentToken({ alg: 'RS256' }, claims, impostor.privateKeyPem),
      rs512: independentToken({ alg: 'RS512' }, claims, gateway.privateKeyPem),
      // The classic confusion: HMAC keyed with the public key text, which the verifier knows.
      hs256: independentToken({ alg: 'HS256' }, claims, { utf8: gateway.publicKeyPem }),
      none: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`,
      expired: independentToken(
        { alg: 'RS256' },
        { ...claims, iat: now - 7200, exp: now - 3600 },
        gateway.privateKeyPem,
      ),
      future: independentToken({ alg: 'RS256' }, { ...claims, iat: now + 3600 }, gateway.privateKeyPem),
      garbled: 'a.b.c',
      empty: '',
    };
    for (const [name, token] of Object.entries(tokens)) {
      assert.throws(
        () => verifyOrderVerificationToken(token, gateway.publicKeyPem),
        (error: unknown) => error instanceof SignatureVerificationError && error.code === 'signature_invalid',
        name,
      );
    }
  });

  it('refuses a valid token without orderId as malformed_body', () => {
    const token = independentToken(
      { alg: 'RS256' },
      { externalOrderId: 'A-1', iat: now },
      gateway.privateKeyPem,
    );
    assert.throws(
      () => verifyOrderVerificationToken(token, gateway.publicKeyPem),
      (error: unknown) => error instanceof SignatureVerificationError && error.code === 'malformed_body',
    );
  });
});
