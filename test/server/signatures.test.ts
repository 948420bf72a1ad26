import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { OrderValidationError } from '../../src/core/order.js';
import { signBodyAsync, verifyOrderSignatureAsync } from '../../src/server/for-sandbox.js';
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

  it('signs the text the official client signs, written out here by hand (jsrsasign checks it)', () => {
    // Fields joined with no separator: counts %.3f, tax rates %.2f, the certificate name and the success URL
    // after the language, the item id after the tax rate, the constraints last.
    const full: OrderInput = {
      ...order,
      certificateName: 'main',
      successRedirectUrl: 'https://shop.example/thanks',
      backToMerchantUrl: 'https://shop.example/cart',
      constraints: { issuer: 'Citadele', paymentScheme: 'VISA' },
    };
    const byHand =
      '7f1c2a9e-1b55-4c55-9d21-6a3c3cb1a001lvmainhttps://shop.example/thankshttps://shop.example/cartA-1001' +
      '88.00EURĶiploku maize2.000PIECE21.00bread' +
      '1.50EURSugar1.250KILOGRAM' +
      'courier4.90EUR' +
      'VISACitadele';
    assert.equal(orderSignatureInput(full), byHand);
    assert.ok(independentVerify(byHand, signOrder(full, pair.privateKeyPem), pair.publicKeyPem));
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
    const relative = { ...order, successRedirectUrl: '/thanks' };
    assert.throws(
      () => signOrder(relative, pair.privateKeyPem),
      (error: unknown) =>
        error instanceof OrderValidationError && /^successRedirectUrl: /.test(error.issues[0]!.message),
    );
  });

  it('refuses a public key as the signing key', () => {
    assert.throws(() => signOrder(order, pair.publicKeyPem), KeyFormatError);
  });
});

describe('verifyOrderSignature', () => {
  it('accepts a signature over the input with counts %.3f, made by jsrsasign', () => {
    const signature = independentSign(orderSignatureInput(order), pair.privateKeyPem);
    for (const publicPem of Object.values(publicForms))
      assert.ok(verifyOrderSignature(order, signature, publicPem));
  });

  it('accepts a node:crypto signature over a hand-written plain-count input, unless told not to', () => {
    // The documentation's worked example writes the count as given (2, not 2.000).
    const plain =
      '7f1c2a9e-1b55-4c55-9d21-6a3c3cb1a001lvA-1001' +
      '88.00EURĶiploku maize2PIECE21.00bread' +
      '1.50EURSugar1.25KILOGRAM' +
      'courier4.90EUR';
    assert.equal(orderSignatureInput(order, { countForm: 'as-given' }), plain);
    const signature = sign('sha256', Buffer.from(plain, 'utf8'), pair.privateKeyPem).toString('base64');
    assert.ok(verifyOrderSignature(order, signature, pair.publicKeyPem));
    assert.equal(
      verifyOrderSignature(order, signature, pair.publicKeyPem, { acceptPlainCounts: false }),
      false,
    );
    assert.ok(
      verifyOrderSignature(order, signOrder(order, pair.privateKeyPem), pair.publicKeyPem, {
        acceptPlainCounts: false,
      }),
    );
  });

  it("accepts the document's item field order in both count forms, unless told not to; nothing else", () => {
    // The legacy documentation's multi-item order: amount, currency, label, tax rate, item id, count, unit.
    const head = '7f1c2a9e-1b55-4c55-9d21-6a3c3cb1a001lvA-1001';
    const tail = '1.50EURSugar1.250KILOGRAM' + 'courier4.90EUR';
    const documentOrder = `${head}88.00EURĶiploku maize21.00bread2.000PIECE${tail}`;
    assert.equal(orderSignatureInput(order, { itemFieldOrder: 'document' }), documentOrder);
    const plainDocumentOrder = `${head}88.00EURĶiploku maize21.00bread2PIECE1.50EURSugar1.25KILOGRAMcourier4.90EUR`;
    const signed = (text: string) =>
      sign('sha256', Buffer.from(text, 'utf8'), pair.privateKeyPem).toString('base64');
    for (const text of [documentOrder, plainDocumentOrder]) {
      assert.ok(verifyOrderSignature(order, signed(text), pair.publicKeyPem), text);
      assert.equal(
        verifyOrderSignature(order, signed(text), pair.publicKeyPem, { acceptDocumentOrder: false }),
        false,
      );
    }
    assert.equal(
      verifyOrderSignature(order, signed(plainDocumentOrder), pair.publicKeyPem, {
        acceptPlainCounts: false,
      }),
      false,
    );
    // Unit before count, or the item id before the tax rate, is no accepted order.
    for (const text of [
      `${head}88.00EURĶiploku maize21.00breadPIECE2.000${tail}`,
      `${head}88.00EURĶiploku maizebread21.002.000PIECE${tail}`,
    ])
      assert.equal(verifyOrderSignature(order, signed(text), pair.publicKeyPem), false, text);
  });

  it('signs the certificate name: a signature without it does not verify the order that names one', () => {
    const named = { ...order, certificateName: 'main' };
    const unnamed = signOrder(order, pair.privateKeyPem);
    assert.equal(verifyOrderSignature(named, unnamed, pair.publicKeyPem), false);
    assert.ok(verifyOrderSignature(named, signOrder(named, pair.privateKeyPem), pair.publicKeyPem));
    assert.equal(verifyOrderSignature(order, signOrder(named, pair.privateKeyPem), pair.publicKeyPem), false);
  });

  it('refuses any one signed field changed, fixed-seed fuzz (a page that edits what the shop signed)', () => {
    const full: OrderInput = {
      ...order,
      certificateName: 'main',
      successRedirectUrl: 'https://shop.example/thanks',
      backToMerchantUrl: 'https://shop.example/cart',
      constraints: { paymentScheme: 'VISA', issuer: 'Citadele', brand: 'VISA_CLASSIC' },
    };
    const signature = signOrder(full, pair.privateKeyPem);
    const item = full.items[0]!;
    const edits: Array<(o: OrderInput) => OrderInput> = [
      (o) => ({ ...o, certificateName: 'cert' }),
      (o) => ({ ...o, successRedirectUrl: 'https://evil.example/thanks' }),
      (o) => ({ ...o, backToMerchantUrl: undefined }),
      (o) => ({ ...o, language: 'en' }),
      (o) => ({ ...o, orderId: 'A-1002' }),
      (o) => ({ ...o, constraints: { paymentScheme: 'VISA', issuer: 'Citadele' } }),
      (o) => ({ ...o, constraints: { ...o.constraints, paymentScheme: 'MASTERCARD' } }),
      (o) => ({ ...o, items: [{ ...item, amount: 87.99 }, o.items[1]!] }),
      (o) => ({ ...o, items: [{ ...item, count: 1 }, o.items[1]!] }),
      (o) => ({ ...o, items: [{ ...item, taxRate: 12 }, o.items[1]!] }),
      (o) => ({ ...o, items: [{ ...item, unit: 'HOUR' }, o.items[1]!] }),
      (o) => ({ ...o, items: [{ ...item, orderItemId: 'bread2' }, o.items[1]!] }),
      (o) => ({ ...o, items: [o.items[1]!, item] }),
      (o) => ({ ...o, shippingOptions: [{ id: 'courier', amount: 0.9, currency: 'EUR' }] }),
    ];
    fc.assert(
      fc.property(fc.subarray(edits, { minLength: 1 }), (chosen) => {
        const edited = chosen.reduce((changed, edit) => edit(changed), full);
        assert.equal(verifyOrderSignature(edited, signature, pair.publicKeyPem), false);
      }),
      { seed: 10, numRuns: 60 },
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

describe('signBodyAsync and verifyOrderSignatureAsync (the sandbox’s, on the thread pool)', () => {
  const body = '{"id":"ord_1","status":"PAID","label":"Ķiploks"}';

  it('sign the same bytes as signBody, with every private key form', async () => {
    for (const [form, privatePem] of Object.entries(privateForms))
      assert.equal(await signBodyAsync(body, privatePem), signBody(body, privatePem), form);
  });

  it('verify an order as verifyOrderSignature does: every accepted form, and nothing else', async () => {
    const signature = signOrder(order, pair.privateKeyPem);
    for (const publicPem of Object.values(publicForms))
      assert.equal(await verifyOrderSignatureAsync(order, signature, publicPem), true);
    const plain = sign(
      'sha256',
      Buffer.from(orderSignatureInput(order, { countForm: 'as-given' })),
      pair.privateKeyPem,
    ).toString('base64');
    assert.equal(await verifyOrderSignatureAsync(order, plain, pair.publicKeyPem), true);
    assert.equal(
      await verifyOrderSignatureAsync(order, plain, pair.publicKeyPem, { acceptPlainCounts: false }),
      false,
    );
    assert.equal(await verifyOrderSignatureAsync(order, signature, other.publicKeyPem), false);
    assert.equal(await verifyOrderSignatureAsync(order, signature.slice(0, -8), pair.publicKeyPem), false);
    assert.equal(await verifyOrderSignatureAsync(order, 'not base64 at all', pair.publicKeyPem), false);
    assert.equal(
      await verifyOrderSignatureAsync(order, Buffer.alloc(256).toString('base64'), pair.publicKeyPem),
      false,
    );
    await assert.rejects(verifyOrderSignatureAsync(order, signature, 'nonsense'), KeyFormatError);
    await assert.rejects(
      verifyOrderSignatureAsync(
        { ...order, items: [{ amount: '1.001', label: 'x' }] },
        signature,
        pair.publicKeyPem,
      ),
      OrderValidationError,
    );
  });
});
