/**
 * The payment and payout methods the sandbox offers through v1, with what each supports, their names in the
 * hosted page's languages and their logos. Realistic in shape: two card schemes and two mobile wallets for
 * every country, and bank payment-initiation methods named `<bank>_<country>_pis` for three banks in each of
 * `ee`, `lt` and `lv` (euro only, as bank payments in those countries are). The logos are plain badges the
 * sandbox draws itself, served under `/sandbox/v1/logos/`.
 */

/** The languages the sandbox names things in; any other requested language reads as English. */
export type CatalogueLanguage = 'en' | 'lv' | 'ru';

/** Text in each catalogue language. */
export type Localized = Readonly<Record<CatalogueLanguage, string>>;

/** The countries that have bank methods of their own. */
export type BankCountry = 'ee' | 'lt' | 'lv';

/** How a method is grouped for the customer. */
export type MethodGroupName = 'card' | 'bank' | 'wallet';

/** One payment method and what it can do. */
export interface PaymentMethodEntry {
  name: string;
  group: MethodGroupName;
  /** `any` for methods of every country. */
  country: BankCountry | 'any';
  currencies: readonly string[];
  /** Recurring charges with a saved token (`force_recurring`, `charge`). */
  recurring: boolean;
  /** Authorization apart from capture (`skip_capture`). */
  skipCapture: boolean;
  /** Saving a card without a financial transaction. */
  preauthorization: boolean;
  /** A proper name (banks, card schemes) or a name per language. */
  displayName: string | Localized;
  /** The badge's file name under `/sandbox/v1/logos/`, without `.svg`. */
  logo: string;
}

/** One payout method. */
export interface PayoutMethodEntry {
  name: string;
  card: boolean;
  currencies: readonly string[];
  displayName: string | Localized;
  logo: string;
}

/** The countries with bank methods of their own, in the order the lookup lists them. */
export const BANK_COUNTRIES: readonly BankCountry[] = ['ee', 'lt', 'lv'];

/** The countries methods are listed under, in order: those with banks of their own, then `any`. */
export const METHOD_COUNTRIES: ReadonlyArray<BankCountry | 'any'> = [...BANK_COUNTRIES, 'any'];

/** Where the sandbox serves the logos; the API answers these paths relative to its host. */
export const LOGO_PATH_PREFIX = '/sandbox/v1/logos/';

const CARD_CURRENCIES = ['EUR', 'USD', 'GBP', 'SEK', 'NOK', 'DKK', 'PLN', 'CHF'] as const;
const WALLET_CURRENCIES = ['EUR', 'USD', 'GBP'] as const;
const BANK_CURRENCIES = ['EUR'] as const;

const BANKS: ReadonlyArray<{ bank: string; name: string; countries: readonly BankCountry[] }> = [
  { bank: 'swedbank', name: 'Swedbank', countries: ['ee', 'lt', 'lv'] },
  { bank: 'seb', name: 'SEB', countries: ['ee', 'lt', 'lv'] },
  { bank: 'lhv', name: 'LHV', countries: ['ee'] },
  { bank: 'luminor', name: 'Luminor', countries: ['lt'] },
  { bank: 'citadele', name: 'Citadele', countries: ['lv'] },
];

const card = (name: string, displayName: string): PaymentMethodEntry => ({
  name,
  group: 'card',
  country: 'any',
  currencies: CARD_CURRENCIES,
  recurring: true,
  skipCapture: true,
  preauthorization: true,
  displayName,
  logo: name,
});

const wallet = (name: string, letter: string): PaymentMethodEntry => ({
  name,
  group: 'wallet',
  country: 'any',
  currencies: WALLET_CURRENCIES,
  recurring: false,
  skipCapture: true,
  preauthorization: false,
  displayName: {
    en: `Mobile wallet ${letter}`,
    lv: `Mobilais maks ${letter}`,
    ru: `Мобильный кошелёк ${letter}`,
  },
  logo: name,
});

/** Every payment method, in the order the lookup lists them: cards, wallets, then banks by country. */
export const PAYMENT_METHODS: readonly PaymentMethodEntry[] = [
  card('visa', 'Visa'),
  card('mastercard', 'Mastercard'),
  wallet('svc_wallet_a', 'A'),
  wallet('svc_wallet_b', 'B'),
  ...BANK_COUNTRIES.flatMap((country) =>
    BANKS.filter((bank) => bank.countries.includes(country)).map(
      (bank): PaymentMethodEntry => ({
        name: `${bank.bank}_${country}_pis`,
        group: 'bank',
        country,
        currencies: BANK_CURRENCIES,
        recurring: false,
        skipCapture: false,
        preauthorization: false,
        displayName: bank.name,
        logo: bank.bank,
      }),
    ),
  ),
];

/** Payout methods: card payouts and SEPA credit transfers. */
export const PAYOUT_METHODS: readonly PayoutMethodEntry[] = [
  { name: 'visa', card: true, currencies: WALLET_CURRENCIES, displayName: 'Visa', logo: 'visa' },
  {
    name: 'mastercard',
    card: true,
    currencies: WALLET_CURRENCIES,
    displayName: 'Mastercard',
    logo: 'mastercard',
  },
  {
    name: 'sepa_credit_transfer',
    card: false,
    currencies: BANK_CURRENCIES,
    displayName: {
      en: 'SEPA credit transfer',
      lv: 'SEPA kredīta pārvedums',
      ru: 'Кредитовый перевод SEPA',
    },
    logo: 'sepa',
  },
];

/** The groups, in the order the lookup lists them. */
export const METHOD_GROUPS: ReadonlyArray<{ name: MethodGroupName; label: Localized }> = [
  { name: 'card', label: { en: 'Card', lv: 'Maksājumu karte', ru: 'Банковская карта' } },
  { name: 'bank', label: { en: 'Bank payment', lv: 'Bankas maksājums', ru: 'Банковский платёж' } },
  { name: 'wallet', label: { en: 'Mobile wallet', lv: 'Mobilais maks', ru: 'Мобильный кошелёк' } },
];

/** Country names; `any` is the document's `Other`. */
export const COUNTRY_NAMES: Readonly<Record<BankCountry | 'any', Localized>> = {
  ee: { en: 'Estonia', lv: 'Igaunija', ru: 'Эстония' },
  lt: { en: 'Lithuania', lv: 'Lietuva', ru: 'Литва' },
  lv: { en: 'Latvia', lv: 'Latvija', ru: 'Латвия' },
  any: { en: 'Other', lv: 'Citas valstis', ru: 'Другие страны' },
};

const byName = new Map(PAYMENT_METHODS.map((method) => [method.name, method]));

/** The payment method called `name`, if the sandbox has one. */
export function findPaymentMethod(name: string): PaymentMethodEntry | undefined {
  return byName.get(name);
}

/** A name in `language`. */
export function localize(text: string | Localized, language: CatalogueLanguage): string {
  return typeof text === 'string' ? text : text[language];
}

/** The logo's path relative to the API host. */
export function logoPath(logo: string): string {
  return `${LOGO_PATH_PREFIX}${logo}.svg`;
}

/** Badge colours and captions: drawn by the sandbox, not any brand's artwork. */
const BADGES: Readonly<Record<string, { fill: string; text: string; caption: string }>> = {
  visa: { fill: '#1a1f71', text: '#ffffff', caption: 'VISA' },
  mastercard: { fill: '#231f20', text: '#ffffff', caption: 'MC' },
  svc_wallet_a: { fill: '#000000', text: '#ffffff', caption: 'Wallet A' },
  svc_wallet_b: { fill: '#ffffff', text: '#3c4043', caption: 'Wallet B' },
  swedbank: { fill: '#ff5f00', text: '#ffffff', caption: 'Swedbank' },
  seb: { fill: '#007a3d', text: '#ffffff', caption: 'SEB' },
  lhv: { fill: '#2d2d2d', text: '#ffffff', caption: 'LHV' },
  luminor: { fill: '#481335', text: '#ffffff', caption: 'Luminor' },
  citadele: { fill: '#e30613', text: '#ffffff', caption: 'Citadele' },
  sepa: { fill: '#10298e', text: '#ffcc00', caption: 'SEPA' },
  card: { fill: '#3d4a5c', text: '#ffffff', caption: 'Card' },
  bank: { fill: '#1d5c4d', text: '#ffffff', caption: 'Bank' },
  wallet: { fill: '#4b3b8f', text: '#ffffff', caption: 'Wallet' },
};

/** The SVG of the logo `name` (a key of the badges), or undefined when there is none. */
export function logoSvg(name: string): string | undefined {
  const badge = BADGES[name];
  if (!badge) return undefined;
  const size = badge.caption.length > 6 ? 10 : 13;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="40" viewBox="0 0 64 40" role="img" ` +
    `aria-label="${badge.caption}"><title>${badge.caption}</title>` +
    `<rect x="0.5" y="0.5" width="63" height="39" rx="6" fill="${badge.fill}" stroke="#c4c9d1"/>` +
    `<text x="32" y="24.5" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" ` +
    `font-size="${size}" font-weight="700" fill="${badge.text}">${badge.caption}</text></svg>`
  );
}
