/**
 * Reads a helper's input, from a test's call or an HTTP body alike: anything may arrive, and every refusal
 * names the member to fix. Unknown members are refused too, so a typo (`threeDSecur`) is not silently ignored.
 */
import { isPlainObject } from '../../core/plain-object.js';
import { invalidInput } from './test-helper-error.js';

export type Members = Record<string, unknown>;

/** `value` as an object with only the `allowed` members. */
export function membersOf(value: unknown, field: string, allowed: readonly string[]): Members {
  if (!isPlainObject(value)) throw invalidInput(field, `${field} must be an object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw invalidInput(joined(field, key), `${joined(field, key)} is not taken; use ${allowed.join(', ')}`);
  }
  return value;
}

export function optionalString(members: Members, key: string, field: string): string | undefined {
  const value = members[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '')
    throw invalidInput(joined(field, key), `${joined(field, key)} must be a non-empty string`);
  return value;
}

export function requiredString(members: Members, key: string, field: string): string {
  const value = optionalString(members, key, field);
  if (value === undefined) throw invalidInput(joined(field, key), `${joined(field, key)} is required`);
  return value;
}

export function optionalChoice<const T extends string>(
  members: Members,
  key: string,
  field: string,
  choices: readonly T[],
): T | undefined {
  const value = members[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !choices.includes(value as T))
    throw invalidInput(
      joined(field, key),
      `${joined(field, key)} must be one of ${choices.join(', ')}; it was ${JSON.stringify(value)}`,
    );
  return value as T;
}

export function optionalBoolean(members: Members, key: string, field: string): boolean | undefined {
  const value = members[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean')
    throw invalidInput(joined(field, key), `${joined(field, key)} must be true or false`);
  return value;
}

/** A whole number of minor units, above 0. */
export function optionalAmount(members: Members, key: string, field: string): number | undefined {
  const value = members[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw invalidInput(
      joined(field, key),
      `${joined(field, key)} must be a whole number of minor units above 0 (such as 500 for 5.00)`,
    );
  return value;
}

function joined(field: string, key: string): string {
  return field === '' ? key : `${field}.${key}`;
}
