/**
 * The payment flow of the frame: one order at the gateway, from the form to how the payment ended. It pays
 * with what the form holds (one attempt at a time, under the attempt's idempotency key), walks through
 * 3-D Secure, cancels, and after a lost answer asks the gateway what became of the order before it sends
 * anything again. It keeps the phase the frame shows and the order as the gateway last described it; the
 * frame renders them and owns the form, the texts and the channel to the element (`PaymentFlowHost`).
 */
import {
  type FrameMessageKey,
  failureReasonKey,
  type MinorUnits,
  parseMinorUnits,
  parseTaxRate,
} from '../core/index.js';
import type {
  ApiError,
  CustomerInput,
  OrderView,
  PaidReceipt,
  PaymentResult,
  ShippingInput,
} from '../core/widget-api.js';
import { createAttemptKeys, sessionStorageOrUndefined } from './attempt-keys.js';
import type { CardValues } from './card-checks.js';
import type { QuoteShipping } from './delivery-fields.js';
import { type ApiResult, outcomeUnknown, type WidgetApiClient } from './widget-api-client.js';

/** A message shown above the form's buttons. */
export type Notice =
  /** The gateway refused the payment, or could not process it this time; the customer may pay again. */
  | { kind: 'text'; key: FrameMessageKey }
  /** No answer came: whether it went through is not known until the gateway is asked. */
  | { kind: 'network'; action: 'pay' | 'cancel' };

/** What the frame shows; each maps to one `WidgetState` that the element is told (`rejected` as `failed`). */
export type Phase =
  | { kind: 'loading' }
  | { kind: 'form'; notice?: Notice }
  | { kind: 'processing'; checking?: boolean }
  /** `amount`: what the customer confirms, the order's total formatted with its currency. */
  | { kind: 'challenge'; challengeId: string; busy: boolean; networkError: boolean; amount: string }
  | { kind: 'paid'; amount: string }
  /** A receipt of an order id paid before, in another load of the page: nothing of the order but its id. */
  | { kind: 'paid'; orderId: string }
  | { kind: 'failed'; reason: FrameMessageKey }
  | { kind: 'cancelled' }
  /**
   * The merchant's order verification rejected the order, which the gateway therefore never took: why, as
   * a `rejected.*` text, and whether the page gave a back-to-merchant URL. Told to the element as `failed`.
   */
  | { kind: 'rejected'; reason: FrameMessageKey; back: boolean }
  | { kind: 'error' };

/** What the form gives for one payment request. */
export interface Collected {
  card: CardValues;
  customer?: CustomerInput;
  shipping?: ShippingInput;
}

/** A card field the gateway can refuse. */
export type CardField = 'number' | 'expiry' | 'cvc';

/** How `showOrder` reads an order: a payment answer's own failure and challenge, and whether its end is news. */
export interface ShownOrder {
  failure?: { code: string } | null | undefined;
  challengeId?: string | null | undefined;
  news?: boolean;
}

/** What the flow asks of the frame: its gateway, its form, its texts and its channel. */
export interface PaymentFlowHost {
  /** The widget API of the frame's gateway. */
  api(): WidgetApiClient;
  /** Renders the flow's phase and order again. */
  requestUpdate(): void;
  /** The phase changed (it is stored already): tells the element its state, says it, moves the focus. */
  phaseSet(phase: Phase): void;
  /** The payment ended in this load of the frame: the element's `paymentCompleted`. */
  ended(order: OrderView, succeeded: boolean): void;
  /** An amount in the order's currency, as the frame's language writes it. */
  money(minor: MinorUnits): string;
  /** Checks every part of the form and shows what is wrong; what to send when all is in order. */
  collect(): Promise<Collected | undefined>;
  /** Moves the focus to the first field with an error and reads out what is wrong. */
  showInvalid(): Promise<void>;
  /** Shows the gateway's refusal of a card field; false when there are no card fields to show it on. */
  showCardRefusal(field: CardField, error: ApiError, number: string): boolean;
  /** Empties the card fields for another card, and puts the focus on the card number once the form shows. */
  clearCard(): void;
}

const PAID_STATES: ReadonlySet<OrderView['state']> = new Set(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);

const ERROR_NOTICE: Notice = { kind: 'text', key: 'pay.error' };

/** The payment of the frame's order. */
export class PaymentFlow {
  readonly #host: PaymentFlowHost;
  readonly #attempts = createAttemptKeys(sessionStorageOrUndefined());
  #phase: Phase = { kind: 'loading' };
  #order?: OrderView;
  /** A submit is being checked (a shipping quote may be awaited) or sent. */
  #submitting = false;

  constructor(host: PaymentFlowHost) {
    this.#host = host;
  }

  /** What the frame shows. */
  get phase(): Phase {
    return this.#phase;
  }

  /** The order as the gateway last described it; none before intake. */
  get order(): OrderView | undefined {
    return this.#order;
  }

  /** A payment is checked or sent, or one is in doubt: the form then takes no changes. */
  get busy(): boolean {
    return this.working || this.inDoubt;
  }

  /** A submit is being checked or sent. */
  get working(): boolean {
    return this.#submitting || this.#phase.kind === 'processing';
  }

  /**
   * No answer came to what was sent: its retry sends the same idempotency key, so it must send the same
   * data, and the fields keep what they hold until then.
   */
  get inDoubt(): boolean {
    return this.#phase.kind === 'form' && this.#phase.notice?.kind === 'network';
  }

  /** Shows the phase; the host tells the element and the customer. */
  setPhase(phase: Phase): void {
    this.#phase = phase;
    this.#host.requestUpdate();
    this.#host.phaseSet(phase);
  }

  #setOrder(order: OrderView): void {
    this.#order = order;
    this.#host.requestUpdate();
  }

  #setSubmitting(submitting: boolean): void {
    this.#submitting = submitting;
    this.#host.requestUpdate();
  }

  /**
   * The order's state as the screen to show: the form while it can be paid, else how it ended. A payment
   * answer gives its own failure and challenge; a reloaded frame finds them in the order. `news` is false
   * for the order as intake found it, whose end (if it had ended) happened before this load of the frame.
   * A FAILED order can still be paid: as news it shows the failed screen (which offers another card), else
   * the form, since the customer was told of that failure in the load where it happened.
   */
  showOrder(
    order: OrderView,
    { failure = order.lastError, challengeId = order.challengeId, news = true }: ShownOrder = {},
  ): void {
    this.#setOrder(order);
    const { state } = order;
    const amount = this.#host.money(parseMinorUnits(order.total));
    if (state === 'CHALLENGE' && challengeId) {
      this.setPhase({ kind: 'challenge', challengeId, busy: false, networkError: false, amount });
    } else if (state === 'CANCELLED') {
      this.setPhase({ kind: 'cancelled' });
    } else if (PAID_STATES.has(state) || (state === 'FAILED' && news)) {
      const paid = state !== 'FAILED';
      this.#attempts.settle(order.id);
      // `paymentCompleted` first, then the status screen, as the documented event promises; once for each
      // attempt, in the load of the frame in which it ended.
      if (news) this.#host.ended(order, paid);
      this.setPhase(
        paid ? { kind: 'paid', amount } : { kind: 'failed', reason: failureReasonKey(failure?.code) },
      );
    } else this.setPhase({ kind: 'form' });
  }

  /**
   * The gateway's receipt for a page whose order id was paid before (an unsigned page reloaded after paying):
   * the paid screen, without `paymentCompleted` (the payment ended in another load) and with no order to pay.
   */
  showReceipt(receipt: PaidReceipt): void {
    this.setPhase({ kind: 'paid', orderId: receipt.orderId });
  }

  #showResult(result: PaymentResult): void {
    if (result.state === 'RETRY') {
      this.#setOrder(result.order);
      this.setPhase({ kind: 'form', notice: { kind: 'text', key: failureReasonKey(result.error.code) } });
    } else {
      this.showOrder(result.order, {
        failure: result.state === 'FAILED' ? result.error : undefined,
        challengeId: result.state === 'CHALLENGE' ? result.challengeId : undefined,
      });
    }
  }

  /** The form's submit: pays with what the form holds. */
  readonly submit = (): void => {
    if (this.#phase.kind !== 'form' || this.inDoubt) return;
    // A notice tells of the last attempt: once the customer submits again it is stale, and would stand
    // beside this submit's field errors (or over the wait for a shipping quote) as if it were about them.
    if (this.#phase.notice) this.setPhase({ kind: 'form' });
    void this.#attempt(() => this.#submit());
  };

  /** The failed screen's "Try another card": the form again, for a new attempt on the same order. */
  readonly tryAnotherCard = (): void => {
    if (this.#phase.kind !== 'failed') return;
    this.#host.clearCard();
    this.setPhase({ kind: 'form' });
  };

  /**
   * Runs one attempt at paying (a submit, or the retry after a lost answer): while it runs, a second click,
   * Enter or retry does nothing, and the form takes no changes.
   */
  async #attempt(run: () => Promise<boolean>): Promise<void> {
    if (this.#submitting) return;
    this.#setSubmitting(true);
    let invalid = false;
    try {
      invalid = !(await run());
    } finally {
      this.#setSubmitting(false);
    }
    // Once the form takes input again: a shipping option disabled while busy could not take the focus.
    if (invalid) await this.#host.showInvalid();
  }

  /** Pays with what the form holds when all of it is in order; false when something in it is wrong. */
  async #submit(): Promise<boolean> {
    const collected = await this.#host.collect();
    if (!collected) return false;
    await this.#sendPayment(collected);
    return true;
  }

  /**
   * Sends one payment attempt. Its idempotency key is the unanswered attempt's when there is one (a lost
   * answer, a reload), so repeating never charges twice; it is dropped once the gateway has answered.
   */
  async #sendPayment(collected: Collected): Promise<void> {
    const { id } = this.#order!;
    const idempotencyKey = this.#attempts.begin(id);
    this.setPhase({ kind: 'processing' });
    const result = await this.#host.api().pay(id, { idempotencyKey, ...collected });
    if (result.kind === 'network-error' || outcomeUnknown(result)) {
      this.setPhase({ kind: 'form', notice: { kind: 'network', action: 'pay' } });
      return;
    }
    this.#attempts.settle(id);
    if (result.kind === 'ok') this.#showResult(result.value);
    else await this.#showRefusal(result.status, result.error, collected.card.number);
  }

  /**
   * The gateway turned the payment request down: an error on the card field it names, or a notice.
   * `number` is the card number that was sent.
   */
  async #showRefusal(status: number, error: ApiError, number: string): Promise<void> {
    if (status === 409 && error.code === 'order_final') return this.#refreshOrder();
    // The order id was paid through another form opened for it (another tab): this one charges nothing.
    if (status === 409 && error.code === 'order_already_paid') {
      this.setPhase({ kind: 'form', notice: { kind: 'text', key: 'status.orderClosed' } });
      return;
    }
    const field = /^card\.(number|expiry|cvc)$/.exec(error.field ?? '')?.[1] as CardField | undefined;
    if (field && this.#host.showCardRefusal(field, error, number)) {
      this.setPhase({ kind: 'form' });
      await this.#host.showInvalid();
    } else {
      const key =
        error.code === 'shipping_required'
          ? 'delivery.chooseOption'
          : error.field?.startsWith('shipping.')
            ? 'delivery.quoteFailed'
            : 'pay.error';
      this.setPhase({ kind: 'form', notice: { kind: 'text', key } });
    }
  }

  /** Asks the gateway for the order's state and shows it; `lost` runs when no answer came. */
  async #refreshOrder(lost?: () => void): Promise<void> {
    const current = await this.#host.api().order(this.#order!.id);
    if (lost && outcomeUnknown(current)) lost();
    else if (current.kind === 'ok') this.showOrder(current.value);
    else this.setPhase({ kind: 'form', notice: ERROR_NOTICE });
  }

  /** Shows the answer to a cancellation or a challenge; `lost` runs when none came. */
  async #showAnswer(result: ApiResult<PaymentResult>, lost: () => void): Promise<void> {
    if (outcomeUnknown(result)) lost();
    else if (result.kind === 'ok') this.#showResult(result.value);
    else await this.#refreshOrder();
  }

  /**
   * After a lost answer: asks the gateway what became of the order first. An order that ended shows how;
   * one still open gets the same request again, with the same idempotency key. A FAILED order is still
   * open: its failure may be the lost attempt's or an earlier one's, and the same key tells which (the
   * gateway answers an attempt it already made with how it ended, and charges nothing again).
   */
  readonly retryUnknown = (): void => {
    const phase = this.#phase;
    if (phase.kind !== 'form' || phase.notice?.kind !== 'network') return;
    const { notice } = phase;
    void this.#attempt(async () => {
      this.setPhase({ kind: 'processing', checking: true });
      const current = await this.#host.api().order(this.#order!.id);
      if (outcomeUnknown(current)) {
        this.setPhase({ kind: 'form', notice });
        return true;
      }
      if (current.kind !== 'ok') {
        this.setPhase({ kind: 'form', notice: ERROR_NOTICE });
        return true;
      }
      const view = current.value;
      const open = view.state === 'CREATED' || view.state === 'FAILED';
      if (!open && (view.state !== 'CHALLENGE' || view.challengeId)) {
        this.#attempts.settle(view.id);
        this.showOrder(view);
        return true;
      }
      this.#setOrder(view);
      if (notice.action === 'cancel') {
        await this.#cancelOrder();
        return true;
      }
      // The fields hold what was sent (they took no changes since); they are read again, as sent then.
      this.setPhase({ kind: 'form' });
      return this.#submit();
    });
  };

  /** The form's cancel button. */
  readonly cancel = (): void => {
    if (this.busy || this.#phase.kind !== 'form') return;
    void this.#cancelOrder();
  };

  async #cancelOrder(): Promise<void> {
    this.setPhase({ kind: 'processing' });
    await this.#showAnswer(await this.#host.api().cancel(this.#order!.id), () =>
      this.setPhase({ kind: 'form', notice: { kind: 'network', action: 'cancel' } }),
    );
  }

  /** The customer's answer on the 3-D Secure step. */
  async answerChallenge(approve: boolean): Promise<void> {
    const phase = this.#phase;
    if (phase.kind !== 'challenge' || phase.busy || phase.networkError) return;
    this.setPhase({ ...phase, busy: true });
    await this.#showAnswer(
      await this.#host.api().answerChallenge(this.#order!.id, phase.challengeId, approve),
      () => this.setPhase({ ...phase, networkError: true }),
    );
  }

  /** After a lost challenge answer: the order's state tells whether the answer arrived. */
  async retryChallenge(): Promise<void> {
    const phase = this.#phase;
    if (phase.kind !== 'challenge' || !phase.networkError) return;
    this.setPhase({ ...phase, busy: true, networkError: false });
    await this.#refreshOrder(() => this.setPhase(phase));
  }

  /** Prices a shipping option for an address or a pickup point, through the gateway (which asks the merchant). */
  readonly quoteShipping: QuoteShipping = async (request) => {
    const order = this.#order!;
    const result = await this.#host.api().quoteShipping(order.id, request);
    if (result.kind !== 'ok' || result.value.currency !== order.currency) return { kind: 'failed' };
    try {
      // The rate is read here so that one the summary could not compute with counts as no price.
      const { taxRate } = result.value;
      parseTaxRate(taxRate);
      return { kind: 'priced', amount: parseMinorUnits(result.value.amount), taxRate };
    } catch {
      return { kind: 'failed' };
    }
  };
}
