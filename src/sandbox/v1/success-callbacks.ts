/**
 * The success callbacks of v1 Purchases: the Purchase as it is when the event happens, with its `event_type`,
 * POSTed to its `success_callback` and signed with its merchant's company key (`X-Signature`, verified with
 * the key `GET /public_key/` answers that merchant). The document sends one when a Purchase without
 * `skip_capture` is paid, when a held one is captured, and when a recurring charge pays one.
 */
import type { PurchaseCallbackPayload } from '../../core/v1-types.js';
import { signBody } from '../../server/index.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import type { CompanyKeys } from './company-keys.js';
import { type PurchaseRecord, purchaseView } from './purchases.js';

export class SuccessCallbacks {
  constructor(
    private readonly deps: {
      queue: DeliveryQueue;
      companyKeys: CompanyKeys;
      /** The base URL of a purchase's `checkout_url`. */
      baseUrlOf: (record: PurchaseRecord) => string;
    },
  ) {}

  /**
   * Queues the callback when the purchase names a `success_callback`. Call it inside the store transaction of
   * the change, so that the purchase is never paid without its callback or the other way round.
   */
  send(record: PurchaseRecord, event: 'purchase.paid' | 'purchase.captured'): void {
    const url = record.purchase.success_callback;
    if (url === null) return;
    const payload: PurchaseCallbackPayload = {
      ...purchaseView(record, this.deps.baseUrlOf(record)),
      event_type: event,
    };
    const body = JSON.stringify(payload);
    const key = this.deps.companyKeys.get(record.merchantId);
    // Every v1 merchant has its pair from the start; a Purchase exists only for a v1 merchant.
    if (key === undefined) throw new Error(`No company key for merchant ${record.merchantId}`);
    this.deps.queue.enqueue({
      key: `v1-purchase:${record.purchase.id}`,
      url,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature': signBody(body, key.privateKeyPem),
      },
      body,
      acceptStatus: '2xx',
      event,
      owner: record.merchantId,
    });
  }
}
