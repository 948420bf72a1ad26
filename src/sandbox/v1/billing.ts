/**
 * v1 invoicing and subscriptions in the sandbox store: billing templates, the subscribers of subscription
 * templates (BillingTemplateClients), their charging on the sandbox clock, and the outbox of what the gateway
 * would have mailed to customers (the sandbox has no mail server).
 *
 * Every Purchase made here is made as `POST /purchases/` would make it (`billing-purchases.ts`: its request
 * checked by `readCreatePurchase`, the Client's details filled in), so it has the same events, checkout page
 * and operations. How the templates, subscribers and outbox are stored is `billing-records.ts`'s. A subscriber follows the document's BillingTemplateClient table:
 *
 * - with `subscription_charge_period_end` or trial periods it is `active` at once and has no Purchase; its
 *   periods count from that day;
 * - otherwise it is `pending` with a Purchase made with `force_recurring`; paying it saves the card and makes
 *   the subscriber `active`, its periods counting from the day of the payment.
 *
 * A subscriber counts its billed periods (`number_of_billing_cycles_passed`: the first Purchase paid, and each
 * period charged or invoiced); once they reach the template's `number_of_billing_cycles` (0: no end) it is
 * `cancelled`. While the template's `subscription_active` is false, periods pass unbilled, as when paused.
 * What is mailed follows the subscriber's `send_*` flags and the template's `invoice_send_receipt`.
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
  BillingTemplateClientSettings,
  OutboxMessage,
} from '../../core/v1-types.js';
import { type AcquirerBehaviour, PROMPT } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { MerchantConfig } from '../config.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { BillingPurchaseMaker, invoiceOptions } from './billing-purchases.js';
import {
  cyclePassed,
  DEFAULT_SETTINGS,
  keyOf,
  type OutboxRecord,
  type SubscriberRecord,
  type TemplateRecord,
  upgradeStoredBilling,
} from './billing-records.js';
import { periodOf, periodStart, type TemplateFields } from './billing-request.js';
import type { V1Clients } from './clients.js';
import { V1HttpError } from './errors.js';
import type { PurchaseOperations } from './purchase-operations.js';
import { companyIdOf } from './purchase-view.js';
import {
  checkoutPath,
  PAYABLE,
  type PurchaseEventName,
  type PurchaseRecord,
  type V1Purchases,
} from './purchases.js';

export interface V1BillingDeps {
  store: Store;
  /** Billings run on their merchant's clock. */
  clocks: SandboxClocks;
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

  private readonly maker: BillingPurchaseMaker;

  constructor(private readonly deps: V1BillingDeps) {
    this.maker = new BillingPurchaseMaker(deps);
    this.templates = deps.store.collection<TemplateRecord>('v1-billing-templates');
    this.subscribers = deps.store.collection<SubscriberRecord>('v1-billing-subscribers');
    this.outboxRecords = deps.store.collection<OutboxRecord>('v1-outbox');
    for (const collection of [this.templates, this.subscribers, this.outboxRecords] as Array<
      Collection<{ seq: number }>
    >) {
      for (const record of collection.values()) this.seq = Math.max(this.seq, record.seq);
    }
    upgradeStoredBilling(this.templates, this.subscribers);
  }

  /** Sets the clock's billing of every stored subscriber again (at each start). */
  resume(): void {
    for (const subscriber of this.subscribers.values()) this.schedule(subscriber);
  }

  // -------------------------------------------------------------------------------------------------------
  // Templates

  createTemplate(merchantId: string, fields: TemplateFields): BillingTemplate {
    const now = this.seconds(merchantId);
    const record: TemplateRecord = {
      merchantId,
      seq: ++this.seq,
      template: { id: randomUUID(), ...fields, created_on: now, updated_on: now },
    };
    this.templates.put(record.template.id, record);
    return this.templateView(record);
  }

  listTemplates(merchantId: string): BillingTemplate[] {
    return this.ofMerchant(this.templates, merchantId).map((record) => this.templateView(record));
  }

  /** @throws V1HttpError 404. */
  template(merchantId: string, id: string): BillingTemplate {
    return this.templateView(this.templateRecord(merchantId, id));
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
    const saved: TemplateRecord = {
      ...record,
      template: { ...record.template, ...fields, updated_on: this.seconds(merchantId) },
    };
    this.templates.put(id, saved);
    return this.templateView(saved);
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
        const record = this.maker.make(merchantId, fields, clientId, invoiceOptions(fields), baseUrl);
        this.mail(record, 'invoice', null);
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
      const record = this.maker.make(merchantId, template, clientId, invoiceOptions(template), baseUrl);
      this.mail(record, 'invoice', template.id);
      return record;
    });
  }

  // -------------------------------------------------------------------------------------------------------
  // Subscribers

  /**
   * `add_subscriber`, by the document's table: `active` without a Purchase for trial and period-end
   * subscriptions; otherwise `pending` with a Purchase (made with `force_recurring`, mailed as an invoice
   * when `send_invoice_on_add_subscriber`).
   * @throws V1HttpError 400 for a one-time template, a Client not of the account or one subscribed already
   *   (a cancelled subscriber may be added again, starting afresh), a whitelist the Purchases cannot take; 404.
   */
  addSubscriber(
    merchantId: string,
    templateId: string,
    clientId: string,
    given: BillingTemplateClientSettings,
    baseUrl: string,
  ): { subscriber: BillingTemplateClient; purchase: PurchaseRecord | null } {
    const { template } = this.templateRecord(merchantId, templateId);
    const units = template.subscription_period_units;
    if (!template.is_subscription || template.subscription_period === null || units === null) {
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
    const settings: SubscriberRecord['settings'] = { ...DEFAULT_SETTINGS, ...given };
    const options = this.maker.options(merchantId, template, settings);
    // The whitelist is checked now, with the Purchase it goes into, also where the first comes later.
    this.maker.request(merchantId, template, clientId, options);
    const nowMs = this.deps.clocks.for(merchantId).nowMs();
    const immediate = template.subscription_charge_period_end || template.subscription_trial_periods > 0;
    const { subscriber, purchase } = this.deps.store.transaction(() => {
      const purchase = immediate ? null : this.maker.make(merchantId, template, clientId, options, baseUrl);
      if (purchase && settings.send_invoice_on_add_subscriber) {
        this.mail(purchase, 'invoice', template.id);
      }
      const subscriber: SubscriberRecord = {
        id: randomUUID(),
        merchantId,
        templateId: template.id,
        clientId,
        seq: ++this.seq,
        status: immediate ? 'active' : 'pending',
        period: periodOf(template.subscription_period!, units),
        periodEnd: template.subscription_charge_period_end,
        cycles: template.number_of_billing_cycles,
        cyclesPassed: 0,
        settings,
        purchaseIds: purchase ? [purchase.purchase.id] : [],
        purchaseId: purchase?.purchase.id ?? null,
        startedAt: immediate ? nowMs : null,
        nextPeriod: immediate ? template.subscription_trial_periods : 1,
        tokenId: null,
        invoiceId: null,
        baseUrl,
        createdOn: this.seconds(merchantId),
        updatedOn: this.seconds(merchantId),
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
   * `PATCH` of a subscriber's settings (its whitelist applies to the Purchases made from now on) and `status`:
   * - `paused`: the periods that pass are not billed; `active` again bills from the next period on;
   * - `active` for a `pending` subscriber: the merchant took its first payment elsewhere, which counts as its
   *   first period billed; the subscription starts now, the next billing one period later;
   * - `cancelled`: never billed again; final (add the Client again to start afresh).
   * @throws V1HttpError 400 for a change out of `cancelled`, `pending` to `paused`, or a whitelist the
   *   Purchases cannot take; 404.
   */
  patchSubscriber(
    merchantId: string,
    templateId: string,
    clientId: string,
    patch: BillingTemplateClientPatch,
  ): BillingTemplateClient {
    const record = this.subscriberRecord(merchantId, templateId, clientId);
    const { status, ...given } = patch;
    const settings = { ...record.settings, ...given };
    const template = this.templateRecord(merchantId, templateId).template;
    this.maker.request(
      merchantId,
      template,
      record.clientId,
      this.maker.options(merchantId, template, settings),
    );
    const refuse = (message: string): never => {
      throw V1HttpError.invalid([{ field: 'status', code: 'invalid', message }]);
    };
    const changes = status !== undefined && status !== record.status;
    if (changes && record.status === 'cancelled') {
      refuse('The subscriber is cancelled, which is final; add the client again with add_subscriber');
    }
    if (changes && record.status === 'pending' && status === 'paused') {
      refuse('A pending subscriber has not started; set it active (paid elsewhere) or cancelled');
    }
    const started = changes && record.status === 'pending' && status === 'active';
    let saved: SubscriberRecord = {
      ...record,
      settings,
      ...(changes && { status }),
      ...(started && { startedAt: this.deps.clocks.for(merchantId).nowMs(), nextPeriod: 1 }),
      updatedOn: this.seconds(merchantId),
    };
    if (started) saved = cyclePassed(saved);
    this.subscribers.put(keyOf(record.templateId, record.clientId), saved);
    this.schedule(saved);
    return this.view(saved);
  }

  /**
   * Hears the Purchase events (inside the transaction of the change): a subscriber's first Purchase or
   * open invoice paid.
   */
  heard(event: PurchaseEventName, record: PurchaseRecord): void {
    // Every Purchase billing makes names its Client: a payment without one is none of a subscriber's.
    if (event !== 'purchase.paid' || record.purchase.client_id === null) return;
    const id = record.purchase.id;
    for (const subscriber of this.subscribers.values()) {
      const first = subscriber.status === 'pending' && subscriber.purchaseId === id;
      if (!first && subscriber.invoiceId !== id) continue;
      let saved: SubscriberRecord = {
        ...subscriber,
        ...(first && {
          status: 'active',
          startedAt: this.deps.clocks.for(subscriber.merchantId).nowMs(),
          nextPeriod: 1,
        }),
        invoiceId: subscriber.invoiceId === id ? null : subscriber.invoiceId,
        tokenId: record.purchase.is_recurring_token ? id : subscriber.tokenId,
        updatedOn: this.seconds(subscriber.merchantId),
      };
      if (first) saved = cyclePassed(saved);
      this.subscribers.put(keyOf(subscriber.templateId, subscriber.clientId), saved);
      if (this.sendsReceipts(saved)) this.mail(record, 'receipt', subscriber.templateId);
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
  resendInvoice(merchantId: string, id: string): PurchaseRecord {
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
    this.deps.store.transaction(() => this.mail(record, 'invoice', subscriber?.templateId ?? null));
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
    const clock = this.deps.clocks.for(subscriber.merchantId);
    if (at === null) clock.cancel(`${TASK}${key}`);
    else clock.at(`${TASK}${key}`, at, () => this.billPeriod(key));
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

  /**
   * The clock reached a subscriber's billing: bill the period (unless it or its template is paused) and set
   * the next.
   */
  private billPeriod(key: string): void {
    const subscriber = this.subscribers.get(key);
    if (!subscriber || (subscriber.status !== 'active' && subscriber.status !== 'paused')) return;
    const template = this.templates.get(subscriber.templateId)?.template;
    const gone = !template || !this.deps.clients.has(subscriber.merchantId, subscriber.clientId);
    const saved = this.deps.store.transaction(() => {
      let next: SubscriberRecord = {
        ...subscriber,
        nextPeriod: subscriber.nextPeriod + 1,
        updatedOn: this.seconds(subscriber.merchantId),
      };
      if (gone) next = { ...next, status: 'cancelled' };
      else if (subscriber.status === 'active' && template.subscription_active) {
        next = cyclePassed(this.charge(next, template));
      }
      this.subscribers.put(key, next);
      return next;
    });
    this.schedule(saved);
  }

  /**
   * Bills the subscriber's next period now, early, as the clock would at its date, with the acquirer
   * answering the charge as `how` says (`fail`: a charge failure, with its events and invoice). The billing
   * after it falls a period later. For the sandbox's test helpers; `merchantId` undefined takes any merchant's.
   * @throws V1HttpError 400 `invalid` when the subscriber is not active or its template bills nothing; 404.
   */
  billNextPeriodNow(
    merchantId: string | undefined,
    templateId: string,
    id: string,
    how: AcquirerBehaviour,
  ): { subscriber: BillingTemplateClient; purchase: PurchaseRecord } {
    // Without a merchant (the caller is the sandbox's own process), the template's.
    merchantId ??= this.templates.get(templateId.toLowerCase())?.merchantId ?? '';
    const record = this.subscriberRecord(merchantId, templateId, id);
    const template = this.templateRecord(merchantId, templateId).template;
    if (record.status !== 'active' || !template.subscription_active) {
      throw V1HttpError.nonField(
        400,
        'invalid',
        record.status !== 'active'
          ? `The subscriber is ${record.status}; only an active subscriber is billed${record.status === 'pending' ? ' (pay its first Purchase first)' : ''}`
          : 'The template has subscription_active false: its periods pass unbilled',
      );
    }
    const saved = this.deps.store.transaction(() => {
      const next = cyclePassed(
        this.charge(
          { ...record, nextPeriod: record.nextPeriod + 1, updatedOn: this.seconds(record.merchantId) },
          template,
          how,
        ),
      );
      this.subscribers.put(keyOf(record.templateId, record.clientId), next);
      return next;
    });
    this.schedule(saved);
    return { subscriber: this.view(saved), purchase: this.deps.purchases.find(saved.purchaseIds.at(-1)!)! };
  }

  /** One period's Purchase, charged to the subscriber's card; an invoice when that fails. */
  private charge(
    subscriber: SubscriberRecord,
    template: TemplateRecord['template'],
    how: AcquirerBehaviour = PROMPT,
  ): SubscriberRecord {
    const { merchantId, baseUrl } = subscriber;
    const options = this.maker.options(subscriber.merchantId, template, subscriber.settings);
    const made = this.maker.make(merchantId, template, subscriber.clientId, options, baseUrl);
    const purchaseIds = [...subscriber.purchaseIds, made.purchase.id];
    const tokenId = this.tokenOf(subscriber);
    if (tokenId !== null) {
      try {
        const paid = this.deps.operations.charge(merchantId, made.purchase.id, tokenId, how);
        if (this.sendsReceipts(subscriber)) this.mail(paid, 'receipt', template.id);
        return { ...subscriber, purchaseIds, tokenId };
      } catch (error) {
        // A decline is answered as the document's purchase_charge_error, with purchase.payment_failure sent.
        if (!(error instanceof V1HttpError)) throw error;
      }
    }
    const unpaid = this.deps.purchases.find(made.purchase.id)!;
    this.deps.purchases.emit('purchase.subscription_charge_failure', unpaid);
    if (subscriber.settings.send_invoice_on_charge_failure) this.mail(unpaid, 'invoice', template.id);
    return { ...subscriber, purchaseIds, invoiceId: unpaid.purchase.id };
  }

  /** Whether the subscriber's payments are mailed receipts: its `send_receipt` and its template's. */
  private sendsReceipts(subscriber: SubscriberRecord): boolean {
    const template = this.templates.get(subscriber.templateId)?.template;
    return subscriber.settings.send_receipt && (template?.invoice_send_receipt ?? true);
  }

  /** The card to charge: the subscriber's own while it is still a token, else the Client's newest. */
  private tokenOf(subscriber: SubscriberRecord): string | null {
    const own = subscriber.tokenId === null ? undefined : this.deps.purchases.find(subscriber.tokenId);
    if (own?.purchase.is_recurring_token) return own.purchase.id;
    const saved = this.deps.clients.tokenPurchases(subscriber.merchantId, subscriber.clientId);
    return saved.at(-1)?.purchase.id ?? null;
  }

  private mail(record: PurchaseRecord, kind: OutboxMessage['kind'], templateId: string | null): void {
    const { purchase } = record;
    const amount = purchase.purchase.total ?? 0;
    const money = `${(amount / 100).toFixed(2)} ${purchase.purchase.currency}`;
    const id = randomUUID();
    this.outboxRecords.put(id, {
      merchantId: record.merchantId,
      seq: ++this.seq,
      baseUrl: this.deps.purchases.baseUrlOf(record),
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
        created_on: this.seconds(record.merchantId),
      },
    });
  }

  private view(subscriber: SubscriberRecord): BillingTemplateClient {
    const at = this.nextBillingAt(subscriber);
    return {
      type: 'billing_template_client',
      id: subscriber.id,
      client_id: subscriber.clientId,
      billing_template_id: subscriber.templateId,
      client: this.deps.clients.has(subscriber.merchantId, subscriber.clientId)
        ? this.deps.clients.get(subscriber.merchantId, subscriber.clientId)
        : null,
      status: subscriber.status,
      number_of_billing_cycles_passed: subscriber.cyclesPassed,
      subscription_billing_scheduled_on: at === null ? null : new Date(at).toISOString().slice(0, 10),
      ...subscriber.settings,
      purchase_id: subscriber.purchaseId,
      next_billing_on: at === null ? null : Math.floor(at / 1000),
      created_on: subscriber.createdOn,
      updated_on: subscriber.updatedOn,
    };
  }

  private templateView({ merchantId, template }: TemplateRecord): BillingTemplate {
    const { id, created_on, updated_on, ...fields } = template;
    return {
      type: 'billing_template',
      id,
      created_on,
      updated_on,
      company_id: companyIdOf(merchantId),
      is_test: true,
      user_id: null,
      ...fields,
      subscription_has_active_clients: this.subscribersOf(id).some(
        (subscriber) => subscriber.status === 'active',
      ),
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

  /** A subscriber by its Client's id or by its own (the platform's path takes its own). */
  private subscriberRecord(merchantId: string, templateId: string, id: string): SubscriberRecord {
    const { template } = this.templateRecord(merchantId, templateId);
    const lower = id.toLowerCase();
    const record = UUID.test(id)
      ? (this.subscribers.get(keyOf(template.id, lower)) ??
        this.subscribersOf(template.id).find((subscriber) => subscriber.id === lower))
      : undefined;
    if (!record)
      throw V1HttpError.nonField(
        404,
        'not_found',
        `${id} is no subscriber (nor a subscriber's Client) of this template`,
      );
    return record;
  }

  /**
   * The Purchases made for the merchant's subscriber `id` (a BillingTemplateClient id), oldest first: what
   * its webhook deliveries are of.
   * @throws V1HttpError 404 when the merchant has no such subscriber.
   */
  subscriberPurchaseIds(merchantId: string, id: string): string[] {
    const lower = id.toLowerCase();
    const found = [...this.subscribers.values()].find(
      (subscriber) => subscriber.id === lower && subscriber.merchantId === merchantId,
    );
    if (!found) throw V1HttpError.nonField(404, 'not_found', `No billing_template_client ${id}`);
    return found.purchaseIds;
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

  /** Now on the merchant's clock, in Unix seconds. */
  private seconds(merchantId: string): number {
    return Math.floor(this.deps.clocks.for(merchantId).nowMs() / 1000);
  }
}
