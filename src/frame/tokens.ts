/**
 * Design tokens in the frame's stylesheets: `var(--svc-..., default)`, with the default written once in
 * core (`DESIGN_TOKENS`), so a token the merchant did not set still has its value.
 */
import { type CSSResult, unsafeCSS } from 'lit';
import { type TokenName, tokenVar } from '../core/index.js';

/** The token as a CSS value for Lit's `css` tag. Token names and defaults are ours, never the page's. */
export function token(name: TokenName): CSSResult {
  return unsafeCSS(tokenVar(name));
}
