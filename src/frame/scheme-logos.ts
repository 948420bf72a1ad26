/**
 * Card scheme marks as inline SVG: the frame's policy allows no images from elsewhere, and a few shapes
 * cost less than image files. Simplified marks, drawn to be told apart at 32x20, not brand artwork.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { CardScheme } from '../core/index.js';

const MARKS: Readonly<Record<Exclude<CardScheme, 'UNKNOWN'>, ReturnType<typeof svg>>> = {
  VISA: svg`<rect width="32" height="20" rx="3" fill="#1a1f71"/><text x="16" y="13.5" text-anchor="middle" font-family="Arial,sans-serif" font-size="9" font-style="italic" font-weight="700" fill="#fff">VISA</text>`,
  MASTERCARD: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#ff5f00"/>`,
  AMEX: svg`<rect width="32" height="20" rx="3" fill="#1f72cd"/><text x="16" y="13" text-anchor="middle" font-family="Arial,sans-serif" font-size="7.5" font-weight="700" fill="#fff">AMEX</text>`,
  MAESTRO: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#0099df"/><circle cx="19.5" cy="10" r="6" fill="#e0001b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#6c6bbd"/>`,
};

const GENERIC_CARD = svg`<rect x=".5" y=".5" width="31" height="19" rx="2.5" fill="none" stroke="currentColor"/><rect x="1" y="4" width="30" height="3" fill="currentColor"/><rect x="4" y="12" width="10" height="2" rx="1" fill="currentColor"/>`;

/**
 * The mark of a scheme, named for assistive technology by `label` (the scheme's name in the frame's
 * language); a generic, decorative card outline while the scheme is not known.
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
  >${known ? MARKS[scheme] : GENERIC_CARD}</svg>`;
}
