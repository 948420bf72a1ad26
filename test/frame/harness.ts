/**
 * What the frame's tests share: an in-memory channel that stands where the element would be, the real
 * sandbox gateway behind wtr's `/widget-api/*` (test/support/wtr-gateway-plugin.mjs), and the steps a
 * customer takes. Nothing of ours is replaced: the channel is the frame's own `ParentChannel` seam, and the
 * gateway answers over HTTP.
 */
import { fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  type CardFormSettings,
  DEFAULT_CARD_SETTINGS,
  type ElementToFrameMessage,
  envelope,
  type FrameToElementMessage,
  type OrderInput,
  type ShippingOptionInput,
  type Unenveloped,
  type WidgetState,
} from '../../src/core/index.js';
import type { FrameBootstrap } from '../../src/core/widget-api.js';
import { readBootstrap } from '../../src/frame/bootstrap.js';
import { adoptFirstViewStyles } from '../../src/frame/first-view-styles.js';
import type { ParentChannel } from '../../src/frame/parent-channel.js';
import '../../src/frame/payment-frame.js';
import type { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import { gatewayInfo, sign } from '../support/gateway-info.js';

export const CHANNEL = 'test-channel-0001';

type Posted = Unenveloped<FrameToElementMessage>;
type Init = Extract<Unenveloped<ElementToFrameMessage>, { type: 'init' }>;

/** The element's side of the channel, in memory: records what the frame posts, and sends it messages. */
export class MemoryChannel implements ParentChannel {
  readonly posted: Posted[] = [];
  private readonly listeners = new Set<(message: ElementToFrameMessage) => void>();

  post(message: Posted): void {
    // A copy, as postMessage would make: later changes by the frame cannot rewrite the record.
    this.posted.push(structuredClone(message));
  }

  onMessage(listener: (message: ElementToFrameMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  send(message: Unenveloped<ElementToFrameMessage>): void {
    const full = envelope<ElementToFrameMessage>(CHANNEL, message);
    for (const listener of this.listeners) listener(full);
  }

  get states(): WidgetState[] {
    return this.posted.flatMap((message) => (message.type === 'state' ? [message.state] : []));
  }

  get types(): string[] {
    return this.posted.map((message) => message.type);
  }

  async waitForState(state: WidgetState, timeout = 8000): Promise<void> {
    await waitUntil(
      () => this.states.includes(state),
      `no state ${state}; states: ${this.states.join(', ')}`,
      {
        timeout,
      },
    );
  }
}

export { type GatewayInfo, gatewayInfo, sign } from '../support/gateway-info.js';

/**
 * The bootstrap the gateway's frame page carries for `widgetId` (in `language`, else the merchant's), read
 * as the frame reads it.
 */
export async function servedBootstrap(widgetId: string, language = ''): Promise<FrameBootstrap> {
  const response = await fetch(`/__frame-page/${encodeURIComponent(widgetId)}?lang=${language}`);
  const page = new DOMParser().parseFromString(await response.text(), 'text/html');
  const bootstrap = readBootstrap(page);
  if (!bootstrap) throw new Error(`the frame page of ${widgetId} (${response.status}) carries no bootstrap`);
  return bootstrap;
}

/** A new merchant order id, so that each test gets an order of its own. */
export function newOrderId(): string {
  return `T-${crypto.randomUUID().slice(0, 18)}`;
}

/** An order of the payment-option widget, with a fresh order id. */
export async function checkoutOrder(extra: Partial<OrderInput> = {}): Promise<OrderInput> {
  const { widgets } = await gatewayInfo();
  return {
    widgetId: widgets.checkout,
    orderId: newOrderId(),
    items: [
      { amount: '12.50', currency: 'EUR', label: 'Green tea', count: 2 },
      { amount: '3.99', currency: 'EUR', label: 'Tea strainer' },
    ],
    ...extra,
  };
}

/** What the items of {@link checkoutOrder} come to, in cents: two teas at 12.50 and a strainer at 3.99. */
export const CHECKOUT_ITEMS_TOTAL = 2899;

/** A shipping option the order prices: Latvian Post at 2.80. */
export const LATVIAN_POST: ShippingOptionInput = {
  id: 'latvian-post',
  amount: '2.80',
  currency: 'EUR',
  label: 'Latvian Post',
};

/** How a test mounts the frame, beside its widget. */
export interface MountOptions {
  apiBase?: string;
  pageOrigin?: string;
  bootstrapOf?: string;
  /** The card form's settings, as the frame's URL would carry them. */
  cardSettings?: CardFormSettings;
}

/**
 * Mounts the frame for `widgetId` with a fresh channel and the bootstrap its gateway page carries (that of
 * `bootstrapOf`'s page when given); resolves once it said `ready`.
 */
export async function mountFrame(
  widgetId: string,
  options: MountOptions = {},
): Promise<{ frame: SvcPaymentFrame; channel: MemoryChannel }> {
  const channel = new MemoryChannel();
  const bootstrap = await servedBootstrap(options.bootstrapOf ?? widgetId);
  // The form's styles, which the gateway's page carries with its first view: this page has none, and the
  // frame adopts them from their chunk, which tests that measure the form wait for.
  await adoptFirstViewStyles(document);
  const frame = await fixture<SvcPaymentFrame>(
    html`<svc-payment-frame
      .widgetId=${widgetId}
      .pageOrigin=${options.pageOrigin ?? location.origin}
      .apiBase=${options.apiBase ?? ''}
      .cardSettings=${options.cardSettings ?? DEFAULT_CARD_SETTINGS}
      .bootstrap=${bootstrap}
      .channel=${channel}
    ></svc-payment-frame>`,
  );
  await waitUntil(() => channel.types.includes('ready'), 'the frame never said ready');
  return { frame, channel };
}

/** Sends `init` with the order signed by the demo merchant (unless `signature` is given, even as undefined). */
export async function init(
  channel: MemoryChannel,
  order: OrderInput,
  options: Partial<Omit<Init, 'type' | 'order'>> = {},
): Promise<void> {
  const certificateName = options.certificateName ?? (await gatewayInfo()).certificateName;
  // Sent beside the order, as the channel allows; the gateway signs it as the page's all the same.
  const signature = 'signature' in options ? options.signature : await sign({ ...order, certificateName });
  channel.send({
    type: 'init',
    order,
    ...(signature !== undefined && { signature }),
    certificateName,
    ...(options.language !== undefined && { language: options.language }),
    customer: options.customer ?? {},
    appearance: options.appearance ?? {},
    texts: options.texts ?? {},
  });
}

/** Mounts a frame (as `mount` says) and brings it to the payment form for `order`. */
export async function openForm(
  order: OrderInput,
  options: Partial<Omit<Init, 'type' | 'order'>> = {},
  mount: MountOptions = {},
): Promise<{ frame: SvcPaymentFrame; channel: MemoryChannel }> {
  const mounted = await mountFrame(order.widgetId, mount);
  await init(mounted.channel, order, options);
  await mounted.channel.waitForState('form');
  await mounted.frame.updateComplete;
  return mounted;
}

/** An expiry date three years ahead, as the customer types it (digits only; the field adds the slash). */
export function futureExpiryDigits(): string {
  return `12${String((new Date().getFullYear() + 3) % 100).padStart(2, '0')}`;
}

/** The input with this id inside the frame. */
export function input(frame: HTMLElement, id: string): HTMLInputElement {
  const found = frame.querySelector<HTMLInputElement>(`#${id}`);
  if (!found) throw new Error(`no #${id}`);
  return found;
}

/** Clicks into a field and types, as a customer does. */
export async function typeInto(frame: HTMLElement, id: string, text: string): Promise<void> {
  const field = input(frame, id);
  field.focus();
  field.select();
  await sendKeys({ type: text });
}

export interface TestCard {
  number: string;
  expiry?: string;
  cvc?: string;
  holder?: string;
}

/** Types a card into the card fields. */
export async function typeCard(frame: HTMLElement, card: TestCard): Promise<void> {
  await typeInto(frame, 'svc-card-number', card.number);
  await typeInto(frame, 'svc-card-expiry', card.expiry ?? futureExpiryDigits());
  await typeInto(frame, 'svc-card-cvc', card.cvc ?? '123');
  await typeInto(frame, 'svc-card-holder', card.holder ?? 'Anna Berzina');
}

/** Pays with the 3-D Secure test card and waits until the challenge step shows. */
export async function payIntoChallenge(frame: HTMLElement, channel: MemoryChannel): Promise<void> {
  await typeCard(frame, { number: '4000000000003220' });
  payButton(frame).click();
  await channel.waitForState('challenge');
  await waitUntil(() => frame.querySelector('#svc-challenge-title'), 'no challenge step');
}

/** The pay button. */
export function payButton(frame: HTMLElement): HTMLButtonElement {
  const button = frame.querySelector<HTMLButtonElement>('button.svc-pay');
  if (!button) throw new Error('no pay button');
  return button;
}

/** The pay button's text. */
export function payText(frame: HTMLElement): string {
  return payButton(frame).textContent!.trim();
}

/** A button by its visible text. */
export function buttonNamed(frame: HTMLElement, text: string): HTMLButtonElement {
  const button = [...frame.querySelectorAll('button')].find(
    (candidate) => candidate.textContent?.trim() === text,
  );
  if (!button) throw new Error(`no button "${text}"`);
  return button;
}

/** The frame's live region. */
export function liveRegion(frame: HTMLElement): HTMLElement {
  return frame.querySelector<HTMLElement>('[role="status"]')!;
}

/** A {@link watchFetch} for each test of the suite it is called in: it starts before each and is restored after. */
export function watchFetchInEachTest(): FetchWatch {
  let current: FetchWatch | undefined;
  const watch = () => {
    if (!current) throw new Error('watchFetchInEachTest: read in a test, not while the suite is declared');
    return current;
  };
  beforeEach(() => {
    current = watchFetch();
  });
  afterEach(() => {
    current?.restore();
    current = undefined;
  });
  return {
    get requests() {
      return watch().requests;
    },
    to: (urlPart) => watch().to(urlPart),
    loseNextAnswer: (urlPart, when) => watch().loseNextAnswer(urlPart, when),
    holdNext: (urlPart) => watch().holdNext(urlPart),
    restore: () => watch().restore(),
  };
}

/**
 * Watches the page's `fetch` without changing what it does, so a test can see the requests the frame made
 * (how many payment attempts, with which idempotency keys). `fail` can make one request's answer get lost,
 * as a dropped connection would: the gateway still handles the request.
 */
export interface FetchWatch {
  requests: Array<{ method: string; url: string; body: Record<string, unknown> | undefined }>;
  /** Requests whose URL contains `urlPart`. */
  to(urlPart: string): FetchWatch['requests'];
  /** The next request to `urlPart` fails as a dropped connection would, before or after the gateway got it. */
  loseNextAnswer(urlPart: string, when: 'before-sending' | 'after-sending'): void;
  /** The next request to `urlPart` waits until `release` is called, as on a slow network. */
  holdNext(urlPart: string): { release(): void };
  restore(): void;
}

export function watchFetch(): FetchWatch {
  const original = window.fetch;
  const requests: FetchWatch['requests'] = [];
  let lose: { urlPart: string; when: 'before-sending' | 'after-sending' } | undefined;
  let hold: { urlPart: string; released: Promise<void> } | undefined;
  window.fetch = async (resource, options) => {
    const url = String(resource);
    const body = typeof options?.body === 'string' ? JSON.parse(options.body) : undefined;
    requests.push({ method: options?.method ?? 'GET', url, body });
    if (hold && url.includes(hold.urlPart)) {
      const { released } = hold;
      hold = undefined;
      await released;
    }
    if (lose && url.includes(lose.urlPart)) {
      const { when } = lose;
      lose = undefined;
      if (when === 'before-sending') throw new TypeError('Failed to fetch');
      await original(resource, options);
      throw new TypeError('Failed to fetch');
    }
    return original(resource, options);
  };
  return {
    requests,
    to: (urlPart) => requests.filter((request) => request.url.includes(urlPart)),
    loseNextAnswer(urlPart, when) {
      lose = { urlPart, when };
    },
    holdNext(urlPart) {
      let release = () => {};
      hold = { urlPart, released: new Promise<void>((resolve) => (release = resolve)) };
      return { release: () => release() };
    },
    restore() {
      window.fetch = original;
    },
  };
}
