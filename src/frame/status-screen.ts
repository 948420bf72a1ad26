/**
 * The screens that end a payment: paid, failed (with the reason) and cancelled, and the merchant's
 * rejection of the order before any payment (with the merchant's reason). Failed and cancelled offer the
 * way back to the shop, which the element carries out (`navigateBackToCart`), as does the rejection when
 * the page gave a back-to-merchant URL; failed first offers another card, since a failed payment leaves
 * the order payable.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { FrameMessageKey, FrameTranslate } from '../core/index.js';

/**
 * What one status screen says. A paid order names the amount paid; a receipt (the gateway's answer to an
 * unsigned page of an order id paid before, which carries nothing of the order) names the order id alone.
 */
export type StatusView =
  | { kind: 'paid'; amount: string }
  | { kind: 'paid'; orderId: string }
  | { kind: 'failed'; reason: FrameMessageKey }
  | { kind: 'cancelled' }
  | { kind: 'rejected'; reason: FrameMessageKey; back: boolean };

/** The id of the screen's heading, which takes the focus when the screen shows. */
export const STATUS_HEADING_ID = 'svc-status-title';

const ICONS = {
  paid: svg`<circle cx="12" cy="12" r="11" fill="currentColor"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>`,
  failed: svg`<circle cx="12" cy="12" r="11" fill="currentColor"/><path d="M8.5 8.5l7 7m0-7l-7 7" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/>`,
  cancelled: svg`<circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2"/><path d="M7.5 12h9" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>`,
};

/** The title and the sentence of a status screen. */
export function statusTexts(view: StatusView, t: FrameTranslate): { title: string; text: string } {
  switch (view.kind) {
    case 'paid':
      return {
        title: t('status.paid.title'),
        text:
          'amount' in view
            ? t('status.paid.text', { amount: view.amount })
            : t('summary.orderId', { orderId: view.orderId }),
      };
    case 'failed':
      return { title: t('status.failed.title'), text: t('status.failed.text', { reason: t(view.reason) }) };
    case 'cancelled':
      return { title: t('status.cancelled.title'), text: t('status.cancelled.text') };
    case 'rejected':
      return { title: t('status.rejected.title'), text: t(view.reason) };
  }
}

/** What the buttons of a status screen do. */
export interface StatusActions {
  /** The customer asks to go back to the shop (failed and cancelled screens, a rejection with a URL). */
  back(): void;
  /** The customer will pay with another card (failed screen). */
  tryAnotherCard(): void;
}

/** One status screen. */
export function renderStatus(view: StatusView, t: FrameTranslate, actions: StatusActions): TemplateResult {
  const { title, text } = statusTexts(view, t);
  // A rejection looks like a failure: nothing was paid, and this order cannot be.
  const kind = view.kind === 'rejected' ? 'failed' : view.kind;
  return html`<section class="svc-status svc-status--${kind}" aria-labelledby=${STATUS_HEADING_ID}>
    <svg class="svc-status-icon" viewBox="0 0 24 24" width="48" height="48" aria-hidden="true" focusable="false">
      ${ICONS[kind]}
    </svg>
    <h2 id=${STATUS_HEADING_ID} tabindex="-1" aria-describedby="svc-status-text">${title}</h2>
    <p id="svc-status-text" class="svc-status-text">${text}</p>
    ${
      view.kind === 'paid' || (view.kind === 'rejected' && !view.back)
        ? nothing
        : html`<div class="svc-actions svc-status-actions">
            ${
              view.kind === 'failed'
                ? html`<button type="button" class="svc-button svc-button--primary" @click=${actions.tryAnotherCard}>
                    ${t('status.tryAnotherCard')}
                  </button>`
                : nothing
            }
            <button type="button" class="svc-button svc-button--secondary" @click=${actions.back}>
              ${t('status.backToMerchant')}
            </button>
          </div>`
    }
  </section>`;
}
