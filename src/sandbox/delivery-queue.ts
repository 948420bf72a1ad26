/**
 * Signed HTTP deliveries to merchant URLs (purchase notifications, success callbacks, webhooks), retried as
 * the gateway's documents say: until the merchant accepts, with at most 8 further attempts at exponentially
 * growing intervals, planned within 36 hours of the event, and strictly in order per key (an order or a
 * purchase): a later delivery for a key waits until the earlier one is delivered or given up. The 36 hours
 * bound a receiver that keeps failing, never a delivery not tried: one that comes due late (the sandbox was
 * down, or its clock jumped) is still attempted, and given up only after an attempt that failed.
 * Different keys go out in parallel, up to a bounded number at once, and a bounded number per merchant (the
 * delivery's `owner`), so that a merchant whose receivers answer slowly (or not at all, until the timeout)
 * cannot hold every slot while the others wait, however many origins it spreads them over.
 *
 * Delivery is at least once, and a repeat is the same bytes (the stored body and headers). An attempt that
 * times out counts as failed and frees its slot, but its request stays open until the retry is due: if the
 * merchant's 2xx comes first, the delivery is delivered (the attempt marked `answeredLateAt`) and no retry is
 * made; if the retry starts first, the late request is closed and only the retry counts.
 *
 * Every delivery and every attempt is kept in the store, so a restart resumes what was not delivered and
 * `deliveries(key)` can show the history. One timer serves the whole queue: keys wait in a heap ordered by
 * when their next attempt is due. When the store cannot write (a full disk), an attempt's outcome waits in
 * memory and is stored once it can be: the merchant is not sent the delivery again for want of disk space.
 *
 * This is the module the rest of the sandbox imports; in `delivery-queue/` are the deliveries as stored
 * (`deliveries.ts`), the due heaps (`due-heaps.ts`) and the `send` over HTTP (`http-send.ts`).
 */
import { randomUUID } from 'node:crypto';
import { SvcError } from '../core/errors.js';
import { BoundedCache } from '../server/for-sandbox.js';
import type { ClockWork } from './clock.js';
import {
  type Delivery,
  type DeliveryAttempt,
  type DeliveryRequest,
  type DeliverySigner,
  isAccepted,
  type LateAnswer,
  type SendResult,
} from './delivery-queue/deliveries.js';
import { type Due, DueHeaps } from './delivery-queue/due-heaps.js';
import { type Collection, isWriteFailure, type Store } from './store.js';

export type {
  AcceptStatus,
  Delivery,
  DeliveryAttempt,
  DeliveryRequest,
  DeliverySigner,
  DeliveryState,
  LateAnswer,
  SendResult,
} from './delivery-queue/deliveries.js';
export { createHttpSend, type HttpSendOptions } from './delivery-queue/http-send.js';

/** Options of {@link createDeliveryQueue}. */
export interface DeliveryQueueOptions {
  store: Store;
  /**
   * Makes one attempt, with the headers to send as given (a delivery signed on sending carries its signature
   * in them). A thrown error counts as `{ error }`.
   */
  send: (delivery: Delivery) => Promise<SendResult>;
  /** Signs the deliveries that are signed on sending ({@link DeliveryRequest.signatureHeader}). */
  signer?: DeliverySigner;
  /** The first retry interval; each further one doubles. */
  retryBaseMs: number;
  /** Default 8, the gateway's rule. */
  maxFurtherAttempts?: number;
  /** No attempt later than this after the event; default 36 hours. */
  maxAgeMs?: number;
  /** How many deliveries (of different keys) may be in flight at once; default 32. */
  concurrency?: number;
  /** How many of them may be one owner's (a merchant's, else one origin's) at once; default 8. */
  perOwnerConcurrency?: number;
  /** How many finished deliveries are kept for `deliveries(key)`, oldest dropped first; default 100,000. */
  maxFinished?: number;
  /** The store collection; default `deliveries`. */
  collection?: string;
  /**
   * The clock of a delivery's owner (its merchant's), in epoch milliseconds; default `Date.now`. Each owner's
   * deliveries are dated and retried on its own clock.
   */
  now?: (owner: string | undefined) => number;
  onDelivered?: (delivery: Delivery) => void;
  onGaveUp?: (delivery: Delivery) => void;
  /** Hears each delivery once its enqueue is committed (the sandbox's forwarding). */
  onAdmitted?: (delivery: Delivery) => void;
  /**
   * Hears each attempt once its outcome is recorded: `stored` is the delivery as stored then (its state and
   * next attempt), `attemptNumber` counts from 1. The sandbox's log.
   */
  onAttempted?: (stored: Delivery, attempt: DeliveryAttempt, attemptNumber: number) => void;
}

export interface DeliveryQueue {
  /**
   * The owner's deliveries as {@link ClockWork}: a step of the owner's clock makes the attempts that come due
   * on the way, in time order, and waits for their outcome before moving on.
   */
  workOf(owner: string): ClockWork;
  /**
   * Stores the delivery and returns its id. Inside a store transaction it becomes part of it: it is sent only
   * once the transaction commits, and not at all if it rolls back.
   */
  enqueue(request: DeliveryRequest): string;
  get(id: string): Delivery | undefined;
  /**
   * The headers the delivery goes out with: as stored, with its signature when it is signed on sending
   * (signed at once, unless it was signed lately).
   */
  headersOf(delivery: Delivery): Record<string, string>;
  /** {@link headersOf} with the signature made on the thread pool: for many deliveries at once. */
  signedHeaders(delivery: Delivery): Promise<Record<string, string>>;
  /** The deliveries of one key, oldest first, with their attempts. */
  deliveries(key: string): Delivery[];
  /**
   * Gives up every pending delivery whose key starts with `keyPrefix` (a deleted webhook's): none is attempted
   * again, and one in flight is not retried. They stay listed, `failed` with `failure: 'cancelled'`.
   * @returns how many were pending.
   */
  cancel(keyPrefix: string): number;
  /** Re-reads the clock: after the sandbox clock moved forward, retries that came due are sent now. */
  wake(): void;
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
/** How many signatures of deliveries signed on sending are kept for their views (about 350 bytes each). */
const SIGNATURES_KEPT = 10_000;
/** How soon an outcome the store refused (a full disk) is offered to it again, at most. */
const STORE_RETRY_MS = 1_000;

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
  private readonly signer: DeliverySigner | undefined;
  /** Signatures made lately, by delivery id: a view of a delivery just sent does not sign it again. */
  private readonly signatures = new BoundedCache<string, string>(SIGNATURES_KEPT);
  private readonly now: (owner: string | undefined) => number;
  private readonly retryBaseMs: number;
  private readonly maxFurtherAttempts: number;
  private readonly maxAgeMs: number;
  private readonly concurrency: number;
  private readonly perOwnerConcurrency: number;
  private readonly maxFinished: number;
  private readonly onDelivered: ((delivery: Delivery) => void) | undefined;
  private readonly onGaveUp: ((delivery: Delivery) => void) | undefined;
  private readonly onAdmitted: DeliveryQueueOptions['onAdmitted'];
  private readonly onAttempted: DeliveryQueueOptions['onAttempted'];

  /** Pending delivery ids per key, in order; the first is the one that may go. */
  private readonly waiting = new Map<string, string[]>();
  /** Every kept delivery id per key, in order. */
  private readonly history = new Map<string, string[]>();
  /** Finished delivery ids, oldest first from `finishedHead`, for dropping the oldest. */
  private finished: string[] = [];
  private finishedHead = 0;
  /** Keys whose first pending delivery is neither in flight nor finished, by when it is due. */
  private readonly due: DueHeaps;
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Deliveries in flight that were cancelled: their attempt is recorded, and nothing follows it. */
  private readonly cancelled = new Set<string>();
  /** Timed-out attempts whose request stays open for the merchant's answer, by delivery id, until the retry. */
  private readonly lateAnswers = new Map<string, LateAnswer>();
  /** Attempts made whose outcome the store refused (a full disk), by delivery id: stored, not sent, next. */
  private readonly unrecorded = new Map<string, DeliveryAttempt>();
  /** Deliveries in flight per owner. */
  private readonly ownerLoad = new Map<string, number>();
  /** Due keys set aside because their owner had no slot free, by owner; back in `due` when one frees. */
  private readonly parked = new Map<string, Due[]>();
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
    this.signer = options.signer;
    this.now = options.now ?? Date.now;
    this.due = new DueHeaps(this.now);
    this.retryBaseMs = options.retryBaseMs;
    this.maxFurtherAttempts = options.maxFurtherAttempts ?? 8;
    this.maxAgeMs = options.maxAgeMs ?? 36 * HOUR_MS;
    this.concurrency = options.concurrency ?? 32;
    this.perOwnerConcurrency = options.perOwnerConcurrency ?? 8;
    this.maxFinished = options.maxFinished ?? 100_000;
    this.onDelivered = options.onDelivered;
    this.onGaveUp = options.onGaveUp;
    this.onAdmitted = options.onAdmitted;
    this.onAttempted = options.onAttempted;
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
        if (ids.length === 1)
          this.due.push(delivery.owner, delivery.key, delivery.nextAttemptAt ?? this.now(delivery.owner));
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
    const createdAt = this.now(request.owner);
    const delivery: Delivery = {
      id: randomUUID(),
      key: request.key,
      seq: ++this.seq,
      ...(request.event !== undefined && { event: request.event }),
      ...(request.owner !== undefined && { owner: request.owner }),
      ...(request.signatureHeader !== undefined && { signatureHeader: request.signatureHeader }),
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
    if (ids.length === 1) this.due.push(delivery.owner, delivery.key, delivery.createdAt);
    this.schedulePump();
    this.onAdmitted?.(delivery);
  }

  get(id: string): Delivery | undefined {
    return this.records.get(id);
  }

  headersOf(delivery: Delivery): Record<string, string> {
    const header = delivery.signatureHeader;
    if (header === undefined) return delivery.headers;
    let signature = this.signatures.get(delivery.id);
    if (signature === undefined) {
      signature = this.signerFor(delivery).now(delivery.body);
      this.signatures.set(delivery.id, signature);
    }
    return { ...delivery.headers, [header]: signature };
  }

  async signedHeaders(delivery: Delivery): Promise<Record<string, string>> {
    const header = delivery.signatureHeader;
    if (header === undefined) return delivery.headers;
    let signature = this.signatures.get(delivery.id);
    if (signature === undefined) {
      signature = await this.signerFor(delivery).later(delivery.body);
      this.signatures.set(delivery.id, signature);
    }
    return { ...delivery.headers, [header]: signature };
  }

  private signerFor(delivery: Delivery): DeliverySigner {
    if (this.signer !== undefined) return this.signer;
    throw new Error(`Delivery ${delivery.id} is signed on sending, and the queue has no signer`);
  }

  cancel(keyPrefix: string): number {
    let count = 0;
    // One record for all of it; the queue's own bookkeeping follows only once that is stored (or, inside a
    // caller's transaction, once that commits), so a refused write leaves the queue as it was.
    this.store.transaction(() => {
      for (const [key, ids] of this.waiting) {
        if (!key.startsWith(keyPrefix)) continue;
        count += ids.length;
        // The first may be in flight: it ends when its attempt does. The others never started.
        const [first, ...rest] = ids;
        const finishedAt = this.now(this.records.get(first!)?.owner);
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
        }
        this.store.afterCommit(() => {
          this.waiting.set(key, [first!]);
          this.pending -= rest.length;
          this.finished.push(...rest);
        });
        if (this.inFlight.has(first!)) this.store.afterCommit(() => this.cancelled.add(first!));
        else {
          const delivery = this.records.get(first!);
          if (delivery !== undefined) this.giveUp(delivery, 'cancelled', finishedAt);
        }
      }
      this.store.afterCommit(() => {
        if (this.pending === 0) this.wakeIdleWaiters();
      });
    });
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
    // No retry comes while closed: a request kept open for a late answer is closed now (and the attempts in
    // flight keep none open, since `listenLate` sees the queue closed).
    for (const id of [...this.lateAnswers.keys()]) this.abandonLate(id);
    await Promise.allSettled([...this.inFlight.values()]);
    // Outcomes a full disk kept in memory get a last chance to be stored: one lost here is sent again after
    // the restart (at least once, as allowed), one stored is not.
    for (const [id, attempt] of [...this.unrecorded]) {
      const delivery = this.records.get(id);
      if (delivery === undefined) continue;
      try {
        this.record(delivery, attempt);
        this.unrecorded.delete(id);
      } catch (error) {
        if (!isWriteFailure(error)) throw error;
      }
    }
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

  workOf(owner: string): ClockWork {
    const ownedIn = (ids: Iterable<string>) => [...ids].filter((id) => this.records.get(id)?.owner === owner);
    return {
      nextDueAt: () => {
        if (this.closed) return undefined;
        // Attempts under way (started by the queue's own timer between a step's slices) are due now: a step
        // waits for their outcome, and for what it lets go next.
        return ownedIn(this.inFlight.keys()).length > 0 ? this.now(owner) : this.due.peekOf(owner)?.at;
      },
      runDue: async () => {
        for (;;) {
          this.pump();
          if (this.closed) return true;
          const own = ownedIn(this.inFlight.keys());
          const waitsForSlot = (this.due.peekOf(owner)?.at ?? Number.POSITIVE_INFINITY) <= this.now(owner);
          if (own.length > 0) await Promise.race(own.map((id) => this.inFlight.get(id)));
          // Other owners' attempts fill every slot: the owner's due one starts when one of them ends.
          else if (waitsForSlot && this.inFlight.size > 0) await Promise.race(this.inFlight.values());
          // Outcomes the store refused (a full disk) wait in memory: nothing more to do until it takes writes.
          else return ownedIn(this.unrecorded.keys()).length === 0;
        }
      },
    };
  }

  wake(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    this.schedulePump();
  }

  /** Starts every due key that fits in the concurrency bound, then sets the one timer for the next. */
  private pump(): void {
    if (this.closed) return;
    while (this.inFlight.size < this.concurrency) {
      const next = this.due.peek();
      if (next === undefined || next.at > next.now) break;
      this.due.pop(next.owner);
      const owner = this.ownerOf(next.key);
      if ((this.ownerLoad.get(owner) ?? 0) >= this.perOwnerConcurrency) {
        appendTo(this.parked, owner, next);
        continue;
      }
      this.attempt(next.key, next.now, owner);
    }
    const next = this.due.peek();
    if (next === undefined || this.inFlight.size >= this.concurrency) return;
    // Owners' clocks differ: the timer is set in real time.
    const wait = Math.max(0, next.at - next.now);
    const fireAt = Date.now() + wait;
    if (this.timer !== undefined && this.timerAt <= fireAt) return;
    clearTimeout(this.timer);
    this.timerAt = fireAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Number.POSITIVE_INFINITY;
      this.pump();
    }, wait);
    // The queue alone does not keep the process alive, unless someone is waiting for it to drain.
    if (this.idleWaiters.length === 0) this.timer.unref();
  }

  /** The owner of the key's next delivery, else its URL's origin: the unit that shares slots. */
  private ownerOf(key: string): string {
    const id = this.waiting.get(key)?.[0];
    const delivery = id === undefined ? undefined : this.records.get(id);
    if (delivery?.owner !== undefined) return `owner:${delivery.owner}`;
    const url = delivery?.url ?? '';
    try {
      return new URL(url).origin;
    } catch {
      return url;
    }
  }

  /** Starts the key's next delivery, its slot counted for `owner` (what {@link ownerOf} said in `pump`). */
  private attempt(key: string, now: number, owner: string): void {
    const id = this.waiting.get(key)?.[0];
    const delivery = id === undefined ? undefined : this.records.get(id);
    if (delivery === undefined) return;
    const made = this.unrecorded.get(delivery.id);
    if (made !== undefined) {
      this.unrecorded.delete(delivery.id);
      this.recordOrKeep(delivery, made);
      return;
    }
    // A stale entry of the heap: the retry of an attempt whose late answer delivered it (the key's next
    // delivery has an entry of its own, at its own time). It starts nothing.
    if (this.inFlight.has(delivery.id) || (delivery.nextAttemptAt ?? now) > now) return;
    // The retry is due before the merchant answered the timed-out attempt: that request is given up, and
    // only the retry can deliver now.
    this.abandonLate(delivery.id);
    this.ownerLoad.set(owner, (this.ownerLoad.get(owner) ?? 0) + 1);
    let started = performance.now();
    // The attempt's duration is the merchant's: it starts once a delivery signed on sending is signed.
    const sent = (headers: Record<string, string>) => {
      started = performance.now();
      return this.send(headers === delivery.headers ? delivery : { ...delivery, headers });
    };
    const running = (
      delivery.signatureHeader === undefined
        ? sent(delivery.headers)
        : this.signedHeaders(delivery).then(sent)
    )
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
        this.releaseSlot(owner);
        this.recordOrKeep(delivery, attempt);
        this.onAttempted?.(this.records.get(delivery.id) ?? delivery, attempt, delivery.attempts.length + 1);
        if ('lateAnswer' in result && result.lateAnswer)
          this.listenLate(delivery.id, delivery.attempts.length, result.lateAnswer);
        this.pump();
      });
    this.inFlight.set(delivery.id, running);
  }

  /**
   * Keeps a timed-out attempt's request open for the merchant's answer while its retry waits: an answer that
   * comes first is recorded on attempt `index` (`answeredLateAt`), and an accepted one delivers the delivery,
   * so the merchant is not sent it again needlessly. Nothing to wait for when no retry is planned (the
   * delivery was given up, its outcome is not stored yet, or the queue is closing): the request is closed.
   */
  private listenLate(id: string, index: number, late: LateAnswer): void {
    const delivery = this.records.get(id);
    if (this.closed || delivery?.state !== 'pending' || delivery.attempts.length !== index + 1) {
      late.abandon();
      return;
    }
    this.lateAnswers.set(id, late);
    void late.answer.then((result) => {
      // Abandoned meanwhile (the retry started, the delivery ended, the queue closed): the retry counts.
      if (this.lateAnswers.get(id) !== late) return;
      this.lateAnswers.delete(id);
      if ('status' in result) this.recordLate(id, index, result.status);
    });
  }

  /** The merchant answered attempt `index` after its timeout, before the retry started. */
  private recordLate(id: string, index: number, status: number): void {
    const delivery = this.records.get(id);
    if (delivery?.state !== 'pending') return;
    const accepted = isAccepted(status, delivery.acceptStatus);
    const answeredLateAt = this.now(delivery.owner);
    const attempts = delivery.attempts.map((attempt, at) =>
      at === index ? { ...attempt, status, accepted, answeredLateAt } : attempt,
    );
    try {
      if (!accepted) this.records.put(id, { ...delivery, attempts });
      else
        this.finish(
          { ...delivery, attempts, state: 'delivered', nextAttemptAt: null, finishedAt: answeredLateAt },
          this.onDelivered,
        );
    } catch (error) {
      // The store cannot write (a full disk): the retry stays planned, and the merchant gets the delivery
      // again, as at-least-once allows.
      if (!isWriteFailure(error)) throw error;
    }
  }

  /** Closes the request kept open for a late answer to the delivery's last attempt, if there is one. */
  private abandonLate(id: string): void {
    const late = this.lateAnswers.get(id);
    if (late === undefined) return;
    this.lateAnswers.delete(id);
    late.abandon();
  }

  /**
   * Stores the attempt's outcome. If the store cannot write (a full disk), the outcome is kept in memory and
   * offered to the store again a little later, instead of ending the process from a promise nobody awaits.
   */
  private recordOrKeep(delivery: Delivery, attempt: DeliveryAttempt): void {
    try {
      this.record(delivery, attempt);
    } catch (error) {
      if (!isWriteFailure(error)) throw error;
      this.unrecorded.set(delivery.id, attempt);
      this.storeLater(delivery);
    }
  }

  /** The key comes due again soon, for a write the store refused. */
  private storeLater({ owner, key }: Delivery): void {
    if (!this.closed) this.due.push(owner, key, this.now(owner) + Math.min(this.retryBaseMs, STORE_RETRY_MS));
  }

  /** A slot of the owner is free: the first key parked for want of one is due again, at the time it had. */
  private releaseSlot(owner: string): void {
    const load = (this.ownerLoad.get(owner) ?? 1) - 1;
    if (load === 0) this.ownerLoad.delete(owner);
    else this.ownerLoad.set(owner, load);
    const parked = this.parked.get(owner);
    const first = parked?.shift();
    if (parked?.length === 0) this.parked.delete(owner);
    if (first !== undefined) this.due.push(first.owner, first.key, first.at);
  }

  private record(delivery: Delivery, attempt: DeliveryAttempt): void {
    const attempts = [...delivery.attempts, attempt];
    const finishedAt = this.now(delivery.owner);
    // Forgotten in finish(), once the outcome is stored: a refused write must not lose the cancellation.
    const cancelled = this.cancelled.has(delivery.id);
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
    if (!this.closed) this.due.push(delivery.owner, delivery.key, nextAttemptAt);
  }

  private giveUp(delivery: Delivery, failure: NonNullable<Delivery['failure']>, finishedAt: number): void {
    this.finish({ ...delivery, state: 'failed', failure, nextAttemptAt: null, finishedAt }, this.onGaveUp);
  }

  /**
   * Stores the outcome, lets the key's next delivery go, and drops the oldest finished beyond the bound, all
   * in one record. The queue's own bookkeeping follows once that is stored, so a refused write (a full disk)
   * leaves it as it was.
   */
  private finish(delivery: Delivery, notify: ((delivery: Delivery) => void) | undefined): void {
    this.store.transaction(() => {
      this.records.put(delivery.id, delivery);
      const excess = this.finished.length - this.finishedHead + 1 - this.maxFinished;
      const dropped = excess > 0 ? this.finished.slice(this.finishedHead, this.finishedHead + excess) : [];
      const droppedKeys = dropped.map((id) => this.records.get(id)?.key);
      for (const id of dropped) this.records.delete(id);
      this.store.afterCommit(() => this.afterFinish(delivery, dropped, droppedKeys, notify));
    });
  }

  private afterFinish(
    delivery: Delivery,
    dropped: string[],
    droppedKeys: Array<string | undefined>,
    notify: ((delivery: Delivery) => void) | undefined,
  ): void {
    dropped.forEach((id, index) => {
      // Two finishes in one caller's transaction may pick the same oldest ones: forget each once.
      if (this.finished[this.finishedHead] !== id) return;
      this.finishedHead++;
      this.forget(id, droppedKeys[index]);
    });
    this.finished.push(delivery.id);
    if (this.finishedHead > 1024 && this.finishedHead * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.finishedHead);
      this.finishedHead = 0;
    }
    this.cancelled.delete(delivery.id);
    this.abandonLate(delivery.id);
    this.pending--;
    const ids = this.waiting.get(delivery.key)!;
    ids.shift();
    if (ids.length === 0) this.waiting.delete(delivery.key);
    else if (!this.closed) {
      const next = this.records.get(ids[0]!);
      this.due.push(next?.owner, delivery.key, next?.nextAttemptAt ?? this.now(next?.owner));
    }
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

  /** Drops a forgotten delivery (its record is deleted already) from the key's history. */
  private forget(id: string, key: string | undefined): void {
    const ids = key === undefined ? undefined : this.history.get(key);
    if (ids === undefined) return;
    const index = ids.indexOf(id);
    if (index !== -1) ids.splice(index, 1);
    if (ids.length === 0) this.history.delete(key!);
  }

  private wakeIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }
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
