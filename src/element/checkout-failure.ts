/**
 * What the element says when the widget cannot take a payment: what to blame (an attribute, or the script
 * call that added a refused item or option) and a fix for the merchant's console. The customer sees a
 * translated text instead (core's `widgetErrorKey`).
 */
import type { WidgetErrorCode } from '../core/frame-channel.js';
import { orderAttributeOf } from '../core/order-input-from-attributes.js';
import type { CheckoutAttribute, CheckoutErrorCode, CheckoutErrorDetail } from './events.js';

/** A reason the widget cannot take a payment, as the element reports it. */
export type CheckoutFailure = CheckoutErrorDetail;

/** Where the order the element sent came from, to name what to fix for a field the gateway refused. */
export interface OrderLayout {
  /** The attributes gave the order in the single-item form (`amount`, `label`, ...). */
  singleItem: boolean;
  /** How many items and shipping options came from the attributes; those after them came by script. */
  items: number;
  options: number;
}

/** The codes whose error view offers a retry: the customer's connection or the gateway may recover. */
export function isRetryable(code: CheckoutErrorCode): boolean {
  return code === 'gateway_unreachable' || code === 'frame_timeout';
}

/** The attributes behind the fields of `init` that are not the order's own. */
const NON_ORDER_ATTRIBUTES: Readonly<Record<string, CheckoutAttribute>> = {
  signature: 'signature',
  certificateName: 'certificate-name',
  'customer.email': 'email',
  'customer.phone': 'phone',
  'customer.firstName': 'first-name',
  'customer.lastName': 'last-name',
};

/** The attribute a code points at when the gateway names no field. */
const CODE_ATTRIBUTES: Partial<Record<WidgetErrorCode, CheckoutAttribute>> = {
  unknown_widget: 'widget-id',
  signature_missing: 'signature',
  signature_invalid: 'signature',
  certificate_missing: 'certificate-name',
  unknown_certificate: 'certificate-name',
  certificate_revoked: 'certificate-name',
};

/** What to blame for a field, and what to say before the gateway's message. */
interface Blame {
  attribute?: CheckoutAttribute;
  /**
   * The script call and the number of its item or option among those it added, such as
   * `addShippingOption() (option 1)`: the index in the gateway's field is not the page's own count.
   */
  call?: string;
}

/**
 * What to blame for a field the gateway names (`order.items[0].amount`, `signature`, ...) in an order laid
 * out as `layout`; without a field, what the code itself points at.
 */
export function blame(field: string | undefined, code: WidgetErrorCode, layout: OrderLayout): Blame {
  if (field !== undefined && Object.hasOwn(NON_ORDER_ATTRIBUTES, field)) {
    return { attribute: NON_ORDER_ATTRIBUTES[field] };
  }
  // A field the page gave no attribute for (the gateway's `widgetId`, `pageOrigin`): what the code points at.
  if (field === undefined || !/^order\b/.test(field)) {
    const attribute = CODE_ATTRIBUTES[code];
    return attribute ? { attribute } : {};
  }
  const [, list, index, member] = /^order\.(items|shippingOptions)\[(\d+)\](?:\.(\w+))?/.exec(field) ?? [];
  if (list) {
    const added = Number(index) - (list === 'items' ? layout.items : layout.options);
    if (added >= 0) {
      const attribute = list === 'items' ? 'addOrderItem' : 'addShippingOption';
      return {
        attribute,
        call: `${attribute}() (${list === 'items' ? 'item' : 'option'} ${added + 1})`,
      };
    }
    // The single item's members are attributes of their own; a member without one is the item's amount's.
    if (layout.singleItem && list === 'items') return { attribute: orderAttributeOf(member) ?? 'amount' };
    return { attribute: 'order' };
  }
  const top = /^order\.(\w+)$/.exec(field)?.[1];
  if (layout.singleItem && top === 'items') return { attribute: 'amount' };
  // The order's currency is the single item's attribute; in the order JSON it is the JSON's.
  const attribute = top === 'currency' && !layout.singleItem ? undefined : orderAttributeOf(top);
  return { attribute: attribute ?? 'order' };
}

/**
 * `text` as a whole sentence: with a full stop at its end unless it ends with one (or `?`, `!`), since
 * messages from the gateway, the frame and the order checks come without one.
 */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The console line's module, loading or loaded; undefined again after a failed load, to retry next time. */
let consoleLines: Promise<typeof import('./console-message.js')> | undefined;
/** The last line begun: once it is written, so are those before it. */
let lastLine: Promise<void> = Promise.resolve();

/**
 * Logs the one console line of a failure, or of any of the element's problems (`line` builds it). The fix
 * sentences load on demand (console-message.ts), so that a page that never fails never downloads them: the
 * line follows the `checkoutError` event by a moment, and lines keep their order. Where the sentences cannot
 * load (the gateway that serves the widget script is unreachable), the line says what went wrong without them.
 */
export function logToConsole(
  line: (lines: typeof import('./console-message.js')) => string,
  fallback: string,
): void {
  consoleLines ??= import('./console-message.js');
  lastLine = consoleLines.then(
    (lines) => console.error(line(lines)),
    () => {
      consoleLines = undefined;
      console.error(fallback);
    },
  );
}

/** Resolves once the console lines begun so far are written (a line follows its event by a moment). */
export function consoleLinesWritten(): Promise<void> {
  return lastLine;
}

/** A failure's console line up to its fix: code, what to blame, and what went wrong. */
export function failureLine(failure: CheckoutFailure): string {
  const attribute = failure.attribute ? ` [attribute: ${failure.attribute}]` : '';
  return `<svc-checkout> ${failure.code}${attribute}: ${sentence(failure.message)}`;
}

/** Logs a failure's console line: what went wrong, then the fix (console-message.ts). */
export function logFailure(failure: CheckoutFailure): void {
  const origin = window.origin;
  logToConsole((lines) => lines.consoleMessage(failure, origin), failureLine(failure));
}
