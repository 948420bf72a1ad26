/**
 * The styles of the frame's first view: the frame's own and its card fields'. The gateway writes them into
 * the frame's page, as the `<style>` its policy allows by hash (first-view.ts), so that the first view shows
 * styled before any script, and the frame's code does not download them again. Where the page has no such
 * style (a page without a first view, as in the frame's tests), the code adopts them from a chunk of their own.
 */
import { adoptDocumentStyles } from './document-styles.js';

/** The id of the page's `<style>` with these styles. */
export const FIRST_VIEW_STYLES_ID = 'svc-first-view-styles';

/** Adopts the styles unless the page carries them; resolves once they apply. */
export async function adoptFirstViewStyles(document: Document): Promise<void> {
  if (document.getElementById(FIRST_VIEW_STYLES_ID)) return;
  const { FRAME_STYLES } = await import('./frame-styles.js');
  adoptDocumentStyles(document, FRAME_STYLES);
}
