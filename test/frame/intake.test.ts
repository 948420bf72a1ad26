// Orders the gateway does not take, and how the frame tells the element: an `error` message with the
// channel's code (and the field to fix), then the `error` state. Also the fixed-price widget's own order.
import { expect, waitUntil } from '@open-wc/testing';
import {
  checkoutOrder,
  gatewayInfo,
  init,
  mountFrame,
  newOrderId,
  openForm,
  payButton,
  typeCard,
} from './harness.js';

/**
 * The `error` message the frame sent before its `error` state. The element shows the error in its own
 * texts and removes the frame, so the frame itself shows nothing more than an empty page.
 */
async function intakeError(frame: HTMLElement, channel: Awaited<ReturnType<typeof mountFrame>>['channel']) {
  await channel.waitForState('error');
  const error = channel.posted.find((message) => message.type === 'error');
  const told = channel.types.filter((type) => type !== 'resize');
  expect(told.slice(-2)).to.deep.equal(['error', 'state']);
  expect(channel.states).to.deep.equal(['loading', 'error']);
  await waitUntil(() => !frame.querySelector('.svc-progress'), 'still loading');
  expect(frame.textContent!.trim()).to.equal('');
  return error;
}

describe('order intake', () => {
  it('reports a widget the gateway no longer knows', async () => {
    // The gateway serves no frame page for a widget it does not know; this one went after its page was served.
    const order = await checkoutOrder({ widgetId: '00000000-0000-4000-8000-00000000dead' });
    const { frame, channel } = await mountFrame(order.widgetId, {
      bootstrapOf: (await gatewayInfo()).widgets.checkout,
    });
    await init(channel, order);
    expect(await intakeError(frame, channel)).to.include({ type: 'error', code: 'unknown_widget' });
  });

  it('reports a refused signature with the field to fix', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order, { signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(await intakeError(frame, channel)).to.include({ code: 'signature_invalid', field: 'signature' });
  });

  it('reports an unknown certificate name', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order, { certificateName: 'no-such-certificate' });
    expect(await intakeError(frame, channel)).to.include({
      code: 'unknown_certificate',
      field: 'certificateName',
    });
  });

  it('reports an invalid order with the gateway’s field', async () => {
    const order = await checkoutOrder({ items: [{ amount: '1.234', currency: 'EUR', label: 'Tea' }] });
    const { frame, channel } = await mountFrame(order.widgetId);
    // Not signable either (a signature writes amounts with 2 decimals); the gateway reads the order first.
    await init(channel, order, { signature: 'bm90IGNoZWNrZWQ=' });
    const error = await intakeError(frame, channel);
    expect(error).to.include({ code: 'invalid_order', field: 'order.items[0].amount' });
  });

  it('reports an order for another widget than the frame’s', async () => {
    const { widgets } = await gatewayInfo();
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(widgets.fullCheckout);
    await init(channel, order);
    expect(await intakeError(frame, channel)).to.include({ code: 'invalid_order', field: 'order.widgetId' });
  });

  it('reports a page origin the merchant does not allow', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId, { pageOrigin: 'https://elsewhere.example' });
    await init(channel, order);
    const error = await intakeError(frame, channel);
    expect(error).to.include({ code: 'origin_not_allowed' });
    expect(error).to.have.property('message').that.includes('https://elsewhere.example');
  });

  it('reports a gateway it cannot reach', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await mountFrame(order.widgetId, { apiBase: 'http://127.0.0.1:9' });
    await init(channel, order);
    expect(await intakeError(frame, channel)).to.include({ code: 'gateway_unreachable' });
  });

  it('takes no second init: one frame load is one order', async () => {
    const order = await checkoutOrder();
    const { channel } = await openForm(order);
    await init(channel, await checkoutOrder());
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(channel.states).to.deep.equal(['loading', 'form']);
  });

  it('lists every line of a 1,000-item order in order, keeps the list through other updates, and builds it again in another language', async () => {
    const items = Array.from({ length: 1000 }, (_, index) => ({
      amount: `${(index % 97) + 1}.${String(index % 100).padStart(2, '0')}`,
      currency: 'EUR',
      label: `Item ${index + 1} <b>`,
      count: (index % 3) + 1,
    }));
    const { frame, channel } = await openForm(await checkoutOrder({ items }));
    const list = () => frame.querySelector('.svc-summary-lines')!;
    const first = list();
    const rows = [...first.children];
    expect(rows).to.have.length(1000);
    // The gateway's lines as the customer reads them; a label's markup is text, not HTML.
    expect(rows.map((row) => row.querySelector('.svc-line-label')!.textContent)).to.deep.equal(
      items.map((item) => item.label),
    );
    expect(first.querySelector('b')).to.equal(null);
    expect(rows[1]!.querySelector('.svc-line-quantity')!.textContent).to.equal('2 × €2.01');
    expect(rows[1]!.querySelector('.svc-line-total')!.textContent).to.equal('€4.02');
    expect(first.getAttribute('aria-label')).to.equal('Items');
    // Another update of the frame (a field's announcement) keeps the same list.
    await typeCard(frame, { number: '4111111111111111' });
    await frame.updateComplete;
    expect(list() === first, 'the list was built again').to.equal(true);
    channel.send({ type: 'update', language: 'lv' });
    await waitUntil(() => list() !== first, 'the list was not built again in Latvian');
    expect(list().getAttribute('aria-label')).to.equal('Preces');
    const latvianTotal = list().children[1]!.querySelector('.svc-line-total')!.textContent!;
    expect(latvianTotal.replace(/\s/g, ' ')).to.equal('4,02 €');
    expect(list().children).to.have.length(1000);
  });

  it('shows and pays the fixed order of an INSTANT widget, unsigned', async () => {
    const { widgets } = await gatewayInfo();
    const order = { widgetId: widgets.instant, orderId: newOrderId(), items: [] };
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order, { signature: undefined });
    await channel.waitForState('form');
    await frame.updateComplete;
    expect(frame.querySelector('.svc-summary-lines')!.textContent).to.include('Sandbox T-shirt');
    expect(payButton(frame).textContent!.trim()).to.equal('Pay €15.00');
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
  });
});
