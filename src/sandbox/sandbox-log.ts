/**
 * What the sandbox does, as a stream of typed entries: one per request answered, one per delivery attempt
 * (with the next retry when one is due), one per order signature that did not verify. The CLI prints them as
 * lines; in process they are `startSandbox({ onLog })` or `sandbox.log`; over HTTP, `GET /sandbox/logs`.
 *
 * No entry carries a request body, card data or a key: requests give method, path (without the query) and
 * status; deliveries their URL and outcome. Nothing is made while nobody listens: the hot path pays one
 * boolean test per request.
 */
import type { IncomingMessage } from 'node:http';
import type { SignatureDiagnosis } from '../core/widget-api.js';
import type { Delivery, DeliveryAttempt } from './delivery-queue.js';

/** A request the sandbox answered. */
export interface RequestLogEntry {
  kind: 'request';
  /** When the answer was sent (real time, ISO 8601). */
  at: string;
  method: string;
  /** The path without its query: ids may show, query values (and bodies) never do. */
  path: string;
  status: number;
  durationMs: number;
  /** The merchant the request was for, when the route knew it (API key, bearer key, widget, order, Purchase). */
  merchantId?: string;
}

/** What the sandbox delivers to merchant URLs: legacy purchase notifications, v1 success callbacks, webhooks. */
export type DeliveryKind = 'notification' | 'success_callback' | 'webhook';

/** One attempt at a delivery, and what follows it. */
export interface DeliveryLogEntry {
  kind: 'delivery';
  /** When the attempt ended, on the sandbox clock (ISO 8601). */
  at: string;
  deliveryId: string;
  delivery: DeliveryKind;
  /** The event: `purchase.paid` (v1), or the notification's status, `PAID`. */
  event?: string;
  method: string;
  url: string;
  merchantId?: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** The merchant's HTTP status, when it answered. */
  status?: number;
  /** Why there was no answer (refused connection, timeout). */
  error?: string;
  durationMs: number;
  /** `retrying` while a further attempt is planned (`nextAttemptAt`); `gave_up` with `failure` once not. */
  outcome: 'delivered' | 'retrying' | 'gave_up';
  /** When the next attempt is due, on the sandbox clock (ISO 8601). */
  nextAttemptAt?: string;
  /** How long until then, in milliseconds of the sandbox clock. */
  nextAttemptInMs?: number;
  failure?: NonNullable<Delivery['failure']>;
}

/** An order whose signature did not verify at intake: answered `signature_invalid`, with why. */
export interface SignatureMismatchLogEntry {
  kind: 'signature_mismatch';
  /** Real time, ISO 8601. */
  at: string;
  merchantId: string;
  widgetId: string;
  diagnosis: SignatureDiagnosis;
}

export type SandboxLogEntry = RequestLogEntry | DeliveryLogEntry | SignatureMismatchLogEntry;

/**
 * Listeners of one kind of thing: `subscribe` hears everything from now on; `entries()` is the same as an
 * async iterable (end it with `break`, or an abort signal).
 */
export class Channel<T> {
  private readonly listeners = new Set<(item: T) => void>();

  /** Whether anybody listens: items are made only then. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Hears every item from now on; returns the function that stops it. */
  subscribe(listener: (item: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(item: T): void {
    for (const listener of this.listeners) {
      try {
        listener(item);
      } catch (error) {
        // A listener's error is the listener's, as an event emitter's would be: the sandbox goes on.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** The items from now on, as an async iterable; it ends at `break` or when `signal` aborts. */
  async *entries(options: { signal?: AbortSignal } = {}): AsyncGenerator<T, void, undefined> {
    const buffered: T[] = [];
    let wake: (() => void) | undefined;
    const stop = this.subscribe((item) => {
      buffered.push(item);
      wake?.();
    });
    const onAbort = () => wake?.();
    options.signal?.addEventListener('abort', onAbort);
    try {
      while (!options.signal?.aborted) {
        if (buffered.length > 0) yield buffered.shift()!;
        else
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
        wake = undefined;
      }
    } finally {
      stop();
      options.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The sandbox's log stream ({@link Sandbox.log}). */
export class SandboxLog extends Channel<SandboxLogEntry> {}

/** Which merchant a request was for, noted by the route that found out; read once the answer is sent. */
const requestMerchants = new WeakMap<IncomingMessage, string>();

/** Notes the merchant a request is for, for its log line. */
export function noteMerchant(req: IncomingMessage, merchantId: string): void {
  requestMerchants.set(req, merchantId);
}

/** The entry of a request, once its answer is sent. */
export function requestEntry(req: IncomingMessage, status: number, durationMs: number): RequestLogEntry {
  const target = req.url ?? '/';
  const query = target.search(/[?#]/);
  const merchantId = requestMerchants.get(req);
  return {
    kind: 'request',
    at: new Date().toISOString(),
    method: req.method ?? '',
    path: query === -1 ? target : target.slice(0, query),
    status,
    durationMs: Math.round(durationMs),
    ...(merchantId !== undefined && { merchantId }),
  };
}

/** What kind of delivery the queue's record is, by the key its maker gave it. */
export function deliveryKindOf(delivery: Delivery): DeliveryKind {
  if (delivery.key.startsWith('v1-webhook:')) return 'webhook';
  if (delivery.key.startsWith('v1-purchase:')) return 'success_callback';
  return 'notification';
}

/** The event of a delivery: a v1 delivery's own, or a legacy notification's status, read from its body. */
export function deliveryEventOf(delivery: Delivery): string | undefined {
  if (deliveryKindOf(delivery) !== 'notification') return delivery.event;
  try {
    const status = (JSON.parse(delivery.body) as { status?: unknown }).status;
    return typeof status === 'string' ? status : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The entry of an attempt (number `attemptNumber`, from 1). `stored` is the delivery as the queue stored it
 * after the attempt (its state and next attempt); `nowMs` the queue's clock.
 */
export function deliveryEntry(
  stored: Delivery,
  attempt: DeliveryAttempt,
  attemptNumber: number,
  nowMs: number,
): DeliveryLogEntry {
  const event = deliveryEventOf(stored);
  const retrying = stored.state === 'pending' && stored.nextAttemptAt !== null;
  return {
    kind: 'delivery',
    at: new Date(nowMs).toISOString(),
    deliveryId: stored.id,
    delivery: deliveryKindOf(stored),
    ...(event !== undefined && { event }),
    method: stored.method,
    url: stored.url,
    ...(stored.owner !== undefined && { merchantId: stored.owner }),
    attempt: attemptNumber,
    ...(attempt.status !== undefined && { status: attempt.status }),
    ...(attempt.error !== undefined && { error: attempt.error }),
    durationMs: attempt.durationMs,
    outcome: stored.state === 'delivered' ? 'delivered' : retrying ? 'retrying' : 'gave_up',
    ...(retrying && {
      nextAttemptAt: new Date(stored.nextAttemptAt!).toISOString(),
      nextAttemptInMs: Math.max(0, stored.nextAttemptAt! - nowMs),
    }),
    ...(stored.failure !== undefined && { failure: stored.failure }),
  };
}

/** `15:31:02`: an entry's time of day, in the reader's time zone. */
function clockTime(iso: string): string {
  const date = new Date(iso);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
}

/** A wait as people read it: `20 ms`, `1.5 s`, `60 s`. */
function wait(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return ms < 10_000 && ms % 1000 !== 0 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

const DELIVERY_NAMES: Record<DeliveryKind, string> = {
  notification: 'notification',
  success_callback: 'success callback',
  webhook: 'webhook',
};

const FAILURES: Record<NonNullable<Delivery['failure']>, string> = {
  attempts_exhausted: 'every allowed attempt failed',
  expired: 'its 36-hour window closed',
  cancelled: 'its webhook was deleted',
};

/** An entry as the CLI prints it: one line. */
export function formatLogEntry(entry: SandboxLogEntry): string {
  const time = clockTime(entry.at);
  switch (entry.kind) {
    case 'request':
      return `${time} ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs} ms${entry.merchantId === undefined ? '' : ` ${entry.merchantId}`}`;
    case 'delivery': {
      const what = `${DELIVERY_NAMES[entry.delivery]}${entry.event === undefined ? '' : ` ${entry.event}`}`;
      const answer =
        entry.status !== undefined
          ? `answered ${entry.status} after ${entry.durationMs} ms`
          : `no answer after ${entry.durationMs} ms (${entry.error ?? 'unknown error'})`;
      const next =
        entry.outcome === 'retrying'
          ? `; next attempt at ${clockTime(entry.nextAttemptAt!)} (in ${wait(entry.nextAttemptInMs!)})`
          : entry.outcome === 'gave_up'
            ? `; given up: ${FAILURES[entry.failure ?? 'attempts_exhausted']}`
            : '; delivered';
      return `${time} ${what} ${entry.method} ${entry.url} ${answer}; attempt ${entry.attempt}${next}${entry.merchantId === undefined ? '' : ` ${entry.merchantId}`}`;
    }
    case 'signature_mismatch':
      return `${time} signature_invalid for widget ${entry.widgetId} (${entry.merchantId}): ${entry.diagnosis.finding}; the text checked was ${JSON.stringify(entry.diagnosis.signedText)}`;
  }
}
