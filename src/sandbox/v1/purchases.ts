/**
 * v1 Purchases in the sandbox store: created from a checked request, read back, cancelled. Each is kept as
 * what the Purchase was asked for and what happened to it ({@link StoredPurchase}) plus the merchant it
 * belongs to; one merchant never sees another's purchases. The wire Purchase is written from it by
 * `purchase-view.ts`. Changes that webhooks report are told to {@link PurchaseEvents} inside the store
 * transaction that makes them.
 */
import { randomUUID } from 'node:crypto';
import type {
  PaymentMethodDetails,
  PurchaseClient,
  PurchaseStatus,
  PurchaseStatusChange,
  PurchaseWebhookPayload,
  RefundAvailability,
} from '../../core/v1-types.js';
import type { CardProfile } from '../acquirer.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { V1HttpError } from './errors.js';
import type { PurchaseDraft } from './purchase-request.js';

/** A confirmation the hosted page waits for: the 3-D Secure test challenge, or the test bank's or wallet's. */
export interface CheckoutStep {
  id: string;
  kind: 'three_ds' | 'bank' | 'wallet';
  /** The payment method being confirmed. */
  method: string;
  /** The acquirer's authorisation that waits for the 3-D Secure answer. */
  authorisationId?: string;
}

/**
 * A money operation the slow acquirer accepted and has not answered yet: one at a time, since each changes
 * what the next may take or give back.
 */
export interface PendingPurchaseOperation {
  kind: 'capture' | 'release' | 'charge' | 'refund';
  /** Epoch ms on the sandbox clock. */
  settlesAt: number;
  /** The refund's Payment. */
  paymentId?: string;
}

/**
 * An attempt as stored; the view writes it as the platform does (`type: 'payment'` as `execute`, or
 * `authorize` for a hold, `error.description` as `error.message`).
 */
export interface StoredAttempt {
  /** What was tried: the customer's `payment`, or the merchant's operation. */
  type?: 'payment' | 'capture' | 'release' | 'charge' | 'refund' | 'delete_recurring_token';
  successful?: boolean;
  payment_method?: string;
  /** The creditor a bulk or variable-creditor payment paid. */
  creditor?: { name: string; iban: string };
  /** Minor units paid to `creditor`. */
  amount?: number;
  /** Unix timestamp (seconds). */
  created_on?: number;
  /** Present when the attempt failed. */
  error?: StoredAttemptError;
}

/** Why an attempt failed, as stored. */
export interface StoredAttemptError {
  code: string;
  description: string;
}

/** The `purchase` object as stored: the checked request, defaults filled in. */
export interface StoredPurchaseDetails {
  products: Array<{ name: string; price: number; quantity: number; category?: string }>;
  currency: string;
  language: string;
  due_strict: boolean;
  total_override: number | null;
  payment_method_details: PaymentMethodDetails;
  /** Minor units due; absent on purchases stored by versions before it was kept. */
  total?: number;
  notes?: string;
  timezone?: string;
  email_message?: string;
}

/**
 * A Purchase as stored: the request's members (`null` where not given) and its state. Members marked as
 * later are absent on purchases stored by earlier versions; the view fills them in.
 */
export interface StoredPurchase {
  id: string;
  brand_id: string;
  client: PurchaseClient;
  /** The Client the merchant named; null when none was (the view then names {@link PurchaseRecord.madeClientId}). */
  client_id: string | null;
  purchase: StoredPurchaseDetails;
  reference: string | null;
  success_callback: string | null;
  success_redirect: string | null;
  failure_redirect: string | null;
  cancel_redirect: string | null;
  skip_capture: boolean;
  force_recurring: boolean;
  payment_method_whitelist: string[] | null;
  /** Later. */
  payout_method_whitelist?: string[] | null;
  due: number | null;
  status: PurchaseStatus;
  is_recurring_token: boolean;
  marked_as_paid: boolean;
  refundable_amount: number;
  refund_availability: RefundAvailability;
  transaction_data: { attempts: StoredAttempt[] };
  created_on?: number;
  updated_on?: number;
  /** Set by `mark_as_paid`. */
  paid_on?: number;
  /** Later: every status taken, oldest first (the latest may be missing from a copy saved since). */
  status_history?: PurchaseStatusChange[];
  /** Later: the first visit of the hosted page. */
  viewed_on?: number;
  /** Later: the account's number of the Purchase, from 1. */
  number?: number;
  /** Later: the IP address of the create request. */
  created_from_ip?: string;
  /** The BillingTemplate that made it. */
  billing_template_id?: string;
}

/** The card of a card payment as the checkout form gave it, beyond what the acquirer keeps. */
export interface CardholderDetails {
  name: string;
  /** 1 to 12. */
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
}

/** What the acquirer knows of the authorisation of a purchase. */
export interface AuthorisationFacts {
  /** The card, when a card paid. */
  card: CardProfile | undefined;
  /** Minor units taken so far. */
  captured: number;
}

/** How long a hold lasts without a capture (the document's "Limits", 3). */
export const HOLD_DAYS = 6;
export const HOLD_MS = HOLD_DAYS * 24 * 60 * 60 * 1000;

/** The method of the purchase's newest successful attempt: what a capture, refund or charge goes through. */
export function lastMethod(record: PurchaseRecord): string {
  const attempts = record.purchase.transaction_data.attempts;
  return (
    attempts.find((attempt) => attempt.successful)?.payment_method ?? attempts[0]?.payment_method ?? 'card'
  );
}

/**
 * How many refused attempts a Purchase keeps, the newest: its cause is read from the newest attempt (the
 * document's rule 4), and without a bound a caller repeating a refused operation grows the record for ever.
 */
export const KEPT_FAILED_ATTEMPTS = 20;

/**
 * `attempts` (newest first) with `newest` put first, keeping every successful attempt and only the
 * {@link KEPT_FAILED_ATTEMPTS} newest failed ones.
 */
export function withNewestAttempts(
  attempts: readonly StoredAttempt[],
  ...newest: StoredAttempt[]
): StoredAttempt[] {
  let failed = 0;
  return [...newest, ...attempts].filter(
    (attempt) => attempt.successful !== false || ++failed <= KEPT_FAILED_ATTEMPTS,
  );
}

/** A Purchase as stored. */
export interface PurchaseRecord {
  merchantId: string;
  purchase: StoredPurchase;
  /** The confirmation the hosted page waits for, if any. */
  step?: CheckoutStep | null;
  /** The acquirer's authorisation of the payment: what is held, captured, and refunded from. */
  authorisationId?: string | null;
  pending?: PendingPurchaseOperation | null;
  /**
   * A token deletion the slow acquirer has not confirmed yet (epoch ms on the sandbox clock). Kept apart from
   * {@link pending}: it moves no money, so it runs alongside a money operation and neither overwrites the other.
   */
  tokenDeletionSettlesAt?: number | null;
  /** When a hold nobody captured is released (epoch ms on the sandbox clock). */
  releaseAt?: number | null;
  /**
   * The sandbox as the merchant reached it when creating the purchase: the `checkout_url` of its events and
   * callbacks. Purchases stored by an earlier version lack it (see {@link V1Purchases.baseUrlOf}).
   */
  baseUrl?: string;
  /** The Client the gateway made (or found by email) for a Purchase whose merchant named none. */
  madeClientId?: string;
  /** The card that paid, as the acquirer keeps it (set on saving, from the authorisation). */
  card?: CardProfile;
  /** Minor units the authorisation took (captured), set on saving. */
  captured?: number;
  /** What the checkout form gave of the card besides its number. */
  cardholder?: CardholderDetails;
  /** The IP address the customer paid on the hosted page from. */
  payerIp?: string;
}

/** The event names a purchase's changes are reported under. */
export type PurchaseEventName = PurchaseWebhookPayload['event_type'];

/**
 * Hears of each reported change of a purchase. It is called inside the store transaction of the change, so
 * that what it queues is kept exactly when the change is.
 */
export interface PurchaseEvents {
  emit(event: PurchaseEventName, record: PurchaseRecord): void;
}

/** Statuses in which the customer can still pay. */
export const PAYABLE: ReadonlySet<PurchaseStatus> = new Set(['created', 'error']);

/** The path of the hosted checkout page of a purchase. */
export function checkoutPath(purchaseId: string): string {
  return `/checkout/${purchaseId}/`;
}

export class V1Purchases {
  private readonly records: Collection<PurchaseRecord>;

  constructor(
    private readonly store: Store,
    /** Now on the merchant's clock. */
    private readonly now: (merchantId: string) => Date,
    private readonly events?: PurchaseEvents,
    /** What the acquirer knows of an authorisation: for the Purchase's `payment` and `transaction_data`. */
    private readonly authorisationOf: (authorisationId: string) => AuthorisationFacts | undefined = () =>
      undefined,
    /** The sandbox's own URL, for a purchase stored without the one it was created under. */
    private readonly ownUrl: () => string = () => 'http://127.0.0.1',
  ) {
    this.records = store.collection<PurchaseRecord>('v1-purchases');
  }

  /**
   * Creates the purchase and reports `purchase.created`. `made` is what the gateway adds: the sandbox's base
   * URL as the merchant reached it (kept on the record for its `checkout_url`), the Client it made for a
   * Purchase whose merchant named none, the IP address the request came from, the BillingTemplate that made it.
   */
  create(
    merchantId: string,
    draft: PurchaseDraft,
    made: { baseUrl: string; clientId?: string; fromIp?: string; billingTemplateId?: string },
  ): PurchaseRecord {
    const now = this.nowSeconds(merchantId);
    let number = 1;
    for (const other of this.records.values()) if (other.merchantId === merchantId) number++;
    const record: PurchaseRecord = {
      merchantId,
      baseUrl: made.baseUrl,
      ...(made.clientId !== undefined && { madeClientId: made.clientId }),
      purchase: {
        id: randomUUID(),
        ...draft,
        status: 'created',
        is_recurring_token: false,
        marked_as_paid: false,
        refundable_amount: 0,
        refund_availability: 'none',
        transaction_data: { attempts: [] },
        created_on: now,
        updated_on: now,
        status_history: [{ status: 'created', timestamp: now }],
        number,
        created_from_ip: made.fromIp ?? '',
        ...(made.billingTemplateId !== undefined && { billing_template_id: made.billingTemplateId }),
      },
    };
    return this.store.transaction(() => {
      this.records.put(record.purchase.id, record);
      this.emit('purchase.created', record);
      return record;
    });
  }

  /**
   * The merchant's purchase `id`, with its status as of now.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  get(merchantId: string, id: string): PurchaseRecord {
    const record = this.find(id);
    if (!record || record.merchantId !== merchantId) {
      throw V1HttpError.nonField(404, 'not_found', `No purchase ${id}`);
    }
    return record;
  }

  /** Every stored purchase, as stored (for the timed rules to set their tasks again at a start). */
  all(): IterableIterator<PurchaseRecord> {
    return this.records.values();
  }

  /** Any merchant's purchase `id` (the hosted page's view), with its status as of now. */
  find(id: string): PurchaseRecord | undefined {
    const record = UUID.test(id) ? this.records.get(id.toLowerCase()) : undefined;
    return record && this.current(record);
  }

  /**
   * Makes a payable purchase unpayable for good. Cancelling one that is already cancelled or expired changes
   * nothing, since it cannot be paid either way; one that was paid or reserved cannot be cancelled. A
   * purchase that this call cancels is reported as `purchase.cancelled`.
   * @throws V1HttpError 400 `purchase_cancel_error` when the purchase is past paying.
   */
  cancel(merchantId: string, id: string): PurchaseRecord {
    const record = this.get(merchantId, id);
    const status = record.purchase.status;
    if (status === 'cancelled' || status === 'expired') return record;
    if (!PAYABLE.has(status)) {
      throw V1HttpError.nonField(
        400,
        'purchase_cancel_error',
        `The purchase is ${status}; only a purchase that can still be paid can be cancelled`,
      );
    }
    return this.store.transaction(() => {
      const cancelled = this.save({
        ...record,
        purchase: { ...record.purchase, status: 'cancelled', updated_on: this.nowSeconds(merchantId) },
      });
      this.emit('purchase.cancelled', cancelled);
      return cancelled;
    });
  }

  /** Runs `work` in one store transaction (nested in the caller's, when there is one). */
  transaction<R>(work: () => R): R {
    return this.store.transaction(work);
  }

  /** Reports a change made by the caller; call it inside the caller's store transaction of the change. */
  emit(event: PurchaseEventName, record: PurchaseRecord): void {
    this.events?.emit(event, record);
  }

  /** The base URL of the purchase's `checkout_url` in its events, callbacks and invoices. */
  baseUrlOf(record: PurchaseRecord): string {
    return record.baseUrl ?? this.ownUrl();
  }

  /**
   * Stores a changed record (inside the caller's transaction, when there is one), adding a new status to its
   * `status_history`, and what its authorisation took and with which card.
   */
  save(record: PurchaseRecord): PurchaseRecord {
    const stored = this.records.get(record.purchase.id);
    let saved = record;
    if (stored && stored.purchase.status !== record.purchase.status) {
      const change = { status: record.purchase.status, timestamp: this.nowSeconds(record.merchantId) };
      saved = {
        ...saved,
        purchase: { ...saved.purchase, status_history: [...statusHistoryOf(stored.purchase), change] },
      };
    }
    const facts = record.authorisationId ? this.authorisationOf(record.authorisationId) : undefined;
    if (facts) {
      saved = { ...saved, captured: facts.captured, ...(facts.card && { card: facts.card }) };
    }
    this.records.put(saved.purchase.id, saved);
    return saved;
  }

  /** Records the first visit of the purchase's hosted page (`viewed_on`). */
  viewed(record: PurchaseRecord): PurchaseRecord {
    if (record.purchase.viewed_on !== undefined) return record;
    return this.store.transaction(() =>
      this.save({
        ...record,
        purchase: { ...record.purchase, viewed_on: this.nowSeconds(record.merchantId) },
      }),
    );
  }

  /** Now on the merchant's clock, in the Unix seconds of the wire's timestamps. */
  nowSeconds(merchantId: string): number {
    return Math.floor(this.now(merchantId).getTime() / 1000);
  }

  /** Expires a payable purchase whose strict due time has passed, the first time anyone looks at it. */
  private current(record: PurchaseRecord): PurchaseRecord {
    const { purchase } = record;
    const due = purchase.due;
    if (
      PAYABLE.has(purchase.status) &&
      purchase.purchase.due_strict &&
      due !== null &&
      this.nowSeconds(record.merchantId) > due
    ) {
      return this.save({ ...record, purchase: { ...purchase, status: 'expired', updated_on: due } });
    }
    return record;
  }
}

/**
 * Every status the purchase took, oldest first: as stored, with its current status when a copy saved without
 * it is shown, and made of `created_on` and `updated_on` for a purchase stored before the history was kept.
 */
export function statusHistoryOf(purchase: StoredPurchase): PurchaseStatusChange[] {
  const history = purchase.status_history ?? [{ status: 'created', timestamp: purchase.created_on ?? 0 }];
  return history.at(-1)?.status === purchase.status
    ? history
    : [...history, { status: purchase.status, timestamp: purchase.updated_on ?? 0 }];
}

export { purchaseView } from './purchase-view.js';
