import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { OrderValidationError } from '../../src/core/order.js';
import {
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  KeyFormatError,
  type MerchantKeyPair,
  type OrderInput,
  orderSignatureInput,
  signBody,
  signOrder,
  verifyOrderSignature,
  verifySignature,
} from '../../src/server/index.js';
import { independentSign, independentVerify } from './support.js';

let pair: MerchantKeyPair;
let other: MerchantKeyPair;
/** Every public form of `pair`: SPKI, PKCS#1, X.509. */
let publicForms: Record<string, string>;
/** Every private form of `pair`: PKCS#8, PKCS#1. */
let privateForms: Record<string, string>;

before(async () => {
  [pair, other] = await Promise.all([generateMerchantKeyPair(), generateMerchantKeyPair()]);
  publicForms = {
    spki: pair.publicKeyPem,
    pkcs1: createPublicKey(pair.publicKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString(),
    x509: createSelfSignedCertificate({ privateKeyPem: pair.privateKeyPem, subject: 'shop' }),
  };
  privateForms = {
    pkcs8: pair.privateKeyPem,
    pkcs1: createPrivateKey(pair.privateKeyPem).export({ type: 'pkcs1', format: 'pem' }).toString(),
  };
});

const order: OrderInput = {
  widgetId: '7f1c2a9e-1b55-4c55-9d21-6a3c3cb1a001',
  language: 'lv',
  orderId: 'A-1001',
  items: [
    {
      amount: 88,
      currency: 'EUR',
      label: 'Ķiploku maize',
      taxRate: 21,
      orderItemId: 'bread',
      count: 2,
      unit: 'PIECE',
    },
    { amount: '1.5', currency: 'EUR', label: 'Sugar', count: '1.25', unit: 'KILOGRAM' },
  ],
  shippingOptions: [{ id: 'courier', amount: 4.9, currency: 'EUR' }],
};

describe('signOrder', () => {
  it('signs the order signature input so that jsrsasign verifies it with every public key form', () => {
    const input = orderSignatureInput(order);
    for (const [name, privateKeyPem] of Object.entries(privateForms)) {
      const signature = signOrder(order, privateKeyPem);
      for (const [form, publicPem] of Object.entries(publicForms)) {
        assert.ok(independentVerify(input, signature, publicPem), `${name} signature, ${form} key`);
      }
    }
  });

  it('signs nothing else: jsrsasign refuses the signature for a changed input or another key', () => {
    const signature = signOrder(order, pair.privateKeyPem);
    const changed = orderSignatureInput({ ...order, orderId: 'A-1002' });
    assert.equal(independentVerify(changed, signature, pair.publicKeyPem), false);
    assert.equal(independentVerify(orderSignatureInput(order), signature, other.publicKeyPem), false);
  });

  it('refuses an invalid order instead of signing it', () => {
    const invalid = { ...order, items: [{ amount: '1.001', label: 'x' }] };
    assert.throws(() => signOrder(invalid, pair.privateKeyPem), OrderValidationError);
  });

  it('refuses a public key as the signing key', () => {
    assert.throws(() => signOrder(order, pair.publicKeyPem), KeyFormatError);
  });
});

describe('verifyOrderSignature', () => {
  it('accepts a signature over the input with counts as given', () => {
    const signature = independentSign(orderSignatureInput(order), pair.privateKeyPem);
    for (const publicPem of Object.values(publicForms))
      assert.ok(verifyOrderSignature(order, signature, publicPem));
  });

  it('accepts counts written with 3 decimals, unless told not to', () => {
    const input = orderSignatureInput(order, { countForm: 'three-decimals' });
    assert.notEqual(input, orderSignatureInput(order));
    const signature = independentSign(input, pair.privateKeyPem);
    assert.ok(verifyOrderSignature(order, signature, pair.publicKeyPem));
    assert.equal(
      verifyOrderSignature(order, signature, pair.publicKeyPem, { acceptThreeDecimalCounts: false }),
      false,
    );
  });

  it('refuses a changed order, another key and a garbled signature', () => {
    const signature = signOrder(order, pair.privateKeyPem);
    const dearer = { ...order, items: [{ ...order.items[0]!, amount: 89 }, order.items[1]!] };
    assert.equal(verifyOrderSignature(dearer, signature, pair.publicKeyPem), false);
    assert.equal(verifyOrderSignature(order, signature, other.publicKeyPem), false);
    assert.equal(verifyOrderSignature(order, 'garbled!', pair.publicKeyPem), false);
  });
});

describe('verifySignature and signBody', () => {
  const body = '{"id":"ord_1","status":"PAID","label":"Ķiploks"}';

  it('verifies what jsrsasign signed, with every public key form', () => {
    const signature = independentSign(body, pair.privateKeyPem);
    for (const [form, publicPem] of Object.entries(publicForms)) {
      assert.ok(verifySignature(body, signature, publicPem), form);
      assert.ok(verifySignature(Buffer.from(body), signature, publicPem), `${form}, bytes`);
    }
  });

  it('signs so that jsrsasign verifies, with every private key form', () => {
    for (const [form, privatePem] of Object.entries(privateForms)) {
      assert.ok(independentVerify(body, signBody(body, privatePem), pair.publicKeyPem), form);
    }
  });

  it('returns false for a tampered body, another key, and garbled or truncated signatures', () => {
    const signature = signBody(body, pair.privateKeyPem);
    assert.equal(verifySignature(body.replace('PAID', 'PAYD'), signature, pair.publicKeyPem), false);
    assert.equal(verifySignature(`${body} `, signature, pair.publicKeyPem), false);
    assert.equal(verifySignature(body, signature, other.publicKeyPem), false);
    assert.equal(verifySignature(body, signature.slice(0, -8), pair.publicKeyPem), false);
    assert.equal(verifySignature(body, '', pair.publicKeyPem), false);
    assert.equal(verifySignature(body, 'not base64 at all', pair.publicKeyPem), false);
    assert.equal(verifySignature(body, Buffer.alloc(256).toString('base64'), pair.publicKeyPem), false);
    assert.equal(verifySignature(body, undefined as unknown as string, pair.publicKeyPem), false);
  });

  it('accepts surrounding whitespace in the signature header value', () => {
    assert.ok(verifySignature(body, ` ${signBody(body, pair.privateKeyPem)}\n`, pair.publicKeyPem));
  });

  it('throws KeyFormatError for a bad key rather than answering false', () => {
    const signature = signBody(body, pair.privateKeyPem);
    assert.throws(() => verifySignature(body, signature, 'nonsense'), KeyFormatError);
    assert.throws(() => verifySignature(body, signature, pair.privateKeyPem), KeyFormatError);
  });

  it('round-trips any body and refuses any one-byte change (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, flip) => {
          const signature = signBody(bytes, pair.privateKeyPem);
          assert.ok(verifySignature(bytes, signature, pair.publicKeyPem));
          const changed = Uint8Array.from(bytes);
          changed[at % changed.length]! ^= flip;
          assert.equal(verifySignature(changed, signature, pair.publicKeyPem), false);
        },
      ),
      { numRuns: 25 },
    );
  });
});
