/**
 * The card form's own rules, served in the hosted page's stylesheet after the page's: the marks inside the
 * number's box (those of the schemes taken, smaller and in a row, until the script shows the typed number's
 * scheme alone, as the frame does), the lines that read only to assistive technology, and the deadline's
 * warning. The v1 card methods are two schemes, so the row needs room for two marks at most.
 */
export const CARD_FIELDS_CSS = `
.card-number { position: relative; }
.card-number input { padding-right: 3.25rem; }
.card-number:has(.scheme-marks:not([hidden]) svg + svg) input { padding-right: 5rem; }
.card-number > svg, .scheme-marks { position: absolute; right: .75rem; top: 50%; transform: translateY(-50%);
  pointer-events: none; }
.scheme-marks { display: flex; gap: 4px; }
.scheme-marks[hidden] { display: none; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; }
.due-warning:not(:empty) { border-left: 4px solid currentColor; padding: .25rem .75rem; font-weight: 600; }
`;
