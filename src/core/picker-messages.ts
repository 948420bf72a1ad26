/**
 * Texts of `<svc-checkout>`'s v1 payment method picker in Latvian, English and Russian, apart from the
 * element's legacy texts (`i18n.ts`) so that they travel with the picker's code, which pages load only in
 * v1 mode. The merchant overrides them by key through the element's `texts`, as every other text. Method,
 * group and country names are not here: the gateway's answer carries them in the language asked for.
 */
import { formatMessage, type Language, type Translate } from './i18n.js';

/** The picker's texts. Parameters are named in each key's comment. */
export interface PickerMessages {
  /** Legend of the method choice. */
  readonly 'picker.title': string;
  /** Shown while the payment methods are looked up. */
  readonly 'picker.loading': string;
  /** Label of the country select of bank methods and the like. */
  readonly 'picker.country': string;
  /** The country choice of methods of every country, when the gateway names it not. */
  readonly 'picker.otherCountry': string;
  /** The card choice, when the gateway gives the card methods no group label. */
  readonly 'picker.card': string;
  /** Methods the gateway put in no group. */
  readonly 'picker.otherMethods': string;
  /** The card choice's list of schemes. `{schemes}`: their names as a list formatted for the language. */
  readonly 'picker.cardSchemes': string;
  /** The button that goes on to the payment page, with the chosen method or without one. */
  readonly 'picker.confirm': string;
  /** There is no method to choose here. */
  readonly 'picker.empty': string;
  /** The lookup failed; the customer can still go on. */
  readonly 'picker.failed': string;
}

/** The key of one of the picker's texts. */
export type PickerMessageKey = keyof PickerMessages;

const en: PickerMessages = {
  'picker.title': 'Choose a payment method',
  'picker.loading': 'Loading payment methods…',
  'picker.country': 'Country',
  'picker.otherCountry': 'Other',
  'picker.card': 'Card',
  'picker.otherMethods': 'Other payment methods',
  'picker.cardSchemes': 'Accepted: {schemes}',
  'picker.confirm': 'Continue to payment',
  'picker.empty': 'There are no payment methods to choose from here. Continue to the payment page to pay.',
  'picker.failed':
    'The payment methods could not be loaded. You can still continue to the payment page and choose a method there.',
};

const lv: PickerMessages = {
  'picker.title': 'Izvēlieties maksājuma veidu',
  'picker.loading': 'Ielādē maksājuma veidus…',
  'picker.country': 'Valsts',
  'picker.otherCountry': 'Citas valstis',
  'picker.card': 'Maksājumu karte',
  'picker.otherMethods': 'Citi maksājuma veidi',
  'picker.cardSchemes': 'Pieņem: {schemes}',
  'picker.confirm': 'Turpināt uz maksājumu',
  'picker.empty': 'Šeit nav maksājuma veidu, ko izvēlēties. Turpiniet uz maksājuma lapu, lai samaksātu.',
  'picker.failed':
    'Maksājuma veidus neizdevās ielādēt. Jūs joprojām varat turpināt uz maksājuma lapu un izvēlēties veidu tur.',
};

const ru: PickerMessages = {
  'picker.title': 'Выберите способ оплаты',
  'picker.loading': 'Загрузка способов оплаты…',
  'picker.country': 'Страна',
  'picker.otherCountry': 'Другие страны',
  'picker.card': 'Банковская карта',
  'picker.otherMethods': 'Другие способы оплаты',
  'picker.cardSchemes': 'Принимаются: {schemes}',
  'picker.confirm': 'Перейти к оплате',
  'picker.empty': 'Здесь нет способов оплаты на выбор. Перейдите на страницу оплаты, чтобы оплатить.',
  'picker.failed':
    'Не удалось загрузить способы оплаты. Вы всё равно можете перейти на страницу оплаты и выбрать способ там.',
};

/** The picker's texts, by language. */
export const PICKER_MESSAGES: Readonly<Record<Language, PickerMessages>> = { lv, en, ru };

/**
 * A `t(key, params?)` over the picker's texts in `language`, with the merchant's overrides of picker keys
 * winning (others, non-strings and empty texts are passed over, as `createTranslator` does).
 */
export function createPickerTranslator(
  language: Language,
  overrides?: Readonly<Record<string, unknown>> | null,
): Translate<PickerMessageKey> {
  const catalog = PICKER_MESSAGES[language] ?? en;
  return (key, params) => {
    const own = overrides && Object.hasOwn(overrides, key) ? overrides[key] : undefined;
    return formatMessage(typeof own === 'string' && own.trim() !== '' ? own : catalog[key], params);
  };
}
