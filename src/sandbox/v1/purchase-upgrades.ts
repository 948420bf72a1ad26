/**
 * Purchases stored by an earlier version of the sandbox, brought to this one's shape at each start (before
 * their clock tasks are set again): a purchase paid or held without an authorisation at the acquirer is taken
 * on as what it was (its hold released 6 days after it was made, its refunds within it); a card saved without
 * a charge, once held for ever as a hold of nothing, is `preauthorized`; a slow token deletion, once kept in
 * the money operation's slot, gets its own.
 */
import { randomUUID } from 'node:crypto';
import type { TestAcquirer } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { Store } from '../store.js';
import { preauthorizes } from './purchase-request.js';
import { HOLD_MS, lastMethod, type PurchaseRecord, type V1Purchases } from './purchases.js';

export interface UpgradeDeps {
  purchases: V1Purchases;
  acquirer: TestAcquirer;
  clocks: SandboxClocks;
  store: Store;
}

/** Upgrades every stored purchase an earlier version left in an older shape, in one store transaction. */
export function upgradeEarlierPurchases(deps: UpgradeDeps): void {
  // An earlier version held a card saved without a charge for ever, as a hold of nothing.
  const savedCards = [...deps.purchases.all()].filter(
    (record) =>
      record.purchase.status === 'hold' &&
      preauthorizes(record.purchase.skip_capture, record.purchase.purchase),
  );
  const earlier = [...deps.purchases.all()].filter(
    (record) =>
      (record.purchase.status === 'paid' || record.purchase.status === 'hold') &&
      !record.purchase.marked_as_paid &&
      !record.authorisationId,
  );
  // An earlier version kept a slow token deletion in the money operation's slot, where one overwrote the other.
  const tokenDeletions = [...deps.purchases.all()].filter(
    (record) => (record.pending?.kind as string | undefined) === 'recurring_token_delete',
  );
  if (savedCards.length > 0 || earlier.length > 0 || tokenDeletions.length > 0) {
    deps.store.transaction(() => {
      for (const record of earlier) adopt(deps, record);
      for (const record of tokenDeletions) {
        deps.purchases.save({
          ...record,
          pending: null,
          tokenDeletionSettlesAt: record.pending!.settlesAt,
        });
      }
      for (const { purchase } of savedCards) {
        const record = deps.purchases.find(purchase.id)!;
        deps.purchases.save({
          ...record,
          releaseAt: null,
          purchase: { ...record.purchase, status: 'preauthorized' },
        });
      }
    });
  }
}

function adopt(deps: UpgradeDeps, record: PurchaseRecord): void {
  const { purchase } = record;
  const amount = purchase.purchase.total ?? 0;
  const held = purchase.status === 'hold';
  const authorisation = deps.acquirer.adopt(
    randomUUID(),
    {
      instrument: { kind: 'method', method: lastMethod(record) },
      currency: purchase.purchase.currency,
      amount,
      captured: held ? 0 : amount,
      refunded: held ? 0 : amount - purchase.refundable_amount,
      recurring: purchase.is_recurring_token,
    },
    deps.clocks.for(record.merchantId).nowMs(),
  );
  const since = (purchase.updated_on ?? purchase.created_on ?? 0) * 1000;
  deps.purchases.save({
    ...record,
    authorisationId: authorisation.id,
    ...(held && { releaseAt: since + HOLD_MS }),
  });
}
