/**
 * The element's side of one load of the payment frame: its iframe, whose URL carries a fresh channel id,
 * the message listener that accepts only this frame's messages, posting to the gateway's exact origin, and
 * the ready timeout. A frame that never says `ready` cannot say why (a disallowed origin or an unknown widget
 * is blocked by `frame-ancestors` before any of its script runs), so the gateway's embedding endpoint is
 * asked to explain. A frame that the page's HTML declared in the element's shadow root (`checkoutElementHtml`)
 * is adopted where it stands, without a second load, when its URL is the one the element would open.
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
import { type FrameUrlParts, frameUrl, frameUrlChannel } from '../core/frame-url.js';

/** Why a frame load failed before the frame could report anything itself. */
export interface FrameLoadFailure {
  code: Extract<
    WidgetErrorCode,
    'unknown_widget' | 'origin_not_allowed' | 'gateway_unreachable' | 'frame_timeout'
  >;
  message: string;
}

/** The frame's URL but its channel (see core's frame-url.ts), and how long to wait for `ready`. */
export interface FrameHostOptions extends Omit<FrameUrlParts, 'channel'> {
  /** How long to wait for `ready`, in milliseconds. */
  readyTimeout: number;
  /**
   * An iframe that the page's HTML declared in the element's shadow root: adopted when its URL is this
   * load's on its own channel (the server made it), else left to go.
   */
  declared?: HTMLIFrameElement | null | undefined;
}

export interface FrameHostHandlers {
  /** A message of this frame, already checked for origin, source, channel and shape. */
  message(message: FrameToElementMessage): void;
  /** The frame did not get to `ready`; called at most once, never after `dispose()`. */
  failed(failure: FrameLoadFailure): void;
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
  readonly channel: string;
  /** The iframe, loading core's `frameUrl` on this load's channel. */
  readonly iframe: HTMLIFrameElement;
  /** The iframe is the one the page declared, adopted as it stands: it may have loaded, and said `ready` unheard. */
  readonly adopted: boolean;
  #ready = false;
  #disposed = false;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #options: FrameHostOptions;
  readonly #handlers: FrameHostHandlers;

  /** Starts listening to the new iframe, and the ready timeout. */
  constructor(options: FrameHostOptions, handlers: FrameHostHandlers) {
    this.#options = options;
    this.#handlers = handlers;
    const { declared } = options;
    // Still in the shadow root: a lazy element's first render has let it go.
    const src = (declared?.isConnected && declared.getAttribute('src')) || '';
    const channel = frameUrlChannel(src);
    this.adopted = !!channel && src === frameUrl({ ...options, channel });
    this.channel = this.adopted ? channel! : createChannelId();
    this.iframe = this.adopted ? declared! : document.createElement('iframe');
    addEventListener('message', this.#onMessage);
    if (this.adopted) {
      // Its `ready` may have gone unheard: asked, it says it again. Its `load` may have passed too; the
      // window's comes after it.
      this.#send({ type: 'replay' });
      if (document.readyState === 'complete') this.#onLoad();
      else addEventListener('load', this.#onLoad, { once: true });
    } else {
      this.iframe.src = frameUrl({ ...options, channel: this.channel });
      this.iframe.addEventListener('load', this.#onLoad, { once: true });
    }
    this.#timer = setTimeout(() => void this.#timedOut(), options.readyTimeout);
  }

  /** The frame has said `ready`: it takes messages. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Posts to the frame, to the gateway's exact origin. Does nothing before `ready`. */
  post(body: Unenveloped<ElementToFrameMessage>): void {
    if (this.#ready && !this.#disposed) this.#send(body);
  }

  #send(body: Unenveloped<ElementToFrameMessage>): void {
    this.iframe.contentWindow?.postMessage(
      envelope<ElementToFrameMessage>(this.channel, body),
      this.#options.gateway,
    );
  }

  /** Stops listening; later messages and pending checks are ignored. */
  dispose(): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
    removeEventListener('message', this.#onMessage);
    removeEventListener('load', this.#onLoad);
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
