/**
 * The names the payment frame gives its fields and buttons, as a customer (and a screen reader) reads them:
 * from the frame's own texts in each of its languages, so that the helper finds them whatever language the
 * page asks for, plus the page's own `texts` overrides when it has any.
 */
import { FRAME_MESSAGES, type FrameMessageKey, LANGUAGES } from '../core/i18n.js';

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Names by text key, each a pattern for Playwright's getByLabel and getByRole. */
export class FrameLabels {
  constructor(private readonly overrides: Readonly<Record<string, string>> = {}) {}

  /** Every text of `key`: the page's override, then each language's. */
  texts(key: FrameMessageKey): string[] {
    const own = this.overrides[key];
    const all = LANGUAGES.map((language) => FRAME_MESSAGES[language][key]);
    return [...new Set(own === undefined ? all : [own, ...all])];
  }

  /**
   * The whole name of `key` in any language, allowing the "(optional)" mark a field's label may carry.
   * A `{param}` in the text (the pay button's amount) matches anything.
   */
  name(key: FrameMessageKey): RegExp {
    const alternatives = this.texts(key).map((text) =>
      text
        .split(/\{\w+\}/)
        .map(escapeRegExp)
        .join('.*'),
    );
    return new RegExp(`^\\s*(?:${alternatives.join('|')})(?:\\s*\\(.*\\))?\\s*$`, 'i');
  }
}
