/**
 * The card scheme's mark as the frame's Lit templates show it; the marks themselves are in
 * core/scheme-marks.ts, shared with the hosted checkout page (its script and the sandbox's HTML of it).
 */
import { html, nothing, type TemplateResult } from 'lit';
import { unsafeSVG } from 'lit/directives/unsafe-svg.js';
import type { CardScheme } from '../core/index.js';
import { SCHEME_MARKS } from '../core/scheme-marks.js';

/** A scheme a card can be of. */
export type KnownScheme = Exclude<CardScheme, 'UNKNOWN'>;

/**
 * One scheme's mark: named for assistive technology by `label`, or without one hidden from it (a mark
 * beside a text that says the same). The markup is a constant of scheme-marks.ts, never text from outside,
 * so it is written as the `<svg>`'s content (parsed as SVG there), by the gateway's first view too.
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
  >${unsafeSVG(SCHEME_MARKS[scheme])}</svg>`;
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
