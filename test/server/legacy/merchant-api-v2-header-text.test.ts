/**
 * What a hostile tester found in the toolkit's side of issue 10: a certificate name or API key that no HTTP
 * header can carry was taken by `createMerchantApiV2Client`, and then every call failed as `network_error`,
 * which for a refund says "it may have been made, retry" although nothing was ever sent.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  createMerchantApiV2Client,
  generateMerchantKeyPair,
  type MerchantKeyPair,
  signHttpRequest,
} from '../../../src/server/index.js';

let merchant: MerchantKeyPair;
before(async () => {
  merchant = await generateMerchantKeyPair();
});

const client = (overrides: { certificateName?: string; apiKey?: string }) =>
  createMerchantApiV2Client({
    baseUrl: 'http://127.0.0.1:9',
    merchantId: 'm1',
    apiKey: 'key',
    certificateName: 'main',
    privateKeyPem: merchant.privateKeyPem,
    ...overrides,
  });

describe('createMerchantApiV2Client: names that travel in headers', () => {
  it('refuses at once a certificate name or API key that a header cannot carry, naming the option', () => {
    const unsendable = {
      'a control character': 'ma\u0001in',
      'a line break': 'ma\nin',
      'a character beyond Latin-1': 'main✓',
      'a lone surrogate': 'ma\ud800in',
    };
    for (const [what, value] of Object.entries(unsendable)) {
      for (const option of ['certificateName', 'apiKey'] as const) {
        assert.throws(
          () => client({ [option]: value }),
          (error: unknown) => error instanceof TypeError && error.message.includes(option),
          `${option} with ${what}`,
        );
      }
    }
    // The signature's keyId is quoted: a quote would end it early.
    assert.throws(() => client({ certificateName: 'ma"in' }), /certificateName/);
  });

  it('takes names a header carries, Latin-1 letters and spaces included', () => {
    for (const name of ['main', 'mäin', 'shop key 2026', 'a,b=c']) {
      assert.doesNotThrow(() => client({ certificateName: name, apiKey: name }), name);
    }
  });

  it('signHttpRequest refuses such a keyId too, rather than sign headers that cannot be sent', () => {
    for (const keyId of ['ma\u0001in', 'main✓', 'ma\tin\u007f']) {
      assert.throws(
        () => signHttpRequest({ method: 'GET', path: '/' }, { keyId, privateKeyPem: merchant.privateKeyPem }),
        (error: unknown) => error instanceof TypeError && /keyId/.test(error.message),
        JSON.stringify(keyId),
      );
    }
  });
});
