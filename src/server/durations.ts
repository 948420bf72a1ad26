/**
 * A duration option in milliseconds, `fallback` when left out.
 * @throws RangeError naming the option when it is not a positive number.
 */
export function durationOption(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new RangeError(`${name} must be a positive number of milliseconds, not ${ms}`);
  }
  return ms;
}
