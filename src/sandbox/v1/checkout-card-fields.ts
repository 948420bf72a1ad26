/**
 * The hosted checkout page's card fields, as the server renders them: number, expiry, CVC and the holder's
 * name, each with its hint and errors (`aria-invalid`, `aria-describedby`; the first wrong field takes focus).
 * Card values are never written back: only the expiry and the holder's name may be shown again.
 *
 * The number's box shows the marks of the schemes the Purchase takes, as the frame does before a digit is
 * typed; the script puts the typed number's scheme in their place.
 *
 * Beside them, what the page's card form script needs (src/frame/hosted-card-form.ts, served as a built file):
 * its data block and its `<script>` element. The script formats and checks the fields as the frame does, so
 * a wrong card is refused before it is sent and stays as typed; without the script the page works as before.
 */
import type { CardScheme } from '../../core/card.js';
import {
  HOSTED_CARD_FORM_DATA_ID,
  type HostedCardFormData,
  type HostedCardFormTexts,
} from '../../core/hosted-card-form.js';
import { FRAME_MESSAGES, type Language, localeFor, schemeNameKey } from '../../core/i18n.js';
import { SCHEME_MARKS } from '../../core/scheme-marks.js';
import { dataBlockJson, escapeHtml } from '../http.js';
import type { CheckoutField, CheckoutFieldError } from './checkout-payments.js';
import type { PageTranslate } from './checkout-texts.js';

/** What the customer typed that may be shown again (never the card number or CVC). */
export interface ShownCardValues {
  card_expiry?: string;
  card_holder?: string;
}

/** A field's errors, in the paragraph its input names in `aria-describedby`. */
export function fieldErrors(
  field: CheckoutField,
  errors: readonly CheckoutFieldError[],
  t: PageTranslate,
): string {
  if (errors.length === 0) return '';
  return `<p class="field-error" id="${field}-error">${errors.map((error) => escapeHtml(t(error.text.key, error.text.params))).join(' ')}</p>`;
}

/**
 * The marks of the schemes the card may be of, in a row in the number's box. Hidden from assistive
 * technology: the number's hint names the schemes once, where marks would be read out one by one.
 */
function acceptedMarks(schemes: readonly CardScheme[]): string {
  const marks = schemes
    .map((scheme) =>
      scheme === 'UNKNOWN'
        ? ''
        : `<svg viewBox="0 0 32 20" width="24" height="15" focusable="false">${SCHEME_MARKS[scheme]}</svg>`,
    )
    .join('');
  return marks === '' ? '' : `<span class="scheme-marks" aria-hidden="true">${marks}</span>`;
}

/**
 * The card's `<fieldset>`. `errors`: every field's errors, the first of which takes focus; `schemes`: those
 * the Purchase takes.
 */
export function cardFields(
  context: { t: PageTranslate; language: Language },
  schemes: readonly CardScheme[],
  errors: readonly CheckoutFieldError[],
  values: ShownCardValues | undefined,
): string {
  const { t } = context;
  const firstError = errors[0]?.field;
  const field = (
    name: CheckoutField,
    label: string,
    attributes: string,
    hint?: string,
    value?: string,
  ): string => {
    const own = errors.filter((error) => error.field === name);
    const describedBy = [hint ? `${name}-hint` : '', own.length > 0 ? `${name}-error` : '']
      .filter(Boolean)
      .join(' ');
    const number = name === 'card_number';
    return (
      `<div class="field"><label for="${name}">${escapeHtml(label)}</label>` +
      // The number's box also holds the schemes' marks, and the script's mark of the typed number's scheme.
      `${number ? '<div class="card-number">' : ''}` +
      `<input id="${name}" name="${name}" ${attributes}` +
      `${value ? ` value="${escapeHtml(value)}"` : ''}` +
      `${describedBy ? ` aria-describedby="${describedBy}"` : ''}` +
      `${own.length > 0 ? ' aria-invalid="true"' : ''}${firstError === name ? ' autofocus' : ''}>` +
      `${number ? `${acceptedMarks(schemes)}</div>` : ''}` +
      // The number's hint names the schemes, which the marks show: for assistive technology only.
      `${hint ? `<p class="${number ? 'visually-hidden' : 'hint'}" id="${name}-hint">${escapeHtml(hint)}</p>` : ''}` +
      fieldErrors(name, own, t) +
      '</div>'
    );
  };
  const accepted = new Intl.ListFormat(localeFor(context.language), { type: 'conjunction' }).format(
    schemes.map((scheme) => t(schemeNameKey(scheme))),
  );
  return (
    `<fieldset><legend>${escapeHtml(t('card.title'))}</legend>` +
    `<p class="note">${escapeHtml(t('card.testOnly'))}</p>` +
    field(
      'card_number',
      t('card.number.label'),
      'type="text" inputmode="numeric" autocomplete="cc-number" spellcheck="false"',
      schemes.length > 0 ? t('card.number.accepted', { accepted }) : undefined,
    ) +
    field(
      'card_expiry',
      t('card.expiry.label'),
      `type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="${escapeHtml(t('card.expiry.placeholder'))}"`,
      t('card.expiry.hint'),
      values?.card_expiry,
    ) +
    field(
      'card_cvc',
      t('card.cvc.label'),
      'type="text" inputmode="numeric" autocomplete="cc-csc"',
      t('card.cvc.hint'),
    ) +
    field(
      'card_holder',
      t('card.holder.label'),
      'type="text" autocomplete="cc-name"',
      undefined,
      values?.card_holder,
    ) +
    '</fieldset>'
  );
}

/** The deadline's texts, which only the script shows (a page without it has the gateway's statement alone). */
const DUE_TEXTS: Readonly<Record<Language, HostedCardFormTexts>> = {
  en: {
    'due.left': 'Time left to pay: {time}',
    'due.warning': '{time} left to pay. What you typed stays in the form.',
    'due.expired.title': 'The time to pay has run out',
    'due.expired.text':
      'Nothing was sent, and what you typed is still here. Go back to the shop to start the payment again.',
  },
  lv: {
    'due.left': 'Atlikušais laiks apmaksai: {time}',
    'due.warning': 'Apmaksai atlikušas {time}. Ievadītie dati paliek formā.',
    'due.expired.title': 'Apmaksas laiks ir beidzies',
    'due.expired.text':
      'Nekas netika nosūtīts, un ievadītie dati ir saglabāti. Atgriezieties veikalā, lai sāktu maksājumu no jauna.',
  },
  ru: {
    'due.left': 'Оставшееся время на оплату: {time}',
    'due.warning': 'На оплату осталось {time}. Введённые данные остаются в форме.',
    'due.expired.title': 'Время на оплату истекло',
    'due.expired.text':
      'Ничего не отправлено, введённые данные сохранены. Вернитесь в магазин, чтобы начать оплату заново.',
  },
};

/** What the page's card form script is told, besides the page's texts. */
export interface CardFormScript {
  /** Where the built script is served. */
  src: string;
  language: Language;
  /** The card schemes the Purchase takes. */
  schemes: CardScheme[];
  /** The gateway's clock (Unix ms). */
  now: number;
  /** The alert's title in the page's language. */
  errorsTitle: string;
}

/** The script's data block and its `<script>` element (a module: it runs once the page is parsed). */
export function cardFormScript(script: CardFormScript): string {
  // The checks' errors and the scheme's names (the order constraints' texts aside: a Purchase has none).
  const frameTexts = Object.entries(FRAME_MESSAGES[script.language]).filter(([key]) =>
    /^(card\.\w+\.error\.|card\.scheme\.|scheme\.)/.test(key),
  );
  const data: HostedCardFormData = {
    language: script.language,
    schemes: script.schemes,
    now: script.now,
    texts: {
      ...Object.fromEntries(frameTexts),
      'errors.title': script.errorsTitle,
      ...DUE_TEXTS[script.language],
    },
  };
  return (
    `<script type="application/json" id="${HOSTED_CARD_FORM_DATA_ID}">${dataBlockJson(data)}</script>` +
    `<script type="module" src="${escapeHtml(script.src)}"></script>`
  );
}
