import assert from 'node:assert/strict';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { ConfigError, parseConfig } from '../../../src/sandbox/config.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import type { FakeMerchant } from '../support.js';
import { OTHER, SHORT_WINDOW, V1, v1, v1ConfigFile, withV1Sandbox } from './support.js';

const PIS = {
  ee: ['swedbank_ee_pis', 'seb_ee_pis', 'lhv_ee_pis'],
  lt: ['swedbank_lt_pis', 'seb_lt_pis', 'luminor_lt_pis'],
  lv: ['swedbank_lv_pis', 'seb_lv_pis', 'citadele_lv_pis'],
};
const CARDS = ['visa', 'mastercard'];
const WALLETS = ['svc_wallet_a', 'svc_wallet_b'];

/** `m2`'s lookups: its limit is wide, so these tests may repeat queries. */
const lookup = (sandbox: Sandbox, query: Record<string, string>, path = '/payment_methods/') =>
  v1(sandbox, 'GET', `${path}?${new URLSearchParams({ brand_id: OTHER.brandId, ...query })}`, {
    key: OTHER.secretKey,
  });

describe('sandbox v1 payment methods, payout methods and public key', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(() => ({ merchant, sandbox } = fixture));

  test('lists every documented member: cards, wallets and bank methods by country', async () => {
    const answer = await lookup(sandbox, { currency: 'EUR' });
    assert.equal(answer.status, 200);
    const methods = answer.body;
    assert.deepEqual(Object.keys(methods).sort(), [
      'available_payment_methods',
      'by_country',
      'card_methods',
      'country_names',
      'logos',
      'names',
      'payment_method_groups',
    ]);
    assert.deepEqual(methods.by_country, { ...PIS, any: [...CARDS, ...WALLETS] });
    assert.deepEqual(methods.country_names, { ee: 'Estonia', lt: 'Lithuania', lv: 'Latvia', any: 'Other' });
    assert.deepEqual(
      [...methods.available_payment_methods].sort(),
      Object.values(methods.by_country as Record<string, string[]>)
        .flat()
        .sort(),
    );
    assert.deepEqual(methods.card_methods, CARDS);
    assert.equal(methods.names.visa, 'Visa');
    assert.equal(methods.names.citadele_lv_pis, 'Citadele');
    assert.equal(methods.names.svc_wallet_a, 'Mobile wallet A');
    for (const name of methods.available_payment_methods) {
      assert.equal(typeof methods.names[name], 'string', name);
      assert.match(methods.logos[name], /^\/sandbox\/v1\/logos\/[a-z_]+\.svg$/, name);
    }
    assert.deepEqual(
      methods.payment_method_groups.map((group: { name: string; methods: string[] }) => [
        group.name,
        group.methods,
      ]),
      [
        ['card', CARDS],
        ['bank', [...PIS.ee, ...PIS.lt, ...PIS.lv]],
        ['wallet', WALLETS],
      ],
    );
    const card = methods.payment_method_groups[0];
    assert.equal(card.label, 'Card');
    assert.deepEqual(card.logo, ['/sandbox/v1/logos/visa.svg', '/sandbox/v1/logos/mastercard.svg']);
    assert.equal(methods.payment_method_groups[1].logo, '/sandbox/v1/logos/bank.svg');
  });

  test('serves every logo it names as SVG under the sandbox host', async () => {
    const methods = (await lookup(sandbox, { currency: 'EUR', language: 'en' })).body;
    const paths = new Set<string>([
      ...(Object.values(methods.logos) as string[]),
      ...methods.payment_method_groups.flatMap((group: { logo: string | string[] }) => group.logo),
    ]);
    for (const path of paths) {
      const response = await fetch(new URL(path, sandbox.url));
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'image/svg+xml');
      const svg = await response.text();
      assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-label="[^"]+">/);
      assert.match(svg, /<title>[^<]+<\/title>/);
    }
    assert.equal((await fetch(`${sandbox.url}/sandbox/v1/logos/nothing.svg`)).status, 404);
    assert.equal((await fetch(`${sandbox.url}/sandbox/v1/logos/..%2Fpackage.json`)).status, 404);
  });

  test('country narrows by_country to that country and any; other countries get any only', async () => {
    const latvia = (await lookup(sandbox, { currency: 'EUR', country: 'LV' })).body;
    assert.deepEqual(latvia.by_country, { lv: PIS.lv, any: [...CARDS, ...WALLETS] });
    assert.deepEqual(Object.keys(latvia.country_names), ['lv', 'any']);
    assert.deepEqual(latvia.available_payment_methods, [...CARDS, ...WALLETS, ...PIS.lv]);
    assert.equal(latvia.names.swedbank_ee_pis, undefined);

    const germany = (await lookup(sandbox, { currency: 'EUR', country: 'de' })).body;
    assert.deepEqual(germany.by_country, { any: [...CARDS, ...WALLETS] });
    assert.deepEqual(
      germany.payment_method_groups.map((group: { name: string }) => group.name),
      ['card', 'wallet'],
    );
  });

  test('names in the requested language, the merchant default when none, English otherwise', async () => {
    const latvian = (await lookup(sandbox, { currency: 'EUR', language: 'lv' })).body;
    assert.deepEqual(latvian.country_names, {
      ee: 'Igaunija',
      lt: 'Lietuva',
      lv: 'Latvija',
      any: 'Citas valstis',
    });
    assert.equal(latvian.names.svc_wallet_b, 'Mobilais maks B');
    assert.equal(latvian.payment_method_groups[0].label, 'Maksājumu karte');
    const russian = (await lookup(sandbox, { currency: 'EUR', language: 'ru' })).body;
    assert.equal(russian.country_names.lv, 'Латвия');
    assert.equal(russian.payment_method_groups[1].label, 'Банковский платёж');
    const german = (await lookup(sandbox, { currency: 'EUR', language: 'de' })).body;
    assert.equal(german.country_names.any, 'Other');
    // m1's default language is lv: its lookup without a language speaks Latvian.
    const m1 = await v1(sandbox, 'GET', `/payment_methods/?brand_id=${V1.brandId}&currency=EUR&country=ee`);
    assert.equal(m1.status, 200);
    assert.equal(m1.body.country_names.ee, 'Igaunija');
  });

  test('currency and the recurring, skip_capture and preauthorization filters leave out what cannot', async () => {
    const dollars = (await lookup(sandbox, { currency: 'usd' })).body;
    assert.deepEqual(dollars.available_payment_methods, [...CARDS, ...WALLETS]);
    assert.deepEqual(dollars.by_country, { any: [...CARDS, ...WALLETS] });
    const kronor = (await lookup(sandbox, { currency: 'SEK' })).body;
    assert.deepEqual(kronor.available_payment_methods, CARDS);
    const yen = (await lookup(sandbox, { currency: 'JPY' })).body;
    assert.deepEqual(yen.available_payment_methods, []);
    assert.deepEqual(yen.by_country, {});
    assert.deepEqual(yen.payment_method_groups, []);

    assert.deepEqual(
      (await lookup(sandbox, { currency: 'EUR', recurring: 'true' })).body.available_payment_methods,
      CARDS,
    );
    assert.deepEqual(
      (await lookup(sandbox, { currency: 'EUR', skip_capture: 'true' })).body.available_payment_methods,
      [...CARDS, ...WALLETS],
    );
    assert.deepEqual(
      (await lookup(sandbox, { currency: 'EUR', preauthorization: '1' })).body.available_payment_methods,
      CARDS,
    );
    const unfiltered = (await lookup(sandbox, { currency: 'EUR', recurring: 'false' })).body;
    assert.equal(unfiltered.available_payment_methods.length, 13);
  });

  test("answers 400 naming each wrong parameter, and the brand must be the key's", async () => {
    const empty = await v1(sandbox, 'GET', '/payment_methods/', { key: OTHER.secretKey });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.brand_id.code, 'required');
    assert.equal(empty.body.currency.code, 'required');

    const wrong = await lookup(sandbox, {
      currency: 'euro',
      country: 'Latvia',
      recurring: 'yes',
      language: 'latvian',
    });
    assert.equal(wrong.status, 400);
    for (const field of ['currency', 'country', 'recurring', 'language']) {
      assert.equal(wrong.body[field].code, 'invalid', field);
    }
    const foreign = await v1(sandbox, 'GET', `/payment_methods/?brand_id=${V1.brandId}&currency=EUR`, {
      key: OTHER.secretKey,
    });
    assert.equal(foreign.status, 400);
    assert.equal(foreign.body.brand_id.code, 'invalid');
    const unauthenticated = await v1(
      sandbox,
      'GET',
      `/payment_methods/?brand_id=${OTHER.brandId}&currency=EUR`,
      {
        key: null,
      },
    );
    assert.equal(unauthenticated.status, 401);
  });

  test('rate limit: once per minute per key and query, then 429 with Retry-After', async () => {
    const query = `/payment_methods/?brand_id=${V1.brandId}&currency=EUR&language=en`;
    const first = await v1(sandbox, 'GET', query);
    assert.equal(first.status, 200);
    const second = await v1(sandbox, 'GET', query);
    assert.equal(second.status, 429);
    assert.deepEqual(Object.keys(second.body), ['__all__']);
    assert.equal(second.body.__all__.code, 'throttled');
    assert.match(second.body.__all__.message, /cache/);
    const retryAfter = Number(second.headers.get('retry-after'));
    assert.ok(retryAfter > 55 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    // The same query with its parameters in another order is the same query.
    const reordered = await v1(
      sandbox,
      'GET',
      `/payment_methods/?language=en&currency=EUR&brand_id=${V1.brandId}`,
    );
    assert.equal(reordered.status, 429);
    // Another query of the same key, and the same query under another key, have their own allowance.
    assert.equal((await v1(sandbox, 'GET', `${query}&country=lv`)).status, 200);
    assert.equal((await lookup(sandbox, { currency: 'EUR', language: 'en' })).status, 200);
    // Other endpoints are not limited.
    for (let index = 0; index < 3; index++) {
      const payout = await v1(sandbox, 'GET', `/payout_methods/?brand_id=${V1.brandId}&currency=EUR`);
      assert.equal(payout.status, 200);
    }
  });

  test('rate limit: the configured window slides open again', async () => {
    const query = `/payment_methods/?brand_id=${SHORT_WINDOW.brandId}&currency=EUR`;
    const call = () => v1(sandbox, 'GET', query, { key: SHORT_WINDOW.secretKey });
    assert.equal((await call()).status, 200);
    // The sandbox counted the first call before answering it: from this + the window on, it is out.
    const firstAnswered = Date.now();
    assert.equal((await call()).status, 200);
    const refused = await call();
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    // Refused calls do not count: once the first call leaves the window, one more call fits.
    await new Promise((resolve) =>
      setTimeout(resolve, firstAnswered + SHORT_WINDOW.rateLimit.windowMs + 50 - Date.now()),
    );
    assert.equal((await call()).status, 200);
  });

  test('the config refuses a rate limit that is not a positive whole number, naming it', () => {
    const file = v1ConfigFile('http://127.0.0.1:9');
    file.merchants[2]!.v1!.rateLimit = { max: 0, windowMs: 1.5 };
    assert.throws(
      () => parseConfig(file),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.issues.some((issue) => issue.path === 'merchants[2].v1.rateLimit.max') &&
        error.issues.some((issue) => issue.path === 'merchants[2].v1.rateLimit.windowMs'),
    );
  });

  test('payout methods: documented members, by currency and language', async () => {
    const euro = await lookup(sandbox, { currency: 'EUR' }, '/payout_methods/');
    assert.equal(euro.status, 200);
    assert.deepEqual(euro.body, {
      available_payout_methods: ['visa', 'mastercard', 'sepa_credit_transfer'],
      names: { visa: 'Visa', mastercard: 'Mastercard', sepa_credit_transfer: 'SEPA credit transfer' },
      logos: {
        visa: '/sandbox/v1/logos/visa.svg',
        mastercard: '/sandbox/v1/logos/mastercard.svg',
        sepa_credit_transfer: '/sandbox/v1/logos/sepa.svg',
      },
      card_methods: ['visa', 'mastercard'],
    });
    const pounds = await lookup(sandbox, { currency: 'GBP', language: 'lv' }, '/payout_methods/');
    assert.deepEqual(pounds.body.available_payout_methods, ['visa', 'mastercard']);
    const latvian = await lookup(sandbox, { currency: 'EUR', language: 'lv' }, '/payout_methods/');
    assert.equal(latvian.body.names.sepa_credit_transfer, 'SEPA kredīta pārvedums');
    const missing = await v1(sandbox, 'GET', `/payout_methods/?brand_id=${OTHER.brandId}`, {
      key: OTHER.secretKey,
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.currency.code, 'required');
  });

  test("public_key answers the PEM of the merchant's company key, as a JSON string", async () => {
    const answer = await v1(sandbox, 'GET', '/public_key/');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(typeof answer.body, 'string');
    assert.match(answer.body, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n$/);
    const certificateKey = new X509Certificate(sandbox.serviceCertificatePem).publicKey;
    // Legacy notifications stay on the gateway's certificate; the company key is the merchant's own.
    assert.ok(!createPublicKey(answer.body).equals(certificateKey));
  });
});
