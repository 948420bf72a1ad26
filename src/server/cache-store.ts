/**
 * Where the payment-methods cache keeps its entries. One process needs nothing more than
 * {@link MemoryCacheStore}; a fleet of merchant servers shares a store (Redis, say) so that together they still
 * call the gateway once per query per minute.
 */
import { checkOptions, isNumber, nowRule, type OptionRules, optional } from './options.js';

/**
 * The few operations the cache needs from a store, all on text values. A shared store must make
 * {@link CacheStore.claim} atomic across every server that uses it (Redis: `SET key token NX PX ttl`): it is
 * what elects the one server that calls the gateway while the others wait for the value it writes.
 */
export interface CacheStore {
  /** The value stored under `key`, or `undefined` when there is none or it expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key`, replacing any value, for `ttlMs` milliseconds. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Takes `key` for `ttlMs` milliseconds when no one holds it: true when this caller now holds it, false when
   * someone else does. The expiry frees a claim whose holder died without releasing it.
   */
  claim(key: string, token: string, ttlMs: number): Promise<boolean>;
  /** Frees `key` if `token` still holds it; a claim that expired and was taken by another is left alone. */
  release(key: string, token: string): Promise<void>;
}

/** Options of {@link MemoryCacheStore}. */
export interface MemoryCacheStoreOptions {
  /**
   * The most keys kept (values and claims together); 1 000 when left out. Past it the oldest keys go first, so
   * a stream of distinct queries cannot grow the process without bound.
   */
  maxEntries?: number;
  /** The clock for expiries, in milliseconds; `Date.now` when left out. */
  now?: () => number;
  /**
   * What a write does when `maxEntries` keys are held and none has expired: `'evictOldest'` (the default)
   * drops the oldest written key, as a cache may; `'refuse'` rejects the write with a
   * {@link CacheStoreFullError}, for a memory that must not forget (the event deduplicator's markers).
   */
  whenFull?: 'evictOldest' | 'refuse';
}

const MEMORY_STORE_OPTIONS: OptionRules<MemoryCacheStoreOptions> = {
  maxEntries: optional('a whole number of at least 1', isNumber),
  now: nowRule,
  whenFull: optional("'evictOldest' or 'refuse'", (value) => value === 'evictOldest' || value === 'refuse'),
};

/** A write to a {@link MemoryCacheStore} with `whenFull: 'refuse'` that holds `maxEntries` live keys. */
export class CacheStoreFullError extends Error {
  constructor(maxEntries: number) {
    super(
      `MemoryCacheStore is full: ${maxEntries} keys are held and none has expired; raise maxEntries, or use a ` +
        'shared store such as createRedisCacheStore(redis)',
    );
    this.name = 'CacheStoreFullError';
  }
}

interface MemoryEntry {
  value: string;
  expiresAt: number;
}

/** The default store: a bounded map inside this process, with expiries. */
export class MemoryCacheStore implements CacheStore {
  readonly #entries = new Map<string, MemoryEntry>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #refuseWhenFull: boolean;

  /**
   * @throws TypeError naming the option when one is unknown or of the wrong kind.
   * @throws RangeError when `maxEntries` is not a whole number of at least 1.
   */
  constructor(options: MemoryCacheStoreOptions = {}) {
    checkOptions('MemoryCacheStore', options, MEMORY_STORE_OPTIONS);
    const maxEntries = options.maxEntries ?? 1000;
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(
        `MemoryCacheStore: the option "maxEntries" must be a whole number of at least 1, not ${maxEntries}`,
      );
    }
    this.#maxEntries = maxEntries;
    this.#now = options.now ?? Date.now;
    this.#refuseWhenFull = options.whenFull === 'refuse';
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#put(key, value, ttlMs);
  }

  async claim(key: string, token: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key) !== undefined) return false;
    this.#put(key, token, ttlMs);
    return true;
  }

  async release(key: string, token: string): Promise<void> {
    if (this.#live(key)?.value === token) this.#entries.delete(key);
  }

  /** How many keys are held, expired ones included until they are next touched or evicted. */
  get size(): number {
    return this.#entries.size;
  }

  #live(key: string): MemoryEntry | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt > this.#now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #put(key: string, value: string, ttlMs: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#evict();
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  /**
   * Drops expired keys, and when none had expired, the oldest written one.
   * @throws CacheStoreFullError instead of dropping a live key when `whenFull` is `'refuse'`.
   */
  #evict(): void {
    const now = this.#now();
    let dropped = false;
    for (const [key, entry] of this.#entries) {
      if (entry.expiresAt <= now) {
        this.#entries.delete(key);
        dropped = true;
      }
    }
    if (dropped) return;
    if (this.#refuseWhenFull) throw new CacheStoreFullError(this.#maxEntries);
    const oldest = this.#entries.keys().next();
    if (!oldest.done) this.#entries.delete(oldest.value);
  }
}
