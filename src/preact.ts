/**
 * `svc-checkout/preact`: types only. It teaches Preact 11's JSX `<svc-checkout>`, so that a Preact app writes
 * the element with checked attributes and typed event props:
 *
 * ```tsx
 * import 'svc-checkout'; // defines the element, once, before the first render
 * import type {} from 'svc-checkout/preact';
 *
 * <svc-checkout widget-id={widgetId} order={{ items }} signature={signature}
 *   onpaymentCompleted={(event) => console.log(event.detail.paymentSucceeded)} />
 * ```
 *
 * The props are typed as Preact 11 hands them to an element (`setProperty` in its `diff/props.js`):
 * - a prop whose name is a property of the element (`name in element`) is set as that property, any other
 *   as an attribute (`false` removes it, anything else is written as text). The attributes with a hyphen
 *   (`widget-id`, `order-id`, ...) are never properties, so they are typed by their attribute names, which
 *   also work when the element is rendered on a server;
 * - `order` and `texts` take objects, set as properties once the element is defined
 *   (`import 'svc-checkout'` before the first render); before that the element has no such property, and
 *   an object becomes the attribute text `[object Object]`. On a server, pass `order` as its JSON text;
 * - `lazy` is a boolean: the property once the element is defined; before, `true` is written as
 *   `lazy="true"` and `false` removes the attribute, which the element reads alike;
 * - a prop that starts with `on` and holds a function is added with `addEventListener` for the event named
 *   by the rest of the prop's name, as written unless it starts with a capital letter, which Preact lowers
 *   (`onClick` listens to `click`): `onpaymentCompleted` listens to `paymentCompleted`, while
 *   `onPaymentCompleted` would listen to an event `paymentcompleted`, which never fires, so it is refused.
 *
 * A changed order before the customer starts paying replaces the order in the frame; once a payment has
 * started, the element refuses it (`checkoutError` with code `order_locked`): render a new element (a new
 * `key`) for a new order then.
 *
 * The module has no runtime code: import it with `import type {} from 'svc-checkout/preact'`.
 * @module
 */
import type { HTMLAttributes } from 'preact';
import type { SvcCheckout } from './index.js';
import type { SvcCheckoutJsxProps } from './jsx-props.js';

/**
 * The props of `<svc-checkout>` in Preact 11: those of every HTML element (`className`, `id`, `style`,
 * `children`, `ref` to the {@link SvcCheckout} instance, ...; `key` as on every element), the element's
 * attributes as its documentation names them (string values are the attributes' texts), `class`, and its
 * four events. (Preact's own `class` accepts a signal too; here it is the attribute's text, as in React.)
 */
export interface SvcCheckoutProps extends Omit<HTMLAttributes<SvcCheckout>, 'class'>, SvcCheckoutJsxProps {}

declare module 'preact' {
  // Preact 11 exports its JSX namespace as `JSX` (`export import JSX = JSXInternal`): declarations merged here
  // reach the `JSX` that `jsxImportSource: "preact"` reads through `preact/jsx-runtime`.
  namespace JSX {
    interface IntrinsicElements {
      /** The svc gateway's payment widget (`import 'svc-checkout'` defines it). */
      'svc-checkout': SvcCheckoutProps;
    }
  }
}
