/**
 * Why the frame cannot take a payment, in the channel's terms: the gateway's refusal of the widget or the
 * order under the gateway's own code when the element knows it (`WidgetErrorCode`). The message stays the
 * gateway's own, since it names what the merchant has to fix; the element logs it for the merchant, and shows
 * the customer its own translated text.
 */
import type { FrameMessageKey, FrameMessages, WidgetErrorCode } from '../core/index.js';
import type { ApiResult } from './widget-api-client.js';

/** An `error` message's body. */
export interface IntakeError {
  code: WidgetErrorCode;
  message: string;
  field?: string;
}

/** The gateway's answers (status and code) that the element knows under the same code. */
const PASSED_ON: ReadonlySet<string> = new Set<`${number} ${WidgetErrorCode}`>([
  '404 unknown_widget',
  '400 invalid_order',
  '401 signature_missing',
  '401 signature_invalid',
  '401 certificate_missing',
  '401 unknown_certificate',
  '401 certificate_revoked',
  '403 origin_not_allowed',
  '403 order_rejected',
  // Another cart under a paid order id, which the merchant did not approve.
  '409 order_already_paid',
]);

/** The channel error for a failed widget or order intake call. */
export function intakeErrorOf(result: Exclude<ApiResult<unknown>, { kind: 'ok' }>): IntakeError {
  if (result.kind === 'network-error') {
    return { code: 'gateway_unreachable', message: `The payment gateway did not answer: ${result.message}` };
  }
  const { status, error } = result;
  const field = error.field === undefined ? {} : { field: error.field };
  // The gateway's diagnosis of the merchant's mistake (which field the page changed) goes to the console with
  // the message.
  const message =
    error.hint === undefined ? error.message : `${error.message.replace(/([^.!?])$/, '$1.')} ${error.hint}`;
  if (status >= 500) return { code: 'gateway_unreachable', message };
  if (PASSED_ON.has(`${status} ${error.code}`)) {
    return { code: error.code as WidgetErrorCode, message, ...field };
  }
  return { code: 'internal_error', message: `${error.code}: ${message}`, ...field };
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
