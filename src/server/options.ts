/**
 * The check every constructor and factory of the toolkit runs on its options object before anything else.
 * TypeScript refuses a misspelt, missing or wrongly typed option at compile time; JavaScript (and `as any`)
 * would run on with the option silently absent and fail far from the cause: a cache given `fetch:` instead
 * of `fetchPaymentMethods:` answered 502 to every lookup (issue 8). Here the mistake is a TypeError at
 * start-up that names the constructor and the option, and suggests the right name when one is close.
 */
import { isPlainObject } from '../core/plain-object.js';

/** How one option is checked. `Required` is tied to the options interface by {@link OptionRules}. */
export interface OptionRule<Required extends boolean = boolean> {
  readonly required: Required;
  /** What the option must be, as the messages say it: `a function (request) => ...`. */
  readonly what: string;
  /** Whether a given value (never `undefined`, which counts as left out) is of the right kind. */
  readonly accepts: (value: unknown) => boolean;
}

/**
 * A rule for every option of `Options`, required exactly where the interface requires it: the compiler keeps
 * the rules and the interface in step.
 */
export type OptionRules<Options> = {
  // biome-ignore lint/complexity/noBannedTypes: `{} extends Pick<…>` is how a type tells an optional member.
  readonly [Name in keyof Options]-?: OptionRule<{} extends Pick<Options, Name> ? false : true>;
};

/** An option that must be given. */
export function required(what: string, accepts: (value: unknown) => boolean): OptionRule<true> {
  return { required: true, what, accepts };
}

/** An option that may be left out (or given as `undefined`). */
export function optional(what: string, accepts: (value: unknown) => boolean): OptionRule<false> {
  return { required: false, what, accepts };
}

export const isString = (value: unknown): boolean => typeof value === 'string';
/** A string with something other than white space in it. */
export const isText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';
export const isNumber = (value: unknown): boolean => typeof value === 'number';
export const isFunction = (value: unknown): boolean => typeof value === 'function';
export const isDate = (value: unknown): boolean => value instanceof Date && !Number.isNaN(value.getTime());
export const isStringList = (value: unknown): boolean =>
  Array.isArray(value) && value.every((entry) => typeof entry === 'string');
/** An object with every one of `methods`, as a store or a cache is taken by what it does. */
export const hasMethods =
  (...methods: string[]) =>
  (value: unknown): boolean =>
    typeof value === 'object' &&
    value !== null &&
    methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');

/** Common rules, worded once. */
export const MILLISECONDS = 'a positive number of milliseconds';
export const onErrorRule = optional('a function (error) => void', isFunction);
export const maxBodyBytesRule = optional('a positive number of bytes', isNumber);
export const nowRule = optional(
  'a function returning the time in milliseconds, such as Date.now',
  isFunction,
);
export const storeRule = optional(
  'a CacheStore with get, set, claim and release methods, such as createRedisCacheStore(redis)',
  hasMethods('get', 'set', 'claim', 'release'),
);

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

/**
 * What a wrong value is, for a message: its kind, never a string's content (it may be a key).
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (typeof value === 'string') {
    if (value === '') return 'an empty string';
    return value.trim() === '' ? 'a blank string' : 'a string';
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return `the ${typeof value} ${String(value)}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return 'an array';
  const name = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor
    ?.name;
  return typeof name === 'string' && name !== '' && name !== 'Object' ? article(name) : 'an object';
}

/** Names compared without case, `_` or `-`: `brand_id`, `brandID` and `brandId` are one name. */
function comparable(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

/** Edits (insert, delete, replace, swap of neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const row = rows[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

function isSubsequence(short: string, long: string): boolean {
  let at = 0;
  for (const char of long) if (char === short[at]) at += 1;
  return at === short.length;
}

function commonPrefix(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length += 1;
  return length;
}

/**
 * How close `given` is to `known`, lower is closer, or undefined when it is not close: the same name in
 * another case, one that begins or contains the other (`fetch` for `fetchPaymentMethods`, `ttl` for `ttlMs`),
 * a long shared beginning, or a few typing slips.
 */
function closeness(given: string, known: string): number | undefined {
  const a = comparable(given);
  const b = comparable(known);
  if (a === '' || b === '') return undefined;
  if (a === b) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length >= 3) {
    if (long.startsWith(short)) return 1;
    if (long.includes(short)) return 2;
    if (short.length >= 4 && short[0] === long[0] && isSubsequence(short, long)) return 3;
  }
  if (commonPrefix(a, b) >= Math.max(4, Math.ceil(short.length / 2))) return 3;
  const slips = short.length <= 4 ? 1 : short.length <= 8 ? 2 : 3;
  return editDistance(a, b) <= slips ? 4 : undefined;
}

/** The known name closest to `given`, if any is close. */
export function closestName(given: string, known: readonly string[]): string | undefined {
  let best: { name: string; rank: number; gap: number } | undefined;
  for (const name of known) {
    const rank = closeness(given, name);
    if (rank === undefined) continue;
    const gap = Math.abs(name.length - given.length);
    if (best === undefined || rank < best.rank || (rank === best.rank && gap < best.gap))
      best = { name, rank, gap };
  }
  return best?.name;
}

/**
 * Checks an options object against its rules: unknown options first (a misspelt required option is also
 * missing, and its right name is the more useful message), then each rule in order, missing or of the wrong
 * kind. An option given as `undefined` counts as left out.
 * @param owner the constructor or factory as the merchant wrote it: `PaymentMethodsCache`, `createV1Client`.
 * @throws TypeError naming `owner` and the first option at fault, such as
 *   `PaymentMethodsCache: unknown option "fetch"; did you mean "fetchPaymentMethods"?`.
 */
export function checkOptions<Options>(owner: string, options: unknown, rules: OptionRules<Options>): void {
  const table = rules as Record<string, OptionRule>;
  const names = Object.keys(table);
  const requiredNames = names.filter((name) => table[name]!.required);
  if (!isPlainObject(options)) {
    if (names.length === 0) throw new TypeError(`${owner}: takes no options, not ${describeValue(options)}`);
    const needs = requiredNames.length > 0 ? ` with ${requiredNames.join(', ')}` : '';
    throw new TypeError(`${owner}: the options must be an object${needs}, not ${describeValue(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (Object.hasOwn(table, name)) continue;
    const suggestion = closestName(name, names);
    const hint =
      suggestion !== undefined
        ? `did you mean "${suggestion}"?`
        : names.length > 0
          ? `the options are ${names.join(', ')}`
          : 'it takes no options';
    throw new TypeError(`${owner}: unknown option "${name}"; ${hint}`);
  }
  for (const name of names) {
    const rule = table[name]!;
    const value = options[name];
    if (value === undefined) {
      if (rule.required) throw new TypeError(`${owner}: the option "${name}" is required: ${rule.what}`);
      continue;
    }
    if (!rule.accepts(value)) {
      throw new TypeError(`${owner}: the option "${name}" must be ${rule.what}, not ${describeValue(value)}`);
    }
  }
}
