/**
 * Card scheme marks as inline SVG: the frame's policy allows no images from elsewhere, and a few shapes
 * cost less than image files. Simplified marks, drawn to be told apart at 32x20, not brand artwork.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { CardScheme } from '../core/index.js';

/** A scheme a card can be of. */
export type KnownScheme = Exclude<CardScheme, 'UNKNOWN'>;

const MARKS: Readonly<Record<KnownScheme, ReturnType<typeof svg>>> = {
  VISA: svg`<rect width="32" height="20" rx="3" fill="#1a1f71"/><text x="16" y="13.5" text-anchor="middle" font-family="Arial,sans-serif" font-size="9" font-style="italic" font-weight="700" fill="#fff">VISA</text>`,
  MASTERCARD: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#ff5f00"/>`,
  AMEX: svg`<rect width="32" height="20" rx="3" fill="#1f72cd"/><text x="16" y="13" text-anchor="middle" font-family="Arial,sans-serif" font-size="7.5" font-weight="700" fill="#fff">AMEX</text>`,
  MAESTRO: svg`<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#0099df"/><circle cx="19.5" cy="10" r="6" fill="#e0001b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#6c6bbd"/>`,
};

/**
 * One scheme's mark: named for assistive technology by `label`, or without one hidden from it (a mark
 * beside a text that says the same).
 */
function mark(scheme: KnownScheme, label?: string): TemplateResult {
  return html`<svg
    class="svc-scheme-logo"
    viewBox="0 0 32 20"
    width="32"
    height="20"
    focusable="false"
    role=${label ? 'img' : nothing}
    aria-label=${label ?? nothing}
    aria-hidden=${label ? nothing : 'true'}
  >${MARKS[scheme]}</svg>`;
}

/**
 * The mark of a scheme, named for assistive technology by `label` (the scheme's name in the frame's
 * language); nothing while the scheme is not known.
 */
export function schemeLogo(scheme: CardScheme, label: string): TemplateResult {
  return scheme === 'UNKNOWN' ? html`` : mark(scheme, label);
}

/**
 * The marks of the schemes a card may be of, smaller, in a row, before a scheme is known. Hidden from
 * assistive technology: the field's hint names them once (card-fields.ts), where marks would be read out
 * one by one.
 */
export function acceptedLogos(schemes: readonly KnownScheme[]): TemplateResult {
  return html`<span class="svc-scheme-logos">${schemes.map((scheme) => mark(scheme))}</span>`;
}
