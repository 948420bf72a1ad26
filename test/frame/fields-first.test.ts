// Fields first (issue 13): the frame's first render is its card form, from the texts and the widget's
// configuration that its page carries, while the element sends the order and the gateway takes it; it tells
// the element `shown`, which reveals the frame. The order's summary and the pay button fill in when the
// intake answers, and no submission goes anywhere before: the intake is held here (watchFetch) while the
// customer types and tries to pay, against the real sandbox.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator } from '../../src/core/index.js';
import { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import {
  checkoutOrder,
  gatewayInfo,
  init,
  input,
  MemoryChannel,
  mountFrame,
  payButton,
  servedBootstrap,
  typeCard,
  watchFetch,
} from './harness.js';

const en = createTranslator('en');

async function shown(channel: MemoryChannel): Promise<void> {
  await waitUntil(() => channel.types.includes('shown'), 'the frame never said shown');
}

/** The frame, noting after each of its renders whether it shows the card fields. */
class FirstRenders extends SvcPaymentFrame {
  readonly renders: boolean[] = [];

  protected override updated(): void {
    this.renders.push(this.querySelector('svc-card-fields') !== null);
    super.updated();
  }
}
customElements.define('first-renders-payment-frame', FirstRenders);

describe('fields first: the card form before the order', () => {
  it('shows the card fields before init, with the pay button waiting for the order, accessibly', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId);
    await shown(channel);
    // `shown` once the card fields are there; no state yet: the element has sent no order.
    expect(channel.types.filter((type) => type !== 'resize')).to.deep.equal(['ready', 'shown']);
    const number = input(frame, 'svc-card-number');
    number.focus();
    expect(document.activeElement).to.equal(number);
    expect(payButton(frame).getAttribute('aria-disabled')).to.equal('true');
    expect(payButton(frame).textContent?.trim()).to.equal(en('pay.button', { amount: '…' }));
    expect(frame.querySelector('.svc-summary')!.textContent).to.equal(en('summary.loading'));
    await expect(frame).to.be.accessible();
  });

  it('keeps what the customer typed while the gateway took the order, and sends nothing before', async () => {
    const watch = watchFetch();
    try {
      const order = await checkoutOrder();
      const { frame, channel } = await mountFrame(order.widgetId);
      await shown(channel);
      const intake = watch.holdNext('/widget-api/v1/orders');
      await init(channel, order);
      await typeCard(frame, { number: '4111111111111111' });
      // Enter in a field and a click on the button, both before the gateway answered the intake.
      input(frame, 'svc-card-holder').focus();
      await sendKeys({ press: 'Enter' });
      payButton(frame).click();
      await frame.updateComplete;
      expect(watch.to('/payments'), 'a payment before the order was taken').to.deep.equal([]);
      expect(channel.states).to.deep.equal(['loading']);
      expect(channel.types).to.not.include('paymentCompleted');

      const cardFields = frame.querySelector('svc-card-fields');
      intake.release();
      await channel.waitForState('form');
      await frame.updateComplete;
      // The same card form, with the card as typed; the summary and the amount to pay are there now.
      expect(frame.querySelector('svc-card-fields')).to.equal(cardFields);
      expect(input(frame, 'svc-card-number').value).to.equal('4111 1111 1111 1111');
      expect(frame.querySelector('.svc-summary h2')!.textContent).to.equal(en('summary.title'));
      expect(payButton(frame).getAttribute('aria-disabled')).to.equal('false');
      expect(payButton(frame).textContent?.trim()).to.match(/^Pay €?\s?28[.,]99/);
      await expect(frame).to.be.accessible();

      payButton(frame).click();
      await channel.waitForState('paid');
      expect(watch.to('/payments')).to.have.length(1);
      expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'paid']);
    } finally {
      watch.restore();
    }
  });

  it("renders the card form first, from the gateway page's bootstrap: its language, no request", async () => {
    const lv = createTranslator('lv');
    const { widgets } = await gatewayInfo();
    const bootstrap = await servedBootstrap(widgets.checkout, 'lv');
    const pageLanguage = document.documentElement.lang;
    const channel = new MemoryChannel();
    const requests = watchFetch();
    const frame = Object.assign(new FirstRenders(), {
      widgetId: widgets.checkout,
      pageOrigin: location.origin,
      apiBase: '',
      bootstrap,
      channel,
    });
    await fixture(html`<div>${frame}</div>`);
    try {
      // Nothing to wait for: no request, no chunk.
      expect(channel.types).to.include('shown');
      expect(input(frame, 'svc-card-number')).to.not.equal(null);
      expect(requests.requests).to.deep.equal([]);
      expect(frame.renders[0]).to.equal(true, 'the first render has the card fields');
      expect(frame.querySelector('.svc-summary')!.textContent).to.equal(lv('summary.loading'));
      expect(payButton(frame).textContent?.trim()).to.equal(lv('pay.button', { amount: '…' }));
      expect(document.documentElement.lang).to.equal('lv');
    } finally {
      requests.restore();
      document.documentElement.lang = pageLanguage;
    }
  });
});
