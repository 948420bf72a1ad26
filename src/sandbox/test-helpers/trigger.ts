/**
 * Fires a v1 event for an existing object by doing what causes it, so the object's state agrees with the
 * event (a `payment.refunded` is a real refund: the Purchase's `refundable_amount` drops, the balance moves):
 *
 * - `purchase.paid`: pays a payable Purchase on its checkout page's code with a test card (`visa`);
 * - `purchase.payment_failure`: the same with a declined card (`declined`);
 * - `purchase.cancelled`: cancels a payable Purchase;
 * - `payment.refunded`: refunds a paid Purchase (all, or `amount`);
 * - `purchase.subscription_charge_failure`: bills an active subscriber's next period now, early, and the
 *   acquirer fails the charge (as `X-Sandbox-Acquirer: fail` would): the period's Purchase stays payable and
 *   is invoiced, and the next billing falls a period later.
 *
 * What does not apply to the object now (a refund of an unpaid Purchase, paying a paid one) is refused with
 * `not_applicable`, saying the object's state; nothing is changed then.
 */
import type { BillingTemplateClient, Payment, Purchase } from '../../core/v1-types.js';
import { PROMPT } from '../acquirer.js';
import { findTestCard } from '../test-cards.js';
import type { V1Parts } from '../v1/api.js';
import { paymentView, purchaseView } from '../v1/purchase-view.js';
import { membersOf, optionalAmount, requiredString } from './helper-input.js';
import { fromV1Error, payPurchase, purchaseOf, requirePayable } from './pay-purchase.js';
import { cardFieldsOf, type TestCardChoice } from './test-card-choice.js';
import { invalidInput, TestHelperError } from './test-helper-error.js';

/** The events `trigger` fires. */
export const TRIGGER_EVENTS = [
  'purchase.paid',
  'purchase.payment_failure',
  'purchase.cancelled',
  'payment.refunded',
  'purchase.subscription_charge_failure',
] as const;

export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

export type TriggerInput =
  | { event: 'purchase.paid' | 'purchase.payment_failure'; purchaseId: string; card?: TestCardChoice }
  | { event: 'purchase.cancelled'; purchaseId: string }
  /** `amount` in minor units; everything still refundable when left out. */
  | { event: 'payment.refunded'; purchaseId: string; amount?: number }
  | {
      event: 'purchase.subscription_charge_failure';
      billingTemplateId: string;
      /** The subscriber's (BillingTemplateClient's) id, or its Client's id. */
      subscriberId: string;
    };

export type TriggerResult =
  | { event: 'purchase.paid' | 'purchase.payment_failure' | 'purchase.cancelled'; purchase: Purchase }
  | { event: 'payment.refunded'; purchase: Purchase; payment: Payment }
  | {
      event: 'purchase.subscription_charge_failure';
      /** The period's Purchase, unpaid and invoiced. */
      purchase: Purchase;
      subscriber: BillingTemplateClient;
    };

/**
 * @param merchantId the merchant the object must be of (over HTTP, the bearer key's); any when left out.
 * @throws TestHelperError naming what to fix.
 */
export function trigger(
  parts: V1Parts,
  given: unknown,
  baseUrl: string,
  now: Date,
  merchantId?: string,
): TriggerResult {
  const event = readEvent(given);
  try {
    switch (event) {
      case 'purchase.paid':
      case 'purchase.payment_failure': {
        const input = membersOf(given, '', ['event', 'purchaseId', 'card']);
        const purchaseId = requiredString(input, 'purchaseId', '');
        const paid = event === 'purchase.paid';
        const card = input['card'] ?? (paid ? 'visa' : 'declined');
        const outcome = findTestCard(cardFieldsOf(card, now).number)?.outcome.kind;
        if (outcome !== (paid ? 'approved' : 'declined'))
          throw invalidInput(
            'card',
            `${event} needs a card that is ${paid ? 'approved' : 'declined'} at once, such as ${paid ? 'visa' : 'declined'}; ${JSON.stringify(card)} is not one`,
          );
        requirePayable(purchaseOf(parts, purchaseId, merchantId), paid ? 'paid' : 'attempted');
        const result = payPurchase(parts, { purchaseId, card }, baseUrl, now, merchantId);
        return { event, purchase: result.purchase };
      }
      case 'purchase.cancelled': {
        const input = membersOf(given, '', ['event', 'purchaseId']);
        const record = purchaseOf(parts, requiredString(input, 'purchaseId', ''), merchantId);
        requirePayable(record, 'cancelled');
        const cancelled = parts.purchases.cancel(record.merchantId, record.purchase.id);
        return { event, purchase: purchaseView(cancelled, baseUrl) };
      }
      case 'payment.refunded': {
        const input = membersOf(given, '', ['event', 'purchaseId', 'amount']);
        const record = purchaseOf(parts, requiredString(input, 'purchaseId', ''), merchantId);
        const amount = optionalAmount(input, 'amount', '');
        const { status, refundable_amount: refundable, marked_as_paid: marked } = record.purchase;
        if (status !== 'paid' || !record.authorisationId || refundable === 0)
          throw new TestHelperError(
            'not_applicable',
            `Purchase ${record.purchase.id} is ${status}${marked ? ', marked as paid (no money went through the gateway)' : ''}${status === 'paid' && refundable === 0 ? ' and refunded in full' : ''}; only a paid Purchase with money left to refund can be refunded`,
            { field: 'purchaseId' },
          );
        if (amount !== undefined && amount > refundable)
          throw invalidInput('amount', `amount ${amount} is more than the ${refundable} still refundable`);
        const payment = parts.operations.refund(
          record.merchantId,
          record.purchase.id,
          amount === undefined ? {} : { amount },
          PROMPT,
        );
        const refunded = parts.purchases.find(record.purchase.id)!;
        return {
          event,
          purchase: purchaseView(refunded, baseUrl),
          payment: paymentView(parts.operations.payment(record.merchantId, payment.id), refunded),
        };
      }
      case 'purchase.subscription_charge_failure': {
        const input = membersOf(given, '', ['event', 'billingTemplateId', 'subscriberId']);
        const billed = parts.billing.billNextPeriodNow(
          merchantId,
          requiredString(input, 'billingTemplateId', ''),
          requiredString(input, 'subscriberId', ''),
          { mode: 'fail', slowMs: 0 },
        );
        return { event, purchase: purchaseView(billed.purchase, baseUrl), subscriber: billed.subscriber };
      }
    }
  } catch (error) {
    const refused = fromV1Error(error);
    if (!(refused instanceof TestHelperError) || event !== 'purchase.subscription_charge_failure')
      throw refused;
    // Billing's refusals name no member: a missing template or subscriber, or one that is not active (its
    // state, not a refusal of the request).
    const field = refused.message.startsWith('No billing template') ? 'billingTemplateId' : 'subscriberId';
    throw new TestHelperError(
      refused.code === 'not_found' ? 'not_found' : 'not_applicable',
      refused.message,
      { field },
    );
  }
}

function readEvent(given: unknown): TriggerEvent {
  const input = membersOf(given, '', [
    'event',
    'purchaseId',
    'card',
    'amount',
    'billingTemplateId',
    'subscriberId',
  ]);
  const event = input['event'];
  if (typeof event !== 'string' || !(TRIGGER_EVENTS as readonly string[]).includes(event))
    throw invalidInput(
      'event',
      `event must be one of ${TRIGGER_EVENTS.join(', ')}${typeof event === 'string' ? `; ${JSON.stringify(event)} is not fired by the sandbox's test helpers` : ''}`,
    );
  return event as TriggerEvent;
}
