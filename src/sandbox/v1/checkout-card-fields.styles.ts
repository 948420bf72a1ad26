/**
 * The card form's own rules, served in the hosted page's stylesheet after the page's: the scheme's mark
 * inside the number's box, the line that reads only to assistive technology, and the deadline's warning.
 */
export const CARD_FIELDS_CSS = `
.card-number { position: relative; }
.card-number input { padding-right: 3.25rem; }
.card-number svg { position: absolute; right: .75rem; top: 50%; transform: translateY(-50%); pointer-events: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }
.due-warning:not(:empty) { border-left: 4px solid currentColor; padding: .25rem .75rem; font-weight: 600; }
`;
