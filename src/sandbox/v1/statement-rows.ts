/**
 * What a company statement and the balance read from a merchant's Purchases and refund Payments: one
 * {@link PurchaseMoney} per Purchase (what it took, gave back, holds), the statement's filters, and the rows
 * written as CSV or JSON one chunk at a time, so that a statement of any size is never one text in memory.
 *
 * The balance is the sum of the same {@link PurchaseMoney} the statement's rows show, so the two agree by
 * construction: over an unfiltered statement, the sum of `paid_amount` is the balance's `paid`, and so on.
 */
import type {
  CompanyBalance,
  CompanyBalanceAmounts,
  CompanyStatementFormat,
  CreateCompanyStatementRequest,
  PurchaseStatus,
} from '../../core/v1-types.js';
import type { TestAcquirer } from '../acquirer.js';
import { findTestCardByDigits } from '../test-cards.js';
import { findPaymentMethod } from './method-catalogue.js';
import type { StoredRefund } from './purchase-view.js';
import type { PurchaseRecord } from './purchases.js';

/**
 * The checked filters of a statement: the request's, with `three_d_secure` read as a boolean and `status` as
 * a list. Text filters are lower case.
 */
export type StatementFilters = Omit<
  CreateCompanyStatementRequest,
  'format' | 'timezone' | 'three_d_secure' | 'status'
> & {
  three_d_secure?: boolean;
  status?: PurchaseStatus[];
};

/** Which account a Purchase's money is in. */
export type Account = 'e_commerce' | 'bank';

/** A Purchase's refunds: completed and still pending, in minor units. */
export interface Refunds {
  refunded: number;
  pending: number;
}

/** The refunds of each Purchase, from the merchant's refund Payments. */
export function refundsByPurchase(payments: Iterable<StoredRefund>): Map<string, Refunds> {
  const byPurchase = new Map<string, Refunds>();
  for (const payment of payments) {
    const refunds = byPurchase.get(payment.related_to.id) ?? { refunded: 0, pending: 0 };
    if (payment.status === 'paid') refunds.refunded += payment.amount;
    else refunds.pending += payment.amount;
    byPurchase.set(payment.related_to.id, refunds);
  }
  return byPurchase;
}

/** What one Purchase moved through the gateway. */
export interface PurchaseMoney {
  /** The method of its newest successful attempt, or null when nothing succeeded. */
  method: string | null;
  account: Account;
  /** Taken from the customer (captured or paid at once), refunds not subtracted. 0 when marked as paid. */
  paid: number;
  refunded: number;
  pendingRefunds: number;
  /** Reserved and not taken yet. */
  held: number;
  /** A charge the acquirer has not answered yet. */
  pending: number;
  /** Unix seconds when the money was taken (or the `paid_on` of `mark_as_paid`); null when not paid. */
  paidOn: number | null;
}

const TAKING: ReadonlySet<string | undefined> = new Set([undefined, 'payment', 'capture', 'charge']);
const HOLDING: ReadonlySet<PurchaseStatus> = new Set(['hold', 'pending_capture', 'pending_release']);

/**
 * What the Purchase moved. The amount taken is its `refundable_amount` plus everything refunded or being
 * refunded (a refund lowers `refundable_amount` when it starts), which also counts a partial capture right.
 */
export function purchaseMoney(record: PurchaseRecord, refunds: Refunds | undefined): PurchaseMoney {
  const { purchase } = record;
  const attempts = purchase.transaction_data.attempts;
  const method = attempts.find((attempt) => attempt.successful)?.payment_method ?? null;
  const account: Account =
    method !== null && findPaymentMethod(method)?.group === 'bank' ? 'bank' : 'e_commerce';
  const total = purchase.purchase.total ?? 0;
  const tookMoney =
    !purchase.marked_as_paid && (purchase.status === 'paid' || purchase.status === 'pending_refund');
  const refunded = tookMoney ? (refunds?.refunded ?? 0) : 0;
  const pendingRefunds = tookMoney ? (refunds?.pending ?? 0) : 0;
  const takenAt = tookMoney
    ? (attempts.find((attempt) => attempt.successful && TAKING.has(attempt.type))?.created_on ?? null)
    : null;
  return {
    method,
    account,
    paid: tookMoney ? purchase.refundable_amount + refunded + pendingRefunds : 0,
    refunded,
    pendingRefunds,
    held: HOLDING.has(purchase.status) ? total : 0,
    pending: purchase.status === 'pending_charge' ? total : 0,
    paidOn: purchase.marked_as_paid ? (purchase.paid_on ?? null) : takenAt,
  };
}

/** The balance of the merchant's Purchases: every {@link PurchaseMoney} summed by account and currency. */
export function balanceOf(
  records: Iterable<PurchaseRecord>,
  refunds: ReadonlyMap<string, Refunds>,
  createdOn: number,
): CompanyBalance {
  const balance: CompanyBalance = { e_commerce: {}, bank: {}, created_on: createdOn };
  for (const record of records) {
    const money = purchaseMoney(record, refunds.get(record.purchase.id));
    if (money.paid + money.held + money.pending === 0) continue;
    const currency = record.purchase.purchase.currency;
    const amounts: CompanyBalanceAmounts = balance[money.account][currency] ?? {
      paid: 0,
      refunded: 0,
      pending_refunds: 0,
      available: 0,
      held: 0,
      pending: 0,
    };
    amounts.paid += money.paid;
    amounts.refunded += money.refunded;
    amounts.pending_refunds += money.pendingRefunds;
    amounts.available = amounts.paid - amounts.refunded - amounts.pending_refunds;
    amounts.held += money.held;
    amounts.pending += money.pending;
    balance[money.account][currency] = amounts;
  }
  return balance;
}

/** What a statement's filters read beyond the record: its money, and whether it passed 3-D Secure. */
export interface RowContext {
  refunds: ReadonlyMap<string, Refunds>;
  acquirer: Pick<TestAcquirer, 'get'>;
}

/**
 * Whether the payment passed 3-D Secure: in the sandbox, a card payment with the test card that asks for the
 * challenge (the authorisation keeps the card's first six and last four digits). Wallet B's 3-D Secure step
 * is not recorded, so wallet payments read false.
 */
function passedThreeDSecure(record: PurchaseRecord, acquirer: RowContext['acquirer']): boolean {
  const authorisation = record.authorisationId ? acquirer.get(record.authorisationId) : undefined;
  if (authorisation?.instrument.kind !== 'card' || authorisation.state !== 'authorised') return false;
  const { bin, last4 } = authorisation.instrument.card;
  return findTestCardByDigits(bin, last4)?.outcome.kind === 'challenge';
}

/** The country of the method that paid (`ee`, `lt`, `lv` for bank methods); cards and wallets have none. */
function countryOf(method: string | null): string | null {
  const country = method === null ? undefined : findPaymentMethod(method)?.country;
  return country === undefined || country === 'any' ? null : country;
}

/** `from` inclusive, `to` exclusive; a bound on a time the Purchase lacks (not paid) does not match. */
function within(value: number | null | undefined, from: number | undefined, to: number | undefined): boolean {
  if (from === undefined && to === undefined) return true;
  if (value === null || value === undefined) return false;
  return (from === undefined || value >= from) && (to === undefined || value < to);
}

function productsText(record: PurchaseRecord): string {
  return record.purchase.purchase.products
    .map((product) => `${product.name} x ${product.quantity}`)
    .join('; ');
}

/** Whether the record matches every given filter. */
export function matches(record: PurchaseRecord, filters: StatementFilters, context: RowContext): boolean {
  const { purchase } = record;
  if (!within(purchase.created_on, filters.from, filters.to)) return false;
  if (!within(purchase.updated_on, filters.updated_from, filters.updated_to)) return false;
  if (filters.brand_id !== undefined && purchase.brand_id.toLowerCase() !== filters.brand_id) return false;
  // The sandbox's accounts have no shops: no Purchase belongs to one.
  if (filters.shop_id !== undefined) return false;
  if (filters.currency !== undefined && purchase.purchase.currency !== filters.currency) return false;
  if (filters.status !== undefined && !filters.status.includes(purchase.status)) return false;
  if (filters.total !== undefined) {
    const total = purchase.purchase.total ?? 0;
    if (total < filters.total[0] || total > filters.total[1]) return false;
  }
  if (filters.products !== undefined) {
    const names = purchase.purchase.products.map((product) => product.name.toLowerCase());
    if (!names.some((name) => name.includes(filters.products!))) return false;
  }
  if (filters.q !== undefined) {
    const { client } = purchase;
    const fields = [
      purchase.id,
      purchase.reference,
      client.email,
      client.full_name,
      client.personal_code,
      ...purchase.purchase.products.map((product) => product.name),
    ];
    if (!fields.some((field) => field?.toLowerCase().includes(filters.q!))) return false;
  }
  if (filters.paid_from !== undefined || filters.paid_to !== undefined) {
    const money = purchaseMoney(record, context.refunds.get(purchase.id));
    if (!within(money.paidOn, filters.paid_from, filters.paid_to)) return false;
  }
  if (filters.payment_method !== undefined || filters.country !== undefined) {
    const method = purchaseMoney(record, undefined).method;
    if (filters.payment_method !== undefined && method !== filters.payment_method) return false;
    if (filters.country !== undefined && countryOf(method) !== filters.country) return false;
  }
  if (
    filters.three_d_secure !== undefined &&
    passedThreeDSecure(record, context.acquirer) !== filters.three_d_secure
  ) {
    return false;
  }
  // filters.product: every sandbox Purchase is a `purchase`, the only value the request takes.
  return true;
}

/** The columns of a statement, in order (CSV header and JSON members alike). */
export const STATEMENT_COLUMNS = [
  'id',
  'reference',
  'status',
  'created_on',
  'paid_on',
  'updated_on',
  'currency',
  'total',
  'paid_amount',
  'refunded_amount',
  'pending_refund_amount',
  'payment_method',
  'account',
  'country',
  'three_d_secure',
  'marked_as_paid',
  'client_email',
  'client_full_name',
  'products',
] as const;

type Cell = string | number | boolean | null;

/** One row, by column. Times are written in the statement's zone; amounts are minor units. */
function rowOf(record: PurchaseRecord, context: RowContext, time: ZoneTime): Cell[] {
  const { purchase } = record;
  const money = purchaseMoney(record, context.refunds.get(purchase.id));
  return [
    purchase.id,
    purchase.reference,
    purchase.status,
    time.format(purchase.created_on ?? null),
    time.format(money.paidOn),
    time.format(purchase.updated_on ?? null),
    purchase.purchase.currency,
    purchase.purchase.total ?? 0,
    money.paid,
    money.refunded,
    money.pendingRefunds,
    money.method,
    // A charge still pending has no successful attempt yet; its money is counted in the e-commerce account.
    money.method === null && money.pending === 0 ? null : money.account,
    countryOf(money.method)?.toUpperCase() ?? null,
    passedThreeDSecure(record, context.acquirer),
    purchase.marked_as_paid,
    purchase.client.email ?? null,
    purchase.client.full_name ?? null,
    productsText(record),
  ];
}

/**
 * A CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. Text that a
 * spreadsheet could run as a formula gets a leading apostrophe and is quoted (OWASP's CSV injection advice),
 * so that a customer's name cannot become a formula in the merchant's spreadsheet: text starting with a tab,
 * a carriage return or a line feed, and text whose first sign, after anything an importer may trim (spaces of
 * any width, no-break spaces, zero-width and other invisible format characters), is `=`, `+`, `-`, `@` or
 * one of their full-width, small or minus-sign look-alikes, which some spreadsheets read as the sign itself.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

const FORMULA_START =
  /^(?:[\t\r\n]|[\s\p{Zs}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20\uFE62\uFE63\uFE66\uFE6B\u2212])/u;

/**
 * Unix seconds written as ISO 8601 with the zone's offset (`2026-11-24T18:55:00+02:00`). The offset comes from
 * Intl once per quarter hour of time and is kept: every zone changes its offset on a quarter hour, and
 * asking Intl for each of 100,000 rows would be most of a statement's time.
 */
export class ZoneTime {
  private readonly offsets = new Map<number, number>();
  private readonly zone: Intl.DateTimeFormat;

  /** @throws RangeError when `timeZone` is not a time zone Intl knows. */
  constructor(timeZone: string) {
    this.zone = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  }

  format(seconds: number | null): string | null {
    if (seconds === null) return null;
    const offsetMinutes = this.offsetMinutes(seconds);
    const local = new Date((seconds + offsetMinutes * 60) * 1000);
    const sign = offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(offsetMinutes);
    const offset = `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    return `${local.toISOString().slice(0, 19)}${offset}`;
  }

  private offsetMinutes(seconds: number): number {
    const quarter = Math.floor(seconds / 900);
    let minutes = this.offsets.get(quarter);
    if (minutes === undefined) {
      const name = this.zone
        .formatToParts(new Date(quarter * 900 * 1000))
        .find((part) => part.type === 'timeZoneName')?.value;
      const match = /^GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
      minutes = match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3])) : 0;
      if (this.offsets.size > 10_000) this.offsets.clear();
      this.offsets.set(quarter, minutes);
    }
    return minutes;
  }
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** How big a chunk grows before it is handed on. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The statement's text, chunk after chunk: CSV (a header row, CRLF line ends) or JSON (an array of objects
 * with the columns as members). Reads `records` lazily, one chunk's worth at a time, so memory holds one
 * chunk, never the statement.
 */
export function* statementChunks(
  records: Iterable<PurchaseRecord>,
  format: CompanyStatementFormat,
  context: RowContext,
  time: ZoneTime,
): Generator<string> {
  let chunk = format === 'csv' ? `${STATEMENT_COLUMNS.join(',')}\r\n` : '[';
  let first = true;
  for (const record of records) {
    const cells = rowOf(record, context, time);
    if (format === 'csv') chunk += `${cells.map(csvCell).join(',')}\r\n`;
    else {
      const row: Record<string, Cell> = {};
      STATEMENT_COLUMNS.forEach((column, index) => {
        row[column] = cells[index]!;
      });
      chunk += `${first ? '\n' : ',\n'}${JSON.stringify(row)}`;
    }
    first = false;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = '';
    }
  }
  yield format === 'csv' ? chunk : `${chunk}${first ? ']' : '\n]'}\n`;
}
