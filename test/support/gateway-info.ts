/**
 * The browser tests' view of the real gateway that test/support/wtr-gateway-plugin.mjs runs beside them:
 * where it is, the demo merchant's widgets, and the demo merchant's signature of any order (its back end
 * would put that in the page). For the element's, the frame's and the fixture's own tests alike.
 */

/** What `GET /__gateway` says about the test gateway. */
export interface GatewayInfo {
  /** The sandbox's origin, a second origin beside the test page's. */
  gatewayUrl: string;
  /** The demo merchant's back end (callbacks, terms page). */
  merchantUrl: string;
  /** The demo merchant's widgets, and `allSchemes`, which takes every card scheme (the others: Visa, Mastercard). */
  widgets: Record<'instant' | 'checkout' | 'fullCheckout' | 'callbackValidation' | 'allSchemes', string>;
  certificateName: string;
}

let info: Promise<GatewayInfo> | undefined;

/** The test gateway, asked once per page. */
export function gatewayInfo(): Promise<GatewayInfo> {
  info ??= fetch('/__gateway').then((response) => response.json() as Promise<GatewayInfo>);
  return info;
}

/** The demo merchant's signature of exactly this order (`POST /__sign`). */
export async function sign(order: object): Promise<string> {
  const response = await fetch('/__sign', { method: 'POST', body: JSON.stringify(order) });
  return ((await response.json()) as { signature: string }).signature;
}
