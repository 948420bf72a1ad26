/**
 * `svc-checkout`: the browser entry. Importing it defines `<svc-checkout>` (unless that tag is defined
 * already). It exports what a page needs beside the tag: the element's class, its events and their
 * details, the error its methods throw, the order types its `order` property and `addOrderItem` /
 * `addShippingOption` take, its states and the names of its `--svc-*` design tokens; nothing else, so that
 * every name here is a promise kept across minor versions (test/package/public-surface.test.ts pins the
 * list). The frame channel, the texts and the parsers are internals. It carries no Node built-ins and no
 * server code, and importing it in Node (server-side rendering) does not throw.
 */
import './element/define.js';

export type { DesignTokenName } from './core/design-token-names.js';
export type { WidgetState } from './core/frame-channel.js';
export type {
  DecimalInput,
  OrderConstraints,
  OrderInput,
  OrderItemInput,
  OrderJson,
  ShippingOptionInput,
  ShippingType,
  Unit,
} from './core/order.js';
export { CheckoutStateError, type CheckoutStateErrorCode } from './element/checkout-state-error.js';
export {
  type CheckoutAttribute,
  type CheckoutErrorCode,
  type CheckoutErrorDetail,
  CheckoutErrorEvent,
  type NavigateBackToCartDetail,
  NavigateBackToCartEvent,
  type PaymentCompletedDetail,
  PaymentCompletedEvent,
} from './element/events.js';
export {
  type NavigateToCheckoutDetail,
  NavigateToCheckoutEvent,
} from './element/navigate-to-checkout-event.js';
export { SvcCheckout } from './element/svc-checkout.js';
