import { SvcCheckout } from './svc-checkout.js';

/** The element's tag name. */
export const SVC_CHECKOUT_TAG = 'svc-checkout';

/**
 * Defines `<svc-checkout>` unless it is defined already (the gateway's script and the npm package on one
 * page, or a bundle loaded twice) or there is no custom element registry (server-side rendering without a
 * DOM shim). Never throws for either.
 */
export function defineSvcCheckout(): void {
  if (typeof customElements === 'undefined' || customElements.get(SVC_CHECKOUT_TAG)) return;
  // The literal tag (not the constant) lets the manifest analyzer name the definition.
  customElements.define('svc-checkout', SvcCheckout);
}
