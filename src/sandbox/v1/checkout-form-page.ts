/**
 * The hosted checkout's payment form: the order, the payment methods the Purchase allows (cards as one
 * choice, banks by country, wallets) and the card fields. Field errors are listed in an alert with links to
 * the fields, each field carries `aria-invalid` and `aria-describedby`, and the first wrong field takes focus.
 * Card values are never written back into the page.
 */
import { localeFor } from '../../core/i18n.js';
import { formatMoney } from '../../core/money.js';
import { escapeHtml } from '../http.js';
import { cardFields, cardFormScript, fieldErrors, type ShownCardValues } from './checkout-card-fields.js';
import { dueAttribute, dueClockTime, dueNote, strictDue } from './checkout-due.js';
import { choiceId, continueButtons, firstChoice, methodChoices } from './checkout-method-choices.js';
import { amountOf, approvalNote, approvalOf, type PageContext, purchasePage, text } from './checkout-page.js';
import { type CheckoutField, type CheckoutFieldError, schemeOfMethod } from './checkout-payments.js';
import type { PageText } from './checkout-texts.js';
import type { PaymentMethodEntry } from './method-catalogue.js';

/** What the payment form shows besides the Purchase. */
export interface FormPageOptions {
  methods: readonly PaymentMethodEntry[];
  /** The customer's saved cards (a Purchase with `client_id`): paid in one click, no card details typed. */
  savedCards?: ReadonlyArray<{ id: string; description: string }>;
  /** `card` or a method name: the choice checked when the page opens. */
  selected: string | undefined;
  /** Open on the selected choice alone, the others behind "Other ways to pay" (`?preferred=`). */
  alone?: boolean;
  errors: readonly CheckoutFieldError[];
  /** A payment that just failed, shown above the form. */
  failure?: PageText;
  /** The form was sent past the Purchase's strict deadline: shown again to keep what was typed, not to send. */
  expired?: boolean;
  /** What the customer typed that may be shown again (never the card number or CVC). */
  values?: ShownCardValues;
  /** The card form script's address and the merchant's clock (Unix ms); without it the page has no script. */
  script?: { src: string; now: number };
}

/** The payment form. */
export function formPage(context: PageContext, options: FormPageOptions): string {
  const { t, record } = context;
  const { purchase } = record;
  const title = t(approvalOf(context) === 'saving' ? 'page.title.saving' : 'page.title', {
    merchant: context.merchantName,
  });
  const firstError = options.errors[0]?.field;
  const errorOf = (field: CheckoutField) => options.errors.filter((error) => error.field === field);

  const parts: string[] = [`<h1>${escapeHtml(title)}</h1>`];
  const due = strictDue(context);
  if (options.expired) {
    parts.push(
      '<div class="alert" role="alert" aria-labelledby="expired-title">' +
        `<h2 id="expired-title">${escapeHtml(t('status.expired.title'))}</h2>` +
        `<p>${escapeHtml(t('due.expired', { time: due === undefined ? '' : dueClockTime(context, due) }))}</p></div>`,
    );
  } else if (options.errors.length > 0) {
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
    const methodErrors = errorOf('method');
    let form =
      `<form method="post" action="/checkout/${purchase.id}/pay" novalidate${dueAttribute(context)}>` +
      (options.expired ? '' : dueNote(context)) +
      `<fieldset${methodErrors.length > 0 ? ' aria-describedby="method-error"' : ''}>` +
      `<legend>${escapeHtml(t('methods.legend'))}</legend>` +
      methodChoices(context, {
        methods: options.methods,
        savedCards: saved,
        ...(options.selected !== undefined && { selected: options.selected }),
        alone: options.alone === true,
        ...(firstError === 'method' && { autofocus: firstChoice(options.methods, saved) }),
      }) +
      fieldErrors('method', methodErrors, t) +
      '</fieldset>';
    const schemes = cards.flatMap((method) => schemeOfMethod(method.name) ?? []);
    if (cards.length > 0) {
      // The note speaks of card details: it shows with the card's fields, not beside a bank's or a wallet's button.
      form += `<div class="card-fields">${cardFields(context, schemes, options.errors, options.values)}<p class="note">${escapeHtml(t('pay.secureNote'))}</p></div>`;
    }
    if (!options.expired) {
      if (cards.length > 0 || saved.length > 0) form += `<div class="pay-card">${payButton(context)}</div>`;
      form += continueButtons(context, options.methods);
    }
    if (options.script) {
      form += cardFormScript({
        ...options.script,
        language: context.language,
        schemes,
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
  return purchasePage(context, title, parts.join(''));
}

/**
 * The submit button, saying what it does: a card saved without a charge pays nothing (not "Pay 0.00"), and a
 * `skip_capture` Purchase only reserves its amount; a note beside the button explains either.
 */
function payButton(context: PageContext): string {
  const { t } = context;
  const amount = amountOf(context);
  const approval = approvalOf(context);
  const label = {
    payment: t('pay.button', { amount }),
    hold: t('pay.hold', { amount }),
    saving: t('pay.saveCard'),
  }[approval];
  const note = approvalNote(context, approval);
  return (
    (note?.html ?? '') +
    `<button type="submit" class="pay"${note ? ` aria-describedby="${note.id}"` : ''}>${escapeHtml(label)}</button>`
  );
}

/** The id of the input an error links to; a method error links to the first choice. */
function inputId(field: CheckoutField, options: FormPageOptions): string {
  return field === 'method' ? choiceId(firstChoice(options.methods, options.savedCards ?? [])) : field;
}

function summary(context: PageContext): string {
  const { t, record } = context;
  const { purchase } = record;
  const locale = localeFor(context.language);
  const money = (amount: number) => formatMoney(amount, purchase.purchase.currency, locale);
  // The amount on the right is the line's total; the unit price stands under the name, where it says "each".
  const lines = purchase.purchase.products
    .map(
      (product) =>
        `<li><span class="item"><span>${escapeHtml(product.name)}</span>` +
        (product.quantity === 1
          ? ''
          : `<span class="unit">${escapeHtml(t('summary.unitPrice', { count: product.quantity, price: money(product.price) }))}</span>`) +
        `</span><span class="line-total">${escapeHtml(money(product.price * product.quantity))}</span></li>`,
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
