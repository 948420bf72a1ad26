// The element's side of the frame channel: which messages it accepts, what it sends, and what it makes of
// the frame's messages (state, size, the documented events, errors).
import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import type {
  CheckoutErrorEvent,
  NavigateBackToCartEvent,
  PaymentCompletedEvent,
} from '../../src/element/events.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { capturingConsoleErrors, consoleSettled, gatewayInfo, initOf, shadow, testFrame } from './helpers.js';

describe('<svc-checkout> channel', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  const checkout = (extra = html``) =>
    fixture<SvcCheckout>(html`<div>
      <svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1.00" label="Tea" order-id="A-1"
        back-to-merchant-url=${`${location.href.split('#')[0]}#cart`}></svc-checkout>${extra}
    </div>`).then((wrapper) => wrapper.querySelector('svc-checkout')!);

  /** An element a script builds and connects at once: it opens its frame then, before the start. */
  async function connectedByScript(attributes: Record<string, string>): Promise<SvcCheckout> {
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    const element = document.createElement('svc-checkout');
    for (const [name, value] of Object.entries({ gateway: location.origin, ...attributes })) {
      element.setAttribute(name, value);
    }
    wrapper.append(element);
    await element.updateComplete;
    return element;
  }

  it('ignores messages of another origin, another window or another channel', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    frame.send({ type: 'ready' }, { origin: 'http://127.0.0.1:1' });
    frame.send({ type: 'ready' }, { source: window });
    frame.send({ type: 'ready' }, { source: null });
    frame.send({ type: 'ready' }, { channel: `${frame.channel}0` });
    frame.send({ type: 'state', state: 'paid' }, { channel: 'another' });
    await aTimeout(50);
    expect(frame.received).to.deep.equal([]);
    expect(element.state).to.equal('loading');
    frame.send({ type: 'ready' });
    expect((await frame.next('init')).type).to.equal('init');
  });

  it('ignores messages that are not exactly of the channel’s shape', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { protocol: 'svc-checkout', version: 1, channel: frame.channel, type: 'ready', card: '4111' },
        origin: location.origin,
        source: frame.iframe.contentWindow,
      }),
    );
    await aTimeout(50);
    expect(frame.received).to.deep.equal([], 'a ready with a stray member is no ready');
    // Shown, with a height: a height out of bounds must leave it as it is.
    frame.send({ type: 'ready' });
    await frame.next('init');
    frame.send({ type: 'state', state: 'form' });
    frame.send({ type: 'resize', height: 432 });
    await element.updateComplete;
    expect(frame.iframe.clientHeight).to.equal(432);
    for (const height of [-5, Number.NaN, 100_001]) frame.send({ type: 'resize', height });
    await aTimeout(50);
    await element.updateComplete;
    expect(frame.iframe.clientHeight).to.equal(432);
  });

  it('shows the frame from the start, at its first view’s height until it reports its own, and reflects its state', async () => {
    // The gateway's page carries the form (issue 26): it takes the focus and typing before the frame's code runs.
    const element = await checkout();
    const frame = await testFrame(element);
    await element.updateComplete;
    expect(frame.iframe.inert).to.equal(false);
    expect(getComputedStyle(frame.iframe).position).to.equal('static');
    expect(getComputedStyle(frame.iframe).opacity).to.equal('1');
    expect(frame.iframe.style.height).to.equal('680px');
    expect(shadow(element).querySelector('[role="status"]')).to.equal(null);
    frame.send({ type: 'ready' });
    await frame.next('init');
    frame.send({ type: 'state', state: 'loading' });
    frame.send({ type: 'resize', height: 432 });
    await element.updateComplete;
    expect(element.state).to.equal('loading');
    expect(frame.iframe.clientHeight).to.equal(432);
    frame.send({ type: 'state', state: 'form' });
    await element.updateComplete;
    expect(element.state).to.equal('form');
    expect(element.getAttribute('state')).to.equal('form');
    frame.send({ type: 'resize', height: 610 });
    await element.updateComplete;
    expect(frame.iframe.clientHeight).to.equal(610);
    expect(frame.iframe.getAttribute('part')).to.equal('frame');
    expect(frame.iframe.title).to.equal('Secure payment form');
    frame.send({ type: 'state', state: 'processing' });
    expect(element.getAttribute('state')).to.equal('processing');
  });

  it('starts the compact card form at the compact first view’s height', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1.00" label="Tea" card-layout="compact"></svc-checkout>`,
    );
    const frame = await testFrame(element);
    await element.updateComplete;
    expect(frame.iframe.style.height).to.equal('512px');
  });

  it("names the page's language in the frame's address, for the gateway to serve the frame in it", async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1.00" label="Tea" language="ru-RU"></svc-checkout>`,
    );
    const frame = await testFrame(element);
    expect(new URL(frame.iframe.src).searchParams.get('lang')).to.equal('ru');
  });

  it('opens the frame as it connects, before the start, and sends it the order with what scripts added meanwhile', async () => {
    const element = await connectedByScript({ 'widget-id': widgetId });
    // Loading already, before the start (a task later): the page's scripts may still add to the order.
    const opened = shadow(element).querySelector('iframe');
    expect(opened, 'no frame before the start').to.not.equal(null);
    element.addOrderItem({ amount: '2.00', label: 'Honey' });
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const init = await frame.next('init');
    expect(init.order.items).to.deep.equal([{ amount: '2.00', label: 'Honey' }]);
    expect(frame.iframe).to.equal(opened);
    expect(shadow(element).querySelectorAll('iframe')).to.have.length(1);
  });

  it('opens another frame at the start when the widget changed after connecting, and drops the first', async () => {
    const element = await connectedByScript({
      'widget-id': 'widget-at-connection',
      amount: '1.00',
      label: 'Tea',
    });
    const opened = shadow(element).querySelector('iframe')!;
    expect(new URL(opened.src).pathname).to.equal('/widget/frame/widget-at-connection');
    element.widgetId = widgetId;
    await waitUntil(() => shadow(element).querySelector('iframe') !== opened, 'the first frame stayed');
    const frame = await testFrame(element);
    expect(new URL(frame.iframe.src).pathname).to.equal(`/widget/frame/${widgetId}`);
    expect(shadow(element).querySelectorAll('iframe')).to.have.length(1);
    frame.send({ type: 'ready' });
    expect((await frame.next('init')).order.widgetId).to.equal(widgetId);
  });

  it('drops the frame it opened when the start finds v1 mode (checkout-url set after connecting)', async () => {
    const element = await connectedByScript({ 'widget-id': widgetId });
    expect(shadow(element).querySelector('iframe')).to.not.equal(null);
    await capturingConsoleErrors(async () => {
      element.setAttribute('checkout-url', 'javascript:alert(1)');
      await waitUntil(() => element.state === 'error', `state ${element.state}`);
      await element.updateComplete;
    });
    expect(shadow(element).querySelector('iframe')).to.equal(null);
    expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
  });

  it('re-dispatches paymentCompleted with the documented detail, bubbling and composed', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const heard = oneEvent(document, 'paymentCompleted') as Promise<PaymentCompletedEvent>;
    frame.send({ type: 'paymentCompleted', orderId: 'gw-1', merchantOrderId: 'A-1', paymentSucceeded: true });
    const event = await heard;
    expect(event.target).to.equal(element);
    expect(event.bubbles && event.composed).to.equal(true);
    expect(event.detail).to.deep.equal({ orderId: 'gw-1', merchantOrderId: 'A-1', paymentSucceeded: true });

    const failed = oneEvent(element, 'paymentCompleted') as Promise<PaymentCompletedEvent>;
    frame.send({ type: 'paymentCompleted', orderId: 'gw-2', paymentSucceeded: false });
    expect((await failed).detail).to.deep.equal({
      orderId: 'gw-2',
      merchantOrderId: null,
      paymentSucceeded: false,
    });
  });

  it('fires navigateBackToCart, cancelable; unless prevented it goes to back-to-merchant-url', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const start = location.href;
    try {
      element.addEventListener('navigateBackToCart', (event) => event.preventDefault(), { once: true });
      const prevented = oneEvent(document, 'navigateBackToCart');
      frame.send({ type: 'navigateBackToCart' });
      const event = (await prevented) as NavigateBackToCartEvent;
      expect(event.cancelable && event.bubbles && event.composed).to.equal(true);
      expect(event.defaultPrevented).to.equal(true);
      expect(event.detail).to.deep.equal({ backToMerchantUrl: `${start.split('#')[0]}#cart` });
      expect(location.hash).to.equal('');

      const heard = oneEvent(element, 'navigateBackToCart');
      frame.send({ type: 'navigateBackToCart' });
      await heard;
      expect(location.hash).to.equal('#cart');
    } finally {
      history.replaceState(null, '', start);
    }
  });

  it('after a successful payment goes to success-redirect-url once the listeners ran, unless one prevented it', async () => {
    const start = location.href;
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1" label="Tea"
        success-redirect-url=${`${start.split('#')[0]}#paid`}></svc-checkout>`,
    );
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    expect((await frame.next('init')).order.successRedirectUrl).to.equal(`${start.split('#')[0]}#paid`);
    try {
      const failed = oneEvent(element, 'paymentCompleted');
      frame.send({ type: 'paymentCompleted', orderId: 'gw-1', paymentSucceeded: false });
      await failed;
      expect(location.href).to.equal(start, 'a failed payment goes nowhere');

      element.addEventListener('paymentCompleted', (event) => event.preventDefault(), { once: true });
      const prevented = oneEvent(document, 'paymentCompleted') as Promise<PaymentCompletedEvent>;
      frame.send({ type: 'paymentCompleted', orderId: 'gw-1', paymentSucceeded: true });
      const event = await prevented;
      expect(event.cancelable && event.defaultPrevented).to.equal(true);
      expect(location.href).to.equal(start, 'preventDefault() keeps the page');

      let hashInListener: string | undefined;
      document.addEventListener('paymentCompleted', () => (hashInListener = location.hash), { once: true });
      const heard = oneEvent(element, 'paymentCompleted');
      frame.send({ type: 'paymentCompleted', orderId: 'gw-1', paymentSucceeded: true });
      await heard;
      expect(hashInListener).to.equal('', 'the listeners run before the element goes');
      expect(location.hash).to.equal('#paid');
    } finally {
      history.replaceState(null, '', start);
    }
  });

  it('goes nowhere after a successful payment without success-redirect-url', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const start = location.href;
    const heard = oneEvent(element, 'paymentCompleted') as Promise<PaymentCompletedEvent>;
    frame.send({ type: 'paymentCompleted', orderId: 'gw-1', paymentSucceeded: true });
    expect((await heard).defaultPrevented).to.equal(false);
    await aTimeout(20);
    expect(location.href).to.equal(start);
  });

  it('gives navigateBackToCart a null backToMerchantUrl without back-to-merchant-url, and goes nowhere', async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1" label="Tea"></svc-checkout>`,
    );
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const start = location.href;
    const heard = oneEvent(document, 'navigateBackToCart') as Promise<NavigateBackToCartEvent>;
    frame.send({ type: 'navigateBackToCart' });
    const event = await heard;
    expect(event.detail).to.deep.equal({ backToMerchantUrl: null });
    expect(event.defaultPrevented).to.equal(false);
    await aTimeout(20);
    expect(location.href).to.equal(start);
  });

  it('shows the error view for an error of the frame, logs it once and fires checkoutError', async () => {
    await capturingConsoleErrors(async (errors) => {
      const element = await checkout();
      const frame = await testFrame(element);
      frame.send({ type: 'ready' });
      frame.send({ type: 'state', state: 'loading' });
      const heard = oneEvent(element, 'checkoutError') as Promise<CheckoutErrorEvent>;
      frame.send({
        type: 'error',
        code: 'signature_invalid',
        message: 'The signature does not match the order',
        field: 'signature',
      });
      frame.send({ type: 'state', state: 'error' });
      const event = await heard;
      expect(event.detail).to.deep.equal({
        code: 'signature_invalid',
        message: 'The signature does not match the order',
        attribute: 'signature',
      });
      expect(event.bubbles && event.composed).to.equal(true);
      await element.updateComplete;
      expect(shadow(element).querySelector('iframe')).to.equal(null);
      const alert = shadow(element).querySelector('[role="alert"]')!;
      expect(alert.textContent).to.equal(
        'Payment is not availableThis shop cannot take payments right now. Please try again later.',
      );
      expect(alert.querySelector('button')).to.equal(null);
      expect(element.state).to.equal('error');
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(errors[0])
        .to.contain('signature_invalid')
        .and.contain('signature')
        .and.contain('certificate-name');
      await expect(element).to.be.accessible();
    });
  });

  it('names the attribute behind a field of an invalid order: single-item attributes or order', async () => {
    await capturingConsoleErrors(async () => {
      const element = await checkout();
      const frame = await testFrame(element);
      frame.send({ type: 'ready' });
      const heard = oneEvent(element, 'checkoutError') as Promise<CheckoutErrorEvent>;
      frame.send({
        type: 'error',
        code: 'invalid_order',
        message: 'items[0].amount: too large',
        field: 'order.items[0].amount',
      });
      expect((await heard).detail.attribute).to.equal('amount');
      await element.updateComplete;
      expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.not.contain('attribute');
    });
  });

  it('names the script call and its item or option number for a field past the attributes’ own', async () => {
    const cases = [
      ['order.items[2].amount', 'addOrderItem', 'addOrderItem() (item 1)'],
      ['order.items[3].label', 'addOrderItem', 'addOrderItem() (item 2)'],
      ['order.items[1].label', 'order', ''],
      ['order.shippingOptions[1].id', 'addShippingOption', 'addShippingOption() (option 1)'],
      ['order.shippingOptions[0].amount', 'order', ''],
      ['order.constraints.brand', 'order', ''],
      ['order.orderId', 'order-id', ''],
    ] as const;
    for (const [field, attribute, call] of cases) {
      await capturingConsoleErrors(async (errors) => {
        const element = await fixture<SvcCheckout>(html`<svc-checkout
          lazy="true"
          gateway=${location.origin}
          widget-id=${widgetId}
          order=${JSON.stringify({
            items: [
              { amount: '1.00', label: 'Cup' },
              { amount: '2.00', label: 'Saucer' },
            ],
            shippingOptions: [{ id: 'pickup' }],
          })}
        ></svc-checkout>`);
        element.addOrderItem({ amount: '3.00', label: 'Spoon' });
        element.addOrderItem({ amount: '4.00', label: 'Fork' });
        element.addShippingOption({ id: 'courier' });
        element.init();
        const frame = await testFrame(element);
        frame.send({ type: 'ready' });
        await frame.next('init');
        const heard = oneEvent(element, 'checkoutError') as Promise<CheckoutErrorEvent>;
        frame.send({ type: 'error', code: 'invalid_order', message: 'Invalid order: it is wrong', field });
        const { detail } = await heard;
        expect(detail, field).to.deep.equal({
          code: 'invalid_order',
          message: `${call && `${call}: `}Invalid order: it is wrong`,
          attribute,
        });
        await consoleSettled();
        expect(errors).to.have.length(1);
        expect(errors[0]).to.contain(`[attribute: ${attribute}]`);
        if (call)
          expect(errors[0]).to.contain(call).and.contain(`Fix what the page passes to ${attribute}()`);
        await element.updateComplete;
        // What the page's developer fixes is on the console; the customer reads shopper words.
        expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
          'This shop cannot take payments right now. Please try again later.',
        );
      });
    }
  });

  it('sends the resolved language: the attribute, else <html lang>, else none (the merchant’s default)', async () => {
    const html_ = document.documentElement;
    const before = html_.lang;
    try {
      html_.lang = 'ru-RU';
      let element = await checkout();
      const frame = await testFrame(element);
      frame.send({ type: 'ready' });
      const init = await frame.next('init');
      expect(init.language).to.equal('ru');
      expect(init.order).to.not.have.property('language');
      expect(shadow(element).querySelector('iframe')!.title).to.equal('Защищённая форма оплаты');

      element.language = 'lv';
      expect((await frame.next('update')).language).to.equal('lv');
      await element.updateComplete;
      expect(shadow(element).querySelector('iframe')!.title).to.equal('Droša maksājuma forma');

      html_.lang = 'de';
      element = await checkout();
      expect(await initOf(element)).to.not.have.property('language');
    } finally {
      html_.lang = before;
    }
  });

  it('sends the --svc-* values the page sets, and again on refreshAppearance()', async () => {
    const element = await checkout();
    element.parentElement!.style.setProperty('--svc-color-primary', '#005f73');
    element.style.setProperty('--svc-border-radius', ' 2px ');
    element.style.setProperty('--not-ours', 'red');
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const init = await frame.next('init');
    expect(init.appearance).to.deep.equal({ '--svc-color-primary': '#005f73', '--svc-border-radius': '2px' });
    element.style.setProperty('--svc-color-primary', 'rebeccapurple');
    element.refreshAppearance();
    const update = await frame.next('update');
    expect(update.appearance?.['--svc-color-primary']).to.equal('rebeccapurple');
    expect(update).to.not.have.property('language');
  });

  it('uses the texts overrides for its own texts and passes them all to the frame', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
      language="en"
      texts=${JSON.stringify({ 'frame.title': 'Pay for your tea', 'pay.button': 'Buy for {amount}', broken: 3 })}
    ></svc-checkout>`);
    await element.updateComplete;
    expect(shadow(element).querySelector('iframe')!.title).to.equal('Pay for your tea');
    const init = await initOf(element);
    expect(init.texts).to.deep.equal({ 'frame.title': 'Pay for your tea', 'pay.button': 'Buy for {amount}' });
  });

  it('sends init again when the frame says ready again (its page reloaded)', async () => {
    const element = await checkout();
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    await frame.next('init');
    frame.send({ type: 'ready' });
    await frame.next('init');
    expect(frame.received.filter((message) => message.type === 'init')).to.have.length(2);
  });

  it('loads a new frame on a new channel when the element is moved', async () => {
    const element = await checkout();
    const first = await testFrame(element);
    first.send({ type: 'ready' });
    await first.next('init');
    const target = document.createElement('div');
    document.body.append(target);
    try {
      target.append(element);
      await element.updateComplete;
      const second = await testFrame(element);
      expect(second.channel).to.not.equal(first.channel);
      first.send({ type: 'state', state: 'paid' }, { source: second.iframe.contentWindow });
      await aTimeout(20);
      expect(element.state).to.equal('loading');
      second.send({ type: 'ready' });
      expect((await second.next('init')).order.orderId).to.equal('A-1');
    } finally {
      target.remove();
    }
  });
});
