/**
 * What the shop's server does to a page before sending it, as a merchant's template engine would: fill in
 * the gateway's origin, the shop's origin and a fresh order id per visit, and sign each
 * `<svc-checkout data-sign>` with the merchant's key. The order is read from the tag's own attributes by
 * the same function the element uses, so the signature covers exactly what the element will send.
 */
import {
  ORDER_ATTRIBUTE_NAMES,
  type OrderAttributeProperty,
  type OrderAttributes,
  type OrderInput,
  orderFromAttributes,
} from 'svc-checkout/server';
import { newOrderId as defaultOrderId } from '../merchant/order-ids.js';

export interface RenderOptions {
  /** The gateway's origin, such as `http://127.0.0.1:4010`. */
  gatewayUrl: string;
  /** The shop's own origin, such as `http://127.0.0.1:5173` (back-to-merchant URLs are absolute). */
  shopUrl: string;
  /** Signs an order; the merchant app's `signOrder`. */
  sign: (order: OrderInput) => string;
  /**
   * Told the order of each `<svc-checkout>` with an order id that is not signed here (a fixed-price widget's),
   * so that the shop knows what its notification must say; the merchant app's `expectOrder`.
   */
  expect?: (order: OrderInput) => void;
  /** The certificate name written beside each signature (and signed with the order, as the page gives it). */
  certificateName: string;
  /** A fresh merchant order id with the given prefix; by default prefix + time + counter. */
  newOrderId?: (prefix: string) => string;
}

/** A tag the page marks for signing could not be signed: the page is wrong, so it should fail loudly. */
export class PageRenderError extends Error {}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
const SIGNED_TAG = /<svc-checkout\b([^>]*?)\sdata-sign\b([^>]*)>/g;
const TAG = /<svc-checkout\b([^>]*)>/g;

const NAMED_ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

/**
 * An attribute value's character references decoded, as the browser decodes them: numeric ones and the
 * named ones the demo's pages write. A merchant's template engine knows the values it writes; this shop
 * reads them back from its own HTML.
 */
function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

/** The attributes of a start tag, values decoded as the browser decodes them. */
export function readAttributes(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const value = match[2] ?? match[3] ?? match[4] ?? '';
    attributes.set(match[1]!.toLowerCase(), decodeHtmlEntities(value));
  }
  return attributes;
}

/** The order an element with these attributes sends: what its signature must cover. */
export function orderOfAttributes(attributes: Map<string, string>): OrderInput {
  const input: OrderAttributes = { order: attributes.get('order') ?? null };
  for (const [property, attribute] of Object.entries(ORDER_ATTRIBUTE_NAMES)) {
    input[property as OrderAttributeProperty] = attributes.get(attribute) ?? null;
  }
  const { value, error } = orderFromAttributes(input);
  if (error) throw new PageRenderError(`<svc-checkout data-sign> cannot be signed: ${error.message}`);
  return value;
}

/**
 * Renders a page: `{{gateway}}`, `{{shop}}` and `{{order-id:PREFIX}}` are replaced first (one order id per
 * prefix per render, so a page can name its order twice), then every `<svc-checkout ... data-sign>` gets
 * `signature` and `certificate-name` in place of `data-sign`, and every other one with an `order-id` is told
 * to `expect`.
 * @throws PageRenderError when a tag marked for signing has an order that is not valid.
 */
export function renderPage(html: string, options: RenderOptions): string {
  const newOrderId = options.newOrderId ?? defaultOrderId;
  const orderIds = new Map<string, string>();
  const filled = html
    .replaceAll('{{gateway}}', options.gatewayUrl)
    .replaceAll('{{shop}}', options.shopUrl)
    .replace(/\{\{order-id:([A-Za-z0-9-]+)\}\}/g, (_whole, prefix: string) => {
      const known = orderIds.get(prefix);
      if (known !== undefined) return known;
      const id = newOrderId(prefix);
      orderIds.set(prefix, id);
      return id;
    });
  if (options.expect) {
    for (const [, source] of filled.matchAll(TAG)) {
      const attributes = readAttributes(source!);
      if (attributes.has('data-sign') || !attributes.has('order-id')) continue;
      try {
        options.expect(orderOfAttributes(attributes));
      } catch (error) {
        // An unsigned order that is not valid is refused by the gateway: there is nothing to expect.
        if (!(error instanceof PageRenderError)) throw error;
      }
    }
  }
  return filled.replace(SIGNED_TAG, (_whole, before: string, after: string) => {
    // The tag will carry `certificate-name`, which is part of what is signed.
    const order = {
      ...orderOfAttributes(readAttributes(`${before} ${after}`)),
      certificateName: options.certificateName,
    };
    const signature = options.sign(order);
    return `<svc-checkout${before} signature="${escapeAttribute(signature)}" certificate-name="${escapeAttribute(options.certificateName)}"${after}>`;
  });
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<]/g, (char) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;' })[char]!);
}
