/**
 * The v1 interface's limits, held once for the toolkit's checks before sending and the sandbox's answers, so that
 * neither takes what the other refuses (the v1 document's "Limits").
 */

/** The largest amount in minor units a v1 request takes: a price, a total, a capture or a refund. */
export const V1_MAX_AMOUNT = 100_000_000_000;

/** A refund's `client_name`, in characters (code points, so accents and emoji count as one each). */
export const REFUND_CLIENT_NAME_MAX_LENGTH = 70;

/**
 * What is wrong with a refund's `client_name`, or `undefined` when it may be sent. A blank name is refused rather
 * than sent: leaving the member out is how a refund takes the Purchase's client name.
 */
export function refundClientNameProblem(name: string): 'blank' | 'max_length' | undefined {
  if (name.trim() === '') return 'blank';
  if ([...name].length > REFUND_CLIENT_NAME_MAX_LENGTH) return 'max_length';
  return undefined;
}
