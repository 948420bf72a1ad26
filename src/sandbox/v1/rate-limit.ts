/**
 * The rate limit of `GET /payment_methods/`. The document asks merchants to call it "at most once per
 * minute" and to cache the answer; it gives no other figure. The sandbox holds merchants to exactly that
 * with a sliding window: per secret key and distinct query, at most `max` accepted calls in any `windowMs`
 * (default 1 per 60 s). Counting per query lets a merchant's cache make its one call per query per minute for
 * each language or currency it serves. Refused calls do not count, so a client that retries after
 * `Retry-After` gets through. State is in memory: a restart forgets it.
 */

/** The limit: at most `max` calls in any `windowMs`. */
export interface RateLimitSettings {
  max: number;
  windowMs: number;
}

/** The document's limit: once per minute. */
export const DEFAULT_PAYMENT_METHODS_RATE_LIMIT: RateLimitSettings = { max: 1, windowMs: 60_000 };

/** A call let through, or refused with how long until one would be. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Above this many tracked keys, keys whose calls all left the window are dropped. */
const SWEEP_ABOVE_KEYS = 10_000;

export class SlidingWindowLimiter {
  /** Accepted call times per key, oldest first, all within the window. */
  private readonly calls = new Map<string, number[]>();
  /** The longest window any limit asked for, so a sweep never forgets calls that still count. */
  private longestWindowMs = 0;

  constructor(private readonly now: () => number) {}

  /** Counts a call of `key` under `limit` if the window has room. */
  take(key: string, limit: RateLimitSettings): RateLimitDecision {
    const now = this.now();
    this.longestWindowMs = Math.max(this.longestWindowMs, limit.windowMs);
    const since = now - limit.windowMs;
    const times = (this.calls.get(key) ?? []).filter((time) => time > since);
    if (times.length >= limit.max) {
      this.calls.set(key, times);
      // The call may pass once the oldest call that holds the window full has left it.
      const oldest = times[times.length - limit.max]!;
      return { allowed: false, retryAfterMs: Math.max(1, oldest + limit.windowMs - now) };
    }
    times.push(now);
    this.calls.set(key, times);
    if (this.calls.size > SWEEP_ABOVE_KEYS) this.sweep(now);
    return { allowed: true };
  }

  private sweep(now: number): void {
    for (const [key, times] of this.calls) {
      if (times.every((time) => time <= now - this.longestWindowMs)) this.calls.delete(key);
    }
  }
}
