/**
 * Every constructor and factory of the toolkit refuses, at once and with a TypeError naming it and the
 * option, an unknown option (suggesting the right name when one is close), a missing required one and one of
 * the wrong kind: what JavaScript callers (and `as any`) meet instead of a compile error. Issue 8: a cache
 * given `fetch:` for `fetchPaymentMethods:` was accepted, and every lookup answered 502.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as server from '../../src/server/index.js';
import {
  createConnectionTestHandler,
  createEventDeduplicator,
  createMerchantApiV2Client,
  createNotificationReceiver,
  createOrderVerificationHandler,
  createPaymentMethodsHandler,
  createRedisCacheStore,
  createSelfSignedCertificate,
  createShippingCostHandler,
  createSuccessCallbackReceiver,
  createV1Client,
  createWebhookReceiver,
  generateMerchantKeyPair,
  MemoryCacheStore,
  type MerchantKeyPair,
  PaymentMethodsCache,
  toNodeHandler,
} from '../../src/server/index.js';
import { closestName, describeValue } from '../../src/server/options.js';
import { paymentMethods } from './v1/payment-methods-cache-support.js';

type Options = Record<string, unknown>;

/** One constructor or factory, with options that work and one mistake of each kind. */
interface Case {
  owner: string;
  make(options: unknown): unknown;
  valid(): Options;
  /** A misspelt option and the name the message suggests (undefined: none is close). */
  unknown: [given: string, suggested: string | undefined];
  /** A required option to leave out; absent when every option is optional. */
  missing?: string;
  /** An option of the wrong kind, and the value given; absent when it takes no options. */
  wrong?: [name: string, value: unknown];
}

let keys: MerchantKeyPair;
let certificatePem: string;

before(async () => {
  keys = await generateMerchantKeyPair();
  certificatePem = createSelfSignedCertificate({ privateKeyPem: keys.privateKeyPem, subject: 'gateway' });
});

const fetchPaymentMethods = async () => paymentMethods();
const cache = () => new PaymentMethodsCache({ fetchPaymentMethods });

const CASES: Case[] = [
  {
    owner: 'PaymentMethodsCache',
    make: (options) => new PaymentMethodsCache(options as never),
    valid: () => ({ fetchPaymentMethods }),
    unknown: ['fetch', 'fetchPaymentMethods'],
    missing: 'fetchPaymentMethods',
    wrong: ['fetchPaymentMethods', 'v1.paymentMethods'],
  },
  {
    owner: 'MemoryCacheStore',
    make: (options) => new MemoryCacheStore(options as never),
    valid: () => ({ maxEntries: 10 }),
    unknown: ['maxEntry', 'maxEntries'],
    wrong: ['maxEntries', '10'],
  },
  {
    owner: 'createPaymentMethodsHandler',
    make: (options) => createPaymentMethodsHandler(options as never),
    valid: () => ({ brandId: 'brand', cache: cache(), defaultCurrency: 'EUR' }),
    unknown: ['brand_id', 'brandId'],
    missing: 'cache',
    wrong: ['currencies', 'EUR'],
  },
  {
    owner: 'createShippingCostHandler',
    make: (options) => createShippingCostHandler(options as never),
    valid: () => ({ servicePublicKeyPem: certificatePem, quote: async () => ({ amount: '4.99' }) }),
    unknown: ['publicKeyPem', 'servicePublicKeyPem'],
    missing: 'quote',
    wrong: ['quote', { amount: '4.99' }],
  },
  {
    owner: 'createOrderVerificationHandler',
    make: (options) => createOrderVerificationHandler(options as never),
    valid: () => ({ servicePublicKeyPem: certificatePem, approve: async () => true }),
    unknown: ['approveOrder', 'approve'],
    missing: 'servicePublicKeyPem',
    wrong: ['approve', true],
  },
  {
    owner: 'createNotificationReceiver',
    make: (options) => createNotificationReceiver(options as never),
    valid: () => ({
      servicePublicKeyPem: certificatePem,
      findSignedOrder: () => undefined,
      defaults: { currency: 'EUR', taxRate: 0.21 },
      onPaid: () => {},
    }),
    unknown: ['onPayed', 'onPaid'],
    missing: 'findSignedOrder',
    wrong: ['onPaid', 'fulfil'],
  },
  {
    owner: 'createSuccessCallbackReceiver',
    make: (options) => createSuccessCallbackReceiver(options as never),
    valid: () => ({ companyPublicKeyPem: keys.publicKeyPem, brandId: 'brand', on: {} }),
    unknown: ['publicKeyPem', 'companyPublicKeyPem'],
    missing: 'companyPublicKeyPem',
    wrong: ['on', 'purchase.paid'],
  },
  {
    owner: 'createWebhookReceiver',
    make: (options) => createWebhookReceiver(options as never),
    valid: () => ({ webhookPublicKeyPem: keys.publicKeyPem, brandId: 'brand', on: {} }),
    unknown: ['webhookPublicKey', 'webhookPublicKeyPem'],
    missing: 'webhookPublicKeyPem',
    wrong: ['brandId', 42],
  },
  {
    owner: 'createConnectionTestHandler',
    make: (options) => (createConnectionTestHandler as (options: unknown) => unknown)(options),
    valid: () => ({}),
    unknown: ['servicePublicKeyPem', undefined],
  },
  {
    owner: 'toNodeHandler',
    make: (options) => toNodeHandler(createConnectionTestHandler(), options as never),
    valid: () => ({ maxBodyBytes: 1024 }),
    unknown: ['maxBodySize', 'maxBodyBytes'],
    wrong: ['maxBodyBytes', '1mb'],
  },
  {
    owner: 'createMerchantApiV2Client',
    make: (options) => createMerchantApiV2Client(options as never),
    valid: () => ({
      baseUrl: 'http://127.0.0.1:4010',
      merchantId: 'm1',
      apiKey: 'key',
      certificateName: 'main',
      privateKeyPem: keys.privateKeyPem,
    }),
    unknown: ['privateKey', 'privateKeyPem'],
    missing: 'certificateName',
    wrong: ['timeoutMs', '30s'],
  },
  {
    owner: 'createV1Client',
    make: (options) => createV1Client(options as never),
    valid: () => ({ baseUrl: 'http://127.0.0.1:4010', secretKey: 'sk' }),
    unknown: ['secret', 'secretKey'],
    missing: 'secretKey',
    wrong: ['fetch', 'https://proxy.example'],
  },
  {
    owner: 'createEventDeduplicator',
    make: (options) => createEventDeduplicator(options as never),
    valid: () => ({ ttlMs: 1000, keyPrefix: 'shop:' }),
    unknown: ['ttl', 'ttlMs'],
    // A Redis client itself, not the store made of it: it has get and set but no claim or release.
    wrong: ['store', { get: async () => null, set: async () => 'OK' }],
  },
  {
    owner: 'createSelfSignedCertificate',
    make: (options) => createSelfSignedCertificate(options as never),
    valid: () => ({ privateKeyPem: keys.privateKeyPem, subject: 'shop', validDays: 30 }),
    unknown: ['validityDays', 'validDays'],
    missing: 'subject',
    wrong: ['notBefore', '2025-01-01'],
  },
];

/** The TypeError that `action` throws; fails when it throws nothing or something else. */
function typeError(action: () => unknown): TypeError {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof TypeError, `expected a TypeError, got ${String(error)}`);
    return error;
  }
  assert.fail('nothing was thrown');
}

describe('the toolkit refuses wrong options at once', () => {
  for (const entry of CASES) {
    describe(entry.owner, () => {
      it('works with correct options', () => {
        assert.ok(entry.make(entry.valid()));
      });

      it('refuses an unknown option, naming it and the right one when close', () => {
        const [given, suggested] = entry.unknown;
        const { message } = typeError(() => entry.make({ ...entry.valid(), [given]: 'x' }));
        const hint =
          suggested !== undefined
            ? `did you mean "${suggested}"?`
            : Object.keys(entry.valid()).length > 0
              ? 'the options are '
              : 'it takes no options';
        assert.ok(
          message.startsWith(`${entry.owner}: unknown option "${given}"; ${hint}`),
          `unexpected message: ${message}`,
        );
      });

      if (entry.missing !== undefined) {
        const missing = entry.missing;
        it(`refuses options without ${missing}, saying what to give`, () => {
          const options = entry.valid();
          delete options[missing];
          const { message } = typeError(() => entry.make(options));
          assert.match(message, new RegExp(`^${entry.owner}: the option "${missing}" is required: \\S`));
        });
      }

      if (entry.wrong !== undefined) {
        const [name, value] = entry.wrong;
        it(`refuses ${name} of the wrong kind, naming it and what it must be`, () => {
          const { message } = typeError(() => entry.make({ ...entry.valid(), [name]: value }));
          const said = describeValue(value);
          assert.ok(message.startsWith(`${entry.owner}: the option "${name}" must be `), message);
          assert.ok(message.endsWith(`, not ${said}`), message);
        });
      }

      it('refuses options that are not an object', () => {
        const { message } = typeError(() => entry.make(null));
        assert.ok(message.startsWith(`${entry.owner}: `), message);
        assert.match(message, /null/);
      });
    });
  }

  it('says the words of issue 8 for the payment-methods cache', () => {
    assert.equal(
      typeError(() => new PaymentMethodsCache({ fetch: fetchPaymentMethods } as never)).message,
      'PaymentMethodsCache: unknown option "fetch"; did you mean "fetchPaymentMethods"?',
    );
    assert.equal(
      typeError(() => new PaymentMethodsCache({} as never)).message,
      'PaymentMethodsCache: the option "fetchPaymentMethods" is required: a function (query, {signal}) => ' +
        "the gateway's payment methods answer, such as v1.paymentMethods",
    );
    assert.equal(
      typeError(() => new PaymentMethodsCache({ fetchPaymentMethods: 'v1.paymentMethods' } as never)).message,
      'PaymentMethodsCache: the option "fetchPaymentMethods" must be a function (query, {signal}) => ' +
        "the gateway's payment methods answer, such as v1.paymentMethods, not a string",
    );
  });

  it('takes an option given as undefined as left out', () => {
    assert.ok(new PaymentMethodsCache({ fetchPaymentMethods, ttlMs: undefined, store: undefined }));
    assert.ok(createV1Client({ baseUrl: 'http://127.0.0.1:4010', secretKey: 'sk', timeoutMs: undefined }));
  });

  it('refuses any argument but undefined where no options are taken', () => {
    assert.ok(createConnectionTestHandler());
    assert.equal(
      typeError(() => (createConnectionTestHandler as (options: unknown) => unknown)('gateway.pem')).message,
      'createConnectionTestHandler: takes no options, not a string',
    );
  });

  it('lists the options when no name is close', () => {
    assert.equal(
      typeError(() => new MemoryCacheStore({ size: 5 } as never)).message,
      'MemoryCacheStore: unknown option "size"; the options are maxEntries, now, whenFull',
    );
  });

  it('keeps range checks apart: a duration of the right kind but out of range is a RangeError naming it', () => {
    assert.throws(() => new PaymentMethodsCache({ fetchPaymentMethods, ttlMs: 0 }), {
      name: 'RangeError',
      message: 'PaymentMethodsCache: the option "ttlMs" must be a positive number of milliseconds, not 0',
    });
    const merchantApi = CASES.find((entry) => entry.owner === 'createMerchantApiV2Client')!;
    assert.throws(() => merchantApi.make({ ...merchantApi.valid(), timeoutMs: -1 }), {
      name: 'RangeError',
      message:
        'createMerchantApiV2Client: the option "timeoutMs" must be a positive number of milliseconds, not -1',
    });
  });

  it('refuses options to generateMerchantKeyPair, which takes none', async () => {
    await assert.rejects(
      (generateMerchantKeyPair as (options: unknown) => Promise<unknown>)({ modulusLength: 4096 }),
      {
        name: 'TypeError',
        message: 'generateMerchantKeyPair: unknown option "modulusLength"; it takes no options',
      },
    );
  });

  it('refuses a handler that is not a function in toNodeHandler', () => {
    const { message } = typeError(() => toNodeHandler({ servicePublicKeyPem: 'x' } as never));
    assert.match(message, /^toNodeHandler: the handler must be a function .*, not an object$/);
  });

  it('refuses a Redis client of no known kind, saying which kinds are taken', () => {
    for (const [client, said] of [
      [null, 'null'],
      [{ url: 'redis://localhost' }, 'an object without sendCommand or call'],
      [Promise.resolve(), 'a Promise'],
    ] as const) {
      const { message } = typeError(() => createRedisCacheStore(client as never));
      assert.equal(
        message,
        'createRedisCacheStore: the client must be a connected node-redis client (sendCommand), an ioredis ' +
          `client (call) or a function (args) => the reply, not ${said}`,
      );
    }
  });

  it('covers every constructor and factory the entry exports', () => {
    const covered = new Set([
      ...CASES.map((entry) => entry.owner),
      'generateMerchantKeyPair',
      'createRedisCacheStore',
    ]);
    const factories = Object.entries(server)
      .filter(
        ([name, value]) =>
          typeof value === 'function' && (/^(create|generate)/.test(name) || /^[A-Z]/.test(name)),
      )
      .map(([name]) => name)
      .filter((name) => !name.endsWith('Error'));
    assert.deepEqual(
      factories.filter((name) => !covered.has(name)),
      [],
      'a constructor or factory without a row in CASES',
    );
  });
});

describe('closestName', () => {
  const names = ['fetchPaymentMethods', 'store', 'ttlMs', 'staleTtlMs', 'keyPrefix', 'now'];

  it('finds the name meant by a prefix, another case or spelling, or a slip', () => {
    assert.equal(closestName('fetch', names), 'fetchPaymentMethods');
    assert.equal(closestName('fetchMethods', names), 'fetchPaymentMethods');
    assert.equal(closestName('ttl', names), 'ttlMs');
    assert.equal(closestName('key_prefix', names), 'keyPrefix');
    assert.equal(closestName('sotre', names), 'store');
    assert.equal(closestName('NOW', names), 'now');
    assert.equal(closestName('brand_id', ['brandId', 'cache']), 'brandId');
    assert.equal(closestName('maxBodySize', ['maxBodyBytes', 'onError']), 'maxBodyBytes');
  });

  it('suggests nothing when no name is close', () => {
    assert.equal(closestName('size', names), undefined);
    assert.equal(closestName('apiKey', ['baseUrl', 'secretKey', 'fetch', 'timeoutMs']), undefined);
    assert.equal(closestName('', names), undefined);
  });
});

describe('describeValue', () => {
  it("says a value's kind without a string's content, which may be a key", () => {
    assert.equal(describeValue('-----BEGIN PRIVATE KEY-----'), 'a string');
    assert.equal(describeValue(''), 'an empty string');
    assert.equal(describeValue('  '), 'a blank string');
    assert.equal(describeValue(42), 'the number 42');
    assert.equal(describeValue(false), 'the boolean false');
    assert.equal(describeValue([]), 'an array');
    assert.equal(
      describeValue(() => 1),
      'a function',
    );
    assert.equal(describeValue({}), 'an object');
    assert.equal(describeValue(new Map()), 'a Map');
    assert.equal(describeValue(Object.create(null)), 'an object');
  });
});
