/**
 * Exact decimals for money, counts and tax rates. Values arrive as merchants write them (JSON numbers or
 * decimal strings); they are read digit by digit into integers so that no float ever rounds them.
 */

/** A decimal read exactly: `units / 10^scale`, with `text` the plain decimal as written. */
export interface ExactDecimal {
  units: bigint;
  scale: number;
  text: string;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * The plain decimal text of a merchant's value, or `undefined` when it is not a finite decimal. A JS number
 * is taken by its shortest round-trip text (`0.1` stays `0.1`); exponent forms are refused.
 */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    return DECIMAL.test(text) ? text : undefined;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    return DECIMAL.test(text) ? text : undefined;
  }
  return undefined;
}

/** Reads a decimal exactly, or `undefined` when the text is not a plain decimal. */
export function parseDecimal(value: unknown): ExactDecimal | undefined {
  const text = decimalText(value);
  if (text === undefined) return undefined;
  const [, sign, whole, fraction = ''] = DECIMAL.exec(text)!;
  const units = BigInt(`${sign}${whole}${fraction}`);
  return { units, scale: fraction.length, text };
}

/** `value` rescaled to `scale` places; only for scales at least the decimal's own. */
export function toScale(value: ExactDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}

/** `numerator / denominator` rounded half away from zero, for a positive denominator. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return negative ? -rounded : rounded;
}
