/**
 * Styles of elements that render into the light DOM, adopted by the document as constructed stylesheets.
 * The frame's Content-Security-Policy (`style-src 'self'`) refuses `<style>` elements with inline text and
 * `style` attributes, but not constructed stylesheets, which are CSSOM.
 */
import type { CSSResult } from 'lit';

/** Adds each stylesheet to `document.adoptedStyleSheets`, once. */
export function adoptDocumentStyles(document: Document, styles: readonly CSSResult[]): void {
  const sheets = styles
    .map((style) => style.styleSheet)
    .filter((sheet): sheet is CSSStyleSheet => sheet !== undefined)
    .filter((sheet) => !document.adoptedStyleSheets.includes(sheet));
  if (sheets.length > 0) document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}
