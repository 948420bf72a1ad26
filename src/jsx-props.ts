/**
 * The props of `<svc-checkout>` that mean the same in every JSX framework: its attributes, `class` and its
 * four event props. `svc-checkout/react` and `svc-checkout/preact` build their `SvcCheckoutProps` on it with
 * their framework's own HTML props, so the list is written once. Types only, and no entry of its own: the
 * two entries' declarations import it.
 * @module
 */
import type {
  CheckoutErrorEvent,
  NavigateBackToCartEvent,
  NavigateToCheckoutEvent,
  PaymentCompletedEvent,
  SvcCheckout,
} from './index.js';

/**
 * The element's attributes as its documentation names them (string values are the attributes' texts),
 * `class`, and its four events as `on` + the event's name as written (React 19 and Preact 11 both add such a
 * prop with `addEventListener` for the name after `on`, in its case when it starts with a small letter).
 */
export interface SvcCheckoutJsxProps {
  /** The widget id (a uuid) from the merchant console. Required. */
  'widget-id'?: string;
  /** The gateway's origin, such as `https://pay.example`; `SvcCheckout.defaultGateway` when absent. */
  gateway?: string;
  /** `lv`, `en` or `ru`; part of the signed order when given. */
  language?: string;
  /**
   * The order's `items`, `shippingOptions` and `constraints`: an object (set as the property; the element
   * must be defined before the framework renders it) or its JSON text.
   */
  order?: SvcCheckout['order'];
  /** The merchant's order id. */
  'order-id'?: string;
  /** Single-item order: price per unit with tax included, such as `"12.50"`. */
  amount?: string;
  /** Single-item order: ISO 4217 currency. */
  currency?: string;
  /** Single-item order: the item's name. */
  label?: string;
  /** Single-item order: tax rate as `"0.21"` or `"21"`. */
  'tax-rate'?: string;
  /** Single-item order: quantity, such as `"2"` (signed as `count: 2`, written `2.000`). */
  count?: string;
  /** Single-item order: `PIECE`, `KILOGRAM`, `METER`, `LITRE` or `HOUR`. */
  unit?: string;
  /** Where the customer goes back to from the failed or cancelled screen. */
  'back-to-merchant-url'?: string;
  /**
   * Where the customer goes after a successful payment, unless a `paymentCompleted` listener calls
   * `preventDefault()`. Signed when given.
   */
  'success-redirect-url'?: string;
  /** The order's signature: Base64 SHA256withRSA by the merchant's key. */
  signature?: string;
  /** The name of the merchant certificate whose key signed the order; optional, and signed when given. */
  'certificate-name'?: string;
  /**
   * `true` delays the start until `init()`. A boolean: React and Preact set the property, and a string such
   * as `"false"` would be truthy there.
   */
  lazy?: boolean;
  /** Prefills the customer's email. */
  email?: string;
  /** Prefills the customer's phone. */
  phone?: string;
  /** Prefills the customer's first name. */
  'first-name'?: string;
  /** Prefills the customer's last name. */
  'last-name'?: string;
  /**
   * The merchant's texts in place of ours, by key: an object (React and Preact set the property, which does
   * not read JSON text).
   */
  texts?: SvcCheckout['texts'];
  /** The card fields' layout: `stacked` (the default) or `compact` (number, expiry date and CVC on one line). */
  'card-layout'?: SvcCheckout['cardLayout'];
  /** Whether the form asks for the cardholder's name: `required` (the default), `optional` or `hidden`. */
  'cardholder-name'?: SvcCheckout['cardholderName'];
  /** v1 mode: the Purchase's `checkout_url`; switches the element to the payment method picker. */
  'checkout-url'?: string;
  /** v1 mode: the merchant's own payment-methods endpoint, with its query (such as `?currency=EUR`). */
  'payment-methods-url'?: string;
  /** v1 mode: the customer's country (ISO 3166-1 alpha-2), whose bank methods show first. */
  country?: string;
  /** v1 mode: the method chosen at first, by its name (such as `visa`). */
  method?: string;
  /** A class attribute as in HTML (`className` works too). */
  class?: string;
  /**
   * `paymentCompleted`: the payment succeeded or failed (`event.detail.paymentSucceeded`); cancelable, which
   * keeps the page from going to `success-redirect-url`.
   */
  onpaymentCompleted?: (event: PaymentCompletedEvent) => void;
  /** `navigateBackToCart`: the customer pressed back-to-merchant; cancelable. */
  onnavigateBackToCart?: (event: NavigateBackToCartEvent) => void;
  /** `checkoutError`: the widget cannot take a payment, or refused a change (`event.detail.code`). */
  oncheckoutError?: (event: CheckoutErrorEvent) => void;
  /** `navigateToCheckout`: v1 mode, the customer confirmed a payment method; cancelable. */
  onnavigateToCheckout?: (event: NavigateToCheckoutEvent) => void;
}
