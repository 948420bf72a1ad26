/**
 * The sandbox's clocks: one per merchant, each real time plus an offset that only ever grows. Every time rule
 * of the gateway reads the clock of the merchant it belongs to (a Purchase's `due`, the 6-day release of a
 * reservation, the slow acquirer's answer, delivery retries), and tests move it forward instead of sleeping:
 * through {@link SandboxClock.advance} or {@link SandboxClock.step}, or from outside through
 * `POST /sandbox/v1/clock` (merchants' own integration tests). A merchant's step moves only its own time, so
 * that test files of different merchants run in parallel without disturbing each other. The offsets are kept
 * in the store, so a restart on the same data dir does not turn time back.
 *
 * What reads real time instead: checks of what a caller's own clock wrote (the `Date` of a signed request, a
 * token's expiry, certificate validity), which an advanced sandbox clock would otherwise refuse.
 */
import type { Collection, Store } from './store.js';

/** The longest wait `setTimeout` takes; a later task is re-armed when this much has passed. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How soon a task that failed (it could not write) runs again. */
const RETRY_MS = 1000;
/** How long a step works before it lets other requests in (one turn of the event loop). */
const STEP_SLICE_MS = 10;

interface Task {
  at: number;
  /** The time the task was first due: what it sees as now when it runs late (a retry after a full disk). */
  datedAt: number;
  run: () => void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Work on the clock that is not a task: the delivery queue. A {@link SandboxClock.step} makes it, in time
 * order with the tasks, and waits for it before moving on.
 */
export interface ClockWork {
  /** When the earliest of it is due (epoch ms on the clock it works for), if any. */
  nextDueAt(): number | undefined;
  /** Does what is due now and resolves once it is done; false when nothing could progress (a full disk). */
  runDue(): Promise<boolean>;
}

/** The offsets kept in the store, one per merchant id. */
const CLOCKS = 'sandbox-clocks';
/** Where data dirs of earlier versions kept the one sandbox-wide offset (id `offset`). */
const SHARED_CLOCK = 'sandbox-clock';

interface SavedOffset {
  offsetMs: number;
}

/** One merchant's clock. */
export class SandboxClock {
  private readonly tasks = new Map<string, Task>();
  private readonly listeners = new Set<() => void>();
  private readonly works = new Set<ClockWork>();
  /** Steps go one at a time: each one's tasks and work in order. */
  private stepping: Promise<void> = Promise.resolve();
  /** While a late task runs: the time it was due, which it reads as now. */
  private datedMs: number | undefined;

  constructor(
    /** Whose clock it is: the merchant id it is kept under. */
    readonly merchantId: string,
    private readonly saved: Collection<SavedOffset>,
    private offsetMs: number,
    /** Real time in epoch milliseconds (a fixed clock in some tests). */
    private readonly realMs: () => number,
  ) {}

  /** Now on the merchant's clock, in epoch milliseconds. */
  nowMs(): number {
    return this.datedMs ?? this.realMs() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** How far the merchant's clock is ahead of real time. */
  get aheadMs(): number {
    return this.offsetMs;
  }

  /**
   * Moves the clock forward by `ms` and runs, in time order, every task that came due on the way; each sees
   * the clock at its own due time, so that what it records is dated when it would have happened.
   * @throws RangeError when `ms` is not a non-negative safe integer: the clock never goes back.
   */
  advance(ms: number): void {
    checkStep(ms);
    // The offset grows by exactly `ms`, however long the tasks on the way take in real time.
    const finalOffset = this.offsetMs + ms;
    const failed: Array<[string, Task]> = [];
    for (;;) {
      const [key, task] = this.nextDue(this.realMs() + finalOffset);
      if (key === undefined || task === undefined) break;
      this.setOffset(Math.min(finalOffset, Math.max(this.offsetMs, task.at - this.realMs())));
      if (!this.fire(key, task)) failed.push([key, task]);
    }
    this.setOffset(finalOffset);
    for (const [key, task] of failed) this.retryLater(key, task);
    for (const listener of this.listeners) listener();
  }

  /**
   * Moves the clock forward by `ms` as {@link advance} does, and also makes, in time order with the tasks,
   * the work that falls due on the way (delivery attempts), waiting for each before going on: what was due
   * within the step is done (or attempted) when it resolves. A long step lets other requests in between its
   * slices. Steps wait for one another.
   * @throws RangeError as {@link advance}.
   */
  step(ms: number): Promise<void> {
    checkStep(ms);
    const run = this.stepping.then(() => this.stepNow(ms));
    this.stepping = run.catch(() => {});
    return run;
  }

  private async stepNow(ms: number): Promise<void> {
    const finalOffset = this.offsetMs + ms;
    const failed: Array<[string, Task]> = [];
    // Work that could not progress (a full disk) is left to real time for the rest of the step.
    const stuck = new Set<ClockWork>();
    let sliceStart = performance.now();
    for (;;) {
      const target = this.realMs() + finalOffset;
      const [key, task] = this.nextDue(target);
      const [work, workAt] = this.nextWork(target, stuck);
      if (task !== undefined && key !== undefined && (work === undefined || task.at <= workAt)) {
        this.moveTo(task.at, finalOffset);
        if (!this.fire(key, task)) failed.push([key, task]);
      } else if (work !== undefined) {
        this.moveTo(workAt, finalOffset);
        if (!(await work.runDue())) stuck.add(work);
      } else break;
      if (performance.now() - sliceStart > STEP_SLICE_MS) {
        await new Promise((resolveTurn) => setImmediate(resolveTurn));
        sliceStart = performance.now();
      }
    }
    this.setOffset(Math.max(this.offsetMs, finalOffset));
    for (const [key, task] of failed) this.retryLater(key, task);
    for (const listener of this.listeners) listener();
  }

  /** Work the steps make (the delivery queue). */
  addWork(work: ClockWork): () => void {
    this.works.add(work);
    return () => this.works.delete(work);
  }

  /**
   * Runs `run` once the clock reaches `at` (epoch ms), by real time passing or by {@link advance}. A task of
   * the same key replaces the earlier one. Tasks live in memory: their owners set them again from their
   * stored state when the sandbox starts.
   */
  at(key: string, at: number, run: () => void): void {
    this.cancel(key);
    const task: Task = { at, datedAt: at, run, timer: undefined };
    this.tasks.set(key, task);
    this.arm(key, task);
  }

  cancel(key: string): void {
    const task = this.tasks.get(key);
    if (task) clearTimeout(task.timer);
    this.tasks.delete(key);
  }

  /** Calls `listener` after each {@link advance} (the delivery queue re-reads its due times). */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops every timer; tasks not run yet are set again at the next start from stored state. */
  close(): void {
    for (const task of this.tasks.values()) clearTimeout(task.timer);
    this.tasks.clear();
    this.listeners.clear();
    this.works.clear();
  }

  private nextWork(target: number, stuck: ReadonlySet<ClockWork>): [ClockWork | undefined, number] {
    let found: [ClockWork | undefined, number] = [undefined, Number.POSITIVE_INFINITY];
    for (const work of this.works) {
      const at = stuck.has(work) ? undefined : work.nextDueAt();
      if (at !== undefined && at <= target && at < found[1]) found = [work, at];
    }
    return found;
  }

  /**
   * The clock at `at`, never beyond the step's end, and never back: where it is if that is later (an
   * in-process advance made while the step let other work in).
   */
  private moveTo(at: number, finalOffset: number): void {
    this.setOffset(Math.max(this.offsetMs, Math.min(finalOffset, at - this.realMs())));
  }

  private nextDue(target: number): [string | undefined, Task | undefined] {
    let found: [string | undefined, Task | undefined] = [undefined, undefined];
    for (const [key, task] of this.tasks) {
      if (task.at <= target && (found[1] === undefined || task.at < found[1].at)) found = [key, task];
    }
    return found;
  }

  private arm(key: string, task: Task): void {
    const wait = task.at - this.nowMs();
    task.timer = setTimeout(
      () => {
        if (this.tasks.get(key) !== task) return;
        if (task.at > this.nowMs()) this.arm(key, task);
        else if (!this.fire(key, task)) this.retryLater(key, task);
      },
      Math.min(Math.max(0, wait), MAX_TIMER_MS),
    );
    // A pending task alone does not keep the process (or a merchant's test runner) alive.
    task.timer.unref();
  }

  /**
   * Runs the task; false when it failed (a full disk, say), which must not stop the tasks after it. A task
   * run late (retried after a failure, or a timer behind the clock) reads the time it was due as now, so
   * that what it records is dated as it would have been: a billing missed while the disk was full is dated
   * by its period, not by the day the disk was freed.
   */
  private fire(key: string, task: Task): boolean {
    clearTimeout(task.timer);
    this.tasks.delete(key);
    const late = this.datedMs === undefined && task.datedAt < this.nowMs();
    if (late) this.datedMs = task.datedAt;
    try {
      task.run();
      return true;
    } catch (error) {
      console.error(`svc-sandbox: the timed task ${key} failed; trying again in a second:`, error);
      return false;
    } finally {
      if (late) this.datedMs = undefined;
    }
  }

  private retryLater(key: string, task: Task): void {
    if (this.tasks.has(key)) return;
    this.at(key, this.nowMs() + RETRY_MS, task.run);
    this.tasks.get(key)!.datedAt = task.datedAt;
  }

  private setOffset(offsetMs: number): void {
    if (offsetMs === this.offsetMs) return;
    this.saved.put(this.merchantId, { offsetMs });
    this.offsetMs = offsetMs;
  }
}

/**
 * Every merchant's clock. A merchant's own is {@link for}; {@link advance} and {@link step} move them all
 * together, as the one sandbox-wide clock of earlier versions did.
 */
export class SandboxClocks {
  private readonly saved: Collection<SavedOffset>;
  /** The offset of a data dir from before clocks were per merchant: where every merchant's starts. */
  private readonly sharedOffsetMs: number;
  private readonly clocks = new Map<string, SandboxClock>();
  private readonly listeners = new Set<() => void>();
  private workOf: ((merchantId: string) => ClockWork) | undefined;

  constructor(
    store: Store,
    /** The merchants of the sandbox: their clocks exist from the start; the first is {@link now}'s. */
    merchantIds: readonly string[],
    /** Real time in epoch milliseconds (a fixed clock in some tests). */
    private readonly realMs: () => number = Date.now,
  ) {
    this.saved = store.collection<SavedOffset>(CLOCKS);
    this.sharedOffsetMs = store.collection<SavedOffset>(SHARED_CLOCK).get('offset')?.offsetMs ?? 0;
    for (const merchantId of merchantIds) this.for(merchantId);
  }

  /** The merchant's clock, made at first use. */
  for(merchantId: string): SandboxClock {
    let clock = this.clocks.get(merchantId);
    if (clock === undefined) {
      const offsetMs = this.saved.get(merchantId)?.offsetMs ?? this.sharedOffsetMs;
      clock = new SandboxClock(merchantId, this.saved, offsetMs, this.realMs);
      clock.onAdvance(() => {
        for (const listener of this.listeners) listener();
      });
      if (this.workOf) clock.addWork(this.workOf(merchantId));
      this.clocks.set(merchantId, clock);
    }
    return clock;
  }

  /** Now on the first merchant's clock (the demo merchant's, in a sandbox without config). */
  now(): Date {
    return this.clocks.values().next().value?.now() ?? new Date(this.realMs() + this.sharedOffsetMs);
  }

  /** The latest time on any merchant's clock: a date after it is in the future on every merchant's. */
  latest(): Date {
    let latest = this.now();
    for (const clock of this.clocks.values()) if (clock.nowMs() > latest.getTime()) latest = clock.now();
    return latest;
  }

  /** Moves every merchant's clock forward by `ms`, as {@link SandboxClock.advance} does. */
  advance(ms: number): void {
    checkStep(ms);
    for (const clock of [...this.clocks.values()]) clock.advance(ms);
  }

  /** Steps every merchant's clock by `ms` at once, as {@link SandboxClock.step} does; resolves when all are done. */
  async step(ms: number): Promise<void> {
    checkStep(ms);
    await Promise.all([...this.clocks.values()].map((clock) => clock.step(ms)));
  }

  /** The work each merchant's steps make: its part of the delivery queue. */
  addWork(workOf: (merchantId: string) => ClockWork): void {
    this.workOf = workOf;
    for (const [merchantId, clock] of this.clocks) clock.addWork(workOf(merchantId));
  }

  /** Calls `listener` after any merchant's clock moved (the delivery queue re-reads its due times). */
  onAdvance(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    for (const clock of this.clocks.values()) clock.close();
    this.listeners.clear();
  }
}

function checkStep(ms: number): void {
  if (!Number.isSafeInteger(ms) || ms < 0) {
    throw new RangeError(`The clock moves forward only: ${ms} is not a whole number of milliseconds ≥ 0`);
  }
}
