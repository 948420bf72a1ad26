/**
 * Type test of the v1 client's Purchase operations, its wallet post and the `payment.refunded` webhook, as a
 * merchant's server code meets them through `svc-checkout/server`. Compiled by the typecheck
 * (`tsc -p tsconfig.json`), never run: each `@ts-expect-error` must meet an error, or the typecheck fails, so
 * each proves a mistake is caught.
 */
import {
  type Payment,
  type Purchase,
  type PurchaseFailureCause,
  readFailureCause,
  type V1Client,
  type V1WebhookEvent,
  type WalletPaymentResult,
} from 'svc-checkout/server';

export async function operations(v1: V1Client, id: string, tokenId: string): Promise<void> {
  const payment: Payment = await v1.purchases.refund(id, { amount: 500, client_name: 'Anna Tester' });
  const refunded: string = payment.related_to.id;
  // @ts-expect-error a refund resolves the Payment it created, not the Purchase
  const notPurchase: Purchase = await v1.purchases.refund(id);
  // @ts-expect-error a Payment is pending or paid, never on hold
  if (payment.status === 'hold') console.log(payment);

  const captured: Purchase = await v1.purchases.capture(id, { amount: 500 });
  await v1.purchases.capture(id);
  // @ts-expect-error amounts are whole minor units, not decimal text
  await v1.purchases.capture(id, { amount: '5.00' });
  // @ts-expect-error release takes no body: it releases all that is held
  await v1.purchases.release(id, { amount: 500 });

  await v1.purchases.charge(id, { recurring_token: tokenId });
  // @ts-expect-error charge needs the token Purchase's id
  await v1.purchases.charge(id);
  // @ts-expect-error the member is recurring_token
  await v1.purchases.charge(id, { token: tokenId });

  await v1.purchases.markAsPaid(id, { paid_on: 1_900_000_000 });
  // @ts-expect-error paid_on is a Unix timestamp in seconds, not a Date
  await v1.purchases.markAsPaid(id, { paid_on: new Date() });
  const invoiced: Purchase = await v1.purchases.resendInvoice(id);
  const untokened: boolean = (await v1.purchases.deleteRecurringToken(id)).is_recurring_token;

  const cause: PurchaseFailureCause | undefined = await v1.purchases.failureCause(id);
  // @ts-expect-error there is no cause when the newest attempt succeeded
  const always: string = (await v1.purchases.failureCause(id)).code;
  const method = readFailureCause(captured)?.attempt.payment_method;
  console.log(refunded, notPurchase, invoiced, untokened, cause, always, method);
}

export async function wallets(v1: V1Client, id: string, walletPayload: object): Promise<string> {
  await v1.wallets.pay(id, { method: 'svc_wallet_a', paymentData: walletPayload });
  // @ts-expect-error wallet A sends its paymentData; payload is wallet B's
  await v1.wallets.pay(id, { method: 'svc_wallet_a', payload: walletPayload });
  // @ts-expect-error there are two wallets
  await v1.wallets.pay(id, { method: 'svc_wallet_c', payload: walletPayload });
  const result: WalletPaymentResult = await v1.wallets.pay(id, {
    method: 'svc_wallet_b',
    payload: walletPayload,
  });
  // @ts-expect-error only the three_ds outcome has a redirect URL: narrow on kind first
  console.log(result.redirectUrl);
  switch (result.kind) {
    case 'three_ds':
      return result.redirectUrl;
    case 'approved': {
      const code: string = result.answer.response.gatewayCode;
      const amount: number = result.answer.transaction.amount;
      return `${code} ${amount}`;
    }
    case 'declined': {
      const outcome: 'FAILURE' = result.answer.error_response.result;
      return `${outcome}: ${result.gatewayCode}`;
    }
    case 'accepted':
      // @ts-expect-error an accepted post carries the gateway's status text, no answer object
      console.log(result.answer);
      return result.status;
  }
}

export function webhook(event: V1WebhookEvent): void {
  if (event.event_type === 'payment.refunded') {
    const amount: number = event.payment.amount;
    const purchaseId: string = event.related_to.id;
    const paidOn: number = event.payment.paid_on;
    // @ts-expect-error a Payment has no payment attempts: those are the Purchase's
    console.log(amount, purchaseId, paidOn, event.transaction_data.attempts);
  } else {
    // @ts-expect-error a Purchase event is no Payment
    console.log(event.related_to);
  }
}
