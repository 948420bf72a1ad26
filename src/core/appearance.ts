/**
 * Theming across the iframe boundary (ARCHITECTURE.md, "Theming across the frame"): the element reads its
 * `--svc-*` custom properties, and the frame, served by the gateway, applies them. The values cross as data,
 * and the frame puts them into CSS of its own page, so they are held to an allow-list: known token names
 * only, and per kind of token a strict grammar with no functions but plain colour functions, no `url(`,
 * `var(`, `expression`, `@import`, no `;`, `{`, `}`, `<`, `>`, backslashes or unbalanced quotes. A sanitized
 * value cannot end its declaration, open a rule, load anything or reach another property; at worst it makes
 * the payment form ugly.
 *
 * The token list is data (`DESIGN_TOKENS`), so the frame's defaults and these checks come from one place; the
 * element's `@cssproperty` JSDoc describes each token for people (test/element/define.test.ts holds the two
 * to the same names and defaults). What the merchant reads of a value left out is in appearance-messages.ts,
 * which the frame loads only when it has a value to leave out.
 */

import {
  type Appearance,
  DESIGN_TOKENS,
  type DesignToken,
  type LengthRange,
  TOKEN_NAMES,
  TOKENS_BY_NAME,
  type TokenKind,
  type TokenName,
} from './design-tokens.js';
import { isPlainObject } from './plain-object.js';

/** Why a value of the raw appearance was not kept. */
export type AppearanceRejectionCode =
  | 'unknown_token'
  | 'not_a_string'
  | 'too_long'
  | 'invalid_color'
  | 'invalid_length'
  | 'length_out_of_range'
  | 'invalid_font_family';

/** One value left out of the appearance, by the name it was given under and why. */
export interface AppearanceRejectionCause {
  name: string;
  code: AppearanceRejectionCode;
}

/** The sanitized appearance and what was left out of it, by cause (appearance-messages.ts words each). */
export interface AppearanceScreening {
  appearance: Appearance;
  rejected: AppearanceRejectionCause[];
}

/** The longest value each kind of token takes. */
export const MAX_LENGTH: Readonly<Record<TokenKind, number>> = { color: 64, length: 16, 'font-family': 200 };

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
// A colour function's argument: a plain number, optionally a percentage or (for a hue) degrees.
const ARG = '[+-]?(?:\\d{1,3}(?:\\.\\d{1,6})?|\\.\\d{1,6})(?:%|deg)?';
const SPACES = '[ \\t]*';
const COLOR_FUNCTION_COMMAS = /* @__PURE__ */ new RegExp(
  `^(?:rgba?|hsla?)\\(${SPACES}${ARG}${SPACES},${SPACES}${ARG}${SPACES},${SPACES}${ARG}${SPACES}(?:,${SPACES}${ARG}${SPACES})?\\)$`,
  'i',
);
const COLOR_FUNCTION_SPACES = /* @__PURE__ */ new RegExp(
  `^(?:rgba?|hsla?)\\(${SPACES}${ARG}[ \\t]+${ARG}[ \\t]+${ARG}${SPACES}(?:/${SPACES}${ARG}${SPACES})?\\)$`,
  'i',
);

/** CSS named colours (CSS Color Module Level 4) and `transparent`, built on first use. */
let namedColors: ReadonlySet<string> | undefined;
const NAMED_COLOR_LIST =
  'aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet brown ' +
  'burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan ' +
  'darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid ' +
  'darkred darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet ' +
  'deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ' +
  'ghostwhite gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki ' +
  'lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan lightgoldenrodyellow ' +
  'lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen lightskyblue lightslategray ' +
  'lightslategrey lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine ' +
  'mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen ' +
  'mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace ' +
  'olive olivedrab orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred ' +
  'papayawhip peachpuff peru pink plum powderblue purple rebeccapurple red rosybrown royalblue ' +
  'saddlebrown salmon sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey ' +
  'snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow ' +
  'yellowgreen transparent';

function isNamedColor(lowercase: string): boolean {
  namedColors ??= new Set(NAMED_COLOR_LIST.split(' '));
  return namedColors.has(lowercase);
}

const LENGTH = /^(\d{1,4}(?:\.\d{1,4})?|\.\d{1,4})(px|rem|em|%)?$/i;
const PX_PER_EM = 16;

// One family: a quoted name (closed by the same quote) or unquoted words of letters, digits and hyphens.
const FONT_FAMILY = /^(?:"[A-Za-z0-9 -]+"|'[A-Za-z0-9 -]+'|[A-Za-z0-9-]+(?: +[A-Za-z0-9-]+)*)$/;
// CSS-wide keywords would make the token inherit or reset instead of naming a font.
const CSS_WIDE_KEYWORDS = /* @__PURE__ */ new Set([
  'inherit',
  'initial',
  'unset',
  'revert',
  'revert-layer',
  'default',
]);

type ValueCheck = { ok: true; value: string } | { ok: false; code: AppearanceRejectionCode };

function checkColor(value: string): ValueCheck {
  if (HEX_COLOR.test(value) || COLOR_FUNCTION_COMMAS.test(value) || COLOR_FUNCTION_SPACES.test(value)) {
    return { ok: true, value };
  }
  const lower = value.toLowerCase();
  if (isNamedColor(lower)) return { ok: true, value: lower };
  return { ok: false, code: 'invalid_color' };
}

function checkLength(value: string, range: LengthRange): ValueCheck {
  const match = LENGTH.exec(value);
  if (!match) return { ok: false, code: 'invalid_length' };
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase();
  let inRange: boolean;
  if (unit === '') inRange = amount === 0 && range.minPx === 0;
  else if (unit === '%')
    inRange = range.percent !== undefined && within(amount, range.percent.min, range.percent.max);
  else inRange = within(unit === 'px' ? amount : amount * PX_PER_EM, range.minPx, range.maxPx);
  return inRange ? { ok: true, value } : { ok: false, code: 'length_out_of_range' };
}

function within(amount: number, min: number, max: number): boolean {
  return amount >= min && amount <= max;
}

function checkFontFamily(value: string): ValueCheck {
  const families = value.split(',').map((family) => family.trim());
  const valid =
    families.every((family) => FONT_FAMILY.test(family)) &&
    !CSS_WIDE_KEYWORDS.has(value.toLowerCase()) &&
    !/expression/i.test(value);
  return valid ? { ok: true, value: families.join(', ') } : { ok: false, code: 'invalid_font_family' };
}

function checkValue(token: DesignToken, value: string): ValueCheck {
  if (value.length > MAX_LENGTH[token.kind]) return { ok: false, code: 'too_long' };
  switch (token.kind) {
    case 'color':
      return checkColor(value);
    case 'length':
      return checkLength(value, token.range);
    case 'font-family':
      return checkFontFamily(value);
  }
}

/**
 * Checks a raw appearance (from an element's computed style, or from a message the frame received) and
 * says what was left out and why, by code (`checkAppearance` words each for the merchant). Values are
 * trimmed; an empty value means the token is not set and is skipped without a warning. Only own properties
 * are read.
 */
export function screenAppearance(raw: unknown): AppearanceScreening {
  const appearance: Appearance = {};
  const rejected: AppearanceRejectionCause[] = [];
  if (!isPlainObject(raw)) return { appearance, rejected };
  for (const name of Object.keys(raw)) {
    const token = TOKENS_BY_NAME.get(name);
    const value = raw[name];
    let check: ValueCheck | undefined;
    if (token === undefined) check = { ok: false, code: 'unknown_token' };
    else if (typeof value !== 'string') check = { ok: false, code: 'not_a_string' };
    else if (value.trim() !== '') check = checkValue(token, value.trim());
    if (check?.ok) appearance[name as TokenName] = check.value;
    else if (check) rejected.push({ name, code: check.code });
  }
  return { appearance, rejected };
}

/** The allow-listed part of a raw appearance: known tokens whose values pass their kind's check. */
export function sanitizeAppearance(raw: Readonly<Record<string, unknown>>): Appearance {
  return screenAppearance(raw).appearance;
}

/**
 * The sanitized declarations of an appearance, in token order, for `style.setProperty(name, value)` (which
 * a strict Content-Security-Policy allows where a `<style>` element with inline text is refused). Values
 * are checked again here, so an object that was not built by `sanitizeAppearance` is safe too.
 */
export function appearanceEntries(appearance: Appearance): Array<[TokenName, string]> {
  const clean = sanitizeAppearance(appearance);
  const entries: Array<[TokenName, string]> = [];
  for (const name of TOKEN_NAMES) {
    const value = clean[name];
    if (value !== undefined) entries.push([name, value]);
  }
  return entries;
}

/**
 * The appearance as one rule, `:root{--svc-...:...;}`, for a constructed stylesheet in the frame. Values are
 * checked again, as in `appearanceEntries`.
 */
export function appearanceToCss(appearance: Appearance): string {
  return `:root{${appearanceEntries(appearance)
    .map(([name, value]) => `${name}:${value};`)
    .join('')}}`;
}
