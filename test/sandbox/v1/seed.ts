/**
 * Many paid v1 Purchases written straight into a data dir's store, before a sandbox starts on it: the fast
 * path for statements of tens of thousands of Purchases (statement-streaming.test.ts and
 * `bench/statements.ts`).
 * Each is stored as the hosted page leaves a card payment (paid, refundable, one successful attempt), with
 * an authorisation id of its own so that the sandbox's start takes it as it is.
 */
import { randomUUID } from 'node:crypto';
import { openStore } from '../../../src/sandbox/store.js';
import type { PurchaseRecord } from '../../../src/sandbox/v1/purchases.js';

/** Writes `count` paid Purchases of merchant `merchantId` (brand `brandId`), one second apart from `fromSeconds`. */
export async function seedPaidPurchases(options: {
  dataDir: string;
  count: number;
  merchantId: string;
  brandId: string;
  fromSeconds: number;
}): Promise<void> {
  const store = openStore({ dataDir: options.dataDir });
  const purchases = store.collection<PurchaseRecord>('v1-purchases');
  const batch = 1000;
  for (let start = 0; start < options.count; start += batch) {
    store.transaction(() => {
      for (let index = start; index < Math.min(options.count, start + batch); index += 1) {
        const id = randomUUID();
        const at = options.fromSeconds + index;
        const price = 100 + (index % 900);
        purchases.put(id, {
          merchantId: options.merchantId,
          authorisationId: `seeded-${id}`,
          purchase: {
            id,
            brand_id: options.brandId,
            client: { email: `customer${index}@example.com`, full_name: `Customer, "No. ${index}"` },
            client_id: null,
            purchase: {
              products: [{ name: `Item ${index}`, price, quantity: 1 }],
              currency: 'EUR',
              language: 'en',
              due_strict: false,
              total_override: null,
              payment_method_details: {},
              total: price,
            },
            reference: `order-${index}`,
            success_callback: null,
            success_redirect: null,
            failure_redirect: null,
            cancel_redirect: null,
            skip_capture: false,
            force_recurring: false,
            payment_method_whitelist: null,
            due: null,
            status: 'paid',
            is_recurring_token: false,
            marked_as_paid: false,
            refundable_amount: price,
            refund_availability: 'all',
            transaction_data: {
              attempts: [{ successful: true, payment_method: 'visa', created_on: at }],
            },
            created_on: at,
            updated_on: at,
          },
        });
      }
    });
  }
  store.compact();
  await store.close();
}
