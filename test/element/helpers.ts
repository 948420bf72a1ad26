// Helpers of the element's browser tests. In the unit tests the element's gateway is this page's own origin:
// the iframe then loads a same-origin page (web-test-runner's 404), so a test can play the frame's side of
// the channel with core's own envelope and reader: it hears what the element posts to the iframe's window,
// and hands the element messages whose origin and source are exactly those a real frame's would have.
// The real frame and gateway are used in svc-checkout.gateway.test.ts.
import { fixture, html, waitUntil } from '@open-wc/testing';
import { ifDefined } from 'lit/directives/if-defined.js';
import {
  type ElementToFrameMessage,
  envelope,
  type FrameToElementMessage,
  readElementMessage,
  type Unenveloped,
} from '../../src/core/frame-channel.js';
import { consoleLinesWritten } from '../../src/element/checkout-failure.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { type GatewayInfo, sign } from '../support/gateway-info.js';

export { type GatewayInfo, gatewayInfo, sign } from '../support/gateway-info.js';

export function shadow(element: SvcCheckout): ShadowRoot {
  if (!element.shadowRoot) throw new Error('no shadow root');
  return element.shadowRoot;
}

export async function iframeOf(element: SvcCheckout): Promise<HTMLIFrameElement> {
  await waitUntil(() => shadow(element).querySelector('iframe'), 'the element loads no iframe');
  return shadow(element).querySelector('iframe')!;
}

/** A signed order for the real gateway's checkout widget: one item, 12.50 EUR of green tea, a fresh order id. */
export async function signedOrder(info: GatewayInfo): Promise<{ orderId: string; signature: string }> {
  const orderId = `wtr-${crypto.randomUUID()}`;
  const signature = await sign({
    widgetId: info.widgets.checkout,
    certificateName: info.certificateName,
    orderId,
    items: [{ amount: '12.50', currency: 'EUR', label: 'Green tea' }],
  });
  return { orderId, signature };
}

/**
 * The element on the real gateway with a {@link signedOrder}; an `amount` other than its 12.50 makes the
 * signature not the order's. `style` is the host's inline style.
 */
export async function signedCheckout(
  info: GatewayInfo,
  { amount = '12.50', style }: { amount?: string; style?: string } = {},
): Promise<SvcCheckout> {
  const { orderId, signature } = await signedOrder(info);
  return fixture<SvcCheckout>(html`<svc-checkout
    style=${ifDefined(style)}
    gateway=${info.gatewayUrl}
    widget-id=${info.widgets.checkout}
    order-id=${orderId}
    amount=${amount}
    currency="EUR"
    label="Green tea"
    signature=${signature}
    certificate-name=${info.certificateName}
  ></svc-checkout>`);
}

/** The channel id in an iframe's URL. */
export function channelOf(iframe: HTMLIFrameElement): string {
  return new URLSearchParams(new URL(iframe.src).hash.slice(1)).get('channel') ?? '';
}

/** Resolves once the iframe's document at its `src` has loaded. */
async function loaded(iframe: HTMLIFrameElement): Promise<void> {
  const target = iframe.src.split('#')[0];
  await waitUntil(() => {
    try {
      const href = iframe.contentWindow?.location.href.split('#')[0];
      return href === target && iframe.contentDocument?.readyState === 'complete';
    } catch {
      return false;
    }
  }, 'the iframe does not load');
}

/** The frame's side of the channel, played by a test. */
export interface TestFrame {
  iframe: HTMLIFrameElement;
  channel: string;
  /** What the element posted to this frame, read with core's `readElementMessage`. */
  received: ElementToFrameMessage[];
  /** Sends a message to the element as the frame would; `as` forges origin, source or channel. */
  send(
    body: Unenveloped<FrameToElementMessage>,
    as?: { origin?: string; source?: Window | null; channel?: string },
  ): void;
  /** Waits for the next message of a type not taken before (the first, then the second, ...). */
  next<T extends ElementToFrameMessage['type']>(
    type: T,
  ): Promise<Extract<ElementToFrameMessage, { type: T }>>;
}

/** Plays the frame of an element whose gateway is this page's origin, once its iframe has loaded. */
export async function testFrame(element: SvcCheckout): Promise<TestFrame> {
  const iframe = await iframeOf(element);
  await loaded(iframe);
  const channel = channelOf(iframe);
  const received: ElementToFrameMessage[] = [];
  const taken = new Map<string, number>();
  const frameWindow = iframe.contentWindow!;
  frameWindow.addEventListener('message', (event: MessageEvent) => {
    if (event.origin !== location.origin) return;
    const message = readElementMessage(event.data, channel);
    if (message) received.push(message);
  });
  return {
    iframe,
    channel,
    received,
    send(body, as = {}) {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: envelope<FrameToElementMessage>(as.channel ?? channel, body),
          origin: as.origin ?? location.origin,
          source: as.source === undefined ? frameWindow : as.source,
        }),
      );
    },
    async next(type) {
      const index = taken.get(type) ?? 0;
      const ofType = () => received.filter((message) => message.type === type);
      await waitUntil(() => ofType().length > index, `the element posts no ${type} (number ${index + 1})`);
      taken.set(type, index + 1);
      return ofType()[index] as never;
    },
  };
}

/** Plays the frame of an element until the element's `init`, and returns it. */
export async function initOf(
  element: SvcCheckout,
): Promise<Extract<ElementToFrameMessage, { type: 'init' }>> {
  const frame = await testFrame(element);
  frame.send({ type: 'ready' });
  return frame.next('init');
}

/** Resolves once the console lines the element has begun are written: each comes a moment after its event. */
export const consoleSettled = consoleLinesWritten;

/**
 * Collects console.error calls while `run` runs (the element logs each failure once), and the lines it began
 * meanwhile: a test's lines never reach the next test's. Assert on `errors` after {@link consoleSettled}.
 */
export async function capturingConsoleErrors<T>(run: (errors: string[]) => Promise<T>): Promise<T> {
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  };
  try {
    return await run(errors);
  } finally {
    await consoleSettled();
    console.error = original;
  }
}
