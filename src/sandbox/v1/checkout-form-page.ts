/**
 * The hosted checkout's payment form: the order, the payment methods the Purchase allows (cards as one
 * choice, banks by country, wallets) and the card fields. Field errors are listed in an alert with links to
 * the fields, each field carries `aria-invalid` and `aria-describedby`, and the first wrong field takes focus.
 * Card values are never written back into the page.
 */
import { HOSTED_DUE_ATTRIBUTE } from '../../core/hosted-card-form.js';
import { localeFor } from '../../core/i18n.js';
import { formatMoney } from '../../core/money.js';
import { escapeHtml } from '../http.js';
import { cardFields, cardFormScript, fieldErrors, type ShownCardValues } from './checkout-card-fields.js';
import { amountOf, document, type PageContext, text } from './checkout-page.js';
import { type CheckoutField, type CheckoutFieldError, schemeOfMethod } from './checkout-payments.js';
import type { PageText } from './checkout-texts.js';
import {
  COUNTRY_NAMES,
  localize,
  logoPath,
  METHOD_COUNTRIES,
  METHOD_GROUPS,
  type PaymentMethodEntry,
} from './method-catalogue.js';
import { preauthorizes } from './purchase-request.js';

/** What the payment form shows besides the Purchase. */
export interface FormPageOptions {
  methods: readonly PaymentMethodEntry[];
  /** The customer's saved cards (a Purchase with `client_id`): paid in one click, no card details typed. */
  savedCards?: ReadonlyArray<{ id: string; description: string }>;
  /** `card` or a method name: the choice checked when the page opens. */
  selected: string | undefined;
  errors: readonly CheckoutFieldError[];
  /** A payment that just failed, shown above the form. */
  failure?: PageText;
  /** What the customer typed that may be shown again (never the card number or CVC). */
  values?: ShownCardValues;
  /** The card form script's address and the merchant's clock (Unix ms); without it the page has no script. */
  script?: { src: string; now: number };
}

/**
 * A `due_strict` Purchase's deadline for the card form script: the form's `data-due`, in Unix seconds as the
 * Purchase's `due`; empty without one.
 */
function dueAttribute(context: PageContext): string {
  const { purchase } = context.record;
  return purchase.purchase.due_strict && purchase.due !== null
    ? ` ${HOSTED_DUE_ATTRIBUTE}="${purchase.due}"`
    : '';
}

/** The payment form. */
export function formPage(context: PageContext, options: FormPageOptions): string {
  const { t, record } = context;
  const { purchase } = record;
  const title = t('page.title', { merchant: context.merchantName });
  const firstError = options.errors[0]?.field;
  const errorOf = (field: CheckoutField) => options.errors.filter((error) => error.field === field);

  const parts: string[] = [`<h1>${escapeHtml(title)}</h1>`];
  if (options.errors.length > 0) {
    parts.push(
      '<div class="alert" role="alert" aria-labelledby="errors-title">' +
        `<h2 id="errors-title">${escapeHtml(t('errors.title'))}</h2><ul>` +
        options.errors
          .map((error) => `<li><a href="#${inputId(error.field, options)}">${text(t, error.text)}</a></li>`)
          .join('') +
        '</ul></div>',
    );
  } else if (options.failure) {
    parts.push(
      '<div class="alert" role="alert" aria-labelledby="failure-title">' +
        `<h2 id="failure-title">${escapeHtml(t('status.failed.title'))}</h2>` +
        `<p>${text(t, options.failure)}</p></div>`,
    );
  }
  parts.push(summary(context));

  if (options.methods.length === 0) {
    parts.push(`<p>${escapeHtml(t('methods.none'))}</p>`);
  } else {
    const cards = options.methods.filter((method) => method.group === 'card');
    const saved = options.savedCards ?? [];
    const first = saved[0] ? savedChoice(saved[0].id) : firstChoice(options.methods);
    const selected = options.selected ?? first;
    const radio = (value: string, label: string, logos: readonly string[]) => {
      const id = value === 'card' ? 'method-card' : `method-${value}`;
      const invalid = firstError === 'method' && value === first;
      return (
        `<div class="option"><input type="radio" id="${id}" name="method" value="${escapeHtml(value)}"` +
        `${value === selected ? ' checked' : ''}${invalid ? ' autofocus' : ''}>` +
        `<label for="${id}">${logos.map((logo) => `<img src="${escapeHtml(logo)}" alt="">`).join('')}` +
        `${escapeHtml(label)}</label></div>`
      );
    };
    const groupLabel = (name: string) =>
      localize(METHOD_GROUPS.find((group) => group.name === name)!.label, context.language);
    let choices = '';
    if (saved.length > 0) {
      choices +=
        `<fieldset><legend>${escapeHtml(t('methods.saved'))}</legend>` +
        saved.map((card) => radio(savedChoice(card.id), card.description, [])).join('') +
        '</fieldset>';
    }
    if (cards.length > 0) {
      choices += radio(
        'card',
        groupLabel('card'),
        cards.map((method) => logoPath(method.logo)),
      );
    }
    for (const country of METHOD_COUNTRIES) {
      const banks = options.methods.filter((method) => method.group === 'bank' && method.country === country);
      if (banks.length === 0) continue;
      choices +=
        `<fieldset><legend>${escapeHtml(groupLabel('bank'))}: ` +
        `${escapeHtml(localize(COUNTRY_NAMES[country], context.language))}</legend>` +
        banks
          .map((method) =>
            radio(method.name, localize(method.displayName, context.language), [logoPath(method.logo)]),
          )
          .join('') +
        '</fieldset>';
    }
    for (const method of options.methods.filter((candidate) => candidate.group === 'wallet')) {
      choices += radio(method.name, localize(method.displayName, context.language), [logoPath(method.logo)]);
    }
    const methodErrors = errorOf('method');
    let form =
      `<form method="post" action="/checkout/${purchase.id}/pay" novalidate${dueAttribute(context)}>` +
      `<fieldset${methodErrors.length > 0 ? ' aria-describedby="method-error"' : ''}>` +
      `<legend>${escapeHtml(t('methods.legend'))}</legend>${choices}` +
      fieldErrors('method', methodErrors, t) +
      '</fieldset>';
    if (cards.length > 0) form += cardFields(t, options.errors, options.values);
    form += payButton(context);
    if (options.script) {
      form += cardFormScript({
        ...options.script,
        language: context.language,
        schemes: cards.flatMap((method) => schemeOfMethod(method.name) ?? []),
        errorsTitle: t('errors.title'),
      });
    }
    form += '</form>';
    parts.push(form);
  }
  if (purchase.cancel_redirect !== null) {
    parts.push(
      `<p><a class="back" href="${escapeHtml(purchase.cancel_redirect)}">${escapeHtml(t('status.backToMerchant'))}</a></p>`,
    );
  }
  parts.push(`<p class="note">${escapeHtml(t('pay.secureNote'))}</p>`);
  return document(context.language, title, parts.join(''));
}

/**
 * The submit button, saying what it does: a card saved without a charge pays nothing (not "Pay 0.00"), and a
 * `skip_capture` Purchase only reserves its amount, which a note beside the button explains.
 */
function payButton(context: PageContext): string {
  const { t } = context;
  const { purchase } = context.record;
  const amount = amountOf(context);
  if (preauthorizes(purchase.skip_capture, purchase.purchase)) {
    return `<button type="submit" class="pay">${escapeHtml(t('pay.saveCard'))}</button>`;
  }
  if (purchase.skip_capture) {
    return (
      `<p class="note" id="hold-note">${escapeHtml(t('pay.holdNote', { amount }))}</p>` +
      `<button type="submit" class="pay" aria-describedby="hold-note">${escapeHtml(t('pay.hold', { amount }))}</button>`
    );
  }
  return `<button type="submit" class="pay">${escapeHtml(t('pay.button', { amount }))}</button>`;
}

/** The form's value of a saved card: its token's id behind a prefix no method name has. */
export function savedChoice(tokenId: string): string {
  return `saved:${tokenId}`;
}

/** The first choice as the page lists them: the card, else the first bank by country, else a wallet. */
function firstChoice(methods: readonly PaymentMethodEntry[]): string {
  if (methods.some((method) => method.group === 'card')) return 'card';
  for (const country of METHOD_COUNTRIES) {
    const bank = methods.find((method) => method.group === 'bank' && method.country === country);
    if (bank) return bank.name;
  }
  return methods[0]?.name ?? 'card';
}

/** The id of the input an error links to; a method error links to the first choice. */
function inputId(field: CheckoutField, options: FormPageOptions): string {
  const saved = options.savedCards?.[0];
  return field === 'method'
    ? `method-${saved ? savedChoice(saved.id) : firstChoice(options.methods)}`
    : field;
}

function summary(context: PageContext): string {
  const { t, record } = context;
  const { purchase } = record;
  const locale = localeFor(context.language);
  const lines = purchase.purchase.products
    .map(
      (product) =>
        `<li><span>${escapeHtml(product.name)} ${escapeHtml(t('unit.PIECE', { count: product.quantity }))}</span>` +
        `<span>${escapeHtml(formatMoney(product.price * product.quantity, purchase.purchase.currency, locale))}</span></li>`,
    )
    .join('');
  return (
    '<section class="summary" aria-labelledby="summary-title">' +
    `<h2 id="summary-title">${escapeHtml(t('summary.title'))}</h2>` +
    (purchase.reference !== null
      ? `<p>${escapeHtml(t('summary.orderId', { orderId: purchase.reference }))}</p>`
      : '') +
    `<ul>${lines}</ul>` +
    `<p class="total"><span>${escapeHtml(t('summary.total'))}</span><span>${escapeHtml(amountOf(context))}</span></p>` +
    '</section>'
  );
}
