/**
 * Idempotent receivers of v1 callbacks and webhooks. The gateway delivers at least once: an acknowledgement
 * lost on the way makes it send the same event again. The deduplicator tells a first delivery from its
 * repeats, so the order is fulfilled once, and a delivery whose handling failed is handled again when the
 * gateway retries it.
 *
 * How: a "done" marker per event, kept for `ttlMs` (longer than the gateway's 36 hours of retries), plus a
 * short processing lease taken atomically with the store's `claim`, so that two copies arriving at once (on
 * one server or on several sharing a store) are not both handled. The marker is written only when handling
 * succeeded; a failed or crashed handler leaves none, and the lease lapses.
 */
import { randomUUID } from 'node:crypto';
import { type CacheStore, MemoryCacheStore } from './cache-store.js';
import { durationOption } from './durations.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isString,
  MILLISECONDS,
  type OptionRules,
  optional,
  storeRule,
} from './options.js';

/** What identifies an event: members every v1 callback and webhook body has. */
export interface DeduplicatedEvent {
  id: string;
  event_type: string;
  /** The Purchase's status in the snapshot, when the object has one. */
  status?: unknown;
  /** When the object last changed (Unix seconds), when the gateway sends it. */
  updated_on?: unknown;
}

/**
 * The outcome of {@link EventDeduplicator.claim}:
 * - `first`: handle it, then call `complete()`; call `release()` when handling failed, so a retry is handled.
 * - `duplicate`: handled before; answer 2xx and do nothing.
 * - `in_progress`: another copy is being handled right now; answer non-2xx (409 or 503) so the gateway
 *   tries again later, in case that handling fails.
 */
export type EventClaim =
  | { status: 'first'; key: string; complete(): Promise<void>; release(): Promise<void> }
  | { status: 'duplicate'; key: string }
  | { status: 'in_progress'; key: string };

/** The outcome of {@link EventDeduplicator.once}. */
export type OnceResult<Value> =
  | { status: 'processed'; value: Value }
  | { status: 'duplicate' }
  | { status: 'in_progress' };

/** Tells first deliveries of events from repeats. */
export interface EventDeduplicator {
  /**
   * Claims the event for handling.
   * @throws the store's error when it cannot be read or written (answer 5xx: the gateway retries).
   */
  claim(event: DeduplicatedEvent): Promise<EventClaim>;
  /**
   * Runs `handler` for the first delivery of the event only. When it throws, the claim is released and the
   * error rethrown, so the gateway's retry runs it again.
   * @throws what `handler` throws, or the store's error.
   */
  once<Value>(event: DeduplicatedEvent, handler: () => Value | Promise<Value>): Promise<OnceResult<Value>>;
}

/** Options of {@link createEventDeduplicator}. */
export interface EventDeduplicatorOptions {
  /**
   * Where the markers live; an in-memory store of this process (100 000 events) when left out. Give every
   * server of a fleet the same shared store (see `createRedisCacheStore`) so a repeat that reaches another
   * server is still told apart.
   */
  store?: CacheStore;
  /**
   * How long a handled event is remembered, in milliseconds; 48 hours when left out, beyond the gateway's
   * 36 hours of retries.
   */
  ttlMs?: number;
  /**
   * How long a claim holds while the event is handled, in milliseconds; 60 000 when left out. A handler that
   * crashed without releasing frees the event after this.
   */
  processingLeaseMs?: number;
  /** Put before every key in the store; `svc-checkout:v1-event:` when left out. */
  keyPrefix?: string;
  /** The event's identity; {@link v1EventKey} when left out. */
  identify?: (event: DeduplicatedEvent) => string;
}

const OWNER = 'createEventDeduplicator';

const DEDUPLICATOR_OPTIONS: OptionRules<EventDeduplicatorOptions> = {
  store: storeRule,
  ttlMs: optional(MILLISECONDS, isNumber),
  processingLeaseMs: optional(MILLISECONDS, isNumber),
  keyPrefix: optional('a string', isString),
  identify: optional('a function (event) => the key that identifies it, such as v1EventKey', isFunction),
};

/**
 * The default identity of an event: `event_type`, `id`, and the snapshot's `status` and `updated_on` when
 * present. A repeated delivery carries the same snapshot, so it has the same key; a later event of the same
 * kind (a second failed payment attempt of one Purchase) has a later `updated_on`, so it does not. A success
 * callback and a webhook of the same event have the same key, so one deduplicator for both handles it once.
 */
export function v1EventKey(event: DeduplicatedEvent): string {
  const part = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? encodeURIComponent(String(value)) : '';
  return [event.event_type, event.id, event.status, event.updated_on].map(part).join(':');
}

/**
 * A deduplicator for a receiver of v1 callbacks or webhooks.
 * @throws TypeError naming the option when one is unknown or of the wrong kind.
 * @throws RangeError when a duration is not a positive number of milliseconds.
 * @example
 * ```ts
 * const events = createEventDeduplicator();
 * app.post('/svc/v1/webhook', async (req, res) => {
 *   const event = await constructWebhookEvent(req, webhookPublicKeyPem);
 *   const result = await events.once(event, () => orders.apply(event));
 *   res.sendStatus(result.status === 'in_progress' ? 409 : 204);
 * });
 * ```
 */
export function createEventDeduplicator(options: EventDeduplicatorOptions = {}): EventDeduplicator {
  checkOptions(OWNER, options, DEDUPLICATOR_OPTIONS);
  const store = options.store ?? new MemoryCacheStore({ maxEntries: 100_000 });
  const ttlMs = durationOption(OWNER, 'ttlMs', options.ttlMs, 48 * 3_600_000);
  const leaseMs = durationOption(OWNER, 'processingLeaseMs', options.processingLeaseMs, 60_000);
  const prefix = options.keyPrefix ?? 'svc-checkout:v1-event:';
  const identify = options.identify ?? v1EventKey;

  async function claim(event: DeduplicatedEvent): Promise<EventClaim> {
    const key = prefix + identify(event);
    const leaseKey = `${key}:processing`;
    const isDone = async () => (await store.get(key)) !== undefined;
    if (await isDone()) return { status: 'duplicate', key };
    const token = randomUUID();
    if (!(await store.claim(leaseKey, token, leaseMs))) {
      // The holder may have finished between our two reads.
      return (await isDone()) ? { status: 'duplicate', key } : { status: 'in_progress', key };
    }
    // Another copy may have finished and let go of the lease between our read and our claim.
    if (await isDone()) {
      await store.release(leaseKey, token);
      return { status: 'duplicate', key };
    }
    let settled = false;
    return {
      status: 'first',
      key,
      async complete() {
        if (settled) return;
        settled = true;
        await store.set(key, String(Date.now()), ttlMs);
        // A release that fails leaves the lease to lapse; the marker already answers repeats.
        await store.release(leaseKey, token).catch(() => undefined);
      },
      async release() {
        if (settled) return;
        settled = true;
        await store.release(leaseKey, token);
      },
    };
  }

  return {
    claim,
    async once(event, handler) {
      const claimed = await claim(event);
      if (claimed.status !== 'first') return { status: claimed.status };
      let value: Awaited<ReturnType<typeof handler>>;
      try {
        value = await handler();
      } catch (error) {
        // The handler's error matters more than a release that failed (the lease lapses anyway).
        await claimed.release().catch(() => undefined);
        throw error;
      }
      await claimed.complete();
      return { status: 'processed', value };
    },
  };
}
