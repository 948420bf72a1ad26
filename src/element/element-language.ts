/** The language of `<svc-checkout>`'s texts and of its form's live updates. */
import { type Language, normalizeLanguage } from '../core/i18n.js';

/** The element's `language` when it names one of ours, else the page's `<html lang>`, else undefined. */
export const elementLanguage = (element: { language?: string | undefined }): Language | undefined =>
  normalizeLanguage(element.language) ?? normalizeLanguage(document.documentElement.lang);
