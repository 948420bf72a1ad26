/**
 * The card scheme's mark as the frame's Lit templates show it; the marks themselves are in scheme-marks.ts,
 * shared with the hosted checkout page's script.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { CardScheme } from '../core/index.js';
import { GENERIC_CARD_MARK, SCHEME_MARKS } from './scheme-marks.js';

/**
 * The mark of a scheme, named for assistive technology by `label` (the scheme's name in the frame's
 * language); a generic, decorative card outline while the scheme is not known. The markup is a constant of
 * scheme-marks.ts, never text from outside, so it is set as the `<svg>`'s content (parsed as SVG there).
 */
export function schemeLogo(scheme: CardScheme, label: string): TemplateResult {
  const known = scheme !== 'UNKNOWN';
  return html`<svg
    class="svc-scheme-logo"
    viewBox="0 0 32 20"
    width="32"
    height="20"
    focusable="false"
    role=${known ? 'img' : nothing}
    aria-label=${known ? label : nothing}
    aria-hidden=${known ? nothing : 'true'}
    .innerHTML=${known ? SCHEME_MARKS[scheme] : GENERIC_CARD_MARK}
  ></svg>`;
}
