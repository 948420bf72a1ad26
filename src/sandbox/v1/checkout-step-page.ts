/**
 * The hosted checkout's pages besides the form: the confirmation step (3-D Secure, bank, wallet) and the
 * status page of a Purchase that can no longer be paid.
 */
import { localeFor } from '../../core/i18n.js';
import { formatMoney } from '../../core/money.js';
import { formatIban } from '../formats.js';
import { escapeHtml } from '../http.js';
import { dueClockTime } from './checkout-due.js';
import {
  type Approval,
  amountOf,
  approvalNote,
  approvalOf,
  type PageContext,
  purchasePage,
} from './checkout-page.js';
import type { PageTextKey } from './checkout-texts.js';
import { type CreditorShare, creditorShares } from './creditor-payments.js';
import type { CheckoutStep } from './purchases.js';

/** The page of a Purchase that can no longer be paid: paid, held, its card saved, cancelled or expired. */
export function statusPage(context: PageContext): string {
  const { t, record } = context;
  const { purchase } = record;
  const amount = amountOf(context);
  let title: string;
  let body: string;
  let back: string | null;
  switch (purchase.status) {
    case 'paid':
      title = t('status.paid.title');
      body = t('status.paid.text', { amount });
      back = purchase.success_redirect;
      break;
    case 'hold':
      title = t('status.paid.title');
      body = t('status.hold.text', { amount });
      back = purchase.success_redirect;
      break;
    case 'preauthorized':
      title = t('status.saved.title');
      body = t('status.preauthorized.text');
      back = purchase.success_redirect;
      break;
    case 'expired':
      title = t('status.expired.title');
      // Only a strict deadline expires a Purchase, at its `due`, which it takes as its `updated_on`.
      body = t('status.expired.text', {
        time: dueClockTime(context, purchase.due ?? purchase.updated_on ?? context.nowSeconds),
      });
      back = purchase.cancel_redirect ?? purchase.failure_redirect;
      break;
    default:
      title = t('status.cancelled.title');
      body = t('status.orderClosed');
      back = purchase.cancel_redirect ?? purchase.failure_redirect;
  }
  return purchasePage(
    context,
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p>` +
      (back !== null
        ? `<p><a class="back" href="${escapeHtml(back)}">${escapeHtml(t('status.backToMerchant'))}</a></p>`
        : ''),
  );
}

/**
 * The confirmation step: the 3-D Secure test challenge, or the test bank's or wallet's confirmation. A bank
 * payment to named creditors lists whom it pays: each creditor of a bulk payment with its amount, or the
 * variable creditor.
 */
export function stepPage(context: PageContext, step: CheckoutStep, methodName: string): string {
  const { t, record } = context;
  const title = step.kind === 'three_ds' ? t('threeDs.title') : t('step.title', { method: methodName });
  const explanation = step.kind === 'three_ds' ? t('threeDs.sandboxExplanation') : t('step.explanation');
  const creditors = step.kind === 'bank' ? creditorShares(record.purchase.purchase) : undefined;
  // The buttons say what is approved: "Approve hold" for a `skip_capture` Purchase, "Approve saving the
  // card" for a card saved without a charge, beside the note that says what it does.
  const approval = approvalOf(context);
  const [approve, decline] = DECISIONS[approval];
  const note = approvalNote(context, approval);
  return purchasePage(
    context,
    title,
    `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(explanation)}</p>` +
      (creditors ? creditorTable(context, creditors.kind, creditors.shares) : '') +
      `<p class="total"><span>${escapeHtml(context.merchantName)}</span><span>${escapeHtml(amountOf(context))}</span></p>` +
      (note?.html ?? '') +
      `<form method="post" action="/checkout/${record.purchase.id}/steps/${step.id}">` +
      `<button type="submit" class="approve" name="decision" value="approve"${note ? ` aria-describedby="${note.id}"` : ''}>` +
      `${escapeHtml(t(approve))}</button>` +
      `<button type="submit" class="decline" name="decision" value="decline">${escapeHtml(t(decline))}</button>` +
      '</form>',
  );
}

/** The step's approve and decline buttons by what is approved. */
const DECISIONS: Readonly<Record<Approval, readonly [PageTextKey, PageTextKey]>> = {
  payment: ['threeDs.approve', 'threeDs.deny'],
  hold: ['threeDs.approveHold', 'threeDs.declineHold'],
  saving: ['threeDs.approveSave', 'threeDs.declineSave'],
};

/** Whom a bank payment pays, one row per creditor, in the order the Purchase names them. */
function creditorTable(
  context: PageContext,
  kind: 'bulk' | 'variable',
  shares: readonly CreditorShare[],
): string {
  const { t } = context;
  const { currency } = context.record.purchase.purchase;
  const locale = localeFor(context.language);
  const rows = shares
    .map(
      (share) =>
        `<tr><th scope="row">${escapeHtml(share.name)}</th><td>${escapeHtml(formatIban(share.iban))}</td>` +
        `<td>${escapeHtml(formatMoney(share.amount, currency, locale))}</td></tr>`,
    )
    .join('');
  return (
    `<table class="creditors"><caption>${escapeHtml(t(kind === 'bulk' ? 'step.creditors.bulk' : 'step.creditors.variable'))}</caption>` +
    `<thead><tr><th scope="col">${escapeHtml(t('step.creditors.name'))}</th><th scope="col">IBAN</th>` +
    `<th scope="col">${escapeHtml(t('step.creditors.amount'))}</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}
