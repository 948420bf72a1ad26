/**
 * Which page origins may embed a merchant's widgets: its allowed origins, and with `allowLoopbackOrigins` any
 * page on this machine, whatever its port (a dev server on :3000, :5173 or :8080 works without a config edit).
 * Loopback here is `localhost` and `127.0.0.1`: the frame page's CSP `frame-ancestors` cannot name an IPv6
 * literal (Chromium reads `http://[::1]:*` as `'none'`), so a `[::1]` page would pass the check and still get
 * no frame.
 */
import type { MerchantConfig } from '../config.js';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1'];

/** Whether `origin` (scheme, host and port, as a browser sends it) is an http(s) origin on the loopback. */
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(?:localhost|127\.0\.0\.1)(?::\d{1,5})?$/.test(origin);
}

/** Whether a page at `origin` may embed the merchant's widgets and take orders. */
export function isPageOriginAllowed(
  merchant: Pick<MerchantConfig, 'allowedOrigins' | 'allowLoopbackOrigins'>,
  origin: string,
): boolean {
  return (
    merchant.allowedOrigins.includes(origin) || (merchant.allowLoopbackOrigins && isLoopbackOrigin(origin))
  );
}

/** The frame page's `frame-ancestors` sources. */
export function frameAncestors(
  merchant: Pick<MerchantConfig, 'allowedOrigins' | 'allowLoopbackOrigins'>,
): string[] {
  const loopback = merchant.allowLoopbackOrigins
    ? ['http', 'https'].flatMap((scheme) => LOOPBACK_HOSTS.map((host) => `${scheme}://${host}:*`))
    : [];
  return [...merchant.allowedOrigins, ...loopback];
}
