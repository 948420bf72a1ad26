import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type CardNumberOptions,
  type CardScheme,
  type ConstraintCheck,
  type ConstraintRefusal,
  type CvcCheck,
  cardNumberLengths,
  cardSchemeOf,
  checkCardConstraints,
  type ExpiryCheck,
  formatCardNumber,
  formatExpiryInput,
  KNOWN_CARD_SCHEMES,
  luhnCheckDigit,
  luhnValid,
  normalizeCardNumber,
  parseExpiry,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../../src/core/card.js';
import {
  cardNumberMessage,
  constraintMessage,
  cvcMessage,
  expiryMessage,
} from '../../src/core/card-messages.js';

const digitString = (minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength });

const TEST_CARDS: ReadonlyArray<[string, CardScheme]> = [
  ['4111111111111111', 'VISA'],
  ['5555555555554444', 'MASTERCARD'],
  ['2223003122003222', 'MASTERCARD'],
  ['378282246310005', 'AMEX'],
  ['4000000000000002', 'VISA'],
  ['4000000000009995', 'VISA'],
  ['4000000000003220', 'VISA'],
  ['4000000000000119', 'VISA'],
  ['6759649826438453', 'MAESTRO'],
  ['5018000000000009', 'MAESTRO'],
];

describe('luhn', () => {
  test('known numbers pass and their neighbours fail', () => {
    assert.equal(luhnValid('79927398713'), true);
    assert.equal(luhnValid('79927398710'), false);
    assert.equal(luhnValid('4111111111111111'), true);
    assert.equal(luhnValid('4111111111111112'), false);
    assert.equal(luhnValid('0'), true);
    assert.equal(luhnValid('18'), true);
    assert.equal(luhnCheckDigit('7992739871'), '3');
    assert.equal(luhnCheckDigit('411111111111111'), '1');
    assert.equal(luhnCheckDigit(''), '0');
  });

  test('anything but a digit string fails', () => {
    assert.equal(luhnValid(''), false);
    assert.equal(luhnValid('4111 1111 1111 1111'), false);
    assert.equal(luhnValid('411111111111111x'), false);
    assert.equal(luhnValid('-4111111111111111'), false);
    assert.throws(() => luhnCheckDigit('12a'), RangeError);
  });

  test('property: digits with their check digit appended pass', () => {
    fc.assert(
      fc.property(digitString(0, 30), (partial) => {
        assert.equal(luhnValid(partial + luhnCheckDigit(partial)), true);
      }),
    );
  });

  test('property: exactly one wrong check digit of the ten', () => {
    fc.assert(
      fc.property(digitString(1, 25), (partial) => {
        const passing = [...'0123456789'].filter((digit) => luhnValid(partial + digit));
        assert.deepEqual(passing, [luhnCheckDigit(partial)]);
      }),
    );
  });

  test('property: changing any one digit of a valid number breaks it', () => {
    fc.assert(
      fc.property(
        digitString(1, 25),
        fc.nat(),
        fc.integer({ min: 1, max: 9 }),
        (partial, position, shift) => {
          const valid = partial + luhnCheckDigit(partial);
          const index = position % valid.length;
          const changed = String((Number(valid[index]) + shift) % 10);
          const broken = valid.slice(0, index) + changed + valid.slice(index + 1);
          assert.equal(luhnValid(broken), false, `${valid} -> ${broken}`);
        },
      ),
    );
  });
});

describe('normalizeCardNumber', () => {
  test('strips spaces and dashes and keeps everything else', () => {
    assert.equal(normalizeCardNumber(' 4111 1111-1111\t1111 '), '4111111111111111');
    assert.equal(normalizeCardNumber('4111--1111'), '41111111');
    assert.equal(normalizeCardNumber('4111.1111'), '4111.1111');
    assert.equal(normalizeCardNumber('4111 111O'), '4111111O');
    assert.equal(normalizeCardNumber(''), '');
  });
});

describe('cardSchemeOf', () => {
  test('known test numbers get their scheme', () => {
    for (const [number, scheme] of TEST_CARDS) assert.equal(cardSchemeOf(number), scheme, number);
    assert.equal(cardSchemeOf('4111 1111 1111 1111'), 'VISA');
    assert.equal(cardSchemeOf('3782-822463-10005'), 'AMEX');
  });

  test('range edges', () => {
    const cases: Array<[string, CardScheme]> = [
      ['2220999999999999', 'UNKNOWN'],
      ['2221000000000000', 'MASTERCARD'],
      ['2720999999999999', 'MASTERCARD'],
      ['2721000000000000', 'UNKNOWN'],
      ['5000000000000000', 'MAESTRO'],
      ['5100000000000000', 'MASTERCARD'],
      ['5599999999999999', 'MASTERCARD'],
      ['5600000000000000', 'MAESTRO'],
      ['6999999999999999', 'MAESTRO'],
      ['3400000000000000', 'AMEX'],
      ['3700000000000000', 'AMEX'],
      ['3500000000000000', 'UNKNOWN'],
      ['3000000000000000', 'UNKNOWN'],
      ['1000000000000000', 'UNKNOWN'],
      ['7000000000000000', 'UNKNOWN'],
      ['9000000000000000', 'UNKNOWN'],
      ['0000000000000000', 'UNKNOWN'],
    ];
    for (const [number, scheme] of cases) assert.equal(cardSchemeOf(number), scheme, number);
  });

  test('a partial number is UNKNOWN until its prefix decides', () => {
    const cases: Array<[string, CardScheme]> = [
      ['', 'UNKNOWN'],
      ['4', 'VISA'],
      ['5', 'UNKNOWN'],
      ['50', 'MAESTRO'],
      ['51', 'MASTERCARD'],
      ['56', 'MAESTRO'],
      ['6', 'MAESTRO'],
      ['3', 'UNKNOWN'],
      ['34', 'AMEX'],
      ['2', 'UNKNOWN'],
      ['22', 'UNKNOWN'],
      ['222', 'UNKNOWN'],
      ['2221', 'MASTERCARD'],
      ['223', 'MASTERCARD'],
      ['23', 'MASTERCARD'],
      ['26', 'MASTERCARD'],
      ['27', 'UNKNOWN'],
      ['272', 'UNKNOWN'],
      ['2720', 'MASTERCARD'],
      ['2721', 'UNKNOWN'],
      ['28', 'UNKNOWN'],
    ];
    for (const [prefix, scheme] of cases) assert.equal(cardSchemeOf(prefix), scheme, JSON.stringify(prefix));
  });

  test('only the leading digits count, so junk after them does not change the scheme', () => {
    assert.equal(cardSchemeOf('4x'), 'VISA');
    assert.equal(cardSchemeOf('x4'), 'UNKNOWN');
  });

  test('property: once a prefix decides a scheme, typing more never changes it', () => {
    fc.assert(
      fc.property(digitString(1, 8), digitString(0, 11), (prefix, rest) => {
        const early = cardSchemeOf(prefix);
        if (early !== 'UNKNOWN') assert.equal(cardSchemeOf(prefix + rest), early);
      }),
    );
  });

  test('property: a whole number has a scheme exactly when its first four digits decide one', () => {
    fc.assert(
      fc.property(digitString(4, 19), (number) => {
        assert.equal(cardSchemeOf(number), cardSchemeOf(number.slice(0, 4)));
      }),
    );
  });
});

describe('formatCardNumber', () => {
  test('groups of 4, American Express 4-6-5', () => {
    assert.equal(formatCardNumber('4111111111111111'), '4111 1111 1111 1111');
    assert.equal(formatCardNumber('378282246310005'), '3782 822463 10005');
    assert.equal(formatCardNumber('4111111111111111111'), '4111 1111 1111 1111 111');
    assert.equal(formatCardNumber('6759649826438453'), '6759 6498 2643 8453');
  });

  test('as typed: partial groups, no trailing space, non-digits dropped', () => {
    assert.equal(formatCardNumber(''), '');
    assert.equal(formatCardNumber('4'), '4');
    assert.equal(formatCardNumber('4111'), '4111');
    assert.equal(formatCardNumber('41111'), '4111 1');
    assert.equal(formatCardNumber('4111 1'), '4111 1');
    assert.equal(formatCardNumber('37828'), '3782 8');
    assert.equal(formatCardNumber('3782822463'), '3782 822463');
    assert.equal(formatCardNumber('37828224631'), '3782 822463 1');
    assert.equal(formatCardNumber('4111-11a11'), '4111 1111');
  });

  test("capped at the scheme's longest number", () => {
    assert.equal(formatCardNumber('55555555555544449'), '5555 5555 5555 4444');
    assert.equal(formatCardNumber('3782822463100059'), '3782 822463 10005');
    assert.equal(formatCardNumber('41111111111111111111'), '4111 1111 1111 1111 111');
    assert.equal(formatCardNumber('99999999999999999999'), '9999 9999 9999 9999 999');
  });

  test('a given scheme wins over the one the digits suggest', () => {
    assert.equal(formatCardNumber('3782', 'VISA'), '3782');
    assert.equal(formatCardNumber('4111111111111111', 'AMEX'), '4111 111111 11111');
  });

  test('property: format then normalize gives the digits back', () => {
    fc.assert(
      fc.property(digitString(0, 19), (digits) => {
        const max = cardNumberLengths(cardSchemeOf(digits)).at(-1)!;
        assert.equal(normalizeCardNumber(formatCardNumber(digits)), digits.slice(0, max));
      }),
    );
  });

  test('property: formatting is idempotent', () => {
    fc.assert(
      fc.property(digitString(0, 22), (digits) => {
        const once = formatCardNumber(digits);
        assert.equal(formatCardNumber(once), once);
      }),
    );
  });
});

describe('validateCardNumber', () => {
  test('the test cards are valid, with their scheme and bare digits', () => {
    for (const [number, scheme] of TEST_CARDS) {
      assert.deepEqual(validateCardNumber(number), { valid: true, number, scheme });
      assert.deepEqual(validateCardNumber(formatCardNumber(number)), { valid: true, number, scheme });
    }
  });

  test('empty, not digits', () => {
    assert.equal(codeOf(validateCardNumber('')), 'empty');
    assert.equal(codeOf(validateCardNumber('  - ')), 'empty');
    assert.equal(codeOf(validateCardNumber('4111 1111 1111 111l')), 'not_digits');
    assert.equal(codeOf(validateCardNumber('4111.1111.1111.1111')), 'not_digits');
    assert.equal(codeOf(validateCardNumber('４１１１１１１１１１１１１１１１')), 'not_digits');
  });

  test('wrong length names the lengths the scheme has', () => {
    assert.equal(codeOf(validateCardNumber('411111111111111')), 'wrong_length');
    assert.match(
      numberMessage('411111111111111'),
      /A Visa card number has 13, 16 or 19 digits; this one has 15/,
    );
    assert.match(
      numberMessage('3782822463100050'),
      /American Express card number has 15 digits; this one has 16/,
    );
    assert.match(numberMessage('2221 0000'), /Mastercard card number has 16 digits/);
    assert.match(numberMessage('5018 0000'), /Maestro card number has 12 to 19 digits/);
    assert.match(
      numberMessage('9999', { acceptedSchemes: ['UNKNOWN'] }),
      /A card number has 12 to 19 digits; this one has 4/,
    );
    // A 19-digit Visa is fine when its check digit is right.
    const visa19 = '411111111111111111';
    assert.equal(validateCardNumber(visa19 + luhnCheckDigit(visa19)).valid, true);
  });

  test('a Luhn failure asks to check for typos', () => {
    assert.equal(codeOf(validateCardNumber('4111 1111 1111 1112')), 'luhn_failed');
    assert.match(numberMessage('4111 1111 1111 1112'), /check it for typos/);
  });

  test('a known scheme the merchant does not take is named at once, even before the number is whole', () => {
    const visaOnly = { acceptedSchemes: ['VISA'] as CardScheme[] };
    const whole = validateCardNumber('5555555555554444', visaOnly);
    assert.equal(codeOf(whole), 'scheme_not_accepted');
    assert.equal(
      numberMessage('5555555555554444', visaOnly),
      'This is a Mastercard card; this payment takes Visa cards. Use another card.',
    );
    assert.equal(codeOf(validateCardNumber('3782', visaOnly)), 'scheme_not_accepted');
    assert.equal(codeOf(validateCardNumber('4111111111111111', visaOnly)), 'valid');
    const two = numberMessage('378282246310005', { acceptedSchemes: ['VISA', 'MASTERCARD', 'MAESTRO'] });
    assert.match(two, /takes Visa, Mastercard and Maestro cards/);
  });

  test('a number of no known scheme is refused for its scheme only once it is whole and passes Luhn', () => {
    const unknown = '999999999999999';
    const valid = unknown + luhnCheckDigit(unknown);
    assert.equal(codeOf(validateCardNumber('9999 9999')), 'wrong_length');
    const broken = unknown + ((Number(luhnCheckDigit(unknown)) + 1) % 10);
    assert.equal(codeOf(validateCardNumber(broken)), 'luhn_failed');
    const refused = validateCardNumber(valid);
    assert.equal(codeOf(refused), 'scheme_not_accepted');
    assert.match(
      numberMessage(valid),
      /scheme we do not recognise; this payment takes Visa, Mastercard, American Express and Maestro/,
    );
    assert.deepEqual(validateCardNumber(valid, { acceptedSchemes: ['UNKNOWN'] }), {
      valid: true,
      number: valid,
      scheme: 'UNKNOWN',
    });
    assert.match(numberMessage('4111111111111111', { acceptedSchemes: [] }), /takes no cards/);
  });

  test('by default every known scheme is taken', () => {
    assert.deepEqual([...KNOWN_CARD_SCHEMES].sort(), ['AMEX', 'MAESTRO', 'MASTERCARD', 'VISA']);
  });

  test('property: a known-scheme number of the right length is valid exactly when Luhn passes', () => {
    const known = fc.constantFrom('4', '51', '55', '2221', '2720', '34', '37', '50', '6759');
    fc.assert(
      fc.property(known, digitString(0, 20), (prefix, rest) => {
        const scheme = cardSchemeOf(prefix);
        const length = cardNumberLengths(scheme)[0]!;
        const number = (prefix + rest).padEnd(length, '0').slice(0, length);
        const result = validateCardNumber(number);
        if (luhnValid(number)) assert.deepEqual(result, { valid: true, number, scheme });
        else assert.equal(codeOf(result), 'luhn_failed');
      }),
    );
  });

  test('property: no message repeats the digits typed', () => {
    fc.assert(
      fc.property(digitString(6, 22), fc.subarray([...KNOWN_CARD_SCHEMES]), (digits, acceptedSchemes) => {
        const result = validateCardNumber(digits, { acceptedSchemes });
        if (result.valid) return;
        const message = cardNumberMessage(result.code, digits, { acceptedSchemes });
        assert.ok(!message.includes(digits.slice(0, 6)), message);
      }),
    );
  });
});

describe('parseExpiry', () => {
  test('reads the shapes people and autofill write', () => {
    assert.deepEqual(parseExpiry('04/27'), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry('04 / 27'), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry(' 0427 '), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry('04/2027'), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry('042027'), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry('4/27'), { month: 4, year: 2027 });
    assert.deepEqual(parseExpiry('12/99'), { month: 12, year: 2099 });
    assert.deepEqual(parseExpiry('13/27'), { month: 13, year: 2027 });
  });

  test('refuses other shapes', () => {
    for (const input of [
      '',
      '0',
      '04',
      '04/',
      '/27',
      '427',
      '04/2',
      '04/202',
      '04-27',
      '04.27',
      'ab/cd',
      '04/27/1',
      '04 27',
    ]) {
      assert.equal(parseExpiry(input), undefined, JSON.stringify(input));
    }
  });
});

describe('validateExpiry', () => {
  const midMonth = new Date('2026-04-15T10:00:00Z');

  test('the current month and later are valid; earlier months are expired', () => {
    assert.deepEqual(validateExpiry('04/26', midMonth), { valid: true, month: 4, year: 2026 });
    assert.deepEqual(validateExpiry('05/26', midMonth), { valid: true, month: 5, year: 2026 });
    assert.deepEqual(validateExpiry('01/27', midMonth), { valid: true, month: 1, year: 2027 });
    assert.equal(codeOf(validateExpiry('03/26', midMonth)), 'expired');
    assert.equal(codeOf(validateExpiry('12/25', midMonth)), 'expired');
    assert.equal(codeOf(validateExpiry('04/25', midMonth)), 'expired');
  });

  test('a card is good through the last day of its month, wherever on Earth that day still is', () => {
    // 1 April 11:59:59 UTC is still 31 March at UTC-12.
    assert.equal(validateExpiry('03/26', new Date('2026-04-01T11:59:59Z')).valid, true);
    assert.equal(codeOf(validateExpiry('03/26', new Date('2026-04-01T12:00:00Z'))), 'expired');
    assert.equal(validateExpiry('03/26', new Date('2026-03-31T23:59:59Z')).valid, true);
    // Year boundary: a 12/25 card on New Year's Day.
    assert.equal(validateExpiry('12/25', new Date('2026-01-01T00:00:00Z')).valid, true);
    assert.equal(validateExpiry('12/25', new Date('2026-01-01T11:59:59.999Z')).valid, true);
    assert.equal(codeOf(validateExpiry('12/25', new Date('2026-01-01T12:00:00Z'))), 'expired');
    assert.equal(validateExpiry('01/26', new Date('2026-01-01T12:00:00Z')).valid, true);
    // Leap day.
    assert.equal(validateExpiry('02/28', new Date('2028-02-29T23:00:00Z')).valid, true);
    assert.equal(codeOf(validateExpiry('02/28', new Date('2028-03-01T12:00:00Z'))), 'expired');
  });

  test('more than 20 years ahead is too far', () => {
    assert.equal(validateExpiry('04/46', midMonth).valid, true);
    assert.equal(validateExpiry('04/2046', midMonth).valid, true);
    assert.equal(codeOf(validateExpiry('05/46', midMonth)), 'too_far');
    assert.equal(codeOf(validateExpiry('01/2099', midMonth)), 'too_far');
    assert.equal(validateExpiry('12/45', new Date('2025-12-31T23:00:00Z')).valid, true);
    assert.equal(codeOf(validateExpiry('01/46', new Date('2025-12-31T23:00:00Z'))), 'too_far');
  });

  test('empty, malformed, bad month', () => {
    assert.equal(codeOf(validateExpiry('', midMonth)), 'empty');
    assert.equal(codeOf(validateExpiry('   ', midMonth)), 'empty');
    assert.equal(codeOf(validateExpiry('4/2', midMonth)), 'malformed');
    assert.match(expiryMessageOf(validateExpiry('April 2027', midMonth)), /MM\/YY/);
    assert.equal(codeOf(validateExpiry('13/27', midMonth)), 'bad_month');
    assert.equal(codeOf(validateExpiry('00/27', midMonth)), 'bad_month');
    assert.equal(codeOf(validateExpiry('0027', midMonth)), 'bad_month');
  });

  test('an invalid now is a programming error', () => {
    assert.throws(() => validateExpiry('04/27', new Date(Number.NaN)), RangeError);
  });

  test('property: a date is expired, valid or too far by its distance in months from now', () => {
    const now = new Date('2030-06-10T00:00:00Z');
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2099 }), (month, year) => {
        const distance = (year - 2030) * 12 + (month - 6);
        const expected = distance < 0 ? 'expired' : distance > 240 ? 'too_far' : 'valid';
        const input = `${String(month).padStart(2, '0')}/${String(year).slice(2)}`;
        assert.equal(codeOf(validateExpiry(input, now)), expected, input);
      }),
    );
  });
});

describe('formatExpiryInput', () => {
  test('inserts the slash once the year starts', () => {
    const typed: Array<[string, string]> = [
      ['', ''],
      ['0', '0'],
      ['1', '1'],
      ['12', '12'],
      ['122', '12/2'],
      ['1226', '12/26'],
      ['12/26', '12/26'],
      ['12 / 26', '12/26'],
      ['12/2', '12/2'],
      ['122026', '12/2026'],
      ['12/2026', '12/2026'],
      ['1220261', '12/2026'],
      ['12/20261', '12/2026'],
    ];
    for (const [input, shown] of typed) assert.equal(formatExpiryInput(input), shown, JSON.stringify(input));
  });

  test('pads a month that can only have one digit, and keeps a typed slash', () => {
    assert.equal(formatExpiryInput('4'), '04');
    assert.equal(formatExpiryInput('42'), '04/2');
    assert.equal(formatExpiryInput('13'), '01/3');
    assert.equal(formatExpiryInput('1/'), '01/');
    assert.equal(formatExpiryInput('1/2'), '01/2');
    assert.equal(formatExpiryInput('12/'), '12/');
    assert.equal(formatExpiryInput('/'), '');
    assert.equal(formatExpiryInput('/26'), '02/6');
    assert.equal(formatExpiryInput('a1b2c'), '12');
  });

  test('property: whatever is typed, the result is a fixed point', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789/ a'), maxLength: 10 }), (input) => {
        const shown = formatExpiryInput(input);
        assert.equal(formatExpiryInput(shown), shown, JSON.stringify(input));
        assert.match(shown, /^(\d{0,2}|\d{2}\/\d{0,4})$/);
      }),
    );
  });

  test('property: a formatted MMYY parses to the same date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 99 }), (month, yy) => {
        const typed = String(month).padStart(2, '0') + String(yy).padStart(2, '0');
        assert.deepEqual(parseExpiry(formatExpiryInput(typed)), { month, year: 2000 + yy });
      }),
    );
  });
});

describe('validateCvc', () => {
  test('3 digits, 4 for American Express', () => {
    assert.deepEqual(validateCvc('123', 'VISA'), { valid: true, cvc: '123' });
    assert.deepEqual(validateCvc(' 123 ', 'MASTERCARD'), { valid: true, cvc: '123' });
    assert.deepEqual(validateCvc('1234', 'AMEX'), { valid: true, cvc: '1234' });
    assert.equal(codeOf(validateCvc('123', 'AMEX')), 'wrong_length');
    assert.equal(codeOf(validateCvc('1234', 'VISA')), 'wrong_length');
    assert.equal(codeOf(validateCvc('12', 'MAESTRO')), 'wrong_length');
    assert.equal(validateCvc('123', 'UNKNOWN').valid, true);
    assert.equal(validateCvc('1234', 'UNKNOWN').valid, true);
  });

  test('empty and not digits; messages never repeat the code', () => {
    assert.equal(codeOf(validateCvc('', 'VISA')), 'empty');
    assert.equal(codeOf(validateCvc('  ', 'VISA')), 'empty');
    assert.equal(codeOf(validateCvc('12a', 'VISA')), 'not_digits');
    assert.equal(codeOf(validateCvc('1 23', 'VISA')), 'not_digits');
    const amex = cvcMessageOf(validateCvc('987', 'AMEX'), 'AMEX');
    assert.match(amex, /4 digits; find it on the front/);
    assert.ok(!amex.includes('987'));
  });
});

describe('checkCardConstraints', () => {
  test('no constraints: any card', () => {
    assert.deepEqual(checkCardConstraints({ scheme: 'UNKNOWN' }, {}), { ok: true });
    assert.deepEqual(checkCardConstraints({ scheme: 'VISA' }, { brand: ' ', issuer: '' }), { ok: true });
  });

  test('payment scheme compares with the scheme, case-insensitively', () => {
    assert.deepEqual(checkCardConstraints({ scheme: 'VISA' }, { paymentScheme: 'visa' }), { ok: true });
    assert.deepEqual(checkCardConstraints({ scheme: 'VISA' }, { paymentScheme: 'VISA' }), { ok: true });
    assert.deepEqual(explained(checkCardConstraints({ scheme: 'MASTERCARD' }, { paymentScheme: 'VISA' })), {
      ok: false,
      field: 'paymentScheme',
      expected: 'VISA',
      actual: 'MASTERCARD',
      message: 'This order accepts only VISA cards; this card is MASTERCARD.',
    });
    const unknown = checkCardConstraints({ scheme: 'UNKNOWN' }, { paymentScheme: 'Visa' });
    assert.deepEqual(explained(unknown), {
      ok: false,
      field: 'paymentScheme',
      expected: 'Visa',
      message: "This order accepts only VISA cards; this card's scheme is unknown.",
    });
  });

  test('a Maestro card is of the Mastercard scheme', () => {
    assert.deepEqual(checkCardConstraints({ scheme: 'MAESTRO' }, { paymentScheme: 'MASTERCARD' }), {
      ok: true,
    });
    assert.deepEqual(checkCardConstraints({ scheme: 'MAESTRO' }, { paymentScheme: 'maestro' }), { ok: true });
    assert.equal(checkCardConstraints({ scheme: 'MASTERCARD' }, { paymentScheme: 'MAESTRO' }).ok, false);
  });

  test('brand compares with the product brand, or the scheme when the brand is not known', () => {
    assert.deepEqual(
      checkCardConstraints({ scheme: 'VISA', brand: 'Visa Electron' }, { brand: 'VISA ELECTRON' }),
      {
        ok: true,
      },
    );
    assert.deepEqual(
      checkCardConstraints({ scheme: 'VISA', brand: 'VISA_ELECTRON' }, { brand: 'visa-electron' }),
      {
        ok: true,
      },
    );
    assert.deepEqual(checkCardConstraints({ scheme: 'VISA' }, { brand: 'visa' }), { ok: true });
    assert.deepEqual(checkCardConstraints({ scheme: 'MAESTRO' }, { brand: 'MAESTRO' }), { ok: true });
    assert.deepEqual(
      explained(checkCardConstraints({ scheme: 'VISA', brand: 'VISA' }, { brand: 'VISA ELECTRON' })),
      {
        ok: false,
        field: 'brand',
        expected: 'VISA ELECTRON',
        actual: 'VISA',
        message: 'This order accepts only VISA ELECTRON cards; this card is VISA.',
      },
    );
    assert.deepEqual(
      explained(checkCardConstraints({ scheme: 'VISA', brand: 'Visa Electron' }, { brand: 'VISA' })),
      {
        ok: false,
        field: 'brand',
        expected: 'VISA',
        actual: 'VISA ELECTRON',
        message: 'This order accepts only VISA cards; this card is VISA ELECTRON.',
      },
    );
    const unknown = checkCardConstraints({ scheme: 'UNKNOWN' }, { brand: 'MAESTRO' });
    assert.equal(
      unknown.ok === false && constraintMessage(unknown),
      "This order accepts only MAESTRO cards; this card's brand is unknown.",
    );
  });

  test('issuer compares with the issuer name; an unknown issuer does not meet it', () => {
    assert.deepEqual(checkCardConstraints({ scheme: 'VISA', issuer: 'Swedbank' }, { issuer: 'SWEDBANK' }), {
      ok: true,
    });
    assert.deepEqual(
      explained(checkCardConstraints({ scheme: 'VISA', issuer: 'SEB' }, { issuer: 'Swedbank' })),
      {
        ok: false,
        field: 'issuer',
        expected: 'Swedbank',
        actual: 'SEB',
        message: 'This order accepts only cards issued by Swedbank; this card is issued by SEB.',
      },
    );
    assert.deepEqual(explained(checkCardConstraints({ scheme: 'VISA' }, { issuer: 'Swedbank' })), {
      ok: false,
      field: 'issuer',
      expected: 'Swedbank',
      message: "This order accepts only cards issued by Swedbank; this card's issuer is unknown.",
    });
  });

  test('every constraint must hold; the first one missed is reported', () => {
    const card = { scheme: 'VISA' as const, brand: 'VISA', issuer: 'Citadele' };
    assert.deepEqual(
      checkCardConstraints(card, { paymentScheme: 'VISA', brand: 'VISA', issuer: 'citadele' }),
      { ok: true },
    );
    const both = checkCardConstraints(card, { paymentScheme: 'MASTERCARD', issuer: 'Swedbank' });
    assert.equal(both.ok === false && both.field, 'paymentScheme');
    const issuerOnly = checkCardConstraints(card, { paymentScheme: 'VISA', issuer: 'Swedbank' });
    assert.equal(issuerOnly.ok === false && issuerOnly.field, 'issuer');
  });
});

/** The refusal code of a check, or 'valid'. */
function codeOf(result: { valid: true } | { valid: false; code: string }): string {
  return result.valid ? 'valid' : result.code;
}

/** The sandbox's sentence for the refusal of a card number; fails when the number is taken. */
function numberMessage(input: string, options?: CardNumberOptions): string {
  const result = validateCardNumber(input, options);
  assert.equal(result.valid, false, 'expected a refusal');
  return result.valid ? '' : cardNumberMessage(result.code, input, options);
}

function expiryMessageOf(result: ExpiryCheck): string {
  assert.equal(result.valid, false, 'expected a refusal');
  return result.valid ? '' : expiryMessage(result.code);
}

function cvcMessageOf(result: CvcCheck, scheme: CardScheme): string {
  assert.equal(result.valid, false, 'expected a refusal');
  return result.valid ? '' : cvcMessage(result.code, scheme);
}

/** A constraint check with the sandbox's sentence for its refusal, as the sandbox answers it. */
function explained(check: ConstraintCheck): ConstraintCheck | (ConstraintRefusal & { message: string }) {
  return check.ok ? check : { ...check, message: constraintMessage(check) };
}
