/**
 * What the frame learns from its own URL, `/widget/frame/<widgetId>#channel=<id>&origin=<page origin>`
 * (then the card form's settings), which the element builds. The hash never reaches the gateway's logs, and
 * nothing in it is secret: the channel id only keeps messages of two widgets on one page apart.
 */
import { CARD_LAYOUTS, CARDHOLDER_NAME_SETTINGS, type CardFormSettings } from '../core/index.js';

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

/**
 * The card form's settings from the frame's query (`search`), as the gateway read them for its first view,
 * named as the element's attributes (`card-layout`, `cardholder-name`); from its hash where the query has
 * neither (an element of an earlier build wrote them there). A value we do not know is named in the console,
 * which the page's developer tools show, with what to write instead; the form then keeps its default for it
 * (each list's first value).
 */
export function readCardSettings(search: string, hash = ''): CardFormSettings {
  const query = new URLSearchParams(search.slice(1));
  const given = query.has('card-layout') || query.has('cardholder-name');
  const params = given ? query : new URLSearchParams(hash.slice(1));
  const read = <T extends string>(name: string, values: readonly T[]): T => {
    const value = params.get(name) as T | null;
    if (value && values.includes(value)) return value;
    if (value)
      console.warn(
        `<svc-checkout> ${name}="${value}": write one of ${values.join(', ')} (${values[0]} applies)`,
      );
    return values[0]!;
  };
  return {
    layout: read('card-layout', CARD_LAYOUTS),
    holder: read('cardholder-name', CARDHOLDER_NAME_SETTINGS),
  };
}
