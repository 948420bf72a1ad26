/**
 * The frame's side of the channel to `<svc-checkout>` on the merchant page. The frame element talks to a
 * `ParentChannel` and never to `window.parent` itself, so tests can drive it in memory and the checks that
 * keep other pages out live in one place.
 */
import {
  type ElementToFrameMessage,
  envelope,
  type FrameToElementMessage,
  readElementMessage,
  type Unenveloped,
} from '../core/index.js';

/** What the payment frame needs of its parent page. */
export interface ParentChannel {
  /** Sends one message to the element (the channel adds the envelope). */
  post(message: Unenveloped<FrameToElementMessage>): void;
  /** Calls `listener` with each message of the element; returns the function that stops listening. */
  onMessage(listener: (message: ElementToFrameMessage) => void): () => void;
}

/** Where the window channel posts to and listens on. */
export interface WindowChannelOptions {
  /** The frame's own window, which receives the element's messages. */
  self: Window;
  /** The merchant page's window: the only accepted sender and the only recipient. */
  parent: Window;
  /** The merchant page's exact origin, as the element put it in the frame URL. */
  origin: string;
  /** The element's channel id, as the element put it in the frame URL. */
  channel: string;
}

/**
 * The channel over `postMessage`. Messages go to the exact origin of the page (never `'*'`); a message is
 * taken only when it comes from the parent window, from that origin, and reads as one of ours for this
 * channel. Anything else is dropped without a word, since other frames and extensions post messages too.
 */
export function createWindowChannel(options: WindowChannelOptions): ParentChannel {
  const { self, parent, origin, channel } = options;
  return {
    post(message) {
      parent.postMessage(envelope<FrameToElementMessage>(channel, message), origin);
    },
    onMessage(listener) {
      const handle = (event: MessageEvent) => {
        if (event.source !== parent || event.origin !== origin) return;
        const message = readElementMessage(event.data, channel);
        if (message) listener(message);
      };
      self.addEventListener('message', handle);
      return () => self.removeEventListener('message', handle);
    },
  };
}
