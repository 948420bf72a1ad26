/**
 * The hosted checkout page's card fields, as the server renders them: number, expiry, CVC and the holder's
 * name, each with its hint and errors (`aria-invalid`, `aria-describedby`; the first wrong field takes focus).
 * Card values are never written back: only the expiry and the holder's name may be shown again.
 */
import { escapeHtml } from '../http.js';
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

/** The card's `<fieldset>`. `errors`: every field's errors, the first of which takes focus. */
export function cardFields(
  t: PageTranslate,
  errors: readonly CheckoutFieldError[],
  values: ShownCardValues | undefined,
): string {
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
    return (
      `<div class="field"><label for="${name}">${escapeHtml(label)}</label>` +
      `<input id="${name}" name="${name}" ${attributes}` +
      `${value ? ` value="${escapeHtml(value)}"` : ''}` +
      `${describedBy ? ` aria-describedby="${describedBy}"` : ''}` +
      `${own.length > 0 ? ' aria-invalid="true"' : ''}${firstError === name ? ' autofocus' : ''}>` +
      `${hint ? `<p class="hint" id="${name}-hint">${escapeHtml(hint)}</p>` : ''}` +
      fieldErrors(name, own, t) +
      '</div>'
    );
  };
  return (
    `<fieldset><legend>${escapeHtml(t('card.title'))}</legend>` +
    `<p class="note">${escapeHtml(t('card.testOnly'))}</p>` +
    field(
      'card_number',
      t('card.number.label'),
      'type="text" inputmode="numeric" autocomplete="cc-number" spellcheck="false"',
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
