// The core runs unchanged in the browser: these run in real Chromium, where the element and the frame will
// call it, so Intl data, RegExp features and error subclassing are Chromium's own, not Node's.
import { expect } from '@open-wc/testing';
import {
  cardSchemeOf,
  checkCardConstraints,
  formatCardNumber,
  formatExpiryInput,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../../src/core/card.js';
import { SvcError } from '../../src/core/errors.js';
import { formatMinorUnits, formatMoney, parseMinorUnits } from '../../src/core/money.js';
import { OrderValidationError, parseOrder } from '../../src/core/order.js';

/** Intl separates groups and currency with no-break spaces, which differ between ICU versions. */
const spaced = (text: string) => text.replace(/\s/g, ' ');

describe('core in Chromium', () => {
  it('runs in a real browser, not in Node', () => {
    expect(typeof window).to.equal('object');
    expect(navigator.userAgent).to.match(/Chrome\//);
    expect((globalThis as { process?: unknown }).process).to.equal(undefined);
  });

  describe('money', () => {
    it('formats amounts as each language writes them', () => {
      expect(spaced(formatMoney(123456789, 'EUR', 'lv'))).to.equal('1 234 567,89 €');
      expect(spaced(formatMoney(123456789, 'EUR', 'ru'))).to.equal('1 234 567,89 €');
      expect(formatMoney(123456789, 'EUR', 'en')).to.equal('€1,234,567.89');
      expect(spaced(formatMoney(5, 'EUR', 'lv'))).to.equal('0,05 €');
      expect(formatMoney(1999, 'USD', 'en')).to.equal('$19.99');
    });

    it('reads decimals exactly where floats would not', () => {
      expect(parseMinorUnits(19.99)).to.equal(1999);
      expect(parseMinorUnits('0.29')).to.equal(29);
      expect(formatMinorUnits(8800)).to.equal('88.00');
      expect(() => parseMinorUnits(0.1 + 0.2)).to.throw(/at most 2/);
    });
  });

  describe('order', () => {
    it('reads a good order into minor units', () => {
      const result = parseOrder({
        widgetId: 'w-1',
        items: [{ amount: '12.50', label: 'Tea', count: 2, taxRate: 21 }],
        shippingOptions: [{ id: 'pickup', amount: 0 }, { id: 'courier' }],
      });
      expect(result.error).to.equal(undefined);
      expect(result.value?.items[0]?.amount).to.equal(1250);
      expect(result.value?.items[0]?.count.thousandths).to.equal(2000);
      expect(result.value?.shippingOptions.map((option) => option.id)).to.deep.equal(['pickup', 'courier']);
    });

    it('names every field that is wrong, with a typed error', () => {
      const result = parseOrder({
        widgetId: '',
        items: [
          { amount: '12.345', label: '' },
          { amount: 1, label: 'Box', unit: 'BOX' },
        ],
        shippingOptions: [{ id: 'a' }, { id: 'a' }],
        constraints: { color: 'red' },
      });
      const error = result.error;
      expect(error).to.be.instanceOf(OrderValidationError);
      expect(error).to.be.instanceOf(SvcError);
      expect(error).to.be.instanceOf(Error);
      expect(error?.name).to.equal('OrderValidationError');
      expect(error?.code).to.equal('invalid_order');
      const paths = error?.issues.map((issue) => issue.path) ?? [];
      expect(paths).to.include.members([
        'widgetId',
        'items[0].amount',
        'items[0].label',
        'items[1].unit',
        'shippingOptions[1].id',
        'constraints.color',
      ]);
      const unit = error?.issues.find((issue) => issue.path === 'items[1].unit');
      expect(unit?.code).to.equal('unknown_unit');
      expect(unit?.message).to.match(/^items\[1\]\.unit: "BOX" is not a unit/);
      expect(error?.message).to.match(/^Invalid order: /);
    });
  });

  describe('card checks', () => {
    it('knows the test cards and their schemes', () => {
      for (const [number, scheme] of [
        ['4111 1111 1111 1111', 'VISA'],
        ['5555 5555 5555 4444', 'MASTERCARD'],
        ['2223 0031 2200 3222', 'MASTERCARD'],
        ['3782 822463 10005', 'AMEX'],
      ] as const) {
        const result = validateCardNumber(number);
        expect(result, number).to.deep.equal({ valid: true, number: number.replace(/ /g, ''), scheme });
      }
      expect(validateCardNumber('4111 1111 1111 1112')).to.include({ valid: false, code: 'luhn_failed' });
      expect(validateCardNumber('4111', { acceptedSchemes: ['MASTERCARD'] })).to.include({
        valid: false,
        code: 'scheme_not_accepted',
      });
    });

    it('formats the number and the expiry as they are typed', () => {
      expect(cardSchemeOf('5')).to.equal('UNKNOWN');
      expect(cardSchemeOf('51')).to.equal('MASTERCARD');
      expect(formatCardNumber('41111111')).to.equal('4111 1111');
      expect(formatCardNumber('378282246310005')).to.equal('3782 822463 10005');
      expect(formatExpiryInput('1226')).to.equal('12/26');
      expect(formatExpiryInput('4')).to.equal('04');
    });

    it('checks the expiry against a given now, through the end of the month', () => {
      const now = new Date('2026-04-01T11:00:00Z');
      expect(validateExpiry('03/26', now)).to.deep.equal({ valid: true, month: 3, year: 2026 });
      expect(validateExpiry('03/26', new Date('2026-04-01T12:00:00Z'))).to.include({ code: 'expired' });
      expect(validateExpiry('13/26', now)).to.include({ code: 'bad_month' });
      expect(validateCvc('1234', 'AMEX')).to.deep.equal({ valid: true, cvc: '1234' });
      expect(validateCvc('1234', 'VISA')).to.include({ code: 'wrong_length' });
    });

    it('checks order constraints and says what the order takes', () => {
      expect(checkCardConstraints({ scheme: 'MASTERCARD' }, { paymentScheme: 'visa' })).to.deep.equal({
        ok: false,
        field: 'paymentScheme',
        expected: 'visa',
        actual: 'MASTERCARD',
      });
      expect(
        checkCardConstraints({ scheme: 'VISA', issuer: 'Swedbank' }, { issuer: 'swedbank' }),
      ).to.deep.equal({
        ok: true,
      });
    });
  });
});
