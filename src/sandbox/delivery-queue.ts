/**
 * Signed HTTP deliveries to merchant URLs (purchase notifications, success callbacks, webhooks), retried as
 * the gateway's documents say: until the merchant accepts, with at most 8 further attempts at exponentially
 * growing intervals, none later than 36 hours after the event, and strictly in order per key (an order or a
 * purchase): a later delivery for a key waits until the earlier one is delivered or given up. Different keys
 * go out in parallel, up to a bounded number at once, and a bounded number per merchant origin, so that a merchant
 * who answers slowly (or not at all, until the timeout) cannot hold every slot while the others wait.
 *
 * Every delivery and every attempt is kept in the store, so a restart resumes what was not delivered and
 * `deliveries(key)` can show the history. One timer serves the whole queue: keys wait in a heap ordered by
 * when their next attempt is due.
 */
import { randomUUID } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { SvcError } from '../core/errors.js';
import type { Collection, Store } from './store.js';

/** What counts as the merchant accepting: legacy notifications need exactly 200, v1 callbacks any 2xx. */
export type AcceptStatus = 'exactly-200' | '2xx';

/** What the caller asks to deliver. The body is sent byte for byte as given, so its signature holds. */
export interface DeliveryRequest {
  /** Deliveries with the same key go out strictly one after another, in the order enqueued. */
  key: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  /** Default `2xx`. */
  acceptStatus?: AcceptStatus;
  /** What happened, such as `purchase.paid`; kept for the delivery history. */
  event?: string;
}

/** One try at a delivery. */
export interface DeliveryAttempt {
  /** When it started, in epoch milliseconds. */
  at: number;
  durationMs: number;
  /** The merchant's HTTP status, when it answered. */
  status?: number;
  /** Why there was no answer (refused connection, timeout), when there was none. */
  error?: string;
  accepted: boolean;
}

/** `pending` until delivered, or `failed` once given up. */
export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A delivery and its history, as stored. Times are epoch milliseconds. */
export interface Delivery {
  id: string;
  key: string;
  /** Enqueue order across the queue. */
  seq: number;
  event?: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
  acceptStatus: AcceptStatus;
  /** When the event happened: the 36-hour window starts here. */
  createdAt: number;
  state: DeliveryState;
  attempts: DeliveryAttempt[];
  /** When the next attempt is due; null once delivered or given up. */
  nextAttemptAt: number | null;
  /** When it was delivered or given up; null while pending. */
  finishedAt: number | null;
  /** Why it was given up: every allowed attempt failed, the time window closed, or its target was removed. */
  failure?: 'attempts_exhausted' | 'expired' | 'cancelled';
}

/** What one attempt came to: the merchant's status, or why there was none. */
export type SendResult = { status: number } | { error: string };

/** Options of {@link createDeliveryQueue}. */
export interface DeliveryQueueOptions {
  store: Store;
  /** Makes one attempt. A thrown error counts as `{ error }`. */
  send: (delivery: Delivery) => Promise<SendResult>;
  /** The first retry interval; each further one doubles. */
  retryBaseMs: number;
  /** Default 8, the gateway's rule. */
  maxFurtherAttempts?: number;
  /** No attempt later than this after the event; default 36 hours. */
  maxAgeMs?: number;
  /** How many deliveries (of different keys) may be in flight at once; default 32. */
  concurrency?: number;
  /** How many of them may go to one origin (scheme, host and port of the URL) at once; default 8. */
  perOriginConcurrency?: number;
  /** How many finished deliveries are kept for `deliveries(key)`, oldest dropped first; default 100,000. */
  maxFinished?: number;
  /** The store collection; default `deliveries`. */
  collection?: string;
  /** Clock in epoch milliseconds; default `Date.now`. */
  now?: () => number;
  onDelivered?: (delivery: Delivery) => void;
  onGaveUp?: (delivery: Delivery) => void;
}

/** The queue. */
export interface DeliveryQueue {
  /**
   * Stores the delivery and returns its id. Inside a store transaction it becomes part of it: it is sent only
   * once the transaction commits, and not at all if it rolls back.
   */
  enqueue(request: DeliveryRequest): string;
  get(id: string): Delivery | undefined;
  /** The deliveries of one key, oldest first, with their attempts. */
  deliveries(key: string): Delivery[];
  /**
   * Gives up every pending delivery whose key starts with `keyPrefix` (a deleted webhook's): none is attempted
   * again, and one in flight is not retried. They stay listed, `failed` with `failure: 'cancelled'`.
   * @returns how many were pending.
   */
  cancel(keyPrefix: string): number;
  /** How many deliveries are waiting or in flight. */
  readonly pendingCount: number;
  /** Resolves once nothing is waiting or in flight (or the queue is closed); keeps the process alive till then. */
  idle(): Promise<void>;
  /** Stops starting attempts and resolves once those in flight have been recorded. */
  close(): Promise<void>;
}

/** Using a queue that is closed. */
export class DeliveryQueueError extends SvcError<'closed'> {}

const HOUR_MS = 60 * 60 * 1000;

/**
 * How long to wait after a failed attempt: `base x 2^done`, where `done` further attempts were made already,
 * so the intervals are base, 2 x base, 4 x base, ... When the attempts still to come would not fit before
 * `deadline`, the base shrinks so that they do: the last one still falls on or before it. Measured from the
 * failure, an interval is what the merchant sees, however slowly it answered.
 */
export function retryDelay(
  failedAt: number,
  deadline: number,
  retryBaseMs: number,
  furtherDone: number,
  maxFurtherAttempts: number,
): number {
  const remainingSpan = 2 ** maxFurtherAttempts - 2 ** furtherDone;
  const base = Math.min(retryBaseMs, Math.max(0, deadline - failedAt) / remainingSpan);
  return Math.floor(base * 2 ** furtherDone);
}

/** Starts the queue, resuming every delivery left pending in the store. */
export function createDeliveryQueue(options: DeliveryQueueOptions): DeliveryQueue {
  return new Queue(options);
}

class Queue implements DeliveryQueue {
  private readonly store: Store;
  private readonly records: Collection<Delivery>;
  private readonly send: (delivery: Delivery) => Promise<SendResult>;
  private readonly now: () => number;
  private readonly retryBaseMs: number;
  private readonly maxFurtherAttempts: number;
  private readonly maxAgeMs: number;
  private readonly concurrency: number;
  private readonly perOriginConcurrency: number;
  private readonly maxFinished: number;
  private readonly onDelivered: ((delivery: Delivery) => void) | undefined;
  private readonly onGaveUp: ((delivery: Delivery) => void) | undefined;

  /** Pending delivery ids per key, in order; the first is the one that may go. */
  private readonly waiting = new Map<string, string[]>();
  /** Every kept delivery id per key, in order. */
  private readonly history = new Map<string, string[]>();
  /** Finished delivery ids, oldest first from `finishedHead`, for dropping the oldest. */
  private finished: string[] = [];
  private finishedHead = 0;
  /** Keys whose first pending delivery is neither in flight nor finished, by when it is due. */
  private readonly due = new DueHeap();
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Deliveries in flight that were cancelled: their attempt is recorded, and nothing follows it. */
  private readonly cancelled = new Set<string>();
  /** Deliveries in flight per origin. */
  private readonly originLoad = new Map<string, number>();
  /** Due keys set aside because their origin had no slot free, by origin; back in `due` when one frees. */
  private readonly parked = new Map<string, Array<{ key: string; at: number }>>();
  private pending = 0;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Number.POSITIVE_INFINITY;
  private pumpQueued = false;
  private closed = false;
  private idleWaiters: Array<() => void> = [];

  constructor(options: DeliveryQueueOptions) {
    this.store = options.store;
    this.records = options.store.collection<Delivery>(options.collection ?? 'deliveries');
    this.send = options.send;
    this.now = options.now ?? Date.now;
    this.retryBaseMs = options.retryBaseMs;
    this.maxFurtherAttempts = options.maxFurtherAttempts ?? 8;
    this.maxAgeMs = options.maxAgeMs ?? 36 * HOUR_MS;
    this.concurrency = options.concurrency ?? 32;
    this.perOriginConcurrency = options.perOriginConcurrency ?? 8;
    this.maxFinished = options.maxFinished ?? 100_000;
    this.onDelivered = options.onDelivered;
    this.onGaveUp = options.onGaveUp;
    this.resume();
  }

  get pendingCount(): number {
    return this.pending;
  }

  /** Rebuilds the in-memory order from the store after a restart. */
  private resume(): void {
    const stored = [...this.records.values()].sort((a, b) => a.seq - b.seq);
    for (const delivery of stored) {
      this.seq = Math.max(this.seq, delivery.seq);
      appendTo(this.history, delivery.key, delivery.id);
      if (delivery.state === 'pending') {
        this.pending++;
        const ids = appendTo(this.waiting, delivery.key, delivery.id);
        if (ids.length === 1) this.due.push(delivery.key, delivery.nextAttemptAt ?? this.now());
      }
    }
    this.finished = stored
      .filter((delivery) => delivery.state !== 'pending')
      .sort((a, b) => (a.finishedAt ?? 0) - (b.finishedAt ?? 0))
      .map((delivery) => delivery.id);
    this.schedulePump();
  }

  enqueue(request: DeliveryRequest): string {
    if (this.closed) throw new DeliveryQueueError('closed', 'The delivery queue is closed');
    const createdAt = this.now();
    const delivery: Delivery = {
      id: randomUUID(),
      key: request.key,
      seq: ++this.seq,
      ...(request.event !== undefined && { event: request.event }),
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: request.body,
      acceptStatus: request.acceptStatus ?? '2xx',
      createdAt,
      state: 'pending',
      attempts: [],
      nextAttemptAt: createdAt,
      finishedAt: null,
    };
    this.records.put(delivery.id, delivery);
    this.store.afterCommit(() => this.admit(delivery));
    return delivery.id;
  }

  private admit(delivery: Delivery): void {
    this.pending++;
    appendTo(this.history, delivery.key, delivery.id);
    const ids = appendTo(this.waiting, delivery.key, delivery.id);
    if (ids.length === 1) this.due.push(delivery.key, delivery.createdAt);
    this.schedulePump();
  }

  get(id: string): Delivery | undefined {
    return this.records.get(id);
  }

  cancel(keyPrefix: string): number {
    let count = 0;
    for (const [key, ids] of [...this.waiting]) {
      if (!key.startsWith(keyPrefix)) continue;
      count += ids.length;
      // The first may be in flight: it ends when its attempt does. The others never started.
      const [first, ...rest] = ids;
      this.waiting.set(key, [first!]);
      this.pending -= rest.length;
      const finishedAt = this.now();
      this.store.transaction(() => {
        for (const id of rest) {
          const delivery = this.records.get(id);
          if (delivery === undefined) continue;
          this.records.put(id, {
            ...delivery,
            state: 'failed',
            failure: 'cancelled',
            nextAttemptAt: null,
            finishedAt,
          });
          this.finished.push(id);
        }
      });
      if (this.inFlight.has(first!)) this.cancelled.add(first!);
      else {
        const delivery = this.records.get(first!);
        if (delivery !== undefined) this.giveUp(delivery, 'cancelled', finishedAt);
      }
    }
    if (this.pending === 0) this.wakeIdleWaiters();
    return count;
  }

  deliveries(key: string): Delivery[] {
    return (this.history.get(key) ?? []).flatMap((id) => this.records.get(id) ?? []);
  }

  idle(): Promise<void> {
    if (this.closed || this.pending === 0) return Promise.resolve();
    this.timer?.ref();
    return new Promise((resolveIdle) => this.idleWaiters.push(resolveIdle));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.inFlight.values()]);
    this.wakeIdleWaiters();
  }

  /** Many enqueues in one tick start their sends in one pass. */
  private schedulePump(): void {
    if (this.pumpQueued || this.closed) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /** Starts every due key that fits in the concurrency bound, then sets the one timer for the next. */
  private pump(): void {
    if (this.closed) return;
    const now = this.now();
    while (this.inFlight.size < this.concurrency) {
      const next = this.due.peek();
      if (next === undefined || next.at > now) break;
      this.due.pop();
      const origin = this.originOf(next.key);
      if ((this.originLoad.get(origin) ?? 0) >= this.perOriginConcurrency) {
        appendTo(this.parked, origin, next);
        continue;
      }
      this.attempt(next.key, now);
    }
    const next = this.due.peek();
    if (next === undefined || this.inFlight.size >= this.concurrency) return;
    if (this.timer !== undefined && this.timerAt <= next.at) return;
    clearTimeout(this.timer);
    this.timerAt = next.at;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.pump();
      },
      Math.max(0, next.at - now),
    );
    // The queue alone does not keep the process alive, unless someone is waiting for it to drain.
    if (this.idleWaiters.length === 0) this.timer.unref();
  }

  /** The origin of the key's next delivery: the unit that shares slots. */
  private originOf(key: string): string {
    const id = this.waiting.get(key)?.[0];
    const url = (id === undefined ? undefined : this.records.get(id)?.url) ?? '';
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }

  private attempt(key: string, now: number): void {
    const id = this.waiting.get(key)?.[0];
    const delivery = id === undefined ? undefined : this.records.get(id);
    if (delivery === undefined) return;
    if (now > delivery.createdAt + this.maxAgeMs) {
      this.giveUp(delivery, 'expired', now);
      return;
    }
    const origin = this.originOf(key);
    this.originLoad.set(origin, (this.originLoad.get(origin) ?? 0) + 1);
    const started = performance.now();
    const running = this.send(delivery)
      .catch(
        (error: unknown): SendResult => ({ error: error instanceof Error ? error.message : String(error) }),
      )
      .then((result) => {
        const attempt: DeliveryAttempt = {
          at: now,
          durationMs: Math.round(performance.now() - started),
          ...('status' in result ? { status: result.status } : { error: result.error }),
          accepted: 'status' in result && isAccepted(result.status, delivery.acceptStatus),
        };
        this.inFlight.delete(delivery.id);
        this.releaseSlot(origin);
        this.record(delivery, attempt);
        this.pump();
      });
    this.inFlight.set(delivery.id, running);
  }

  /** A slot of the origin is free: the first key parked for want of one is due again, at the time it had. */
  private releaseSlot(origin: string): void {
    const load = (this.originLoad.get(origin) ?? 1) - 1;
    if (load === 0) this.originLoad.delete(origin);
    else this.originLoad.set(origin, load);
    const parked = this.parked.get(origin);
    const first = parked?.shift();
    if (parked?.length === 0) this.parked.delete(origin);
    if (first !== undefined) this.due.push(first.key, first.at);
  }

  private record(delivery: Delivery, attempt: DeliveryAttempt): void {
    const attempts = [...delivery.attempts, attempt];
    const finishedAt = this.now();
    const cancelled = this.cancelled.delete(delivery.id);
    if (cancelled && !attempt.accepted) {
      this.giveUp({ ...delivery, attempts }, 'cancelled', finishedAt);
      return;
    }
    if (attempt.accepted) {
      this.finish(
        { ...delivery, attempts, state: 'delivered', nextAttemptAt: null, finishedAt },
        this.onDelivered,
      );
      return;
    }
    const furtherDone = attempts.length - 1;
    if (furtherDone >= this.maxFurtherAttempts) {
      this.giveUp({ ...delivery, attempts }, 'attempts_exhausted', finishedAt);
      return;
    }
    const deadline = delivery.createdAt + this.maxAgeMs;
    // Planned a little before the deadline, so that a timer firing late does not make the last attempt too late.
    const planTo = deadline - Math.min(this.maxAgeMs * 0.02, 60_000);
    const nextAttemptAt =
      finishedAt + retryDelay(finishedAt, planTo, this.retryBaseMs, furtherDone, this.maxFurtherAttempts);
    if (nextAttemptAt > deadline) {
      this.giveUp({ ...delivery, attempts }, 'expired', finishedAt);
      return;
    }
    this.records.put(delivery.id, { ...delivery, attempts, nextAttemptAt });
    if (!this.closed) this.due.push(delivery.key, nextAttemptAt);
  }

  private giveUp(delivery: Delivery, failure: NonNullable<Delivery['failure']>, finishedAt: number): void {
    this.finish({ ...delivery, state: 'failed', failure, nextAttemptAt: null, finishedAt }, this.onGaveUp);
  }

  /** Stores the outcome, lets the key's next delivery go, and drops the oldest finished beyond the bound. */
  private finish(delivery: Delivery, notify: ((delivery: Delivery) => void) | undefined): void {
    this.store.transaction(() => {
      this.records.put(delivery.id, delivery);
      this.finished.push(delivery.id);
      while (this.finished.length - this.finishedHead > this.maxFinished)
        this.forget(this.finished[this.finishedHead++]!);
    });
    if (this.finishedHead > 1024 && this.finishedHead * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.finishedHead);
      this.finishedHead = 0;
    }
    this.pending--;
    const ids = this.waiting.get(delivery.key)!;
    ids.shift();
    if (ids.length === 0) this.waiting.delete(delivery.key);
    else if (!this.closed)
      this.due.push(delivery.key, this.records.get(ids[0]!)?.nextAttemptAt ?? this.now());
    if (notify) {
      try {
        notify(delivery);
      } catch (error) {
        // A listener's error is the listener's: it surfaces as an uncaught exception, as an event emitter's would.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
    if (this.pending === 0) this.wakeIdleWaiters();
  }

  private forget(id: string): void {
    const delivery = this.records.get(id);
    this.records.delete(id);
    if (delivery === undefined) return;
    const ids = this.history.get(delivery.key);
    if (ids === undefined) return;
    const index = ids.indexOf(id);
    if (index !== -1) ids.splice(index, 1);
    if (ids.length === 0) this.history.delete(delivery.key);
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
}

function isAccepted(status: number, rule: AcceptStatus): boolean {
  return rule === 'exactly-200' ? status === 200 : status >= 200 && status < 300;
}

function appendTo<T>(map: Map<string, T[]>, key: string, item: T): T[] {
  let items = map.get(key);
  if (items === undefined) {
    items = [];
    map.set(key, items);
  }
  items.push(item);
  return items;
}

/** A binary min-heap of keys by due time; equal times leave in the order they came. */
class DueHeap {
  private readonly items: Array<{ key: string; at: number; order: number }> = [];
  private order = 0;

  peek(): { key: string; at: number } | undefined {
    return this.items[0];
  }

  push(key: string, at: number): void {
    const items = this.items;
    items.push({ key, at, order: this.order++ });
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(index, parent)) break;
      this.swap(index, parent);
      index = parent;
    }
  }

  pop(): { key: string; at: number } | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < items.length && this.before(left, smallest)) smallest = left;
        if (right < items.length && this.before(right, smallest)) smallest = right;
        if (smallest === index) break;
        this.swap(index, smallest);
        index = smallest;
      }
    }
    return top;
  }

  private before(a: number, b: number): boolean {
    const x = this.items[a]!;
    const y = this.items[b]!;
    return x.at < y.at || (x.at === y.at && x.order < y.order);
  }

  private swap(a: number, b: number): void {
    const items = this.items;
    [items[a], items[b]] = [items[b]!, items[a]!];
  }
}

/** Options of {@link createHttpSend}. */
export interface HttpSendOptions {
  /** How long one attempt may take in all; default 10 s. */
  timeoutMs?: number;
  /** Open connections per merchant host; default 16. */
  maxSockets?: number;
}

/**
 * A `send` for the queue over node:http(s) with keep-alive connections: the merchant's answer body is read and
 * dropped. Signing is the caller's: the delivery's headers are sent as stored.
 */
export function createHttpSend(options: HttpSendOptions = {}): ((
  delivery: Delivery,
) => Promise<SendResult>) & {
  close(): void;
} {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 16 };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  const send = (delivery: Delivery): Promise<SendResult> =>
    new Promise((resolveSend) => {
      let url: URL;
      try {
        url = new URL(delivery.url);
      } catch {
        resolveSend({ error: `${delivery.url} is not a URL` });
        return;
      }
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method: delivery.method,
        headers: { ...delivery.headers, 'content-length': String(Buffer.byteLength(delivery.body)) },
        agent: secure ? httpsAgent : httpAgent,
      });
      const timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      request.on('response', (response) => {
        response.resume();
        response.on('end', () => {
          clearTimeout(timer);
          resolveSend({ status: response.statusCode ?? 0 });
        });
        response.on('error', (error) => {
          clearTimeout(timer);
          resolveSend({ error: error.message });
        });
      });
      request.on('error', (error) => {
        clearTimeout(timer);
        resolveSend({ error: error.message });
      });
      request.end(delivery.body);
    });
  return Object.assign(send, {
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}
