// What the element does when it cannot take a payment: never a blank box, one console.error naming the
// attribute and the fix, a checkoutError event, no frame for a page set up wrong; a retry (by keyboard too)
// that loads the frame again on a new channel when the gateway was unreachable or slow.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/element/define.js';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import { SvcCheckout } from '../../src/element/svc-checkout.js';
import {
  capturingConsoleErrors,
  channelOf,
  consoleSettled,
  gatewayInfo,
  iframeOf,
  shadow,
} from './helpers.js';

/** A gateway that refuses connections at once (Chromium does not even try this port). */
const UNREACHABLE = 'http://127.0.0.1:1';

/** Connects the element (markup as given), waits for its checkoutError, and returns what it showed and logged. */
async function failing(markup: string) {
  return capturingConsoleErrors(async (errors) => {
    // Listening before the element exists: it may start (and fail) before the fixture resolves.
    const heard = oneEvent(document, 'checkoutError') as Promise<CheckoutErrorEvent>;
    const wrapper = await fixture<HTMLDivElement>(`<div>${markup}</div>`);
    const element = wrapper.querySelector('svc-checkout')!;
    const event = await heard;
    expect(event.target).to.equal(element);
    await element.updateComplete;
    await consoleSettled();
    return { element, event, errors: [...errors] };
  });
}

describe('<svc-checkout> errors', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  it('without widget-id shows the error view, logs once, fires checkoutError and loads no frame', async () => {
    const { element, event, errors } = await failing(
      `<svc-checkout gateway="${location.origin}" amount="1.00" label="Tea"></svc-checkout>`,
    );
    expect(event.detail.code).to.equal('missing_widget_id');
    expect(event.detail.attribute).to.equal('widget-id');
    expect(event.bubbles && event.composed).to.equal(true);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('missing_widget_id').and.contain('widget-id=');
    const alert = shadow(element).querySelector('[role="alert"]')!;
    expect(alert.querySelector('h2')!.textContent).to.equal('Payment is not available');
    // Shopper words only: the fix (widget-id=) is on the console.
    expect(alert.querySelector('p')!.textContent).to.equal(
      'This shop cannot take payments right now. Please try again later.',
    );
    expect(alert.textContent).to.not.contain('widget-id').and.not.contain('contact the shop');
    expect(alert.querySelector('button')).to.equal(null);
    expect(shadow(element).querySelector('iframe')).to.equal(null);
    expect(element.state).to.equal('error');
    await expect(element).to.be.accessible();
  });

  it('with white space around widget-id names widget-id, and loads no frame (the id is signed as written)', async () => {
    const { element, event, errors } = await failing(
      `<svc-checkout gateway="${location.origin}" widget-id=" ${widgetId}" amount="1.00" label="Tea"></svc-checkout>`,
    );
    expect(event.detail).to.include({ code: 'invalid_order', attribute: 'widget-id' });
    expect(event.detail.message).to.contain(`widget-id: " ${widgetId}" has white space around it`);
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('[attribute: widget-id]');
    expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.not.contain('widget-id');
    expect(shadow(element).querySelector('iframe')).to.equal(null);
  });

  it('with order JSON that does not parse names the order attribute and how to write it', async () => {
    const { element, event, errors } = await failing(
      `<svc-checkout gateway="${location.origin}" widget-id="${widgetId}" order="{items: [}"></svc-checkout>`,
    );
    expect(event.detail).to.include({ code: 'invalid_order', attribute: 'order' });
    expect(event.detail.message).to.contain('order: is not valid JSON');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('[attribute: order]').and.contain('{"items":[{"amount":"9.99"');
    expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
      'This shop cannot take payments right now. Please try again later.',
    );
    expect(shadow(element).querySelector('iframe')).to.equal(null);
  });

  it('with order JSON that is no object of order contents, or with the single-item attributes too, names order', async () => {
    for (const [order, extra, says] of [
      ['[1]', '', 'order: must be a JSON object with items'],
      ['{"items":[],"language":"lv"}', '', 'order.language: is not a member of the order JSON'],
      ['{"items":[]}', 'amount="1.00" label="Tea"', 'single-item attributes (amount, label), not both'],
    ]) {
      const { element, event, errors } = await failing(
        `<svc-checkout gateway="${location.origin}" widget-id="${widgetId}" order='${order}' ${extra}></svc-checkout>`,
      );
      expect(event.detail).to.include({ code: 'invalid_order', attribute: 'order' });
      expect(event.detail.message).to.contain(says);
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('[attribute: order]').and.contain('Fix the order attribute');
      expect(shadow(element).querySelector('iframe')).to.equal(null);
    }
  });

  it("with an order-id that differs from the order JSON's orderId names both, and loads no frame", async () => {
    const { element, event, errors } = await failing(
      `<svc-checkout gateway="${location.origin}" widget-id="${widgetId}" order-id="A-2"
        order='{"orderId":"A-1","items":[{"amount":1,"label":"Tea"}]}'></svc-checkout>`,
    );
    expect(event.detail).to.include({ code: 'invalid_order', attribute: 'order' });
    expect(event.detail.message).to.equal('order: orderId "A-1" is not order-id "A-2"');
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('[attribute: order]').and.contain('Fix the order attribute');
    expect(shadow(element).querySelector('iframe')).to.equal(null);
  });

  it('without a gateway (no attribute, no default) says so; with SvcCheckout.defaultGateway it loads from there', async () => {
    const { event, errors } = await failing(
      `<svc-checkout widget-id="${widgetId}" amount="1" label="Tea"></svc-checkout>`,
    );
    expect(event.detail).to.include({ code: 'missing_gateway', attribute: 'gateway' });
    expect(errors).to.have.length(1);
    expect(errors[0]).to.contain('gateway=');

    const bad = await failing(`<svc-checkout gateway="ftp://x" widget-id="${widgetId}"></svc-checkout>`);
    expect(bad.event.detail.message).to.contain('"ftp://x" is not an http(s) URL');

    SvcCheckout.defaultGateway = `${location.origin}/widget/svc-checkout.js`;
    try {
      const element = await fixture<SvcCheckout>(html`<svc-checkout widget-id=${widgetId}></svc-checkout>`);
      const iframe = await iframeOf(element);
      expect(iframe.src.split('?')[0]).to.equal(`${location.origin}/widget/frame/${widgetId}`);
      expect(new URL(iframe.src).hash).to.match(/^#channel=/);
      expect(new URL(iframe.src).hash).to.contain(`&origin=${encodeURIComponent(location.origin)}`);
    } finally {
      SvcCheckout.defaultGateway = undefined;
    }
  });

  it('passes axe while loading, the frame shown from the start with its title', async () => {
    // The gateway's page carries the form (issue 26), so the frame shows in place of a loading text.
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway=${location.origin} widget-id=${widgetId} amount="1" label="Tea"></svc-checkout>`,
    );
    const iframe = await iframeOf(element);
    expect(element.state).to.equal('loading');
    expect(iframe.title).to.equal('Secure payment form');
    expect(iframe.inert).to.equal(false);
    expect(shadow(element).querySelector('[role="status"]')).to.equal(null);
    await expect(element).to.be.accessible();
  });

  it('when the gateway cannot be reached offers a retry that loads a new frame on a new channel, by keyboard', async () => {
    await capturingConsoleErrors(async (errors) => {
      const element = await fixture<SvcCheckout>(
        html`<svc-checkout lazy="true" gateway=${UNREACHABLE} widget-id=${widgetId} amount="1" label="Tea"></svc-checkout>`,
      );
      // The first frame fails within a few milliseconds: note its channel as it is rendered.
      element.init();
      await element.updateComplete;
      const firstChannel = channelOf(shadow(element).querySelector('iframe')!);
      await waitUntil(() => element.state === 'error', 'no error for an unreachable gateway');
      await element.updateComplete;
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(errors[0]).to.contain('gateway_unreachable');
      const button = shadow(element).querySelector<HTMLButtonElement>('button[part="retry-button"]')!;
      expect(button.textContent).to.equal('Try again');
      expect(shadow(element).querySelector('[role="alert"]')!.textContent).to.contain('cannot be reached');
      await expect(element).to.be.accessible();

      await sendKeys({ press: 'Tab' });
      expect(shadow(element).activeElement).to.equal(button);
      await sendKeys({ press: 'Enter' });
      await element.updateComplete;
      const iframe = await iframeOf(element);
      expect(channelOf(iframe)).to.not.equal(firstChannel);
      expect(element.state).to.equal('loading');
      // The keyboard goes on into the new frame, which shows from the start.
      expect(shadow(element).activeElement).to.equal(iframe);
      await waitUntil(() => element.state === 'error', 'no error after the retry');
      await consoleSettled();
      expect(errors).to.have.length(2);
    });
  });

  it('when the frame does not say ready in time, and the gateway sees no problem, gives frame_timeout', async () => {
    const before = SvcCheckout.frameReadyTimeout;
    SvcCheckout.frameReadyTimeout = 300;
    try {
      // This origin's /widget/frame/<id> is a page that never answers; the embedding check reaches the real
      // gateway (through this origin), which allows this widget here.
      const { element, event, errors } = await failing(
        `<svc-checkout gateway="${location.origin}" widget-id="${widgetId}" amount="1" label="Tea"></svc-checkout>`,
      );
      expect(event.detail.code).to.equal('frame_timeout');
      expect(event.detail.message).to.contain('did not answer within 0.3 s');
      await consoleSettled();
      expect(errors).to.have.length(1);
      expect(shadow(element).querySelector('button[part="retry-button"]')).to.not.equal(null);
    } finally {
      SvcCheckout.frameReadyTimeout = before;
    }
  });
});
