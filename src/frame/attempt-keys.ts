/**
 * Idempotency keys of payment attempts. One key stands for one attempt until the gateway has answered it;
 * sending the same key again never charges again. The key of an unanswered attempt is kept in
 * `sessionStorage` under the gateway's order id, so a double click, a lost answer or a reload of the frame
 * repeats that attempt instead of starting a second one. Only the key is stored, never card data.
 */

const PREFIX = 'svc-checkout.attempt.';

/** The keys of the attempts still waiting for an answer, by gateway order id. */
export interface AttemptKeys {
  /** The key to send: the unanswered attempt's, or a new one that is kept until `settle`. */
  begin(orderId: string): string;
  /** The attempt has its answer; the next payment is a new attempt. */
  settle(orderId: string): void;
}

/**
 * Keys kept in `storage` (the frame's `sessionStorage`), or in memory when storage is missing or refuses
 * (storage can be disabled, or full): then a reload loses the key, but the gateway's order state still
 * tells the frame what happened.
 */
export function createAttemptKeys(
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | undefined,
  newKey: () => string = () => crypto.randomUUID(),
): AttemptKeys {
  const memory = new Map<string, string>();
  const read = (orderId: string): string | undefined => {
    try {
      const stored = storage?.getItem(PREFIX + orderId);
      if (stored) return stored;
    } catch {}
    return memory.get(orderId);
  };
  return {
    begin(orderId) {
      const existing = read(orderId);
      if (existing) return existing;
      const key = newKey();
      memory.set(orderId, key);
      try {
        storage?.setItem(PREFIX + orderId, key);
      } catch {}
      return key;
    },
    settle(orderId) {
      memory.delete(orderId);
      try {
        storage?.removeItem(PREFIX + orderId);
      } catch {}
    },
  };
}

/** The frame's `sessionStorage`, or undefined where reading it throws (storage blocked for the frame). */
export function sessionStorageOrUndefined(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
