/**
 * A duration option in milliseconds, `fallback` when left out. Its kind (a number) is checked with the other
 * options (options.ts); this checks its range.
 * @param owner the constructor or factory whose option it is, for the message.
 * @throws RangeError naming the owner and the option when it is not a positive number.
 */
export function durationOption(
  owner: string,
  name: string,
  value: number | undefined,
  fallback: number,
): number {
  const ms = value ?? fallback;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new RangeError(
      `${owner}: the option "${name}" must be a positive number of milliseconds, not ${ms}`,
    );
  }
  return ms;
}
