/**
 * JSON with numbers written as the real service writes them: money with 2 decimals and quantities with 3
 * (`88.00`, `1.000`), which `JSON.stringify` cannot do (it writes `88` and `1`). JSON readers see the same
 * numbers either way; the bytes matter because the purchase notification's signature is over them.
 */
import { divideRoundHalfUp } from '../../core/decimal.js';
import { formatMinorUnits, type MinorUnits } from '../../core/money.js';
import type { Quantity, TaxRate } from '../../core/order.js';

/**
 * A JSON number kept as its text. {@link writeJson} writes the text as it is; `JSON.stringify` writes the
 * plain number (through `toJSON`), for answers whose bytes nobody signs.
 */
export class JsonNumber {
  constructor(readonly text: string) {}

  toJSON(): number {
    return Number(this.text);
  }
}

/** `T` with each number member given as a {@link JsonNumber}: what {@link writeJson} takes for a `T`. */
export type Written<T> = T extends number
  ? JsonNumber
  : T extends ReadonlyArray<infer Item>
    ? Written<Item>[]
    : T extends object
      ? { [Member in keyof T]: Written<T[Member]> }
      : T;

/** Minor units as major units with 2 decimals: `8800` is `88.00`. */
export function money(minor: MinorUnits): JsonNumber {
  return new JsonNumber(formatMinorUnits(minor));
}

/** A quantity with 3 decimals: 2 is `2.000`, 1.5 kg `1.500`. */
export function quantity(count: Quantity): JsonNumber {
  const digits = String(count.thousandths).padStart(4, '0');
  return new JsonNumber(`${digits.slice(0, -3)}.${digits.slice(-3)}`);
}

/** A tax rate as a fraction with at least 2 decimals and no more than it needs: `0.21`, `0.00`, `0.055`. */
export function fraction(rate: TaxRate): JsonNumber {
  const digits = String(rate.ppm).padStart(7, '0');
  const decimals = digits.slice(-6).replace(/0+$/, '').padEnd(2, '0');
  return new JsonNumber(`${digits.slice(0, -6)}.${decimals}`);
}

/**
 * The net unit price of a line: `(total - tax) / count`, rounded half up to the cent, in integers throughout
 * (72.73 for one piece at a gross 88.00 and 21%).
 */
export function netUnitAmount(total: MinorUnits, tax: MinorUnits, count: Quantity): MinorUnits {
  return Number(divideRoundHalfUp(BigInt(total - tax) * 1000n, BigInt(count.thousandths)));
}

/**
 * JSON text of `value`, as `JSON.stringify` writes it without spacing, except that a {@link JsonNumber} is
 * written as its text. Members whose value is `undefined` are left out.
 */
export function writeJson(value: unknown): string {
  if (value instanceof JsonNumber) return value.text;
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .map(([name, member]) => `${JSON.stringify(name)}:${writeJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}
