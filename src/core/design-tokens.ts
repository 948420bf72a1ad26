/**
 * The design tokens a merchant may set on the element (`--svc-*`), with the frame's defaults: data, written
 * once, that the frame's stylesheets read (`tokenVar`) and the appearance's checks (appearance.ts) hold
 * values to. Apart from those checks, so that the frame's styles do not bring core's colour names and value
 * grammars into a chunk that needs only the defaults.
 */

import type { DESIGN_TOKEN_NAMES } from './design-token-names.js';

/** The kind of value a token takes, which decides how it is checked. */
export type TokenKind = 'color' | 'length' | 'font-family';

/**
 * The lengths a length token takes: `minPx`..`maxPx` for `px`, and for `em`/`rem` at 16px to the em; a
 * percentage only when `percent` is given. Bounds keep a slip (`400px` for a radius) from breaking the form.
 */
export interface LengthRange {
  readonly minPx: number;
  readonly maxPx: number;
  readonly percent?: { readonly min: number; readonly max: number };
}

interface TokenBase {
  /** The custom property, as set on the element and in the frame. */
  readonly name: `--svc-${string}`;
  /** The value the frame uses when the merchant sets none. */
  readonly default: string;
}

/** One design token the merchant may set on the element. */
export type DesignToken =
  | (TokenBase & { readonly kind: 'color' })
  | (TokenBase & { readonly kind: 'font-family' })
  | (TokenBase & { readonly kind: 'length'; readonly range: LengthRange });

/** A tuple of tokens named, in order, exactly as `Names` lists them. */
type TokensNamed<Names extends readonly string[]> = {
  readonly [Index in keyof Names]: DesignToken & { readonly name: Names[Index] };
};

/**
 * Every token that reaches the frame, named and ordered exactly as `DESIGN_TOKEN_NAMES` (a compile error
 * otherwise). Default colours meet WCAG AA on the default background: text and muted text 4.5:1 or more,
 * borders and focus ring 3:1 or more.
 */
export const DESIGN_TOKENS = [
  {
    name: '--svc-color-primary',
    kind: 'color',
    default: '#1a56db',
  },
  {
    name: '--svc-color-primary-contrast',
    kind: 'color',
    default: '#ffffff',
  },
  { name: '--svc-color-text', kind: 'color', default: '#1f2937' },
  {
    name: '--svc-color-muted',
    kind: 'color',
    default: '#4b5563',
  },
  {
    name: '--svc-color-background',
    kind: 'color',
    default: '#ffffff',
  },
  {
    name: '--svc-color-surface',
    kind: 'color',
    default: '#f9fafb',
  },
  {
    name: '--svc-color-border',
    kind: 'color',
    default: '#6b7280',
  },
  {
    name: '--svc-color-error',
    kind: 'color',
    default: '#b91c1c',
  },
  {
    name: '--svc-color-success',
    kind: 'color',
    default: '#047857',
  },
  {
    name: '--svc-color-focus',
    kind: 'color',
    default: '#2563eb',
  },
  {
    name: '--svc-font-family',
    kind: 'font-family',
    default: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
  {
    name: '--svc-font-size',
    kind: 'length',
    default: '16px',
    range: { minPx: 10, maxPx: 32, percent: { min: 62.5, max: 200 } },
  },
  {
    name: '--svc-border-radius',
    kind: 'length',
    default: '6px',
    range: { minPx: 0, maxPx: 32, percent: { min: 0, max: 50 } },
  },
  {
    name: '--svc-spacing',
    kind: 'length',
    default: '12px',
    range: { minPx: 0, maxPx: 48 },
  },
  {
    name: '--svc-input-height',
    kind: 'length',
    default: '44px',
    range: { minPx: 24, maxPx: 96 },
  },
] as const satisfies TokensNamed<typeof DESIGN_TOKEN_NAMES>;

/** The name of a design token, such as `--svc-color-primary`. */
export type TokenName = (typeof DESIGN_TOKENS)[number]['name'];

/** The allow-listed appearance the element sends and the frame applies: sanitized values by token. */
export type Appearance = Partial<Record<TokenName, string>>;

/**
 * Every token name, in the order of `DESIGN_TOKENS` (the same list as `DESIGN_TOKEN_NAMES`, which the type of
 * `DESIGN_TOKENS` holds it to). Read from the tokens, so that the frame's bundle does not write the names twice.
 */
export const TOKEN_NAMES: readonly TokenName[] = /* @__PURE__ */ DESIGN_TOKENS.map((token) => token.name);

/** Every token's default value. */
export const DEFAULT_APPEARANCE: Readonly<Record<TokenName, string>> = /* @__PURE__ */ Object.fromEntries(
  /* @__PURE__ */ DESIGN_TOKENS.map((token) => [token.name, token.default]),
) as Record<TokenName, string>;

// Module-level calls are marked pure so that bundlers drop what a bundle does not use.
export const TOKENS_BY_NAME: ReadonlyMap<string, DesignToken> = /* @__PURE__ */ new Map(
  /* @__PURE__ */ DESIGN_TOKENS.map((token) => [token.name, token as DesignToken]),
);

/** Whether a string names a design token. */
export function isTokenName(name: string): name is TokenName {
  return TOKENS_BY_NAME.has(name);
}

/**
 * `var(--svc-..., default)` for the frame's stylesheet, so a token the merchant did not set falls back to
 * the default written in one place.
 */
export function tokenVar(name: TokenName): string {
  return `var(${name}, ${DEFAULT_APPEARANCE[name]})`;
}
