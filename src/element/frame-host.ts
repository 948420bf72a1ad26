/**
 * The element's side of one load of the payment frame: its iframe, whose URL carries a fresh channel id,
 * the message listener that accepts only this frame's messages, posting to the gateway's exact origin, and
 * the ready timeout. A frame that never says `ready` cannot say why (a disallowed origin or an unknown widget
 * is blocked by `frame-ancestors` before any of its script runs), so the gateway's embedding endpoint is
 * asked to explain.
 */
import {
  createChannelId,
  type ElementToFrameMessage,
  envelope,
  type FrameToElementMessage,
  readFrameMessage,
  type Unenveloped,
  type WidgetErrorCode,
} from '../core/frame-channel.js';
import type { Language } from '../core/i18n.js';

/** Why a frame load failed before the frame could report anything itself. */
export interface FrameLoadFailure {
  code: Extract<
    WidgetErrorCode,
    'unknown_widget' | 'origin_not_allowed' | 'gateway_unreachable' | 'frame_timeout'
  >;
  message: string;
}

export interface FrameHostOptions {
  /** The gateway's origin, such as `http://127.0.0.1:4010`. */
  gateway: string;
  widgetId: string;
  /** The merchant page's origin, which the frame posts to. */
  pageOrigin: string;
  /** How long to wait for `ready`, in milliseconds. */
  readyTimeout: number;
  /**
   * The order has shipping options: the gateway then serves the frame's first chunk with the delivery fields
   * built in, rather than the card form that fetches them after it (one download less, fewer bytes in all).
   */
  fields?: boolean;
  /** The page's language for our texts (one we speak): the gateway serves the frame's page in it. */
  language?: Language | undefined;
  /** The card form's settings, as the hash's last members (`&card-layout=…&cardholder-name=…`). */
  card: string;
}

export interface FrameHostHandlers {
  /** A message of this frame, already checked for origin, source, channel and shape. */
  message(message: FrameToElementMessage): void;
  /** The frame did not get to `ready`; called at most once, never after `dispose()`. */
  failed(failure: FrameLoadFailure): void;
}

/** The gateway origin of a `gateway` value (an http(s) URL, any path ignored), or undefined when it is none. */
export function gatewayOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks the gateway whether this page may embed the widget. Returns the failure it explains, or undefined
 * when the gateway sees no problem (or answers something we do not understand).
 */
export async function explainFrameFailure(
  gateway: string,
  widgetId: string,
  pageOrigin: string,
): Promise<FrameLoadFailure | undefined> {
  let body: { ok?: unknown; code?: unknown; message?: unknown } | null;
  try {
    const response = await fetch(
      `${gateway}/widget-api/v1/widgets/${encodeURIComponent(widgetId)}/embedding?origin=${encodeURIComponent(pageOrigin)}`,
      { credentials: 'omit', cache: 'no-store' },
    );
    try {
      body = await response.json();
    } catch {
      return undefined;
    }
  } catch (error) {
    return {
      code: 'gateway_unreachable',
      message: `The gateway ${gateway} cannot be reached (${(error as Error).message}).`,
    };
  }
  const code = body?.code;
  if (body?.ok !== false || (code !== 'unknown_widget' && code !== 'origin_not_allowed')) return undefined;
  return { code, message: typeof body.message === 'string' ? body.message : code };
}

/** How long after the iframe's `load` a missing `ready` is taken as a frame that will not answer. */
const LOAD_GRACE_MS = 300;

/**
 * One load of the frame: its own iframe (which the element renders) on its own channel. Create a new one
 * to reload.
 */
export class FrameHost {
  /** This load's channel id: messages of any other channel are ignored. */
  readonly channel = createChannelId();
  /**
   * The iframe, loading `${gateway}/widget/frame/<widget id>?fields=<0|1>&lang=[<language>]#channel=...&origin=...&card-layout=...&cardholder-name=...`
   * (see the contract).
   */
  readonly iframe: HTMLIFrameElement = document.createElement('iframe');
  #ready = false;
  #disposed = false;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #options: FrameHostOptions;
  readonly #handlers: FrameHostHandlers;

  /** Starts listening to the new iframe, and the ready timeout. */
  constructor(options: FrameHostOptions, handlers: FrameHostHandlers) {
    this.#options = options;
    this.#handlers = handlers;
    const { gateway, widgetId, pageOrigin, readyTimeout, fields, language, card } = options;
    this.iframe.src = `${gateway}/widget/frame/${encodeURIComponent(widgetId)}?fields=${fields ? 1 : 0}&lang=${language ?? ''}#channel=${this.channel}&origin=${encodeURIComponent(pageOrigin)}${card}`;
    addEventListener('message', this.#onMessage);
    this.iframe.addEventListener('load', this.#onLoad, { once: true });
    this.#timer = setTimeout(() => void this.#timedOut(), readyTimeout);
  }

  /** The frame has said `ready`: it takes messages. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Posts to the frame, to the gateway's exact origin. Does nothing before `ready`. */
  post(body: Unenveloped<ElementToFrameMessage>): void {
    const target = this.iframe.contentWindow;
    if (this.#ready && !this.#disposed && target)
      target.postMessage(envelope<ElementToFrameMessage>(this.channel, body), this.#options.gateway);
  }

  /** Stops listening; later messages and pending checks are ignored. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    removeEventListener('message', this.#onMessage);
  }

  readonly #onMessage = (event: MessageEvent): void => {
    if (event.origin !== this.#options.gateway || event.source !== this.iframe.contentWindow) return;
    const message = readFrameMessage(event.data, this.channel);
    if (!message) return;
    if (message.type === 'ready') {
      this.#ready = true;
      clearTimeout(this.#timer);
    }
    this.#handlers.message(message);
  };

  // A frame blocked by `frame-ancestors` or a gateway that is down still fires `load` (with an error
  // page), so a load without `ready` is asked about soon instead of after the whole timeout; only an
  // answer that settles it ends the wait. The grace covers `ready` and `load` arriving in either order
  // (they travel apart when the frame runs in its own process), so a working frame costs no request.
  readonly #onLoad = (): void => {
    setTimeout(() => {
      if (!this.#ready && !this.#disposed)
        void this.#explain().then((failure) => failure && this.#fail(failure));
    }, LOAD_GRACE_MS);
  };

  async #timedOut(): Promise<void> {
    if (this.#ready || this.#disposed) return;
    this.#fail(
      (await this.#explain()) ?? {
        code: 'frame_timeout',
        message: `The payment frame ${this.iframe.src.split('#')[0]} did not answer within ${this.#options.readyTimeout / 1000} s.`,
      },
    );
  }

  #explain(): Promise<FrameLoadFailure | undefined> {
    const { gateway, widgetId, pageOrigin } = this.#options;
    return explainFrameFailure(gateway, widgetId, pageOrigin);
  }

  #fail(failure: FrameLoadFailure): void {
    if (this.#ready || this.#disposed) return;
    this.dispose();
    this.#handlers.failed(failure);
  }
}
