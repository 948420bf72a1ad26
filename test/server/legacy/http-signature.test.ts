import assert from 'node:assert/strict';
import { createHash, createPrivateKey } from 'node:crypto';
import { before, describe, it } from 'node:test';
import {
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  type HttpRequestToVerify,
  type HttpSignatureAlgorithmName,
  type HttpSignatureFailureCode,
  KeyFormatError,
  type MerchantKeyPair,
  type SignedHttpHeaders,
  signHttpRequest,
  verifyHttpSignature,
} from '../../../src/server/index.js';
import { independentSign, independentVerify } from '../support.js';

let merchant: MerchantKeyPair;
let impostor: MerchantKeyPair;
let merchantCertificate: string;

before(async () => {
  [merchant, impostor] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
  // Valid at `now` below: an X.509 certificate is refused outside its dates.
  merchantCertificate = createSelfSignedCertificate({
    privateKeyPem: merchant.privateKeyPem,
    subject: 'shop-2025',
    notBefore: new Date('2025-01-01T00:00:00Z'),
  });
});

const now = new Date('2025-03-14T09:26:53Z');
const path = '/v2/merchants/m-1/orders/ord_1/refunds?dryRun=false';
const body = '{"refundRequest":{"amount":12.30,"reason":"OTHER_REFUND","note":"Atgriezts"}}';

const lookup = (keyId: string) => (keyId === 'shop-2025' ? merchantCertificate : undefined);

function asReceived(
  method: string,
  headers: SignedHttpHeaders | Record<string, string>,
  rawBody?: string,
): HttpRequestToVerify {
  return {
    method,
    path,
    headers: { ...headers, Host: 'api.example' },
    ...(rawBody !== undefined && { rawBody }),
  };
}

function signedPost(
  algorithm: HttpSignatureAlgorithmName = 'rsa-sha256',
  privateKeyPem = merchant.privateKeyPem,
) {
  return signHttpRequest(
    { method: 'POST', path, body },
    { keyId: 'shop-2025', privateKeyPem, algorithm },
    { now },
  );
}

function assertFailure(result: ReturnType<typeof verifyHttpSignature>, code: HttpSignatureFailureCode): void {
  assert.equal(result.ok, false, `expected ${code}, got ok`);
  if (!result.ok) assert.equal(result.code, code, result.message);
}

const algorithms = [
  { name: 'rsa-sha256', wire: 'rsa-sha256', digest: 'SHA-256', hash: 'sha256', jsrsasign: 'SHA256withRSA' },
  { name: 'rsa-sha384', wire: 'rsa-sha384', digest: 'SHA-384', hash: 'sha384', jsrsasign: 'SHA384withRSA' },
  { name: 'rsa-sh512', wire: 'rsa-sh512', digest: 'SHA-512', hash: 'sha512', jsrsasign: 'SHA512withRSA' },
  { name: 'rsa-sha512', wire: 'rsa-sh512', digest: 'SHA-512', hash: 'sha512', jsrsasign: 'SHA512withRSA' },
] as const;

describe('signHttpRequest', () => {
  it('sends Date as IMF-fixdate and the Authorization header in the document form', () => {
    const headers = signHttpRequest(
      { method: 'GET', path: '/v2/merchants/m-1/orders/ord_1' },
      {
        keyId: 'shop-2025',
        privateKeyPem: merchant.privateKeyPem,
      },
      { now },
    );
    assert.equal(headers.Date, 'Fri, 14 Mar 2025 09:26:53 GMT');
    assert.equal(headers.Digest, undefined);
    assert.equal(headers['Content-Type'], undefined);
    assert.match(
      headers.Authorization,
      /^Signature keyId="shop-2025",algorithm="rsa-sha256",headers="\(request-target\) date",signature="[A-Za-z0-9+/]+={0,2}"$/,
    );
  });

  for (const algorithm of algorithms) {
    it(`${algorithm.name}: signs (request-target) date digest content-type so that jsrsasign verifies it`, () => {
      const headers = signedPost(algorithm.name);
      const expectedDigest = createHash(algorithm.hash).update(body).digest('base64');
      assert.equal(headers.Digest, `${algorithm.digest}=${expectedDigest}`);
      assert.equal(headers['Content-Type'], 'application/json');
      const params = Object.fromEntries(
        [...headers.Authorization.matchAll(/(\w+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
      );
      assert.equal(params['algorithm'], algorithm.wire);
      assert.equal(params['headers'], '(request-target) date digest content-type');
      const signingString = [
        `(request-target): post ${path}`,
        `date: ${headers.Date}`,
        `digest: ${headers.Digest}`,
        'content-type: application/json',
      ].join('\n');
      assert.ok(
        independentVerify(signingString, params['signature']!, merchant.publicKeyPem, algorithm.jsrsasign),
      );
    });

    it(`${algorithm.name}: a request signed by the client passes verifyHttpSignature`, () => {
      const headers = signedPost(algorithm.name);
      const result = verifyHttpSignature(asReceived('POST', headers, body), lookup, { now });
      const signature = /signature="([^"]+)"/.exec(headers.Authorization)![1]!;
      assert.deepEqual(result, { ok: true, keyId: 'shop-2025', algorithm: algorithm.wire, signature });
    });
  }

  it('refuses an unknown algorithm and a key id that cannot be quoted', () => {
    const key = { keyId: 'shop-2025', privateKeyPem: merchant.privateKeyPem };
    assert.throws(
      () => signHttpRequest({ method: 'GET', path }, { ...key, algorithm: 'hmac-sha256' as 'rsa-sha256' }),
      /rsa-sh512/,
    );
    assert.throws(() => signHttpRequest({ method: 'GET', path }, { ...key, keyId: 'a"b' }), /keyId/);
    assert.throws(
      () => signHttpRequest({ method: 'GET', path }, { ...key, privateKeyPem: merchant.publicKeyPem }),
      KeyFormatError,
    );
  });
});

describe('verifyHttpSignature', () => {
  it('accepts a GET without body signed over (request-target) date, with PKCS#1 signing key', () => {
    const pkcs1 = createPrivateKey(merchant.privateKeyPem)
      .export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const headers = signHttpRequest(
      { method: 'GET', path },
      { keyId: 'shop-2025', privateKeyPem: pkcs1 },
      { now },
    );
    assert.equal(verifyHttpSignature(asReceived('GET', headers), lookup, { now }).ok, true);
  });

  it('accepts a signature built by hand and signed by jsrsasign, with header names in any case', () => {
    const date = now.toUTCString();
    const digest = `SHA-512=${createHash('sha512').update(body).digest('base64')}`;
    const signingString = `(request-target): post ${path}\ndate: ${date}\ndigest: ${digest}\ncontent-type: application/json`;
    const signature = independentSign(signingString, merchant.privateKeyPem, 'SHA512withRSA');
    const headers = {
      authorization: `Signature keyId="shop-2025", algorithm="rsa-sh512", headers="(request-target) date digest content-type", signature="${signature}"`,
      DATE: date,
      digest,
      'Content-Type': 'application/json',
    };
    assert.deepEqual(verifyHttpSignature(asReceived('POST', headers, body), lookup, { now }), {
      ok: true,
      keyId: 'shop-2025',
      algorithm: 'rsa-sh512',
      signature,
    });
  });

  it('gives missing_authorization and malformed_authorization', () => {
    const headers = signedPost();
    const { Authorization: _, ...unsigned } = headers;
    assertFailure(
      verifyHttpSignature(asReceived('POST', unsigned, body), lookup, { now }),
      'missing_authorization',
    );
    for (const authorization of [
      'Bearer abc',
      'Signature keyId=shop-2025,algorithm="rsa-sha256"',
      'Signature keyId="shop-2025",algorithm="rsa-sha256",headers="date"',
      `${headers.Authorization},keyId="again"`,
    ]) {
      const result = verifyHttpSignature(
        asReceived('POST', { ...headers, Authorization: authorization }, body),
        lookup,
        { now },
      );
      assertFailure(result, 'malformed_authorization');
    }
  });

  it('gives unsupported_algorithm for an algorithm outside the interface', () => {
    const headers = signedPost();
    const authorization = headers.Authorization.replace('algorithm="rsa-sha256"', 'algorithm="hmac-sha256"');
    const result = verifyHttpSignature(
      asReceived('POST', { ...headers, Authorization: authorization }, body),
      lookup,
      { now },
    );
    assertFailure(result, 'unsupported_algorithm');
  });

  it('gives unknown_key for a keyId without certificate', () => {
    const headers = signHttpRequest(
      { method: 'POST', path, body },
      {
        keyId: 'retired-2019',
        privateKeyPem: merchant.privateKeyPem,
      },
      { now },
    );
    assertFailure(verifyHttpSignature(asReceived('POST', headers, body), lookup, { now }), 'unknown_key');
  });

  it('gives missing_signed_header when a required header is not signed or not sent', () => {
    const headers = signedPost();
    const dateOnly = headers.Authorization.replace('(request-target) date digest content-type', 'date');
    assertFailure(
      verifyHttpSignature(asReceived('POST', { ...headers, Authorization: dateOnly }, body), lookup, { now }),
      'missing_signed_header',
    );
    // A body needs digest and content-type signed, even when the signature itself covers less.
    const get = signHttpRequest(
      { method: 'POST', path },
      { keyId: 'shop-2025', privateKeyPem: merchant.privateKeyPem },
      { now },
    );
    assertFailure(
      verifyHttpSignature(asReceived('POST', get, body), lookup, { now }),
      'missing_signed_header',
    );
    const { Digest: _, ...withoutDigest } = headers;
    assertFailure(
      verifyHttpSignature(asReceived('POST', withoutDigest, body), lookup, { now }),
      'missing_signed_header',
    );
  });

  it('gives digest_mismatch for a changed body', () => {
    const changed = body.replace('12.30', '99.30');
    assertFailure(
      verifyHttpSignature(asReceived('POST', signedPost(), changed), lookup, { now }),
      'digest_mismatch',
    );
    const unknownDigest = { ...signedPost(), Digest: 'MD5=abc' };
    assertFailure(
      verifyHttpSignature(asReceived('POST', unknownDigest, body), lookup, { now }),
      'digest_mismatch',
    );
  });

  it('gives date_skew for an old or future Date, within a configurable window', () => {
    const headers = signedPost();
    const later = new Date(now.getTime() + 301_000);
    assertFailure(
      verifyHttpSignature(asReceived('POST', headers, body), lookup, { now: later }),
      'date_skew',
    );
    const earlier = new Date(now.getTime() - 301_000);
    assertFailure(
      verifyHttpSignature(asReceived('POST', headers, body), lookup, { now: earlier }),
      'date_skew',
    );
    const result = verifyHttpSignature(asReceived('POST', headers, body), lookup, {
      now: later,
      maxSkewSeconds: 600,
    });
    assert.equal(result.ok, true);
    assertFailure(verifyHttpSignature(asReceived('POST', headers, body), lookup), 'date_skew');
  });

  it('gives signature_invalid for another key, another path, another method or a changed signed header', () => {
    assertFailure(
      verifyHttpSignature(
        asReceived('POST', signedPost('rsa-sha256', impostor.privateKeyPem), body),
        lookup,
        { now },
      ),
      'signature_invalid',
    );
    const headers = signedPost();
    assertFailure(
      verifyHttpSignature(
        { ...asReceived('POST', headers, body), path: path.replace('ord_1', 'ord_2') },
        lookup,
        { now },
      ),
      'signature_invalid',
    );
    assertFailure(
      verifyHttpSignature(asReceived('PUT', headers, body), lookup, { now }),
      'signature_invalid',
    );
    const otherType = { ...headers, 'Content-Type': 'text/plain' };
    assertFailure(
      verifyHttpSignature(asReceived('POST', otherType, body), lookup, { now }),
      'signature_invalid',
    );
    const garbled = {
      ...headers,
      Authorization: headers.Authorization.replace(/signature="[^"]+"/, 'signature="!!"'),
    };
    assertFailure(
      verifyHttpSignature(asReceived('POST', garbled, body), lookup, { now }),
      'signature_invalid',
    );
  });

  it('signs and verifies a sha384 request whose signature claims sha256 as invalid', () => {
    const headers = signedPost('rsa-sha384');
    const claimed = { ...headers, Authorization: headers.Authorization.replace('rsa-sha384', 'rsa-sha256') };
    assertFailure(
      verifyHttpSignature(asReceived('POST', claimed, body), lookup, { now }),
      'signature_invalid',
    );
  });

  it('throws KeyFormatError when the looked-up key is not usable', () => {
    assert.throws(
      () => verifyHttpSignature(asReceived('POST', signedPost(), body), () => 'nope', { now }),
      KeyFormatError,
    );
  });
});
