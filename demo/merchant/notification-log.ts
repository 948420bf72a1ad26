/**
 * What the demo merchant keeps of the gateway's purchase notifications. The gateway delivers at least once,
 * so the same notification may arrive again (a retry after a lost answer): a delivery is the same
 * notification when its order id, status and payment reference match one already kept, and then only its
 * count goes up. The reference counts because an order can end several attempts with one status (two
 * declined cards: two FAILED notifications, each with its own attempt's reference).
 */
import type { PurchaseNotification } from 'svc-checkout/server';

/** A purchase notification whose signature checked out. */
export interface VerifiedNotification {
  /** `<gateway order id>:<status>:<payment reference>`: what tells a new notification from a repeated delivery. */
  key: string;
  /** When it first arrived (ISO 8601). */
  receivedAt: string;
  /** How many times it was delivered: more than 1 only when the gateway retried. */
  deliveries: number;
  notification: PurchaseNotification;
}

/**
 * A delivery to the notification URL that was refused: forged, altered or unreadable (answered 401 or 400),
 * or signed by the gateway but saying PAID for an order other than the one the shop signed (answered 200, so
 * that the gateway stops sending it, and not taken as paid).
 */
export interface RefusedNotification {
  receivedAt: string;
  /** The HTTP status answered. */
  status: number;
  /**
   * `signature_missing`, `signature_invalid`, `malformed_body`, ...; for a signed PAID notification,
   * verifyPaidOrder's code (`total_mismatch`, `item_mismatch`, ...) or `unknown_order`.
   */
  code: string;
  message: string;
  /** For a signed notification: the member that differs from the signed order, such as `total_amount`. */
  field?: string;
  /** For a signed notification: its merchant order id. */
  orderId?: string | null;
}

/** What the log tells its listeners (and the notifications page, as server-sent events). */
export type NotificationLogEvent =
  | { type: 'notification'; notification: VerifiedNotification; repeated: boolean }
  | { type: 'refused'; refused: RefusedNotification };

export class NotificationLog {
  private readonly byKey = new Map<string, VerifiedNotification>();
  private readonly verified: VerifiedNotification[] = [];
  private readonly refusedList: RefusedNotification[] = [];
  private readonly listeners = new Set<(event: NotificationLogEvent) => void>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Verified notifications, one per order id, status and payment reference, oldest first. */
  get notifications(): readonly VerifiedNotification[] {
    return this.verified;
  }

  /** Refused deliveries, oldest first. */
  get refused(): readonly RefusedNotification[] {
    return this.refusedList;
  }

  /** Keeps a verified notification, or counts a repeated delivery of one already kept. */
  add(notification: PurchaseNotification): VerifiedNotification {
    const key = `${notification.id}:${notification.status}:${notification.payment.accountStatementReference ?? ''}`;
    const known = this.byKey.get(key);
    if (known) {
      known.deliveries += 1;
      this.emit({ type: 'notification', notification: known, repeated: true });
      return known;
    }
    const entry: VerifiedNotification = {
      key,
      receivedAt: this.now().toISOString(),
      deliveries: 1,
      notification,
    };
    this.byKey.set(key, entry);
    this.verified.push(entry);
    this.emit({ type: 'notification', notification: entry, repeated: false });
    return entry;
  }

  /** Records a refused delivery. */
  refuse(refused: Omit<RefusedNotification, 'receivedAt'>): void {
    const entry = { receivedAt: this.now().toISOString(), ...refused };
    this.refusedList.push(entry);
    this.emit({ type: 'refused', refused: entry });
  }

  /** Calls `listener` on each notification kept or repeated, and each refusal; returns the unsubscribe. */
  subscribe(listener: (event: NotificationLogEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Resolves with the first kept notification that matches, waiting for it if need be.
   * @throws Error after `timeoutMs` without one, naming what was kept so the failure explains itself.
   */
  waitFor(
    match: (entry: VerifiedNotification) => boolean,
    timeoutMs = 10_000,
  ): Promise<VerifiedNotification> {
    const found = this.verified.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        const kept = this.verified.map((entry) => entry.key).join(', ') || 'none';
        reject(new Error(`No matching notification within ${timeoutMs} ms; kept: ${kept}`));
      }, timeoutMs);
      const unsubscribe = this.subscribe((event) => {
        if (event.type === 'notification' && !event.repeated && match(event.notification)) {
          clearTimeout(timer);
          unsubscribe();
          resolve(event.notification);
        }
      });
    });
  }

  private emit(event: NotificationLogEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
