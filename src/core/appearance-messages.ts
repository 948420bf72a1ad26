/**
 * What the merchant reads in the console of an appearance value the frame leaves out (appearance.ts checks
 * it): a module of its own, which the frame loads only when a page sets a token it cannot use, so that no
 * page load downloads these sentences for a page that sets its tokens right.
 */
import { type AppearanceRejectionCode, MAX_LENGTH, screenAppearance } from './appearance.js';
import {
  type Appearance,
  type LengthRange,
  TOKEN_NAMES,
  TOKENS_BY_NAME,
  type TokenName,
} from './design-tokens.js';

/** One value left out of the appearance, with a message for the merchant's console. */
export interface AppearanceRejection {
  name: string;
  code: AppearanceRejectionCode;
  message: string;
}

/** The sanitized appearance and what was left out of it. */
export interface AppearanceCheck {
  appearance: Appearance;
  rejected: AppearanceRejection[];
}

function describeRange(range: LengthRange): string {
  const px = `${range.minPx}px to ${range.maxPx}px`;
  return range.percent ? `${px}, or ${range.percent.min}% to ${range.percent.max}%` : px;
}

/** The message of a value given under `name` and left out for `code`, for the merchant's console. */
export function rejectionMessage(name: string, code: AppearanceRejectionCode): string {
  const token = TOKENS_BY_NAME.get(name);
  switch (code) {
    case 'unknown_token':
      return `${name} is not a design token of svc-checkout; the tokens are ${TOKEN_NAMES.join(', ')}.`;
    case 'not_a_string':
      return `${name} must be a string.`;
    case 'too_long':
      return `${name} is longer than ${token ? MAX_LENGTH[token.kind] : 0} characters.`;
    case 'invalid_color':
      return `${name} takes a colour as #rgb, #rrggbb (with optional alpha), rgb()/rgba()/hsl()/hsla() with numbers, or a CSS colour name.`;
    case 'invalid_font_family':
      return `${name} takes a comma-separated list of font names: letters, digits, spaces and hyphens, each name optionally in quotes.`;
  }
  const range = token?.kind === 'length' ? token.range : { minPx: 0, maxPx: 0 };
  return code === 'invalid_length'
    ? `${name} takes a length as a number with px, rem, em${range.percent ? ' or %' : ''} (${describeRange(range)}).`
    : `${name} must be ${describeRange(range)}.`;
}

/**
 * Checks a raw appearance (from an element's computed style, or from a message the frame received) and
 * says what was left out and why, so that the merchant can be warned once. Values are trimmed; an empty
 * value means the token is not set and is skipped without a warning. Only own properties are read.
 */
export function checkAppearance(raw: unknown): AppearanceCheck {
  const { appearance, rejected } = screenAppearance(raw);
  return {
    appearance,
    rejected: rejected.map(({ name, code }) => ({ name, code, message: rejectionMessage(name, code) })),
  };
}

/**
 * Reads every token through `read` (for example an element's computed style, `getPropertyValue`) and
 * sanitizes the result, with what was left out. `<svc-checkout>` itself sends the raw values and leaves the
 * check to the frame, which keeps its script-tag file small. Kept free of the DOM so that core stays pure.
 */
export function collectAppearance(read: (name: TokenName) => string | null | undefined): AppearanceCheck {
  const raw: Record<string, string> = {};
  for (const name of TOKEN_NAMES) {
    const value = read(name);
    if (typeof value === 'string') raw[name] = value;
  }
  return checkAppearance(raw);
}
