/**
 * What `svc-checkout/preact` refuses: each `@ts-expect-error` must meet an error, or the typecheck fails
 * (an unused directive is an error), so each line proves one mistake is caught.
 */
import 'svc-checkout';
import { useRef } from 'preact/hooks';
import type { PaymentCompletedEvent } from 'svc-checkout';
import type {} from 'svc-checkout/preact';

export function Mistakes() {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      {/* Preact lowers a capital after `on` (for onClick): this would listen to `paymentcompleted`, never fired. */}
      {/* @ts-expect-error onPaymentCompleted is not the event prop: it is onpaymentCompleted */}
      <svc-checkout widget-id="w" onPaymentCompleted={() => {}} />
      {/* @ts-expect-error the event name keeps its case: paymentCompleted */}
      <svc-checkout widget-id="w" onpaymentcompleted={() => {}} />
      <svc-checkout
        widget-id="w"
        onpaymentCompleted={(event) => {
          // @ts-expect-error the detail has paymentSucceeded, not succeeded
          console.log(event.detail.succeeded);
        }}
      />
      {/* @ts-expect-error the handler of checkoutError gets a CheckoutErrorEvent */}
      <svc-checkout widget-id="w" oncheckoutError={(event: PaymentCompletedEvent) => event.detail} />
      {/* @ts-expect-error no attribute amont: amount */}
      <svc-checkout widget-id="w" amont="12.50" />
      {/* @ts-expect-error widgetId is not typed: widget-id works on servers and before the element is defined */}
      <svc-checkout widgetId="w" />
      {/* @ts-expect-error lazy is a boolean: Preact sets the property, where "false" would be truthy */}
      <svc-checkout widget-id="w" lazy="false" />
      {/* @ts-expect-error count is the attribute's text, as signed: count="2" */}
      <svc-checkout widget-id="w" amount="1.00" count={2} />
      {/* @ts-expect-error order is an object with items, or its JSON text */}
      <svc-checkout widget-id="w" order={42} />
      {/* @ts-expect-error texts is an object: Preact sets the property, which does not read JSON text */}
      <svc-checkout widget-id="w" texts='{"loading.text":"…"}' />
      {/* @ts-expect-error the ref is the SvcCheckout element */}
      <svc-checkout widget-id="w" ref={input} />
    </>
  );
}
