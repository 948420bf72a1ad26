/**
 * Wallet payments, server to server: `POST {base_url}/p/{purchase_id}/` and its answers.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

/** The payment method names of the two mobile wallets, as the form field `pm` carries them. */
export type WalletMethod = 'svc_wallet_a' | 'svc_wallet_b';

/** The success answer of a wallet post: the payment is under way; its outcome comes by webhook. */
export interface WalletPaymentAccepted {
  /** Text that tells the caller to wait for the webhook. */
  status: string;
}

/**
 * Wallet B's answer when the wallet's gateway took the payment (`result: 'SUCCESS'`). With a non-null
 * `response.threeDsRedirectUrl` the customer must pass 3-D Secure there first. The document names these
 * members but not their types: the amounts are JSON numbers (the document does not give their unit), the
 * rest strings.
 */
export interface WalletBPaymentAnswer {
  /** The wallet gateway's id of the merchant. */
  merchant: string;
  /** The order at the wallet's gateway. */
  order: {
    /** The order's amount. */
    amount: number;
    /** When the order was created (ISO 8601). */
    creationTime: string;
    /** ISO 4217. */
    currency: string;
    /** The wallet gateway's id of the order. */
    id: string;
    /** When the order last changed (ISO 8601). */
    lastUpdatedTime: string;
    /** How much of it was refunded. */
    totalRefundedAmount: number;
    /** How much of it was authorized. */
    totalAuthorizedAmount: number;
    /** How much of it was captured. */
    totalCapturedAmount: number;
    /** How much of it was paid out. */
    totalDisbursedAmount: number;
    /** ISO 4217: the merchant's settlement currency. */
    merchantCurrency: string;
  };
  /** The wallet gateway's outcome. */
  response: {
    /** The wallet gateway's outcome code. */
    gatewayCode: string;
    /** Where to send the customer for 3-D Secure; null when no challenge is needed. */
    threeDsRedirectUrl: string | null;
  };
  /** Always `SUCCESS` in this answer (a failure has {@link WalletPaymentFailure}'s shape). */
  result: 'SUCCESS';
  /** The transaction at the wallet's gateway. */
  transaction: {
    /** The wallet gateway's id of the transaction. */
    id: string;
    /** The transaction's amount. */
    amount: number;
    /** ISO 4217. */
    currency: string;
    /** The kind of transaction, such as an authorization or a payment. */
    type: string;
    /** The acquirer's retrieval reference number. */
    retRefNr: string;
  };
}

/**
 * The failure answer of a wallet post. The sandbox sends it with HTTP 400 (a processing error, as the
 * document's Errors table calls a 400); the toolkit's client takes it with any 2xx status too.
 */
export interface WalletPaymentFailure {
  /** What the wallet's gateway answered. */
  error_response: {
    /** Its outcome. */
    response: {
      /** Why the wallet's gateway declined, as its code. */
      gatewayCode: string;
      /** Always null: there is no 3-D Secure step to take. */
      threeDsRedirectUrl: null;
    };
    /** Always `FAILURE`. */
    result: 'FAILURE';
  };
}

/** Every answer of a wallet post the document shows. */
export type WalletPaymentAnswer = WalletPaymentAccepted | WalletBPaymentAnswer | WalletPaymentFailure;
