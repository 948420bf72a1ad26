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
import type { SvcCheckout } from './index.js';
import type { SvcCheckoutJsxProps } from './jsx-props.js';

/**
 * The props of `<svc-checkout>` in React 19: those of every HTML element (`className`, `id`, `style`,
 * `children`, `key`, `ref` to the {@link SvcCheckout} instance, ...), the element's attributes as its
 * documentation names them (string values are the attributes' texts), `class` (React 19 passes it to custom
 * elements), and its four events.
 */
export interface SvcCheckoutProps
  extends ClassAttributes<SvcCheckout>,
    HTMLAttributes<SvcCheckout>,
    SvcCheckoutJsxProps {}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      /** The svc gateway's payment widget (`import 'svc-checkout'` defines it). */
      'svc-checkout': SvcCheckoutProps;
    }
  }
}
