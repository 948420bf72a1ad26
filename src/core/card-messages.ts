/**
 * English sentences for the refusals of the card checks (card.ts), for the sandbox's answers and logs. The
 * frame shows its translated text for each refusal's code instead, so these stay out of its bundle. No
 * sentence repeats the number, the expiry date or the CVC.
 */
import {
  CARD_SCHEME_NAMES,
  type CardNumberErrorCode,
  type CardNumberOptions,
  type CardScheme,
  type ConstraintRefusal,
  type CvcErrorCode,
  cardNumberLengths,
  cardSchemeOf,
  cvcLengths,
  type ExpiryErrorCode,
  KNOWN_CARD_SCHEMES,
  normalizeCardNumber,
} from './card.js';

/** Why `validateCardNumber(input, options)` refused a number with `code`. */
export function cardNumberMessage(
  code: CardNumberErrorCode,
  input: string,
  options: CardNumberOptions = {},
): string {
  const number = normalizeCardNumber(input);
  const scheme = cardSchemeOf(number);
  switch (code) {
    case 'empty':
      return 'Enter the card number.';
    case 'not_digits':
      return 'A card number has only digits (spaces and dashes are fine); remove the other characters.';
    case 'wrong_length': {
      const whose = scheme === 'UNKNOWN' ? 'A card number' : `A ${CARD_SCHEME_NAMES[scheme]} card number`;
      const lengths = describeLengths(cardNumberLengths(scheme));
      return `${whose} has ${lengths} digits; this one has ${number.length}. Check the number.`;
    }
    case 'luhn_failed':
      return 'This card number is not valid; check it for typos.';
    case 'scheme_not_accepted':
      return schemeNotAccepted(scheme, options.acceptedSchemes ?? KNOWN_CARD_SCHEMES);
  }
}

function schemeNotAccepted(scheme: CardScheme, accepted: readonly CardScheme[]): string {
  const names = accepted.filter((s) => s !== 'UNKNOWN').map((s) => CARD_SCHEME_NAMES[s]);
  const takes =
    names.length > 0 ? `this payment takes ${joinWords(names, 'and')} cards` : 'this payment takes no cards';
  const card =
    scheme === 'UNKNOWN'
      ? 'This card is of a scheme we do not recognise'
      : `This is a ${CARD_SCHEME_NAMES[scheme]} card`;
  return `${card}; ${takes}. Use another card.`;
}

function describeLengths(lengths: readonly number[]): string {
  const first = lengths[0]!;
  const last = lengths[lengths.length - 1]!;
  if (lengths.length > 2 && last - first === lengths.length - 1) return `${first} to ${last}`;
  return joinWords(lengths.map(String), 'or');
}

function joinWords(words: readonly string[], conjunction: 'and' | 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

const EXPIRY_MESSAGES: Readonly<Record<ExpiryErrorCode, string>> = {
  empty: 'Enter the expiry date (MM/YY).',
  malformed: 'Write the expiry date as on the card, month then year: MM/YY, such as 04/29.',
  bad_month: 'The expiry month is 01 to 12; check the date on the card.',
  expired: 'This card has expired; check the date or use another card.',
  too_far: 'The expiry date is more than 20 years away; check the year on the card.',
};

/** Why `validateExpiry` refused an expiry date with `code`. */
export function expiryMessage(code: ExpiryErrorCode): string {
  return EXPIRY_MESSAGES[code];
}

/** Why `validateCvc(input, scheme)` refused a CVC with `code`. */
export function cvcMessage(code: CvcErrorCode, scheme: CardScheme): string {
  switch (code) {
    case 'empty':
      return 'Enter the security code (CVC) from the back of the card.';
    case 'not_digits':
      return 'The security code (CVC) has digits only.';
    case 'wrong_length': {
      const where =
        scheme === 'AMEX' ? 'on the front of an American Express card' : 'on the back of the card';
      const whose =
        scheme === 'UNKNOWN' ? 'A security code' : `The security code of a ${CARD_SCHEME_NAMES[scheme]} card`;
      return `${whose} has ${joinWords(cvcLengths(scheme).map(String), 'or')} digits; find it ${where}.`;
    }
  }
}

/** Why `checkCardConstraints` refused a card: the constraint it misses, and what the card has instead. */
export function constraintMessage({ field, expected, actual }: ConstraintRefusal): string {
  if (field === 'issuer') {
    const issuedBy =
      actual === undefined ? "this card's issuer is unknown" : `this card is issued by ${actual}`;
    return `This order accepts only cards issued by ${expected}; ${issuedBy}.`;
  }
  const what = field === 'brand' ? 'brand' : 'scheme';
  const card = actual === undefined ? `this card's ${what} is unknown` : `this card is ${actual}`;
  return `This order accepts only ${expected.toUpperCase()} cards; ${card}.`;
}
