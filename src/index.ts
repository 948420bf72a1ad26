/**
 * `svc-checkout`: the browser entry. Importing it defines `<svc-checkout>` (unless that tag is defined
 * already) and offers the element's class and event types with the core they are built on: the order
 * model, money, tax, card checks, texts and the frame channel's message types. It carries no Node built-ins
 * and no server code, and importing it in Node (server-side rendering) does not throw.
 */
import './element/define.js';

export * from './core/index.js';
export { CheckoutStateError, type CheckoutStateErrorCode } from './element/checkout-state-error.js';
export * from './element/events.js';
export {
  type NavigateToCheckoutDetail,
  NavigateToCheckoutEvent,
} from './element/navigate-to-checkout-event.js';
export { defineSvcCheckout, SVC_CHECKOUT_TAG } from './element/register.js';
export { SvcCheckout } from './element/svc-checkout.js';
