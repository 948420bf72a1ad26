/**
 * Texts of the element and the payment frame in Latvian, English and Russian, with per-key overrides from the
 * merchant.
 *
 * One typed catalog interface (`Messages`) and one catalog per language, so a text missing in any language is
 * a compile error rather than a blank label in production. Each catalog comes in two typed halves: the few
 * texts the element shows itself (`ElementMessages`: loading, errors before or without the frame) and the
 * frame's (`FrameMessages`). Bundlers drop unused object literals but keep anything built from them, so two
 * plain literals let the element's script-tag file carry about 1 KB of texts instead of every text of the
 * frame (about 7 KB gzip for the three languages). Keys that stand
 * for a code of another core module (card check codes, constraint fields, schemes, units, payment failure
 * codes) are derived from that module's literal union: a new code there is a compile error here until every
 * language has its text.
 *
 * Texts with parameters write them as `{name}`; `formatMessage` fills them in. Numbers, amounts and lists
 * arrive already formatted for the language (`Intl` with `localeFor`), so catalogs need no plural rules;
 * the texts are phrased to read correctly with any number.
 */

import type {
  CardNumberErrorCode,
  CardScheme,
  ConstraintField,
  CvcErrorCode,
  ExpiryErrorCode,
} from './card.js';
import type { WidgetErrorCode } from './frame-channel.js';
import type { OrderRejectionReason } from './legacy-callbacks.js';
import { enElement, enFrame } from './messages/en.js';
import { lvElement, lvFrame } from './messages/lv.js';
import { ruElement, ruFrame } from './messages/ru.js';
import type { Unit } from './order.js';
import { isPlainObject } from './plain-object.js';

/** The languages the element and the frame speak, the gateway's first (it is a Latvian gateway). */
export const LANGUAGES = ['lv', 'en', 'ru'] as const;

/** A language the element and the frame speak. */
export type Language = (typeof LANGUAGES)[number];

/**
 * Why a payment failed, as the gateway names it in a payment result's `error.code`. `unknown` stands for a
 * code not listed here and for a failure that came without one (the legacy notification allows that).
 */
export const PAYMENT_FAILURE_REASONS = [
  'card_declined',
  'insufficient_funds',
  'processing_error',
  'authentication_failed',
  'order_already_paid',
  'unknown',
] as const;

/** A payment failure reason that has its own text. */
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

type CardNumberErrorMessages = { readonly [C in CardNumberErrorCode as `card.number.error.${C}`]: string };
type ExpiryErrorMessages = { readonly [C in ExpiryErrorCode as `card.expiry.error.${C}`]: string };
type CvcErrorMessages = { readonly [C in CvcErrorCode as `card.cvc.error.${C}`]: string };
type ConstraintMessages = { readonly [F in ConstraintField as `card.constraint.${F}`]: string };
type SchemeNameMessages = { readonly [S in CardScheme as `scheme.${S}`]: string };
type UnitMessages = { readonly [U in Unit as `unit.${U}`]: string };
type FailureReasonMessages = {
  readonly [R in PaymentFailureReason as `status.failed.reason.${R}`]: string;
};
type RejectionReasonMessages = { readonly [R in OrderRejectionReason as `rejected.${R}`]: string };

/**
 * The texts the element shows itself, on the merchant page: while the frame loads, and when the widget
 * cannot start (then there may be no frame at all). Parameters are named in each key's comment; a
 * translation must use the same parameters as the English text (the tests hold every catalog to that).
 */
export interface ElementMessages {
  /** The iframe's accessible title, read by screen readers on the merchant page. */
  readonly 'frame.title': string;
  /** Shown in the element while the frame loads. */
  readonly 'loading.text': string;

  /** Heading of the error box the element shows instead of the form. */
  readonly 'error.title': string;
  /**
   * The widget cannot take a payment because of the shop's setup (a missing or refused attribute, the
   * signature, the page's origin): the customer cannot fix it, so the text says no more than that, and the
   * console tells the merchant what to fix.
   */
  readonly 'error.unavailable': string;
  /** The merchant's order verification callback did not approve the order (CALLBACK widgets). */
  readonly 'error.orderRejected': string;
  /** The gateway could not be reached at all. */
  readonly 'error.gatewayUnreachable': string;
  /** The frame did not answer in time. */
  readonly 'error.frameTimeout': string;
  /** Any other failure to start. */
  readonly 'error.generic': string;
  /** The button that starts the widget again after `gatewayUnreachable` or `frameTimeout`. */
  readonly 'error.retry': string;
}

/**
 * The texts of the payment frame. Parameters as in `ElementMessages`.
 *
 * Derived keys (see the types this interface extends):
 * - `card.number.error.<CardNumberErrorCode>`; `scheme_not_accepted` takes `{accepted}`, the accepted
 *   scheme names as a list formatted for the language;
 * - `card.expiry.error.<ExpiryErrorCode>`;
 * - `card.cvc.error.<CvcErrorCode>`; `wrong_length` takes `{length}`, such as `3` or `3 or 4`;
 * - `card.constraint.<ConstraintField>`, the refusal of a card that misses the order's constraint, with
 *   `{expected}`, the constraint as the merchant wrote it;
 * - `scheme.<CardScheme>`, the scheme's name for people;
 * - `unit.<Unit>`, a quantity with its unit, with `{count}` already formatted for the language;
 * - `status.failed.reason.<PaymentFailureReason>`, one sentence that fills `{reason}` of `status.failed.text`;
 * - `rejected.<OrderRejectionReason>`, what the customer reads (and can do) when the merchant's order
 *   verification rejected the order for that reason; `rejected.OTHER` also stands for a missing reason.
 */
export interface FrameMessages
  extends CardNumberErrorMessages,
    ExpiryErrorMessages,
    CvcErrorMessages,
    ConstraintMessages,
    SchemeNameMessages,
    UnitMessages,
    FailureReasonMessages,
    RejectionReasonMessages {
  /** Legend of the card fields. */
  readonly 'card.title': string;
  readonly 'card.number.label': string;
  readonly 'card.number.placeholder': string;
  /**
   * The card number's hint for assistive technology, beside the marks of the card schemes the form takes.
   * `{accepted}`: the schemes' names as a list (`Visa and Mastercard`).
   */
  readonly 'card.number.accepted': string;
  readonly 'card.expiry.label': string;
  readonly 'card.expiry.placeholder': string;
  readonly 'card.expiry.hint': string;
  readonly 'card.cvc.label': string;
  readonly 'card.cvc.placeholder': string;
  /** The CVC's placeholder in the compact layout, where it stands in for the hidden label: the code's name. */
  readonly 'card.cvc.compactPlaceholder': string;
  readonly 'card.cvc.hint': string;
  readonly 'card.holder.label': string;
  readonly 'card.holder.placeholder': string;
  /** The holder name field is empty. */
  readonly 'card.holder.error.empty': string;
  /** Announced when the scheme of the typed number becomes known. `{scheme}`: the scheme's name. */
  readonly 'card.scheme.detected': string;

  /** The pay button. `{amount}`: the order total, formatted with its currency. */
  readonly 'pay.button': string;
  /**
   * The pay button while the order has shipping options and none is chosen: it says what is missing
   * rather than a total that leaves shipping out (pressed, it shows the choice's error).
   */
  readonly 'pay.chooseShipping': string;
  /** The pay button while the chosen shipping waits for its price (an address, a pickup point, a quote). */
  readonly 'pay.priceShipping': string;
  /** Shown while a payment runs (the button is disabled meanwhile). */
  readonly 'pay.processing': string;
  /** The button that cancels the payment. */
  readonly 'pay.cancel': string;
  /** A short note under the form on where card data goes. */
  readonly 'pay.secureNote': string;
  /** The gateway turned a request down for a reason no field shows; the customer may try again later. */
  readonly 'pay.error': string;

  /** Heading of the order summary. */
  readonly 'summary.title': string;
  /** The merchant's order id. `{orderId}`. */
  readonly 'summary.orderId': string;
  /** Column or group heading of the order lines. */
  readonly 'summary.items': string;
  /**
   * What screen readers hear of an item line between its label and its total, in place of its visible
   * "2 × €12.50". `{quantity}`: the count, or a `unit.*` text; `{price}`: the unit price.
   */
  readonly 'summary.line': string;
  /** The tax contained in the total (prices include tax). `{tax}`: the tax amount, formatted. */
  readonly 'summary.taxIncluded': string;
  readonly 'summary.shipping': string;
  readonly 'summary.total': string;
  /** Where the summary will be, while the gateway takes the order (the card form shows meanwhile). */
  readonly 'summary.loading': string;

  /** Heading of the customer data fields (full-checkout widgets). */
  readonly 'customer.title': string;
  readonly 'customer.firstName': string;
  readonly 'customer.lastName': string;
  readonly 'customer.email': string;
  readonly 'customer.phone': string;
  readonly 'customer.email.invalid': string;
  readonly 'customer.phone.invalid': string;
  /** A required field is empty. */
  readonly 'field.required': string;
  /** Marks an optional field, after its label. */
  readonly 'field.optional': string;

  /** Heading of the delivery fields. */
  readonly 'delivery.title': string;
  /** Label of the shipping option choice. */
  readonly 'delivery.method': string;
  /** No shipping option is chosen yet. */
  readonly 'delivery.chooseOption': string;
  readonly 'delivery.address': string;
  readonly 'delivery.city': string;
  readonly 'delivery.postalCode': string;
  readonly 'delivery.country': string;
  readonly 'delivery.pickupPoint': string;
  /** No pickup point is chosen yet. */
  readonly 'delivery.choosePickupPoint': string;
  /** A pickup point's opening hours. `{hours}`: as the merchant wrote them. */
  readonly 'delivery.serviceHours': string;
  /** In place of the price of an option priced later by the merchant's shipping cost URL. */
  readonly 'delivery.priceOnRequest': string;
  /** In place of the price of a pickup-point option priced later, until a pickup point is chosen. */
  readonly 'delivery.priceOnPickupPoint': string;
  /** In place of the price of an option priced later on a form that asks no address, until it is chosen. */
  readonly 'delivery.priceOnChoice': string;
  /** While the merchant's shipping cost URL is asked. */
  readonly 'delivery.calculating': string;
  /** A shipping option that costs nothing. */
  readonly 'delivery.free': string;
  /** The shipping cost URL gave no price. */
  readonly 'delivery.quoteFailed': string;

  /** Text of the link to the merchant's terms and conditions, shown on every widget kind. */
  readonly 'terms.link': string;
  /** Read after the terms link by screen readers only (the link opens a new tab), in parentheses. */
  readonly 'terms.newTab': string;
  /** Label of the checkbox that accepts the terms. */
  readonly 'terms.agree': string;
  /** The terms are not accepted yet. */
  readonly 'terms.required': string;

  /** Heading of the 3-D Secure step. */
  readonly 'threeDs.title': string;
  /** Says that this is the sandbox's test challenge, not a bank's page. */
  readonly 'threeDs.sandboxExplanation': string;
  /** Label of the merchant's name on the 3-D Secure step (the amount's label is `summary.total`). */
  readonly 'threeDs.merchant': string;
  readonly 'threeDs.approve': string;
  readonly 'threeDs.deny': string;
  /** While the answer to the challenge is sent. */
  readonly 'threeDs.waiting': string;

  readonly 'status.paid.title': string;
  /** `{amount}`: the amount paid, formatted with its currency. */
  readonly 'status.paid.text': string;
  readonly 'status.failed.title': string;
  /** `{reason}`: one of the `status.failed.reason.*` texts. */
  readonly 'status.failed.text': string;
  readonly 'status.cancelled.title': string;
  readonly 'status.cancelled.text': string;
  /** The order is already paid or cancelled, so it cannot be paid again. */
  readonly 'status.orderClosed': string;
  /** The back-to-merchant button on the failed and cancelled screens. */
  readonly 'status.backToMerchant': string;
  /**
   * The failed screen's primary button: back to the form, card fields emptied, for another attempt on the
   * same order (a failed payment leaves it payable).
   */
  readonly 'status.tryAnotherCard': string;
  /** The connection broke while a payment ran; its outcome is not known yet. */
  readonly 'status.networkError': string;
  /** Asks the gateway for the order's state again after a network error. */
  readonly 'status.retry': string;
  /** While the gateway is asked for the order's state. */
  readonly 'status.checking': string;
  /** Heading of the screen shown when the merchant rejected the order (a `rejected.*` text follows). */
  readonly 'status.rejected.title': string;
}

/** Every text the element and the frame show. */
export interface Messages extends ElementMessages, FrameMessages {}

/** The key of one text. */
export type MessageKey = keyof Messages;

/** The key of one of the element's own texts. */
export type ElementMessageKey = keyof ElementMessages;

/** The key of one of the frame's texts. */
export type FrameMessageKey = keyof FrameMessages;

/** Texts the merchant puts in place of ours, by key. */
export type MessageOverrides = Partial<Record<MessageKey, string>>;

/** Parameters of one text, by placeholder name. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** The element's own texts, by language. */
export const ELEMENT_MESSAGES: Readonly<Record<Language, ElementMessages>> = {
  lv: lvElement,
  en: enElement,
  ru: ruElement,
};

/** The frame's texts, by language. */
export const FRAME_MESSAGES: Readonly<Record<Language, FrameMessages>> = {
  lv: lvFrame,
  en: enFrame,
  ru: ruFrame,
};

/** Every text of one language (a new object each call). */
export function messagesFor(language: Language): Messages {
  return { ...ELEMENT_MESSAGES[language], ...FRAME_MESSAGES[language] };
}

/** Whether a value is one of `LANGUAGES`, exactly (use `normalizeLanguage` for tags such as `lv-LV`). */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The language a tag names, if we speak it: case does not matter and the region or script is dropped
 * (`LV`, `lv-LV`, `ru_RU`, `en-Latn-GB` all count). Undefined for a language we do not speak or no tag.
 */
export function normalizeLanguage(tag: string | null | undefined): Language | undefined {
  if (typeof tag !== 'string') return undefined;
  const primary = tag.trim().split(/[-_]/, 1)[0]!.toLowerCase();
  return isLanguage(primary) ? primary : undefined;
}

/**
 * The language to speak (ARCHITECTURE.md, "Language"): the element's `language` attribute when we speak
 * it, then the page's `<html lang>`, then the merchant's default. A language we do not speak is passed over
 * rather than refused, so a page in German still gets a payment form, in the merchant's default language.
 */
export function resolveLanguage(
  given: string | null | undefined,
  pageLang: string | null | undefined,
  merchantDefault: Language,
): Language {
  return normalizeLanguage(given) ?? normalizeLanguage(pageLang) ?? merchantDefault;
}

const INTL_LOCALES: Readonly<Record<Language, string>> = { lv: 'lv-LV', en: 'en-GB', ru: 'ru-RU' };

/**
 * The `Intl` locale for money, numbers and lists in a language. English is British: the gateway's customers
 * are European, so dates read day first and amounts as `€12.50`.
 */
export function localeFor(language: Language): string {
  return INTL_LOCALES[language];
}

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Fills `{name}` placeholders of a text. A placeholder without a parameter stays as written, so a missing
 * parameter shows up in the text instead of throwing at a customer. Values are inserted once, never read
 * again for placeholders, so a customer's or merchant's text containing braces cannot pull in other values.
 */
export function formatMessage(template: string, params?: MessageParams): string {
  if (params === undefined) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The placeholder names of a text, in order of first appearance, each once. */
export function placeholdersOf(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    if (!names.includes(match[1]!)) names.push(match[1]!);
  }
  return names;
}

/**
 * Whether a string is the key of a text. Own keys only: `toString` and `__proto__` are not texts. (It reads
 * the English frame catalog: code that only needs the element's texts should not call it.)
 */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(enElement, key) || Object.hasOwn(enFrame, key);
}

/** Whether a string is the key of one of the element's own texts. */
export function isElementMessageKey(key: string): key is ElementMessageKey {
  return Object.hasOwn(enElement, key);
}

/**
 * The override keys that name no text, so the merchant can be warned once (a typo in a key would otherwise
 * silently leave our text in place). Keys whose value is not a string are reported too, since they are
 * ignored as well. It needs every key, so it belongs in the frame (which reports back) or in development
 * builds, rather than in the element's script-tag file.
 */
export function validateOverrides(overrides: Readonly<Record<string, unknown>> | null | undefined): string[] {
  if (!isPlainObject(overrides)) return [];
  return Object.keys(overrides).filter((key) => !isMessageKey(key) || typeof overrides[key] !== 'string');
}

/** Looks up one text and fills in its parameters. */
export type Translate<K extends string = MessageKey> = (key: K, params?: MessageParams) => string;

/** Looks up one of the frame's texts and fills in its parameters. */
export type FrameTranslate = Translate<FrameMessageKey>;

/** Overrides as they may arrive: typed from code, or any record from the page or a message. */
type RawOverrides = MessageOverrides | Readonly<Record<string, unknown>> | null | undefined;

function translator<K extends string>(
  catalogs: readonly Partial<Readonly<Record<K, string>>>[],
  isKey: (key: string) => key is K,
  overrides: RawOverrides,
): Translate<K> {
  const own = new Map<K, string>();
  if (isPlainObject(overrides)) {
    for (const [key, value] of Object.entries(overrides)) {
      if (isKey(key) && typeof value === 'string' && value.trim() !== '') own.set(key, value);
    }
  }
  return (key, params) => {
    let template = own.get(key);
    for (const catalog of catalogs) {
      if (template !== undefined) break;
      if (Object.hasOwn(catalog, key)) template = catalog[key];
    }
    // A key from untyped code (a newer frame, a hand-written key) comes back as itself, never `undefined`.
    return formatMessage(template ?? key, params);
  };
}

/**
 * A `t(key, params?)` for one language, over every text. The merchant's override of a key wins over our
 * text; overrides with unknown keys, non-string values or empty text are ignored (an empty label would
 * leave a field unnamed for screen readers). Overrides are copied, so changing the object later does not
 * change texts already shown. The text is plain text: render it as text, never as HTML.
 */
export function createTranslator(language: Language, overrides?: RawOverrides): Translate {
  const known = isLanguage(language) ? language : 'en';
  return translator([ELEMENT_MESSAGES[known], FRAME_MESSAGES[known]], isMessageKey, overrides);
}

/**
 * `createTranslator` for the element's own texts only, with the same override rules. It reaches none of
 * the frame's texts, so the element's bundle stays small; overrides of frame texts are passed over here
 * (the frame applies them).
 */
export function createElementTranslator(
  language: Language,
  overrides?: RawOverrides,
): Translate<ElementMessageKey> {
  const known = isLanguage(language) ? language : 'en';
  return translator([ELEMENT_MESSAGES[known]], isElementMessageKey, overrides);
}

/**
 * `createTranslator` over one catalog of the frame's texts that the caller gives, with the same override
 * rules; overrides of keys the catalog does not hold are passed over. It reaches none of the catalogs
 * itself, so the frame, which loads its language's catalog on demand, carries no other language's texts.
 */
export function createFrameTranslator(catalog: FrameMessages, overrides?: RawOverrides): FrameTranslate {
  return translator([catalog], (key): key is FrameMessageKey => Object.hasOwn(catalog, key), overrides);
}

/** The key of a card number refusal's text. */
export function cardNumberErrorKey(code: CardNumberErrorCode): FrameMessageKey {
  return `card.number.error.${code}`;
}

/** The key of an expiry date refusal's text. */
export function expiryErrorKey(code: ExpiryErrorCode): FrameMessageKey {
  return `card.expiry.error.${code}`;
}

/** The key of a CVC refusal's text. */
export function cvcErrorKey(code: CvcErrorCode): FrameMessageKey {
  return `card.cvc.error.${code}`;
}

/** The key of the refusal of a card that misses the order's constraint on `field`; its `{expected}` is the constraint. */
export function constraintErrorKey(field: ConstraintField): FrameMessageKey {
  return `card.constraint.${field}`;
}

/** The key of a scheme's name. */
export function schemeNameKey(scheme: CardScheme): FrameMessageKey {
  return `scheme.${scheme}`;
}

/** The key of a quantity with its unit (`{count}`). */
export function unitKey(unit: Unit): FrameMessageKey {
  return `unit.${unit}`;
}

// Typed by the channel's codes, so a new code does not compile until it has a text.
const WIDGET_ERROR_KEYS: Readonly<Record<WidgetErrorCode, ElementMessageKey>> = {
  missing_widget_id: 'error.unavailable',
  missing_gateway: 'error.unavailable',
  unknown_widget: 'error.unavailable',
  invalid_order: 'error.unavailable',
  signature_missing: 'error.unavailable',
  signature_invalid: 'error.unavailable',
  certificate_missing: 'error.unavailable',
  unknown_certificate: 'error.unavailable',
  certificate_revoked: 'error.unavailable',
  origin_not_allowed: 'error.unavailable',
  order_rejected: 'error.orderRejected',
  order_already_paid: 'error.unavailable',
  gateway_unreachable: 'error.gatewayUnreachable',
  frame_timeout: 'error.frameTimeout',
  internal_error: 'error.generic',
};

/**
 * The key of the text the element shows for a widget error code; any other code (`internal_error`, a code
 * from a newer frame) gets the generic text. A code the merchant must fix gets `error.unavailable`: what to fix
 * goes to the console, never to the customer.
 */
export function widgetErrorKey(code: string): ElementMessageKey {
  return Object.hasOwn(WIDGET_ERROR_KEYS, code)
    ? WIDGET_ERROR_KEYS[code as WidgetErrorCode]
    : 'error.generic';
}

/**
 * The key of the sentence that explains a payment failure, for any code the gateway sends: codes we have no
 * text for, and a missing code, get the `unknown` sentence.
 */
export function failureReasonKey(code: string | null | undefined): FrameMessageKey {
  const known = (PAYMENT_FAILURE_REASONS as readonly string[]).includes(code ?? '');
  return `status.failed.reason.${known ? (code as PaymentFailureReason) : 'unknown'}`;
}
