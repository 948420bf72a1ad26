/**
 * The body of `POST /company_statements/`: `format`, `timezone` and every filter parameter of the document,
 * all in the JSON body, each checked and each problem a named issue of its member (answered as one 400).
 * Members the request does not know are refused too, so that a misspelt filter is not silently ignored.
 */
import type {
  CompanyStatementFormat,
  CreateCompanyStatementRequest,
  PurchaseStatus,
} from '../../core/v1-types.js';
import { UUID } from '../formats.js';
import type { V1Issue } from './errors.js';
import { findPaymentMethod } from './method-catalogue.js';
import type { StatementFilters } from './statement-rows.js';

/** A checked request. */
export interface StatementDraft {
  format: CompanyStatementFormat;
  timezone: string;
  filters: StatementFilters;
  /** The filters as the merchant gave them, for the statement's `filters`. */
  given: Omit<CreateCompanyStatementRequest, 'format' | 'timezone'>;
}

const STATUSES: readonly PurchaseStatus[] = [
  'created',
  'error',
  'cancelled',
  'expired',
  'hold',
  'paid',
  'released',
  'pending_capture',
  'pending_release',
  'pending_charge',
  'pending_refund',
];

const TIME_FILTERS = ['from', 'to', 'paid_from', 'paid_to', 'updated_from', 'updated_to'] as const;

const MEMBERS = new Set<string>([
  'format',
  'timezone',
  ...TIME_FILTERS,
  'brand_id',
  'shop_id',
  'q',
  'products',
  'total',
  'currency',
  'payment_method',
  'three_d_secure',
  'country',
  'status',
  'product',
]);

const MAX_TEXT = 200;

/** Whether Intl knows the zone. Offsets such as `+02:00` are refused: the parameter is an IANA name. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** Reads the body of `POST /company_statements/`. */
export function readStatementRequest(
  body: Record<string, unknown>,
): { draft: StatementDraft } | { issues: V1Issue[] } {
  const issues: V1Issue[] = [];
  const issue = (field: string, code: V1Issue['code'], message: string) => {
    issues.push({ field, code, message });
  };
  for (const name of Object.keys(body)) {
    if (!MEMBERS.has(name)) {
      issue(name, 'invalid', `${name} is not a statement parameter; they are ${[...MEMBERS].join(', ')}`);
    }
  }
  const filters: StatementFilters = {};
  const given: StatementDraft['given'] = {};
  const present = (name: string) => body[name] !== undefined && body[name] !== null;

  let format: CompanyStatementFormat = 'csv';
  if (present('format')) {
    if (body['format'] === 'csv' || body['format'] === 'json') format = body['format'];
    else issue('format', 'invalid', 'format must be "csv" or "json"');
  }
  let timezone = 'UTC';
  if (present('timezone')) {
    const zone = body['timezone'];
    if (typeof zone === 'string' && isTimeZone(zone)) timezone = zone;
    else
      issue('timezone', 'invalid', 'timezone must be an IANA time zone name such as "Europe/Riga" or "UTC"');
  }

  for (const name of TIME_FILTERS) {
    if (!present(name)) continue;
    const value = body[name];
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
      issue(name, 'invalid', `${name} must be a Unix timestamp in seconds (a whole number >= 0)`);
    } else {
      filters[name] = value;
      given[name] = value;
    }
  }
  for (const [from, to] of [
    ['from', 'to'],
    ['paid_from', 'paid_to'],
    ['updated_from', 'updated_to'],
  ] as const) {
    const low = filters[from];
    const high = filters[to];
    if (low !== undefined && high !== undefined && high <= low) {
      issue(to, 'invalid', `${to} must be later than ${from} (${from} is inclusive, ${to} exclusive)`);
    }
  }

  for (const name of ['brand_id', 'shop_id'] as const) {
    if (!present(name)) continue;
    const value = body[name];
    if (typeof value === 'string' && UUID.test(value)) {
      filters[name] = value.toLowerCase();
      given[name] = value;
    } else issue(name, 'invalid', `${name} must be a UUID`);
  }

  for (const name of ['q', 'products'] as const) {
    if (!present(name)) continue;
    const value = body[name];
    if (typeof value !== 'string') issue(name, 'invalid', `${name} must be a string`);
    else if (value.trim() === '')
      issue(name, 'blank', `${name} must not be blank; leave it out to match all`);
    else if ([...value].length > MAX_TEXT)
      issue(name, 'max_length', `${name} takes at most ${MAX_TEXT} characters`);
    else {
      filters[name] = value.trim().toLowerCase();
      given[name] = value;
    }
  }

  if (present('total')) {
    const value = body['total'];
    const whole = (item: unknown): item is number =>
      typeof item === 'number' && Number.isSafeInteger(item) && item >= 0;
    if (!Array.isArray(value) || value.length !== 2 || !whole(value[0]) || !whole(value[1])) {
      issue('total', 'invalid', 'total must be two whole numbers of minor units, [min, max]');
    } else if (value[0] > value[1]) {
      issue('total', 'invalid', `total's min (${value[0]}) is more than its max (${value[1]})`);
    } else {
      filters.total = [value[0], value[1]];
      given.total = [value[0], value[1]];
    }
  }

  if (present('currency')) {
    const value = body['currency'];
    if (typeof value === 'string' && /^[A-Za-z]{3}$/.test(value)) {
      filters.currency = value.toUpperCase();
      given.currency = value;
    } else issue('currency', 'invalid', 'currency must be an ISO 4217 code such as "EUR"');
  }

  if (present('payment_method')) {
    const value = body['payment_method'];
    if (typeof value === 'string' && findPaymentMethod(value)) {
      filters.payment_method = value;
      given.payment_method = value;
    } else {
      issue(
        'payment_method',
        'invalid',
        'payment_method must be a payment method name of GET /payment_methods/, such as "visa"',
      );
    }
  }

  if (present('three_d_secure')) {
    const value = body['three_d_secure'];
    const read =
      value === true || value === 'true' || value === 1
        ? true
        : value === false || value === 'false' || value === 0
          ? false
          : undefined;
    if (read === undefined) {
      issue(
        'three_d_secure',
        'invalid',
        'three_d_secure must be true or false ("true", "false", 1 and 0 are taken too)',
      );
    } else {
      filters.three_d_secure = read;
      given.three_d_secure = read;
    }
  }

  if (present('country')) {
    const value = body['country'];
    if (typeof value === 'string' && /^[A-Za-z]{2}$/.test(value)) {
      filters.country = value.toLowerCase();
      given.country = value.toUpperCase();
    } else issue('country', 'invalid', 'country must be an ISO 3166-1 alpha-2 code such as "LV"');
  }

  if (present('status')) {
    const value = body['status'];
    const list = Array.isArray(value) ? value : [value];
    const known = (item: unknown): item is PurchaseStatus => STATUSES.includes(item as PurchaseStatus);
    if (list.length === 0 || !list.every(known)) {
      issue(
        'status',
        'invalid',
        `status must be a Purchase status, or an array of them: ${STATUSES.join(', ')}`,
      );
    } else {
      filters.status = list;
      given.status = Array.isArray(value) ? list : list[0]!;
    }
  }

  if (present('product')) {
    if (body['product'] === 'purchase') {
      filters.product = 'purchase';
      given.product = 'purchase';
    } else
      issue(
        'product',
        'invalid',
        'product must be "purchase", the only kind of transaction the sandbox makes',
      );
  }

  return issues.length > 0 ? { issues } : { draft: { format, timezone, filters, given } };
}
