/**
 * The cached `GET /payment_methods/` lookup. The gateway rate-limits it and asks merchants to call it at most
 * once a minute, yet every checkout page wants the list: this cache makes at most one upstream call per
 * distinct query per minute however many requests arrive at once, and on a fleet of servers sharing a store.
 *
 * How: concurrent callers in one process share one flight; a flight reads the store and serves a fresh entry;
 * otherwise it claims the query's refresh in the store (atomic, with a lease), and only the claimant calls
 * the gateway while the others poll the store for the value it writes. When the gateway fails, the last good
 * value is served marked stale, and no new call is made before the failure back-off has passed.
 *
 * The store is the fleet's help, never its single point of failure (issue 9: a Redis outage answered 500 and
 * stalled 5 s while the gateway was healthy). Every store command has `storeTimeoutMs`; one that fails or
 * takes longer marks the store down, and lookups go on with a cache in this process's memory (which mirrors
 * what the store held) and the gateway, at most one call per query per minute per process. The store is
 * tried again every `storeRetryMs`, by one command at a time; the outage is reported once when it starts
 * and once when it ends.
 *
 * Memory: each query's entry lives `staleTtlMs` (10 minutes) from the gateway call that produced it, so a
 * store holds at most one entry per distinct query asked in the last `staleTtlMs`, each about the size of
 * the gateway's answer, plus a refresh claim per query being fetched.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SvcError } from '../../core/errors.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { PaymentMethods, PaymentMethodsQuery } from '../../core/v1-types.js';
import { type CacheStore, MemoryCacheStore } from '../cache-store.js';
import { durationOption } from '../durations.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isString,
  MILLISECONDS,
  nowRule,
  type OptionRules,
  optional,
  required,
  storeRule,
} from '../options.js';

export type { PaymentMethods, PaymentMethodsQuery };

/**
 * Calls the gateway: the v1 client's payment-methods lookup, or any fetch the merchant writes. `signal` aborts
 * when the refresh lease runs out; the cache stops waiting then whether or not the call heeds it.
 */
export type FetchPaymentMethods = (
  query: PaymentMethodsQuery,
  options: { signal: AbortSignal },
) => Promise<PaymentMethods>;

/** Why a refresh failed, as recorded in the store so that every server sharing it can tell. */
export interface RefreshFailure {
  /** When the failed upstream call was made (the cache's clock, milliseconds). */
  at: number;
  /** The upstream error's message. */
  message: string;
}

interface LookupBase {
  methods: PaymentMethods;
  /** When the upstream call that produced `methods` was made (the cache's clock, milliseconds). */
  fetchedAt: number;
  /** How old `methods` is, in milliseconds. */
  ageMs: number;
  /** How long this answer stays as it is, in milliseconds: no refresh is tried before then. */
  refreshInMs: number;
}

/**
 * A lookup's answer. `stale: false` is at most `ttlMs` old. `stale: true` is older and is served because the
 * refresh failed (or another server's refresh did not finish in time); `failure` says why.
 */
export type PaymentMethodsLookup =
  | (LookupBase & { stale: false })
  | (LookupBase & { stale: true; failure: RefreshFailure });

/** Why a lookup had nothing to answer. A store that fails is no reason: the cache goes on without it. */
export type PaymentMethodsCacheErrorCode =
  /** The gateway call failed (now, or within the back-off of an earlier failure) and nothing was cached. */
  | 'upstream_failed'
  /** Another server held the refresh longer than `waitTimeoutMs` and nothing was cached. */
  | 'refresh_timeout';

/** What {@link PaymentMethodsCacheOptions.onStoreOutage} is told: once when the store goes down, once when it is back. */
export type StoreOutageEvent =
  /** A store command failed or took longer than `storeTimeoutMs`; `error` is its error. */
  | { status: 'down'; error: unknown }
  /** The store answered again; `downForMs` is how long the outage lasted. */
  | { status: 'up'; downForMs: number };

/** A lookup that had nothing to answer, not even a stale value. */
export class PaymentMethodsCacheError extends SvcError<PaymentMethodsCacheErrorCode> {
  /** How long until a new attempt may succeed, in milliseconds. */
  readonly retryInMs: number;

  constructor(
    code: PaymentMethodsCacheErrorCode,
    message: string,
    retryInMs: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.retryInMs = retryInMs;
  }
}

/** Options of {@link PaymentMethodsCache}. */
export interface PaymentMethodsCacheOptions {
  /** The upstream call, made at most once per distinct query per `ttlMs`. */
  fetchPaymentMethods: FetchPaymentMethods;
  /**
   * Where entries live; a {@link MemoryCacheStore} of this process when left out. Give every server of a
   * fleet the same shared store (see `createRedisCacheStore`) for one upstream call per query for them all.
   */
  store?: CacheStore;
  /**
   * How long one command to `store` may take, in milliseconds; 200 when left out. A command that fails or
   * takes longer marks the store down: lookups then use this process's memory and the gateway.
   */
  storeTimeoutMs?: number;
  /** While the store is down, how often one command tries it again, in milliseconds; 5 000 when left out. */
  storeRetryMs?: number;
  /**
   * Told once when `store` goes down and once when it answers again, not per lookup; logs with
   * `console.warn` when left out.
   */
  onStoreOutage?: (event: StoreOutageEvent) => void;
  /** How long an answer is fresh, in milliseconds; 60 000 (the gateway's once a minute) when left out. */
  ttlMs?: number;
  /**
   * How long an answer is kept, in milliseconds from the gateway call that produced it: fresh for `ttlMs`,
   * then served stale while refreshes fail. Its key in the store expires then. 600 000 (10 minutes) when
   * left out; a longer time covers a longer gateway outage, and holds each distinct query's entry longer.
   */
  staleTtlMs?: number;
  /**
   * After a failed upstream call, how long to wait before the next one, in milliseconds; `ttlMs` when left
   * out, so that failures too count against the gateway's once a minute.
   */
  retryAfterFailureMs?: number;
  /**
   * How long a claimed refresh is held at most, in milliseconds; 30 000 when left out. It bounds the upstream
   * call too: one still running when the lease lapses is aborted and counts as failed, since another server
   * may call the gateway from then on.
   */
  refreshLeaseMs?: number;
  /** How long a caller waits for another server's refresh before giving up, in milliseconds; 10 000. */
  waitTimeoutMs?: number;
  /** How often a waiting caller looks at the store, in milliseconds; 25 when left out. */
  pollIntervalMs?: number;
  /**
   * Put before every key in the store; `svc-checkout:payment-methods:` when left out. Use one prefix per
   * secret key (test and live keys answer differently) when they share a store.
   */
  keyPrefix?: string;
  /** The clock that decides freshness, in milliseconds; `Date.now` when left out. */
  now?: () => number;
  /**
   * Told of every failed upstream call, once, on the server that made it; logs with `console.warn` when left
   * out, so a failing gateway behind stale answers is not silent.
   */
  onRefreshError?: (error: unknown, query: PaymentMethodsQuery) => void;
}

const OWNER = 'PaymentMethodsCache';

const CACHE_OPTIONS: OptionRules<PaymentMethodsCacheOptions> = {
  fetchPaymentMethods: required(
    "a function (query, {signal}) => the gateway's payment methods answer, such as v1.paymentMethods",
    isFunction,
  ),
  store: storeRule,
  storeTimeoutMs: optional(MILLISECONDS, isNumber),
  storeRetryMs: optional(MILLISECONDS, isNumber),
  onStoreOutage: optional('a function (event) => void', isFunction),
  ttlMs: optional(MILLISECONDS, isNumber),
  staleTtlMs: optional(MILLISECONDS, isNumber),
  retryAfterFailureMs: optional(MILLISECONDS, isNumber),
  refreshLeaseMs: optional(MILLISECONDS, isNumber),
  waitTimeoutMs: optional(MILLISECONDS, isNumber),
  pollIntervalMs: optional(MILLISECONDS, isNumber),
  keyPrefix: optional('a string', isString),
  now: nowRule,
  onRefreshError: optional('a function (error, query) => void', isFunction),
};

/** The query with codes in their ISO case and `false` filters left out (the gateway reads them as absent). */
export function normalizePaymentMethodsQuery(query: PaymentMethodsQuery): PaymentMethodsQuery {
  const normalized: PaymentMethodsQuery = {
    brand_id: query.brand_id,
    currency: query.currency.toUpperCase(),
  };
  if (query.country !== undefined) normalized.country = query.country.toUpperCase();
  if (query.language !== undefined) normalized.language = query.language.toLowerCase();
  if (query.recurring === true) normalized.recurring = true;
  if (query.skip_capture === true) normalized.skip_capture = true;
  if (query.preauthorization === true) normalized.preauthorization = true;
  return normalized;
}

/** The query as text with its parameters sorted by name: the same text for every equal query. */
export function paymentMethodsQueryKey(query: PaymentMethodsQuery): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(normalizePaymentMethodsQuery(query)))
    params.append(name, String(value));
  params.sort();
  return params.toString();
}

/** What the store holds per query: the last good answer, the last failure, or both. */
type Entry =
  | { methods: PaymentMethods; fetchedAt: number; failure?: RefreshFailure }
  | { methods?: undefined; fetchedAt?: undefined; failure: RefreshFailure };

const ENTRY_FORMAT = 1;

function readFailure(value: unknown): RefreshFailure | undefined {
  if (!isPlainObject(value) || typeof value['at'] !== 'number' || typeof value['message'] !== 'string')
    return;
  return { at: value['at'], message: value['message'] };
}

/** The stored entry, or undefined when there is none or it is not one this version wrote. */
function parseEntry(text: string | undefined): Entry | undefined {
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(raw) || raw['format'] !== ENTRY_FORMAT) return undefined;
  const failure = readFailure(raw['failure']);
  if (isPlainObject(raw['methods']) && typeof raw['fetchedAt'] === 'number') {
    const methods = raw['methods'] as unknown as PaymentMethods;
    return failure
      ? { methods, fetchedAt: raw['fetchedAt'], failure }
      : { methods, fetchedAt: raw['fetchedAt'] };
  }
  return failure ? { failure } : undefined;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The upstream call failed (now, or within the back-off of an earlier failure) and nothing is cached. */
function nothingCached(
  failure: RefreshFailure,
  retryInMs: number,
  options?: { cause: unknown },
): PaymentMethodsCacheError {
  return new PaymentMethodsCacheError(
    'upstream_failed',
    `The gateway's payment methods lookup failed and nothing is cached: ${failure.message}`,
    retryInMs,
    options,
  );
}

/** A shared store's outage: since when (performance time), when to try it next, whether a try runs. */
interface StoreOutage {
  since: number;
  retryAt: number;
  probing: boolean;
}

/** What a flight does with what it read from the store. */
type Decision =
  | { action: 'serve'; lookup: PaymentMethodsLookup }
  | { action: 'fail'; error: PaymentMethodsCacheError }
  | { action: 'refresh' };

/**
 * The payment-methods lookup behind a cache. Safe to share across every request of a process; make one per
 * upstream (secret key).
 *
 * @example
 * ```ts
 * const cache = new PaymentMethodsCache({ fetchPaymentMethods: (query) => v1.paymentMethods(query) });
 * const answer = await cache.get({ brand_id: brandId, currency: 'EUR', country: 'LV' });
 * if (answer.stale) console.warn('gateway failing since', new Date(answer.failure.at));
 * ```
 */
export class PaymentMethodsCache {
  readonly #fetch: FetchPaymentMethods;
  /** The merchant's store, when one was given. */
  readonly #shared: CacheStore | undefined;
  /** The store of this process: the only one when none was given, else the fallback and mirror of `#shared`. */
  readonly #local = new MemoryCacheStore();
  readonly #storeTimeoutMs: number;
  readonly #storeRetryMs: number;
  readonly #onStoreOutage: (event: StoreOutageEvent) => void;
  /** Set while `#shared` is down. */
  #outage: StoreOutage | undefined;
  readonly #ttlMs: number;
  readonly #staleTtlMs: number;
  readonly #retryAfterFailureMs: number;
  readonly #refreshLeaseMs: number;
  readonly #waitTimeoutMs: number;
  readonly #pollIntervalMs: number;
  readonly #keyPrefix: string;
  readonly #now: () => number;
  readonly #onRefreshError: (error: unknown, query: PaymentMethodsQuery) => void;
  /** The flight per store key in this process, shared by every caller that arrives while it runs. */
  readonly #flights = new Map<string, Promise<PaymentMethodsLookup>>();

  /**
   * @throws TypeError naming the option when one is unknown, missing or of the wrong kind.
   * @throws RangeError when a duration is not a positive number of milliseconds.
   */
  constructor(options: PaymentMethodsCacheOptions) {
    checkOptions(OWNER, options, CACHE_OPTIONS);
    this.#fetch = options.fetchPaymentMethods;
    this.#shared = options.store;
    this.#storeTimeoutMs = durationOption(OWNER, 'storeTimeoutMs', options.storeTimeoutMs, 200);
    this.#storeRetryMs = durationOption(OWNER, 'storeRetryMs', options.storeRetryMs, 5_000);
    this.#onStoreOutage =
      options.onStoreOutage ??
      ((event) =>
        console.warn(
          event.status === 'down'
            ? `svc-checkout: the payment methods cache store is down (${errorMessage(event.error)}); lookups use this process's memory and the gateway until it answers again`
            : `svc-checkout: the payment methods cache store answers again after ${Math.round(event.downForMs / 1000)} s; lookups use it again`,
        ));
    this.#ttlMs = durationOption(OWNER, 'ttlMs', options.ttlMs, 60_000);
    this.#staleTtlMs = Math.max(
      this.#ttlMs,
      durationOption(OWNER, 'staleTtlMs', options.staleTtlMs, 600_000),
    );
    this.#retryAfterFailureMs = durationOption(
      OWNER,
      'retryAfterFailureMs',
      options.retryAfterFailureMs,
      this.#ttlMs,
    );
    this.#refreshLeaseMs = durationOption(OWNER, 'refreshLeaseMs', options.refreshLeaseMs, 30_000);
    this.#waitTimeoutMs = durationOption(OWNER, 'waitTimeoutMs', options.waitTimeoutMs, 10_000);
    this.#pollIntervalMs = durationOption(OWNER, 'pollIntervalMs', options.pollIntervalMs, 25);
    this.#keyPrefix = options.keyPrefix ?? 'svc-checkout:payment-methods:';
    this.#now = options.now ?? Date.now;
    this.#onRefreshError =
      options.onRefreshError ??
      ((error, query) =>
        console.warn(
          `svc-checkout: payment methods lookup failed for ${paymentMethodsQueryKey(query)}:`,
          errorMessage(error),
        ));
  }

  /**
   * The payment methods for `query`, from the cache while fresh, else from one upstream call shared by every
   * concurrent caller (on every server sharing the store).
   * @throws PaymentMethodsCacheError when there is nothing to answer, not even a stale value.
   */
  get(query: PaymentMethodsQuery): Promise<PaymentMethodsLookup> {
    const normalized = normalizePaymentMethodsQuery(query);
    const key = this.#keyPrefix + paymentMethodsQueryKey(normalized);
    const running = this.#flights.get(key);
    if (running !== undefined) return running;
    const flight = this.#fly(key, normalized).finally(() => this.#flights.delete(key));
    this.#flights.set(key, flight);
    return flight;
  }

  async #fly(key: string, query: PaymentMethodsQuery): Promise<PaymentMethodsLookup> {
    const claimKey = `${key}:refresh`;
    const token = randomUUID();
    // Waiting is measured on the real clock: an injected clock decides freshness, not how long we poll.
    const deadline = performance.now() + this.#waitTimeoutMs;
    for (;;) {
      const entry = await this.#read(key);
      const decision = this.#decide(entry);
      if (decision.action === 'serve') return decision.lookup;
      if (decision.action === 'fail') throw decision.error;
      const claimedAt = performance.now();
      if (await this.#use((store) => store.claim(claimKey, token, this.#refreshLeaseMs))) {
        try {
          // Another server may have refreshed between our read and our claim: read again before calling.
          const current = await this.#read(key);
          const again = this.#decide(current);
          if (again.action === 'serve') return again.lookup;
          if (again.action === 'fail') throw again.error;
          return await this.#refresh(key, query, current, claimedAt + this.#refreshLeaseMs);
        } finally {
          await this.#release(claimKey, token);
        }
      }
      if (performance.now() >= deadline) return this.#gaveUpWaiting(entry);
      await sleep(this.#pollIntervalMs);
    }
  }

  #decide(entry: Entry | undefined): Decision {
    if (entry === undefined) return { action: 'refresh' };
    const now = this.#now();
    if (entry.methods !== undefined && now - entry.fetchedAt < this.#ttlMs) {
      const { methods, fetchedAt } = entry;
      return {
        action: 'serve',
        lookup: {
          stale: false,
          methods,
          fetchedAt,
          // A server whose clock runs ahead may have written it "in the future": never report less than 0.
          ageMs: Math.max(0, now - fetchedAt),
          refreshInMs: Math.min(this.#ttlMs, fetchedAt + this.#ttlMs - now),
        },
      };
    }
    const failure = entry.failure;
    if (failure === undefined || now - failure.at >= this.#retryAfterFailureMs) return { action: 'refresh' };
    const retryAt = failure.at + this.#retryAfterFailureMs;
    if (entry.methods !== undefined) {
      return { action: 'serve', lookup: this.#stale(entry.methods, entry.fetchedAt, failure, retryAt) };
    }
    return { action: 'fail', error: nothingCached(failure, retryAt - now) };
  }

  #stale(
    methods: PaymentMethods,
    fetchedAt: number,
    failure: RefreshFailure,
    retryAt: number,
  ): PaymentMethodsLookup {
    const now = this.#now();
    return {
      stale: true,
      methods,
      fetchedAt,
      ageMs: Math.max(0, now - fetchedAt),
      refreshInMs: Math.max(0, retryAt - now),
      failure,
    };
  }

  async #refresh(
    key: string,
    query: PaymentMethodsQuery,
    previous: Entry | undefined,
    leaseEnd: number,
  ): Promise<PaymentMethodsLookup> {
    const calledAt = this.#now();
    let methods: PaymentMethods;
    try {
      methods = await this.#callUpstream(query, leaseEnd);
      if (!isPlainObject(methods))
        throw new TypeError(`The upstream lookup resolved ${typeof methods}, not an object`);
    } catch (error) {
      this.#onRefreshError(error, query);
      const failure: RefreshFailure = { at: calledAt, message: errorMessage(error) };
      const retryAt = calledAt + this.#retryAfterFailureMs;
      if (previous?.methods !== undefined) {
        const keepFor = previous.fetchedAt + this.#staleTtlMs - calledAt;
        await this.#write(key, { ...previous, failure }, Math.max(keepFor, this.#retryAfterFailureMs));
        return this.#stale(previous.methods, previous.fetchedAt, failure, retryAt);
      }
      await this.#write(key, { failure }, this.#retryAfterFailureMs);
      throw nothingCached(failure, Math.max(0, retryAt - this.#now()), { cause: error });
    }
    // Freshness counts from the call, so calls for one query start at least ttlMs apart.
    await this.#write(key, { methods, fetchedAt: calledAt }, this.#staleTtlMs);
    const now = this.#now();
    return {
      stale: false,
      methods,
      fetchedAt: calledAt,
      ageMs: now - calledAt,
      refreshInMs: Math.max(0, calledAt + this.#ttlMs - now),
    };
  }

  /** The upstream call, abandoned (and its signal aborted) when the lease ends at `leaseEnd` (performance time). */
  async #callUpstream(query: PaymentMethodsQuery, leaseEnd: number): Promise<PaymentMethods> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const leaseOver = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const error = new Error(
            `The upstream lookup did not answer within the ${this.#refreshLeaseMs} ms lease`,
          );
          controller.abort(error);
          reject(error);
        },
        Math.max(1, leaseEnd - performance.now()),
      );
    });
    try {
      return await Promise.race([this.#fetch(query, { signal: controller.signal }), leaseOver]);
    } finally {
      clearTimeout(timer);
    }
  }

  #gaveUpWaiting(entry: Entry | undefined): PaymentMethodsLookup {
    const now = this.#now();
    const message = `Another server's refresh did not finish within ${this.#waitTimeoutMs} ms`;
    if (entry?.methods !== undefined) {
      return this.#stale(entry.methods, entry.fetchedAt, { at: now, message }, now);
    }
    throw new PaymentMethodsCacheError('refresh_timeout', message, this.#pollIntervalMs);
  }

  async #read(key: string): Promise<Entry | undefined> {
    const text = await this.#use(async (store) => {
      const found = await store.get(key);
      // Mirrored, so that this process still has it to serve when the shared store goes down.
      if (store !== this.#local && found !== undefined) await this.#local.set(key, found, this.#staleTtlMs);
      return found;
    });
    const entry = parseEntry(text);
    // The store's own expiry runs on its clock; past staleTtlMs on ours an answer is too old to serve.
    if (entry?.methods !== undefined && this.#now() - entry.fetchedAt >= this.#staleTtlMs) {
      return entry.failure ? { failure: entry.failure } : undefined;
    }
    return entry;
  }

  async #write(key: string, entry: Entry, ttlMs: number): Promise<void> {
    const text = JSON.stringify({ format: ENTRY_FORMAT, ...entry });
    if (this.#shared !== undefined) await this.#local.set(key, text, ttlMs);
    await this.#use((store) => store.set(key, text, ttlMs));
  }

  /** Frees a refresh claim wherever it was taken (the shared store may have gone down or come back since). */
  async #release(claimKey: string, token: string): Promise<void> {
    await this.#local.release(claimKey, token);
    if (this.#shared !== undefined) await this.#use((store) => store.release(claimKey, token));
  }

  /**
   * Runs `command` on the shared store within `storeTimeoutMs`, or on this process's store when there is no
   * shared one, it is down, or the command fails or times out (which marks it down). Never rejects for the
   * shared store's sake.
   */
  async #use<T>(command: (store: CacheStore) => Promise<T>): Promise<T> {
    const shared = this.#shared;
    const outage = this.#outage;
    if (shared === undefined) return command(this.#local);
    if (outage !== undefined) {
      // One command at a time tries a store that is down, so an outage costs one timeout per storeRetryMs.
      if (outage.probing || performance.now() < outage.retryAt) return command(this.#local);
      outage.probing = true;
    }
    let result: T;
    try {
      result = await this.#withinTimeout(command(shared));
    } catch (error) {
      this.#storeFailed(error, outage);
      return command(this.#local);
    }
    // Only the try that follows an outage ends it: a slow command begun before it says nothing of now.
    if (outage !== undefined && this.#outage === outage) {
      this.#outage = undefined;
      this.#onStoreOutage({ status: 'up', downForMs: performance.now() - outage.since });
    }
    return result;
  }

  /**
   * Marks the shared store down and reports it, once per outage; or, when the command was the try of the
   * outage `probed`, schedules the next try.
   */
  #storeFailed(error: unknown, probed: StoreOutage | undefined): void {
    const now = performance.now();
    const outage = this.#outage;
    if (outage === undefined) {
      this.#outage = { since: now, retryAt: now + this.#storeRetryMs, probing: false };
      this.#onStoreOutage({ status: 'down', error });
    } else if (outage === probed) {
      outage.probing = false;
      outage.retryAt = now + this.#storeRetryMs;
    }
  }

  /** `pending`, or a rejection once `storeTimeoutMs` has passed without its answer. */
  async #withinTimeout<T>(pending: Promise<T>): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the store did not answer within ${this.#storeTimeoutMs} ms`)),
        this.#storeTimeoutMs,
      );
    });
    try {
      // The race handles a late rejection of `pending` too, so an abandoned command never goes unhandled.
      return await Promise.race([pending, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
