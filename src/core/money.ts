/**
 * Money as integer minor units (hundredths of the major unit: cents for EUR). Legacy orders quote amounts
 * with at most 2 decimals, so every amount in this library is a safe integer of hundredths.
 */
import { divideRoundHalfUp, parseDecimal } from './decimal.js';
import { SvcError } from './errors.js';

/** An amount in hundredths of the currency's major unit. Always a safe integer. */
export type MinorUnits = number;

/** Why an amount could not be read. */
export type AmountErrorCode = 'not_a_decimal' | 'too_many_decimals' | 'too_large';

/** An amount that could not be read, with what to change. */
export class AmountError extends SvcError<AmountErrorCode> {}

/** The largest amount we take: 10^13 minor units, far below `Number.MAX_SAFE_INTEGER` even once multiplied. */
export const MAX_MINOR_UNITS = 10 ** 13;

/**
 * Reads `12`, `12.5`, `"12.34"` or `-3.10` into minor units without float error.
 * @throws AmountError when the value is not a plain decimal, has more than 2 decimals, or is too large.
 */
export function parseMinorUnits(value: unknown): MinorUnits {
  const decimal = parseDecimal(value);
  if (!decimal) {
    throw new AmountError(
      'not_a_decimal',
      `${JSON.stringify(value)} is not an amount; write a decimal with a dot, such as 12.34`,
    );
  }
  if (decimal.scale > 2) {
    throw new AmountError(
      'too_many_decimals',
      `${decimal.text} has ${decimal.scale} decimals; amounts take at most 2 (such as 12.34)`,
    );
  }
  const minor = decimal.units * 10n ** BigInt(2 - decimal.scale);
  if (minor > BigInt(MAX_MINOR_UNITS) || minor < -BigInt(MAX_MINOR_UNITS)) {
    throw new AmountError('too_large', `${decimal.text} is larger than the largest amount taken (10^11)`);
  }
  return Number(minor);
}

/** Minor units as a plain decimal with exactly 2 places and a dot: `8800` gives `88.00`, `-5` gives `-0.05`. */
export function formatMinorUnits(minor: MinorUnits): string {
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** `minor x factor / 10^scale`, rounded half up to the minor unit, in integers throughout. */
export function multiplyMinorUnits(minor: MinorUnits, factorUnits: bigint, factorScale: number): MinorUnits {
  return Number(divideRoundHalfUp(BigInt(minor) * factorUnits, 10n ** BigInt(factorScale)));
}

const formatters = new Map<string, Intl.NumberFormat>();

/**
 * Formats an amount for people, as the locale writes it (`12,34 €` in `lv`, `€12.34` in `en`).
 * The float division here only feeds display; no arithmetic is done on its result.
 */
export function formatMoney(minor: MinorUnits, currency: string, locale: string): string {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(minor / 100);
}
