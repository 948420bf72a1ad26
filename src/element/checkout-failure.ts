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

function fixOf({ code, attribute }: CheckoutFailure, pageOrigin: string): string {
  // Each case one or more whole sentences, each ending with a full stop.
  switch (code) {
    case 'missing_widget_id':
      return 'Add widget-id="<the widget id from the merchant console>" to <svc-checkout>.';
    case 'missing_gateway':
      return 'Add gateway="<the gateway origin, such as http://127.0.0.1:4010>" to <svc-checkout>, or load the element with the gateway\'s own script (/widget/svc-checkout.js), which knows its gateway.';
    case 'invalid_order':
      return `Fix ${
        attribute?.startsWith('add')
          ? `what the page passes to ${attribute}()`
          : `the ${attribute ?? 'order'} attribute`
      } as the message says.`;
    case 'unknown_widget':
      return 'Check widget-id against the merchant console, and that gateway names the same environment (test or production).';
    case 'signature_missing':
    case 'signature_invalid':
      return "Sign exactly the values the page gives, certificate-name included, with signOrder (svc-checkout/server) and that certificate's key.";
    case 'certificate_missing':
    case 'unknown_certificate':
    case 'certificate_revoked':
      return 'Upload an active certificate in the merchant console and sign with its key; name it in certificate-name, or leave certificate-name out to let any active certificate verify.';
    case 'origin_not_allowed':
      return `Add ${pageOrigin} to the widget's allowed origins in the merchant console.`;
    case 'order_rejected':
      return 'The merchant\'s order verification URL must answer {"approved": true} for this order.';
    case 'order_already_paid':
      return 'Give each new cart a new order-id: this one was paid with other contents.';
    case 'gateway_unreachable':
    case 'frame_timeout':
      return 'Check the network and that gateway names a running gateway; the customer can retry.';
    case 'internal_error':
      return 'Retry later; if it persists, tell the gateway the time and the widget id.';
    case 'order_locked':
      return 'The form keeps the order it has. For a new order, render a new <svc-checkout> element (in React, with a new key).';
  }
}

/**
 * `text` as a whole sentence: with a full stop at its end unless it ends with one (or `?`, `!`), since
 * messages from the gateway, the frame and the order checks come without one.
 */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * The one console line for a failure: code, what to blame, what went wrong, and the fix, as whole sentences
 * joined by a space.
 */
export function consoleMessage(failure: CheckoutFailure, pageOrigin: string): string {
  const attribute = failure.attribute ? ` [attribute: ${failure.attribute}]` : '';
  return `<svc-checkout> ${failure.code}${attribute}: ${sentence(failure.message)} ${fixOf(failure, pageOrigin)}`;
}
