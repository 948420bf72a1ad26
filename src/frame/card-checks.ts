/**
 * The card fields' checks in the frame's terms: core's validators, the card schemes the widget takes, and
 * the order's constraints where the number alone decides them, turned into texts to show. Kept apart from
 * the element so they can be tested as plain functions.
 */
import {
  type CardholderNameSetting,
  type CardScheme,
  cardNumberErrorKey,
  cardSchemeOf,
  checkCardConstraints,
  constraintErrorKey,
  cvcErrorKey,
  cvcLengths,
  expiryErrorKey,
  type FrameTranslate,
  KNOWN_CARD_SCHEMES,
  type Language,
  localeFor,
  type OrderConstraints,
  schemeNameKey,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../core/index.js';
import type { FieldError, KeyedError } from './form-fields.js';

/** The card fields as typed. */
export interface CardValues {
  number: string;
  expiry: string;
  cvc: string;
  holder: string;
}

/** The card fields' errors, by field. */
export type CardErrors = Partial<Record<keyof CardValues, FieldError>>;

/** Words joined as the language lists them (`Visa un Mastercard`, `3 or 4`). */
function listOf(words: readonly string[], language: Language, type: 'conjunction' | 'disjunction'): string {
  return new Intl.ListFormat(localeFor(language), { type }).format(words);
}

/** The constraint as the customer should read it: a scheme by its name, anything else as the merchant wrote it. */
function expectedText(expected: string, t: FrameTranslate): string {
  const scheme = expected.trim().toUpperCase() as CardScheme;
  return KNOWN_CARD_SCHEMES.includes(scheme) ? t(schemeNameKey(scheme)) : expected;
}

/**
 * The refusal of a number whose scheme the order's `paymentScheme` constraint excludes. The scheme shows
 * from the first digits, so the customer hears it before typing the rest; brand and issuer constraints need
 * the gateway's lookup and are refused by the gateway.
 */
export function schemeConstraintError(
  number: string,
  constraints: OrderConstraints,
  t: FrameTranslate,
): KeyedError | undefined {
  const scheme = cardSchemeOf(number);
  if (scheme === 'UNKNOWN' || !constraints.paymentScheme?.trim()) return undefined;
  const check = checkCardConstraints({ scheme }, { paymentScheme: constraints.paymentScheme });
  if (check.ok) return undefined;
  return { key: constraintErrorKey('paymentScheme'), params: { expected: expectedText(check.expected, t) } };
}

/**
 * The schemes a card may be of, shown before a digit is typed: those the widget takes that the order's
 * `paymentScheme` constraint leaves (Maestro counts as Mastercard there, as the gateway counts it).
 */
export function acceptedSchemes<S extends CardScheme>(
  schemes: readonly S[],
  constraints: OrderConstraints,
): S[] {
  const { paymentScheme } = constraints;
  return schemes.filter((scheme) => checkCardConstraints({ scheme }, { paymentScheme }).ok);
}

/** The schemes' names in a list as the language writes it (`Visa un Mastercard`). */
export function schemeNames(schemes: readonly CardScheme[], t: FrameTranslate, language: Language): string {
  return listOf(
    schemes.map((scheme) => t(schemeNameKey(scheme))),
    language,
    'conjunction',
  );
}

/**
 * The refusal of a card of a scheme the widget does not take (its config's `cardSchemes`), naming the
 * schemes it takes.
 */
export function schemeNotAcceptedError(
  schemes: readonly CardScheme[],
  t: FrameTranslate,
  language: Language,
): KeyedError {
  return {
    key: cardNumberErrorKey('scheme_not_accepted'),
    params: { accepted: schemeNames(schemes, t, language) },
  };
}

/**
 * The refusal of a number by its scheme, from its first digits on: the order's `paymentScheme` constraint
 * (the narrower, so its text is the more exact), then the schemes the widget takes.
 */
export function schemeError(
  number: string,
  constraints: OrderConstraints,
  schemes: readonly CardScheme[],
  t: FrameTranslate,
  language: Language,
): KeyedError | undefined {
  const scheme = cardSchemeOf(number);
  return (
    schemeConstraintError(number, constraints, t) ??
    (scheme === 'UNKNOWN' || schemes.includes(scheme)
      ? undefined
      : schemeNotAcceptedError(schemes, t, language))
  );
}

/** The refusal of a card the gateway turned down for the order's constraints (brand or issuer, or scheme). */
export function gatewayConstraintError(
  number: string,
  constraints: OrderConstraints,
  t: FrameTranslate,
): KeyedError | undefined {
  const byScheme = schemeConstraintError(number, constraints, t);
  if (byScheme) return byScheme;
  // The gateway checks scheme, brand, issuer in that order; the first one given past the scheme is the likely miss.
  for (const field of ['brand', 'issuer'] as const) {
    const expected = constraints[field]?.trim();
    if (expected) return { key: constraintErrorKey(field), params: { expected: expectedText(expected, t) } };
  }
  return undefined;
}

/** Why the card number cannot be sent, if it cannot. */
function cardNumberError(
  number: string,
  constraints: OrderConstraints,
  schemes: readonly CardScheme[],
  t: FrameTranslate,
  language: Language,
): KeyedError | undefined {
  const byScheme = schemeError(number, constraints, schemes, t, language);
  if (byScheme) return byScheme;
  const check = validateCardNumber(number, { acceptedSchemes: schemes });
  if (check.valid) return undefined;
  // A number of no scheme we know, once it has a card's length and passes Luhn.
  if (check.code === 'scheme_not_accepted') return schemeNotAcceptedError(schemes, t, language);
  return { key: cardNumberErrorKey(check.code) };
}

/** Why the expiry date cannot be sent, if it cannot. */
function expiryError(expiry: string, now: Date): KeyedError | undefined {
  const check = validateExpiry(expiry, now);
  return check.valid ? undefined : { key: expiryErrorKey(check.code) };
}

/** Why the CVC cannot be sent, if it cannot; its length depends on the number's scheme. */
export function cvcError(cvc: string, scheme: CardScheme, language: Language): KeyedError | undefined {
  const check = validateCvc(cvc, scheme);
  if (check.valid) return undefined;
  if (check.code === 'wrong_length') {
    const lengths = cvcLengths(scheme).map(String);
    return { key: cvcErrorKey(check.code), params: { length: listOf(lengths, language, 'disjunction') } };
  }
  return { key: cvcErrorKey(check.code) };
}

/** Why the holder's name cannot be sent, if it cannot: only a name the widget requires must be there. */
function holderError(holder: string, setting: CardholderNameSetting): KeyedError | undefined {
  return setting === 'required' && holder.trim() === '' ? { key: 'card.holder.error.empty' } : undefined;
}

/**
 * Every field's error; an empty object when the card can be sent. `schemes`: those the widget takes;
 * `holder`: whether the widget asks for the holder's name (the element's `cardholder-name`).
 */
export function cardErrors(
  values: CardValues,
  constraints: OrderConstraints,
  schemes: readonly CardScheme[],
  t: FrameTranslate,
  language: Language,
  now: Date,
  holder: CardholderNameSetting = 'required',
): Partial<Record<keyof CardValues, KeyedError>> {
  const errors: Partial<Record<keyof CardValues, KeyedError>> = {};
  const number = cardNumberError(values.number, constraints, schemes, t, language);
  const expiry = expiryError(values.expiry, now);
  const cvc = cvcError(values.cvc, cardSchemeOf(values.number), language);
  const holderName = holderError(values.holder, holder);
  if (number) errors.number = number;
  if (expiry) errors.expiry = expiry;
  if (cvc) errors.cvc = cvc;
  if (holderName) errors.holder = holderName;
  return errors;
}
