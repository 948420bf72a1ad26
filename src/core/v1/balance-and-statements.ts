/**
 * The merchant's money (`GET /balance/`) and company statements (`/company_statements/`).
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

import type { PurchaseStatus } from './purchase.js';

/**
 * The money of one currency in one account, in minor units. Only money that went through the gateway counts:
 * a Purchase marked as paid (`mark_as_paid`) moved none. The document does not show CompanyBalance's fields;
 * these are the sandbox's.
 */
export interface CompanyBalanceAmounts {
  /** Taken from customers: every paid or captured amount (a partial capture counts what it took). */
  paid: number;
  /** Given back: the refund Payments that completed. */
  refunded: number;
  /** Refund Payments the acquirer still works on; already out of `available`. */
  pending_refunds: number;
  /** `paid - refunded - pending_refunds`: what the account holds for the merchant. */
  available: number;
  /** Reserved on customers' cards or wallets (`hold`, `pending_capture`, `pending_release`): not available yet. */
  held: number;
  /** Charges the acquirer accepted and has not answered (`pending_charge`): not available yet. */
  pending: number;
}

/**
 * `GET /balance/`: the merchant's money per account and currency (ISO 4217 keys). Card and wallet payments
 * are in the e-commerce account, bank payments (payment initiation, `*_pis` methods) in the bank account;
 * a refund leaves the account its Purchase paid into. A currency appears once money of it moved there.
 */
export interface CompanyBalance {
  e_commerce: Record<string, CompanyBalanceAmounts>;
  bank: Record<string, CompanyBalanceAmounts>;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds) of the figures. */
  created_on?: number;
}

/** What a statement is written as. */
export type CompanyStatementFormat = 'csv' | 'json';

/**
 * A filter's kind of transaction (the document's TransactionProduct, whose values it does not show). The
 * sandbox's Purchases are all `purchase`.
 */
export type TransactionProduct = 'purchase';

/**
 * The body of `POST /company_statements/`: `format`, `timezone` and the document's filter parameters, all in
 * the JSON body (the document calls them "filter parameters" without placing them; the body keeps a POST's
 * parameters in one place). Every filter is optional; given filters must all match. Timestamps are Unix
 * seconds; `*_from` is inclusive, `*_to` exclusive.
 */
export interface CreateCompanyStatementRequest {
  /** `csv` (RFC 4180, header row) or `json` (an array of rows); `csv` when left out. */
  format?: CompanyStatementFormat;
  /** IANA time zone name (`Europe/Riga`, `UTC`) the statement's times are written in; `UTC` when left out. */
  timezone?: string;
  /** Created at or after. */
  from?: number;
  /** Created before. */
  to?: number;
  /** Paid at or after (a Purchase not paid does not match a paid filter). */
  paid_from?: number;
  /** Paid before. */
  paid_to?: number;
  /** Last changed at or after. */
  updated_from?: number;
  /** Last changed before. */
  updated_to?: number;
  /** UUID of the brand. */
  brand_id?: string;
  /** UUID of a shop; the sandbox's accounts have no shops, so no Purchase matches one. */
  shop_id?: string;
  /** Text found (in any case) in the id, reference, client's email, name or personal code, or a product name. */
  q?: string;
  /** Text found (case-insensitively) in a product name. */
  products?: string;
  /** `[min, max]` of the amount due, inclusive, in minor units. */
  total?: [number, number];
  /** ISO 4217. */
  currency?: string;
  /** The payment method name that paid (`visa`, `swedbank_lv_pis`, ...). */
  payment_method?: string;
  /** Whether the payment passed 3-D Secure: `true` / `false`, also as `"true"`, `"false"`, `1`, `0`. */
  three_d_secure?: boolean | 'true' | 'false' | 0 | 1;
  /** ISO 3166-1 alpha-2 of the payment method (bank methods have one; cards and wallets match none). */
  country?: string;
  /** A Purchase status, or several (any of them). */
  status?: PurchaseStatus | PurchaseStatus[];
  product?: TransactionProduct;
}

/**
 * Where a statement is: `queued` (accepted), `processing` (being counted), `ready` (`download_url` set),
 * `cancelled` (by `POST /company_statements/{id}/cancel/` before it was ready). The document does not show
 * them; these are the sandbox's.
 */
export type CompanyStatementStatus = 'queued' | 'processing' | 'ready' | 'cancelled';

/**
 * A company statement as the `/company_statements/` endpoints answer it. The document names `id`, `status`
 * and `download_url`; the rest is the sandbox's.
 */
export interface CompanyStatement {
  /** UUID. */
  id: string;
  status: CompanyStatementStatus;
  /**
   * Absolute URL of the file once `ready`, else null. It needs the same `Authorization: Bearer` key: a
   * statement lists customers' data, so its URL alone must not open it.
   */
  download_url: string | null;
  /** Not named by the document; the sandbox sends it. */
  format?: CompanyStatementFormat;
  /** Not named by the document; the sandbox sends it. */
  timezone?: string;
  /**
   * Not named by the document; the sandbox sends it. The filters as given: every member of the request but
   * `format` and `timezone`.
   */
  filters?: Omit<CreateCompanyStatementRequest, 'format' | 'timezone'>;
  /** Not named by the document; the sandbox sends it once `ready`: how many Purchases it lists. */
  row_count?: number | null;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  created_on?: number;
  /** Not named by the document; the sandbox sends it. Unix timestamp (seconds). */
  updated_on?: number;
}
