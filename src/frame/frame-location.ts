/**
 * What the frame learns from its own URL, `/widget/frame/<widgetId>#channel=<id>&origin=<page origin>`,
 * which the element builds. The hash never reaches the gateway's logs, and nothing in it is secret: the
 * channel id only keeps messages of two widgets on one page apart.
 */

/** The frame's widget, and the element it serves. */
export interface FrameLocation {
  widgetId: string;
  channel: string;
  /** The merchant page's origin, exact (`https://shop.example`), never `null` or `*`. */
  origin: string;
}

const FRAME_PATH = /^\/widget\/frame\/([^/]+)\/?$/;
const CHANNEL_ID = /^[A-Za-z0-9_-]{8,128}$/;

/** Reads the frame's URL parts; undefined when any is missing or malformed. */
export function readFrameLocation(pathname: string, hash: string): FrameLocation | undefined {
  const path = FRAME_PATH.exec(pathname);
  if (!path) return undefined;
  let widgetId: string;
  try {
    widgetId = decodeURIComponent(path[1]!);
  } catch {
    return undefined;
  }
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const channel = params.get('channel') ?? '';
  const origin = params.get('origin') ?? '';
  if (widgetId === '' || !CHANNEL_ID.test(channel) || !isExactOrigin(origin)) return undefined;
  return { widgetId, channel, origin };
}

/** Whether `value` is an http(s) origin written exactly as `URL#origin` writes it. */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
