/**
 * Webhooks: the registered targets, what they subscribe to and receive, and their deliveries.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { Purchase, PurchaseEventType, V1EventType } from './purchase.js';

/**
 * Events the sandbox sends beyond the document's list: the document names no event for cancelling a
 * Purchase, and the sandbox sends `purchase.cancelled` so that a subscriber hears of every state its
 * purchases reach. A real gateway may not send it.
 */
export type SandboxPurchaseEventType = 'purchase.cancelled';

/** What a webhook can subscribe to: every event of the document, and the sandbox's own. */
export type WebhookEventType = V1EventType | SandboxPurchaseEventType;

/**
 * The body of a Purchase webhook delivery: the Purchase when the event happened, with the event's name (as in
 * a success callback, whose payload is the same Purchase snapshot).
 */
export type PurchaseWebhookPayload = Omit<Purchase, 'event_type'> & {
  event_type: PurchaseEventType | SandboxPurchaseEventType;
};

/**
 * A registered callback target, as `/webhooks/` answers it. The document names `public_key` only and leaves
 * the URL and the event selection open; the sandbox names them `callback`, `events` and `all_events`, and
 * sends `title`, `created_on` and `updated_on` besides.
 */
export interface Webhook {
  /** UUID. */
  id: string;
  /** The merchant's own name for it. */
  title: string;
  /** Receives the deliveries (POST, JSON, signed `X-Signature`). */
  callback: string;
  /** `true` delivers every event, including any added later; `events` is then ignored. */
  all_events: boolean;
  /** The events delivered when `all_events` is `false`. */
  events: WebhookEventType[];
  /** PEM (SPKI, `-----BEGIN PUBLIC KEY-----`) of the webhook's own key pair: it verifies `X-Signature`. */
  public_key: string;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  created_on?: number;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  updated_on?: number;
}

/**
 * The body of `POST /webhooks/` and `PUT /webhooks/{id}/` (`PATCH` takes any part of it). The sandbox
 * requires `title` and `callback`, and either `all_events: true` or at least one event.
 */
export interface WebhookRequest {
  title: string;
  /** An absolute http(s) URL. */
  callback: string;
  /** Default `false`. */
  all_events?: boolean;
  /** Default none; each a {@link WebhookEventType}. */
  events?: WebhookEventType[];
}

/**
 * The kind of object whose deliveries `GET /webhooks/deliveries/` lists (the document's WebhookSourceType,
 * whose values it does not show; the sandbox names the four kinds the endpoint mentions).
 */
export type WebhookSourceType = 'purchase' | 'payment' | 'payout' | 'billing_template_client';

/** The query of `GET /webhooks/deliveries/`. */
export interface WebhookDeliveriesQuery {
  /** UUID of the Purchase, Payment, Payout or BillingTemplateClient. */
  id: string;
  source_type: WebhookSourceType;
}

/** One try at a delivery: the sandbox's shape (the document does not show one). */
export interface WebhookDeliveryAttempt {
  /** ISO 8601: when the attempt started. */
  attempted_on: string;
  /** The receiver's HTTP status, or null when it did not answer. */
  status_code: number | null;
  /** Why there was no answer (refused connection, timeout), or null when there was one. */
  error: string | null;
  /** Whether the receiver accepted it (answered 2xx). */
  successful: boolean;
  duration_ms: number;
}

/** One delivery of a webhook event, as `GET /webhooks/deliveries/` lists it. */
export interface WebhookDelivery {
  /** ISO 8601. */
  created_on: string;
  /** ISO 8601, or null while not delivered. */
  delivered_on: string | null;
  attempts: number;
  /** The sandbox sends {@link WebhookDeliveryAttempt}s; the document does not show their shape. */
  delivery_attempts: unknown[];
  url: string;
  /** A {@link V1EventType}, or one of the sandbox's own ({@link SandboxPurchaseEventType}). */
  event: WebhookEventType;
  payload: Record<string, unknown>;
  /** Not named by the document; the sandbox sends it. UUID of the delivery. */
  id?: string;
  /** Not named by the document; the sandbox sends it. The webhook it went to (which may be deleted since). */
  webhook_id?: string;
  /** Not named by the document; the sandbox sends it. `failed`: every allowed attempt failed, or 36 h passed. */
  status?: 'pending' | 'delivered' | 'failed';
  /** Not named by the document; the sandbox sends it. ISO 8601 of the next attempt; null when none is due. */
  next_attempt_on?: string | null;
}
