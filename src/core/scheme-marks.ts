/**
 * Card scheme marks as SVG markup for a 32x20 `viewBox`: simplified marks, drawn to be told apart at that
 * size, not brand artwork. Plain strings, so that the frame's Lit template, the hosted checkout page's
 * script (which has no Lit) and the sandbox's HTML of that page show the same marks; inline, since neither
 * page's policy allows images from elsewhere and a few shapes cost less than image files.
 */
import type { CardScheme } from './card.js';

export const SCHEME_MARKS: Readonly<Record<Exclude<CardScheme, 'UNKNOWN'>, string>> = {
  VISA: '<rect width="32" height="20" rx="3" fill="#1a1f71"/><text x="16" y="13.5" text-anchor="middle" font-family="Arial,sans-serif" font-size="9" font-style="italic" font-weight="700" fill="#fff">VISA</text>',
  MASTERCARD:
    '<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#eb001b"/><circle cx="19.5" cy="10" r="6" fill="#f79e1b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#ff5f00"/>',
  AMEX: '<rect width="32" height="20" rx="3" fill="#1f72cd"/><text x="16" y="13" text-anchor="middle" font-family="Arial,sans-serif" font-size="7.5" font-weight="700" fill="#fff">AMEX</text>',
  MAESTRO:
    '<rect width="32" height="20" rx="3" fill="#252525"/><circle cx="12.5" cy="10" r="6" fill="#0099df"/><circle cx="19.5" cy="10" r="6" fill="#e0001b"/><path d="M16 5.1a6 6 0 010 9.8 6 6 0 010-9.8z" fill="#6c6bbd"/>',
};
