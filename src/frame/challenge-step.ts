/**
 * The 3-D Secure step. In the sandbox the card issuer's page is a test page of the gateway's own, where the
 * customer chooses the issuer's answer; it says so, so nobody mistakes it for their bank. Like an issuer's
 * own page, it names the merchant and the amount being confirmed.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { FrameTranslate } from '../core/index.js';

/** The id of the step's heading, which takes the focus when the step shows. */
export const CHALLENGE_HEADING_ID = 'svc-challenge-title';

/** What the challenge step shows. */
export interface ChallengeView {
  /** The answer is on its way; the buttons take no more presses. */
  busy: boolean;
  /** The answer may not have arrived; the customer can ask the gateway again. */
  networkError: boolean;
  /** The amount to confirm, formatted with its currency. */
  amount: string;
}

/** What the challenge step does when pressed. */
export interface ChallengeActions {
  answer(approve: boolean): void;
  retry(): void;
}

/** The step, which names `merchant` (the merchant's name) beside the amount. */
export function renderChallenge(
  view: ChallengeView,
  t: FrameTranslate,
  actions: ChallengeActions,
  merchant: string,
): TemplateResult {
  const busy = view.busy ? 'true' : 'false';
  return html`<section class="svc-challenge" aria-labelledby=${CHALLENGE_HEADING_ID} aria-busy=${busy}>
    <h2 id=${CHALLENGE_HEADING_ID} tabindex="-1">${t('threeDs.title')}</h2>
    <dl class="svc-summary-totals">
      <div><dt>${t('threeDs.merchant')}</dt><dd>${merchant}</dd></div>
      <div><dt>${t('summary.total')}</dt><dd>${view.amount}</dd></div>
    </dl>
    <p>${t('threeDs.sandboxExplanation')}</p>
    ${view.busy ? html`<p class="svc-progress">${t('threeDs.waiting')}</p>` : nothing}
    ${
      view.networkError
        ? html`<div class="svc-notice svc-notice--error">
            <p>${t('status.networkError')}</p>
            <button type="button" class="svc-button svc-button--primary" @click=${actions.retry}>
              ${t('status.retry')}
            </button>
          </div>`
        : html`<div class="svc-actions">
            <button
              type="button"
              class="svc-button svc-button--primary"
              aria-disabled=${busy}
              @click=${() => actions.answer(true)}
            >
              ${t('threeDs.approve')}
            </button>
            <button
              type="button"
              class="svc-button svc-button--secondary"
              aria-disabled=${busy}
              @click=${() => actions.answer(false)}
            >
              ${t('threeDs.deny')}
            </button>
          </div>`
    }
  </section>`;
}
