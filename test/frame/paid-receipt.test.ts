// A fixed-price (unsigned) page whose order id was paid, loaded again, against the real sandbox: the gateway
// answers the paid status alone, and the frame shows it paid (naming the order id: it is told nothing else of
// the order) with no form and no event. Two forms opened for one order id before paying cannot both charge.
import { expect, waitUntil } from '@open-wc/testing';
import { createTranslator, type OrderInput } from '../../src/core/index.js';
import {
  gatewayInfo,
  init,
  mountFrame,
  newOrderId,
  payButton,
  typeCard,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');

async function statusTitle(frame: HTMLElement): Promise<string> {
  await waitUntil(() => frame.querySelector('#svc-status-title'), 'no status screen', { timeout: 8000 });
  return frame.querySelector('#svc-status-title')!.textContent!.trim();
}

/** The fixed-price widget's page: it names the widget and the order id, and signs nothing. */
async function instantOrder(): Promise<OrderInput> {
  const { widgets } = await gatewayInfo();
  return { widgetId: widgets.instant, orderId: newOrderId() } as OrderInput;
}

async function openUnsigned(order: OrderInput) {
  const mounted = await mountFrame(order.widgetId);
  await init(mounted.channel, order, { signature: undefined });
  await mounted.channel.waitForState('form');
  await mounted.frame.updateComplete;
  return mounted;
}

describe('an unsigned page of an order id already paid', () => {
  const watch = watchFetchInEachTest();

  it('shows the paid status naming the order id, with no form and no paymentCompleted', async () => {
    const order = await instantOrder();
    const first = await openUnsigned(order);
    await typeCard(first.frame, { number: '4111111111111111' });
    payButton(first.frame).click();
    await first.channel.waitForState('paid');
    first.frame.remove();

    // The page loaded again: a new frame, the same order.
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order, { signature: undefined });
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(
      en('summary.orderId', { orderId: order.orderId! }),
    );
    expect(channel.states).to.deep.equal(['loading', 'paid']);
    expect(channel.types).to.not.include('paymentCompleted');
    expect(frame.querySelector('form')).to.equal(null);
    expect(watch.to('/payments')).to.have.length(1);
  });

  it('refuses the second of two forms opened before paying, and says the order can no longer be paid', async () => {
    const order = await instantOrder();
    const tabA = await openUnsigned(order);
    const tabB = await openUnsigned(order);
    await typeCard(tabA.frame, { number: '4111111111111111' });
    payButton(tabA.frame).click();
    await tabA.channel.waitForState('paid');

    await typeCard(tabB.frame, { number: '4111111111111111' });
    payButton(tabB.frame).click();
    await waitUntil(() => tabB.frame.querySelector('.svc-notice'), 'no notice', { timeout: 8000 });
    expect(tabB.frame.querySelector('.svc-notice')!.textContent!.trim()).to.equal(en('status.orderClosed'));
    expect(tabB.channel.states).to.not.include('paid');
    expect(tabB.channel.types).to.not.include('paymentCompleted');
  });
});
