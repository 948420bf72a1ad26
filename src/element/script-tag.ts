/**
 * The entry of the gateway-served widget script (`/widget/svc-checkout.js`, and the classic
 * `/widget/svc-checkout.classic.js`): the element knows its gateway from the script's own address, as the
 * legacy widget did, so a merchant needs no `gateway` attribute. Evaluated in Node (server-side rendering)
 * it defines nothing it cannot and throws nothing.
 */
import { gatewayOrigin } from '../core/frame-url.js';
import { defineSvcCheckout, SVC_CHECKOUT_TAG } from './register.js';
import { SvcCheckout } from './svc-checkout.js';

/** The origin of the script that is running: the classic file's `<script src>`, else this module's URL. */
function ownOrigin(): string | undefined {
  const classic =
    typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;
  return (classic && gatewayOrigin(classic)) || gatewayOrigin(import.meta.url);
}

// The class the tag already has, when the npm package (or a subclass) defined it first: that class makes
// the page's elements, so it is the one that needs the gateway.
const registered =
  typeof customElements === 'undefined'
    ? undefined
    : (customElements.get(SVC_CHECKOUT_TAG) as typeof SvcCheckout | undefined);
(registered ?? SvcCheckout).defaultGateway ??= ownOrigin();
defineSvcCheckout();
