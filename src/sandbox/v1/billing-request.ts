/**
 * Checks the bodies of the billing endpoints (`POST /billing/`, `/billing_templates/`, `send_invoice`,
 * `add_subscriber`, a subscriber's `PATCH`), and the calendar of a subscription's periods.
 *
 * A template's `purchase` is checked exactly as a Purchase's is: by running the Purchase create request it
 * will make through `readCreatePurchase`, so a template that is accepted always makes valid Purchases.
 * Members the document does not name are ignored, as for a Purchase (the real service has `invoice_*`
 * fields the document does not show).
 */
import type {
  BillingTemplate,
  BillingTemplateClientPatch,
  PurchaseDetailsRequest,
  SubscriptionPeriod,
} from '../../core/v1-types.js';
import { BodyReader, isJsonObject, type Json } from '../body-reader.js';
import { UUID } from '../formats.js';
import type { V1Issue } from './errors.js';
import { type PurchaseRequestContext, readCreatePurchase } from './purchase-request.js';

/** A template's fields once checked. */
export type TemplateFields = Omit<BillingTemplate, 'id' | 'created_on' | 'updated_on'>;

const UNITS: ReadonlyArray<SubscriptionPeriod['unit']> = ['day', 'week', 'month', 'year'];
const MAX_PERIOD_COUNT = 1000;
const MAX_TRIAL_PERIODS = 1000;
const PERIOD_SHAPE = `an object {"unit": one of ${UNITS.join(', ')}, "count": a whole number from 1 to ${MAX_PERIOD_COUNT}}, such as {"unit": "month", "count": 1}`;

/**
 * Checks a BillingTemplate (`POST`, `PUT /billing_templates/`), or with `forBilling` the template part of
 * `POST /billing/`, where `title`, `is_subscription` and the `subscription_*` fields are read-only: ignored,
 * and the Purchases made are invoices.
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
  let period: SubscriptionPeriod | null = null;
  let periodEnd = false;
  let trial = 0;
  if (!forBilling) {
    period = readPeriod(reader, body, isSubscription);
    periodEnd =
      reader.boolean(body, 'subscription_charge_period_end', 'subscription_charge_period_end') ?? false;
    trial =
      reader.integer(body, 'subscription_trial_periods', 'subscription_trial_periods', {
        min: 0,
        max: MAX_TRIAL_PERIODS,
      }) ?? 0;
  }
  const details = reader.object(body, 'purchase', 'purchase', true);
  // The template's Purchases, as they will be asked for: a subscription's save the card (force_recurring).
  const checked = readCreatePurchase(
    {
      brand_id: body['brand_id'],
      ...(details && { purchase: details }),
      force_recurring: isSubscription,
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
      brand_id: checked.draft.brand_id,
      title: title ?? null,
      is_subscription: isSubscription,
      subscription_period: period,
      subscription_charge_period_end: periodEnd,
      subscription_trial_periods: trial,
      purchase: details as unknown as PurchaseDetailsRequest,
    },
  };
}

function readPeriod(reader: BodyReader, body: Json, required: boolean): SubscriptionPeriod | null {
  const value = body['subscription_period'];
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
  const object = isJsonObject(value) ? value : undefined;
  const unit = object?.['unit'];
  const count = object?.['count'];
  const extra = object ? Object.keys(object).filter((key) => key !== 'unit' && key !== 'count') : [];
  if (
    !object ||
    extra.length > 0 ||
    !UNITS.includes(unit as SubscriptionPeriod['unit']) ||
    typeof count !== 'number' ||
    !Number.isInteger(count) ||
    count < 1 ||
    count > MAX_PERIOD_COUNT
  ) {
    reader.add(
      'subscription_period',
      'invalid',
      `subscription_period must be ${PERIOD_SHAPE}; it was ${JSON.stringify(value)}`,
    );
    return null;
  }
  return { unit: unit as SubscriptionPeriod['unit'], count };
}

/** The `client_id` of a BillingTemplateClient body (`send_invoice`, `add_subscriber`), lower case. */
export function readClientId(body: Json, path = 'client_id'): { clientId: string } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const clientId = reader.string(body, 'client_id', path, true);
  if (clientId !== undefined && !UUID.test(clientId)) reader.add(path, 'invalid', `${path} must be a UUID`);
  if (reader.issues.length > 0 || clientId === undefined) return { issues: reader.issues };
  return { clientId: clientId.toLowerCase() };
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
    if (!isJsonObject(entry)) {
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
const PATCHABLE: ReadonlyArray<BillingTemplateClientPatch['status']> = ['active', 'paused', 'cancelled'];

/** A subscriber's `PATCH`: `status`, one of {@link PATCHABLE}. */
export function readSubscriberPatch(
  body: Json,
): { patch: BillingTemplateClientPatch } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const status = reader.string(body, 'status', 'status', true);
  if (status === undefined) return { issues: reader.issues };
  if (!PATCHABLE.includes(status as BillingTemplateClientPatch['status'])) {
    return {
      issues: [
        {
          field: 'status',
          code: 'invalid',
          message: `status must be one of ${PATCHABLE.join(', ')}; it was ${JSON.stringify(status)} (pending is set by add_subscriber only)`,
        },
      ],
    };
  }
  return { patch: { status: status as BillingTemplateClientPatch['status'] } };
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
