/**
 * Pays a v1 Purchase headlessly through the code the hosted checkout page runs (`CheckoutPayments`): a test
 * card with its 3-D Secure step, or one of the page's bank or wallet methods with its test step approved or
 * denied. The success callback and the webhooks go out as for the page.
 */
import type { Purchase } from '../../core/v1-types.js';
import type { V1Parts } from '../v1/api.js';
import { type CheckoutOutcome, methodsFor } from '../v1/checkout-payments.js';
import { pageTranslator } from '../v1/checkout-texts.js';
import { V1HttpError } from '../v1/errors.js';
import { purchaseView } from '../v1/purchase-view.js';
import { PAYABLE, type PurchaseRecord } from '../v1/purchases.js';
import { membersOf, optionalChoice, optionalString, requiredString } from './helper-input.js';
import { STEP_ANSWERS, type StepAnswer } from './pay-order.js';
import { cardFieldsOf, checkThreeDSecureAnswer, type TestCardChoice } from './test-card-choice.js';
import { invalidInput, TestHelperError } from './test-helper-error.js';

export interface PayPurchaseInput {
  purchaseId: string;
  /**
   * `card` (the default), or a bank or wallet method the Purchase offers on its checkout page, such as
   * `swedbank_lv_pis`.
   */
  method?: string;
  /** With `card`: a test card's name or number. Default `visa`. */
  card?: TestCardChoice;
  /** With the card `threeDSecure`: the customer's answer. Default `approve`. */
  threeDSecure?: StepAnswer;
  /** With a bank or wallet method: the customer's answer on its test step. Default `approve`. */
  confirmation?: StepAnswer;
}

interface PayPurchaseOutcome {
  purchaseId: string;
  /** The Purchase as `GET /purchases/{id}/` answers it now. */
  purchase: Purchase;
}

/**
 * `paid`: paid (its status `paid`, `hold` with `skip_capture`, or `preauthorized`); `failed`: declined or
 * denied, the Purchase `error` and payable again; `retry`: a processing error, payable again.
 */
export type PayPurchaseResult =
  | (PayPurchaseOutcome & { outcome: 'paid' })
  | (PayPurchaseOutcome & { outcome: 'failed' | 'retry'; error: { code: string; description: string } });

/**
 * @param merchantId the merchant whose Purchase it must be (over HTTP, the bearer key's); any when left out.
 * @throws TestHelperError `invalid_input`, `not_found`, `not_applicable` (a Purchase that cannot be paid now).
 */
export function payPurchase(
  parts: V1Parts,
  given: unknown,
  baseUrl: string,
  now: Date,
  merchantId?: string,
): PayPurchaseResult {
  const input = membersOf(given, '', ['purchaseId', 'method', 'card', 'threeDSecure', 'confirmation']);
  const record = purchaseOf(parts, requiredString(input, 'purchaseId', ''), merchantId);
  const method = optionalString(input, 'method', '') ?? 'card';
  const threeDSecure = optionalChoice(input, 'threeDSecure', '', STEP_ANSWERS);
  const confirmation = optionalChoice(input, 'confirmation', '', STEP_ANSWERS);
  if (method === 'card' && confirmation !== undefined)
    throw invalidInput(
      'confirmation',
      'confirmation answers a bank or wallet test step; a card takes threeDSecure',
    );
  if (method !== 'card' && (input['card'] !== undefined || threeDSecure !== undefined))
    throw invalidInput(
      input['card'] !== undefined ? 'card' : 'threeDSecure',
      `card and threeDSecure go with method card; ${method} takes confirmation`,
    );
  const card =
    method === 'card' ? cardFieldsOf(input['card'], now) : { number: '', expiry: '', cvc: '', holder: '' };
  checkThreeDSecureAnswer(threeDSecure, card.number);
  requirePayable(record, 'paid');
  const offered = methodsFor(record)
    .filter((entry) => entry.group !== 'card')
    .map((entry) => entry.name);
  if (method !== 'card' && !offered.includes(method))
    throw invalidInput(
      'method',
      `The Purchase's checkout page offers no method ${method}; use card${offered.length > 0 ? ` or one of ${offered.join(', ')}` : ''}`,
    );

  let outcome: CheckoutOutcome = parts.payments.submit(record, { method, card });
  if (outcome.kind === 'step') {
    const approve = (outcome.step.kind === 'three_ds' ? threeDSecure : confirmation) !== 'deny';
    outcome = parts.payments.answerStep(outcome.record, outcome.step.id, approve);
  }
  return resultOf(outcome, baseUrl);
}

export function purchaseOf(parts: V1Parts, id: string, merchantId: string | undefined): PurchaseRecord {
  const record = parts.purchases.find(id);
  if (!record || (merchantId !== undefined && record.merchantId !== merchantId))
    throw new TestHelperError(
      'not_found',
      `No purchase ${id}${merchantId !== undefined ? " of this secret key's merchant" : ''}`,
      {
        field: 'purchaseId',
      },
    );
  return record;
}

/** Refuses a Purchase that cannot be paid now, saying what it is. */
export function requirePayable(record: PurchaseRecord, event: string): void {
  const { status } = record.purchase;
  if (!PAYABLE.has(status))
    throw new TestHelperError(
      'not_applicable',
      `Purchase ${record.purchase.id} is ${status}; only a Purchase that can still be paid (created or error) can be ${event}`,
      { field: 'purchaseId' },
    );
}

function resultOf(outcome: CheckoutOutcome, baseUrl: string): PayPurchaseResult {
  const purchaseId = outcome.record.purchase.id;
  const purchase = purchaseView(outcome.record, baseUrl);
  switch (outcome.kind) {
    case 'paid':
      return { outcome: 'paid', purchaseId, purchase };
    case 'failed':
    case 'retry': {
      const error = outcome.record.purchase.transaction_data.attempts[0]?.error ?? {
        code: 'failed',
        description: 'The payment failed',
      };
      return { outcome: outcome.kind, purchaseId, purchase, error };
    }
    case 'invalid': {
      const t = pageTranslator('en');
      const first = outcome.errors[0];
      throw invalidInput(
        first?.field === 'method' ? 'method' : 'card',
        outcome.errors.map((error) => t(error.text.key, error.text.params)).join(' '),
      );
    }
    case 'closed':
      throw new TestHelperError(
        'not_applicable',
        `Purchase ${purchaseId} is ${outcome.record.purchase.status}; it can no longer be paid`,
        {
          field: 'purchaseId',
        },
      );
    case 'step':
      throw new Error(`Purchase ${purchaseId} is still on a test step after its answer`);
  }
}

/** A v1 refusal (`V1HttpError`) as the helper's, its first message and code kept. */
export function fromV1Error(error: unknown): unknown {
  if (!(error instanceof V1HttpError)) return error;
  const [field, detail] = Object.entries(error.body)[0] ?? [
    '__all__',
    { code: 'invalid', message: error.message },
  ];
  const first = Array.isArray(detail) ? detail[0] : detail;
  return new TestHelperError(error.status === 404 ? 'not_found' : 'refused_by_gateway', error.message, {
    gatewayCode: first?.code ?? 'invalid',
    status: error.status,
    ...(field !== '__all__' && { field }),
  });
}
