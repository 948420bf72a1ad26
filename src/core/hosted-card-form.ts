/**
 * What the hosted checkout page (written by the sandbox) tells its card form script (built from src/frame):
 * a JSON data block in the page, since the page's policy allows no inline script. The contract of both sides.
 * A `due_strict` Purchase's deadline is on the form itself, `data-due` (Unix seconds, as the Purchase's `due`),
 * beside the sentence that states it (`#due-note`).
 */

import type { CardScheme } from './card.js';
import type { Language } from './i18n.js';

/** The form's attribute with a `due_strict` Purchase's deadline, in Unix seconds. */
export const HOSTED_DUE_ATTRIBUTE = 'data-due';
/** The `id` of the page's sentence that states the deadline, beside which the script shows the time left. */
export const HOSTED_DUE_NOTE_ID = 'due-note';

/** The `id` of the `<script type="application/json">` block that holds a `HostedCardFormData`. */
export const HOSTED_CARD_FORM_DATA_ID = 'card-form-data';

/** The texts the script shows, by key: templates with `{name}` placeholders. */
export interface HostedCardFormTexts {
  readonly [key: string]: string;
}

export interface HostedCardFormData {
  /** The page's language, for lists and units in texts. */
  language: Language;
  /** The card schemes the Purchase takes; a number of another scheme is refused from its first digits. */
  schemes: CardScheme[];
  /**
   * The gateway's clock when it wrote the page (Unix ms): the deadline and the card's expiry are judged on it,
   * not on the browser's clock (a sandbox's clock may be moved).
   */
  now: number;
  /**
   * The card form's texts in the page's language: the frame's card checks' errors and scheme names, the
   * alert's title (`errors.title`) and the deadline's (`due.*`).
   */
  texts: HostedCardFormTexts;
}
