/**
 * Why the frame cannot take a payment, in the channel's terms: the gateway's refusal of the widget or the
 * order, mapped to the codes the element knows (`WidgetErrorCode`). The message stays the gateway's own,
 * since it names what the merchant has to fix; the element logs it for the merchant, and shows the customer
 * its own translated text.
 */
import type { FrameMessageKey, FrameMessages, WidgetErrorCode } from '../core/index.js';
import type { ApiResult } from './widget-api-client.js';

/** An `error` message's body. */
export interface IntakeError {
  code: WidgetErrorCode;
  message: string;
  field?: string;
}

const SIGNATURE_CODES = new Set([
  'signature_missing',
  'certificate_missing',
  'unknown_certificate',
  'certificate_revoked',
  'signature_invalid',
]);

/** The channel error for a failed widget or order intake call. */
export function intakeErrorOf(result: Exclude<ApiResult<unknown>, { kind: 'ok' }>): IntakeError {
  if (result.kind === 'network-error') {
    return { code: 'gateway_unreachable', message: `The payment gateway did not answer: ${result.message}` };
  }
  const { status, error } = result;
  const field = error.field === undefined ? {} : { field: error.field };
  if (status >= 500) return { code: 'gateway_unreachable', message: error.message };
  if (status === 404 && error.code === 'unknown_widget')
    return { code: 'unknown_widget', message: error.message };
  if (status === 400 && error.code === 'invalid_order') {
    return { code: 'invalid_order', message: error.message, ...field };
  }
  if (status === 401 && SIGNATURE_CODES.has(error.code)) {
    return { code: 'signature_refused', message: error.message, ...field };
  }
  if (status === 403 && error.code === 'origin_not_allowed') {
    return { code: 'origin_not_allowed', message: error.message };
  }
  // 409 order_already_paid: another cart under a paid order id, which the merchant did not approve.
  if (
    (status === 403 && error.code === 'order_rejected') ||
    (status === 409 && error.code === 'order_already_paid')
  ) {
    return { code: 'order_rejected', message: error.message };
  }
  return { code: 'internal_error', message: `${error.code}: ${error.message}`, ...field };
}

/**
 * The sentence the frame shows when the merchant's order verification rejected the order (a CALLBACK
 * widget), or undefined for any other failure: the frame shows this one itself, because the merchant's
 * reason tells the customer what to do (go back to the shop for the new price, come back later). The
 * gateway's `reason` picks the text; a missing reason, or one the catalog has no text for, reads as `OTHER`.
 */
export function rejectionTextKey(
  result: Exclude<ApiResult<unknown>, { kind: 'ok' }>,
  catalog: FrameMessages,
): FrameMessageKey | undefined {
  if (result.kind !== 'http-error' || result.status !== 403 || result.error.code !== 'order_rejected') {
    return undefined;
  }
  const key = `rejected.${result.error.reason}`;
  return Object.hasOwn(catalog, key) ? (key as FrameMessageKey) : 'rejected.OTHER';
}
