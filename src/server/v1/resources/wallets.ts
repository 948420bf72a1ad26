/**
 * Wallet payments posted server to server: `POST {base_url}/p/{purchase_id}/`, beside `/api/v1`, form-encoded,
 * and the three shapes the gateway answers with.
 */
import { isPlainObject } from '../../../core/plain-object.js';
import type { WalletBPaymentAnswer, WalletPaymentFailure } from '../../../core/v1-types.js';
import { errorMessage, segment, shown, type V1Core, type V1RequestOptions } from '../client-core.js';
import { V1ApiError } from '../errors.js';

/**
 * A payment of a mobile wallet, for {@link V1Wallets.pay}: the wallet's payload as its JavaScript API gave
 * it, parsed (an object, not a JSON text).
 */
export type WalletPayment =
  | {
      /** Wallet A. */
      method: 'svc_wallet_a';
      /** The `paymentData` part of wallet A's payload; sent as the form field `token`, Base64 of its JSON. */
      paymentData: unknown;
    }
  | {
      /** Wallet B. */
      method: 'svc_wallet_b';
      /** Wallet B's whole payload; sent as the form field `data`, Base64 of its JSON. */
      payload: unknown;
    };

/** What the gateway made of a wallet payment: switch on `kind`. */
export type WalletPaymentResult =
  | {
      /** Taken: the outcome comes by webhook (`purchase.paid` or `purchase.payment_failure`). */
      kind: 'accepted';
      /** The gateway's text (it tells the caller to wait for the webhook). */
      status: string;
    }
  | {
      /** Wallet B: the customer must pass 3-D Secure first. */
      kind: 'three_ds';
      /** Send the customer here (an absolute URL): `response.threeDsRedirectUrl` of the answer. */
      redirectUrl: string;
      /** The answer as the gateway sent it. */
      answer: WalletBPaymentAnswer;
    }
  | {
      /** Wallet B: taken without a 3-D Secure step (`result: 'SUCCESS'`, no redirect URL). */
      kind: 'approved';
      /** The answer as the gateway sent it. */
      answer: WalletBPaymentAnswer;
    }
  | {
      /** The wallet's gateway declined (`result: 'FAILURE'`). */
      kind: 'declined';
      /** Why, as the wallet gateway's code. */
      gatewayCode: string;
      /** The answer as the gateway sent it. */
      answer: WalletPaymentFailure;
    };

/** Wallet payments, posted server to server. */
export interface V1Wallets {
  /**
   * `POST {base_url}/p/{purchase_id}/` (beside `/api/v1`, not under it), form-encoded: `pm` (the method),
   * `s2s=true`, and `token` (wallet A) or `data` (wallet B). The Purchase must have the method in its
   * `payment_method_whitelist`. A decline resolves as `kind: 'declined'`, whether it came with 400 or 2xx.
   * @throws V1ApiError `invalid_request` before sending when the method is not one of the two, or the payload
   *   is not an object that can be written as JSON; `bad_request` when the gateway refused the post
   *   (a method the Purchase does not allow, say); `not_found`; `invalid_response` for an answer of none of
   *   the document's shapes.
   * @example
   * ```ts
   * const result = await v1.wallets.pay(purchase.id, { method: 'svc_wallet_b', payload: walletPayload });
   * if (result.kind === 'three_ds') res.redirect(303, result.redirectUrl);
   * else if (result.kind === 'declined') res.status(402).send(`Declined (${result.gatewayCode})`);
   * else res.send('Thank you: we confirm your payment as soon as it arrives.'); // then wait for the webhook
   * ```
   */
  pay(purchaseId: string, payment: WalletPayment, options?: V1RequestOptions): Promise<WalletPaymentResult>;
}

/** The form of a wallet post: `pm`, `s2s` and the payload as Base64 of its JSON. */
function walletForm(payment: unknown): URLSearchParams {
  if (!isPlainObject(payment)) {
    throw new V1ApiError(
      'invalid_request',
      "The wallet payment must be an object: { method: 'svc_wallet_a', paymentData } or " +
        "{ method: 'svc_wallet_b', payload }",
    );
  }
  const [field, member] =
    payment['method'] === 'svc_wallet_a'
      ? ['token', 'paymentData']
      : payment['method'] === 'svc_wallet_b'
        ? ['data', 'payload']
        : [];
  if (field === undefined || member === undefined) {
    throw new V1ApiError(
      'invalid_request',
      `method must be 'svc_wallet_a' or 'svc_wallet_b', not ${shown(payment['method'])}`,
    );
  }
  const value = payment[member];
  // A JSON text given as it is would be encoded twice and reach the gateway as a string.
  if (!isPlainObject(value)) {
    throw new V1ApiError(
      'invalid_request',
      `${member} must be the wallet's payload as an object (JSON.parse it if you hold its JSON text), not ${
        typeof value === 'string' ? 'a string' : shown(value)
      }`,
    );
  }
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new V1ApiError('invalid_request', `${member} cannot be written as JSON: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return new URLSearchParams([
    ['pm', payment['method'] as string],
    ['s2s', 'true'],
    [field, Buffer.from(json, 'utf8').toString('base64')],
  ]);
}

function isWalletFailure(value: unknown): value is WalletPaymentFailure {
  if (!isPlainObject(value) || !isPlainObject(value['error_response'])) return false;
  const { response, result } = value['error_response'];
  return result === 'FAILURE' && isPlainObject(response) && typeof response['gatewayCode'] === 'string';
}

function isAbsoluteHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

function isWalletBAnswer(value: unknown): value is WalletBPaymentAnswer {
  if (!isPlainObject(value) || value['result'] !== 'SUCCESS') return false;
  const { response, order, transaction } = value;
  if (!isPlainObject(response) || !isPlainObject(order) || !isPlainObject(transaction)) return false;
  const redirect = response['threeDsRedirectUrl'];
  return (
    typeof response['gatewayCode'] === 'string' &&
    (redirect === null || (typeof redirect === 'string' && isAbsoluteHttpUrl(redirect)))
  );
}

/** A wallet post's answer as one of the document's three shapes. */
function walletResult(answer: unknown, what: string): WalletPaymentResult {
  if (isWalletFailure(answer)) {
    return { kind: 'declined', gatewayCode: answer.error_response.response.gatewayCode, answer };
  }
  if (isWalletBAnswer(answer)) {
    const redirectUrl = answer.response.threeDsRedirectUrl;
    return redirectUrl === null ? { kind: 'approved', answer } : { kind: 'three_ds', redirectUrl, answer };
  }
  if (isPlainObject(answer) && !('result' in answer) && typeof answer['status'] === 'string') {
    return { kind: 'accepted', status: answer['status'] };
  }
  throw new V1ApiError(
    'invalid_response',
    `${what} answered none of the wallet answers: {status}, a result SUCCESS with response.gatewayCode and ` +
      'an absolute response.threeDsRedirectUrl or null, or {error_response: {result: FAILURE}}',
    { body: answer },
  );
}

export function walletsResource({ send, settings }: V1Core): V1Wallets {
  return {
    async pay(purchaseId, payment, callOptions) {
      const form = walletForm(payment);
      const url = new URL(`${settings.gateway}/p/${segment(purchaseId, 'purchaseId')}/`);
      let answer: unknown;
      try {
        answer = await send('POST', url, form, callOptions);
      } catch (error) {
        // The decline is an answer, not a failure of the call: the sandbox sends it with 400.
        if (error instanceof V1ApiError && error.status === 400 && isWalletFailure(error.body)) {
          return walletResult(error.body, `POST ${url.pathname}`);
        }
        throw error;
      }
      return walletResult(answer, `POST ${url.pathname}`);
    },
  };
}
