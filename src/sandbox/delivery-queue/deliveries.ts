/**
 * Deliveries as the queue stores them (every delivery and every attempt is kept, so a restart resumes what
 * was not delivered and the history can be shown), what a caller asks to deliver, and what one attempt to
 * send comes to.
 */

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
  /** Whose delivery it is (a merchant id): the unit that shares slots. Default: the URL's origin. */
  owner?: string;
  /**
   * A header to add when the delivery goes out: the body's signature by the queue's {@link DeliverySigner}
   * (the sandbox's service key). Made when sent, not stored: the same body and key give the same signature
   * (RSA PKCS#1 v1.5 is deterministic), so every attempt and every view carries the same bytes, and the RSA
   * work runs on the thread pool rather than in the transaction that enqueues the delivery.
   */
  signatureHeader?: string;
}

/** Signs bodies for {@link DeliveryRequest.signatureHeader}: at once (for a view), or off the event loop. */
export interface DeliverySigner {
  now(body: string): string;
  later(body: string): Promise<string>;
}

/** One try at a delivery. */
export interface DeliveryAttempt {
  /** When it started, in epoch milliseconds. */
  at: number;
  durationMs: number;
  /** The merchant's HTTP status, when it answered (after the timeout too: see `answeredLateAt`). */
  status?: number;
  /** Why there was no answer (refused connection, timeout), when there was none in time. */
  error?: string;
  accepted: boolean;
  /**
   * When the merchant's answer (`status`) came after the attempt had timed out, in epoch milliseconds: the
   * request was kept open until the retry was due, and the answer came first. An accepted late answer
   * delivers the delivery, and its retry is not made.
   */
  answeredLateAt?: number;
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
  /** See {@link DeliveryRequest.owner}. */
  owner?: string;
  /** See {@link DeliveryRequest.signatureHeader}. */
  signatureHeader?: string;
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

/**
 * What one attempt came to: the merchant's status, or why there was none. A timed-out attempt may still be
 * listening for the merchant's answer (`lateAnswer`): the queue keeps it until the retry is due.
 */
export type SendResult = { status: number } | { error: string; lateAnswer?: LateAnswer };

/**
 * The request of a timed-out attempt, still open: the merchant may answer yet. The queue abandons it when the
 * retry starts (the retry is then the one that counts), when the delivery ends otherwise, and at close.
 */
export interface LateAnswer {
  /** Resolves with the merchant's status, or with why the request ended without one; never rejects. */
  readonly answer: Promise<{ status: number } | { error: string }>;
  /** Closes the request; `answer` then resolves with an error. */
  abandon(): void;
}

/** Whether the merchant's status is the accepting one for the delivery's {@link AcceptStatus}. */
export function isAccepted(status: number, rule: AcceptStatus): boolean {
  return rule === 'exactly-200' ? status === 200 : status >= 200 && status < 300;
}
