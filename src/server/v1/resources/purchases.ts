/**
 * `/purchases/`: create and read a Purchase, and every operation of the document on one. A refund's
 * `client_name` is checked before sending by the rule the sandbox answers with (core/v1-limits.ts).
 */
import { isPlainObject } from '../../../core/plain-object.js';
import {
  REFUND_CLIENT_NAME_MAX_LENGTH,
  refundClientNameProblem,
  V1_MAX_AMOUNT,
} from '../../../core/v1-limits.js';
import type {
  CapturePurchaseRequest,
  ChargePurchaseRequest,
  CreatePurchaseRequest,
  MarkAsPaidRequest,
  Payment,
  Purchase,
  RefundPurchaseRequest,
} from '../../../core/v1-types.js';
import {
  expect,
  given,
  optionalBody,
  requireObject,
  segment,
  shown,
  type V1Core,
  type V1RequestOptions,
} from '../client-core.js';
import { V1ApiError } from '../errors.js';
import { type PurchaseFailureCause, readFailureCause } from '../failure-cause.js';

/** Purchases: create and read them, and every operation of the document on one. */
export interface V1Purchases {
  /**
   * `POST /purchases/`: a new Purchase; send the customer to its `checkout_url`.
   * @throws V1ApiError `bad_request` with one entry per problem in `errors` when the body is refused.
   */
  create(body: CreatePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `GET /purchases/{id}/`.
   * @throws V1ApiError `not_found` when there is no such Purchase for this key.
   */
  get(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/cancel/`: the Purchase can no longer be paid.
   * @throws V1ApiError `not_found`; `bad_request` when it is past paying (already paid, say).
   */
  cancel(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/capture/`: takes the money a `hold` Purchase holds, all of it, or `amount` of it
   * (the remainder is released). It answers `paid`, or `pending_capture` when the acquirer is slow
   * (`purchase.captured` follows). Without `amount` no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `amount` is not a positive whole number;
   *   `bad_request` with `errors[0].code` `purchase_capture_error` (field `__all__`) when processing failed,
   *   whose cause {@link V1Purchases.failureCause} reads; `not_found`.
   * @example
   * ```ts
   * try {
   *   await v1.purchases.capture(id, { amount: 500 });
   * } catch (error) {
   *   if (error instanceof V1ApiError && error.errors[0]?.code === 'purchase_capture_error') {
   *     const cause = await v1.purchases.failureCause(id); // reads GET /purchases/{id}/
   *     log.warn(`capture of ${id} failed: ${cause?.code} ${cause?.description}`);
   *   } else throw error;
   * }
   * ```
   */
  capture(id: string, body?: CapturePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/release/`: gives back what a `hold` Purchase holds. It answers `released`, or
   * `pending_release` when the acquirer is slow (`purchase.released` follows).
   * @throws V1ApiError `bad_request` with `errors[0].code` `purchase_release_error` when processing failed
   *   ({@link V1Purchases.failureCause} says why); `not_found`.
   */
  release(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/charge/`: pays the Purchase `id` (made without redirects) with the card of the
   * token Purchase `recurring_token`. It answers `paid` (`hold` when the Purchase has `skip_capture`), or
   * `pending_charge` when the acquirer is slow. Do not send the customer to its `checkout_url`.
   * @throws V1ApiError `invalid_request` before sending when `recurring_token` is not a non-empty string;
   *   `bad_request` with `errors[0].code` `purchase_charge_error` when the charge failed
   *   ({@link V1Purchases.failureCause} says why); `not_found`.
   */
  charge(id: string, body: ChargePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/delete_recurring_token/`: the token Purchase `id` can no longer be charged
   * (`is_recurring_token` becomes `false`; its saved card goes from the Client's tokens).
   * @throws V1ApiError `not_found`.
   */
  deleteRecurringToken(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/refund/`: refunds a `paid` Purchase, in full, or `amount` of it (at most its
   * `refundable_amount`). Resolves the Payment the refund created; it is `pending` when the acquirer is slow,
   * and `payment.refunded` delivers it once done. With neither member given no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `amount` is not a positive whole number or
   *   `client_name` not a non-empty string of at most 70 characters; `bad_request` with `errors[0].code`
   *   `purchase_refund_error` when the refund failed (past the refundable amount, say;
   *   {@link V1Purchases.failureCause} says why); `not_found`; `invalid_response` when the answer is not a
   *   Payment.
   */
  refund(id: string, body?: RefundPurchaseRequest, options?: V1RequestOptions): Promise<Payment>;
  /**
   * `POST /purchases/{id}/mark_as_paid/`: records that a Purchase was paid outside the gateway (`paid`,
   * `marked_as_paid: true`), at `paid_on` or now. Without `paid_on` no body is sent.
   * @throws V1ApiError `invalid_request` before sending when `paid_on` is not a finite number; `not_found`.
   */
  markAsPaid(id: string, body?: MarkAsPaidRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/resend_invoice/`: sends the customer the invoice of the Purchase again.
   * @throws V1ApiError `not_found`.
   */
  resendInvoice(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * Why the last capture, release, charge or refund of a Purchase failed: reads the Purchase
   * (`GET /purchases/{id}/`) and gives the `error` of its newest attempt (the document's rule 4; see
   * `readFailureCause`). Call it after one of them rejected with `bad_request`.
   * @returns undefined when the newest attempt succeeded or there is none.
   * @throws V1ApiError as {@link V1Purchases.get}.
   */
  failureCause(id: string, options?: V1RequestOptions): Promise<PurchaseFailureCause | undefined>;
}

/** Checks that an answer is a Purchase. */
export function expectPurchase(value: unknown): Purchase {
  return expect<Purchase>(
    value,
    'Purchase',
    (record) => typeof record['id'] === 'string' && typeof record['status'] === 'string',
  );
}

const isPayment = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && record['type'] === 'payment';

function checkAmount(amount: unknown): void {
  if (
    amount !== undefined &&
    !(Number.isInteger(amount) && (amount as number) > 0 && (amount as number) <= V1_MAX_AMOUNT)
  ) {
    throw new V1ApiError(
      'invalid_request',
      `amount must be a positive whole number of minor units (cents), at most ${V1_MAX_AMOUNT}, not ${shown(amount)}; ` +
        'leave it out for the whole amount',
    );
  }
}

function checkClientName(name: unknown): void {
  if (name === undefined) return;
  if (typeof name !== 'string' || refundClientNameProblem(name) !== undefined) {
    throw new V1ApiError(
      'invalid_request',
      `client_name must be a non-empty string of at most ${REFUND_CLIENT_NAME_MAX_LENGTH} characters, ` +
        `not ${shown(name).slice(0, 100)}; leave it out for the Purchase's client name`,
    );
  }
}

export function purchasesResource({ send, urlOf }: V1Core): V1Purchases {
  const purchasePath = (id: string, action = '') => `/purchases/${segment(id, 'id')}/${action}`;

  async function getPurchase(id: string, callOptions: V1RequestOptions | undefined): Promise<Purchase> {
    return expectPurchase(await send('GET', urlOf(purchasePath(id)), undefined, callOptions));
  }

  /** `POST /purchases/{id}/{action}`, whose answer is the Purchase. */
  async function purchaseOperation(
    id: string,
    action: string,
    body: Record<string, unknown> | undefined,
    callOptions: V1RequestOptions | undefined,
  ): Promise<Purchase> {
    return expectPurchase(await send('POST', urlOf(purchasePath(id, action)), body, callOptions));
  }

  return {
    async create(body, callOptions) {
      requireObject(body, 'The purchase body must be an object');
      const answer = await send('POST', urlOf('/purchases/'), body, callOptions);
      return expectPurchase(answer);
    },
    get: getPurchase,
    cancel(id, callOptions) {
      return purchaseOperation(id, 'cancel/', undefined, callOptions);
    },
    async capture(id, body, callOptions) {
      const { amount } = optionalBody(body, 'capture');
      checkAmount(amount);
      return purchaseOperation(id, 'capture/', given({ amount }), callOptions);
    },
    release(id, callOptions) {
      return purchaseOperation(id, 'release/', undefined, callOptions);
    },
    async charge(id, body, callOptions) {
      const token = isPlainObject(body) ? body.recurring_token : undefined;
      if (typeof token !== 'string' || token.trim() === '') {
        throw new V1ApiError(
          'invalid_request',
          `recurring_token must be the id of a token Purchase (a non-empty string), not ${shown(token)}`,
        );
      }
      return purchaseOperation(id, 'charge/', { recurring_token: token }, callOptions);
    },
    deleteRecurringToken(id, callOptions) {
      return purchaseOperation(id, 'delete_recurring_token/', undefined, callOptions);
    },
    async refund(id, body, callOptions) {
      const { amount, client_name } = optionalBody(body, 'refund');
      checkAmount(amount);
      checkClientName(client_name);
      const url = urlOf(purchasePath(id, 'refund/'));
      const answer = await send('POST', url, given({ amount, client_name }), callOptions);
      return expect<Payment>(answer, 'Payment', isPayment);
    },
    async markAsPaid(id, body, callOptions) {
      const { paid_on } = optionalBody(body, 'mark_as_paid');
      if (paid_on !== undefined && !Number.isFinite(paid_on)) {
        throw new V1ApiError(
          'invalid_request',
          `paid_on must be a Unix timestamp in seconds (a finite number), not ${shown(paid_on)}; ` +
            'leave it out for now',
        );
      }
      return purchaseOperation(id, 'mark_as_paid/', given({ paid_on }), callOptions);
    },
    resendInvoice(id, callOptions) {
      return purchaseOperation(id, 'resend_invoice/', undefined, callOptions);
    },
    async failureCause(id, callOptions) {
      return readFailureCause(await getPurchase(id, callOptions));
    },
  };
}
