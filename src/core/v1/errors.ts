/**
 * The error body of the v1 interface and the codes it carries.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

/** One problem in an error body. */
export interface V1ErrorDetail {
  message: string;
  /** A code such as those of {@link V1ErrorCode}; the document says its list is not complete. */
  code: string;
}

/**
 * The body of a 400 answer: keyed by a field name or `__all__`, each value one {@link V1ErrorDetail} or an
 * array of them (both shapes occur). The sandbox keys nested fields by their path
 * (`purchase.products[0].price`), except where the document fixes the key (`creditor`, `__all__`); it sends
 * one object for a field with one problem and an array for a field with several. It answers 401, 404, 405,
 * 413, 429, 503 and 507 with the same shape under `__all__`.
 */
export type V1ErrorBody = Record<string, V1ErrorDetail | V1ErrorDetail[]>;

/** The key of problems that belong to no single field. */
export const V1_NON_FIELD_KEY = '__all__';

/** Codes the document names (the operation errors and `invalid`). */
export type V1DocumentedErrorCode =
  | 'purchase_release_error'
  | 'purchase_capture_error'
  | 'purchase_charge_error'
  | 'purchase_refund_error'
  | 'invalid';

/**
 * Every code the sandbox answers with: the documented ones and its own for what the document leaves open
 * (field checks, authentication, unknown objects, the rate limit, a sandbox whose disk is full or failing).
 */
export type V1ErrorCode =
  | V1DocumentedErrorCode
  | 'required'
  | 'null'
  | 'blank'
  | 'empty'
  | 'min_value'
  | 'max_value'
  | 'max_length'
  | 'parse_error'
  | 'purchase_cancel_error'
  | 'statement_cancel_error'
  | 'statement_not_ready'
  | 'not_authenticated'
  | 'authentication_failed'
  | 'not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'throttled'
  | 'not_implemented'
  | 'insufficient_storage'
  | 'storage_unavailable'
  | 'internal_error';
