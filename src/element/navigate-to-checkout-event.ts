/**
 * The event of `<svc-checkout>` in v1 mode, named as the legacy document names its events (its pair is
 * `navigateBackToCart`). Apart from events.ts so that only the v1 picker's code, loaded on demand, holds it.
 */

/** `navigateToCheckout`'s detail. */
export interface NavigateToCheckoutDetail {
  /** The method the customer chose, as `?preferred=` takes it; `null` when going on without one. */
  readonly method: string | null;
  /** Where the element goes: `checkout-url` with `preferred` set in its query when a method was chosen. */
  readonly url: string;
}

/**
 * The customer confirmed a payment method (or, with none to choose or none chosen, went on without one).
 * Cancelable: unless a listener calls `preventDefault()`, the element goes to `detail.url`; a single-page
 * app that prevents it navigates itself.
 */
export class NavigateToCheckoutEvent extends CustomEvent<NavigateToCheckoutDetail> {
  static readonly eventName = 'navigateToCheckout';

  constructor(detail: NavigateToCheckoutDetail) {
    super(NavigateToCheckoutEvent.eventName, { detail, bubbles: true, composed: true, cancelable: true });
  }
}
