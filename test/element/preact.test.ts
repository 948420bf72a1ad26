// <svc-checkout> rendered by Preact 11 (its `h` and `render`, no JSX transform) with props as
// svc-checkout/preact types them: what src/preact.ts says Preact does with them, checked in Chromium. Objects
// reach the element as properties (not the attribute text `[object Object]`), hyphenated names as
// attributes, `lazy` as a boolean, and an `on…` prop listens to the event named by the rest of its name as
// written, while a capital after `on` is lowered (why `onPaymentCompleted` is refused by the types).
import { expect, oneEvent } from '@open-wc/testing';
import { h, render } from 'preact';
import '../../src/element/define.js';
import {
  type CheckoutErrorEvent,
  type PaymentCompletedDetail,
  PaymentCompletedEvent,
} from '../../src/element/events.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import type { SvcCheckoutProps } from '../../src/preact.js';
import { capturingConsoleErrors, gatewayInfo, initOf } from './helpers.js';

describe('<svc-checkout> rendered by Preact', () => {
  let widgetId: string;
  let container: HTMLDivElement;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    render(null, container);
    container.remove();
  });

  /** Renders `<svc-checkout>` with these props, as Preact would for the JSX the types allow. */
  function renderElement(props: SvcCheckoutProps): SvcCheckout {
    render(h('svc-checkout', props), container);
    const element = container.querySelector('svc-checkout');
    if (!element) throw new Error('Preact rendered no <svc-checkout>');
    return element;
  }

  it('sets order and texts as properties and widget-id as an attribute; the frame gets the order', async () => {
    const order = { items: [{ amount: '12.50', label: 'Tea', count: 2 }] };
    const texts = { 'loading.text': 'Brīdi…' };
    const element = renderElement({
      gateway: location.origin,
      'widget-id': widgetId,
      order,
      texts,
      'order-id': 'PREACT-1',
      class: 'checkout',
    });
    expect(element.order).to.equal(order);
    expect(element.texts).to.equal(texts);
    expect(element.hasAttribute('order'), 'order as the attribute text [object Object]').to.equal(false);
    expect(element.hasAttribute('texts')).to.equal(false);
    expect(element.getAttribute('widget-id')).to.equal(widgetId);
    expect(element.getAttribute('order-id')).to.equal('PREACT-1');
    expect(element.getAttribute('class')).to.equal('checkout');
    const init = await initOf(element);
    expect(init.order).to.deep.equal({ widgetId, orderId: 'PREACT-1', ...order });
  });

  it('sets lazy as the boolean property: true waits for init(), false (a re-render) starts', async () => {
    const props: SvcCheckoutProps = {
      gateway: location.origin,
      'widget-id': widgetId,
      amount: '1.00',
      lazy: true,
    };
    const element = renderElement(props);
    expect(element.lazy).to.equal(true);
    await element.updateComplete;
    expect(element.shadowRoot?.querySelector('iframe') ?? null).to.equal(null);
    renderElement({ ...props, lazy: false });
    expect(element.lazy).to.equal(false);
    const init = await initOf(element);
    expect(init.order).to.deep.equal({ widgetId, items: [{ amount: '1.00' }] });
  });

  it('calls oncheckoutError with the element’s real checkoutError (no widget-id)', async () => {
    const heard: CheckoutErrorEvent[] = [];
    const errors = await capturingConsoleErrors(async (logged) => {
      const fired = oneEvent(container, 'checkoutError');
      renderElement({
        gateway: location.origin,
        amount: '1.00',
        oncheckoutError: (event) => heard.push(event),
      });
      await fired;
      return logged;
    });
    expect(heard).to.have.length(1);
    expect(heard[0]!.detail.code).to.equal('missing_widget_id');
    expect(heard[0]!.target).to.equal(container.querySelector('svc-checkout'));
    expect(errors).to.have.length(1);
  });

  it('calls onpaymentCompleted for paymentCompleted; onPaymentCompleted would hear only `paymentcompleted`', () => {
    const documented: PaymentCompletedDetail[] = [];
    const capitalized: string[] = [];
    const props: SvcCheckoutProps = {
      gateway: location.origin,
      lazy: true,
      onpaymentCompleted: (event) => documented.push(event.detail),
    };
    // The spelling the types refuse (test/types/preact/preact-invalid.tsx), given here past them.
    const refused = { onPaymentCompleted: (event: Event) => capitalized.push(event.type) };
    const element = renderElement({ ...props, ...refused });
    const detail = { orderId: 'gw-1', merchantOrderId: 'PREACT-1', paymentSucceeded: true };
    element.dispatchEvent(new PaymentCompletedEvent(detail));
    expect(documented).to.deep.equal([detail]);
    expect(capitalized).to.deep.equal([]);
    element.dispatchEvent(new Event('paymentcompleted'));
    expect(capitalized).to.deep.equal(['paymentcompleted']);
    expect(documented).to.have.length(1);
  });
});
