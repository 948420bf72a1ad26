/**
 * `svc-checkout/react`: types only. It teaches React 19's JSX `<svc-checkout>`, so that a React app writes
 * the element with checked attributes and typed event props:
 *
 * ```tsx
 * import 'svc-checkout'; // defines the element, once, before the first render
 * import type {} from 'svc-checkout/react';
 *
 * <svc-checkout widget-id={widgetId} order={{ items }} signature={signature}
 *   onpaymentCompleted={(event) => console.log(event.detail.paymentSucceeded)} />
 * ```
 *
 * The props are typed as React 19 hands them to a custom element (react-dom's `setPropOnCustomElement`):
 * - a prop whose name is a property of the element is set as that property, any other as an attribute
 *   (`true` as an empty attribute, `false` removes it, anything else as text). The attributes with a hyphen
 *   (`widget-id`, `order-id`, ...) are therefore typed by their attribute names, which also work when the
 *   element is rendered on a server (`react-dom/server` writes every string prop as an attribute);
 * - `order` and `texts` take objects: in the browser they are set as properties. The element must be
 *   defined by then (`import 'svc-checkout'` before the first render), or the object becomes the attribute
 *   text `[object Object]`; on a server an object is left out, so pass `order` as a JSON string there;
 * - a prop that starts with `on` and holds a function is added with `addEventListener` for the event named
 *   by the rest of the prop's name, as written: `onpaymentCompleted` listens to `paymentCompleted`
 *   (`onPaymentCompleted` would listen to an event `PaymentCompleted`, which never fires, so it is refused).
 *
 * Hydrating server-rendered markup, React 19 sets no property and adds no listener on custom elements until
 * their next render in the browser (React issue 35446): the element starts from the attributes the
 * server wrote.
 *
 * A changed order before the customer starts paying replaces the order in the frame; once a payment has
 * started, the element refuses it (`checkoutError` with code `order_locked`): render a new element (a new
 * `key`) for a new order then.
 *
 * The module has no runtime code: import it with `import type {} from 'svc-checkout/react'`.
 * @module
 */
import type { ClassAttributes, HTMLAttributes } from 'react';
import type {
  CheckoutErrorEvent,
  NavigateBackToCartEvent,
  NavigateToCheckoutEvent,
  PaymentCompletedEvent,
  SvcCheckout,
} from './index.js';

/**
 * The props of `<svc-checkout>` in React 19: those of every HTML element (`className`, `id`, `style`,
 * `children`, `key`, `ref` to the {@link SvcCheckout} instance, ...), the element's attributes as its
 * documentation names them (string values are the attributes' texts), `class`, and its four events.
 */
export interface SvcCheckoutProps extends ClassAttributes<SvcCheckout>, HTMLAttributes<SvcCheckout> {
  /** The widget id (a uuid) from the merchant console. Required. */
  'widget-id'?: string;
  /** The gateway's origin, such as `https://pay.example`; `SvcCheckout.defaultGateway` when absent. */
  gateway?: string;
  /** `lv`, `en` or `ru`; part of the signed order when given. */
  language?: string;
  /**
   * The order's `items`, `shippingOptions` and `constraints`: an object (set as the property; the element
   * must be defined before React renders it) or its JSON text.
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
  /** Single-item order: quantity, such as `"2"` (signed as `count: 2`). */
  count?: string;
  /** Single-item order: `PIECE`, `KILOGRAM`, `METER`, `LITRE` or `HOUR`. */
  unit?: string;
  /** Where the customer goes back to from the failed or cancelled screen. */
  'back-to-merchant-url'?: string;
  /** The order's signature: Base64 SHA256withRSA by the merchant's key. */
  signature?: string;
  /** The name of the merchant certificate whose key signed the order. */
  'certificate-name'?: string;
  /**
   * `true` delays the start until `init()`. A boolean: React sets the property, and a string such as
   * `"false"` would be truthy there.
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
  /** The merchant's texts in place of ours, by key: an object (React sets the property, not JSON text). */
  texts?: SvcCheckout['texts'];
  /** v1 mode: the Purchase's `checkout_url`; switches the element to the payment method picker. */
  'checkout-url'?: string;
  /** v1 mode: the merchant's own payment-methods endpoint, with its query (such as `?currency=EUR`). */
  'payment-methods-url'?: string;
  /** v1 mode: the customer's country (ISO 3166-1 alpha-2), whose bank methods show first. */
  country?: string;
  /** v1 mode: the method chosen at first, by its name (such as `visa`). */
  method?: string;
  /** A class attribute as in HTML; React 19 passes it to custom elements (`className` works too). */
  class?: string;
  /** `paymentCompleted`: the payment succeeded or failed (`event.detail.paymentSucceeded`). */
  onpaymentCompleted?: (event: PaymentCompletedEvent) => void;
  /** `navigateBackToCart`: the customer pressed back-to-merchant; cancelable. */
  onnavigateBackToCart?: (event: NavigateBackToCartEvent) => void;
  /** `checkoutError`: the widget cannot take a payment, or refused a change (`event.detail.code`). */
  oncheckoutError?: (event: CheckoutErrorEvent) => void;
  /** `navigateToCheckout`: v1 mode, the customer confirmed a payment method; cancelable. */
  onnavigateToCheckout?: (event: NavigateToCheckoutEvent) => void;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      /** The svc gateway's payment widget (`import 'svc-checkout'` defines it). */
      'svc-checkout': SvcCheckoutProps;
    }
  }
}
