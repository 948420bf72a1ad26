/**
 * v1 Purchases in the sandbox store: created from a checked request, read back, cancelled. Each is kept as
 * the Purchase's wire fields (without `checkout_url`, which depends on the host the caller reached the sandbox
 * under) plus the merchant it belongs to; one merchant never sees another's purchases. Changes that webhooks
 * report are told to {@link PurchaseEvents} inside the store transaction that makes them.
 */
import { randomUUID } from 'node:crypto';
import type { Purchase, PurchaseStatus, PurchaseWebhookPayload } from '../../core/v1-types.js';
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

/** An operation the slow acquirer accepted and has not answered yet. */
export interface PendingPurchaseOperation {
  kind: 'capture' | 'release' | 'charge' | 'refund' | 'recurring_token_delete';
  /** Epoch ms on the sandbox clock. */
  settlesAt: number;
  /** The refund's Payment. */
  paymentId?: string;
}

/** A Purchase as stored. */
export interface PurchaseRecord {
  merchantId: string;
  purchase: Omit<Purchase, 'checkout_url'>;
  /** The confirmation the hosted page waits for, if any. */
  step?: CheckoutStep | null;
  /** The acquirer's authorisation of the payment: what is held, captured, and refunded from. */
  authorisationId?: string | null;
  pending?: PendingPurchaseOperation | null;
  /** When a hold nobody captured is released (epoch ms on the sandbox clock). */
  releaseAt?: number | null;
  /** The sandbox as the merchant reached it when creating the purchase: `checkout_url` of timed events. */
  baseUrl?: string;
}

/** The event names a purchase's changes are reported under. */
export type PurchaseEventName = PurchaseWebhookPayload['event_type'];

/**
 * Hears of each reported change of a purchase. It is called inside the store transaction of the change, so
 * that what it queues is kept exactly when the change is. `baseUrl` is the sandbox as the caller reached it
 * (for the snapshot's `checkout_url`).
 */
export interface PurchaseEvents {
  emit(event: PurchaseEventName, record: PurchaseRecord, baseUrl: string): void;
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
    private readonly now: () => Date,
    private readonly events?: PurchaseEvents,
  ) {
    this.records = store.collection<PurchaseRecord>('v1-purchases');
  }

  /** Creates the purchase and reports `purchase.created`. */
  create(merchantId: string, draft: PurchaseDraft, baseUrl: string): PurchaseRecord {
    const now = this.nowSeconds();
    const record: PurchaseRecord = {
      merchantId,
      baseUrl,
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
      },
    };
    return this.store.transaction(() => {
      this.records.put(record.purchase.id, record);
      this.emit('purchase.created', record, baseUrl);
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
  cancel(merchantId: string, id: string, baseUrl: string): PurchaseRecord {
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
        purchase: { ...record.purchase, status: 'cancelled', updated_on: this.nowSeconds() },
      });
      this.emit('purchase.cancelled', cancelled, baseUrl);
      return cancelled;
    });
  }

  /** Reports a change made by the caller; call it inside the caller's store transaction of the change. */
  emit(event: PurchaseEventName, record: PurchaseRecord, baseUrl: string): void {
    this.events?.emit(event, record, baseUrl);
  }

  /** Stores a changed record (inside the caller's transaction, when there is one). */
  save(record: PurchaseRecord): PurchaseRecord {
    this.records.put(record.purchase.id, record);
    return record;
  }

  /** Now, in the Unix seconds of the wire's timestamps. */
  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  /** Expires a payable purchase whose strict due time has passed, the first time anyone looks at it. */
  private current(record: PurchaseRecord): PurchaseRecord {
    const { purchase } = record;
    const due = purchase.due;
    if (
      PAYABLE.has(purchase.status) &&
      purchase.purchase.due_strict &&
      due !== null &&
      this.nowSeconds() > due
    ) {
      return this.save({ ...record, purchase: { ...purchase, status: 'expired', updated_on: due } });
    }
    return record;
  }
}

/** The Purchase as the API answers it, with the checkout URL on the host the caller used. */
export function purchaseView(record: PurchaseRecord, baseUrl: string): Purchase {
  return { ...record.purchase, checkout_url: `${baseUrl}${checkoutPath(record.purchase.id)}` };
}
