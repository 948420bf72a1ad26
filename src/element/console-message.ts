/**
 * What the merchant must fix, for the console: the sentences of each failure's console line. They load on
 * demand (checkout-failure.ts's `logToConsole`), since only a page that fails needs them.
 */
import { type CheckoutFailure, failureLine } from './checkout-failure.js';

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
 * The one console line for a failure: code, what to blame, what went wrong, and the fix, as whole sentences
 * joined by a space.
 */
export function consoleMessage(failure: CheckoutFailure, pageOrigin: string): string {
  return `${failureLine(failure)} ${fixOf(failure, pageOrigin)}`;
}

/**
 * What to do when the payment methods lookup failed: `explained` is the HTTP status of an endpoint's error
 * answer whose message the line relays, and then the endpoint's own message says what is wrong; the URL is
 * blamed only when it said nothing.
 */
export function lookupFix(explained: number | undefined): string {
  const fix =
    explained === undefined
      ? "Point payment-methods-url at the merchant's payment-methods endpoint (createPaymentMethodsHandler of svc-checkout/server)."
      : explained < 500
        ? "Change the request as the endpoint's message says: the query of payment-methods-url (such as ?currency=EUR), or the endpoint's options (such as createPaymentMethodsHandler's defaultCurrency)."
        : "The endpoint's server says more in its log.";
  return `The customer can only go on to the payment page without a preselected method. ${fix}`;
}
