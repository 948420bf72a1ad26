/**
 * Type test of the element's events on `document` and `window` (`DocumentEventMap`, `WindowEventMap`): the
 * events bubble and are composed, so listeners there get them typed as on the element. Compiled by the
 * typecheck (`tsc -p tsconfig.json`), never run: each `@ts-expect-error` must meet an error, or the typecheck
 * fails, so each proves a mistake is caught.
 */
import type { CheckoutErrorCode, NavigateToCheckoutDetail } from 'svc-checkout';

export function listen(): void {
  document.addEventListener('paymentCompleted', (event) => {
    const succeeded: boolean = event.detail.paymentSucceeded;
    const merchantOrderId: string | null = event.detail.merchantOrderId;
    // @ts-expect-error the detail has paymentSucceeded, not succeeded
    console.log(succeeded, merchantOrderId, event.detail.succeeded);
  });
  window.addEventListener('paymentCompleted', (event) => {
    const orderId: string = event.detail.orderId;
    // @ts-expect-error orderId is a string, never a number
    const wrong: number = event.detail.orderId;
    console.log(orderId, wrong);
  });
  document.addEventListener('navigateBackToCart', (event) => {
    const url: string | null = event.detail.backToMerchantUrl;
    // @ts-expect-error the URL may be null: the page gave no back-to-merchant-url
    const always: string = event.detail.backToMerchantUrl;
    if (event.cancelable) event.preventDefault();
    console.log(url, always);
  });
  window.addEventListener('checkoutError', (event) => {
    const code: CheckoutErrorCode = event.detail.code;
    if (code === 'order_locked') console.warn(event.detail.message, event.detail.attribute);
    // A merchant's rejection says why, in the documented reasons.
    if (code === 'order_rejected' && event.detail.reason === 'PRICE_CHANGED') location.reload();
    // @ts-expect-error the detail has message, not text
    console.log(event.detail.text);
  });
  document.addEventListener('navigateToCheckout', (event) => {
    const detail: NavigateToCheckoutDetail = event.detail;
    // @ts-expect-error the detail has method and url, not checkoutUrl
    console.log(detail, event.detail.checkoutUrl);
  });
  // @ts-expect-error listeners of the element's events take its event type, not a MouseEvent
  document.addEventListener('paymentCompleted', (event: MouseEvent) => event.button);
}
