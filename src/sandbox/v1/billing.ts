/**
 * v1 invoicing and subscriptions in the sandbox store: billing templates, the subscribers of subscription
 * templates (BillingTemplateClients), their charging on the sandbox clock, and the outbox of what the gateway
 * would have mailed to customers (the sandbox has no mail server).
 *
 * Every Purchase made here is made as `POST /purchases/` would make it (its request checked by
 * `readCreatePurchase`, the Client's details filled in), so it has the same events, checkout page and
 * operations. A subscriber follows the document's BillingTemplateClient table:
 *
 * - with `subscription_charge_period_end` or trial periods it is `active` at once and has no Purchase; its
 *   periods count from that day;
 * - otherwise it is `pending` with a Purchase made with `force_recurring`; paying it saves the card and makes
 *   the subscriber `active`, its periods counting from the day of the payment.
 *
 * Each billing makes the period's Purchase (with `force_recurring`) and charges the subscriber's card as
 * `POST /purchases/{id}/charge/` does: its own saved card while it is a token, else the Client's newest
 * saved card. Paid: the Purchase's events and a receipt in the outbox. Declined, or no card to charge:
 * `purchase.subscription_charge_failure` with that Purchase, which stays payable and is mailed as an invoice;
 * paying it saves the new card, which the next billings charge. Billings are tasks on the sandbox clock, set
 * again from the stored subscribers at each start; a clock that jumps several periods bills each in turn,
 * dated at its own time.
 */
import { randomUUID } from 'node:crypto';
import type {
  BillingTemplate,
  BillingTemplateClient,
  BillingTemplateClientPatch,
  BillingTemplateClientStatus,
  OutboxMessage,
  SubscriptionPeriod,
} from '../../core/v1-types.js';
import { PROMPT } from '../acquirer.js';
import type { SandboxClock } from '../clock.js';
import type { MerchantConfig } from '../config.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { periodStart, type TemplateFields } from './billing-request.js';
import type { V1Clients } from './clients.js';
import { V1HttpError } from './errors.js';
import type { PurchaseOperations } from './purchase-operations.js';
import { readCreatePurchase, requestContextOf } from './purchase-request.js';
import {
  checkoutPath,
  PAYABLE,
  type PurchaseEventName,
  type PurchaseRecord,
  type V1Purchases,
} from './purchases.js';
import type { V1Merchant } from './v1-context.js';

interface TemplateRecord {
  merchantId: string;
  seq: number;
  template: BillingTemplate;
}

/** A subscriber as stored, under `<template id>:<client id>`. */
interface SubscriberRecord {
  merchantId: string;
  templateId: string;
  clientId: string;
  seq: number;
  status: BillingTemplateClientStatus;
  /** Fixed when the subscriber is added: a later change of the template applies to new subscribers. */
  period: SubscriptionPeriod;
  periodEnd: boolean;
  /** The first Purchase (of a `pending` subscriber), or null. */
  purchaseId: string | null;
  /** When period 0 starts (epoch ms on the sandbox clock); null while pending. */
  startedAt: number | null;
  /** The next period to bill, from 0. */
  nextPeriod: number;
  /** The saved card (token Purchase id) the billings charge, once the subscriber paid with one. */
  tokenId: string | null;
  /** A billing not paid yet, sent as an invoice; paying it saves the card the next billings charge. */
  invoiceId: string | null;
  /** The sandbox as the merchant reached it: `checkout_url` of what the clock makes. */
  baseUrl: string;
  createdOn: number;
  updatedOn: number;
}

interface OutboxRecord {
  merchantId: string;
  seq: number;
  message: Omit<OutboxMessage, 'checkout_url'> & { invoice: boolean };
  baseUrl: string;
}

export interface V1BillingDeps {
  store: Store;
  clock: SandboxClock;
  purchases: V1Purchases;
  operations: PurchaseOperations;
  clients: V1Clients;
  /** The sandbox's merchants: what each one's Purchase requests are checked against. */
  merchants: readonly MerchantConfig[];
}

const TASK = 'subscription:';

export class V1Billing {
  private readonly templates: Collection<TemplateRecord>;
  private readonly subscribers: Collection<SubscriberRecord>;
  private readonly outboxRecords: Collection<OutboxRecord>;
  private seq = 0;

  constructor(private readonly deps: V1BillingDeps) {
    this.templates = deps.store.collection<TemplateRecord>('v1-billing-templates');
    this.subscribers = deps.store.collection<SubscriberRecord>('v1-billing-subscribers');
    this.outboxRecords = deps.store.collection<OutboxRecord>('v1-outbox');
    for (const collection of [this.templates, this.subscribers, this.outboxRecords] as Array<
      Collection<{ seq: number }>
    >) {
      for (const record of collection.values()) this.seq = Math.max(this.seq, record.seq);
    }
  }

  /** Sets the clock's billing of every stored subscriber again (at each start). */
  resume(): void {
    for (const subscriber of this.subscribers.values()) this.schedule(subscriber);
  }

  // -------------------------------------------------------------------------------------------------------
  // Templates

  createTemplate(merchantId: string, fields: TemplateFields): BillingTemplate {
    const now = this.seconds();
    const template: BillingTemplate = { id: randomUUID(), ...fields, created_on: now, updated_on: now };
    this.templates.put(template.id, { merchantId, seq: ++this.seq, template });
    return template;
  }

  listTemplates(merchantId: string): BillingTemplate[] {
    return this.ofMerchant(this.templates, merchantId).map((record) => record.template);
  }

  /** @throws V1HttpError 404. */
  template(merchantId: string, id: string): BillingTemplate {
    return this.templateRecord(merchantId, id).template;
  }

  /**
   * `PUT`: replaces the template's fields. Its subscribers keep the period they joined with; the Purchases
   * billed from now on copy the new `purchase`.
   * @throws V1HttpError 400 when `is_subscription` would change under subscribers; 404.
   */
  replaceTemplate(merchantId: string, id: string, fields: TemplateFields): BillingTemplate {
    const record = this.templateRecord(merchantId, id);
    if (fields.is_subscription !== record.template.is_subscription && this.subscribersOf(id).length > 0) {
      throw V1HttpError.invalid([
        {
          field: 'is_subscription',
          code: 'invalid',
          message: 'is_subscription cannot change while the template has subscribers; cancel them first',
        },
      ]);
    }
    const template: BillingTemplate = { ...record.template, ...fields, updated_on: this.seconds() };
    this.templates.put(id, { ...record, template });
    return template;
  }

  /** Deletes the template and its subscribers, whose billing stops. @throws V1HttpError 404. */
  deleteTemplate(merchantId: string, id: string): void {
    const record = this.templateRecord(merchantId, id);
    const subscribers = this.subscribersOf(record.template.id);
    this.deps.store.transaction(() => {
      for (const subscriber of subscribers)
        this.subscribers.delete(keyOf(subscriber.templateId, subscriber.clientId));
      this.templates.delete(record.template.id);
    });
    for (const subscriber of subscribers) this.schedule(subscriber);
  }

  // -------------------------------------------------------------------------------------------------------
  // Invoices

  /** `POST /billing/`: one Purchase and invoice per Client, in order. */
  bill(merchantId: string, fields: TemplateFields, clientIds: readonly string[], baseUrl: string): string[] {
    const unknown = clientIds.flatMap((clientId, index) =>
      this.deps.clients.has(merchantId, clientId)
        ? []
        : [
            {
              field: `clients[${index}].client_id`,
              code: 'invalid' as const,
              message: `clients[${index}].client_id ${clientId} is no Client of this account`,
            },
          ],
    );
    if (unknown.length > 0) throw V1HttpError.invalid(unknown);
    return this.deps.store.transaction(() =>
      clientIds.map((clientId) => {
        const record = this.makePurchase(merchantId, fields, clientId, false, baseUrl);
        this.mail(record, 'invoice', null, baseUrl);
        return record.purchase.id;
      }),
    );
  }

  /**
   * `send_invoice`: a Purchase of a one-time template for the Client, mailed as an invoice; the Client is
   * not saved to the template.
   * @throws V1HttpError 400 for a subscription template or a Client not of the account; 404.
   */
  sendInvoice(merchantId: string, templateId: string, clientId: string, baseUrl: string): PurchaseRecord {
    const { template } = this.templateRecord(merchantId, templateId);
    if (template.is_subscription) {
      throw V1HttpError.nonField(
        400,
        'invalid',
        'send_invoice takes a template with is_subscription false; add a subscriber to a subscription template with add_subscriber',
      );
    }
    this.checkClient(merchantId, clientId, 'client_id');
    return this.deps.store.transaction(() => {
      const record = this.makePurchase(merchantId, template, clientId, false, baseUrl);
      this.mail(record, 'invoice', template.id, baseUrl);
      return record;
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Subscribers

  /**
   * `add_subscriber`, by the document's table: `active` without a Purchase for trial and period-end
   * subscriptions; otherwise `pending` with a Purchase (made with `force_recurring`, mailed as an invoice).
   * @throws V1HttpError 400 for a one-time template, a Client not of the account or one subscribed already
   *   (a cancelled subscriber may be added again, starting afresh); 404.
   */
  addSubscriber(
    merchantId: string,
    templateId: string,
    clientId: string,
    baseUrl: string,
  ): { subscriber: BillingTemplateClient; purchase: PurchaseRecord | null } {
    const { template } = this.templateRecord(merchantId, templateId);
    if (!template.is_subscription || template.subscription_period === null) {
      throw V1HttpError.nonField(
        400,
        'invalid',
        'add_subscriber takes a template with is_subscription true; invoice a one-time template with send_invoice',
      );
    }
    this.checkClient(merchantId, clientId, 'client_id');
    const key = keyOf(template.id, clientId);
    const existing = this.subscribers.get(key);
    if (existing && existing.status !== 'cancelled') {
      throw V1HttpError.invalid([
        {
          field: 'client_id',
          code: 'invalid',
          message: `client ${clientId} is a subscriber of this template already (${existing.status}); PATCH its status instead`,
        },
      ]);
    }
    const nowMs = this.deps.clock.nowMs();
    const immediate = template.subscription_charge_period_end || template.subscription_trial_periods > 0;
    const { subscriber, purchase } = this.deps.store.transaction(() => {
      const purchase = immediate ? null : this.makePurchase(merchantId, template, clientId, true, baseUrl);
      if (purchase) this.mail(purchase, 'invoice', template.id, baseUrl);
      const subscriber: SubscriberRecord = {
        merchantId,
        templateId: template.id,
        clientId,
        seq: ++this.seq,
        status: immediate ? 'active' : 'pending',
        period: template.subscription_period!,
        periodEnd: template.subscription_charge_period_end,
        purchaseId: purchase?.purchase.id ?? null,
        startedAt: immediate ? nowMs : null,
        nextPeriod: immediate ? template.subscription_trial_periods : 1,
        tokenId: null,
        invoiceId: null,
        baseUrl,
        createdOn: this.seconds(),
        updatedOn: this.seconds(),
      };
      this.subscribers.put(key, subscriber);
      return { subscriber, purchase };
    });
    this.schedule(subscriber);
    return { subscriber: this.view(subscriber), purchase };
  }

  /** The template's subscribers, oldest first (none for a one-time template). @throws V1HttpError 404. */
  listSubscribers(merchantId: string, templateId: string): BillingTemplateClient[] {
    const { template } = this.templateRecord(merchantId, templateId);
    return this.subscribersOf(template.id).map((subscriber) => this.view(subscriber));
  }

  /** @throws V1HttpError 404. */
  subscriber(merchantId: string, templateId: string, clientId: string): BillingTemplateClient {
    return this.view(this.subscriberRecord(merchantId, templateId, clientId));
  }

  /**
   * `PATCH` of a subscriber's `status`:
   * - `paused`: the periods that pass are not billed; `active` again bills from the next period on;
   * - `active` for a `pending` subscriber: the merchant took its first payment elsewhere; the subscription
   *   starts now, the next billing one period later;
   * - `cancelled`: never billed again; final (add the Client again to start afresh).
   * @throws V1HttpError 400 for a change out of `cancelled`, or `pending` to `paused`; 404.
   */
  patchSubscriber(
    merchantId: string,
    templateId: string,
    clientId: string,
    patch: BillingTemplateClientPatch,
  ): BillingTemplateClient {
    const record = this.subscriberRecord(merchantId, templateId, clientId);
    if (record.status === patch.status) return this.view(record);
    const refuse = (message: string): never => {
      throw V1HttpError.invalid([{ field: 'status', code: 'invalid', message }]);
    };
    if (record.status === 'cancelled') {
      refuse('The subscriber is cancelled, which is final; add the client again with add_subscriber');
    }
    if (record.status === 'pending' && patch.status === 'paused') {
      refuse('A pending subscriber has not started; set it active (paid elsewhere) or cancelled');
    }
    const started = record.status === 'pending' && patch.status === 'active';
    const saved: SubscriberRecord = {
      ...record,
      status: patch.status,
      ...(started && { startedAt: this.deps.clock.nowMs(), nextPeriod: 1 }),
      updatedOn: this.seconds(),
    };
    this.subscribers.put(keyOf(record.templateId, record.clientId), saved);
    this.schedule(saved);
    return this.view(saved);
  }

  /**
   * Hears the Purchase events (inside the transaction of the change): a subscriber's first Purchase or
   * open invoice paid.
   */
  heard(event: PurchaseEventName, record: PurchaseRecord, baseUrl: string): void {
    // Every Purchase billing makes names its Client: a payment without one is none of a subscriber's.
    if (event !== 'purchase.paid' || record.purchase.client_id === null) return;
    const id = record.purchase.id;
    for (const subscriber of this.subscribers.values()) {
      const first = subscriber.status === 'pending' && subscriber.purchaseId === id;
      if (!first && subscriber.invoiceId !== id) continue;
      const saved: SubscriberRecord = {
        ...subscriber,
        ...(first && { status: 'active', startedAt: this.deps.clock.nowMs(), nextPeriod: 1 }),
        invoiceId: subscriber.invoiceId === id ? null : subscriber.invoiceId,
        tokenId: record.purchase.is_recurring_token ? id : subscriber.tokenId,
        updatedOn: this.seconds(),
      };
      this.subscribers.put(keyOf(subscriber.templateId, subscriber.clientId), saved);
      this.mail(record, 'receipt', subscriber.templateId, baseUrl);
      this.deps.store.afterCommit(() => this.schedule(saved));
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Outbox

  /**
   * `POST /purchases/{id}/resend_invoice/`: mails the invoice of a Purchase that can still be paid again, as
   * a new invoice in the outbox (with the billing template of a subscription's Purchase).
   * @throws V1HttpError 400 `invalid` when the purchase can no longer be paid; 404.
   */
  resendInvoice(merchantId: string, id: string, baseUrl: string): PurchaseRecord {
    const record = this.deps.purchases.get(merchantId, id);
    if (!PAYABLE.has(record.purchase.status)) {
      throw V1HttpError.nonField(
        400,
        'invalid',
        `The purchase is ${record.purchase.status}; there is nothing to invoice`,
      );
    }
    const subscriber = [...this.subscribers.values()].find(
      (candidate) =>
        candidate.invoiceId === record.purchase.id || candidate.purchaseId === record.purchase.id,
    );
    this.deps.store.transaction(() => this.mail(record, 'invoice', subscriber?.templateId ?? null, baseUrl));
    return record;
  }

  /** What the gateway would have mailed to the merchant's customers, oldest first. */
  outbox(merchantId: string): OutboxMessage[] {
    return this.ofMerchant(this.outboxRecords, merchantId).map(({ message, baseUrl }) => {
      const { invoice, ...rest } = message;
      return { ...rest, checkout_url: invoice ? `${baseUrl}${checkoutPath(message.purchase_id)}` : null };
    });
  }

  // -------------------------------------------------------------------------------------------------------

  /** Sets (or clears) the clock's task of the subscriber's next billing. */
  private schedule(subscriber: SubscriberRecord): void {
    const key = keyOf(subscriber.templateId, subscriber.clientId);
    const current = this.subscribers.get(key);
    const at = current ? this.nextBillingAt(current) : null;
    if (at === null) this.deps.clock.cancel(`${TASK}${key}`);
    else this.deps.clock.at(`${TASK}${key}`, at, () => this.billPeriod(key));
  }

  private nextBillingAt(subscriber: SubscriberRecord): number | null {
    if (subscriber.startedAt === null || (subscriber.status !== 'active' && subscriber.status !== 'paused')) {
      return null;
    }
    return periodStart(
      subscriber.startedAt,
      subscriber.period,
      subscriber.nextPeriod + (subscriber.periodEnd ? 1 : 0),
    );
  }

  /** The clock reached a subscriber's billing: bill the period (unless paused) and set the next. */
  private billPeriod(key: string): void {
    const subscriber = this.subscribers.get(key);
    if (!subscriber || (subscriber.status !== 'active' && subscriber.status !== 'paused')) return;
    const template = this.templates.get(subscriber.templateId)?.template;
    const gone = !template || !this.deps.clients.has(subscriber.merchantId, subscriber.clientId);
    const saved = this.deps.store.transaction(() => {
      let next: SubscriberRecord = {
        ...subscriber,
        nextPeriod: subscriber.nextPeriod + 1,
        updatedOn: this.seconds(),
      };
      if (gone) next = { ...next, status: 'cancelled' };
      else if (subscriber.status === 'active') next = this.charge(next, template);
      this.subscribers.put(key, next);
      return next;
    });
    this.schedule(saved);
  }

  /** One period's Purchase, charged to the subscriber's card; an invoice when that fails. */
  private charge(subscriber: SubscriberRecord, template: BillingTemplate): SubscriberRecord {
    const { merchantId, baseUrl } = subscriber;
    const made = this.makePurchase(merchantId, template, subscriber.clientId, true, baseUrl);
    const tokenId = this.tokenOf(subscriber);
    if (tokenId !== null) {
      try {
        const paid = this.deps.operations.charge(merchantId, made.purchase.id, tokenId, PROMPT, baseUrl);
        this.mail(paid, 'receipt', template.id, baseUrl);
        return { ...subscriber, tokenId };
      } catch (error) {
        // A decline is answered as the document's purchase_charge_error, with purchase.payment_failure sent.
        if (!(error instanceof V1HttpError)) throw error;
      }
    }
    const unpaid = this.deps.purchases.find(made.purchase.id)!;
    this.deps.purchases.emit('purchase.subscription_charge_failure', unpaid, baseUrl);
    this.mail(unpaid, 'invoice', template.id, baseUrl);
    return { ...subscriber, invoiceId: unpaid.purchase.id };
  }

  /** The card to charge: the subscriber's own while it is still a token, else the Client's newest. */
  private tokenOf(subscriber: SubscriberRecord): string | null {
    const own = subscriber.tokenId === null ? undefined : this.deps.purchases.find(subscriber.tokenId);
    if (own?.purchase.is_recurring_token) return own.purchase.id;
    const saved = this.deps.clients.tokenPurchases(subscriber.merchantId, subscriber.clientId);
    return saved.at(-1)?.purchase.id ?? null;
  }

  /** A Purchase of the template for the Client, made as `POST /purchases/` would make it. */
  private makePurchase(
    merchantId: string,
    template: Pick<BillingTemplate, 'brand_id' | 'purchase'>,
    clientId: string,
    forceRecurring: boolean,
    baseUrl: string,
  ): PurchaseRecord {
    const merchant = this.deps.merchants.find((candidate) => candidate.id === merchantId);
    const context = merchant?.v1 ? requestContextOf(merchant as V1Merchant) : undefined;
    const read = context
      ? readCreatePurchase(
          {
            brand_id: template.brand_id,
            purchase: template.purchase,
            client_id: clientId,
            force_recurring: forceRecurring,
          },
          context,
        )
      : { issues: [{ field: '__all__', code: 'invalid' as const, message: `No v1 merchant ${merchantId}` }] };
    if ('issues' in read) throw V1HttpError.invalid(read.issues);
    const client = this.deps.clients.purchaseClient(merchantId, clientId);
    return this.deps.purchases.create(merchantId, { ...read.draft, client }, baseUrl);
  }

  private mail(
    record: PurchaseRecord,
    kind: OutboxMessage['kind'],
    templateId: string | null,
    baseUrl: string,
  ): void {
    const { purchase } = record;
    const amount = purchase.purchase.total ?? 0;
    const money = `${(amount / 100).toFixed(2)} ${purchase.purchase.currency}`;
    const id = randomUUID();
    this.outboxRecords.put(id, {
      merchantId: record.merchantId,
      seq: ++this.seq,
      baseUrl,
      message: {
        id,
        kind,
        invoice: kind === 'invoice',
        to: purchase.client.email ?? null,
        subject: kind === 'invoice' ? `Invoice: ${money} to pay` : `Receipt: ${money} paid`,
        purchase_id: purchase.id,
        amount,
        currency: purchase.purchase.currency,
        billing_template_id: templateId,
        created_on: this.seconds(),
      },
    });
  }

  private view(subscriber: SubscriberRecord): BillingTemplateClient {
    const at = this.nextBillingAt(subscriber);
    return {
      client_id: subscriber.clientId,
      billing_template_id: subscriber.templateId,
      client: this.deps.clients.has(subscriber.merchantId, subscriber.clientId)
        ? this.deps.clients.get(subscriber.merchantId, subscriber.clientId)
        : null,
      status: subscriber.status,
      purchase_id: subscriber.purchaseId,
      next_billing_on: at === null ? null : Math.floor(at / 1000),
      created_on: subscriber.createdOn,
      updated_on: subscriber.updatedOn,
    };
  }

  private checkClient(merchantId: string, clientId: string, field: string): void {
    if (!this.deps.clients.has(merchantId, clientId)) {
      throw V1HttpError.invalid([
        { field, code: 'invalid', message: `${field} ${clientId} is no Client of this account` },
      ]);
    }
  }

  private subscribersOf(templateId: string): SubscriberRecord[] {
    return [...this.subscribers.values()]
      .filter((subscriber) => subscriber.templateId === templateId)
      .sort((a, b) => a.seq - b.seq);
  }

  private subscriberRecord(merchantId: string, templateId: string, clientId: string): SubscriberRecord {
    const { template } = this.templateRecord(merchantId, templateId);
    const record = UUID.test(clientId)
      ? this.subscribers.get(keyOf(template.id, clientId.toLowerCase()))
      : undefined;
    if (!record)
      throw V1HttpError.nonField(404, 'not_found', `Client ${clientId} is no subscriber of this template`);
    return record;
  }

  private templateRecord(merchantId: string, id: string): TemplateRecord {
    const record = UUID.test(id) ? this.templates.get(id.toLowerCase()) : undefined;
    if (!record || record.merchantId !== merchantId) {
      throw V1HttpError.nonField(404, 'not_found', `No billing template ${id}`);
    }
    return record;
  }

  private ofMerchant<Record extends { merchantId: string; seq: number }>(
    collection: Collection<Record>,
    merchantId: string,
  ): Record[] {
    return [...collection.values()]
      .filter((record) => record.merchantId === merchantId)
      .sort((a, b) => a.seq - b.seq);
  }

  private seconds(): number {
    return Math.floor(this.deps.clock.nowMs() / 1000);
  }
}

function keyOf(templateId: string, clientId: string): string {
  return `${templateId}:${clientId}`;
}
