/**
 * Whom a bank payment of a Purchase pays when the Purchase names its creditors: each creditor of a bulk payment
 * (`pis_bulk_purchase`) gets the amount of the product at its position, a variable creditor (`pis_purchase`)
 * the whole amount due. The hosted page's bank step shows these, and an approved step records one successful
 * attempt per creditor in `transaction_data.attempts`.
 */
import type { StoredAttempt, StoredPurchaseDetails } from './purchases.js';

/** One creditor a payment pays, and how much (minor units). */
export interface CreditorShare {
  name: string;
  iban: string;
  amount: number;
}

/** Who a bank payment of the purchase pays: its creditors, or undefined when the merchant is paid. */
export function creditorShares(
  purchase: StoredPurchaseDetails,
): { kind: 'bulk' | 'variable'; shares: CreditorShare[] } | undefined {
  const details = purchase.payment_method_details;
  if (details.pis_bulk_purchase) {
    return {
      kind: 'bulk',
      shares: details.pis_bulk_purchase.map((creditor, index) => {
        const product = purchase.products[index];
        return {
          name: creditor.creditor_name,
          iban: creditor.creditor_iban,
          amount: product ? product.price * product.quantity : 0,
        };
      }),
    };
  }
  if (details.pis_purchase) {
    const { creditor } = details.pis_purchase;
    const amount =
      purchase.total ?? purchase.products.reduce((sum, product) => sum + product.price * product.quantity, 0);
    return { kind: 'variable', shares: [{ name: creditor.name, iban: creditor.iban, amount }] };
  }
  return undefined;
}

/**
 * The attempt of a successful payment to one creditor. `creditor` and `amount` are the sandbox's own members:
 * the document does not show how the gateway records a bulk payment's creditors.
 */
export interface CreditorPaymentAttempt extends StoredAttempt {
  creditor: { name: string; iban: string };
  /** Minor units paid to this creditor. */
  amount: number;
}

/** One successful attempt per creditor, in the creditors' order, made of the payment's own attempt. */
export function creditorAttempts(
  purchase: StoredPurchaseDetails,
  attempt: StoredAttempt,
): CreditorPaymentAttempt[] | undefined {
  return creditorShares(purchase)?.shares.map((share) => ({
    ...attempt,
    creditor: { name: share.name, iban: share.iban },
    amount: share.amount,
  }));
}
