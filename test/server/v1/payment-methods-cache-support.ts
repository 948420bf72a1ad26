/**
 * Pieces shared by the payment-methods cache tests: a payment-methods answer, an upstream that counts its
 * calls, a clock the tests move by hand, and a store that cannot be read.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CacheStore, PaymentMethods, PaymentMethodsQuery } from '../../../src/server/index.js';

/** A payment-methods answer in the document's shape; `label` tells answers apart. */
export function paymentMethods(label = 'first'): PaymentMethods {
  return {
    available_payment_methods: ['visa', 'mastercard', 'swedbank_lv_pis'],
    by_country: { any: ['visa', 'mastercard'], lv: ['swedbank_lv_pis'] },
    country_names: { any: 'Other', lv: 'Latvia' },
    names: { visa: 'Visa', mastercard: 'Mastercard', swedbank_lv_pis: `Swedbank (${label})` },
    logos: {
      visa: '/logos/visa.svg',
      mastercard: '/logos/mastercard.svg',
      swedbank_lv_pis: ['/logos/swedbank.svg'],
    },
    card_methods: ['visa', 'mastercard'],
    payment_method_groups: [
      { name: 'card', logo: '/logos/card.svg', label: 'Card', methods: ['visa', 'mastercard'] },
    ],
  };
}

/** What the counting upstream does on its next call. */
export type UpstreamBehaviour =
  | { answer: PaymentMethods }
  | { fail: Error }
  | { hang: Promise<PaymentMethods> };

/** An upstream that records every call, takes `delayMs` to answer, and does what `behaviour` says. */
export class CountingUpstream {
  readonly calls: PaymentMethodsQuery[] = [];
  behaviour: UpstreamBehaviour = { answer: paymentMethods() };

  constructor(readonly delayMs = 20) {}

  /** The signal of each call, in order. */
  readonly signals: AbortSignal[] = [];

  readonly fetch = async (
    query: PaymentMethodsQuery,
    options: { signal: AbortSignal },
  ): Promise<PaymentMethods> => {
    this.calls.push(query);
    this.signals.push(options.signal);
    const behaviour = this.behaviour;
    await sleep(this.delayMs);
    if ('fail' in behaviour) throw behaviour.fail;
    if ('hang' in behaviour) return behaviour.hang;
    return structuredClone(behaviour.answer);
  };
}

/** A store whose every read fails with `message`, as a Redis that is down or refuses the command does. */
export function unreadableStore(message: string): CacheStore {
  return {
    get: async () => {
      throw new Error(message);
    },
    set: async () => undefined,
    claim: async () => true,
    release: async () => undefined,
  };
}

/** A clock that stands still until a test moves it. */
export class ManualClock {
  constructor(public time = Date.UTC(2026, 0, 15, 12, 0, 0)) {}

  readonly now = (): number => this.time;

  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * Runs `count` calls of `call(index)` spread over several turns of the event loop (a tenth at a time), so
 * that some arrive while a flight is under way rather than all in one synchronous burst. Settles them all;
 * each outcome is taken as soon as it comes, so an early rejection is never left unhandled.
 */
export async function burst<T>(
  count: number,
  call: (index: number) => Promise<T>,
): Promise<PromiseSettledResult<T>[]> {
  const pending: Promise<PromiseSettledResult<T>>[] = [];
  const wave = Math.ceil(count / 10);
  for (let index = 0; index < count; index++) {
    pending.push(
      call(index).then(
        (value) => ({ status: 'fulfilled', value }),
        (reason: unknown) => ({ status: 'rejected', reason }),
      ),
    );
    if ((index + 1) % wave === 0) await sleep(1);
  }
  return Promise.all(pending);
}

/** The values of settled calls; fails naming the first rejection. */
export function values<T>(results: PromiseSettledResult<T>[]): T[] {
  return results.map((result) => {
    if (result.status === 'rejected') throw result.reason;
    return result.value;
  });
}
