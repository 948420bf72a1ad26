/**
 * The request of `POST /company_statements/`: `format`, `timezone` and every filter parameter of the document,
 * in the JSON body or as query parameters (the document lists the filters apart from the body, and the
 * platform's reference takes them in the query), each checked and each problem a named issue of its member
 * (answered as one 400). Members the request does not know are refused too, in the body or the query, so
 * that a misspelt filter is not silently ignored; one given in both places is refused rather than chosen.
 */
import type {
  CompanyStatementFormat,
  CreateCompanyStatementRequest,
  PurchaseStatus,
} from '../../core/v1-types.js';
import { BodyReader, oneOf, stringThat } from '../body-reader.js';
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
  'preauthorized',
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

const FORMATS: readonly CompanyStatementFormat[] = ['csv', 'json'];

/** What `three_d_secure` takes, as a boolean or as a query string would write one. */
const THREE_D_SECURE = [true, 'true', 1, false, 'false', 0] as const;

const isString = (value: unknown): value is string => typeof value === 'string';

/** A whole number of seconds or of minor units, 0 or more. */
const isWholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

const isAmountRange = (value: unknown): value is [number, number] =>
  Array.isArray(value) && value.length === 2 && isWholeNumber(value[0]) && isWholeNumber(value[1]);

const isStatus = oneOf(STATUSES);

const isStatusOrList = (value: unknown): value is PurchaseStatus | PurchaseStatus[] =>
  Array.isArray(value) ? value.length > 0 && value.every(isStatus) : isStatus(value);

/**
 * The query parameters of `POST /company_statements/` merged into its body, as the body would write them:
 * numbers for the time filters, `total` as `[min, max]` (`total=100&total=500` or `total=100,500`), `status`
 * as one status or a list (repeated or comma-separated).
 */
export function withQueryParameters(
  body: Record<string, unknown>,
  query: URLSearchParams,
): { body: Record<string, unknown> } | { issues: V1Issue[] } {
  const issues: V1Issue[] = [];
  const merged: Record<string, unknown> = { ...body };
  for (const name of new Set(query.keys())) {
    const values = query.getAll(name);
    if (!MEMBERS.has(name)) {
      issues.push({
        field: name,
        code: 'invalid',
        message: `${name} is not a statement parameter; they are ${[...MEMBERS].join(', ')}`,
      });
      continue;
    }
    if (body[name] !== undefined && body[name] !== null) {
      issues.push({
        field: name,
        code: 'invalid',
        message: `${name} is given both as a query parameter and in the body; give it once`,
      });
      continue;
    }
    const list = name === 'total' || name === 'status';
    if (!list && values.length > 1) {
      issues.push({
        field: name,
        code: 'invalid',
        message: `${name} is given ${values.length} times; give it once`,
      });
      continue;
    }
    merged[name] = fromQuery(name, list ? values.flatMap((value) => value.split(',')) : values);
  }
  return issues.length > 0 ? { issues } : { body: merged };
}

/** A query parameter's text as the body writes the member; text that is neither is left for the check to name. */
function fromQuery(name: string, values: string[]): unknown {
  const number = (text: string) => (/^\d{1,15}$/.test(text) ? Number(text) : text);
  if (name === 'total') return values.map(number);
  if (name === 'status') return values.length === 1 ? values[0] : values;
  const [text = ''] = values;
  if ((TIME_FILTERS as readonly string[]).includes(name)) return number(text);
  if (name === 'three_d_secure' && (text === '1' || text === '0')) return Number(text);
  return text;
}

/** Reads the body of `POST /company_statements/`. A member that is null is left out, as when absent. */
export function readStatementRequest(
  body: Record<string, unknown>,
): { draft: StatementDraft } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  for (const name of Object.keys(body)) {
    if (!MEMBERS.has(name)) {
      reader.add(
        name,
        'invalid',
        `${name} is not a statement parameter; they are ${[...MEMBERS].join(', ')}`,
      );
    }
  }
  const filters: StatementFilters = {};
  const given: StatementDraft['given'] = {};

  const format =
    reader.where(body, 'format', 'format', oneOf(FORMATS), 'format must be "csv" or "json"') ?? 'csv';
  const timezone =
    reader.where(
      body,
      'timezone',
      'timezone',
      stringThat(isTimeZone),
      'timezone must be an IANA time zone name such as "Europe/Riga" or "UTC"',
    ) ?? 'UTC';

  for (const name of TIME_FILTERS) {
    const value = reader.where(
      body,
      name,
      name,
      isWholeNumber,
      `${name} must be a Unix timestamp in seconds (a whole number >= 0)`,
    );
    if (value === undefined) continue;
    filters[name] = value;
    given[name] = value;
  }
  for (const [from, to] of [
    ['from', 'to'],
    ['paid_from', 'paid_to'],
    ['updated_from', 'updated_to'],
  ] as const) {
    const low = filters[from];
    const high = filters[to];
    if (low !== undefined && high !== undefined && high <= low) {
      reader.add(to, 'invalid', `${to} must be later than ${from} (${from} is inclusive, ${to} exclusive)`);
    }
  }

  for (const name of ['brand_id', 'shop_id'] as const) {
    const value = reader.where(
      body,
      name,
      name,
      stringThat((text) => UUID.test(text)),
      `${name} must be a UUID`,
    );
    if (value === undefined) continue;
    filters[name] = value.toLowerCase();
    given[name] = value;
  }

  for (const name of ['q', 'products'] as const) {
    const value = reader.where(body, name, name, isString, `${name} must be a string`);
    if (value === undefined) continue;
    if (value.trim() === '')
      reader.add(name, 'blank', `${name} must not be blank; leave it out to match all`);
    else if ([...value].length > MAX_TEXT)
      reader.add(name, 'max_length', `${name} takes at most ${MAX_TEXT} characters`);
    else {
      filters[name] = value.trim().toLowerCase();
      given[name] = value;
    }
  }

  const total = reader.where(
    body,
    'total',
    'total',
    isAmountRange,
    'total must be two whole numbers of minor units, [min, max]',
  );
  if (total && total[0] > total[1]) {
    reader.add('total', 'invalid', `total's min (${total[0]}) is more than its max (${total[1]})`);
  } else if (total) {
    filters.total = [total[0], total[1]];
    given.total = [total[0], total[1]];
  }

  const currency = reader.where(
    body,
    'currency',
    'currency',
    stringThat((text) => /^[A-Za-z]{3}$/.test(text)),
    'currency must be an ISO 4217 code such as "EUR"',
  );
  if (currency !== undefined) {
    filters.currency = currency.toUpperCase();
    given.currency = currency;
  }

  const method = reader.where(
    body,
    'payment_method',
    'payment_method',
    stringThat((text) => findPaymentMethod(text) !== undefined),
    'payment_method must be a payment method name of GET /payment_methods/, such as "visa"',
  );
  if (method !== undefined) {
    filters.payment_method = method;
    given.payment_method = method;
  }

  const threeDSecure = reader.where(
    body,
    'three_d_secure',
    'three_d_secure',
    oneOf(THREE_D_SECURE),
    'three_d_secure must be true or false ("true", "false", 1 and 0 are taken too)',
  );
  if (threeDSecure !== undefined) {
    const read = threeDSecure === true || threeDSecure === 'true' || threeDSecure === 1;
    filters.three_d_secure = read;
    given.three_d_secure = read;
  }

  const country = reader.where(
    body,
    'country',
    'country',
    stringThat((text) => /^[A-Za-z]{2}$/.test(text)),
    'country must be an ISO 3166-1 alpha-2 code such as "LV"',
  );
  if (country !== undefined) {
    filters.country = country.toLowerCase();
    given.country = country.toUpperCase();
  }

  const status = reader.where(
    body,
    'status',
    'status',
    isStatusOrList,
    `status must be a Purchase status, or an array of them: ${STATUSES.join(', ')}`,
  );
  if (status !== undefined) {
    filters.status = Array.isArray(status) ? status : [status];
    given.status = status;
  }

  const product = reader.where(
    body,
    'product',
    'product',
    oneOf(['purchase'] as const),
    'product must be "purchase", the only kind of transaction the sandbox makes',
  );
  if (product !== undefined) {
    filters.product = product;
    given.product = product;
  }

  const { issues } = reader;
  return issues.length > 0 ? { issues } : { draft: { format, timezone, filters, given } };
}
