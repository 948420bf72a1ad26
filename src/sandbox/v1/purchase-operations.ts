/**
 * What a merchant does to a Purchase after checkout, through the v1 API: capture or release a hold (and the
 * 6-day release of one nobody captured), charge a recurring token, delete it, refund, mark as paid (resending
 * the invoice is billing's, which keeps the outbox). Each goes through the test acquirer and follows the
 * document's "States and transitions":
 *
 * - answered at once, the Purchase takes its new status and its event is reported;
 * - with the slow acquirer, the call answers 200 with the `pending_*` status and its event, and the operation
 *   settles on the sandbox clock, with the completing event then;
 * - refused in processing, the call answers 400 with the document's `purchase_*_error` and the cause is the
 *   newest of `transaction_data.attempts` (rule 4).
 *
 * Each change, its events, its success callback and the acquirer's ledger are kept in one store transaction.
 * Timed work (a hold's release, a slow operation's answer) is set on the clock from the stored Purchases at
 * every start, so a restart loses none of it.
 */
import { randomUUID } from 'node:crypto';
import type { Purchase } from '../../core/v1-types.js';
import { type AcquirerBehaviour, type OperationAnswer, PROMPT, type TestAcquirer } from '../acquirer.js';
import type { SandboxClock, SandboxClocks } from '../clock.js';
import type { Store } from '../store.js';
import { V1HttpError } from './errors.js';
import { findPaymentMethod } from './method-catalogue.js';
import { preauthorizes } from './purchase-request.js';
import { upgradeEarlierPurchases } from './purchase-upgrades.js';
import type { StoredRefund } from './purchase-view.js';
import {
  HOLD_MS,
  lastMethod,
  PAYABLE,
  type PendingPurchaseOperation,
  type PurchaseEventName,
  type PurchaseRecord,
  type StoredAttempt,
  type StoredAttemptError,
  type V1Purchases,
  withNewestAttempts,
} from './purchases.js';
import { RefundPayments } from './refund-payments.js';
import type { SuccessCallbacks } from './success-callbacks.js';

/** Reports a refund's Payment event (`payment.refunded`) inside the store transaction of the change. */
export interface PaymentEvents {
  emit(merchantId: string, refund: StoredRefund): void;
}

export interface PurchaseOperationsDeps {
  purchases: V1Purchases;
  acquirer: TestAcquirer;
  /** Each Purchase's time rules run on its merchant's clock. */
  clocks: SandboxClocks;
  store: Store;
  callbacks: SuccessCallbacks;
  paymentEvents: PaymentEvents;
}

/** The operation errors of the document, by operation. */
const ERROR_CODES = {
  capture: 'purchase_capture_error',
  release: 'purchase_release_error',
  charge: 'purchase_charge_error',
  refund: 'purchase_refund_error',
} as const;

type MoneyOperation = keyof typeof ERROR_CODES;

/**
 * A refusal whose record of the cause (the failed attempt) is kept: thrown inside {@link PurchaseOperations}'s
 * transaction, which then commits, and answered after it.
 */
class Refused extends Error {
  constructor(readonly answer: V1HttpError) {
    super(answer.message);
  }
}

export class PurchaseOperations {
  private readonly payments: RefundPayments;

  constructor(private readonly deps: PurchaseOperationsDeps) {
    this.payments = new RefundPayments(deps.store);
  }

  /**
   * Sets the clock's tasks of every stored purchase again: holds to release, slow operations to settle,
   * after bringing purchases stored by an earlier version to this one's shape (`purchase-upgrades.ts`).
   */
  resume(): void {
    upgradeEarlierPurchases(this.deps);
    for (const record of this.deps.purchases.all()) this.schedule(record);
  }

  /** A new hold: released after `HOLD_DAYS` days unless captured. Call it before saving the record. */
  held(record: PurchaseRecord): PurchaseRecord {
    const releaseAt = this.clockOf(record).nowMs() + HOLD_MS;
    this.deps.store.afterCommit(() => this.schedule(this.deps.purchases.find(record.purchase.id)!));
    return { ...record, releaseAt };
  }

  /**
   * `POST /purchases/{id}/capture/`: takes `amount` (all that is held when left out) and releases the rest.
   * @throws V1HttpError 400 `purchase_capture_error` when the purchase holds nothing or less than `amount`,
   *   or the acquirer fails; 404.
   */
  capture(
    merchantId: string,
    id: string,
    amount: number | undefined,
    how: AcquirerBehaviour,
  ): PurchaseRecord {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      this.refuseInFlight(record, 'capture');
      const authorisation = this.heldAuthorisation(record, 'capture');
      const held = this.deps.acquirer.held(authorisation);
      return this.apply(
        record,
        'capture',
        this.deps.acquirer.capture(authorisation.id, amount ?? held, how, this.clockOf(record).nowMs()),
      );
    });
  }

  /**
   * `POST /purchases/{id}/release/`: gives back everything held.
   * @throws V1HttpError 400 `purchase_release_error` when nothing is held or the acquirer fails; 404.
   */
  release(merchantId: string, id: string, how: AcquirerBehaviour): PurchaseRecord {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      this.refuseInFlight(record, 'release');
      const authorisation = this.heldAuthorisation(record, 'release');
      return this.apply(
        record,
        'release',
        this.deps.acquirer.release(authorisation.id, how, this.clockOf(record).nowMs()),
      );
    });
  }

  /**
   * `POST /purchases/{id}/charge/`: pays the purchase with the card of the recurring token purchase
   * `tokenId`, without the customer: `paid`, or `hold` when it has `skip_capture`.
   * @throws V1HttpError 400 `purchase_charge_error` when the purchase cannot be paid, the token is no token
   *   of the merchant, or the card declines (then `purchase.payment_failure` is reported too); 404.
   */
  charge(merchantId: string, id: string, tokenId: string, how: AcquirerBehaviour): PurchaseRecord {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      this.refuseInFlight(record, 'charge');
      if (!PAYABLE.has(record.purchase.status)) {
        this.refuse(
          record,
          'charge',
          'not_payable',
          `The purchase is ${record.purchase.status}; it cannot be charged`,
        );
      }
      const token = this.deps.purchases.find(tokenId);
      if (
        !token ||
        token.merchantId !== merchantId ||
        !token.purchase.is_recurring_token ||
        !token.authorisationId
      ) {
        this.refuse(
          record,
          'charge',
          'invalid_recurring_token',
          `recurring_token ${tokenId} is not a purchase of this account with is_recurring_token true`,
        );
      }
      if (token.tokenDeletionSettlesAt) {
        this.refuse(
          record,
          'charge',
          'invalid_recurring_token',
          `recurring_token ${tokenId} is being deleted; it charges no more`,
        );
      }
      const answer = this.deps.acquirer.charge(
        token.authorisationId,
        {
          amount: record.purchase.purchase.total ?? 0,
          currency: record.purchase.purchase.currency,
          capture: !record.purchase.skip_capture,
        },
        how,
        this.clockOf(record).nowMs(),
      );
      const method = lastMethod(token);
      if (answer.kind === 'failed') {
        this.chargeFailed(record, method, answer);
        throw new Refused(V1HttpError.nonField(400, 'purchase_charge_error', answer.message));
      }
      const charged = { ...record, authorisationId: answer.authorisation.id };
      if (answer.kind === 'pending') return this.begin(charged, 'charge', answer.pending.settlesAt);
      return this.chargeSettled(charged, method);
    });
  }

  /**
   * `POST /purchases/{id}/delete_recurring_token/`: the token can no longer be charged (at once, even while
   * a slow acquirer confirms it) and `is_recurring_token` becomes false. A purchase that is no token (any
   * more), or whose deletion is under way, is answered as it is. A money operation in flight is left to
   * complete: the deletion moves no money, so both run.
   */
  deleteRecurringToken(merchantId: string, id: string, how: AcquirerBehaviour): PurchaseRecord {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      if (!record.purchase.is_recurring_token || record.tokenDeletionSettlesAt) return record;
      if (record.authorisationId) this.deps.acquirer.forgetToken(record.authorisationId);
      if (how.mode !== 'slow') return this.tokenDeleted(record);
      const saved = this.deps.purchases.save({
        ...record,
        tokenDeletionSettlesAt: this.clockOf(record).nowMs() + how.slowMs,
        purchase: { ...record.purchase, updated_on: this.nowSeconds(record) },
      });
      this.deps.purchases.emit('purchase.pending_recurring_token_delete', saved);
      this.deps.store.afterCommit(() => this.schedule(saved));
      return saved;
    });
  }

  /**
   * `POST /purchases/{id}/refund/`: gives back `amount` (all that is refundable when left out) and answers
   * the refund's Payment, delivered with `payment.refunded` once the acquirer has made it.
   * @throws V1HttpError 400 `purchase_refund_error` when nothing (or less than `amount`) is refundable or
   *   the acquirer fails; 404.
   */
  refund(
    merchantId: string,
    id: string,
    request: { amount?: number; clientName?: string },
    how: AcquirerBehaviour,
  ): StoredRefund {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      this.refuseInFlight(record, 'refund');
      const { purchase } = record;
      if (purchase.status !== 'paid' || !record.authorisationId) {
        const why = `the purchase is ${purchase.status}${purchase.marked_as_paid ? ' (marked as paid: no money went through the gateway)' : ''}`;
        this.refuse(record, 'refund', 'not_refundable', `Nothing can be refunded now: ${why}`);
      }
      const amount = request.amount ?? purchase.refundable_amount;
      if (amount === 0) this.refuse(record, 'refund', 'not_refundable', 'Nothing is left to refund');
      const answer = this.deps.acquirer.refund(
        record.authorisationId,
        amount,
        how,
        this.clockOf(record).nowMs(),
      );
      if (answer.kind === 'failed') this.refuse(record, 'refund', answer.code, answer.message);
      const now = this.nowSeconds(record);
      const payment: StoredRefund = {
        id: randomUUID(),
        type: 'payment',
        payment_type: 'refund',
        is_outgoing: true,
        amount,
        currency: purchase.purchase.currency,
        client_name: request.clientName ?? purchase.client.full_name ?? '',
        related_to: { type: 'purchase', id: purchase.id },
        status: 'pending',
        paid_on: null,
        created_on: now,
        updated_on: now,
      };
      this.payments.add(merchantId, payment);
      const refunding: PurchaseRecord = {
        ...record,
        purchase: { ...purchase, refundable_amount: purchase.refundable_amount - amount },
      };
      if (answer.kind === 'pending') {
        this.begin(refunding, 'refund', answer.pending.settlesAt, payment.id);
        return payment;
      }
      return this.refunded(this.withAttempt(refunding, 'refund', lastMethod(record)), payment.id);
    });
  }

  /**
   * `POST /purchases/{id}/mark_as_paid/`: the merchant took the money elsewhere, so any Purchase not paid
   * through the gateway becomes `paid` with `marked_as_paid`. What the acquirer holds for it is given back
   * first, at once whatever the acquirer mode: a hold is released (a `release` attempt records it), and a
   * slow capture, release or charge still in flight is dropped, so its answer never comes and nothing is
   * taken twice; an open 3-D Secure challenge is declined. No money moves through the gateway: nothing
   * becomes refundable and no event is sent.
   * @throws V1HttpError 400 `invalid` when the purchase is paid already (or being refunded); 404.
   */
  markAsPaid(merchantId: string, id: string, paidOn: number | undefined): PurchaseRecord {
    return this.run(() => {
      const record = this.deps.purchases.get(merchantId, id);
      const { status } = record.purchase;
      if (status === 'paid' || status === 'pending_refund') {
        throw V1HttpError.nonField(
          400,
          'invalid',
          status === 'paid'
            ? 'The purchase is paid already'
            : 'The purchase is paid already; a refund of it is being processed',
        );
      }
      this.clockOf(record).cancel(`release:${id}`);
      // A 3-D Secure challenge still open can no longer be answered: it authorises nothing.
      const challenge = record.step?.authorisationId;
      if (challenge) this.deps.acquirer.completeChallenge(challenge, false);
      let settled = record;
      if (HOLDING.has(status) && record.authorisationId) {
        this.deps.acquirer.giveBack(record.authorisationId);
        if (record.pending) {
          this.clockOf(record).cancel(`settle:${id}`);
          settled = { ...settled, pending: null };
        }
        // A charge still in flight held nothing yet that the Purchase showed; a hold's release is its attempt.
        if (status !== 'pending_charge') settled = this.withAttempt(settled, 'release', lastMethod(record));
      }
      return this.deps.purchases.save({
        ...settled,
        step: null,
        releaseAt: null,
        purchase: {
          ...settled.purchase,
          status: 'paid',
          marked_as_paid: true,
          paid_on: paidOn ?? this.nowSeconds(record),
          updated_on: this.nowSeconds(record),
        },
      });
    });
  }

  /**
   * The merchant's refund Payment `id`.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  payment(merchantId: string, id: string): StoredRefund {
    return this.payments.get(merchantId, id);
  }

  /** Every refund Payment of the merchant, as stored (for the balance and statements). */
  paymentsOf(merchantId: string): IterableIterator<StoredRefund> {
    return this.payments.of(merchantId);
  }

  /**
   * Refuses a money operation while another is in flight: each changes what the next may take or give back,
   * so the second is asked again once the first has its answer.
   */
  private refuseInFlight(record: PurchaseRecord, operation: MoneyOperation): void {
    const inFlight = record.pending?.kind;
    if (!inFlight) return;
    this.refuse(
      record,
      operation,
      'operation_pending',
      `A ${inFlight} of this purchase is still being processed; ask for the ${operation} again once it has completed`,
    );
  }

  /** The authorisation a capture or release acts on, or the document's error. */
  private heldAuthorisation(record: PurchaseRecord, operation: 'capture' | 'release') {
    const authorisation = record.authorisationId ? this.deps.acquirer.get(record.authorisationId) : undefined;
    if (record.purchase.status === 'preauthorized') {
      this.refuse(
        record,
        operation,
        'not_held',
        `The purchase is preauthorized: its card was saved without a charge, so nothing is held to ${operation}; charge another Purchase with it as recurring_token instead`,
      );
    }
    if (record.purchase.status !== 'hold' || !authorisation) {
      this.refuse(
        record,
        operation,
        'not_held',
        `The purchase is ${record.purchase.status}; only a purchase on hold can be ${operation === 'capture' ? 'captured' : 'released'}`,
      );
    }
    return authorisation;
  }

  /** Applies the acquirer's answer to a capture or release. */
  private apply(
    record: PurchaseRecord,
    operation: 'capture' | 'release',
    answer: OperationAnswer,
  ): PurchaseRecord {
    if (answer.kind === 'failed') this.refuse(record, operation, answer.code, answer.message);
    this.clockOf(record).cancel(`release:${record.purchase.id}`);
    const released = { ...record, releaseAt: null };
    if (answer.kind === 'pending') return this.begin(released, operation, answer.pending.settlesAt);
    return operation === 'capture' ? this.captured(released) : this.released(released);
  }

  /**
   * Runs `work` in one store transaction. A {@link Refused} commits what was written before it (the failed
   * attempt that tells the cause) and is answered after the commit.
   */
  private run<T>(work: () => T): T {
    let refused: Refused | undefined;
    const result = this.deps.store.transaction(() => {
      try {
        return work();
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        refused = error;
        return undefined;
      }
    });
    if (refused) throw refused.answer;
    return result as T;
  }

  /** Records the failed attempt (rule 4) and answers the document's error. */
  private refuse(record: PurchaseRecord, operation: MoneyOperation, code: string, message: string): never {
    this.deps.purchases.save(
      this.withAttempt(record, operation, lastMethod(record), { code, description: message }),
    );
    throw new Refused(V1HttpError.nonField(400, ERROR_CODES[operation], message));
  }

  private begin(
    record: PurchaseRecord,
    kind: PendingPurchaseOperation['kind'],
    settlesAt: number,
    paymentId?: string,
  ): PurchaseRecord {
    const pending: PendingPurchaseOperation = { kind, settlesAt, ...(paymentId && { paymentId }) };
    const saved = this.deps.purchases.save({
      ...record,
      pending,
      purchase: { ...record.purchase, status: PENDING_STATUS[kind], updated_on: this.nowSeconds(record) },
    });
    this.deps.purchases.emit(PENDING_EVENT[kind], saved);
    this.deps.store.afterCommit(() => this.schedule(saved));
    return saved;
  }

  /** Sets the clock's task of a stored purchase, if it waits for one. */
  private schedule(record: PurchaseRecord): void {
    const id = record.purchase.id;
    if (record.tokenDeletionSettlesAt) {
      this.clockOf(record).at(`token:${id}`, record.tokenDeletionSettlesAt, () =>
        this.settleTokenDeletion(id),
      );
    }
    if (record.pending) {
      this.clockOf(record).at(`settle:${id}`, record.pending.settlesAt, () => this.settle(id));
    } else if (record.purchase.status === 'hold' && record.releaseAt) {
      this.clockOf(record).at(`release:${id}`, record.releaseAt, () => this.autoRelease(id));
    }
  }

  /** The slow acquirer's answer arrives. */
  private settle(id: string): void {
    this.run(() => {
      const record = this.deps.purchases.find(id);
      const pending = record?.pending;
      if (!record || !pending) return;
      const done = { ...record, pending: null };
      const answer = record.authorisationId ? this.deps.acquirer.settle(record.authorisationId) : undefined;
      switch (pending.kind) {
        case 'capture':
          this.captured(done);
          return;
        case 'release':
          this.released(done);
          return;
        case 'charge':
          // Accepted, then declined: the document's "failure after acceptance".
          if (answer?.kind === 'failed') this.chargeFailed(done, this.chargedMethod(record), answer);
          else this.chargeSettled(done, this.chargedMethod(record));
          return;
        case 'refund':
          this.refunded(
            this.withAttempt(
              { ...done, purchase: { ...done.purchase, status: 'paid' } },
              'refund',
              lastMethod(record),
            ),
            pending.paymentId!,
          );
      }
    });
  }

  /** The slow acquirer confirms a token deletion. */
  private settleTokenDeletion(id: string): void {
    this.run(() => {
      const record = this.deps.purchases.find(id);
      if (record?.tokenDeletionSettlesAt) this.tokenDeleted(record);
    });
  }

  /** Six days on hold without a capture. */
  private autoRelease(id: string): void {
    this.run(() => {
      const record = this.deps.purchases.find(id);
      if (record?.purchase.status !== 'hold' || !record.authorisationId) return;
      const answer = this.deps.acquirer.release(record.authorisationId, PROMPT, this.clockOf(record).nowMs());
      if (answer.kind === 'done') this.released({ ...record, releaseAt: null });
    });
  }

  private captured(record: PurchaseRecord): PurchaseRecord {
    const authorisation = this.deps.acquirer.get(record.authorisationId!)!;
    const method = lastMethod(record);
    const saved = this.deps.purchases.save(
      this.withAttempt(
        {
          ...record,
          purchase: {
            ...record.purchase,
            status: 'paid',
            refundable_amount: this.deps.acquirer.refundable(authorisation),
            refund_availability: refundAvailability(method),
            updated_on: this.nowSeconds(record),
          },
        },
        'capture',
        method,
      ),
    );
    this.deps.purchases.emit('purchase.captured', saved);
    this.deps.callbacks.send(saved, 'purchase.captured');
    return saved;
  }

  private released(record: PurchaseRecord): PurchaseRecord {
    const saved = this.deps.purchases.save(
      this.withAttempt(
        {
          ...record,
          purchase: { ...record.purchase, status: 'released', updated_on: this.nowSeconds(record) },
        },
        'release',
        lastMethod(record),
      ),
    );
    this.deps.purchases.emit('purchase.released', saved);
    return saved;
  }

  private chargeSettled(record: PurchaseRecord, method: string): PurchaseRecord {
    // A charge of nothing with skip_capture checks the card and holds nothing: no hold to release.
    const preauthorized = preauthorizes(record.purchase.skip_capture, record.purchase.purchase);
    const held = record.purchase.skip_capture && !preauthorized;
    const charged = this.withAttempt(
      {
        ...record,
        purchase: {
          ...record.purchase,
          status: preauthorized ? 'preauthorized' : held ? 'hold' : 'paid',
          refundable_amount: record.purchase.skip_capture ? 0 : (record.purchase.purchase.total ?? 0),
          refund_availability: record.purchase.skip_capture ? 'none' : refundAvailability(method),
          updated_on: this.nowSeconds(record),
        },
      },
      'charge',
      method,
    );
    const saved = this.deps.purchases.save(held ? this.held(charged) : charged);
    if (record.purchase.skip_capture) {
      this.deps.purchases.emit(preauthorized ? 'purchase.preauthorized' : 'purchase.hold', saved);
      return saved;
    }
    this.deps.purchases.emit('purchase.paid', saved);
    this.deps.callbacks.send(saved, 'purchase.paid');
    return saved;
  }

  /** A declined charge: `error` (payable again), its cause as an attempt, and `purchase.payment_failure`. */
  private chargeFailed(
    record: PurchaseRecord,
    method: string,
    answer: Extract<OperationAnswer, { kind: 'failed' }>,
  ): void {
    const failed = this.withAttempt(record, 'charge', method, {
      code: answer.code,
      description: answer.message,
    });
    const saved = this.deps.purchases.save({
      ...failed,
      purchase: { ...failed.purchase, status: 'error', updated_on: this.nowSeconds(record) },
    });
    this.deps.purchases.emit('purchase.payment_failure', saved);
  }

  /** The method a charge went through: the card's scheme or the method its authorisation was made with. */
  private chargedMethod(record: PurchaseRecord): string {
    const instrument = record.authorisationId
      ? this.deps.acquirer.get(record.authorisationId)?.instrument
      : undefined;
    if (instrument?.kind === 'method') return instrument.method;
    if (instrument?.kind === 'card') return instrument.card.scheme.toLowerCase();
    return lastMethod(record);
  }

  private refunded(record: PurchaseRecord, paymentId: string): StoredRefund {
    const now = this.nowSeconds(record);
    const { merchantId, payment } = this.payments.paid(paymentId, now);
    const left = record.purchase.refundable_amount;
    const availability = record.purchase.refund_availability;
    this.deps.purchases.save({
      ...record,
      purchase: {
        ...record.purchase,
        // A bank payment refunded in part has the rest to refund: pis_partial.
        refund_availability: left === 0 ? 'none' : availability === 'pis_all' ? 'pis_partial' : availability,
        updated_on: now,
      },
    });
    this.deps.paymentEvents.emit(merchantId, payment);
    return payment;
  }

  private tokenDeleted(record: PurchaseRecord): PurchaseRecord {
    const saved = this.deps.purchases.save({
      ...record,
      tokenDeletionSettlesAt: null,
      purchase: { ...record.purchase, is_recurring_token: false, updated_on: this.nowSeconds(record) },
    });
    this.deps.purchases.emit('purchase.recurring_token_deleted', saved);
    return saved;
  }

  private withAttempt(
    record: PurchaseRecord,
    type: StoredAttempt['type'],
    method: string,
    error?: StoredAttemptError,
  ): PurchaseRecord {
    const attempt: StoredAttempt = {
      type,
      successful: error === undefined,
      payment_method: method,
      created_on: this.nowSeconds(record),
      ...(error && { error }),
    };
    return {
      ...record,
      purchase: {
        ...record.purchase,
        transaction_data: {
          attempts: withNewestAttempts(record.purchase.transaction_data.attempts, attempt),
        },
      },
    };
  }

  private clockOf(record: PurchaseRecord): SandboxClock {
    return this.deps.clocks.for(record.merchantId);
  }

  /** Now on the Purchase's merchant's clock, in Unix seconds. */
  private nowSeconds(record: PurchaseRecord): number {
    return Math.floor(this.clockOf(record).nowMs() / 1000);
  }
}

/** Statuses in which the acquirer holds (or is about to hold or take) money for the Purchase. */
const HOLDING: ReadonlySet<Purchase['status']> = new Set([
  'hold',
  'pending_capture',
  'pending_release',
  'pending_charge',
]);

const PENDING_STATUS: Readonly<Record<PendingPurchaseOperation['kind'], Purchase['status']>> = {
  capture: 'pending_capture',
  release: 'pending_release',
  charge: 'pending_charge',
  refund: 'pending_refund',
};

const PENDING_EVENT: Readonly<Record<PendingPurchaseOperation['kind'], PurchaseEventName>> = {
  capture: 'purchase.pending_capture',
  release: 'purchase.pending_release',
  charge: 'purchase.pending_charge',
  refund: 'purchase.pending_refund',
};

function refundAvailability(methodName: string): Purchase['refund_availability'] {
  return findPaymentMethod(methodName)?.group === 'bank' ? 'pis_all' : 'all';
}
