import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { before, describe, it } from 'node:test';
import jsrsasign from 'jsrsasign';
import {
  certificateInfo,
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  importPrivateKey,
  importPublicKey,
  KeyFormatError,
  type MerchantKeyPair,
} from '../../src/server/index.js';

let pair: MerchantKeyPair;
let other: MerchantKeyPair;
let spki: string;

before(async () => {
  [pair, other] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
  spki = createPublicKey(pair.publicKeyPem).export({ type: 'spki', format: 'pem' }).toString();
});

function spkiOf(key: ReturnType<typeof importPublicKey>): string {
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

function assertKeyFormatError(action: () => unknown, code: KeyFormatError['code'], message?: RegExp): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof KeyFormatError, `expected KeyFormatError, got ${String(error)}`);
    assert.equal(error.code, code);
    if (message) assert.match(error.message, message);
    return true;
  });
}

describe('generateMerchantKeyPair', () => {
  it('makes an RSA 2048 pair as PKCS#8 private and SPKI public PEM', () => {
    assert.match(pair.privateKeyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    assert.match(pair.publicKeyPem, /^-----BEGIN PUBLIC KEY-----\n/);
    const key = createPrivateKey(pair.privateKeyPem);
    assert.equal(key.asymmetricKeyType, 'rsa');
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
    assert.notEqual(pair.publicKeyPem, other.publicKeyPem);
  });
});

describe('importPublicKey', () => {
  it('reads SPKI, PKCS#1 and X.509 PEM into the same key', () => {
    const pkcs1 = createPublicKey(pair.publicKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString();
    assert.match(pkcs1, /BEGIN RSA PUBLIC KEY/);
    const certificate = createSelfSignedCertificate({ privateKeyPem: pair.privateKeyPem, subject: 'shop' });
    for (const pem of [pair.publicKeyPem, pkcs1, certificate])
      assert.equal(spkiOf(importPublicKey(pem)), spki);
  });

  it('returns the cached key object for the same PEM text', () => {
    assert.equal(importPublicKey(pair.publicKeyPem), importPublicKey(pair.publicKeyPem));
    assert.notEqual(importPublicKey(pair.publicKeyPem), importPublicKey(other.publicKeyPem));
  });

  it('takes PEM whose line breaks were written as \\n (environment variables)', () => {
    const escaped = pair.publicKeyPem.replaceAll('\n', '\\n');
    assert.equal(spkiOf(importPublicKey(escaped)), spki);
  });

  it('takes the first block of a PEM bundle and text around it', () => {
    const bundle = `issued by the console\n${pair.publicKeyPem}${other.publicKeyPem}`;
    assert.equal(spkiOf(importPublicKey(bundle)), spki);
  });

  it('refuses a private key and names the accepted kinds', () => {
    assertKeyFormatError(
      () => importPublicKey(pair.privateKeyPem),
      'unsupported_key_format',
      /BEGIN PUBLIC KEY.*BEGIN RSA PUBLIC KEY.*BEGIN CERTIFICATE/,
    );
    assertKeyFormatError(
      () => importPublicKey(pair.privateKeyPem),
      'unsupported_key_format',
      /this is a private key/,
    );
  });

  it('refuses text that is not PEM', () => {
    assertKeyFormatError(() => importPublicKey('not a key'), 'unsupported_key_format', /not PEM text/);
    assertKeyFormatError(() => importPublicKey(''), 'unsupported_key_format');
    assertKeyFormatError(() => importPublicKey(undefined as unknown as string), 'unsupported_key_format');
  });

  it('refuses a damaged PEM body as invalid_key', () => {
    const lines = pair.publicKeyPem.split('\n');
    const damaged = [lines[0], lines[1], lines.at(-2)].join('\n');
    assertKeyFormatError(() => importPublicKey(damaged), 'invalid_key');
    const certificate = '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n';
    assertKeyFormatError(() => importPublicKey(certificate), 'invalid_key');
  });

  it('refuses a key that is not RSA', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    assertKeyFormatError(() => importPublicKey(ec.toString()), 'unsupported_key_type', /ec key/);
  });
});

describe('importPrivateKey', () => {
  it('reads PKCS#8 and PKCS#1 PEM into the same key', () => {
    const pkcs1 = createPrivateKey(pair.privateKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString();
    assert.match(pkcs1, /BEGIN RSA PRIVATE KEY/);
    for (const pem of [pair.privateKeyPem, pkcs1]) {
      assert.equal(spkiOf(createPublicKey(importPrivateKey(pem))), spki);
    }
  });

  it('refuses public keys, certificates and encrypted keys with what to give instead', () => {
    assertKeyFormatError(
      () => importPrivateKey(pair.publicKeyPem),
      'unsupported_key_format',
      /signing needs the private key/,
    );
    const encrypted = createPrivateKey(pair.privateKeyPem)
      .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
      .toString();
    assertKeyFormatError(() => importPrivateKey(encrypted), 'unsupported_key_format', /decrypt it first/);
    assertKeyFormatError(
      () => importPrivateKey('-----BEGIN X-----\n-----END X-----'),
      'unsupported_key_format',
      /PKCS#8/,
    );
  });
});

describe('createSelfSignedCertificate', () => {
  it('issues a self-signed SHA256withRSA certificate valid for 2 calendar years by default', () => {
    const notBefore = new Date('2024-02-29T10:00:00.500Z');
    const pem = createSelfSignedCertificate({
      privateKeyPem: pair.privateKeyPem,
      publicKeyPem: pair.publicKeyPem,
      subject: 'shop-2024',
      serial: '0a1b2c',
      notBefore,
    });
    const certificate = new X509Certificate(pem);
    assert.ok(certificate.verify(createPublicKey(pair.publicKeyPem)), 'signed by the merchant key');
    assert.equal(certificate.subject, 'CN=shop-2024');
    assert.equal(certificate.issuer, 'CN=shop-2024');
    assert.equal(certificate.serialNumber, '0A1B2C');
    const info = certificateInfo(pem);
    assert.equal(info.commonName, 'shop-2024');
    assert.equal(info.notBefore.toISOString(), '2024-02-29T10:00:00.000Z');
    assert.equal(info.notAfter.toISOString(), '2026-03-01T10:00:00.000Z');
    assert.equal(info.fingerprintSha256, certificate.fingerprint256);
  });

  it('reads the same in jsrsasign, an independent X.509 parser', () => {
    const pem = createSelfSignedCertificate({
      privateKeyPem: pair.privateKeyPem,
      subject: 'Veikals Ķekava',
      validDays: 10,
    });
    const x509 = new jsrsasign.X509();
    x509.readCertPEM(pem);
    assert.equal(x509.getSubjectString(), '/CN=Veikals Ķekava');
    assert.equal(x509.getSignatureAlgorithmField(), 'SHA256withRSA');
    assert.ok(x509.verifySignature(jsrsasign.KEYUTIL.getKey(pair.publicKeyPem)));
    const info = certificateInfo(pem);
    assert.equal(info.notAfter.getTime() - info.notBefore.getTime(), 10 * 86_400_000);
    assert.equal(info.commonName, 'Veikals Ķekava');
  });

  it('writes GeneralizedTime past 2049', () => {
    const pem = createSelfSignedCertificate({
      privateKeyPem: pair.privateKeyPem,
      subject: 'far',
      notBefore: new Date('2049-06-01T00:00:00Z'),
    });
    assert.equal(certificateInfo(pem).notAfter.toISOString(), '2051-06-01T00:00:00.000Z');
  });

  it('gives each certificate a random positive serial', () => {
    const a = certificateInfo(
      createSelfSignedCertificate({ privateKeyPem: pair.privateKeyPem, subject: 'a' }),
    );
    const b = certificateInfo(
      createSelfSignedCertificate({ privateKeyPem: pair.privateKeyPem, subject: 'a' }),
    );
    assert.notEqual(a.serialNumber, b.serialNumber);
    assert.equal(a.serialNumber.length, 32);
    assert.ok(Number.parseInt(a.serialNumber[0]!, 16) < 8, 'top bit clear');
  });

  it('refuses a public key of another pair', () => {
    assertKeyFormatError(
      () =>
        createSelfSignedCertificate({
          privateKeyPem: pair.privateKeyPem,
          publicKeyPem: other.publicKeyPem,
          subject: 'x',
        }),
      'key_mismatch',
    );
  });

  it('refuses bad options with what to write', () => {
    const privateKeyPem = pair.privateKeyPem;
    assert.throws(() => createSelfSignedCertificate({ privateKeyPem, subject: ' ' }), /subject/);
    assert.throws(
      () => createSelfSignedCertificate({ privateKeyPem, subject: 'x', validDays: 0 }),
      /validDays/,
    );
    assert.throws(
      () => createSelfSignedCertificate({ privateKeyPem, subject: 'x', serial: 'xyz' }),
      /hexadecimal/,
    );
  });
});

describe('certificateInfo', () => {
  it('refuses a key that is not a certificate', () => {
    assertKeyFormatError(
      () => certificateInfo(pair.publicKeyPem),
      'unsupported_key_format',
      /BEGIN CERTIFICATE/,
    );
  });
});
