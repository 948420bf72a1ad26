// The element with the real payment frame, served by a real sandbox gateway on a second origin
// (test/support/wtr-gateway-plugin.mjs; the frame and widget scripts as `npm run build:browser` built them).
// Paying means typing into the cross-origin frame, which these tests cannot do: the demo's Playwright tests
// pay, and the channel tests check what the element makes of paymentCompleted.
import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import { envelope, type FrameToElementMessage } from '../../src/core/frame-channel.js';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import { explainFrameFailure } from '../../src/element/frame-host.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import {
  capturingConsoleErrors,
  channelOf,
  consoleSettled,
  type GatewayInfo,
  gatewayInfo,
  iframeOf,
  shadow,
  sign,
  signedCheckout,
  signedOrder,
} from './helpers.js';

const FRAME_WAIT = { timeout: 8000 };

describe('<svc-checkout> with the real gateway', function () {
  this.timeout(20000);
  let info: GatewayInfo;
  before(async () => {
    info = await gatewayInfo();
  });

  it("tells the page of the merchant's rejection, with its reason, and takes a changed order afterwards", async () => {
    const rejected = `REJECT-PRICE_CHANGED-${crypto.randomUUID().slice(0, 8)}`;
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${info.gatewayUrl}
      widget-id=${info.widgets.callbackValidation}
      order-id=${rejected}
      amount="12.50"
      currency="EUR"
      label="Green tea"
    ></svc-checkout>`);
    const event = (await oneEvent(element, 'checkoutError')) as CheckoutErrorEvent;
    expect(event.detail.code).to.equal('order_rejected');
    expect(event.detail.reason).to.equal('PRICE_CHANGED');
    await waitUntil(() => element.state === 'failed', `state ${element.state}`, FRAME_WAIT);
    // The frame stays, showing the customer why (test/frame/order-rejection.test.ts): no error view.
    await iframeOf(element);
    expect(shadow(element).querySelector('[role="alert"]')).to.equal(null);

    // A rejection is no payment attempt: the page's new order (a new price, say) is taken, not locked.
    const refused: CheckoutErrorEvent[] = [];
    element.addEventListener('checkoutError', (caught) => refused.push(caught as CheckoutErrorEvent));
    element.orderId = `wtr-${crypto.randomUUID()}`;
    element.amount = '13.00';
    await waitUntil(() => element.state === 'form', `state ${element.state}`, FRAME_WAIT);
    expect(refused.map((caught) => caught.detail.code)).to.deep.equal([]);
  });

  it('loads the frame, which takes the signed order, shows its form and sets its height', async () => {
    const element = await signedCheckout(info);
    const iframe = await iframeOf(element);
    expect(iframe.src.split('?')[0]).to.equal(`${info.gatewayUrl}/widget/frame/${info.widgets.checkout}`);
    expect(new URL(iframe.src).hash).to.match(/^#channel=/);
    await waitUntil(
      () => element.state === 'form',
      `the frame shows no form (state ${element.state})`,
      FRAME_WAIT,
    );
    await element.updateComplete;
    expect(iframe.classList.contains('pending')).to.equal(false);
    await waitUntil(
      () => Number.parseFloat(iframe.style.height) > 100,
      'the frame reports no height',
      FRAME_WAIT,
    );
    // The reported height is the frame's content; the iframe's border lies outside it.
    expect(iframe.clientHeight).to.equal(Number.parseFloat(iframe.style.height));
    expect(shadow(element).querySelector('[role="status"]')).to.equal(null);
    await expect(element).to.be.accessible();

    // Messages forged on the page count only with the frame's origin, its window and its channel.
    const forge = (origin: string, source: Window | null, channel: string) =>
      window.dispatchEvent(
        new MessageEvent('message', {
          data: envelope<FrameToElementMessage>(channel, { type: 'state', state: 'paid' }),
          origin,
          source,
        }),
      );
    forge(location.origin, iframe.contentWindow, channelOf(iframe));
    forge(info.gatewayUrl, window, channelOf(iframe));
    forge(info.gatewayUrl, iframe.contentWindow, 'f'.repeat(32));
    await aTimeout(50);
    expect(element.state).to.equal('form');
  });

  it('before payment takes a new signed order into a new frame; the gateway checks the new order', async () => {
    await capturingConsoleErrors(async (errors) => {
      const element = await signedCheckout(info);
      const formShown = () =>
        waitUntil(() => element.state === 'form', `no form (state ${element.state})`, FRAME_WAIT);
      await formShown();
      const first = await iframeOf(element);

      // The cart changed: the page sets the new order and its signature together, as its server signed them.
      const next = {
        widgetId: info.widgets.checkout,
        certificateName: info.certificateName,
        orderId: `wtr-${crypto.randomUUID()}`,
        items: [{ amount: '7.25', currency: 'EUR', label: 'Green tea' }],
      };
      const nextSignature = await sign(next);
      element.orderId = next.orderId;
      element.amount = '7.25';
      element.signature = nextSignature;
      await waitUntil(() => shadow(element).querySelector('iframe') !== first, 'no new frame');
      const second = shadow(element).querySelector('iframe')!;
      expect(channelOf(second)).to.not.equal(channelOf(first));
      // The gateway verified the new signature, which fits the new order only: the frame took it.
      await formShown();
      await consoleSettled();
      expect(errors).to.deep.equal([]);

      // An order changed without its signature: the gateway refuses it, so the frame had sent it.
      const heard = oneEvent(element, 'checkoutError') as Promise<CheckoutErrorEvent>;
      element.amount = '8.00';
      expect((await heard).detail.code).to.equal('signature_invalid');
      await element.updateComplete;
      expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
      await consoleSettled();
      expect(errors).to.have.length(1);

      // The page signs it: the error box gives way to a frame with the order.
      element.signature = await sign({ ...next, items: [{ ...next.items[0]!, amount: '8.00' }] });
      await formShown();
      await element.updateComplete;
      expect(shadow(element).querySelector('[role="alert"]')).to.equal(null);
      expect(shadow(element).querySelector('iframe')).to.not.equal(null);
      await consoleSettled();
      expect(errors).to.have.length(1);
    });
  });

  it('tells how the frame it opened before the start failed only at the start, once, when the page listens', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    const element = document.createElement('svc-checkout');
    element.setAttribute('gateway', info.gatewayUrl);
    element.setAttribute('widget-id', '00000000-0000-4000-8000-00000000dead');
    element.setAttribute('amount', '1.00');
    element.setAttribute('label', 'Tea');
    const events: CheckoutErrorEvent[] = [];
    element.addEventListener('checkoutError', (event) => events.push(event));
    await capturingConsoleErrors(async (errors) => {
      wrapper.append(element);
      // Lazy from here on (as a page may decide after the element connected): the start is init().
      element.lazy = true;
      // The frame opened at connection: the gateway refuses it, and the embedding check says why.
      await aTimeout(2000);
      expect(events, 'told before the start').to.have.length(0);
      element.init();
      expect(events.map((event) => event.detail.code)).to.deep.equal(['unknown_widget']);
      await aTimeout(500);
      expect(events).to.have.length(1);
      await consoleSettled();
      expect(errors).to.have.length(1);
    });
    expect(element.state).to.equal('error');
  });

  it('explains a frame of an unknown widget with the gateway’s embedding check: unknown_widget', async () => {
    await capturingConsoleErrors(async (errors) => {
      const heard = oneEvent(document, 'checkoutError') as Promise<CheckoutErrorEvent>;
      const element = await fixture<SvcCheckout>(html`<svc-checkout
        gateway=${info.gatewayUrl}
        widget-id="00000000-0000-4000-8000-00000000dead"
        amount="1.00"
        label="Tea"
      ></svc-checkout>`);
      const event = await heard;
      expect(event.detail.code).to.equal('unknown_widget');
      expect(event.detail.attribute).to.equal('widget-id');
      await element.updateComplete;
      expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
        'This shop cannot take payments right now. Please try again later.',
      );
      expect(shadow(element).querySelector('iframe')).to.equal(null);
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('unknown_widget').and.contain('widget-id');
    });
  });

  it('reads the embedding check: unknown widget, origin not allowed, and no problem', async () => {
    const { gatewayUrl, widgets } = info;
    expect((await explainFrameFailure(gatewayUrl, 'nope', location.origin))?.code).to.equal('unknown_widget');
    const elsewhere = await explainFrameFailure(gatewayUrl, widgets.checkout, 'https://elsewhere.example');
    expect(elsewhere?.code).to.equal('origin_not_allowed');
    expect(elsewhere?.message).to.contain('https://elsewhere.example');
    expect(await explainFrameFailure(gatewayUrl, widgets.checkout, location.origin)).to.equal(undefined);
    expect(
      (await explainFrameFailure('http://127.0.0.1:1', widgets.checkout, location.origin))?.code,
    ).to.equal('gateway_unreachable');
  });

  it('reports signature_invalid, the gateway’s code, when the signature is not the order’s, and shows shopper words', async () => {
    await capturingConsoleErrors(async (errors) => {
      const heard = oneEvent(document, 'checkoutError') as Promise<CheckoutErrorEvent>;
      const element = await signedCheckout(info, { amount: '0.01' });
      const event = await heard;
      expect(event.detail.code).to.equal('signature_invalid');
      expect(event.detail.attribute).to.equal('signature');
      await element.updateComplete;
      expect(element.state).to.equal('error');
      expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
        'This shop cannot take payments right now. Please try again later.',
      );
      expect(errors[0]).to.match(
        /^<svc-checkout> signature_invalid \[attribute: signature\]: The signature does not match the order.* Sign exactly the values the page gives/,
      );
      expect(shadow(element).querySelector('iframe')).to.equal(null);
      await consoleSettled();
      expect(errors).to.have.length(1);
      await expect(element).to.be.accessible();
    });
  });

  /**
   * Starts a lazy element on the real gateway with these single-item attributes (plus what `add` adds by
   * script), and returns the checkoutError and console lines the gateway's refusal of the order gives.
   */
  async function refused(attributes: Record<string, string>, add: (element: SvcCheckout) => void = () => {}) {
    return capturingConsoleErrors(async (errors) => {
      const element = await fixture<SvcCheckout>(html`<svc-checkout
        lazy="true"
        gateway=${info.gatewayUrl}
        widget-id=${info.widgets.checkout}
        order-id=${`wtr-${crypto.randomUUID()}`}
      ></svc-checkout>`);
      for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
      add(element);
      const heard = oneEvent(element, 'checkoutError') as Promise<CheckoutErrorEvent>;
      element.init();
      const { detail } = await heard;
      await element.updateComplete;
      expect(element.state).to.equal('error');
      expect(shadow(element).querySelector('iframe')).to.equal(null);
      await consoleSettled();
      expect(errors).to.have.length(1);
      return { element, detail, error: errors[0]! };
    });
  }

  it('an amount the gateway refuses names the amount attribute', async () => {
    const { element, detail, error } = await refused({ amount: '12,50', label: 'Tea' });
    expect(detail).to.include({ code: 'invalid_order', attribute: 'amount' });
    expect(detail.message).to.contain('items[0].amount');
    expect(error).to.contain('[attribute: amount]').and.contain('Fix the amount attribute');
    expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
      'This shop cannot take payments right now. Please try again later.',
    );
    await expect(element).to.be.accessible();
  });

  it('an item added by script that the gateway refuses names addOrderItem and the item’s number', async () => {
    const { detail, error } = await refused({ amount: '1.00', label: 'Tea' }, (element) => {
      element.addOrderItem({ amount: '2.00', label: 'Honey' });
      element.addOrderItem({ amount: '1.999', label: 'Lemon' });
    });
    expect(detail).to.include({ code: 'invalid_order', attribute: 'addOrderItem' });
    expect(detail.message).to.match(/^addOrderItem\(\) \(item 2\): .*items\[2\]\.amount/);
    expect(error).to.contain('[attribute: addOrderItem]').and.contain('addOrderItem() (item 2): ');
  });

  it('a shipping option added by script that the gateway refuses names addShippingOption', async () => {
    const { detail } = await refused({ amount: '1.00', label: 'Tea' }, (element) => {
      element.addShippingOption({ id: 'courier', amount: '-4.99' });
    });
    expect(detail).to.include({ code: 'invalid_order', attribute: 'addShippingOption' });
    expect(detail.message).to.match(/^addShippingOption\(\) \(option 1\): /);
  });

  it('the lazy example: a pickup-point option on a widget without points names addShippingOption() to the shopper and in the console', async () => {
    const { element, detail, error } = await refused({ amount: '1.00', label: 'Tea' }, (element) => {
      element.addShippingOption({ id: 'courier', type: 'PICKUP_POINT' });
    });
    expect(detail).to.include({ code: 'invalid_order', attribute: 'addShippingOption' });
    expect(detail.message).to.match(/^addShippingOption\(\) \(option 1\): .*courier has type PICKUP_POINT/);
    expect(error).to.match(
      /^<svc-checkout> invalid_order \[attribute: addShippingOption\]: addShippingOption\(\) \(option 1\): .*or type ADDRESS\. Fix what the page passes to addShippingOption\(\) as the message says\.$/,
    );
    expect(error).to.not.contain('order attribute');
    const box = shadow(element).querySelector('[role="alert"]')!;
    expect(box.textContent).to.equal(
      'Payment is not availableThis shop cannot take payments right now. Please try again later.',
    );
    await expect(element).to.be.accessible();
  });

  it('script items in another currency than the attributes’ item: the gateway refuses the order, naming currency', async () => {
    const { detail } = await refused({ amount: '1.00', currency: 'EUR', label: 'Tea' }, (element) => {
      element.addOrderItem({ amount: '1.00', currency: 'USD', label: 'Honey' });
    });
    expect(detail).to.include({ code: 'invalid_order', attribute: 'currency' });
    expect(detail.message).to.contain('one currency');
  });

  for (const [kind, scriptTag] of [
    ['classic', (gateway: string) => `<script src="${gateway}/widget/svc-checkout.classic.js"></script>`],
    [
      'module',
      (gateway: string) => `<script type="module" src="${gateway}/widget/svc-checkout.js"></script>`,
    ],
  ] as const) {
    it(`the gateway's ${kind} script knows its gateway: a page needs no gateway attribute`, async () => {
      const { orderId, signature } = await signedOrder(info);
      const page = document.createElement('iframe');
      page.style.width = '600px';
      page.srcdoc = `<!doctype html><html lang="en"><head>${scriptTag(info.gatewayUrl)}</head><body>
        <svc-checkout widget-id="${info.widgets.checkout}" order-id="${orderId}" amount="12.50" currency="EUR"
          label="Green tea" signature="${signature}" certificate-name="${info.certificateName}"></svc-checkout>
      </body></html>`;
      document.body.append(page);
      try {
        const inner = () => page.contentDocument?.querySelector('svc-checkout') ?? null;
        await waitUntil(
          () => inner()?.shadowRoot?.querySelector('iframe'),
          'the script does not start the element',
          FRAME_WAIT,
        );
        const frame = inner()!.shadowRoot!.querySelector('iframe')!;
        expect(frame.src.startsWith(`${info.gatewayUrl}/widget/frame/`)).to.equal(true);
        await waitUntil(
          () => inner()!.getAttribute('state') === 'form',
          `no form (state ${inner()!.getAttribute('state')})`,
          FRAME_WAIT,
        );
      } finally {
        page.remove();
      }
    });
  }
});
