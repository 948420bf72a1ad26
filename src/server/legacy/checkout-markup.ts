/**
 * `<svc-checkout>`'s markup for a signed order, for pages rendered on a server by any framework or template
 * engine: the signed fields and the written attributes come from one order, so they cannot differ, and every
 * value is escaped here, so a template cannot forget it or escape it twice.
 */
import { randomBytes } from 'node:crypto';
import { SvcError } from '../../core/errors.js';
import type { CardholderNameSetting, CardLayout } from '../../core/frame-channel.js';
import { cardSettings, firstViewHeight, frameUrl, gatewayOrigin } from '../../core/frame-url.js';
import { createElementTranslator, type MessageOverrides, normalizeLanguage } from '../../core/i18n.js';
import { type OrderInput, parseOrder } from '../../core/order.js';
import { ELEMENT_LEVEL_ATTRIBUTES, ORDER_ATTRIBUTE_NAMES } from '../../core/order-input-from-attributes.js';
import { signOrder } from '../signatures.js';

/** What the element's unsigned attributes take: they change the form, never the order. */
export interface CheckoutElementExtras {
  /** The gateway's origin (`gateway`), for a page that loads the element from npm. */
  gateway?: string;
  /** Prefills the customer's email (`email`). */
  email?: string;
  /** Prefills the customer's phone (`phone`). */
  phone?: string;
  /** Prefills the customer's first name (`first-name`). */
  firstName?: string;
  /** Prefills the customer's last name (`last-name`). */
  lastName?: string;
  /** Your texts in place of ours, by key (`texts`, written as JSON). */
  texts?: MessageOverrides;
  /** The card fields' layout (`card-layout`). */
  cardLayout?: CardLayout;
  /** Whether the form asks for the cardholder's name (`cardholder-name`). */
  cardholderName?: CardholderNameSetting;
  /** The element's `id`, for your scripts and styles. */
  id?: string;
  /** The element's `class`, for your styles. */
  class?: string;
}

/**
 * The order, and either the key to sign it with or its signature. `order` is `signOrder`'s input: the
 * widget id, language, certificate name, URLs and order id become the element's attributes, and the items,
 * shipping options and constraints its `order` JSON.
 */
export type CheckoutElementOptions = CheckoutElementExtras & { order: OrderInput } & (
    | {
        /** The merchant's private key (PKCS#8 or PKCS#1 PEM): the order is signed with `signOrder`. */
        privateKeyPem: string;
        signature?: undefined;
      }
    | {
        /**
         * The order's signature, made elsewhere (a signing service, a hardware key) over exactly this `order`:
         * written as given, as the helper has no key to check it with.
         */
        signature: string;
        privateKeyPem?: undefined;
      }
  );

/**
 * The payment frame, declared in the markup: the browser requests it while it parses the page, before the
 * element's script runs, and the element adopts it (see `checkoutElementHtml`).
 */
export interface DeclaredFrameOptions {
  /**
   * The page's origin exactly as browsers write it (`https://shop.example`, no path, no trailing slash): the
   * frame posts to it alone. A page served from any other origin drops the declared frame and opens its own.
   */
  pageOrigin: string;
  /**
   * The page's `<html lang>`, when the order names no `language`: the element falls back to it, and so do
   * the frame's first view and the iframe's title.
   */
  pageLanguage?: string;
}

/** `checkoutElementHtml`'s options: {@link CheckoutElementOptions}, and the frame declared for a gateway. */
export type CheckoutElementHtmlOptions = CheckoutElementOptions &
  (
    | { declaredFrame?: undefined }
    | {
        /** Declares the payment frame in the markup; it needs the gateway (`gateway`), which the element takes too. */
        declaredFrame: DeclaredFrameOptions;
        gateway: string;
      }
  );

/** Why a value cannot be written into the markup. */
export type CheckoutMarkupErrorCode = 'unwritable_value' | 'missing_signature' | 'invalid_origin';

/**
 * A value that HTML cannot carry in an attribute (U+0000, which parsers turn into U+FFFD, or half of a
 * surrogate pair), or neither a key nor a signature. An invalid order throws `OrderValidationError` instead.
 */
export class CheckoutMarkupError extends SvcError<CheckoutMarkupErrorCode> {
  /** The attribute whose value cannot be written, when the error is about one. */
  readonly attribute: string | undefined;

  constructor(code: CheckoutMarkupErrorCode, message: string, attribute?: string) {
    super(code, message);
    this.attribute = attribute;
  }
}

/** The unsigned attributes, by option: names fixed here, never taken from the input. */
const EXTRA_ATTRIBUTES = {
  gateway: 'gateway',
  email: 'email',
  phone: 'phone',
  firstName: 'first-name',
  lastName: 'last-name',
  cardLayout: 'card-layout',
  cardholderName: 'cardholder-name',
  id: 'id',
  class: 'class',
} as const satisfies Record<Exclude<keyof CheckoutElementExtras, 'texts'>, string>;

/**
 * A NUL (which the HTML parser replaces by U+FFFD, escaped or not) or a lone surrogate (which no UTF-8 page
 * can hold): values the element would read back changed, so that the signature no longer matched.
 */
const UNWRITABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function writable(attribute: string, value: string): string {
  if (UNWRITABLE.test(value)) {
    throw new CheckoutMarkupError(
      'unwritable_value',
      `${attribute}: holds U+0000 or half of a surrogate pair, which an HTML attribute cannot carry; remove it`,
      attribute,
    );
  }
  return value;
}

/**
 * The attributes of `<svc-checkout>` for a signed order, by name, values unescaped: for a template engine or
 * a server component that escapes attribute values itself (JSX: `<svc-checkout {...attributes} />`). The
 * order's fields are the signed attributes (`widget-id`, `language`, `certificate-name`,
 * `success-redirect-url`, `back-to-merchant-url`, `order-id`), its items, shipping options and constraints
 * the `order` JSON, then `signature` and the unsigned attributes given. A value left out, `null` or `''` is
 * not written (and not signed).
 * @throws OrderValidationError when the order is invalid, naming the field.
 * @throws KeyFormatError when `privateKeyPem` is not an RSA private key.
 * @throws CheckoutMarkupError (`unwritable_value`) for a value that an HTML attribute cannot carry, and
 *   (`missing_signature`) without a key or a signature.
 */
export function checkoutElementAttributes(options: CheckoutElementOptions): Record<string, string> {
  const { value, error } = parseOrder(options.order);
  if (error) throw error;
  const order = value.input;
  const attributes: Record<string, string> = {};
  const write = (name: string, text: string | number | undefined | null) => {
    if (text !== undefined && text !== null && text !== '') attributes[name] = writable(name, String(text));
  };
  for (const field of ELEMENT_LEVEL_ATTRIBUTES) write(ORDER_ATTRIBUTE_NAMES[field], order[field]);
  // JSON.stringify escapes control characters and lone surrogates itself; only `undefined` members drop out.
  attributes['order'] = JSON.stringify({
    items: order.items,
    ...(order.shippingOptions !== undefined && { shippingOptions: order.shippingOptions }),
    ...(order.constraints !== undefined && { constraints: order.constraints }),
  });
  write('signature', signatureOf(options, order));
  for (const [option, name] of Object.entries(EXTRA_ATTRIBUTES))
    write(name, options[option as keyof typeof EXTRA_ATTRIBUTES]);
  if (options.texts !== undefined) attributes['texts'] = JSON.stringify(options.texts);
  return attributes;
}

function signatureOf(options: CheckoutElementOptions, order: OrderInput): string {
  if (typeof options.privateKeyPem === 'string') return signOrder(order, options.privateKeyPem);
  if (typeof options.signature === 'string' && options.signature.trim() !== '') return options.signature;
  throw new CheckoutMarkupError(
    'missing_signature',
    'signature: give privateKeyPem (the order is then signed) or the signature of exactly this order',
    'signature',
  );
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
  // The parser turns a raw CR into LF; a reference keeps it.
  '\r': '&#13;',
  // Valid in HTML, but not in JavaScript string literals before ES2019: safe for markup later put in a script.
  '\u2028': '&#x2028;',
  '\u2029': '&#x2029;',
};

/** A text as a double-quoted HTML attribute value, which the HTML parser reads back exactly. */
function escapeAttributeValue(text: string): string {
  return text.replace(/[&"'<>\r\u2028\u2029]/g, (character) => ESCAPES[character]!);
}

/** `name="value"` pairs, each value escaped. */
const attributeText = (attributes: Record<string, string>): string =>
  Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttributeValue(value)}"`)
    .join('');

/**
 * The element's shadow root as the page's HTML declares it, holding the iframe the element would open for
 * these attributes (core's `frameUrl`, as the element builds it, on a fresh channel), with its title.
 */
function declaredFrameHtml(
  options: CheckoutElementHtmlOptions & { declaredFrame: DeclaredFrameOptions },
  attributes: Record<string, string>,
): string {
  const { declaredFrame, gateway: given } = options;
  const gateway = gatewayOrigin(given);
  if (!gateway)
    throw new CheckoutMarkupError(
      'invalid_origin',
      `gateway: ${JSON.stringify(given)} is not an http(s) URL`,
      'gateway',
    );
  const { pageOrigin } = declaredFrame;
  if (gatewayOrigin(pageOrigin) !== pageOrigin) {
    throw new CheckoutMarkupError(
      'invalid_origin',
      `declaredFrame.pageOrigin: ${JSON.stringify(pageOrigin)} is not an origin as browsers write it, such as https://shop.example`,
    );
  }
  // As the element finds them: its attributes (the order JSON as written), then the page's language.
  const language = normalizeLanguage(attributes['language']) ?? normalizeLanguage(declaredFrame.pageLanguage);
  const shippingOptions = (JSON.parse(attributes['order']!) as { shippingOptions?: unknown[] })
    .shippingOptions;
  const src = frameUrl({
    gateway,
    widgetId: attributes['widget-id']!,
    fields: (shippingOptions?.length ?? 0) > 0,
    language,
    // As the element's `createChannelId`: 16 random bytes, new for each page.
    channel: randomBytes(16).toString('hex'),
    pageOrigin,
    card: cardSettings(attributes['card-layout'], attributes['cardholder-name']),
  });
  const title = createElementTranslator(language ?? 'en', options.texts)('frame.title');
  // Sized by attributes, which no page policy refuses, until the element's styles and the frame's height apply.
  const size = { width: '100%', height: String(firstViewHeight(attributes['card-layout'])) };
  return `<template shadowrootmode="open"><iframe${attributeText({ part: 'frame', title: writable('texts', title), src, ...size })}></iframe></template>`;
}

/**
 * `<svc-checkout …></svc-checkout>` for a signed order, ready for a page: the attributes of
 * {@link checkoutElementAttributes}, every value escaped for a double-quoted attribute (`&`, `"`, `'`, `<`,
 * `>`, CR, U+2028 and U+2029 as character references), names never taken from the input. Write it into the
 * page unescaped (`{{{ }}}`, `| safe`, `dangerouslySetInnerHTML`): it is escaped already.
 *
 * With `declaredFrame` (and `gateway`), the element's shadow root comes declared with the payment frame's
 * iframe in it (`<template shadowrootmode="open"><iframe …>`): the browser loads the frame while it parses
 * the page, not once the element's script has run, and the element adopts that iframe. Render it anew for
 * each page view: the frame's channel id is random, one per render.
 *
 * ```ts
 * const html = checkoutElementHtml({
 *   order: { widgetId, orderId: 'A-1001', certificateName: 'main', items: [{ amount: '12.50', label: 'Tea' }] },
 *   privateKeyPem,
 *   email: customer.email,
 * });
 * ```
 * @throws OrderValidationError when the order is invalid, naming the field.
 * @throws KeyFormatError when `privateKeyPem` is not an RSA private key.
 * @throws CheckoutMarkupError for a value that an HTML attribute cannot carry, without key and signature,
 *   or (`invalid_origin`) for a declared frame's `gateway` or `pageOrigin` that is not an http(s) origin.
 */
export function checkoutElementHtml(options: CheckoutElementHtmlOptions): string {
  const attributes = checkoutElementAttributes(options);
  const frame = options.declaredFrame ? declaredFrameHtml(options, attributes) : '';
  return `<svc-checkout${attributeText(attributes)}>${frame}</svc-checkout>`;
}
