/**
 * Card checks for the payment frame, as plain functions apart from any element: parsers, formatters and
 * validators the frame's inputs call as the customer types, and that the sandbox can reuse.
 *
 * Validators return results instead of throwing, because a wrong card number is the customer's everyday typo,
 * not a program error. Every refusal carries a literal `code`: the key for the translated text that the
 * frame shows, and for the English sentence the sandbox answers with (card-messages.ts, kept apart so that
 * the frame's bundle carries none of them). No refusal repeats the number, the expiry date or the CVC, so a
 * result may be logged or passed on without leaking card data.
 */
import type { OrderConstraints } from './order.js';

/** The card schemes the frame tells apart. `UNKNOWN` also stands for a number whose prefix is not decided yet. */
export type CardScheme = 'VISA' | 'MASTERCARD' | 'AMEX' | 'MAESTRO' | 'UNKNOWN';

/** Every scheme we recognise; the default of `acceptedSchemes`. */
export const KNOWN_CARD_SCHEMES: readonly CardScheme[] = ['VISA', 'MASTERCARD', 'AMEX', 'MAESTRO'];

/** Names for people, used in English messages (card-messages.ts, the sandbox). */
export const CARD_SCHEME_NAMES: Readonly<Record<CardScheme, string>> = {
  VISA: 'Visa',
  MASTERCARD: 'Mastercard',
  AMEX: 'American Express',
  MAESTRO: 'Maestro',
  UNKNOWN: 'unknown',
};

/**
 * An issuer identification number range, `[scheme, from, to]`: numbers that start with a prefix from `from`
 * to `to`, both as many digits long.
 */
type IinRange = readonly [scheme: Exclude<CardScheme, 'UNKNOWN'>, from: string, to: string];

// The ranges must not overlap: the scheme of a number is the one range it falls in. Maestro owns 50 and
// 56-69 (with 6759, the UK range, inside 67); 51-55 are Mastercard's.
const IIN_RANGES: readonly IinRange[] = [
  ['VISA', '4', '4'],
  ['MASTERCARD', '51', '55'],
  ['MASTERCARD', '2221', '2720'],
  ['AMEX', '34', '34'],
  ['AMEX', '37', '37'],
  ['MAESTRO', '50', '50'],
  ['MAESTRO', '56', '69'],
];

const NUMBER_LENGTHS: Readonly<Record<CardScheme, readonly number[]>> = {
  VISA: [13, 16, 19],
  MASTERCARD: [16],
  AMEX: [15],
  MAESTRO: [12, 13, 14, 15, 16, 17, 18, 19],
  UNKNOWN: [12, 13, 14, 15, 16, 17, 18, 19],
};

const CVC_LENGTHS: Readonly<Record<CardScheme, readonly number[]>> = {
  VISA: [3],
  MASTERCARD: [3],
  AMEX: [4],
  MAESTRO: [3],
  // Until the scheme is known, either length may be right.
  UNKNOWN: [3, 4],
};

/**
 * The digits of a card number as people write it: spaces and dashes go, anything else stays so that
 * `validateCardNumber` can refuse it rather than silently read a different number.
 */
export function normalizeCardNumber(input: string): string {
  return input.replace(/[\s-]+/g, '');
}

/**
 * The Luhn (mod 10) check digit that makes `partial + digit` pass `luhnValid`. Test numbers are made with it.
 * @throws RangeError when `partial` holds anything but digits.
 */
export function luhnCheckDigit(partial: string): string {
  if (!/^\d*$/.test(partial)) throw new RangeError('luhnCheckDigit takes digits only');
  // The check digit lands at the right end, so the digit just before it is the first one doubled.
  const sum = luhnSum(partial, true);
  return String((10 - (sum % 10)) % 10);
}

/** Whether a digit string passes the Luhn check, which catches every single-digit typo. Non-digits fail. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  return luhnSum(digits, false) % 10 === 0;
}

function luhnSum(digits: string, doubleLast: boolean): number {
  let sum = 0;
  let double = doubleLast;
  for (let index = digits.length - 1; index >= 0; index--) {
    let digit = digits.charCodeAt(index) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum;
}

/**
 * The scheme of a card number, whole or partly typed. A prefix that could still become more than one thing
 * (`5` may be Mastercard or Maestro, `27` may be Mastercard or nothing) gives `UNKNOWN`; one that can only
 * end in one scheme gives it at once (`4` is Visa, `6` is Maestro), so the frame can show the logo early.
 */
export function cardSchemeOf(number: string): CardScheme {
  const prefix = /^\d*/.exec(normalizeCardNumber(number))?.[0] ?? '';
  if (prefix === '') return 'UNKNOWN';
  for (const [scheme, from, to] of IIN_RANGES) {
    const head = prefix.slice(0, from.length);
    // Every number that can follow the prefix, as an interval of its first `from.length` digits.
    const missing = from.length - head.length;
    const lowest = Number(head + '0'.repeat(missing));
    const highest = Number(head + '9'.repeat(missing));
    if (Number(from) <= lowest && highest <= Number(to)) return scheme;
  }
  return 'UNKNOWN';
}

/** The lengths a scheme's numbers come in, shortest first. `UNKNOWN` gives every length a card may have. */
export function cardNumberLengths(scheme: CardScheme): readonly number[] {
  return NUMBER_LENGTHS[scheme];
}

/** The lengths a scheme's CVC comes in. */
export function cvcLengths(scheme: CardScheme): readonly number[] {
  return CVC_LENGTHS[scheme];
}

/**
 * A card number for display while it is typed: digits only, in groups of 4 (American Express: 4-6-5), cut
 * at the scheme's longest length. Characters other than digits are dropped, as a card field would drop
 * them. No trailing space is added, so deleting a digit never has to delete a separator too.
 */
export function formatCardNumber(input: string, scheme: CardScheme = cardSchemeOf(input)): string {
  const lengths = cardNumberLengths(scheme);
  const digits = input.replace(/\D/g, '').slice(0, lengths[lengths.length - 1]);
  const groups: string[] = [];
  if (scheme === 'AMEX') {
    let start = 0;
    for (const size of [4, 6, 5]) {
      if (start >= digits.length) break;
      groups.push(digits.slice(start, start + size));
      start += size;
    }
  } else {
    for (let start = 0; start < digits.length; start += 4) groups.push(digits.slice(start, start + 4));
  }
  return groups.join(' ');
}

/** Why a card number is refused. */
export type CardNumberErrorCode =
  | 'empty'
  | 'not_digits'
  | 'wrong_length'
  | 'luhn_failed'
  | 'scheme_not_accepted';

/** A card number that can be sent to the gateway, or why not. */
export type CardNumberCheck =
  | { valid: true; number: string; scheme: CardScheme }
  | { valid: false; code: CardNumberErrorCode };

/** Options of `validateCardNumber`. */
export interface CardNumberOptions {
  /** The schemes the merchant takes; every known scheme when absent. Add `UNKNOWN` to let the gateway decide. */
  acceptedSchemes?: readonly CardScheme[];
}

/**
 * Checks a card number as the customer typed it (spaces and dashes allowed).
 *
 * A scheme the merchant does not take is named before the length is checked, so the customer learns early
 * that this card will not do; a number of no known scheme is only refused for its scheme once it has a
 * card's length and passes Luhn, because until then a typo is the likelier reason.
 */
export function validateCardNumber(input: string, options: CardNumberOptions = {}): CardNumberCheck {
  const accepted = options.acceptedSchemes ?? KNOWN_CARD_SCHEMES;
  const number = normalizeCardNumber(input);
  if (number === '') return { valid: false, code: 'empty' };
  if (!/^\d+$/.test(number)) return { valid: false, code: 'not_digits' };
  const scheme = cardSchemeOf(number);
  if (scheme !== 'UNKNOWN' && !accepted.includes(scheme))
    return { valid: false, code: 'scheme_not_accepted' };
  if (!cardNumberLengths(scheme).includes(number.length)) return { valid: false, code: 'wrong_length' };
  if (!luhnValid(number)) return { valid: false, code: 'luhn_failed' };
  if (!accepted.includes(scheme)) return { valid: false, code: 'scheme_not_accepted' };
  return { valid: true, number, scheme };
}

/** An expiry date as printed on a card: month 1-12 (when valid) and a 4-digit year. */
export interface CardExpiry {
  month: number;
  year: number;
}

const EXPIRY_WITH_SLASH = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/;
const EXPIRY_DIGITS_ONLY = /^(\d{2})(\d{2}|\d{4})$/;

/**
 * Reads `MM/YY`, `MM / YY`, `MMYY`, `MM/YYYY` (and `MMYYYY`, `M/YY`) into a month and a 4-digit year
 * (`YY` is 20YY). It reads the shape only: `13/30` gives month 13, which `validateExpiry` refuses.
 * @returns undefined when the input has none of these shapes.
 */
export function parseExpiry(input: string): CardExpiry | undefined {
  const text = input.trim();
  const match = EXPIRY_WITH_SLASH.exec(text) ?? EXPIRY_DIGITS_ONLY.exec(text);
  if (!match) return undefined;
  const month = Number(match[1]);
  const yearText = match[2]!;
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  return { month, year };
}

/** Why an expiry date is refused. */
export type ExpiryErrorCode = 'empty' | 'malformed' | 'bad_month' | 'expired' | 'too_far';

/** An expiry date the gateway can take, or why not. */
export type ExpiryCheck =
  | { valid: true; month: number; year: number }
  | { valid: false; code: ExpiryErrorCode };

/** Cards are not issued for longer than this; a later date is a typo. */
const MAX_MONTHS_AHEAD = 20 * 12;

/**
 * Checks an expiry date against `now`. A card is good through the last day of its expiry month, and we
 * take that day as it is anywhere on Earth: the month counts as over only once it is over at UTC-12, so no
 * customer is told that a card still valid where they are has expired (the issuer has the last word anyway).
 * Passing `now` keeps the function pure and its tests exact.
 */
export function validateExpiry(input: string, now: Date): ExpiryCheck {
  const nowMs = now.getTime();
  if (Number.isNaN(nowMs)) throw new RangeError('validateExpiry needs a valid Date as now');
  if (input.trim() === '') return { valid: false, code: 'empty' };
  const expiry = parseExpiry(input);
  if (!expiry) return { valid: false, code: 'malformed' };
  if (expiry.month < 1 || expiry.month > 12) return { valid: false, code: 'bad_month' };
  const latestZone = new Date(nowMs - 12 * 60 * 60 * 1000);
  const currentMonth = latestZone.getUTCFullYear() * 12 + latestZone.getUTCMonth();
  const expiryMonth = expiry.year * 12 + (expiry.month - 1);
  if (expiryMonth < currentMonth) return { valid: false, code: 'expired' };
  if (expiryMonth - currentMonth > MAX_MONTHS_AHEAD) return { valid: false, code: 'too_far' };
  return { valid: true, month: expiry.month, year: expiry.year };
}

/**
 * The expiry field's text as it is typed: digits with a slash after the month. The slash appears once the
 * year starts (or when the customer typed it), never dangling after the month, so backspace works plainly.
 * A month that can only be one digit is padded: `4` gives `04`, `13` gives `01/3`. A 4-digit year the
 * customer types stays whole (`12/2030`), since cutting it to `12/20` would change the date.
 */
export function formatExpiryInput(input: string): string {
  const slash = input.indexOf('/');
  if (slash >= 0) {
    const month = input.slice(0, slash).replace(/\D/g, '').slice(0, 2);
    const year = input
      .slice(slash + 1)
      .replace(/\D/g, '')
      .slice(0, 4);
    if (month === '') return year === '' ? '' : formatExpiryInput(year);
    return `${month.length === 1 ? `0${month}` : month}/${year}`;
  }
  const digits = input.replace(/\D/g, '').slice(0, 6);
  if (digits === '') return '';
  let monthLength = 2;
  let month = digits.slice(0, 2);
  if (digits[0]! >= '2') {
    monthLength = 1;
    month = `0${digits[0]}`;
  } else if (digits[0] === '1' && digits.length > 1 && digits[1]! >= '3') {
    monthLength = 1;
    month = '01';
  }
  const year = digits.slice(monthLength, monthLength + 4);
  if (year === '') return month;
  return `${month}/${year}`;
}

/** Why a CVC is refused. */
export type CvcErrorCode = 'empty' | 'not_digits' | 'wrong_length';

/** A CVC the gateway can take, or why not. */
export type CvcCheck = { valid: true; cvc: string } | { valid: false; code: CvcErrorCode };

/** Checks a CVC: 3 digits, 4 for American Express (either while the scheme is unknown). */
export function validateCvc(input: string, scheme: CardScheme): CvcCheck {
  const cvc = input.trim();
  if (cvc === '') return { valid: false, code: 'empty' };
  if (!/^\d+$/.test(cvc)) return { valid: false, code: 'not_digits' };
  if (!cvcLengths(scheme).includes(cvc.length)) return { valid: false, code: 'wrong_length' };
  return { valid: true, cvc };
}

/** What the frame knows about a card once the gateway has looked up its number. */
export interface CardFacts {
  scheme: CardScheme;
  /** The product brand, such as `VISA ELECTRON`; when unknown the scheme stands for it. */
  brand?: string;
  /** The issuing bank's name. */
  issuer?: string;
}

/** The constraint a card fails. */
export type ConstraintField = 'issuer' | 'brand' | 'paymentScheme';

/** The first constraint of an order that a card misses. */
export interface ConstraintRefusal {
  ok: false;
  field: ConstraintField;
  /** The constraint as the merchant wrote it. */
  expected: string;
  /** What the card has instead (its scheme or brand in capitals, or its issuer); absent when not known. */
  actual?: string;
}

/** Whether a card meets an order's constraints; on failure, the first constraint it misses. */
export type ConstraintCheck = { ok: true } | ConstraintRefusal;

/**
 * Checks a card against `order.constraints` (issuer, brand, payment scheme), case-insensitively and with
 * spaces, dashes and underscores alike (`Visa-Electron` matches `VISA ELECTRON`).
 *
 * Maestro is Mastercard's debit brand, so a Maestro card meets `paymentScheme: 'MASTERCARD'` as well as
 * `'MAESTRO'`. A constraint on something not known about the card (an issuer the lookup did not give) is
 * not met: the merchant asked for certainty. Blank constraints count as absent.
 */
export function checkCardConstraints(card: CardFacts, constraints: OrderConstraints): ConstraintCheck {
  const paymentScheme = constraints.paymentScheme?.trim();
  if (paymentScheme) {
    const schemes =
      card.scheme === 'UNKNOWN' ? [] : card.scheme === 'MAESTRO' ? ['MAESTRO', 'MASTERCARD'] : [card.scheme];
    if (!schemes.some((scheme) => sameName(scheme, paymentScheme))) {
      return refusal('paymentScheme', paymentScheme, card.scheme === 'UNKNOWN' ? undefined : card.scheme);
    }
  }
  const brand = constraints.brand?.trim();
  if (brand) {
    const actual = card.brand?.trim() || (card.scheme === 'UNKNOWN' ? undefined : card.scheme);
    if (actual === undefined || !sameName(actual, brand))
      return refusal('brand', brand, actual?.toUpperCase());
  }
  const issuer = constraints.issuer?.trim();
  if (issuer) {
    const actual = card.issuer?.trim() || undefined;
    if (actual === undefined || !sameName(actual, issuer)) return refusal('issuer', issuer, actual);
  }
  return { ok: true };
}

function refusal(field: ConstraintField, expected: string, actual: string | undefined): ConstraintRefusal {
  return { ok: false, field, expected, ...(actual !== undefined && { actual }) };
}

function sameName(a: string, b: string): boolean {
  const canonical = (name: string) =>
    name
      .trim()
      .replace(/[\s_-]+/g, ' ')
      .toUpperCase();
  return canonical(a) === canonical(b);
}
