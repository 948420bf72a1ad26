import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatMessage, LANGUAGES, placeholdersOf } from '../../src/core/i18n.js';
import {
  ANY_COUNTRY,
  type CountryChoices,
  checkoutUrlWithMethod,
  chooseCountry,
  groupMethods,
  type MethodGroupView,
  methodGroups,
  readPaymentMethods,
  regionOf,
  resolveLogo,
} from '../../src/core/payment-method-groups.js';
import { createPickerTranslator, PICKER_MESSAGES } from '../../src/core/picker-messages.js';
import type { PaymentMethods } from '../../src/core/v1-types.js';
import { paymentMethods } from '../../src/sandbox/v1/payment-methods.js';

const GATEWAY = 'http://127.0.0.1:4010';

/** The sandbox's own answer of `GET /payment_methods/` for every country, in English. */
function sandboxAnswer(country?: string): PaymentMethods {
  return paymentMethods({
    brandId: '0b000000-0000-4000-8000-0000000000b1',
    currency: 'EUR',
    country,
    recurring: false,
    skipCapture: false,
    preauthorization: false,
    language: 'en',
  });
}

function answer(overrides: Partial<PaymentMethods>): PaymentMethods {
  return {
    available_payment_methods: [],
    by_country: {},
    country_names: {},
    names: {},
    logos: {},
    card_methods: [],
    payment_method_groups: [],
    ...overrides,
  };
}

function ofKind<K extends MethodGroupView['kind']>(
  group: MethodGroupView | undefined,
  kind: K,
): Extract<MethodGroupView, { kind: K }> {
  assert.equal(group?.kind, kind);
  return group as Extract<MethodGroupView, { kind: K }>;
}

const methodsOf = (country: CountryChoices | undefined) => country?.methods.map((choice) => choice.method);

describe('methodGroups on the sandbox’s answer', () => {
  const groups = methodGroups(sandboxAnswer(), GATEWAY);

  test('keeps the answer’s groups in order: cards as one choice, banks by country, wallets as a list', () => {
    assert.deepEqual(
      groups.map((group) => [group.name, group.kind, group.label]),
      [
        ['card', 'card', 'Card'],
        ['bank', 'byCountry', 'Bank payment'],
        ['wallet', 'list', 'Mobile wallet'],
      ],
    );
  });

  test('the card choice names its schemes and shows their logos on the gateway host', () => {
    const card = ofKind(groups[0], 'card');
    assert.deepEqual(
      card.methods.map((choice) => [choice.method, choice.name]),
      [
        ['visa', 'Visa'],
        ['mastercard', 'Mastercard'],
      ],
    );
    assert.deepEqual(card.logos, [
      `${GATEWAY}/sandbox/v1/logos/visa.svg`,
      `${GATEWAY}/sandbox/v1/logos/mastercard.svg`,
    ]);
  });

  test('bank methods are listed per country with the countries’ names, and no Other without methods of every country', () => {
    const bank = ofKind(groups[1], 'byCountry');
    assert.deepEqual(
      bank.countries.map((country) => [country.code, country.name]),
      [
        ['ee', 'Estonia'],
        ['lt', 'Lithuania'],
        ['lv', 'Latvia'],
      ],
    );
    const latvia = bank.countries.find((country) => country.code === 'lv');
    assert.deepEqual(methodsOf(latvia), ['swedbank_lv_pis', 'seb_lv_pis', 'citadele_lv_pis']);
    assert.deepEqual(latvia?.methods[2], {
      method: 'citadele_lv_pis',
      name: 'Citadele',
      logos: [`${GATEWAY}/sandbox/v1/logos/citadele.svg`],
    });
    assert.deepEqual(bank.logos, [`${GATEWAY}/sandbox/v1/logos/bank.svg`]);
  });

  test('every available method is a choice exactly once', () => {
    const shown = groups.flatMap((group) => groupMethods(group).map((choice) => choice.method));
    assert.deepEqual([...shown].sort(), [...sandboxAnswer().available_payment_methods].sort());
  });

  test('an answer for one country has that country alone', () => {
    const bank = ofKind(methodGroups(sandboxAnswer('lt'), GATEWAY)[1], 'byCountry');
    assert.deepEqual(
      bank.countries.map((country) => country.code),
      ['lt'],
    );
  });
});

describe('methodGroups, by the document’s rules', () => {
  const banks = answer({
    available_payment_methods: ['a_lv', 'b_lv', 'a_ee', 'pan_eu', 'visa'],
    by_country: { lv: ['a_lv', 'b_lv'], ee: ['a_ee'], any: ['pan_eu', 'visa'] },
    country_names: { lv: 'Latvija', ee: 'Igaunija', any: 'Citas valstis' },
    names: { a_lv: 'Bank A', pan_eu: 'Pan-European bank' },
    logos: { a_lv: ['/a.svg', 'https://cdn.example/a-wide.svg'], b_lv: 'javascript:alert(1)' },
    card_methods: ['visa'],
    payment_method_groups: [
      {
        name: 'bank',
        label: 'Bankas maksājums',
        logo: '/bank.svg',
        methods: ['a_lv', 'b_lv', 'a_ee', 'pan_eu'],
      },
      { name: 'card', label: 'Karte', logo: [], methods: ['visa'] },
    ],
  });

  test('methods of every country (`any`) follow each country’s own and make up Other, last', () => {
    const bank = ofKind(methodGroups(banks, GATEWAY)[0], 'byCountry');
    assert.deepEqual(
      bank.countries.map((country) => [country.code, country.name, methodsOf(country)]),
      [
        ['lv', 'Latvija', ['a_lv', 'b_lv', 'pan_eu']],
        ['ee', 'Igaunija', ['a_ee', 'pan_eu']],
        [ANY_COUNTRY, 'Citas valstis', ['pan_eu']],
      ],
    );
  });

  test('names fall back to the method’s name; logos resolve against the gateway, and only its own stay', () => {
    const latvia = ofKind(methodGroups(banks, GATEWAY)[0], 'byCountry').countries[0]!;
    assert.deepEqual(latvia.methods[0], { method: 'a_lv', name: 'Bank A', logos: [`${GATEWAY}/a.svg`] });
    assert.deepEqual(latvia.methods[1], { method: 'b_lv', name: 'b_lv', logos: [] });
  });

  test('a card group without a logo of its own shows its schemes’ logos', () => {
    const withLogos = { ...banks, logos: { ...banks.logos, visa: '/visa.svg' } };
    const card = ofKind(methodGroups(withLogos, GATEWAY)[1], 'card');
    assert.equal(card.label, 'Karte');
    assert.deepEqual(card.logos, [`${GATEWAY}/visa.svg`]);
  });

  test('Other without a name in the answer has none (the picker says Other), and a method in no country counts as of every country', () => {
    const groups = methodGroups(
      answer({
        available_payment_methods: ['a_lv', 'roaming'],
        by_country: { lv: ['a_lv'] },
        payment_method_groups: [
          { name: 'bank', label: 'Bank', logo: '/b.svg', methods: ['a_lv', 'roaming'] },
        ],
      }),
      GATEWAY,
    );
    const bank = ofKind(groups[0], 'byCountry');
    assert.deepEqual(
      bank.countries.map((country) => [country.code, country.name, methodsOf(country)]),
      [
        ['lv', 'LV', ['a_lv', 'roaming']],
        [ANY_COUNTRY, undefined, ['roaming']],
      ],
    );
  });

  test('only available methods are shown, each in the first group that lists it; empty groups are left out', () => {
    const groups = methodGroups(
      answer({
        available_payment_methods: ['w1', 'visa'],
        card_methods: ['visa', 'amex'],
        payment_method_groups: [
          { name: 'card', label: 'Card', logo: '/card.svg', methods: ['amex'] },
          { name: 'wallet', label: 'Wallet', logo: '/w.svg', methods: ['w1', 'w2'] },
          { name: 'again', label: 'Again', logo: '/w.svg', methods: ['w1'] },
        ],
      }),
      GATEWAY,
    );
    assert.deepEqual(
      groups.map((group) => [group.name, group.kind, group.label, groupMethods(group).map((c) => c.method)]),
      [
        ['wallet', 'list', 'Wallet', ['w1']],
        // visa is in no group with it available: it gets a card group of its own, which the picker names.
        ['card', 'card', undefined, ['visa']],
      ],
    );
  });

  test('available methods in no group form a group of their own; a group mixing cards and others is a list', () => {
    const groups = methodGroups(
      answer({
        available_payment_methods: ['visa', 'w1', 'x'],
        card_methods: ['visa'],
        payment_method_groups: [{ name: 'mixed', label: 'Mixed', logo: '/m.svg', methods: ['visa', 'w1'] }],
      }),
      GATEWAY,
    );
    assert.deepEqual(
      groups.map((group) => [group.name, group.kind, group.label]),
      [
        ['mixed', 'list', 'Mixed'],
        ['other', 'list', undefined],
      ],
    );
  });

  test('an answer with no available methods has no groups', () => {
    assert.deepEqual(
      methodGroups(answer({ payment_method_groups: sandboxAnswer().payment_method_groups }), GATEWAY),
      [],
    );
  });
});

describe('readPaymentMethods', () => {
  test('reads the sandbox’s answer as it is', () => {
    const given = sandboxAnswer();
    assert.deepEqual(readPaymentMethods(JSON.parse(JSON.stringify(given))), given);
  });

  test('refuses what is not an answer', () => {
    for (const value of [
      null,
      'x',
      [],
      {},
      { available_payment_methods: 'visa' },
      { available_payment_methods: [1] },
    ]) {
      assert.equal(readPaymentMethods(value), undefined, JSON.stringify(value));
    }
  });

  test('leaves out members of the wrong type instead of failing', () => {
    const read = readPaymentMethods({
      available_payment_methods: ['visa'],
      by_country: { lv: ['a'], ee: 'b', any: [1] },
      country_names: { lv: 'Latvia', ee: 3 },
      names: 'Visa',
      logos: { visa: '/v.svg', mc: ['/m.svg', 2], x: ['/x.svg'] },
      card_methods: { visa: true },
      payment_method_groups: [
        { name: 'card', label: 'Card', logo: '/c.svg', methods: ['visa'] },
        { name: 'broken', label: 'Broken', methods: ['visa'] },
        'card',
      ],
    });
    assert.deepEqual(read, {
      available_payment_methods: ['visa'],
      by_country: { lv: ['a'] },
      country_names: { lv: 'Latvia' },
      names: {},
      logos: { visa: '/v.svg', x: ['/x.svg'] },
      card_methods: [],
      payment_method_groups: [{ name: 'card', label: 'Card', logo: '/c.svg', methods: ['visa'] }],
    });
  });
});

describe('resolveLogo', () => {
  test('paths are relative to the gateway host; URLs on its origin stay; other schemes do not', () => {
    assert.equal(resolveLogo('/sandbox/v1/logos/visa.svg', GATEWAY), `${GATEWAY}/sandbox/v1/logos/visa.svg`);
    assert.equal(
      resolveLogo('logos/visa.svg', `${GATEWAY}/checkout/abc/`),
      `${GATEWAY}/checkout/abc/logos/visa.svg`,
    );
    assert.equal(resolveLogo(`${GATEWAY}/v.svg`, `${GATEWAY}/checkout/abc/`), `${GATEWAY}/v.svg`);
    assert.equal(resolveLogo('//127.0.0.1:4010/v.svg', GATEWAY), `${GATEWAY}/v.svg`);
    assert.equal(resolveLogo('javascript:alert(1)', GATEWAY), undefined);
    assert.equal(resolveLogo('data:image/svg+xml,<svg/>', GATEWAY), undefined);
    assert.equal(resolveLogo('http://[broken', GATEWAY), undefined);
  });

  test('a logo on any other origin is dropped, however it is written (issue 9)', () => {
    for (const path of [
      '//evil.example/x.svg',
      '///evil.example/x.svg',
      '/\\evil.example/x.svg',
      '\\\\evil.example/x.svg',
      ' //evil.example/x.svg',
      '\t//evil.example/x.svg',
      'https://cdn.example/v.svg',
      'https://127.0.0.1:4010/v.svg',
      'http://127.0.0.1:4011/v.svg',
      'http://localhost:4010/v.svg',
      'https:evil.example/x.svg',
      'https://127.0.0.1:4010@evil.example/x.svg',
    ]) {
      assert.equal(resolveLogo(path, GATEWAY), undefined, path);
    }
  });

  test('a fixed-seed fuzz of logo paths never yields a URL off the gateway origin', () => {
    let seed = 0x9e3779b9;
    const random = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed / 2 ** 32;
    };
    const pieces = [
      '/',
      '\\',
      '//',
      ':',
      '@',
      '.',
      'evil.example',
      '127.0.0.1',
      ':4010',
      'http:',
      'https:',
      '%2f',
      '?',
      '#',
      ' ',
      '\t',
      'x.svg',
    ];
    let kept = 0;
    for (let round = 0; round < 5000; round++) {
      let path = '';
      const length = 1 + Math.floor(random() * 6);
      for (let i = 0; i < length; i++) path += pieces[Math.floor(random() * pieces.length)];
      const resolved = resolveLogo(path, GATEWAY);
      if (resolved === undefined) continue;
      kept += 1;
      assert.equal(new URL(resolved).origin, GATEWAY, JSON.stringify(path));
    }
    assert.ok(kept > 0, 'some paths resolve on the gateway');
  });
});

describe('chooseCountry', () => {
  const country = (code: string, methods: string[]): CountryChoices => ({
    code,
    name: code,
    methods: methods.map((method) => ({ method, name: method, logos: [] })),
  });
  const countries = [country('ee', ['a_ee']), country('lv', ['a_lv', 'b_lv']), country(ANY_COUNTRY, ['pan'])];

  test('the first wanted country that is listed, in any case', () => {
    assert.equal(chooseCountry(countries, [undefined, 'LV', 'ee']), 'lv');
    assert.equal(chooseCountry(countries, ['de', 'ee']), 'ee');
  });

  test('Other when no wanted country is listed, else the first country', () => {
    assert.equal(chooseCountry(countries, ['de']), ANY_COUNTRY);
    assert.equal(chooseCountry(countries, []), ANY_COUNTRY);
    assert.equal(chooseCountry(countries.slice(0, 2), ['de']), 'ee');
  });

  test('the preselected method’s country when the wanted one does not have it', () => {
    assert.equal(chooseCountry(countries, ['ee'], 'b_lv'), 'lv');
    assert.equal(chooseCountry(countries, ['lv'], 'b_lv'), 'lv');
    assert.equal(chooseCountry(countries, ['ee'], 'visa'), 'ee');
  });

  test('nothing for no countries', () => {
    assert.equal(chooseCountry([], ['lv']), undefined);
  });
});

describe('checkoutUrlWithMethod', () => {
  const base = 'http://127.0.0.1:4010/checkout/6f1c/';

  test('adds preferred to a URL without a query', () => {
    assert.equal(checkoutUrlWithMethod(base, 'visa'), `${base}?preferred=visa`);
  });

  test('keeps the query and the fragment the URL has, and replaces an earlier preferred', () => {
    const url = new URL(checkoutUrlWithMethod(`${base}?lang=lv&preferred=seb_lv_pis&x=a%26b#top`, 'visa'));
    assert.equal(url.pathname, '/checkout/6f1c/');
    assert.deepEqual(
      [...url.searchParams],
      [
        ['lang', 'lv'],
        ['preferred', 'visa'],
        ['x', 'a&b'],
      ],
    );
    assert.equal(url.hash, '#top');
  });

  test('encodes a method name that needs it', () => {
    const url = new URL(checkoutUrlWithMethod(base, 'a&b=c'));
    assert.equal(url.searchParams.get('preferred'), 'a&b=c');
  });

  test('throws for a URL that is not absolute', () => {
    assert.throws(() => checkoutUrlWithMethod('/checkout/6f1c/', 'visa'), TypeError);
  });
});

test('regionOf takes the region of a language tag', () => {
  assert.equal(regionOf('lv-LV'), 'lv');
  assert.equal(regionOf('en_GB'), 'gb');
  assert.equal(regionOf('sr-Latn-RS'), 'rs');
  assert.equal(regionOf('en'), undefined);
  assert.equal(regionOf('es-419'), undefined);
});

describe('the picker’s texts', () => {
  test('every language has every text, with the English placeholders', () => {
    const keys = Object.keys(PICKER_MESSAGES.en).sort();
    for (const language of LANGUAGES) {
      const catalog = PICKER_MESSAGES[language];
      assert.deepEqual(Object.keys(catalog).sort(), keys, language);
      for (const key of keys) {
        const text = catalog[key as keyof typeof catalog];
        assert.ok(text.trim().length > 0, `${language} ${key}`);
        assert.deepEqual(
          placeholdersOf(text),
          placeholdersOf(PICKER_MESSAGES.en[key as keyof typeof catalog]),
          `${language} ${key}`,
        );
      }
    }
  });

  test('the merchant’s texts win; empty or non-string ones and other keys do not', () => {
    const t = createPickerTranslator('lv', {
      'picker.confirm': 'Maksāt',
      'picker.title': '  ',
      'picker.country': 3,
      'loading.text': 'x',
    });
    assert.equal(t('picker.confirm'), 'Maksāt');
    assert.equal(t('picker.title'), PICKER_MESSAGES.lv['picker.title']);
    assert.equal(t('picker.country'), 'Valsts');
    assert.equal(
      t('picker.cardSchemes', { schemes: 'Visa, Mastercard' }),
      formatMessage(PICKER_MESSAGES.lv['picker.cardSchemes'], { schemes: 'Visa, Mastercard' }),
    );
  });
});
