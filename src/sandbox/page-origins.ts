/**
 * Which page origins may embed a merchant's widgets: its allowed origins, and with `allowLoopbackOrigins` any
 * page on this machine, whatever its port (a dev server on :3000, :5173 or :8080 works without a config edit).
 */
import type { MerchantConfig } from './config.js';

/** Whether `origin` (scheme, host and port, as a browser sends it) is an http(s) origin on the loopback. */
export function isLoopbackOrigin(origin: string): boolean {
  return /^https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?$/.test(origin);
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

/**
 * The frame page's `frame-ancestors` sources. A CSP host cannot be an IPv6 literal, so a page on `[::1]` is
 * framed only when its origin is listed as allowed.
 */
export function frameAncestors(
  merchant: Pick<MerchantConfig, 'allowedOrigins' | 'allowLoopbackOrigins'>,
): string[] {
  const loopback = merchant.allowLoopbackOrigins
    ? ['http', 'https'].flatMap((scheme) => ['localhost', '127.0.0.1'].map((host) => `${scheme}://${host}:*`))
    : [];
  return [...merchant.allowedOrigins, ...loopback];
}
