/**
 * What `Checkout` from `svc-checkout/react` refuses: each `@ts-expect-error` must meet an error, or the
 * typecheck fails (an unused directive is an error).
 */
import { useRef } from 'react';
import type { PaymentCompletedEvent } from 'svc-checkout';
import { Checkout } from 'svc-checkout/react';

export function Mistakes() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      {/* @ts-expect-error the event props are camelCase: onPaymentCompleted */}
      <Checkout widgetId="w" onpaymentCompleted={() => {}} />
      <Checkout
        widgetId="w"
        onPaymentCompleted={(event) => {
          // @ts-expect-error the detail has paymentSucceeded, not succeeded
          console.log(event.detail.succeeded);
        }}
      />
      {/* @ts-expect-error the handler of checkoutError gets a CheckoutErrorEvent */}
      <Checkout widgetId="w" onCheckoutError={(event: PaymentCompletedEvent) => event.detail} />
      {/* @ts-expect-error the props are the element's property names: orderId */}
      <Checkout widgetId="w" orderID="A-1" />
      {/* @ts-expect-error lazy is a boolean */}
      <Checkout widgetId="w" lazy="false" />
      {/* @ts-expect-error count is the attribute's text, as signed: count="2" */}
      <Checkout widgetId="w" amount="1.00" count={2} />
      {/* @ts-expect-error order is an object with items, or its JSON text */}
      <Checkout widgetId="w" order={42} />
      {/* @ts-expect-error cardLayout is stacked or compact */}
      <Checkout widgetId="w" cardLayout="grid" />
      {/* @ts-expect-error the element's methods are no props */}
      <Checkout widgetId="w" init={() => {}} />
      {/* @ts-expect-error the ref is the SvcCheckout element */}
      <Checkout widgetId="w" ref={input} />
    </>
  );
}
