/**
 * What the hosted checkout page does to a Purchase: has the test acquirer authorise a test card (with the
 * 3-D Secure test challenge), or a bank or wallet method confirmed on a test step, or a wallet payment posted
 * server to server (`wallet-payments.ts`, its 3-D Secure step answered on this page); records each attempt,
 * newest first; moves the Purchase to `paid` (or `hold` with `skip_capture`, or `preauthorized` when it saves
 * the card without a charge) or `error` (still payable); and, for a paid Purchase with a `success_callback`,
 * queues the signed callback in the same store transaction as the state change and the acquirer's
 * authorisation, so a Purchase is never paid without its callback or the other way round; the webhook events
 * (`purchase.paid`, `purchase.hold`, `purchase.preauthorized`, `purchase.payment_failure`) are reported in
 * that transaction too. Card numbers are never kept.
 */
import { randomUUID } from 'node:crypto';
import {
  CARD_SCHEME_NAMES,
  type CardScheme,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../../core/card.js';
import { cardNumberErrorKey, cvcErrorKey, expiryErrorKey } from '../../core/i18n.js';
import { type Authorisation, PROMPT, type TestAcquirer } from '../acquirer.js';
import type { Store } from '../store.js';
import { findTestCard, type TestCardOutcome } from '../test-cards.js';
import type { PageText } from './checkout-texts.js';
import { creditorAttempts } from './creditor-payments.js';
import { findPaymentMethod, type PaymentMethodEntry } from './method-catalogue.js';
import type { PurchaseOperations } from './purchase-operations.js';
import { payableMethods, preauthorizes } from './purchase-request.js';
import {
  type CheckoutStep,
  PAYABLE,
  type PurchaseRecord,
  type StoredAttempt,
  type V1Purchases,
  withNewestAttempts,
} from './purchases.js';
import type { SuccessCallbacks } from './success-callbacks.js';

/** The form of the hosted page as posted. Card members are empty for other methods. */
export interface CheckoutSubmission {
  /** `card`, or the name of a bank or wallet method. */
  method: string;
  card: { number: string; expiry: string; cvc: string; holder: string };
}

/** The form fields, by their `name`. */
export type CheckoutField = 'method' | 'card_number' | 'card_expiry' | 'card_cvc' | 'card_holder';

export interface CheckoutFieldError {
  field: CheckoutField;
  text: PageText;
}

/** What a submission or a step's answer came to. */
export type CheckoutOutcome =
  | { kind: 'paid'; record: PurchaseRecord }
  | { kind: 'failed'; record: PurchaseRecord; reason: PageText }
  | { kind: 'retry'; record: PurchaseRecord; reason: PageText }
  | { kind: 'step'; record: PurchaseRecord; step: CheckoutStep }
  | { kind: 'closed'; record: PurchaseRecord }
  | { kind: 'invalid'; record: PurchaseRecord; errors: CheckoutFieldError[] };

/**
 * How the test wallet answers a payment posted server to server: approved, declined as a test card declines,
 * or (wallet B) only after the customer's 3-D Secure answer.
 */
export type WalletOutcome =
  | Extract<TestCardOutcome, { kind: 'approved' | 'declined' }>
  | { kind: 'three_ds' };

export interface CheckoutPaymentsDeps {
  purchases: V1Purchases;
  store: Store;
  acquirer: TestAcquirer;
  callbacks: SuccessCallbacks;
  /** Sets the 6-day release of a new hold. */
  operations: Pick<PurchaseOperations, 'held'>;
  /** The token Purchases of the Purchase's Client (none without `client_id`): its saved cards. */
  savedCards: (record: PurchaseRecord) => readonly PurchaseRecord[];
  /** Now on the merchant's clock. */
  now: (merchantId: string) => Date;
}

/** The prefix of a saved card's choice in the form (`saved:<token id>`); no method name has a colon. */
const SAVED_PREFIX = 'saved:';

const SCHEME_OF_METHOD: Readonly<Record<string, CardScheme>> = { visa: 'VISA', mastercard: 'MASTERCARD' };

/** The card scheme a card method pays with; undefined for any other method. */
export function schemeOfMethod(methodName: string): CardScheme | undefined {
  return SCHEME_OF_METHOD[methodName];
}

const METHOD_OF_SCHEME: Readonly<Partial<Record<CardScheme, string>>> = {
  VISA: 'visa',
  MASTERCARD: 'mastercard',
};

/** The methods the purchase can be paid with now. */
export function methodsFor(record: PurchaseRecord): PaymentMethodEntry[] {
  const { purchase } = record;
  return payableMethods(purchase.purchase, purchase.payment_method_whitelist, {
    skipCapture: purchase.skip_capture,
    forceRecurring: purchase.force_recurring,
  });
}

/** Each entry (`submit`, `answerStep`, `payByWallet`) runs in one store transaction, whatever it changes. */
export class CheckoutPayments {
  constructor(private readonly deps: CheckoutPaymentsDeps) {}

  /** Handles the posted form. */
  submit(record: PurchaseRecord, submission: CheckoutSubmission): CheckoutOutcome {
    return this.deps.store.transaction(() => this.handle(record, submission));
  }

  private handle(record: PurchaseRecord, submission: CheckoutSubmission): CheckoutOutcome {
    if (!PAYABLE.has(record.purchase.status)) return { kind: 'closed', record };
    const methods = methodsFor(record);
    if (submission.method === 'card') return this.payByCard(record, submission.card, methods);
    if (submission.method.startsWith(SAVED_PREFIX)) {
      return this.payBySavedCard(record, submission.method.slice(SAVED_PREFIX.length), methods);
    }
    const method = methods.find(
      (candidate) => candidate.name === submission.method && candidate.group !== 'card',
    );
    if (!method) return noMethod(record);
    return this.openStep(record, method.group === 'bank' ? 'bank' : 'wallet', method.name);
  }

  /** The customer's answer on a confirmation step; an answer to a step no longer open changes nothing. */
  answerStep(record: PurchaseRecord, stepId: string, approve: boolean): CheckoutOutcome {
    return this.deps.store.transaction(() => this.answer(record, stepId, approve));
  }

  private answer(record: PurchaseRecord, stepId: string, approve: boolean): CheckoutOutcome {
    const step = record.step;
    if (!PAYABLE.has(record.purchase.status)) return { kind: 'closed', record };
    if (!step || step.id !== stepId) return noMethod(record);
    if (step.authorisationId !== undefined) {
      this.deps.acquirer.completeChallenge(step.authorisationId, approve);
      if (approve) return this.succeed(record, step.method, step.authorisationId);
    } else if (approve) {
      const authorisation = this.deps.acquirer.authoriseMethod(
        step.method,
        this.request(record, step.method),
        this.nowMs(record),
      );
      return this.succeed(record, step.method, authorisation.id);
    }
    const reason: Record<CheckoutStep['kind'], { code: string; key: PageText['key'] }> = {
      three_ds: { code: 'authentication_failed', key: 'status.failed.reason.authentication_failed' },
      bank: { code: 'bank_declined', key: 'reason.bank_declined' },
      wallet: { code: 'wallet_declined', key: 'reason.wallet_declined' },
    };
    const { code, key } = reason[step.kind];
    return this.fail(record, step.method, code, DESCRIPTIONS[code] ?? code, { key });
  }

  /**
   * A wallet payment posted server to server, with `method` (a wallet the caller found in the purchase's
   * `payment_method_whitelist`): paid (held with `skip_capture`), failed, or waiting on a 3-D Secure step
   * that the customer answers on this page (`/checkout/<id>/steps/<step>`) as a card's challenge.
   */
  payByWallet(
    record: PurchaseRecord,
    method: string,
    outcome: WalletOutcome,
  ): Exclude<CheckoutOutcome, { kind: 'retry' }> {
    return this.deps.store.transaction(() => {
      if (!PAYABLE.has(record.purchase.status)) return { kind: 'closed', record };
      const methods = methodsFor(record);
      if (!methods.some((candidate) => candidate.name === method && candidate.group === 'wallet')) {
        return noMethod(record);
      }
      switch (outcome.kind) {
        case 'approved': {
          const authorisation = this.deps.acquirer.authoriseMethod(
            method,
            this.request(record, method),
            this.nowMs(record),
          );
          return this.succeed(record, method, authorisation.id);
        }
        case 'three_ds':
          // No authorisation yet: the step's approval authorises the wallet as a confirmed wallet step does.
          return this.openStep(record, 'three_ds', method);
        case 'declined':
          return this.fail(record, method, outcome.code, outcome.message, {
            key: `status.failed.reason.${outcome.code}`,
          });
      }
    });
  }

  private payByCard(
    record: PurchaseRecord,
    card: CheckoutSubmission['card'],
    methods: readonly PaymentMethodEntry[],
  ): CheckoutOutcome {
    const accepted = methods.flatMap((method) => {
      const scheme = SCHEME_OF_METHOD[method.name];
      return scheme ? [scheme] : [];
    });
    if (accepted.length === 0) return noMethod(record);
    const errors: CheckoutFieldError[] = [];
    const number = validateCardNumber(card.number, { acceptedSchemes: accepted });
    if (!number.valid) {
      errors.push({
        field: 'card_number',
        text: {
          key: cardNumberErrorKey(number.code),
          params: { accepted: accepted.map((scheme) => CARD_SCHEME_NAMES[scheme]).join(', ') },
        },
      });
    }
    const expiry = validateExpiry(card.expiry, this.deps.now(record.merchantId));
    if (!expiry.valid) errors.push({ field: 'card_expiry', text: { key: expiryErrorKey(expiry.code) } });
    const cvc = validateCvc(card.cvc, number.valid ? number.scheme : 'UNKNOWN');
    if (!cvc.valid)
      errors.push({ field: 'card_cvc', text: { key: cvcErrorKey(cvc.code), params: { length: 3 } } });
    if (card.holder.trim() === '')
      errors.push({ field: 'card_holder', text: { key: 'card.holder.error.empty' } });
    const testCard = number.valid ? findTestCard(number.number) : undefined;
    if (number.valid && !testCard) errors.push({ field: 'card_number', text: { key: 'card.testOnly' } });
    if (errors.length > 0 || !testCard || !number.valid || !expiry.valid) {
      return { kind: 'invalid', record, errors };
    }

    const method = METHOD_OF_SCHEME[testCard.scheme]!;
    // Kept for `transaction_data.extra`, as the platform keeps them; the number and CVC never are.
    const paying: PurchaseRecord = {
      ...record,
      cardholder: { name: card.holder.trim(), expiryMonth: expiry.month, expiryYear: expiry.year },
    };
    const authorised = this.deps.acquirer.authoriseCard(
      number.number,
      this.request(record, method),
      this.nowMs(record),
    );
    switch (authorised.kind) {
      case 'approved':
        return this.succeed(paying, method, authorised.authorisation.id);
      case 'challenge':
        return this.openStep(paying, 'three_ds', method, authorised.authorisation);
      case 'declined':
        return this.fail(paying, method, authorised.code, authorised.message, {
          key: `status.failed.reason.${authorised.code}`,
        });
      case 'processing_error': {
        const failed = this.fail(paying, method, authorised.code, authorised.message, {
          key: 'status.failed.reason.processing_error',
        });
        return { ...failed, kind: 'retry' };
      }
    }
  }

  /**
   * One click: the customer's saved card `tokenId` is charged through the acquirer as `charge` would, with the
   * customer present. Only a card of the Purchase's own Client, still saved, and a method the Purchase takes.
   */
  private payBySavedCard(
    record: PurchaseRecord,
    tokenId: string,
    methods: readonly PaymentMethodEntry[],
  ): CheckoutOutcome {
    const token = this.deps.savedCards(record).find((candidate) => candidate.purchase.id === tokenId);
    const method = token?.purchase.transaction_data.attempts.find(
      (attempt) => attempt.successful,
    )?.payment_method;
    if (!token?.authorisationId || !method || !methods.some((candidate) => candidate.name === method)) {
      return noMethod(record);
    }
    const answer = this.deps.acquirer.charge(
      token.authorisationId,
      this.request(record, method),
      PROMPT,
      this.nowMs(record),
    );
    const paying = token.cardholder ? { ...record, cardholder: token.cardholder } : record;
    if (answer.kind === 'done') return this.succeed(paying, method, answer.authorisation.id);
    const reason =
      answer.kind === 'failed' && answer.code === 'insufficient_funds' ? answer.code : 'card_declined';
    const [code, message] =
      answer.kind === 'failed'
        ? [answer.code, answer.message]
        : ['processing_error', 'The card was not charged'];
    return this.fail(record, method, code, message, { key: `status.failed.reason.${reason}` });
  }

  /**
   * What the acquirer is asked for: the amount due, taken at once unless `skip_capture` holds it; the card
   * kept for later charges with `force_recurring`, or when the Purchase saves it without a charge.
   */
  /** Now on the clock of the Purchase's merchant. */
  private nowMs(record: PurchaseRecord): number {
    return this.deps.now(record.merchantId).getTime();
  }

  private request(record: PurchaseRecord, methodName?: string) {
    const { purchase } = record;
    const method = methodName === undefined ? undefined : findPaymentMethod(methodName);
    return {
      amount: purchase.purchase.total ?? 0,
      currency: purchase.purchase.currency,
      capture: !purchase.skip_capture,
      recurring: savesCard(purchase) && (method?.recurring ?? false),
    };
  }

  private openStep(
    record: PurchaseRecord,
    kind: CheckoutStep['kind'],
    method: string,
    authorisation?: Authorisation,
  ): Extract<CheckoutOutcome, { kind: 'step' }> {
    const step: CheckoutStep = {
      id: randomUUID(),
      kind,
      method,
      ...(authorisation && { authorisationId: authorisation.id }),
    };
    const saved = this.deps.purchases.save({ ...record, step });
    return { kind: 'step', record: saved, step };
  }

  private attempt(record: PurchaseRecord, method: string, error?: StoredAttempt['error']): StoredAttempt {
    return {
      type: 'payment',
      successful: error === undefined,
      payment_method: method,
      created_on: this.deps.purchases.nowSeconds(record.merchantId),
      ...(error && { error }),
    };
  }

  private fail(
    record: PurchaseRecord,
    method: string,
    code: string,
    description: string,
    reason: PageText,
  ): Extract<CheckoutOutcome, { kind: 'failed' }> {
    const failed: PurchaseRecord = {
      ...record,
      step: null,
      purchase: {
        ...record.purchase,
        status: 'error',
        updated_on: this.deps.purchases.nowSeconds(record.merchantId),
        transaction_data: {
          attempts: withNewestAttempts(
            record.purchase.transaction_data.attempts,
            this.attempt(record, method, { code, description }),
          ),
        },
      },
    };
    this.deps.purchases.save(failed);
    this.deps.purchases.emit('purchase.payment_failure', failed);
    return { kind: 'failed', record: failed, reason };
  }

  /**
   * Paid (or held, or the card saved without a charge), with the success callback of a payment queued in the
   * same transaction.
   */
  private succeed(
    record: PurchaseRecord,
    methodName: string,
    authorisationId: string,
  ): Extract<CheckoutOutcome, { kind: 'paid' }> {
    const { purchase } = record;
    if (preauthorizes(purchase.skip_capture, purchase.purchase)) {
      return { kind: 'paid', record: this.preauthorized(record, methodName, authorisationId) };
    }
    const method = findPaymentMethod(methodName)!;
    const held = purchase.skip_capture;
    const attempt = this.attempt(record, methodName);
    // A bank payment to named creditors pays each of them: one successful attempt per creditor.
    const attempts = (method.group === 'bank' ? creditorAttempts(purchase.purchase, attempt) : undefined) ?? [
      attempt,
    ];
    const paid: PurchaseRecord = {
      ...record,
      step: null,
      authorisationId,
      purchase: {
        ...purchase,
        status: held ? 'hold' : 'paid',
        updated_on: this.deps.purchases.nowSeconds(record.merchantId),
        is_recurring_token: purchase.force_recurring && method.recurring,
        refundable_amount: held ? 0 : (purchase.purchase.total ?? 0),
        refund_availability: held ? 'none' : method.group === 'bank' ? 'pis_all' : 'all',
        transaction_data: { attempts: withNewestAttempts(purchase.transaction_data.attempts, ...attempts) },
      },
    };
    const saved = this.deps.purchases.save(held ? this.deps.operations.held(paid) : paid);
    this.deps.purchases.emit(held ? 'purchase.hold' : 'purchase.paid', saved);
    // A held purchase gets its success callback at capture.
    if (!held) this.deps.callbacks.send(saved, 'purchase.paid');
    return { kind: 'paid', record: saved };
  }

  /**
   * The card is saved without a charge: `preauthorized` and a recurring token for good, holding nothing, so
   * never released. No success callback: the document sends those for money paid or captured only.
   */
  private preauthorized(record: PurchaseRecord, methodName: string, authorisationId: string): PurchaseRecord {
    const { purchase } = record;
    const saved = this.deps.purchases.save({
      ...record,
      step: null,
      authorisationId,
      purchase: {
        ...purchase,
        status: 'preauthorized',
        updated_on: this.deps.purchases.nowSeconds(record.merchantId),
        is_recurring_token: true,
        refundable_amount: 0,
        refund_availability: 'none',
        transaction_data: {
          attempts: withNewestAttempts(purchase.transaction_data.attempts, this.attempt(record, methodName)),
        },
      },
    });
    this.deps.purchases.emit('purchase.preauthorized', saved);
    return saved;
  }
}

/** Whether paying the Purchase keeps its card for later charges (a recurring token). */
function savesCard(purchase: PurchaseRecord['purchase']): boolean {
  return purchase.force_recurring || preauthorizes(purchase.skip_capture, purchase.purchase);
}

/** The outcome of a submission that names no method the purchase can be paid with. */
function noMethod(record: PurchaseRecord): Extract<CheckoutOutcome, { kind: 'invalid' }> {
  return { kind: 'invalid', record, errors: [{ field: 'method', text: { key: 'methods.required' } }] };
}

/** `error.description` of attempts that failed on a step. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  authentication_failed: 'The cardholder did not confirm the payment',
  bank_declined: 'The bank did not confirm the payment',
  wallet_declined: 'The wallet did not confirm the payment',
};
