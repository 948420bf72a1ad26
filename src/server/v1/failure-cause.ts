/**
 * Why a capture, release, charge or refund failed. The gateway's 400 (`purchase_capture_error`, ...) says
 * only that it failed; the cause is in the Purchase, in its newest payment attempt (the document's rule 4:
 * `transaction_data.attempts[]`, newest first, member `error`).
 */
import { isPlainObject } from '../../core/plain-object.js';
import type { Purchase, PurchaseAttempt } from '../../core/v1-types.js';

/** The cause of a Purchase's failed operation, read from its newest attempt. */
export interface PurchaseFailureCause {
  /** The attempt's error code, as the gateway names it; `unknown` when its `error` carries none. */
  code: string;
  /**
   * The attempt's error text, for people (empty when the gateway gave none): its `message`, as the platform
   * writes it (or `description`, as earlier sandboxes wrote it).
   */
  description: string;
  /** The newest attempt, whose `error` this is. */
  attempt: PurchaseAttempt;
}

/**
 * The cause of the last failure of a Purchase: the `error` of its newest attempt
 * (`transaction_data.attempts[0]`). A Purchase from anywhere will do: `GET /purchases/{id}/`, a success
 * callback, a webhook.
 * @returns undefined when the newest attempt carries no error (it succeeded) or there is no attempt.
 * @example
 * ```ts
 * const cause = readFailureCause(await v1.purchases.get(id));
 * if (cause) log.warn(`capture of ${id} failed: ${cause.code} ${cause.description}`);
 * ```
 */
export function readFailureCause(
  purchase: Pick<Purchase, 'transaction_data'>,
): PurchaseFailureCause | undefined {
  // Read defensively: a webhook body is typed by what the gateway should send, not by what it did.
  const attempts: unknown = isPlainObject(purchase?.transaction_data)
    ? purchase.transaction_data.attempts
    : undefined;
  const newest: unknown = Array.isArray(attempts) ? attempts[0] : undefined;
  if (!isPlainObject(newest) || !isPlainObject(newest['error'])) return undefined;
  const { code, message, description } = newest['error'];
  const text = typeof message === 'string' ? message : description;
  return {
    // An error without a code still means the attempt failed: say so rather than report no failure.
    code: typeof code === 'string' && code !== '' ? code : 'unknown',
    description: typeof text === 'string' ? text : '',
    attempt: newest as unknown as PurchaseAttempt,
  };
}
