/**
 * The messages between `<svc-checkout>` on the merchant page and its payment frame on the gateway's origin.
 * Element and frame never import each other: this union is all they share. Card data has no place in it
 * by construction; each side posts to an exact origin, checks `event.origin` and `event.source`, and reads
 * incoming data only through the readers below, which refuse anything not of this exact shape.
 */

import type { OrderRejectionReason } from './legacy-callbacks.js';
import type { UncheckedOrderInput } from './order-input-from-attributes.js';
import { isPlainObject } from './plain-object.js';

export const CHANNEL_PROTOCOL = 'svc-checkout';
export const CHANNEL_VERSION = 1;

/** What every message carries: the protocol, its version and the element instance's channel id. */
export interface ChannelEnvelope {
  protocol: typeof CHANNEL_PROTOCOL;
  version: typeof CHANNEL_VERSION;
  channel: string;
}

/** What the element shows; the frame reports it so the element can reflect it (`state` attribute). */
export const WIDGET_STATES = [
  'loading',
  'form',
  'processing',
  'challenge',
  'paid',
  'failed',
  'cancelled',
  'error',
] as const;
export type WidgetState = (typeof WIDGET_STATES)[number];

/**
 * Why a widget cannot take a payment; each names something the merchant can fix or the customer can retry.
 * One code per cause: a refusal of the gateway keeps the gateway's own code (`signature_invalid`, as the
 * gateway and the toolkit say it), and only causes the gateway never names have codes of our own.
 */
export const WIDGET_ERROR_CODES = [
  'missing_widget_id',
  'missing_gateway',
  'unknown_widget',
  'invalid_order',
  'signature_missing',
  'signature_invalid',
  'certificate_missing',
  'unknown_certificate',
  'certificate_revoked',
  'origin_not_allowed',
  'order_rejected',
  'order_already_paid',
  'gateway_unreachable',
  'frame_timeout',
  'internal_error',
] as const;
export type WidgetErrorCode = (typeof WIDGET_ERROR_CODES)[number];

/** Customer data the merchant may prefill (attributes `email`, `phone`, `first-name`, `last-name`). */
export interface CustomerPrefill {
  email?: string;
  phone?: string;
  firstName?: string;
  lastName?: string;
}

/**
 * How the frame lays out its card fields (the element's `card-layout`): `stacked`, each field on its own
 * line; `compact`, number, expiry date and CVC on one line (wrapping where the frame is narrow). Here and in
 * the next list, the first value is the default (`DEFAULT_CARD_SETTINGS`).
 */
export const CARD_LAYOUTS = ['stacked', 'compact'] as const;
export type CardLayout = (typeof CARD_LAYOUTS)[number];

/** Whether the frame asks for the cardholder's name (the element's `cardholder-name`). */
export const CARDHOLDER_NAME_SETTINGS = ['required', 'optional', 'hidden'] as const;
export type CardholderNameSetting = (typeof CARDHOLDER_NAME_SETTINGS)[number];

/**
 * The card form's settings. They travel in the frame's URL (`?...&card-layout=compact&cardholder-name=hidden`,
 * see core's frame-url.ts), so that the gateway's first view and the frame's first render already lay the
 * fields out as asked.
 */
export interface CardFormSettings {
  layout: CardLayout;
  holder: CardholderNameSetting;
}

/** The settings when the element names none (or one the frame does not know): the form as it always was. */
export const DEFAULT_CARD_SETTINGS: Readonly<CardFormSettings> = { layout: 'stacked', holder: 'required' };

/** Element to frame: the order to pay, once; later, changes of language or appearance; a replay of `ready`. */
export type ElementToFrameMessage =
  | (ChannelEnvelope & {
      type: 'init';
      /** As the page gave it, unchecked: the gateway checks it at intake, and the frame passes it on. */
      order: UncheckedOrderInput;
      signature?: string;
      /**
       * `certificate-name` as earlier elements send it, beside the order (the frame, served by the gateway,
       * may meet an element of an older package); ours sends it in `order`, since it is signed.
       */
      certificateName?: string;
      /** Resolved by the element (attribute, then `<html lang>`); the frame falls back to the merchant's. */
      language?: string;
      customer: CustomerPrefill;
      /** Allow-listed `--svc-*` values, sanitized again by the frame. */
      appearance: Record<string, string>;
      /** Per-key text overrides from the merchant. */
      texts: Record<string, string>;
    })
  | (ChannelEnvelope & { type: 'update'; language?: string; appearance?: Record<string, string> })
  /**
   * The element adopted a frame that the page's HTML declared (`checkoutElementHtml`), which may have started,
   * and said `ready`, before the element's script ran: the frame says `ready` again, and `shown` and its
   * height when it told them already. An older frame ignores it, and the element's ready timeout holds.
   */
  | (ChannelEnvelope & { type: 'replay' });

/** Frame to element: readiness, size, state, the documented events, and errors. */
export type FrameToElementMessage =
  | (ChannelEnvelope & { type: 'ready' })
  /**
   * The frame shows its card form, the order perhaps still on its way (the pay button waits for it): the
   * element reveals the frame. An older frame never says it, and is revealed at its first state after
   * `loading`; an older element ignores it.
   */
  | (ChannelEnvelope & { type: 'shown' })
  | (ChannelEnvelope & { type: 'resize'; height: number })
  | (ChannelEnvelope & { type: 'state'; state: WidgetState })
  | (ChannelEnvelope & {
      type: 'paymentCompleted';
      /** The gateway's order id: the notification's `id` and merchant API v2's `{order_id}`. */
      orderId: string;
      /** The page's `order-id` (or the order JSON's `orderId`), when it gave one. */
      merchantOrderId?: string;
      paymentSucceeded: boolean;
    })
  | (ChannelEnvelope & { type: 'navigateBackToCart' })
  | (ChannelEnvelope & { type: 'error'; code: WidgetErrorCode; message: string; field?: string })
  /**
   * The merchant's order verification rejected the order (a CALLBACK widget): the frame shows the customer
   * why, and the element tells the page (`checkoutError` `order_rejected`). No payment attempt began.
   */
  | (ChannelEnvelope & { type: 'rejected'; message: string; reason?: OrderRejectionReason });

/** A message body without its envelope, as the sender writes it. */
export type Unenveloped<M> = M extends ChannelEnvelope ? Omit<M, keyof ChannelEnvelope> : never;

/** A fresh, unguessable channel id for one element instance. */
export function createChannelId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Wraps a body in the envelope of `channel`. */
export function envelope<M extends ChannelEnvelope>(channel: string, body: Unenveloped<M>): M {
  return { protocol: CHANNEL_PROTOCOL, version: CHANNEL_VERSION, channel, ...body } as unknown as M;
}

type Fields = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === 'string';

const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

const isStringRecord = (value: unknown): value is Record<string, string> =>
  isPlainObject(value) && Object.values(value).every(isString);

/** True when `data` has exactly the envelope of `channel` and only the `allowed` members besides. */
function hasEnvelope(data: unknown, channel: string, allowed: readonly string[]): data is Fields {
  if (!isPlainObject(data)) return false;
  if (
    data['protocol'] !== CHANNEL_PROTOCOL ||
    data['version'] !== CHANNEL_VERSION ||
    data['channel'] !== channel
  ) {
    return false;
  }
  const members = new Set(['protocol', 'version', 'channel', 'type', ...allowed]);
  return Object.keys(data).every((key) => members.has(key));
}

const FRAME_MESSAGE_MEMBERS: Record<FrameToElementMessage['type'], readonly string[]> = {
  ready: [],
  shown: [],
  resize: ['height'],
  state: ['state'],
  paymentCompleted: ['orderId', 'merchantOrderId', 'paymentSucceeded'],
  navigateBackToCart: [],
  error: ['code', 'message', 'field'],
  rejected: ['message', 'reason'],
};

/** Reads a message from the frame, or `undefined` when it is not one of ours for this channel. */
export function readFrameMessage(data: unknown, channel: string): FrameToElementMessage | undefined {
  const type = isPlainObject(data) ? data['type'] : undefined;
  if (!isString(type) || !Object.hasOwn(FRAME_MESSAGE_MEMBERS, type)) return undefined;
  const kind = type as FrameToElementMessage['type'];
  if (!hasEnvelope(data, channel, FRAME_MESSAGE_MEMBERS[kind])) return undefined;
  const ok = FRAME_MESSAGE_CHECKS[kind](data);
  return ok ? (data as unknown as FrameToElementMessage) : undefined;
}

const FRAME_MESSAGE_CHECKS: Record<FrameToElementMessage['type'], (data: Fields) => boolean> = {
  ready: () => true,
  shown: () => true,
  navigateBackToCart: () => true,
  resize: ({ height }) =>
    typeof height === 'number' && Number.isFinite(height) && height >= 0 && height <= 100_000,
  state: ({ state }) => (WIDGET_STATES as readonly unknown[]).includes(state),
  paymentCompleted: ({ orderId, merchantOrderId, paymentSucceeded }) =>
    isString(orderId) && isOptionalString(merchantOrderId) && typeof paymentSucceeded === 'boolean',
  error: ({ code, message, field }) =>
    (WIDGET_ERROR_CODES as readonly unknown[]).includes(code) && isString(message) && isOptionalString(field),
  rejected: ({ message, reason }) => isString(message) && isOptionalString(reason),
};

/** Reads a message from the element, or `undefined` when it is not one of ours for this channel. */
export function readElementMessage(data: unknown, channel: string): ElementToFrameMessage | undefined {
  const type = isPlainObject(data) ? data['type'] : undefined;
  if (type === 'init') {
    const members = ['order', 'signature', 'certificateName', 'language', 'customer', 'appearance', 'texts'];
    if (!hasEnvelope(data, channel, members)) return undefined;
    const ok =
      isPlainObject(data['order']) &&
      isOptionalString(data['signature']) &&
      isOptionalString(data['certificateName']) &&
      isOptionalString(data['language']) &&
      isStringRecord(data['customer']) &&
      isStringRecord(data['appearance']) &&
      isStringRecord(data['texts']);
    return ok ? (data as unknown as ElementToFrameMessage) : undefined;
  }
  if (type === 'replay')
    return hasEnvelope(data, channel, []) ? (data as unknown as ElementToFrameMessage) : undefined;
  if (type === 'update') {
    if (!hasEnvelope(data, channel, ['language', 'appearance'])) return undefined;
    const ok =
      isOptionalString(data['language']) &&
      (data['appearance'] === undefined || isStringRecord(data['appearance']));
    return ok ? (data as unknown as ElementToFrameMessage) : undefined;
  }
  return undefined;
}
