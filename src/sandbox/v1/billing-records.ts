/**
 * How v1 billing keeps its work in the sandbox store: billing templates, their subscribers
 * (BillingTemplateClients, one per template and Client) and the outbox of mail, each with the order it was
 * made in; the rules a subscriber's record follows on its own; and the upgrade of records an earlier sandbox
 * stored. What billing does with them is `billing.ts`'s.
 */
import { randomUUID } from 'node:crypto';
import type {
  BillingTemplate,
  BillingTemplateClientSettings,
  BillingTemplateClientStatus,
  OutboxMessage,
  SubscriptionPeriod,
} from '../../core/v1-types.js';
import type { Collection } from '../store.js';
import { TEMPLATE_DEFAULTS, type TemplateFields } from './billing-request.js';

export interface TemplateRecord {
  merchantId: string;
  seq: number;
  /** What the merchant set; the rest of a BillingTemplate is made by `V1Billing`'s view. */
  template: TemplateFields & Pick<BillingTemplate, 'id' | 'created_on' | 'updated_on'>;
}

/** A subscriber as stored, under `<template id>:<client id>`. */
export interface SubscriberRecord {
  /** The BillingTemplateClient's own id. */
  id: string;
  merchantId: string;
  templateId: string;
  clientId: string;
  seq: number;
  status: BillingTemplateClientStatus;
  /** Fixed when the subscriber is added: a later change of the template applies to new subscribers. */
  period: SubscriptionPeriod;
  periodEnd: boolean;
  /** The template's `number_of_billing_cycles` when the subscriber was added: 0 for no end. */
  cycles: number;
  /** Periods billed so far. */
  cyclesPassed: number;
  settings: Required<BillingTemplateClientSettings>;
  /** Every Purchase made for the subscriber, oldest first: what its webhook deliveries are of. */
  purchaseIds: string[];
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

/** A mail in the outbox, with its Purchase's base URL for an invoice's `checkout_url`. */
export interface OutboxRecord {
  merchantId: string;
  seq: number;
  message: Omit<OutboxMessage, 'checkout_url'> & { invoice: boolean };
  baseUrl: string;
}

/** The store key of a subscriber: one per template and Client. */
export function keyOf(templateId: string, clientId: string): string {
  return `${templateId}:${clientId}`;
}

/** The platform's defaults of a subscriber's settings. */
export const DEFAULT_SETTINGS: SubscriberRecord['settings'] = {
  payment_method_whitelist: null,
  send_invoice_on_charge_failure: true,
  send_invoice_on_add_subscriber: false,
  send_receipt: true,
};

/** One more period billed: the subscription ends once it has billed `number_of_billing_cycles`. */
export function cyclePassed(subscriber: SubscriberRecord): SubscriberRecord {
  const cyclesPassed = subscriber.cyclesPassed + 1;
  const ended = subscriber.cycles > 0 && cyclesPassed >= subscriber.cycles;
  return { ...subscriber, cyclesPassed, ...(ended && { status: 'cancelled' as const }) };
}

/**
 * Brings records stored by an earlier sandbox to this shape: templates with `subscription_period`
 * `{unit, count}` and none of the `invoice_*` members; subscribers without an id and settings.
 */
export function upgradeStoredBilling(
  templates: Collection<TemplateRecord>,
  subscribers: Collection<SubscriberRecord>,
): void {
  for (const record of templates.values()) {
    if ('subscription_period_units' in record.template) continue;
    const stored = record.template as Omit<TemplateRecord['template'], 'subscription_period'>;
    const old = (record.template as { subscription_period: SubscriptionPeriod | null }).subscription_period;
    const units = old && (`${old.unit}s` as BillingTemplate['subscription_period_units']);
    const template: TemplateRecord['template'] = {
      ...TEMPLATE_DEFAULTS,
      ...stored,
      subscription_period: old?.count ?? null,
      subscription_period_units: units,
    };
    templates.put(template.id, { ...record, template });
  }
  for (const [key, record] of subscribers.entries()) {
    if (record.id !== undefined) continue;
    subscribers.put(key, {
      ...record,
      id: randomUUID(),
      cycles: 0,
      cyclesPassed: 0,
      settings: DEFAULT_SETTINGS,
      purchaseIds: record.purchaseId === null ? [] : [record.purchaseId],
    });
  }
}
