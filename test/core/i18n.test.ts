import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type CardScheme,
  checkCardConstraints,
  KNOWN_CARD_SCHEMES,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../../src/core/card.js';
import {
  cardNumberErrorKey,
  constraintErrorKey,
  createElementTranslator,
  createFrameTranslator,
  createTranslator,
  cvcErrorKey,
  ELEMENT_MESSAGES,
  type ElementMessageKey,
  expiryErrorKey,
  FRAME_MESSAGES,
  failureReasonKey,
  formatMessage,
  isElementMessageKey,
  isMessageKey,
  LANGUAGES,
  type Language,
  localeFor,
  type MessageKey,
  type Messages,
  messagesFor,
  normalizeLanguage,
  PAYMENT_FAILURE_REASONS,
  placeholdersOf,
  resolveLanguage,
  schemeNameKey,
  unitKey,
  validateOverrides,
  widgetErrorKey,
} from '../../src/core/i18n.js';
import { UNITS } from '../../src/core/order.js';

const MESSAGES = Object.fromEntries(LANGUAGES.map((language) => [language, messagesFor(language)])) as Record<
  Language,
  Messages
>;
const { en, lv, ru } = MESSAGES;

const EN_KEYS = Object.keys(en).sort();

// Texts that are the same in every language: brand names, digits, the CVC and (in Latvian) SI unit symbols.
const BRANDS_AND_DIGITS = [
  'card.number.placeholder',
  'card.cvc.placeholder',
  // The code's name on cards, which Latvian and Russian forms write as it is.
  'card.cvc.compactPlaceholder',
  'scheme.VISA',
  'scheme.MASTERCARD',
  'scheme.AMEX',
  'scheme.MAESTRO',
];
const SAME_AS_ENGLISH: Readonly<Record<'lv' | 'ru', readonly string[]>> = {
  lv: [...BRANDS_AND_DIGITS, 'unit.KILOGRAM', 'unit.METER', 'unit.LITRE', 'unit.HOUR'],
  ru: BRANDS_AND_DIGITS,
};

describe('catalogs', () => {
  test('the registries hold exactly the three languages', () => {
    assert.deepEqual([...LANGUAGES], ['lv', 'en', 'ru']);
    assert.deepEqual(Object.keys(ELEMENT_MESSAGES).sort(), ['en', 'lv', 'ru']);
    assert.deepEqual(Object.keys(FRAME_MESSAGES).sort(), ['en', 'lv', 'ru']);
  });

  test("the element's texts are loading, the frame title and errors; the halves do not overlap", () => {
    const elementKeys = Object.keys(ELEMENT_MESSAGES.en);
    for (const key of elementKeys) assert.match(key, /^(frame\.title|loading\.text|error\.[A-Za-z]+)$/);
    for (const key of Object.keys(FRAME_MESSAGES.en)) assert.ok(!elementKeys.includes(key), key);
    for (const language of LANGUAGES) {
      assert.deepEqual(Object.keys(ELEMENT_MESSAGES[language]).sort(), [...elementKeys].sort());
      assert.deepEqual(Object.keys(FRAME_MESSAGES[language]).sort(), Object.keys(FRAME_MESSAGES.en).sort());
    }
    assert.equal(EN_KEYS.length, elementKeys.length + Object.keys(FRAME_MESSAGES.en).length);
    assert.ok(elementKeys.length >= 8 && elementKeys.length < 20, `${elementKeys.length}`);
  });

  for (const language of LANGUAGES) {
    test(`${language} has every key of en and no other, each a non-empty string`, () => {
      const catalog = MESSAGES[language];
      assert.deepEqual(Object.keys(catalog).sort(), EN_KEYS);
      for (const [key, text] of Object.entries(catalog)) {
        assert.equal(typeof text, 'string', key);
        assert.notEqual(text.trim(), '', `${language} ${key} is empty`);
        assert.equal(text, text.trim(), `${language} ${key} has surrounding spaces`);
      }
    });
  }

  for (const language of ['lv', 'ru'] as const) {
    test(`${language} uses the same placeholders as en for every key`, () => {
      for (const key of EN_KEYS as MessageKey[]) {
        assert.deepEqual(
          placeholdersOf(MESSAGES[language][key]).sort(),
          placeholdersOf(en[key]).sort(),
          `${language} ${key}`,
        );
      }
    });

    test(`${language} is translated: no English copies beyond brand names and unit symbols`, () => {
      const copies = (EN_KEYS as MessageKey[]).filter((key) => MESSAGES[language][key] === en[key]);
      assert.deepEqual(copies.sort(), [...SAME_AS_ENGLISH[language]].sort());
    });
  }

  test('Russian texts are written in Cyrillic', () => {
    for (const key of EN_KEYS as MessageKey[]) {
      if (SAME_AS_ENGLISH.ru.includes(key) || key === 'card.expiry.placeholder') continue;
      assert.match(ru[key], /[а-яё]/i, `ru ${key}`);
    }
    // The expiry placeholder uses Cyrillic letters too, not Latin look-alikes.
    assert.match(ru['card.expiry.placeholder'], /^[МГ]{2}\/[МГ]{2}$/u);
    assert.doesNotMatch(ru['card.expiry.placeholder'], /[A-Z]/);
  });

  test('Latvian texts carry their diacritics', () => {
    const withDiacritics = (EN_KEYS as MessageKey[]).filter((key) => /[āčēģīķļņšūž]/i.test(lv[key]));
    // Most Latvian sentences have at least one long vowel or softened consonant; a catalog typed without
    // them would fall far below this.
    assert.ok(withDiacritics.length > EN_KEYS.length * 0.6, `${withDiacritics.length} of ${EN_KEYS.length}`);
    assert.equal(lv['card.number.label'], 'Kartes numurs');
    assert.equal(lv['pay.button'], 'Maksāt {amount}');
  });

  test('the ellipsis is one character, in every language', () => {
    for (const language of LANGUAGES) {
      for (const [key, text] of Object.entries(MESSAGES[language])) {
        assert.doesNotMatch(text, /\.\.\./, `${language} ${key}`);
      }
    }
  });
});

describe('keys derived from other core modules', () => {
  const now = new Date('2026-03-15T12:00:00Z');
  const texts = (key: MessageKey) => LANGUAGES.map((language) => MESSAGES[language][key]);

  test('every card number refusal code has a text', () => {
    const codes = new Set(
      ['', '4111 x', '4111', '4111111111111112', '378282246310005']
        .map((input) => validateCardNumber(input, { acceptedSchemes: ['VISA'] }))
        .flatMap((check) => (check.valid ? [] : [check.code])),
    );
    assert.deepEqual([...codes].sort(), [
      'empty',
      'luhn_failed',
      'not_digits',
      'scheme_not_accepted',
      'wrong_length',
    ]);
    for (const code of codes) for (const text of texts(cardNumberErrorKey(code))) assert.ok(text);
  });

  test('every expiry refusal code has a text', () => {
    const codes = new Set(
      ['', 'x', '13/30', '01/20', '01/99']
        .map((input) => validateExpiry(input, now))
        .flatMap((check) => (check.valid ? [] : [check.code])),
    );
    assert.deepEqual([...codes].sort(), ['bad_month', 'empty', 'expired', 'malformed', 'too_far']);
    for (const code of codes) for (const text of texts(expiryErrorKey(code))) assert.ok(text);
  });

  test('every CVC refusal code has a text', () => {
    const codes = new Set(
      ['', 'ab', '12']
        .map((input) => validateCvc(input, 'VISA'))
        .flatMap((check) => (check.valid ? [] : [check.code])),
    );
    assert.deepEqual([...codes].sort(), ['empty', 'not_digits', 'wrong_length']);
    for (const code of codes) for (const text of texts(cvcErrorKey(code))) assert.ok(text);
  });

  test('every constraint refusal has a text that names the constraint', () => {
    const card = { scheme: 'MASTERCARD' as const, brand: 'MASTERCARD', issuer: 'SANDBOX BANK' };
    const checks = [
      checkCardConstraints(card, { paymentScheme: 'VISA' }),
      checkCardConstraints(card, { brand: 'VISA ELECTRON' }),
      checkCardConstraints(card, { issuer: 'Nordic Bank' }),
    ];
    for (const check of checks) {
      assert.equal(check.ok, false);
      if (check.ok) continue;
      for (const language of LANGUAGES) {
        const text = createTranslator(language)(constraintErrorKey(check.field), {
          expected: check.expected,
        });
        assert.ok(text.includes(check.expected), `${language} ${check.field}: ${text}`);
        assert.doesNotMatch(text, /\{expected\}/);
      }
    }
    assert.equal(
      createTranslator('en')('card.constraint.paymentScheme', { expected: 'VISA' }),
      'This order accepts only VISA cards.',
    );
  });

  test('every scheme and unit has a name', () => {
    for (const scheme of [...KNOWN_CARD_SCHEMES, 'UNKNOWN'] as CardScheme[]) {
      for (const text of texts(schemeNameKey(scheme))) assert.ok(text);
    }
    for (const unit of UNITS) {
      for (const language of LANGUAGES) {
        const text = createTranslator(language)(unitKey(unit), { count: '1,5' });
        assert.ok(text.includes('1,5'), `${language} ${unit}: ${text}`);
      }
    }
  });

  test('widget error codes map to shopper texts: a setup error to one unavailable text, unknown codes to the generic text', () => {
    const cases: Array<[string, MessageKey]> = [
      ['missing_widget_id', 'error.unavailable'],
      ['unknown_widget', 'error.unavailable'],
      ['invalid_order', 'error.unavailable'],
      ['signature_invalid', 'error.unavailable'],
      ['certificate_revoked', 'error.unavailable'],
      ['origin_not_allowed', 'error.unavailable'],
      ['order_already_paid', 'error.unavailable'],
      ['order_rejected', 'error.orderRejected'],
      ['gateway_unreachable', 'error.gatewayUnreachable'],
      ['frame_timeout', 'error.frameTimeout'],
      ['internal_error', 'error.generic'],
      ['toString', 'error.generic'],
      ['', 'error.generic'],
    ];
    for (const [code, key] of cases) assert.equal(widgetErrorKey(code), key, code);
    assert.equal(widgetErrorKey('signature_refused'), 'error.generic', 'the old name of signature_invalid');
  });

  test("the element's texts give the shopper no developer advice", () => {
    for (const language of LANGUAGES) {
      const t = createElementTranslator(language);
      for (const key of Object.keys(ELEMENT_MESSAGES.en) as ElementMessageKey[]) {
        assert.doesNotMatch(t(key), /attribute|atribūt|атрибут|widget-id|signature|\{/, `${language} ${key}`);
      }
    }
  });

  test('failure reasons map any code, unknown ones to the generic sentence', () => {
    for (const reason of PAYMENT_FAILURE_REASONS) {
      assert.equal(failureReasonKey(reason), `status.failed.reason.${reason}`);
    }
    assert.equal(failureReasonKey('card_declined'), 'status.failed.reason.card_declined');
    assert.equal(failureReasonKey('something_new'), 'status.failed.reason.unknown');
    assert.equal(failureReasonKey(undefined), 'status.failed.reason.unknown');
    assert.equal(failureReasonKey(null), 'status.failed.reason.unknown');
    assert.equal(failureReasonKey('toString'), 'status.failed.reason.unknown');
  });
});

describe('formatMessage', () => {
  test('fills placeholders, repeated ones too, and leaves unknown ones visible', () => {
    assert.equal(formatMessage('Pay {amount}', { amount: '€12.50' }), 'Pay €12.50');
    assert.equal(formatMessage('{a} and {a}', { a: 'x' }), 'x and x');
    assert.equal(formatMessage('Pay {amount} by {date}', { amount: '€1' }), 'Pay €1 by {date}');
    assert.equal(formatMessage('{count} kg', { count: 1.5 }), '1.5 kg');
    assert.equal(formatMessage('{n}', { n: 0 }), '0');
    assert.equal(formatMessage('Pay {amount}'), 'Pay {amount}');
  });

  test('reads only own parameters', () => {
    assert.equal(formatMessage('{toString} {constructor}', {}), '{toString} {constructor}');
    assert.equal(formatMessage('{__proto__}', JSON.parse('{"__proto__": "p"}')), 'p');
  });

  test('does not expand placeholders inside parameter values', () => {
    assert.equal(formatMessage('{a} {b}', { a: '{b}', b: 'B' }), '{b} B');
    assert.equal(formatMessage('Hi {name}', { name: '$& $1 $$' }), 'Hi $& $1 $$');
  });

  test('leaves text that is no placeholder alone', () => {
    for (const template of ['{}', '{ a }', '{1a}', '{a-b}', '{{a}}', 'a {b']) {
      assert.equal(
        formatMessage(template, { a: 'X', b: 'X', '1a': 'X', 'a-b': 'X' }),
        template.replace('{a}', 'X'),
      );
    }
  });

  test('never throws, and a template without placeholders comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer())),
        (template, params) => {
          const out = formatMessage(template, params);
          assert.equal(typeof out, 'string');
          if (placeholdersOf(template).length === 0) assert.equal(out, template);
        },
      ),
    );
  });

  test('with every placeholder given, none is left', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom('{a}', '{b}', '{c_1}'),
            fc.string({ unit: fc.constantFrom('x', ' ', '.') }),
          ),
        ),
        (parts) => {
          const out = formatMessage(parts.join(''), { a: 'A', b: 'B', c_1: 'C' });
          assert.deepEqual(placeholdersOf(out), []);
        },
      ),
    );
  });
});

describe('resolveLanguage', () => {
  test('the attribute wins when we speak it, in any case and with a region', () => {
    assert.equal(resolveLanguage('ru', 'lv', 'en'), 'ru');
    assert.equal(resolveLanguage('LV', 'ru', 'en'), 'lv');
    assert.equal(resolveLanguage('lv-LV', 'ru', 'en'), 'lv');
    assert.equal(resolveLanguage('ru_RU', 'lv', 'en'), 'ru');
    assert.equal(resolveLanguage(' en-GB ', 'lv', 'ru'), 'en');
    assert.equal(resolveLanguage('en-Latn-US', 'lv', 'ru'), 'en');
  });

  test('then the page language, then the merchant default', () => {
    assert.equal(resolveLanguage(null, 'ru-RU', 'lv'), 'ru');
    assert.equal(resolveLanguage(undefined, 'EN', 'lv'), 'en');
    assert.equal(resolveLanguage('', 'ru', 'lv'), 'ru');
    assert.equal(resolveLanguage('de', 'ru', 'lv'), 'ru');
    assert.equal(resolveLanguage('de', 'fr-FR', 'lv'), 'lv');
    assert.equal(resolveLanguage(null, null, 'en'), 'en');
    assert.equal(resolveLanguage(undefined, '', 'ru'), 'ru');
  });

  test('only the primary subtag counts: look-alikes are not our languages', () => {
    for (const tag of ['lva', 'ens', 'rus', 'l', '-lv', 'x-lv', 'lv.', 'lvLV']) {
      assert.equal(normalizeLanguage(tag), undefined, tag);
      assert.equal(resolveLanguage(tag, null, 'en'), 'en', tag);
    }
  });

  test('any input resolves to one of the languages', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string()),
        fc.option(fc.string()),
        fc.constantFrom(...LANGUAGES),
        (a, b, d) => {
          assert.ok(LANGUAGES.includes(resolveLanguage(a, b, d)));
        },
      ),
    );
  });
});

describe('createTranslator', () => {
  test('speaks each language', () => {
    assert.equal(createTranslator('en')('pay.button', { amount: '€5.00' }), 'Pay €5.00');
    assert.equal(createTranslator('lv')('pay.button', { amount: '5,00 €' }), 'Maksāt 5,00 €');
    assert.equal(createTranslator('ru')('pay.button', { amount: '5,00 €' }), 'Оплатить 5,00 €');
    assert.equal(createTranslator('lv')('status.backToMerchant'), 'Atpakaļ uz veikalu');
  });

  test('merchant overrides win, with placeholders, only for their keys', () => {
    const t = createTranslator('lv', {
      'pay.button': 'Apmaksāt {amount} tagad',
      'summary.title': 'Jūsu grozs',
    });
    assert.equal(t('pay.button', { amount: '9,99 €' }), 'Apmaksāt 9,99 € tagad');
    assert.equal(t('summary.title'), 'Jūsu grozs');
    assert.equal(t('summary.total'), 'Kopā');
  });

  test('unknown keys, non-string values and empty texts are ignored', () => {
    const overrides = JSON.parse(
      '{"pay.buton": "typo", "toString": "x", "__proto__": "y", "summary.total": 5, "summary.title": "  ", "pay.cancel": "Stop"}',
    );
    const t = createTranslator('en', overrides);
    assert.equal(t('summary.total'), 'Total');
    assert.equal(t('summary.title'), 'Order summary');
    assert.equal(t('pay.button', { amount: '€1' }), 'Pay €1');
    assert.equal(t('pay.cancel'), 'Stop');
    assert.equal(createTranslator('en', null)('summary.total'), 'Total');
  });

  test('later changes to the overrides object do not change texts', () => {
    const overrides: Record<string, string> = { 'summary.total': 'Sum' };
    const t = createTranslator('en', overrides);
    overrides['summary.total'] = 'Changed';
    overrides['summary.shipping'] = 'Changed';
    assert.equal(t('summary.total'), 'Sum');
    assert.equal(t('summary.shipping'), 'Shipping');
  });

  test('an unknown language falls back to English rather than throwing', () => {
    assert.equal(createTranslator('de' as Language)('summary.total'), 'Total');
    assert.equal(createElementTranslator('de' as Language)('error.retry'), 'Try again');
  });

  test('a key from untyped code comes back as itself rather than undefined', () => {
    const t = createTranslator('ru');
    assert.equal(t('no.such.key' as MessageKey), 'no.such.key');
    assert.equal(t('toString' as MessageKey), 'toString');
  });
});

describe('createElementTranslator', () => {
  test("speaks the element's texts in each language, with overrides", () => {
    assert.equal(createElementTranslator('ru')('loading.text'), 'Загрузка формы оплаты…');
    assert.equal(
      createElementTranslator('lv')('error.unavailable'),
      'Veikals šobrīd nevar pieņemt maksājumus. Lūdzu, mēģiniet vēlreiz vēlāk.',
    );
    const t = createElementTranslator('en', {
      'error.title': 'Card payments are resting',
      'pay.button': 'Go',
    });
    assert.equal(t('error.title'), 'Card payments are resting');
  });

  test("does not reach the frame's texts", () => {
    const t = createElementTranslator('en', { 'pay.button': 'Go' });
    assert.equal(t('pay.button' as never), 'pay.button');
    assert.equal(isElementMessageKey('pay.button'), false);
    assert.equal(isElementMessageKey('error.generic'), true);
    assert.equal(isElementMessageKey('constructor'), false);
  });
});

describe('createFrameTranslator', () => {
  test('speaks the catalog it is given, exactly as createTranslator does for the frame’s texts', () => {
    for (const language of LANGUAGES) {
      const t = createFrameTranslator(FRAME_MESSAGES[language]);
      const full = createTranslator(language);
      for (const key of Object.keys(FRAME_MESSAGES.en) as Array<keyof typeof FRAME_MESSAGES.en>) {
        assert.equal(
          t(key, { amount: '1', reason: 'r', count: '2' }),
          full(key, { amount: '1', reason: 'r', count: '2' }),
        );
      }
    }
    assert.equal(
      createFrameTranslator(FRAME_MESSAGES.lv)('pay.button', { amount: '5,00 €' }),
      'Maksāt 5,00 €',
    );
  });

  test('takes overrides of the catalog’s keys only, with the same rules', () => {
    const overrides = JSON.parse(
      '{"pay.button": "Buy {amount}", "error.title": "x", "loading.text": "y", "toString": "z", "pay.cancel": " ", "summary.total": 5}',
    );
    const t = createFrameTranslator(FRAME_MESSAGES.en, overrides);
    assert.equal(t('pay.button', { amount: '€1' }), 'Buy €1');
    assert.equal(t('pay.cancel'), 'Cancel payment');
    assert.equal(t('summary.total'), 'Total');
    // The element's texts are not in a frame catalog: their keys come back as themselves.
    assert.equal(t('error.title' as never), 'error.title');
    assert.equal(t('toString' as never), 'toString');
    overrides['pay.button'] = 'Changed {amount}';
    assert.equal(t('pay.button', { amount: '€1' }), 'Buy €1');
  });

  test('the keys derived from other modules name frame texts', () => {
    const frameKeys = Object.keys(FRAME_MESSAGES.en);
    for (const key of [
      cardNumberErrorKey('luhn_failed'),
      expiryErrorKey('expired'),
      cvcErrorKey('wrong_length'),
      constraintErrorKey('brand'),
      schemeNameKey('VISA'),
      unitKey('KILOGRAM'),
      failureReasonKey('card_declined'),
      failureReasonKey('something_new'),
    ]) {
      assert.ok(frameKeys.includes(key), key);
    }
  });

  test('the frame has a text of its own for a refusal no field shows', () => {
    for (const language of LANGUAGES) {
      assert.equal(FRAME_MESSAGES[language]['pay.error'], ELEMENT_MESSAGES[language]['error.generic']);
    }
  });
});

describe('validateOverrides', () => {
  test('names the keys that will be ignored', () => {
    const overrides = JSON.parse(
      '{"pay.button": "Go {amount}", "pay.buton": "typo", "__proto__": "x", "constructor": "y", "summary.total": 1}',
    );
    assert.deepEqual(validateOverrides(overrides), [
      'pay.buton',
      '__proto__',
      'constructor',
      'summary.total',
    ]);
  });

  test('has nothing to say about good overrides or none', () => {
    assert.deepEqual(validateOverrides({ 'pay.button': 'Go', 'status.retry': 'Again' }), []);
    assert.deepEqual(validateOverrides({}), []);
    assert.deepEqual(validateOverrides(undefined), []);
    assert.deepEqual(validateOverrides(null), []);
  });

  test('isMessageKey knows only own keys', () => {
    assert.equal(isMessageKey('pay.button'), true);
    assert.equal(isMessageKey('status.failed.reason.unknown'), true);
    assert.equal(isMessageKey('hasOwnProperty'), false);
    assert.equal(isMessageKey(''), false);
  });
});

describe('localeFor', () => {
  test('gives an Intl locale per language that formats money the local way', () => {
    assert.equal(localeFor('lv'), 'lv-LV');
    assert.equal(localeFor('en'), 'en-GB');
    assert.equal(localeFor('ru'), 'ru-RU');
    const money = (language: 'lv' | 'en' | 'ru') =>
      new Intl.NumberFormat(localeFor(language), { style: 'currency', currency: 'EUR' }).format(12345.5);
    assert.equal(money('en'), '€12,345.50');
    assert.match(money('lv'), /^12\s345,50\s€$/u);
    assert.match(money('ru'), /^12\s345,50\s€$/u);
  });
});
