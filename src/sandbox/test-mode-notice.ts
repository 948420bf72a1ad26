/**
 * The sandbox's test-mode sentence, in the words both interfaces show it: the v1 hosted page beside its card
 * fields (`card.testOnly`) and the legacy frame's mark (its page's `testMode`), so nobody takes the sandbox
 * for production.
 */
import type { Language } from '../core/i18n.js';

export const TEST_MODE_NOTICE: Readonly<Record<Language, string>> = {
  en: 'This is the sandbox: it takes test cards only, such as 4111\u00a01111\u00a01111\u00a01111.',
  lv: 'Šī ir smilškaste: tā pieņem tikai testa kartes, piemēram, 4111\u00a01111\u00a01111\u00a01111.',
  ru: 'Это песочница: она принимает только тестовые карты, например 4111\u00a01111\u00a01111\u00a01111.',
};
