/**
 * Checks the bodies of the billing endpoints (`POST /billing/`, `/billing_templates/`, `send_invoice`,
 * `add_subscriber`, a subscriber's `PATCH`), and the calendar of a subscription's periods.
 *
 * A template's `purchase` is checked exactly as a Purchase's is: by running the Purchase create request it
 * will make through `readCreatePurchase`, so a template that is accepted always makes valid Purchases.
 * Its other members are the platform SDK model's (`subscription_period` a number with
 * `subscription_period_units`, `invoice_*`, `number_of_billing_cycles`); the sandbox's earlier
 * `subscription_period` `{unit, count}` is still taken. Members neither names are ignored, as for a Purchase.
 */

import { isPlainObject } from '../../core/plain-object.js';
import type {
  BillingPeriodUnits,
  BillingTemplate,
  BillingTemplateClientPatch,
  BillingTemplateClientSettings,
  PurchaseDetailsRequest,
  SubscriptionPeriod,
} from '../../core/v1-types.js';
import { BodyReader, type Json, oneOf, stringThat } from '../body-reader.js';
import { UUID } from '../formats.js';
import type { V1Issue } from './errors.js';
import { type PurchaseRequestContext, readCreatePurchase } from './purchase-request.js';

/** A template's fields once checked: what the merchant sets. */
export type TemplateFields = Pick<
  BillingTemplate,
  | 'brand_id'
  | 'title'
  | 'is_subscription'
  | 'number_of_billing_cycles'
  | 'invoice_issued'
  | 'invoice_due'
  | 'invoice_skip_capture'
  | 'invoice_send_receipt'
  | 'subscription_period'
  | 'subscription_period_units'
  | 'subscription_due_period'
  | 'subscription_due_period_units'
  | 'subscription_charge_period_end'
  | 'subscription_trial_periods'
  | 'subscription_active'
  | 'force_recurring'
  | 'purchase'
>;

/** A template's members that a request (or a template stored by an earlier sandbox) may leave out. */
export const TEMPLATE_DEFAULTS: Omit<TemplateFields, 'brand_id' | 'title' | 'is_subscription' | 'purchase'> =
  {
    number_of_billing_cycles: 0,
    invoice_issued: null,
    invoice_due: null,
    invoice_skip_capture: false,
    invoice_send_receipt: true,
    subscription_period: null,
    subscription_period_units: null,
    subscription_due_period: null,
    subscription_due_period_units: null,
    subscription_charge_period_end: false,
    subscription_trial_periods: 0,
    subscription_active: true,
    force_recurring: false,
  };

/** The platform's units, and the calendar unit of each. */
const UNIT_OF: Readonly<Record<BillingPeriodUnits, SubscriptionPeriod['unit']>> = {
  days: 'day',
  weeks: 'week',
  months: 'month',
  years: 'year',
};
const UNITS = Object.keys(UNIT_OF) as BillingPeriodUnits[];
const OLD_UNITS = Object.values(UNIT_OF);
const MAX_PERIOD_COUNT = 1000;
const MAX_TRIAL_PERIODS = 1000;
const MAX_BILLING_CYCLES = 100_000;
const MAX_DUE = 99_999_999_999;
const PERIOD_SHAPE = `a whole number from 1 to ${MAX_PERIOD_COUNT} with subscription_period_units (one of ${UNITS.join(', ')}), such as "subscription_period": 1, "subscription_period_units": "months"`;
const isUnits = oneOf(UNITS);

/** The calendar period of a template's (or subscriber's) `subscription_period` and units. */
export function periodOf(count: number, units: BillingPeriodUnits): SubscriptionPeriod {
  return { unit: UNIT_OF[units], count };
}

/**
 * Checks a BillingTemplate (`POST`, `PUT /billing_templates/`), or with `forBilling` the template part of
 * `POST /billing/`, where `title`, `is_subscription`, `number_of_billing_cycles` and the `subscription_*`
 * fields are read-only: ignored, and the Purchases made are invoices.
 */
export function readTemplateBody(
  body: Json,
  context: PurchaseRequestContext,
  forBilling = false,
): { fields: TemplateFields } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const title = forBilling ? undefined : reader.string(body, 'title', 'title');
  const isSubscription = forBilling
    ? false
    : (reader.boolean(body, 'is_subscription', 'is_subscription') ?? false);
  const subscription = forBilling ? undefined : readSubscriptionMembers(reader, body, isSubscription);
  const invoiceIssued = reader.where(
    body,
    'invoice_issued',
    'invoice_issued',
    stringThat(isIsoDate),
    'invoice_issued must be a date, YYYY-MM-DD',
  );
  const invoiceDue = reader.integer(body, 'invoice_due', 'invoice_due', { min: 1, max: MAX_DUE });
  const skipCapture = reader.boolean(body, 'invoice_skip_capture', 'invoice_skip_capture') ?? false;
  const sendReceipt = reader.boolean(body, 'invoice_send_receipt', 'invoice_send_receipt') ?? true;
  // A subscription's Purchases always save the card its later periods charge.
  const forceRecurring =
    isSubscription || (reader.boolean(body, 'force_recurring', 'force_recurring') ?? false);
  const details = reader.object(body, 'purchase', 'purchase', true);
  // The template's Purchases, as they will be asked for.
  const checked = readCreatePurchase(
    {
      brand_id: body['brand_id'],
      ...(details && { purchase: details }),
      force_recurring: forceRecurring,
      ...(!isSubscription && { skip_capture: skipCapture }),
    },
    context,
  );
  const issues = [...reader.issues, ...('issues' in checked ? checked.issues : [])].filter(
    // `purchase` missing is told once, by the reader.
    (issue, index, all) =>
      all.findIndex((other) => other.field === issue.field && other.code === issue.code) === index,
  );
  if (issues.length > 0 || !('draft' in checked) || !details) return { issues };
  return {
    fields: {
      ...TEMPLATE_DEFAULTS,
      brand_id: checked.draft.brand_id,
      title: title ?? null,
      is_subscription: isSubscription,
      ...subscription,
      invoice_issued: invoiceIssued ?? null,
      invoice_due: invoiceDue ?? null,
      invoice_skip_capture: skipCapture,
      invoice_send_receipt: sendReceipt,
      force_recurring: forceRecurring,
      purchase: details as unknown as PurchaseDetailsRequest,
    },
  };
}

type SubscriptionMembers = Pick<
  TemplateFields,
  | 'number_of_billing_cycles'
  | 'subscription_period'
  | 'subscription_period_units'
  | 'subscription_due_period'
  | 'subscription_due_period_units'
  | 'subscription_charge_period_end'
  | 'subscription_trial_periods'
  | 'subscription_active'
>;

function readSubscriptionMembers(reader: BodyReader, body: Json, required: boolean): SubscriptionMembers {
  const period = readPeriod(reader, body, required);
  const due = readDuePeriod(reader, body);
  return {
    subscription_period: period?.count ?? null,
    subscription_period_units: period?.units ?? null,
    subscription_due_period: due?.count ?? null,
    subscription_due_period_units: due?.units ?? null,
    subscription_charge_period_end:
      reader.boolean(body, 'subscription_charge_period_end', 'subscription_charge_period_end') ?? false,
    subscription_trial_periods:
      reader.integer(body, 'subscription_trial_periods', 'subscription_trial_periods', {
        min: 0,
        max: MAX_TRIAL_PERIODS,
      }) ?? 0,
    subscription_active: reader.boolean(body, 'subscription_active', 'subscription_active') ?? true,
    number_of_billing_cycles:
      reader.integer(body, 'number_of_billing_cycles', 'number_of_billing_cycles', {
        min: 0,
        max: MAX_BILLING_CYCLES,
      }) ?? 0,
  };
}

/** `subscription_period` with its units, or the older `{unit, count}` (without units). */
function readPeriod(
  reader: BodyReader,
  body: Json,
  required: boolean,
): { count: number; units: BillingPeriodUnits } | null {
  const value = body['subscription_period'];
  const units = reader.where(
    body,
    'subscription_period_units',
    'subscription_period_units',
    isUnits,
    `subscription_period_units must be one of ${UNITS.join(', ')}`,
  );
  if (value === undefined || value === null) {
    if (required) {
      reader.add(
        'subscription_period',
        'required',
        `subscription_period is required for a subscription: ${PERIOD_SHAPE}`,
      );
    }
    return null;
  }
  if (isPlainObject(value)) {
    const old = readOldPeriod(value);
    if (!old) {
      reader.add(
        'subscription_period',
        'invalid',
        `subscription_period must be ${PERIOD_SHAPE} (or {"unit": one of ${OLD_UNITS.join(', ')}, "count": 1 to ${MAX_PERIOD_COUNT}}); it was ${JSON.stringify(value)}`,
      );
    } else if (
      body['subscription_period_units'] !== undefined &&
      body['subscription_period_units'] !== null
    ) {
      reader.add(
        'subscription_period_units',
        'invalid',
        'subscription_period_units goes with a numeric subscription_period; {unit, count} names its unit itself',
      );
    }
    return old ?? null;
  }
  const count = readCount(reader, body, 'subscription_period');
  if (count === undefined) return null;
  if (units === undefined) {
    if (body['subscription_period_units'] === undefined || body['subscription_period_units'] === null) {
      reader.add(
        'subscription_period_units',
        'required',
        `subscription_period_units is required with subscription_period: one of ${UNITS.join(', ')}`,
      );
    }
    return null;
  }
  return { count, units };
}

function readOldPeriod(value: Json): { count: number; units: BillingPeriodUnits } | undefined {
  const unit = value['unit'];
  const count = value['count'];
  const extra = Object.keys(value).filter((key) => key !== 'unit' && key !== 'count');
  const units = UNITS.find((candidate) => UNIT_OF[candidate] === unit);
  if (extra.length > 0 || units === undefined || !isCount(count)) return undefined;
  return { count, units };
}

/** `subscription_due_period` and its units: both or neither. */
function readDuePeriod(reader: BodyReader, body: Json): { count: number; units: BillingPeriodUnits } | null {
  const given = (key: string) => body[key] !== undefined && body[key] !== null;
  const count = given('subscription_due_period')
    ? readCount(reader, body, 'subscription_due_period', 0)
    : undefined;
  const units = reader.where(
    body,
    'subscription_due_period_units',
    'subscription_due_period_units',
    isUnits,
    `subscription_due_period_units must be one of ${UNITS.join(', ')}`,
  );
  if (given('subscription_due_period') !== given('subscription_due_period_units')) {
    const missing = given('subscription_due_period')
      ? 'subscription_due_period_units'
      : 'subscription_due_period';
    reader.add(missing, 'required', 'subscription_due_period and subscription_due_period_units go together');
  }
  return count !== undefined && units !== undefined ? { count, units } : null;
}

function readCount(reader: BodyReader, body: Json, key: string, min = 1): number | undefined {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_PERIOD_COUNT) {
    reader.add(
      key,
      'invalid',
      `${key} must be a whole number from ${min} to ${MAX_PERIOD_COUNT}; it was ${JSON.stringify(value)}`,
    );
    return undefined;
  }
  return value;
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_PERIOD_COUNT;

/** A calendar date written `YYYY-MM-DD` that exists. */
function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** The `client_id` of a BillingTemplateClient body (`send_invoice`, `add_subscriber`), lower case. */
export function readClientId(body: Json, path = 'client_id'): { clientId: string } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const clientId = reader.string(body, 'client_id', path, true);
  if (clientId !== undefined && !UUID.test(clientId)) reader.add(path, 'invalid', `${path} must be a UUID`);
  if (reader.issues.length > 0 || clientId === undefined) return { issues: reader.issues };
  return { clientId: clientId.toLowerCase() };
}

/** The body of `add_subscriber`: `client_id` and the subscriber's settings. */
export function readSubscriberBody(
  body: Json,
): { clientId: string; settings: BillingTemplateClientSettings } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const settings = readSubscriberSettings(body, reader);
  const read = readClientId(body);
  const issues = [...('issues' in read ? read.issues : []), ...reader.issues];
  if (issues.length > 0 || !('clientId' in read)) return { issues };
  return { clientId: read.clientId, settings };
}

/** The `clients` of `POST /billing/`: a non-empty array of `{client_id}`. */
export function readBillingClients(body: Json): { clientIds: string[] } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const list = reader.array(body, 'clients', 'clients', true);
  if (list === undefined) return { issues: reader.issues };
  if (list.length === 0)
    return {
      issues: [{ field: 'clients', code: 'empty', message: 'clients must name at least one client' }],
    };
  const issues: V1Issue[] = [];
  const clientIds: string[] = [];
  list.forEach((entry, index) => {
    const path = `clients[${index}].client_id`;
    if (!isPlainObject(entry)) {
      issues.push({
        field: `clients[${index}]`,
        code: 'invalid',
        message: `clients[${index}] must be an object {"client_id": ...}`,
      });
      return;
    }
    const read = readClientId(entry, path);
    if ('issues' in read) issues.push(...read.issues);
    else clientIds.push(read.clientId);
  });
  return issues.length > 0 ? { issues } : { clientIds };
}

/** The statuses a `PATCH` of a subscriber may set. */
const PATCHABLE: ReadonlyArray<NonNullable<BillingTemplateClientPatch['status']>> = [
  'active',
  'paused',
  'cancelled',
];

/**
 * A subscriber's settings (`add_subscriber`, `PATCH`): the members given, checked. `payment_method_whitelist`
 * is checked by the caller, with the template's Purchase it applies to.
 */
export function readSubscriberSettings(body: Json, reader: BodyReader): BillingTemplateClientSettings {
  const settings: BillingTemplateClientSettings = {};
  for (const key of [
    'send_invoice_on_charge_failure',
    'send_invoice_on_add_subscriber',
    'send_receipt',
  ] as const) {
    const value = reader.boolean(body, key, key);
    if (value !== undefined) settings[key] = value;
  }
  const whitelist = body['payment_method_whitelist'];
  if (whitelist === null) settings.payment_method_whitelist = null;
  else if (whitelist !== undefined) {
    if (Array.isArray(whitelist) && whitelist.every((name) => typeof name === 'string')) {
      settings.payment_method_whitelist = whitelist;
    } else {
      reader.add(
        'payment_method_whitelist',
        'invalid',
        'payment_method_whitelist must be an array of payment method names, or null',
      );
    }
  }
  return settings;
}

/** A subscriber's `PATCH`: `status` (one of {@link PATCHABLE}) and its settings, each optional. */
export function readSubscriberPatch(
  body: Json,
): { patch: BillingTemplateClientPatch } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const patch: BillingTemplateClientPatch = readSubscriberSettings(body, reader);
  const status = reader.string(body, 'status', 'status');
  if (
    status !== undefined &&
    !PATCHABLE.includes(status as NonNullable<BillingTemplateClientPatch['status']>)
  ) {
    reader.add(
      'status',
      'invalid',
      `status must be one of ${PATCHABLE.join(', ')}; it was ${JSON.stringify(status)} (pending is set by add_subscriber only)`,
    );
  } else if (status !== undefined) {
    patch.status = status as NonNullable<BillingTemplateClientPatch['status']>;
  }
  return reader.issues.length > 0 ? { issues: reader.issues } : { patch };
}

/**
 * The start of period `index` of a subscription that started at `startMs`: `index × count` units later, in
 * UTC. Each start is counted from the first, never from the one before, so a month's short end does not
 * carry on: 31 January, 28 February, 31 March.
 */
export function periodStart(startMs: number, period: SubscriptionPeriod, index: number): number {
  const steps = period.count * index;
  const start = new Date(startMs);
  switch (period.unit) {
    case 'day':
      return startMs + steps * 86_400_000;
    case 'week':
      return startMs + steps * 7 * 86_400_000;
    case 'month':
      return addMonths(start, steps);
    case 'year':
      return addMonths(start, steps * 12);
  }
}

function addMonths(start: Date, months: number): number {
  const monthIndex = start.getUTCMonth() + months;
  const year = start.getUTCFullYear() + Math.floor(monthIndex / 12);
  const month = ((monthIndex % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(start.getUTCDate(), lastDay),
    start.getUTCHours(),
    start.getUTCMinutes(),
    start.getUTCSeconds(),
    start.getUTCMilliseconds(),
  );
}
