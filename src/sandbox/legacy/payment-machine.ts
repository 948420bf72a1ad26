/**
 * The payment state machine of a legacy widget order: card attempts with the test cards (approved, declined,
 * a processing error, the 3-D Secure test challenge), cancellation, and refunds through merchant API v2. A
 * FAILED attempt leaves the order payable: another card may pay it, and its own notification follows. Each
 * ended attempt (PAID, FAILED) and each cancellation is written with its purchase notification in one store
 * transaction; the queue signs the notification as it goes out.
 */
import { randomUUID } from 'node:crypto';
import {
  cardSchemeOf,
  checkCardConstraints,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../../core/card.js';
import { cardNumberMessage, constraintMessage, cvcMessage, expiryMessage } from '../../core/card-messages.js';
import { formatMinorUnits, type MinorUnits } from '../../core/money.js';
import type { OrderState, PaymentResult } from '../../core/widget-api.js';
import { PROMPT, type TestAcquirer } from '../acquirer.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { HttpError } from '../http.js';
import type { Store } from '../store.js';
import { findTestCard, findTestCardByDigits } from '../test-cards.js';
import type { MerchantDirectory } from './merchant-directory.js';
import { type OrderBook, orderAlreadyPaid } from './order-book.js';
import {
  FINAL,
  type OrderRecord,
  type PaymentAttempt,
  type PaymentIntake,
  type Refund,
} from './order-records.js';
import type { OrderViews } from './order-views.js';
import { shippingChoice } from './shipping-options.js';
import { writeJson } from './wire-json.js';

export interface PaymentMachineDeps {
  directory: MerchantDirectory;
  book: OrderBook;
  views: OrderViews;
  store: Store;
  queue: DeliveryQueue;
  acquirer: TestAcquirer;
  /** Now on the merchant's clock. */
  now: (merchantId: string) => Date;
}

export class PaymentMachine {
  constructor(private readonly deps: PaymentMachineDeps) {
    this.adoptEarlierPayments();
  }

  /**
   * Orders paid on a data dir of an earlier version have no authorisation at the acquirer: each is taken on
   * as what it was, paid and partly refunded, so that refunds keep working and keep within it.
   */
  private adoptEarlierPayments(): void {
    const { book, acquirer, directory, store } = this.deps;
    const earlier = [...book.records.values()].filter(
      (record) =>
        (record.state === 'PAID' || record.state === 'PARTIALLY_REFUNDED' || record.state === 'REFUNDED') &&
        record.payment !== undefined &&
        record.payment !== null &&
        acquirer.get(record.payment.reference) === undefined,
    );
    if (earlier.length === 0) return;
    store.transaction(() => {
      for (const record of earlier) {
        const { total, currency } = book.price(record, directory.merchant(record.merchantId));
        const attempt = record.attempts.find((candidate) => candidate.id === record.payment!.reference);
        const card = findTestCardByDigits(attempt?.cardBin ?? '', attempt?.cardLast4 ?? '');
        acquirer.adopt(
          record.payment!.reference,
          {
            instrument: {
              kind: 'card',
              card: {
                scheme: card?.scheme ?? 'VISA',
                brand: card?.brand ?? 'VISA',
                issuer: card?.issuer ?? 'SANDBOX BANK',
                bin: attempt?.cardBin ?? '',
                last4: attempt?.cardLast4 ?? '',
              },
            },
            currency,
            amount: total,
            captured: total,
            refunded: record.refunds.reduce((sum, refund) => sum + refund.amount, 0),
            recurring: false,
          },
          this.deps.now(record.merchantId).getTime(),
        );
      }
    });
  }

  /**
   * One card payment attempt, on a new order or on one whose earlier attempts failed. A repeated
   * idempotency key answers how its attempt ended, and a request for an order already final (or in a
   * 3-D Secure step) answers with the order's state; neither charges anything.
   */
  pay(id: string, request: PaymentIntake): PaymentResult {
    // The acquirer's authorisation and the order's new state are kept together or not at all.
    return this.deps.store.transaction(() => this.attempt(id, request));
  }

  private attempt(id: string, request: PaymentIntake): PaymentResult {
    const record = this.deps.book.get(id);
    // Own members only: a key such as `__proto__` or `toString` would otherwise find Object.prototype's.
    const earlier = Object.hasOwn(record.idempotency, request.idempotencyKey)
      ? record.idempotency[request.idempotencyKey]
      : undefined;
    if (earlier !== undefined) return this.repeatedResult(record, earlier);
    if (FINAL.has(record.state) || record.state === 'CHALLENGE') return this.result(record);

    const { widget } = this.deps.directory.widget(record.widgetId);
    if (this.deps.book.paidTwin(widget, record))
      throw orderAlreadyPaid(record.input.orderId!, 'through another payment form opened for it');
    const order = this.deps.book.order(record);
    // Only the widget's card schemes (by default Visa and Mastercard), whatever the frame let through.
    const number = validateCardNumber(request.card.number, { acceptedSchemes: widget.cardSchemes });
    if (!number.valid) {
      const message =
        number.code === 'scheme_not_accepted'
          ? `This widget takes only ${widget.cardSchemes.join(', ')} cards (its cardSchemes in the sandbox config); this card's scheme is ${cardSchemeOf(request.card.number)}`
          : cardNumberMessage(number.code, request.card.number);
      throw new HttpError(400, `card_${number.code}`, message, 'card.number');
    }
    const expiry = validateExpiry(request.card.expiry, this.deps.now(record.merchantId));
    if (!expiry.valid)
      throw new HttpError(400, `expiry_${expiry.code}`, expiryMessage(expiry.code), 'card.expiry');
    const cvc = validateCvc(request.card.cvc, number.scheme);
    if (!cvc.valid)
      throw new HttpError(400, `cvc_${cvc.code}`, cvcMessage(cvc.code, number.scheme), 'card.cvc');
    const card = findTestCard(number.number);
    if (!card) {
      throw new HttpError(
        400,
        'unknown_test_card',
        'The sandbox takes test cards only, such as 4111 1111 1111 1111 (see the README)',
        'card.number',
      );
    }
    const constraint = checkCardConstraints(
      { scheme: card.scheme, brand: card.brand, issuer: card.issuer },
      order.constraints,
    );
    if (!constraint.ok)
      throw new HttpError(400, 'card_not_accepted', constraintMessage(constraint), 'card.number');

    const customer = { ...record.customer, ...definedOnly(request.customer ?? {}) };
    const shipping = shippingChoice(record, order, widget, request.shipping);
    if (widget.collectCustomerData) {
      for (const field of ['firstName', 'lastName', 'email'] as const) {
        if (!customer[field])
          throw new HttpError(400, 'customer_required', `customer.${field} is required`, `customer.${field}`);
      }
    }
    if (order.shippingOptions.length > 0 && !shipping) {
      throw new HttpError(400, 'shipping_required', 'Choose a shipping option', 'shipping.optionId');
    }

    const { total, currency } = this.deps.book.price(
      { ...record, shipping },
      this.deps.directory.merchant(record.merchantId),
    );
    const paidAt = this.deps.now(record.merchantId);
    const authorised = this.deps.acquirer.authoriseCard(
      number.number,
      { amount: total, currency, capture: true, recurring: false },
      paidAt.getTime(),
    );
    const attempt: PaymentAttempt = {
      // The acquirer's authorisation, which refunds draw on; a processing error authorised nothing.
      id: authorised.kind === 'processing_error' ? randomUUID() : authorised.authorisation.id,
      at: paidAt.toISOString(),
      cardLast4: number.number.slice(-4),
      cardBin: number.number.slice(0, 6),
      scheme: card.scheme,
      result: authorised.kind,
      ...((authorised.kind === 'declined' || authorised.kind === 'processing_error') && {
        error: { code: authorised.code, message: authorised.message },
      }),
    };
    const updated: OrderRecord = {
      ...record,
      customer,
      shipping,
      attempts: [...record.attempts, attempt],
      idempotency: { ...record.idempotency, [request.idempotencyKey]: attempt.id },
    };
    // The real service's method of a card payment, whatever the scheme (the attempt keeps the scheme).
    const payment = { method: 'CARD', reference: attempt.id, cardBin: attempt.cardBin! };
    switch (authorised.kind) {
      case 'approved':
        return this.finish(updated, 'PAID', payment);
      case 'declined':
        return this.finish(updated, 'FAILED', { ...payment, error: attempt.error! });
      case 'challenge': {
        const challengeId = randomUUID();
        this.deps.book.records.put(id, { ...updated, state: 'CHALLENGE', challengeId, payment });
        return this.result(this.deps.book.get(id));
      }
      case 'processing_error': {
        // Nothing ended: the state stays (CREATED, or FAILED after an earlier decline) and nobody is notified.
        const error = attempt.error!;
        this.deps.book.records.put(id, { ...updated, payment: { ...payment, error } });
        return { state: 'RETRY', order: this.deps.views.view(this.deps.book.get(id)), error };
      }
    }
  }

  /** The customer's answer to the 3-D Secure test challenge. */
  completeChallenge(id: string, challengeId: string, approve: boolean): PaymentResult {
    return this.deps.store.transaction(() => this.answerChallenge(id, challengeId, approve));
  }

  private answerChallenge(id: string, challengeId: string, approve: boolean): PaymentResult {
    const record = this.deps.book.get(id);
    if (record.state !== 'CHALLENGE' || record.challengeId !== challengeId) return this.result(record);
    const payment = record.payment!;
    // The same order paid meanwhile in another form: the approval comes too late to charge.
    const twin =
      approve && this.deps.book.paidTwin(this.deps.directory.widget(record.widgetId).widget, record);
    this.deps.acquirer.completeChallenge(payment.reference, approve && !twin);
    if (approve && !twin) {
      const { error: _none, ...approved } = payment;
      return this.finish(record, 'PAID', approved);
    }
    const error = twin
      ? errorBody(orderAlreadyPaid(record.input.orderId!, 'through another payment form opened for it'))
      : { code: 'authentication_failed', message: 'The cardholder did not confirm the payment' };
    // The attempt keeps how it ended, for a repeat of its idempotency key.
    const attempts = record.attempts.map((attempt) =>
      attempt.id === payment.reference ? { ...attempt, error } : attempt,
    );
    return this.finish({ ...record, attempts }, 'FAILED', { ...payment, error });
  }

  cancel(id: string): PaymentResult {
    const record = this.deps.book.get(id);
    if (FINAL.has(record.state)) return this.result(record);
    // The last card tried, if any, without its error: the cancellation is not that attempt's failure.
    const { error: _earlier, ...last } = record.payment ?? { method: 'CARD', reference: '' };
    return this.finish(record, 'CANCELLED', last);
  }

  /**
   * A refund through merchant API v2: never more than was paid, and the order's state follows. `amountField`
   * names the amount as the request wrote it (`refundRequest.amount`, or `amount` unwrapped).
   */
  refund(
    record: OrderRecord,
    request: { amount: MinorUnits; reason: string; note: string },
    amountField = 'refundRequest.amount',
  ): { refund: Refund; record: OrderRecord; refunded: MinorUnits; effective: MinorUnits } {
    if (record.state !== 'PAID' && record.state !== 'PARTIALLY_REFUNDED') {
      throw new HttpError(
        409,
        'not_refundable',
        `Only paid orders can be refunded; this one is ${record.state}`,
      );
    }
    const { total } = this.deps.book.price(record, this.deps.directory.merchant(record.merchantId));
    const refundable = total - record.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    if (request.amount <= 0)
      throw new HttpError(400, 'invalid_amount', `${amountField} must be greater than 0`, amountField);
    if (request.amount > refundable) {
      throw new HttpError(
        409,
        'refund_exceeds_payment',
        `${amountField} ${formatMinorUnits(request.amount)} is more than the ${formatMinorUnits(refundable)} still refundable`,
        amountField,
      );
    }
    const refundedAt = this.deps.now(record.merchantId);
    const refund: Refund = { id: randomUUID(), ...request, at: refundedAt.toISOString() };
    const state: OrderState = request.amount === refundable ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const updated = { ...record, state, refunds: [...record.refunds, refund] };
    this.deps.store.transaction(() => {
      // The acquirer's ledger agrees with the order's, or the refund is not made.
      const answer = this.deps.acquirer.refund(
        record.payment!.reference,
        request.amount,
        PROMPT,
        refundedAt.getTime(),
      );
      if (answer.kind === 'failed') throw new HttpError(409, 'refund_exceeds_payment', answer.message);
      this.deps.book.records.put(record.id, updated);
    });
    // What the real service answers: refunded so far, and what the order is still worth.
    const refunded = total - refundable + request.amount;
    return { refund, record: updated, refunded, effective: total - refunded };
  }

  /**
   * What a repeated idempotency key answers: how its own attempt ended (a decline stays a decline even
   * after another card paid), with the order as it is now. An attempt without an error (approved, or
   * still in its 3-D Secure step) answers the order's state.
   */
  private repeatedResult(record: OrderRecord, attemptId: string): PaymentResult {
    const attempt = record.attempts.find((candidate) => candidate.id === attemptId);
    if (!attempt?.error) return this.result(record);
    const order = this.deps.views.view(record);
    return attempt.result === 'processing_error'
      ? { state: 'RETRY', order, error: attempt.error }
      : { state: 'FAILED', order, error: attempt.error };
  }

  private result(record: OrderRecord): PaymentResult {
    const order = this.deps.views.view(record);
    if (record.state === 'PAID' || record.state === 'REFUNDED' || record.state === 'PARTIALLY_REFUNDED')
      return { state: 'PAID', order };
    if (record.state === 'CHALLENGE') return { state: 'CHALLENGE', order, challengeId: record.challengeId! };
    if (record.state === 'CANCELLED') return { state: 'CANCELLED', order };
    const error = record.payment?.error ?? {
      code: record.state.toLowerCase(),
      message: `The order is ${record.state}`,
    };
    if (record.state === 'CREATED') return { state: 'RETRY', order, error };
    return { state: 'FAILED', order, error };
  }

  /**
   * Ends an attempt (PAID, or FAILED with the order still payable) or the order (CANCELLED), and queues
   * its notification, in one transaction. The queue delivers an order's notifications in order, signed.
   */
  private finish(
    record: OrderRecord,
    state: 'PAID' | 'FAILED' | 'CANCELLED',
    payment: NonNullable<OrderRecord['payment']>,
  ): PaymentResult {
    const merchant = this.deps.directory.merchant(record.merchantId);
    const now = this.deps.now(record.merchantId).toISOString();
    const updated: OrderRecord = {
      ...record,
      state,
      payment,
      challengeId: null,
      paidAt: state === 'PAID' ? now : record.paidAt,
    };
    // Written as the real service writes it (88.00, 1.000): the signature is over these exact bytes.
    const body = writeJson(this.deps.views.notification(updated, merchant));
    this.deps.store.transaction(() => {
      this.deps.book.records.put(updated.id, updated);
      this.deps.queue.enqueue({
        key: updated.id,
        url: merchant.callbacks.notificationUrl,
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        // Signed with the service key as it goes out, on the thread pool: the same bytes every attempt.
        signatureHeader: 'x-svc-signature',
        body,
        acceptStatus: 'exactly-200',
        owner: merchant.id,
      });
    });
    return this.result(updated);
  }
}

function errorBody(error: HttpError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}
