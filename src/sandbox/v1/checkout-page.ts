/**
 * What every page of the hosted checkout shares: the Purchase's context, the document around a page's body,
 * and the page for an address that names no Purchase. The pages themselves: checkout-form-page.ts (the payment
 * form), checkout-step-page.ts (the confirmation step and the status page). Plain server-rendered HTML, no
 * script: it works with any browser and assistive technology, and the strict Content-Security-Policy it is
 * served with has nothing to allow. Card values are never written back into a page.
 */
import type { Language } from '../../core/i18n.js';
import { localeFor } from '../../core/i18n.js';
import { formatMoney } from '../../core/money.js';
import type { MerchantBrand } from '../config/types.js';
import { escapeHtml } from '../http.js';
import { brandLogoSource, brandStylesheetLink } from './checkout-brand.js';
import type { PageText, PageTranslate } from './checkout-texts.js';
import { preauthorizes } from './purchase-request.js';
import type { PurchaseRecord } from './purchases.js';

/** Where the page's stylesheet is served. */
export const CHECKOUT_CSS_PATH = '/checkout/assets/checkout.css';

/** What every page of one Purchase needs. */
export interface PageContext {
  record: PurchaseRecord;
  merchantName: string;
  language: Language;
  t: PageTranslate;
  /** Now on the merchant's clock, in Unix seconds: what a deadline's time left is counted from. */
  nowSeconds: number;
  /** The merchant's look from the sandbox config (its `name` is already `merchantName`); absent, the page's own. */
  brand?: MerchantBrand;
}

/** The Purchase's total in the page's language. */
export function amountOf(context: PageContext): string {
  const { purchase } = context.record.purchase;
  return formatMoney(purchase.total ?? 0, purchase.currency, localeFor(context.language));
}

/**
 * What the customer approves by paying: a payment, a hold of the amount (`skip_capture`), or saving the card
 * without a charge (`skip_capture` with a total of 0, which the sandbox preauthorizes).
 */
export type Approval = 'payment' | 'hold' | 'saving';

/** What paying this Purchase approves. */
export function approvalOf(context: PageContext): Approval {
  const { purchase } = context.record;
  if (preauthorizes(purchase.skip_capture, purchase.purchase)) return 'saving';
  return purchase.skip_capture ? 'hold' : 'payment';
}

/**
 * The note that says what a hold or a card saving does, which the buttons that approve it name in
 * `aria-describedby`; none for a payment.
 */
export function approvalNote(
  context: PageContext,
  approval: Approval,
): { id: string; html: string } | undefined {
  if (approval === 'payment') return undefined;
  const [id, sentence] =
    approval === 'hold'
      ? ['hold-note', context.t('pay.holdNote', { amount: amountOf(context) })]
      : ['save-note', context.t('pay.saveCardNote')];
  return { id, html: `<p class="note" id="${id}">${escapeHtml(sentence)}</p>` };
}

/** A whole page around its body, with the checkout's stylesheet and, after it, the brand's. */
function document(language: Language, title: string, body: string, head = ''): string {
  return (
    `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title><link rel="stylesheet" href="${CHECKOUT_CSS_PATH}">${head}</head>` +
    `<body><main>${body}</main></body></html>`
  );
}

/** A page of one Purchase: in its language, in the merchant's brand with its logo above the body. */
export function purchasePage(context: PageContext, title: string, body: string): string {
  const { brand } = context;
  if (brand === undefined) return document(context.language, title, body);
  const { merchantId } = context.record;
  const logo = brandLogoSource(merchantId, brand);
  return document(
    context.language,
    title,
    (logo === undefined ? '' : `<div class="brand"><img src="${escapeHtml(logo)}" alt=""></div>`) + body,
    brandStylesheetLink(merchantId),
  );
}

/** A translated text, escaped for HTML. */
export function text(t: PageTranslate, value: PageText): string {
  return escapeHtml(t(value.key, value.params));
}

/** The page for an address that names no Purchase. */
export function notFoundPage(t: PageTranslate): string {
  const title = t('page.notFound.title');
  return document('en', title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t('page.notFound.text'))}</p>`);
}
