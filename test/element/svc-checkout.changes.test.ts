// Attribute and property changes after the start: before a payment attempt, a changed order replaces the
// frame's (one reload per task, none for an equal order); once an attempt began, the change is refused with
// one console.error and checkoutError `order_locked`, the frame and its order untouched. The frame is played
// by the test (helpers.ts); svc-checkout.gateway.test.ts replaces an order on the real gateway.
import { aTimeout, expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import {
  capturingConsoleErrors,
  consoleSettled,
  gatewayInfo,
  iframeOf,
  initOf,
  shadow,
  type TestFrame,
  testFrame,
} from './helpers.js';

/** Counts the iframes the element renders from now on (each load of the frame is a new iframe). */
function countingLoads(element: SvcCheckout): { readonly loads: number; stop(): void } {
  let loads = 0;
  const observer = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node instanceof HTMLIFrameElement) loads++;
  });
  observer.observe(shadow(element), { childList: true });
  return {
    get loads() {
      return loads;
    },
    stop: () => observer.disconnect(),
  };
}

/** The frame of the element's next load: waits for an iframe other than `previous`, and plays it. */
async function nextFrame(element: SvcCheckout, previous: HTMLIFrameElement): Promise<TestFrame> {
  await waitUntil(
    () => (shadow(element).querySelector('iframe') ?? previous) !== previous,
    'the frame does not load again',
  );
  return testFrame(element);
}

describe('<svc-checkout> changes after the start', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  /** A started element whose frame (played by the test) took its order and shows the form. */
  async function showingForm() {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      order-id="A-1"
      amount="1.00"
      label="Tea"
      signature="c2lnbmF0dXJlIEE="
    ></svc-checkout>`);
    const frame = await testFrame(element);
    frame.send({ type: 'ready' });
    const init = await frame.next('init');
    frame.send({ type: 'state', state: 'form' });
    await element.updateComplete;
    expect(element.state).to.equal('form');
    return { element, frame, init };
  }

  it('before payment: changes made in one task reload the frame once, with the new order', async () => {
    const { element, frame } = await showingForm();
    const counter = countingLoads(element);
    try {
      element.orderId = 'A-2';
      element.setAttribute('amount', '2.50');
      element.setAttribute('count', '3');
      element.signature = 'c2lnbmF0dXJlIEI=';
      element.setAttribute('email', 'anna@example.com');
      const second = await nextFrame(element, frame.iframe);
      expect(second.channel).to.not.equal(frame.channel);
      expect(element.state).to.equal('loading');
      second.send({ type: 'ready' });
      const init = await second.next('init');
      expect(init.order).to.deep.equal({
        widgetId,
        orderId: 'A-2',
        items: [{ amount: '2.50', label: 'Tea', count: '3' }],
      });
      expect(init.signature).to.equal('c2lnbmF0dXJlIEI=');
      expect(init.customer).to.deep.equal({ email: 'anna@example.com' });
      // The old frame's messages are no longer heard.
      frame.send({ type: 'state', state: 'paid' });
      second.send({ type: 'state', state: 'form' });
      await aTimeout(50);
      expect(element.state).to.equal('form');
      expect(counter.loads).to.equal(1);
      expect(shadow(element).querySelectorAll('iframe')).to.have.length(1);
    } finally {
      counter.stop();
    }
  });

  it('before payment: the order as an object (a React re-render) reloads only when it is not equal', async () => {
    const items = [{ amount: '9.99', label: 'Teapot' }];
    const element = document.createElement('svc-checkout');
    element.gateway = location.origin;
    element.widgetId = widgetId;
    element.order = { items, shippingOptions: [{ id: 'pickup', amount: '0' }] };
    element.signature = 'c2lnbmF0dXJlIEE=';
    document.body.append(element);
    try {
      const frame = await testFrame(element);
      frame.send({ type: 'ready' });
      await frame.next('init');
      frame.send({ type: 'state', state: 'form' });
      const counter = countingLoads(element);
      // New objects, equal to the ones the frame has, and the same signature.
      element.order = {
        items: [{ amount: '9.99', label: 'Teapot' }],
        shippingOptions: [{ id: 'pickup', amount: '0' }],
      };
      element.signature = 'c2lnbmF0dXJlIEE=';
      element.requestUpdate('signature', 'another');
      // `language` alone is a live update, never a reload.
      element.language = 'lv';
      expect((await frame.next('update')).language).to.equal('lv');
      await aTimeout(50);
      expect(counter.loads).to.equal(0);
      expect(shadow(element).querySelector('iframe')).to.equal(frame.iframe);
      expect(frame.received.filter((message) => message.type === 'init')).to.have.length(1);

      element.order = { items: [...items, { amount: '4.00', label: 'Cup' }] };
      const second = await nextFrame(element, frame.iframe);
      second.send({ type: 'ready' });
      const init = await second.next('init');
      expect(init.order).to.deep.equal({
        widgetId,
        language: 'lv',
        items: [
          { amount: '9.99', label: 'Teapot' },
          { amount: '4.00', label: 'Cup' },
        ],
      });
      expect(counter.loads).to.equal(1);
      counter.stop();
    } finally {
      element.remove();
    }
  });

  it('after a payment attempt began: refuses the change once, with console.error and order_locked, keeping frame and order', async () => {
    await capturingConsoleErrors(async (errors) => {
      const { element, frame, init } = await showingForm();
      const counter = countingLoads(element);
      frame.send({ type: 'state', state: 'processing' });
      const caught: CheckoutErrorEvent[] = [];
      const listener = (event: CheckoutErrorEvent) => caught.push(event);
      document.addEventListener('checkoutError', listener);
      try {
        element.amount = '5.00';
        element.signature = 'c2lnbmF0dXJlIEM=';
        await waitUntil(() => caught.length > 0, 'no checkoutError');
        expect(caught[0]!.target).to.equal(element);
        expect(caught[0]!.detail).to.deep.equal({
          code: 'order_locked',
          message: 'amount, signature: changed after a payment attempt began',
          attribute: 'amount',
        });
        await consoleSettled();
        expect(errors).to.deep.equal([
          '<svc-checkout> order_locked [attribute: amount]: amount, signature: changed after a payment attempt began. The form keeps the order it has. For a new order, render a new <svc-checkout> element (in React, with a new key).',
        ]);
        await element.updateComplete;
        expect(element.state).to.equal('processing');
        expect(shadow(element).querySelector('[role="alert"]')).to.equal(null);
        expect(shadow(element).querySelector('iframe')).to.equal(frame.iframe);

        // The attempt failed and the customer tries another card in the same frame: still locked. A
        // re-render with the refused values again says nothing more; another change is refused again.
        frame.send({ type: 'state', state: 'failed' });
        frame.send({ type: 'state', state: 'form' });
        element.requestUpdate('amount', 'another');
        await aTimeout(50);
        expect(caught).to.have.length(1);
        element.label = 'Green tea';
        await waitUntil(() => caught.length > 1, 'no second checkoutError');
        expect(caught[1]!.detail).to.include({ code: 'order_locked', attribute: 'label' });
        await consoleSettled();
        expect(errors).to.have.length(2);

        // The frame's page loads again (its own reload): it gets the order it had.
        frame.send({ type: 'ready' });
        expect((await frame.next('init')).order).to.deep.equal(init.order);
        await aTimeout(50);
        expect(counter.loads).to.equal(0);
        expect(element.state).to.equal('form');
      } finally {
        document.removeEventListener('checkoutError', listener);
        counter.stop();
      }
    });
  });

  it('after a payment: a re-render with an equal order, its members listed in another order, is no change', async () => {
    await capturingConsoleErrors(async (errors) => {
      const element = document.createElement('svc-checkout');
      element.gateway = location.origin;
      element.widgetId = widgetId;
      // As a server renders it: the order as its attribute's JSON text.
      element.setAttribute(
        'order',
        '{"items":[{"amount":"9.99","label":"Teapot","count":2}],"shippingOptions":[{"id":"pickup","amount":"0"}]}',
      );
      element.signature = 'c2lnbmF0dXJlIEE=';
      const caught: CheckoutErrorEvent[] = [];
      element.addEventListener('checkoutError', (event) => caught.push(event));
      document.body.append(element);
      try {
        const frame = await testFrame(element);
        frame.send({ type: 'ready' });
        await frame.next('init');
        frame.send({ type: 'state', state: 'form' });
        frame.send({ type: 'state', state: 'processing' });
        frame.send({ type: 'state', state: 'paid' });
        await waitUntil(() => element.state === 'paid', 'not paid');
        // The cart re-renders after the payment with the order as an object read back from its server,
        // whose members come in another order: the same order.
        element.order = {
          shippingOptions: [{ amount: '0', id: 'pickup' }],
          items: [{ count: 2, label: 'Teapot', amount: '9.99' }],
        };
        element.signature = 'c2lnbmF0dXJlIEE=';
        await aTimeout(50);
        expect(caught).to.have.length(0);
        expect(shadow(element).querySelector('iframe')).to.equal(frame.iframe);
        // A really changed order is still refused.
        element.order = { items: [{ count: 3, label: 'Teapot', amount: '9.99' }] };
        await waitUntil(() => caught.length > 0, 'no checkoutError');
        expect(caught.map((event) => event.detail.code)).to.deep.equal(['order_locked']);
        await consoleSettled();
        expect(errors).to.have.length(1);
      } finally {
        element.remove();
      }
    });
  });

  it('going back to the frame’s own order after a refusal is no change', async () => {
    await capturingConsoleErrors(async (errors) => {
      const { element, frame } = await showingForm();
      frame.send({ type: 'state', state: 'challenge' });
      element.amount = '5.00';
      await waitUntil(() => errors.length === 1, 'no refusal');
      element.amount = '1.00';
      await aTimeout(50);
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(shadow(element).querySelector('iframe')).to.equal(frame.iframe);
    });
  });

  it('an error box of an invalid order starts again with the order the page fixes', async () => {
    await capturingConsoleErrors(async (errors) => {
      const heard = oneEvent(document, 'checkoutError') as Promise<CheckoutErrorEvent>;
      const element = await fixture<SvcCheckout>(
        html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} order="{items: [}"></svc-checkout>`,
      );
      expect((await heard).detail.code).to.equal('invalid_order');
      await element.updateComplete;
      expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
      // The same mistake again (a re-render) is no news.
      element.requestUpdate('order', 'another');
      await aTimeout(50);
      await consoleSettled();
      expect(errors).to.have.length(1);

      element.order = '{"items":[{"amount":"1.00","label":"Tea"}]}';
      const init = await initOf(element);
      expect(init.order).to.deep.equal({ widgetId, items: [{ amount: '1.00', label: 'Tea' }] });
      expect(shadow(element).querySelector('[role="alert"]')).to.equal(null);
      expect(element.state).to.equal('loading');
      await consoleSettled();
      expect(errors).to.have.length(1);
    });
  });

  it('with lazy="true", changes before init() change nothing until init() sends the latest order', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      lazy="true"
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
    ></svc-checkout>`);
    element.amount = '2.00';
    await aTimeout(50);
    element.label = 'Green tea';
    await aTimeout(50);
    expect(shadow(element).querySelector('iframe')).to.equal(null);
    expect(element.state).to.equal(undefined);
    element.init();
    const counter = countingLoads(element);
    await iframeOf(element);
    expect((await initOf(element)).order.items).to.deep.equal([{ amount: '2.00', label: 'Green tea' }]);
    await aTimeout(50);
    expect(counter.loads).to.equal(1);
    counter.stop();
  });
});
