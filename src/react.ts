/**
 * `svc-checkout/react`: `<Checkout>`, `<svc-checkout>` as a React component, and the JSX types of the
 * element itself.
 *
 * ```tsx
 * import { Checkout } from 'svc-checkout/react';
 *
 * <Checkout key={orderId} widgetId={widgetId} orderId={orderId} order={{ items }} signature={signature}
 *   onPaymentCompleted={(event) => console.log(event.detail.paymentSucceeded)} />
 * ```
 *
 * Named after what it shows, as React payment SDKs name theirs (`EmbeddedCheckout`, `PaymentElement`,
 * `PayPalButtons`), and not `SvcCheckout`: that is the element's class, which a React app imports beside it
 * (for a `ref`). `Checkout` is built on `@lit/react`'s `createComponent`, Lit's own wrapper:
 * - its props are the element's properties (`widgetId`, `orderId`, `order` and `texts` as objects, `lazy` as
 *   a boolean, ...), set on the element in a layout effect, so the element never sees `[object Object]`;
 * - its event props are camelCase (`onPaymentCompleted`, `onNavigateBackToCart`, `onCheckoutError`,
 *   `onNavigateToCheckout`), added with `addEventListener` and typed with the element's events;
 * - importing it defines `<svc-checkout>` (it imports `svc-checkout`), so nothing must be imported first.
 *
 * Rendered on a server (react-dom/server, a Next.js page), `Checkout` writes the element with its
 * attributes: every prop as the attribute the element reads (`widget-id`, `order-id`, ...), and `order` and
 * `texts` as their JSON text, which React escapes. The element's first paint in the browser is the order the
 * server rendered, before any script of the app runs. Hydrating (`hydrateRoot`), the component sets the
 * props on the element and adds its listeners in its layout effect (React itself adds none to a custom
 * element while hydrating), so `onPaymentCompleted` is called after a server render too. The element takes
 * the same order set again as an object as no change.
 *
 * A changed order before the customer starts paying replaces the order in the frame; once a payment has
 * started, the element refuses it (`checkoutError` with code `order_locked`): render a new element (a new
 * `key`) for a new order then. A re-render with an equal order (a new object) is no change, before or after
 * a payment.
 *
 * The JSX types of `<svc-checkout>` itself (React 19 sets a custom element's props as its properties where
 * it has them): {@link SvcCheckoutProps}, in effect as soon as the module is imported, even as
 * `import type {} from 'svc-checkout/react'`.
 * @module
 */
'use client'; // A client component for React Server Components (Next.js App Router), as React payment SDKs ship theirs.

import { createComponent, type EventName } from '@lit/react';
import React, {
  type ClassAttributes,
  type ForwardRefExoticComponent,
  type HTMLAttributes,
  type RefAttributes,
} from 'react';
import {
  type CheckoutErrorEvent,
  type NavigateBackToCartEvent,
  type NavigateToCheckoutEvent,
  type PaymentCompletedEvent,
  SvcCheckout,
} from './index.js';
import type { SvcCheckoutJsxProps } from './jsx-props.js';

/** The element's attributes by their property names (`widgetId` is `widget-id`), as the element declares them. */
type PropertyName = keyof typeof SvcCheckout.properties;

/**
 * The element's attributes and properties as `Checkout`'s props, by their property names (`widgetId`,
 * `orderId`, `backToMerchantUrl`, ...), documented on {@link SvcCheckout}: strings, with `order` as an
 * object (or its JSON text), `texts` as an object, `lazy` as a boolean.
 */
export type CheckoutElementProps = Partial<Pick<SvcCheckout, PropertyName>>;

/** `Checkout`'s event props: camelCase, each called with the element's event. */
export interface CheckoutEventProps {
  /**
   * `paymentCompleted`: the payment succeeded or failed (`event.detail.paymentSucceeded`). For the page only,
   * never proof of payment. Cancelable, which keeps the page from going to `successRedirectUrl`.
   */
  onPaymentCompleted?: (event: PaymentCompletedEvent) => void;
  /** `navigateBackToCart`: the customer pressed back-to-merchant; cancelable. */
  onNavigateBackToCart?: (event: NavigateBackToCartEvent) => void;
  /** `checkoutError`: the widget cannot take a payment, or refused a change (`event.detail.code`). */
  onCheckoutError?: (event: CheckoutErrorEvent) => void;
  /** `navigateToCheckout`: v1 mode, the customer confirmed a payment method; cancelable. */
  onNavigateToCheckout?: (event: NavigateToCheckoutEvent) => void;
}

/**
 * The props of `Checkout`: the element's properties, its camelCase event props, those of every HTML element
 * (`className`, `id`, `style`, `key`, ...) and `ref` to the {@link SvcCheckout} instance.
 */
export interface CheckoutProps
  extends Omit<HTMLAttributes<SvcCheckout>, keyof CheckoutElementProps | keyof CheckoutEventProps>,
    CheckoutElementProps,
    CheckoutEventProps,
    RefAttributes<SvcCheckout> {}

const EVENTS = {
  onPaymentCompleted: 'paymentCompleted' as EventName<PaymentCompletedEvent>,
  onNavigateBackToCart: 'navigateBackToCart' as EventName<NavigateBackToCartEvent>,
  onCheckoutError: 'checkoutError' as EventName<CheckoutErrorEvent>,
  onNavigateToCheckout: 'navigateToCheckout' as EventName<NavigateToCheckoutEvent>,
} satisfies Record<keyof CheckoutEventProps, string>;

/** In the browser: Lit's wrapper sets the properties and adds the listeners. */
const InBrowser = createComponent({
  react: React,
  tagName: 'svc-checkout',
  elementClass: SvcCheckout,
  events: EVENTS,
  displayName: 'Checkout',
});

const PROPERTIES = SvcCheckout.properties as Record<PropertyName, { attribute?: string }>;

/*
 * On a server, @lit/react leaves the element's properties out (it passes them on only to @lit-labs/ssr-react,
 * which renders the shadow root through Lit SSR once React's createElement is patched on the server and
 * @lit-labs/ssr-client loads before Lit in the browser, and which writes only reflected attributes, so the
 * order would still be missing). The element's shadow root is a loading line until its frame loads in the
 * browser, so what the first paint needs is its attributes: written here, from the element's own list.
 */

/**
 * The props as a server writes the element: each of the element's properties as its attribute's text
 * (objects as JSON, `true` as an empty attribute, `false` and absent values left out), event props left
 * out (a server has no listener), the others (`className`, `id`, `style`, `children`, ...) as given.
 */
function serverProps(props: CheckoutProps): Record<string, unknown> {
  const written: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(props)) {
    if (Object.hasOwn(EVENTS, name)) continue;
    if (!Object.hasOwn(PROPERTIES, name)) {
      written[name] = value;
      continue;
    }
    if (value === undefined || value === null || value === false) continue;
    written[PROPERTIES[name as PropertyName].attribute ?? name] =
      value === true ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return written;
}

/**
 * `<svc-checkout>` as a React component (see the module's description): typed props named as the element's
 * properties, camelCase event props, and the order written into the markup of a server render.
 */
export const Checkout: ForwardRefExoticComponent<CheckoutProps> = React.forwardRef<
  SvcCheckout,
  CheckoutProps
>((props, ref) =>
  // The same element in both trees: the server's markup is what the browser's render hydrates.
  typeof document === 'undefined'
    ? React.createElement('svc-checkout', serverProps(props))
    : React.createElement(InBrowser, { ...props, ref }),
);
Checkout.displayName = 'Checkout';

/**
 * The props of `<svc-checkout>` itself in React 19 JSX (without the `Checkout` component): those of every
 * HTML element (`className`, `id`, `style`, `children`, `key`, `ref` to the {@link SvcCheckout} instance,
 * ...), the element's attributes as its documentation names them (string values are the attributes'
 * texts), `class` (React 19 passes it to custom elements), and its four events as React 19 adds them: `on`
 * + the event's name as written (`onpaymentCompleted`). `order` and `texts` take objects, set as properties
 * once the element is defined; on a server React leaves objects out, and while hydrating it sets no
 * property and adds no listener (React issue 35446): use `Checkout` for a page rendered on a server.
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
