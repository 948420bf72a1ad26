/**
 * Idempotent receivers of v1 callbacks and webhooks, and of legacy notifications (the legacy receiver uses it
 * with its own key prefix, so both wings share it and it lives in the root). The gateway delivers at least
 * once: an acknowledgement lost on the way makes it send the same event again. The deduplicator tells a first delivery from its
 * repeats, so the order is fulfilled once, and a delivery whose handling failed is handled again when the
 * gateway retries it.
 *
 * How: a "done" marker per event, plus a short processing lease taken atomically with the store's `claim`,
 * so that two copies arriving at once (on one server or on several sharing a store) are not both handled.
 * The marker is written only when handling succeeded; a failed or crashed handler leaves none, and the lease
 * lapses.
 *
 * A memory alone forgets (issue 9: after its 48 hours, or after 100 000 other events, a replay was handled
 * again). So the deduplicator also refuses, before it touches the store, an event whose Purchase snapshot is
 * older than `toleranceMs` (by `updated_on`, else `created_on`), and keeps each marker until its event is
 * that old: a replay inside the tolerance meets the marker, one outside it is refused by its age. The
 * default in-memory store refuses new markers when full rather than drop live ones.
 */
import { randomUUID } from 'node:crypto';
import { SvcError } from '../core/errors.js';
import { type CacheStore, MemoryCacheStore } from './cache-store.js';
import { durationOption } from './durations.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isString,
  MILLISECONDS,
  nowRule,
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
  /** When the object was created (Unix seconds), when the gateway sends it. */
  created_on?: unknown;
}

/** Why the deduplicator refused an event. */
export type EventDeduplicatorErrorCode =
  /** The event's snapshot is older than `toleranceMs`: a replay, or a delivery later than any retry. */
  'event_too_old';

/** An event the deduplicator refuses to claim; nothing was read from or written to the store. */
export class EventDeduplicatorError extends SvcError<EventDeduplicatorErrorCode> {
  /** When the event's object last changed (`updated_on`, else `created_on`), in milliseconds. */
  readonly eventTime: number;
  /** The tolerance it is past, in milliseconds. */
  readonly toleranceMs: number;

  constructor(code: EventDeduplicatorErrorCode, message: string, eventTime: number, toleranceMs: number) {
    super(code, message);
    this.eventTime = eventTime;
    this.toleranceMs = toleranceMs;
  }
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
   * @throws EventDeduplicatorError `event_too_old` when the event is older than `toleranceMs` (do not handle
   *   it; answer 400, and check the Purchase with `GET /purchases/{id}/` if it matters).
   * @throws the store's error when it cannot be read or written (answer 5xx: the gateway retries).
   */
  claim(event: DeduplicatedEvent): Promise<EventClaim>;
  /**
   * Runs `handler` for the first delivery of the event only. When it throws, the claim is released and the
   * error rethrown, so the gateway's retry runs it again.
   * @throws what `handler` throws, EventDeduplicatorError as {@link claim}, or the store's error.
   */
  once<Value>(event: DeduplicatedEvent, handler: () => Value | Promise<Value>): Promise<OnceResult<Value>>;
}

/** Options of {@link createEventDeduplicator}. */
export interface EventDeduplicatorOptions {
  /**
   * Where the markers live. Left out: a store in this process's memory that holds up to 1 000 000 keys and,
   * when full, refuses new events (the claim rejects, answer 5xx, the gateway retries) rather than forget a
   * marker. Give every server of a fleet the same shared store (`createRedisCacheStore`) so a repeat that
   * reaches another server is still told apart; a Redis that evicts keys under memory pressure forgets, so
   * run it with `maxmemory-policy noeviction`.
   */
  store?: CacheStore;
  /**
   * How old an event may be, in milliseconds, by its object's `updated_on` (else `created_on`) on the clock
   * `now`; older ones are refused with `event_too_old`. 48 hours when left out: the gateway retries for 36
   * hours, and 12 more cover a late clock. An event with neither timestamp is not refused by age; only its
   * marker (`ttlMs`) guards it.
   */
  toleranceMs?: number;
  /**
   * How long a handled event is remembered at least, in milliseconds; `toleranceMs` when left out. A marker
   * is kept longer when its event stays within the tolerance for longer (a timestamp ahead of this clock).
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
  /** The clock that decides an event's age, in milliseconds; `Date.now` when left out. */
  now?: () => number;
}

const OWNER = 'createEventDeduplicator';

/**
 * The default store's bound. A marker takes about 250 bytes of heap (UUID ids, the default prefix), so at most
 * about 250 MB; it is reached only by a million events within the tolerance, far beyond one shop's process.
 */
const DEFAULT_MAX_MARKERS = 1_000_000;

const DEDUPLICATOR_OPTIONS: OptionRules<EventDeduplicatorOptions> = {
  store: storeRule,
  toleranceMs: optional(MILLISECONDS, isNumber),
  ttlMs: optional(MILLISECONDS, isNumber),
  processingLeaseMs: optional(MILLISECONDS, isNumber),
  keyPrefix: optional('a string', isString),
  identify: optional('a function (event) => the key that identifies it, such as v1EventKey', isFunction),
  now: nowRule,
};

/**
 * When the event's object last changed, in milliseconds: `updated_on`, else `created_on` (Unix seconds, as
 * the gateway writes them). Undefined when the event has neither as a finite number.
 */
export function v1EventTime(event: DeduplicatedEvent): number | undefined {
  for (const seconds of [event.updated_on, event.created_on]) {
    if (typeof seconds === 'number' && Number.isFinite(seconds)) return seconds * 1000;
  }
  return undefined;
}

function hours(ms: number): string {
  return `${Math.round((ms / 3_600_000) * 10) / 10} h`;
}

/**
 * The default identity of an event: `event_type`, `id`, and the snapshot's `status` and `updated_on` when
 * present. A repeated delivery carries the same snapshot, so it has the same key; a later event of the same
 * kind (a second failed payment attempt of one Purchase) has a later `updated_on`, so it does not. A success
 * callback and a webhook of the same event have the same key, so one deduplicator for both handles it once.
 */
export function v1EventKey(event: DeduplicatedEvent): string {
  const part = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? encodeKeyPart(String(value)) : '';
  return [event.event_type, event.id, event.status, event.updated_on].map(part).join(':');
}

/**
 * `encodeURIComponent`, which throws `URIError` on a lone surrogate (a forged id may carry one); those are
 * written `%uD800`, which the encoding never makes (it writes `%` as `%25`), so distinct ids keep distinct keys.
 */
function encodeKeyPart(text: string): string {
  return text
    .split(/(\p{Cs})/u)
    .map((piece, index) =>
      index % 2 === 1 ? `%u${piece.charCodeAt(0).toString(16).toUpperCase()}` : encodeURIComponent(piece),
    )
    .join('');
}

/**
 * A deduplicator for a receiver of v1 callbacks or webhooks.
 * @throws TypeError naming the option when one is unknown or of the wrong kind.
 * @throws RangeError when a duration is not a positive number of milliseconds.
 * @example
 * ```ts
 * const events = createEventDeduplicator();
 * app.post('/svc/v1/webhook', async (req, res) => {
 *   const event = await constructWebhookEvent(req, webhookPublicKeyPem, { brandId });
 *   const result = await events.once(event, () => orders.apply(event));
 *   res.sendStatus(result.status === 'in_progress' ? 409 : 204);
 * });
 * ```
 */
export function createEventDeduplicator(options: EventDeduplicatorOptions = {}): EventDeduplicator {
  checkOptions(OWNER, options, DEDUPLICATOR_OPTIONS);
  const now = options.now ?? Date.now;
  const store =
    options.store ?? new MemoryCacheStore({ maxEntries: DEFAULT_MAX_MARKERS, whenFull: 'refuse', now });
  const toleranceMs = durationOption(OWNER, 'toleranceMs', options.toleranceMs, 48 * 3_600_000);
  const ttlMs = durationOption(OWNER, 'ttlMs', options.ttlMs, toleranceMs);
  const leaseMs = durationOption(OWNER, 'processingLeaseMs', options.processingLeaseMs, 60_000);
  const prefix = options.keyPrefix ?? 'svc-checkout:v1-event:';
  const identify = options.identify ?? v1EventKey;

  /**
   * The event's time, when it has one within the tolerance.
   * @throws EventDeduplicatorError when the event is past the tolerance.
   */
  function checkAge(event: DeduplicatedEvent): number | undefined {
    const eventTime = v1EventTime(event);
    if (eventTime === undefined) return undefined;
    const remaining = eventTime + toleranceMs - now();
    if (remaining <= 0) {
      throw new EventDeduplicatorError(
        'event_too_old',
        `The ${String(event.event_type)} event of ${String(event.id)} is from ${new Date(eventTime).toISOString()}, ` +
          `${hours(toleranceMs - remaining)} ago, past the ${hours(toleranceMs)} tolerance: a replay, or a ` +
          "delivery later than the gateway's retries. It was not handled; check the object's state with " +
          'the gateway (GET /purchases/{id}/) if it matters, or raise toleranceMs if your clock is behind.',
        eventTime,
        toleranceMs,
      );
    }
    return eventTime;
  }

  /** How long a marker written now is kept: `ttlMs`, or until its event is past the tolerance if later. */
  function markerTtl(eventTime: number | undefined): number {
    return eventTime === undefined ? ttlMs : Math.max(ttlMs, eventTime + toleranceMs - now());
  }

  async function claim(event: DeduplicatedEvent): Promise<EventClaim> {
    // Checked before the store is touched: a flood of old replays costs no store round trip.
    const eventTime = checkAge(event);
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
        await store.set(key, String(now()), markerTtl(eventTime));
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
