/**
 * v1 Webhooks in the sandbox store: each merchant's callback targets, each with its own RSA key pair. The
 * public half is the webhook's `public_key`; the private half signs its deliveries and stays in the store,
 * never in an answer. One merchant never sees another's webhooks.
 */
import { randomUUID } from 'node:crypto';
import type { Webhook, WebhookEventType } from '../../core/v1-types.js';
import { generateMerchantKeyPair } from '../../server/index.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { V1HttpError } from './errors.js';
import type { WebhookDraft } from './webhook-request.js';

/** A webhook as stored. */
export interface WebhookRecord {
  merchantId: string;
  /** Creation order, which lists keep. */
  seq: number;
  webhook: Webhook;
  /** PKCS#8 PEM; signs the webhook's deliveries. */
  privateKeyPem: string;
}

export class V1Webhooks {
  private readonly records: Collection<WebhookRecord>;
  private seq = 0;

  constructor(
    store: Store,
    /** Now on the merchant's clock. */
    private readonly now: (merchantId: string) => Date,
  ) {
    this.records = store.collection<WebhookRecord>('v1-webhooks');
    for (const record of this.records.values()) this.seq = Math.max(this.seq, record.seq);
  }

  private seconds(merchantId: string): number {
    return Math.floor(this.now(merchantId).getTime() / 1000);
  }

  /** Registers a webhook with a new key pair (generated off the event loop: it takes a while). */
  async create(merchantId: string, draft: WebhookDraft): Promise<WebhookRecord> {
    const keys = await generateMerchantKeyPair();
    const now = this.seconds(merchantId);
    const record: WebhookRecord = {
      merchantId,
      seq: ++this.seq,
      webhook: {
        id: randomUUID(),
        ...draft,
        public_key: keys.publicKeyPem,
        created_on: now,
        updated_on: now,
      },
      privateKeyPem: keys.privateKeyPem,
    };
    this.records.put(record.webhook.id, record);
    return record;
  }

  /** The merchant's webhooks, oldest first. */
  list(merchantId: string): WebhookRecord[] {
    return [...this.records.values()]
      .filter((record) => record.merchantId === merchantId)
      .sort((a, b) => a.seq - b.seq);
  }

  /**
   * The merchant's webhook `id`.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  get(merchantId: string, id: string): WebhookRecord {
    const record = UUID.test(id) ? this.records.get(id.toLowerCase()) : undefined;
    if (!record || record.merchantId !== merchantId) {
      throw V1HttpError.nonField(404, 'not_found', `No webhook ${id}`);
    }
    return record;
  }

  /** The members a merchant sets, for a `PATCH` to lay its changes over. */
  draftOf(record: WebhookRecord): WebhookDraft {
    const { title, callback, all_events, events } = record.webhook;
    return { title, callback, all_events, events };
  }

  /**
   * Replaces the members a merchant sets; the key pair stays.
   * @throws V1HttpError 404 when there is no such webhook.
   */
  update(merchantId: string, id: string, draft: WebhookDraft): WebhookRecord {
    const record = this.get(merchantId, id);
    const updated: WebhookRecord = {
      ...record,
      webhook: { ...record.webhook, ...draft, updated_on: this.seconds(merchantId) },
    };
    this.records.put(updated.webhook.id, updated);
    return updated;
  }

  /**
   * Removes the webhook: events from now on are not delivered to it. Its past deliveries stay listed.
   * @returns the removed webhook's id (lower case).
   * @throws V1HttpError 404 when there is no such webhook.
   */
  delete(merchantId: string, id: string): string {
    const { webhook } = this.get(merchantId, id);
    this.records.delete(webhook.id);
    return webhook.id;
  }

  /** The merchant's webhooks that subscribe to `event`, oldest first. */
  subscribers(merchantId: string, event: WebhookEventType): WebhookRecord[] {
    return this.list(merchantId).filter(
      (record) => record.webhook.all_events || record.webhook.events.includes(event),
    );
  }
}

/** The webhook as the API answers it: everything but the private key. */
export function webhookView(record: WebhookRecord): Webhook {
  return { ...record.webhook };
}
