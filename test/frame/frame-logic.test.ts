// The frame's plain functions: its URL, its page's bootstrap, idempotency keys, intake error mapping, card checks, caret and totals.
import { expect } from '@open-wc/testing';
import { type CardScheme, createTranslator, FRAME_MESSAGES, luhnCheckDigit } from '../../src/core/index.js';
import { ORDER_REJECTION_REASONS } from '../../src/core/legacy-callbacks.js';
import type { ApiError, OrderView } from '../../src/core/widget-api.js';
import { createAttemptKeys } from '../../src/frame/attempt-keys.js';
import { readBootstrap } from '../../src/frame/bootstrap.js';
import {
  cardErrors,
  cvcError,
  gatewayConstraintError,
  schemeConstraintError,
  schemeError,
} from '../../src/frame/card-checks.js';
import { caretAfterDigits, digitsBefore } from '../../src/frame/caret.js';
import { customerFieldError } from '../../src/frame/customer-fields.js';
import { readFrameLocation } from '../../src/frame/frame-location.js';
import { loadTexts } from '../../src/frame/frame-texts.js';
import { intakeErrorOf, rejectionTextKey } from '../../src/frame/intake-errors.js';
import { orderTax, orderTotal } from '../../src/frame/order-summary.js';

const en = createTranslator('en');
const NOW = new Date('2026-03-15T12:00:00Z');

describe('frame URL', () => {
  const hash = `#channel=0123456789abcdef&origin=${encodeURIComponent('https://shop.example')}`;

  it('reads the widget id from the path and channel and origin from the hash', () => {
    expect(readFrameLocation('/widget/frame/de300000-0000-4000-8000-000000000002', hash)).to.deep.equal({
      widgetId: 'de300000-0000-4000-8000-000000000002',
      channel: '0123456789abcdef',
      origin: 'https://shop.example',
    });
    expect(readFrameLocation('/widget/frame/a%20b', hash)?.widgetId).to.equal('a b');
  });

  it('refuses a URL without an exact page origin or a channel', () => {
    const at = (origin: string) =>
      readFrameLocation('/widget/frame/w1', `#channel=0123456789abcdef&origin=${encodeURIComponent(origin)}`);
    for (const origin of [
      '*',
      'null',
      '',
      'https://shop.example/',
      'https://shop.example/path',
      'javascript:alert(1)',
      'ftp://shop.example',
    ]) {
      expect(at(origin), origin).to.equal(undefined);
    }
    expect(readFrameLocation('/widget/frame/w1', '#origin=https%3A%2F%2Fshop.example')).to.equal(undefined);
    expect(readFrameLocation('/widget/frame/w1', '#channel=x&origin=https%3A%2F%2Fshop.example')).to.equal(
      undefined,
    );
    expect(readFrameLocation('/widget/other/w1', hash)).to.equal(undefined);
    expect(readFrameLocation('/widget/frame/', hash)).to.equal(undefined);
    expect(readFrameLocation('/widget/frame/%E0%A4%A', hash)).to.equal(undefined);
  });
});

describe("the frame page's bootstrap", () => {
  const page = (body: string) => new DOMParser().parseFromString(`<!doctype html>${body}`, 'text/html');
  const block = (json: string) => `<script type="application/json" id="svc-frame-bootstrap">${json}</script>`;

  it('reads the data block, with `\\u003c` read back as `<`', () => {
    const bootstrap = readBootstrap(page(block('{"language":"lv","texts":{"x":"\\u003c/script>"}}')));
    expect(bootstrap).to.deep.equal({ language: 'lv', texts: { x: '</script>' } });
  });

  it('is absent from a page without the block, or with one that does not parse', () => {
    expect(readBootstrap(page('<p>no block</p>'))).to.equal(undefined);
    expect(readBootstrap(page(block('')))).to.equal(undefined);
    expect(readBootstrap(page(block('{"language":')))).to.equal(undefined);
  });
});

describe('attempt keys', () => {
  function memoryStorage() {
    const items = new Map<string, string>();
    return {
      items,
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => void items.set(key, value),
      removeItem: (key: string) => void items.delete(key),
    };
  }

  it('keeps one key per unanswered attempt, per order, until it is settled', () => {
    const storage = memoryStorage();
    let next = 0;
    const keys = createAttemptKeys(storage, () => `key-${++next}`);
    expect(keys.begin('order-1')).to.equal('key-1');
    expect(keys.begin('order-1')).to.equal('key-1');
    expect(keys.begin('order-2')).to.equal('key-2');
    expect([...storage.items.values()]).to.deep.equal(['key-1', 'key-2']);
    keys.settle('order-1');
    expect([...storage.items.values()]).to.deep.equal(['key-2']);
    expect(keys.begin('order-1')).to.equal('key-3');
  });

  it('finds a key kept by an earlier frame of the same tab (a reload)', () => {
    const storage = memoryStorage();
    createAttemptKeys(storage, () => 'before-reload').begin('order-1');
    expect(createAttemptKeys(storage, () => 'after-reload').begin('order-1')).to.equal('before-reload');
  });

  it('keeps working in memory when storage refuses', () => {
    const refusing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    let next = 0;
    const keys = createAttemptKeys(refusing, () => `k-${++next}`);
    expect(keys.begin('order-1')).to.equal('k-1');
    expect(keys.begin('order-1'), 'kept in memory until settled').to.equal('k-1');
    keys.settle('order-1');
    expect(keys.begin('order-1')).to.equal('k-2');
    expect(createAttemptKeys(undefined).begin('x')).to.match(/^[0-9a-f-]{36}$/);
  });
});

describe('intake errors', () => {
  const http = (status: number, code: string, field?: string) =>
    ({
      kind: 'http-error',
      status,
      error: { code, message: `${code} message`, ...(field && { field }) },
    }) as const;

  it('passes the gateway refusals on under the gateway’s own codes', () => {
    expect(intakeErrorOf(http(404, 'unknown_widget', 'widgetId'))).to.deep.equal({
      code: 'unknown_widget',
      message: 'unknown_widget message',
      field: 'widgetId',
    });
    expect(intakeErrorOf(http(400, 'invalid_order', 'order.items[0].amount'))).to.deep.equal({
      code: 'invalid_order',
      message: 'invalid_order message',
      field: 'order.items[0].amount',
    });
    for (const code of [
      'signature_missing',
      'certificate_missing',
      'unknown_certificate',
      'certificate_revoked',
      'signature_invalid',
    ]) {
      const field = code.startsWith('signature') ? 'signature' : 'certificateName';
      expect(intakeErrorOf(http(401, code, field))).to.deep.equal({
        code,
        message: `${code} message`,
        field,
      });
    }
    expect(intakeErrorOf(http(403, 'origin_not_allowed', 'pageOrigin')).code).to.equal('origin_not_allowed');
    expect(intakeErrorOf(http(403, 'order_rejected')).code).to.equal('order_rejected');
    expect(intakeErrorOf(http(409, 'order_already_paid')).code).to.equal('order_already_paid');
    // A code under another status than the gateway gives it is no refusal the element knows.
    expect(intakeErrorOf(http(400, 'signature_invalid'))).to.deep.equal({
      code: 'internal_error',
      message: 'signature_invalid: signature_invalid message',
    });
  });

  it('adds the gateway’s diagnosis (hint) to the message for the console', () => {
    const withHint = {
      ...http(401, 'signature_invalid', 'signature'),
      error: {
        code: 'signature_invalid',
        message: 'The signature does not match the order',
        field: 'signature',
        hint: 'The page added language.',
      },
    };
    expect(intakeErrorOf(withHint).message).to.equal(
      'The signature does not match the order. The page added language.',
    );
  });

  it('picks the text of the merchant’s rejection reason, and the general one without a known reason', () => {
    const rejected = (reason: unknown) => ({
      kind: 'http-error' as const,
      status: 403,
      error: {
        code: 'order_rejected',
        message: 'The merchant did not approve this order',
        reason,
      } as ApiError,
    });
    for (const reason of ORDER_REJECTION_REASONS) {
      expect(rejectionTextKey(rejected(reason), FRAME_MESSAGES.en)).to.equal(`rejected.${reason}`);
    }
    // A reason missing or of no text (a newer reason, or anything a gateway sends) reads as OTHER.
    for (const reason of [undefined, null, '', 'price_changed', 'title', '__proto__', 'toString', 42]) {
      expect(rejectionTextKey(rejected(reason), FRAME_MESSAGES.en), String(reason)).to.equal(
        'rejected.OTHER',
      );
    }
    // Other refusals are the element's to show.
    expect(rejectionTextKey(http(409, 'order_already_paid', 'order.orderId'), FRAME_MESSAGES.en)).to.equal(
      undefined,
    );
    expect(rejectionTextKey(http(403, 'origin_not_allowed'), FRAME_MESSAGES.en)).to.equal(undefined);
    expect(
      rejectionTextKey({ kind: 'network-error', message: 'Failed to fetch' }, FRAME_MESSAGES.en),
    ).to.equal(undefined);
  });

  it('calls a lost connection or a broken gateway unreachable, and anything else internal', () => {
    expect(intakeErrorOf({ kind: 'network-error', message: 'Failed to fetch' }).code).to.equal(
      'gateway_unreachable',
    );
    expect(intakeErrorOf(http(502, 'verification_unreachable')).code).to.equal('gateway_unreachable');
    expect(intakeErrorOf(http(503, 'http_503')).code).to.equal('gateway_unreachable');
    expect(intakeErrorOf(http(400, 'invalid_request', 'order')).code).to.equal('internal_error');
    expect(intakeErrorOf(http(401, 'something_new')).code).to.equal('internal_error');
  });
});

describe('card checks', () => {
  const card = { number: '4111 1111 1111 1111', expiry: '12/29', cvc: '123', holder: 'Anna' };
  /** A widget's default card schemes (the sandbox config's `cardSchemes`). */
  const visaAndMastercard: readonly CardScheme[] = ['VISA', 'MASTERCARD'];
  const allSchemes: readonly CardScheme[] = ['VISA', 'MASTERCARD', 'AMEX', 'MAESTRO'];

  it('accepts a good card and names every field that is wrong', () => {
    expect(cardErrors(card, {}, visaAndMastercard, en, 'en', NOW)).to.deep.equal({});
    const errors = cardErrors(
      { number: '4111 1111 1111 1112', expiry: '01/26', cvc: '12', holder: ' ' },
      {},
      visaAndMastercard,
      en,
      'en',
      NOW,
    );
    expect(errors).to.deep.equal({
      number: { key: 'card.number.error.luhn_failed' },
      expiry: { key: 'card.expiry.error.expired' },
      cvc: { key: 'card.cvc.error.wrong_length', params: { length: '3' } },
      holder: { key: 'card.holder.error.empty' },
    });
  });

  it('refuses a scheme the order excludes as soon as the first digits tell it', () => {
    const visaOnly = { paymentScheme: 'VISA' };
    expect(schemeConstraintError('5', visaOnly, en)).to.equal(undefined); // 5 may still be Maestro or Mastercard
    expect(schemeConstraintError('55', visaOnly, en)).to.deep.equal({
      key: 'card.constraint.paymentScheme',
      params: { expected: 'Visa' },
    });
    expect(schemeConstraintError('4111', visaOnly, en)).to.equal(undefined);
    // Maestro is Mastercard's debit brand, so it meets a Mastercard constraint.
    expect(schemeConstraintError('6759', { paymentScheme: 'mastercard' }, en)).to.equal(undefined);
    expect(
      cardErrors({ ...card, number: '5555 5555 5555 4444' }, visaOnly, visaAndMastercard, en, 'en', NOW)
        .number?.key,
    ).to.equal('card.constraint.paymentScheme');
  });

  it('names the constraint the gateway refused a card for', () => {
    expect(gatewayConstraintError('4111111111111111', { brand: 'VISA ELECTRON' }, en)).to.deep.equal({
      key: 'card.constraint.brand',
      params: { expected: 'VISA ELECTRON' },
    });
    expect(gatewayConstraintError('4111111111111111', { issuer: 'Nordic Bank' }, en)?.key).to.equal(
      'card.constraint.issuer',
    );
    expect(gatewayConstraintError('4111111111111111', {}, en)).to.equal(undefined);
  });

  it('says the CVC length of the scheme, in the language', () => {
    expect(cvcError('12', 'AMEX', 'en')?.params).to.deep.equal({ length: '4' });
    expect(cvcError('12', 'UNKNOWN', 'en')?.params).to.deep.equal({ length: '3 or 4' });
    expect(cvcError('12', 'UNKNOWN', 'lv')?.params).to.deep.equal({ length: '3 vai 4' });
    expect(cvcError('12a', 'VISA', 'en')).to.deep.equal({ key: 'card.cvc.error.not_digits' });
  });

  it('lists the widget’s schemes for a number of no known scheme', () => {
    const number = `900000000000000${luhnCheckDigit('900000000000000')}`;
    expect(cardErrors({ ...card, number }, {}, allSchemes, en, 'en', NOW).number).to.deep.equal({
      key: 'card.number.error.scheme_not_accepted',
      params: { accepted: 'Visa, Mastercard, American Express and Maestro' },
    });
    expect(cardErrors({ ...card, number }, {}, visaAndMastercard, en, 'en', NOW).number).to.deep.equal({
      key: 'card.number.error.scheme_not_accepted',
      params: { accepted: 'Visa and Mastercard' },
    });
  });

  it('refuses a scheme the widget does not take from its first digits, naming the schemes it takes', () => {
    const refused = {
      key: 'card.number.error.scheme_not_accepted',
      params: { accepted: 'Visa and Mastercard' },
    };
    expect(schemeError('37', {}, visaAndMastercard, en, 'en')).to.deep.equal(refused); // American Express
    expect(schemeError('6759', {}, visaAndMastercard, en, 'en')).to.deep.equal(refused); // Maestro
    expect(schemeError('3', {}, visaAndMastercard, en, 'en')).to.equal(undefined); // not told yet
    expect(schemeError('4111', {}, visaAndMastercard, en, 'en')).to.equal(undefined);
    expect(schemeError('2221', {}, visaAndMastercard, en, 'en')).to.equal(undefined); // Mastercard's 2-series
    expect(schemeError('37', {}, allSchemes, en, 'en')).to.equal(undefined);
    expect(schemeError('6', {}, ['VISA', 'AMEX'], createTranslator('lv'), 'lv')?.params).to.deep.equal({
      accepted: 'Visa un American Express',
    });
    // The order's constraint narrows further, and its text is the more exact one.
    expect(schemeError('5555', { paymentScheme: 'VISA' }, allSchemes, en, 'en')?.key).to.equal(
      'card.constraint.paymentScheme',
    );
    for (const number of ['378282246310005', '6759649826438453']) {
      expect(cardErrors({ ...card, number }, {}, visaAndMastercard, en, 'en', NOW).number).to.deep.equal(
        refused,
      );
      expect(
        cardErrors(
          { ...card, number, cvc: number.startsWith('37') ? '1234' : '123' },
          {},
          allSchemes,
          en,
          'en',
          NOW,
        ),
      ).to.deep.equal({});
    }
  });
});

describe('texts', () => {
  const chunkFailed = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
  const chunks = {
    lv: () => import('../../src/frame/messages-lv.js'),
    en: () => import('../../src/frame/messages-en.js'),
    ru: () => import('../../src/frame/messages-ru.js'),
  };

  it('loads the catalog of the language asked for, and only the frame’s texts', async () => {
    for (const language of ['lv', 'en', 'ru'] as const) {
      const texts = await loadTexts(language);
      expect(texts?.language).to.equal(language);
      expect(texts?.catalog).to.deep.equal(FRAME_MESSAGES[language]);
    }
    expect((await loadTexts('lv'))?.catalog['pay.button']).to.equal('Maksāt {amount}');
  });

  it('falls back to English when the language’s chunk does not load', async () => {
    const texts = await loadTexts('ru', { ...chunks, ru: chunkFailed });
    expect(texts?.language).to.equal('en');
    expect(texts?.catalog['pay.button']).to.equal('Pay {amount}');
  });

  it('has no texts when English does not load either', async () => {
    expect(await loadTexts('lv', { ...chunks, lv: chunkFailed, en: chunkFailed })).to.equal(undefined);
    expect(await loadTexts('en', { ...chunks, en: chunkFailed })).to.equal(undefined);
  });
});

describe('customer fields', () => {
  it('requires names and email, checks their shape, and leaves the phone optional', () => {
    expect(customerFieldError('firstName', ' ')).to.deep.equal({ key: 'field.required' });
    expect(customerFieldError('email', 'anna@example')).to.deep.equal({ key: 'customer.email.invalid' });
    expect(customerFieldError('email', 'anna@example.lv')).to.equal(undefined);
    expect(customerFieldError('phone', '')).to.equal(undefined);
    expect(customerFieldError('phone', 'call me')).to.deep.equal({ key: 'customer.phone.invalid' });
    expect(customerFieldError('phone', '+371 2000 0000')).to.equal(undefined);
  });
});

describe('caret', () => {
  it('finds the place after the same number of digits in the reformatted text', () => {
    expect(digitsBefore('4111 11', 6)).to.equal(5);
    expect(caretAfterDigits('4111 11', 5)).to.equal(6);
    expect(caretAfterDigits('4111 1111', 4)).to.equal(4);
    expect(caretAfterDigits('4111 1111', 0)).to.equal(0);
    expect(caretAfterDigits('12/3', 3)).to.equal(4);
    expect(caretAfterDigits('12', 9)).to.equal(2);
  });
});

describe('order total and tax', () => {
  const order = {
    total: '34.99',
    tax: '6.07',
    lines: [
      { type: 'ITEM', total: '25.00', tax: '4.34' },
      { type: 'ITEM', total: '3.99', tax: '0.69' },
      { type: 'SHIPPING', total: '6.00', tax: '1.04' },
    ],
  } as unknown as OrderView;
  const priced = (amount: number, taxRate = '0.21') => ({ amount, taxRate });

  it('adds the chosen shipping to the items, or keeps the gateway total without one', () => {
    expect(orderTotal(order, undefined)).to.equal(3499);
    expect(orderTotal(order, { optionId: 'courier', price: undefined })).to.equal(3499);
    expect(orderTotal(order, { optionId: 'courier', price: priced(350) })).to.equal(2899 + 350);
    expect(orderTotal(order, { optionId: 'free', price: priced(0) })).to.equal(2899);
  });

  it("adds the chosen shipping line's tax at its rate, as the gateway's priceOrder does", () => {
    expect(orderTax(order, undefined)).to.equal(607);
    expect(orderTax(order, { optionId: 'courier', price: undefined })).to.equal(607);
    // 6.90 at 21%: round(690 x 0.21 / 1.21) = 120; at 5% (a percentage written as 5): 33.
    expect(orderTax(order, { optionId: 'express', price: priced(690) })).to.equal(434 + 69 + 120);
    expect(orderTax(order, { optionId: 'express', price: priced(690, '5') })).to.equal(434 + 69 + 33);
    expect(orderTax(order, { optionId: 'free', price: priced(0) })).to.equal(434 + 69);
  });
});
