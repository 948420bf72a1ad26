/**
 * The refund Payments of v1 Purchases as the sandbox stores them (`v1-payments`): made `pending` by a refund,
 * `paid` once the acquirer has made it, each read only by the merchant it belongs to.
 */
import type { Collection, Store } from '../store.js';
import { V1HttpError } from './errors.js';
import type { StoredRefund } from './purchase-view.js';

/** A refund's Payment as stored. */
interface PaymentRecord {
  merchantId: string;
  payment: StoredRefund;
}

export class RefundPayments {
  private readonly records: Collection<PaymentRecord>;

  constructor(store: Store) {
    this.records = store.collection<PaymentRecord>('v1-payments');
  }

  /** Keeps a new refund Payment (inside the caller's store transaction). */
  add(merchantId: string, payment: StoredRefund): void {
    this.records.put(payment.id, { merchantId, payment });
  }

  /** The refund Payment `id` made: `paid` at `now` (Unix seconds). */
  paid(id: string, now: number): PaymentRecord {
    const stored = this.records.get(id)!;
    const paid: PaymentRecord = {
      ...stored,
      payment: { ...stored.payment, status: 'paid', paid_on: now, updated_on: now },
    };
    this.records.put(id, paid);
    return paid;
  }

  /**
   * The merchant's refund Payment `id`.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  get(merchantId: string, id: string): StoredRefund {
    const record = this.records.get(id.toLowerCase());
    if (!record || record.merchantId !== merchantId)
      throw V1HttpError.nonField(404, 'not_found', `No payment ${id}`);
    return record.payment;
  }

  /** Every refund Payment of the merchant, as stored. */
  *of(merchantId: string): IterableIterator<StoredRefund> {
    for (const record of this.records.values()) if (record.merchantId === merchantId) yield record.payment;
  }
}
