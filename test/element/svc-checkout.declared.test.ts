// The frame that the page's HTML declares in the element's shadow root (checkoutElementHtml's declaredFrame),
// with the real payment frame of the test gateway on a second origin. The markup is written here as the
// toolkit writes it (core's frameUrl on a fresh channel) and parsed with declarative shadow roots; the element
// is defined only after the first test's frame has loaded and said `ready` unheard, as when the element's
// script comes after the page's HTML.
import { expect, oneEvent, waitUntil } from '@open-wc/testing';
import { createChannelId, type FrameToElementMessage } from '../../src/core/frame-channel.js';
import { cardSettings, frameUrl } from '../../src/core/frame-url.js';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { capturingConsoleErrors, type GatewayInfo, gatewayInfo, shadow, sign } from './helpers.js';

const FRAME_WAIT = { timeout: 8000 };

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** A signed order of green tea, as the element's attributes, with its language (it is the frame's too). */
async function signedAttributes(info: GatewayInfo, widgetId = info.widgets.checkout) {
  const orderId = `wtr-${crypto.randomUUID()}`;
  const signature = await sign({
    widgetId,
    language: 'en',
    certificateName: info.certificateName,
    orderId,
    items: [{ amount: '12.50', currency: 'EUR', label: 'Green tea' }],
  });
  return {
    gateway: info.gatewayUrl,
    'widget-id': widgetId,
    language: 'en',
    'certificate-name': info.certificateName,
    'order-id': orderId,
    amount: '12.50',
    currency: 'EUR',
    label: 'Green tea',
    signature,
  };
}

/**
 * `<svc-checkout>` with these attributes and its frame declared for `pageOrigin`, parsed as the page's
 * HTML is (declarative shadow root) and put in the page; returns it and the declared iframe.
 */
function declare(
  attributes: Record<string, string>,
  pageOrigin = location.origin,
): { element: SvcCheckout; iframe: HTMLIFrameElement; channel: string } {
  const channel = createChannelId();
  const src = frameUrl({
    gateway: attributes['gateway']!,
    widgetId: attributes['widget-id']!,
    fields: false,
    language: 'en',
    channel,
    pageOrigin,
    card: cardSettings(undefined, undefined),
  });
  const written = Object.entries(attributes)
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join('');
  const parsed = Document.parseHTMLUnsafe(
    `<svc-checkout${written}><template shadowrootmode="open"><iframe part="frame" title="Secure payment form" src="${escapeAttribute(src)}"></iframe></template></svc-checkout>`,
  );
  const element = parsed.body.firstElementChild as SvcCheckout;
  const iframe = element.shadowRoot!.querySelector('iframe')!;
  document.body.append(element);
  return { element, iframe, channel };
}

/** The frame's messages of this channel that reach the page. */
function framesMessages(info: GatewayInfo, channel: string): FrameToElementMessage[] {
  const heard: FrameToElementMessage[] = [];
  addEventListener('message', (event: MessageEvent) => {
    const data = event.data as FrameToElementMessage;
    if (event.origin === info.gatewayUrl && data?.channel === channel) heard.push(data);
  });
  return heard;
}

/** How many documents of the gateway's frame pages this page has loaded (the resource timing of iframes). */
const frameLoads = (widgetId: string) =>
  performance
    .getEntriesByType('resource')
    .filter((entry) => new URL(entry.name).pathname === `/widget/frame/${widgetId}`).length;

describe('<svc-checkout> with a declared frame', function () {
  this.timeout(20000);
  let info: GatewayInfo;
  before(async () => {
    info = await gatewayInfo();
  });

  afterEach(() => {
    for (const element of document.querySelectorAll('svc-checkout')) element.remove();
  });

  it('adopts the frame that loaded before its script, as it stands: the frame says ready again and takes the order', async () => {
    const attributes = await signedAttributes(info);
    const loadsBefore = frameLoads(info.widgets.checkout);
    const { element, iframe, channel } = declare(attributes);
    const heard = framesMessages(info, channel);
    expect(customElements.get('svc-checkout')).to.equal(undefined);
    // The frame starts with nobody listening: its `ready` goes unheard.
    await waitUntil(
      () => heard.some((message) => message.type === 'ready'),
      'the declared frame says no ready',
      FRAME_WAIT,
    );
    const removed: Node[] = [];
    new MutationObserver((records) => {
      for (const record of records) removed.push(...record.removedNodes);
    }).observe(shadow(element), { childList: true });

    await import('../../src/element/define.js');
    expect(element.shadowRoot!.querySelector('iframe')).to.equal(iframe);
    await waitUntil(
      () => element.state === 'form',
      `the adopted frame shows no form (state ${element.state})`,
      FRAME_WAIT,
    );
    await element.updateComplete;
    // It said `ready` again when asked, and took the order: the same iframe, never moved nor reloaded.
    expect(heard.filter((message) => message.type === 'ready')).to.have.length(2);
    expect(shadow(element).querySelector('iframe')).to.equal(iframe);
    expect(removed).to.deep.equal([]);
    expect(iframe.getAttribute('src')).to.contain(`#channel=${channel}&`);
    expect(frameLoads(info.widgets.checkout) - loadsBefore).to.equal(1);
    // Shown all along, and sized by its height as the element's own frame is.
    expect(iframe.classList.contains('pending')).to.equal(false);
    expect(iframe.inert).to.equal(false);
    await waitUntil(() => Number.parseFloat(iframe.style.height) > 100, 'no height', FRAME_WAIT);
    expect(iframe.title).to.equal('Secure payment form');
    await expect(element).to.be.accessible();
  });

  it('drops a frame declared for another page origin, for other attributes or before a lazy start, and opens its own', async () => {
    for (const [what, made] of [
      ['another origin', async () => declare(await signedAttributes(info), 'https://shop.example')],
      [
        'other attributes',
        async () => {
          const declared = declare(await signedAttributes(info));
          declared.element.setAttribute('card-layout', 'compact');
          return declared;
        },
      ],
      [
        'a lazy element, whose first render let it go',
        async () => {
          const declared = declare({ ...(await signedAttributes(info)), lazy: 'true' });
          await declared.element.updateComplete;
          declared.element.init();
          return declared;
        },
      ],
    ] as const) {
      const { element, iframe, channel } = await made();
      await waitUntil(() => !iframe.isConnected, `${what}: the declared iframe stays`);
      const own = shadow(element).querySelector('iframe')!;
      expect(own.getAttribute('src'), what).to.not.contain(channel);
      expect(own.getAttribute('src'), what).to.contain(`origin=${encodeURIComponent(location.origin)}`);
      await waitUntil(
        () => element.state === 'form',
        `${what}: no form (state ${element.state})`,
        FRAME_WAIT,
      );
      expect(shadow(element).querySelectorAll('iframe'), what).to.have.length(1);
      element.remove();
    }
  });

  it('explains a declared frame that never says ready: the gateway knows no such widget', async () => {
    await capturingConsoleErrors(async () => {
      const { element } = declare(await signedAttributes(info, crypto.randomUUID()));
      const event = (await oneEvent(element, 'checkoutError')) as CheckoutErrorEvent;
      expect(event.detail.code).to.equal('unknown_widget');
      await element.updateComplete;
      expect(shadow(element).querySelector('iframe')).to.equal(null);
      expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
    });
  });
});
