/**
 * The entry of the gateway-served widget script (`/widget/svc-checkout.js`, and the classic
 * `/widget/svc-checkout.classic.js`): the element knows its gateway from the script's own address, as the
 * legacy widget did, so a merchant needs no `gateway` attribute. Evaluated in Node (server-side rendering)
 * it defines nothing it cannot and throws nothing.
 */
import { defineSvcCheckout } from './register.js';
import { SvcCheckout } from './svc-checkout.js';

/** The origin of the script that is running: the classic file's `<script src>`, else this module's URL. */
function ownOrigin(): string | undefined {
  const classic =
    typeof document === 'undefined' ? undefined : (document.currentScript as HTMLScriptElement | null)?.src;
  for (const candidate of [classic, import.meta.url]) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    } catch {}
  }
  return undefined;
}

SvcCheckout.defaultGateway ??= ownOrigin();
defineSvcCheckout();
