/**
 * The payment frame's URL, as the element opens it and as `checkoutElementHtml` declares it in a page's
 * HTML: one function, so that the element recognises the frame a server declared for it (and adopts it
 * rather than loading another) exactly when it would have opened that URL itself.
 * `${gateway}/widget/frame/<widget id>?fields=<0|1>&lang=[<language>]&card-layout=…&cardholder-name=…#channel=<id>&origin=<page origin>`:
 * the gateway serves the page by the path and the query (its first view in the card settings asked for), and
 * the frame reads its channel and the page's origin from the hash, and the settings from the query, as the
 * gateway saw them (its frame-location.ts).
 */

/** What makes one frame URL. */
export interface FrameUrlParts {
  /** The gateway's origin, as {@link gatewayOrigin} writes it. */
  gateway: string;
  widgetId: string;
  /** The order has shipping options: the gateway serves the frame's first chunk with the delivery fields. */
  fields: boolean;
  /** The language of the frame's first view, one we speak; none leaves it to the merchant's default. */
  language: string | undefined;
  /** The channel id of this load (core's `createChannelId`, or the server's random bytes as hex). */
  channel: string;
  /** The merchant page's exact origin, which the frame posts to. */
  pageOrigin: string;
  /** The card form's settings, as {@link cardSettings} writes them. */
  card: string;
}

/**
 * The element's `card-layout` and `cardholder-name` as the page gave them (the frame checks them), as the
 * query's last members: `&card-layout=…&cardholder-name=…`.
 */
export const cardSettings = (layout: string | undefined, holder: string | undefined): string =>
  `&card-layout=${encodeURIComponent(layout ?? '')}&cardholder-name=${encodeURIComponent(holder ?? '')}`;

/**
 * The frame's height in CSS pixels until it reports its own: about its first view's (the card form as the
 * gateway writes it, in English at 16 px: stacked 682, compact 511), so that the form shows whole from the
 * first paint, before the frame's code has measured it.
 */
export const firstViewHeight = (layout: string | undefined): number => (layout === 'compact' ? 512 : 680);

/** The frame's URL for these parts. */
export function frameUrl(parts: FrameUrlParts): string {
  const { gateway, widgetId, fields, language, channel, pageOrigin, card } = parts;
  return `${gateway}/widget/frame/${encodeURIComponent(widgetId)}?fields=${fields ? 1 : 0}&lang=${language ?? ''}${card}#channel=${channel}&origin=${encodeURIComponent(pageOrigin)}`;
}

/**
 * The channel id in a URL that {@link frameUrl} may have written, or undefined when it has none: whether the
 * URL is that one, the caller checks by writing it again with this channel.
 */
export const frameUrlChannel = (url: string): string | undefined => /#channel=([\w-]+)/.exec(url)?.[1];

/** The gateway origin of a `gateway` value (an http(s) URL, any path ignored), or undefined when it is none. */
export function gatewayOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
