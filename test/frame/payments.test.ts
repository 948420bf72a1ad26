// Payments through the frame against the real sandbox: the test cards' outcomes, 3-D Secure, retries,
// cancellation, and the guarantees around them (one attempt at a time, nothing charged twice, the
// documented event before the status screen, no card data in any message).
import { expect, waitUntil } from '@open-wc/testing';
import { createTranslator } from '../../src/core/index.js';
import {
  buttonNamed,
  checkoutOrder,
  init,
  input,
  liveRegion,
  mountFrame,
  openForm,
  payButton,
  payIntoChallenge,
  typeCard,
  typeInto,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');

/** Resolves once the frame shows the status screen with this title. */
async function statusTitle(frame: HTMLElement): Promise<string> {
  await waitUntil(() => frame.querySelector('#svc-status-title'), 'no status screen', { timeout: 8000 });
  return frame.querySelector('#svc-status-title')!.textContent!.trim();
}

describe('payments', () => {
  const watch = watchFetchInEachTest();

  for (const [name, number] of [
    ['Visa', '4111111111111111'],
    ['Mastercard', '5555555555554444'],
  ] as const) {
    it(`pays with an approved ${name} card and says paymentCompleted before the paid state`, async () => {
      const order = await checkoutOrder();
      const { frame, channel } = await openForm(order);
      expect(payButton(frame).textContent!.trim()).to.equal('Pay €28.99');
      await typeCard(frame, { number });
      payButton(frame).click();
      expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
      expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(
        en('status.paid.text', { amount: '€28.99' }),
      );
      const gatewayId = watch.to('/payments')[0]!.url.split('/orders/')[1]!.split('/')[0];
      const completed = channel.posted.findIndex((message) => message.type === 'paymentCompleted');
      const paid = channel.posted.findIndex(
        (message) => message.type === 'state' && message.state === 'paid',
      );
      expect(completed).to.be.greaterThan(-1);
      expect(completed).to.be.lessThan(paid);
      expect(channel.posted[completed]).to.deep.equal({
        type: 'paymentCompleted',
        orderId: gatewayId,
        merchantOrderId: order.orderId,
        paymentSucceeded: true,
      });
      expect(channel.types[0]).to.equal('ready');
      expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'paid']);
      // The status screen has no way back: the order is paid.
      expect(frame.querySelectorAll('button')).to.have.length(0);
    });
  }

  it('leaves merchantOrderId out when the page gave no order id', async () => {
    const order = await checkoutOrder({ orderId: undefined });
    delete order.orderId;
    const { frame, channel } = await openForm(order);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    const completed = channel.posted.find((message) => message.type === 'paymentCompleted');
    expect(completed).to.have.keys(['type', 'orderId', 'paymentSucceeded']);
  });

  for (const [number, reason] of [
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ] as const) {
    it(`shows the failed screen with the reason for ${reason}, and the way back to the shop`, async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      await typeCard(frame, { number });
      payButton(frame).click();
      expect(await statusTitle(frame)).to.equal(en('status.failed.title'));
      expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(
        en('status.failed.text', { reason: en(`status.failed.reason.${reason}`) }),
      );
      const completed = channel.posted.findIndex((message) => message.type === 'paymentCompleted');
      expect(channel.posted[completed]).to.include({ paymentSucceeded: false });
      expect(channel.posted[completed + 1]).to.deep.equal({ type: 'state', state: 'failed' });
      buttonNamed(frame, en('status.backToMerchant')).click();
      expect(channel.posted.at(-1)).to.deep.equal({ type: 'navigateBackToCart' });
    });
  }

  it('walks through 3-D Secure and pays when the customer approves', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await payIntoChallenge(frame, channel);
    expect(frame.querySelector('#svc-challenge-title')!.textContent!.trim()).to.equal(en('threeDs.title'));
    expect(frame.textContent).to.include(en('threeDs.sandboxExplanation'));
    expect(channel.posted.some((message) => message.type === 'paymentCompleted')).to.equal(false);
    buttonNamed(frame, en('threeDs.approve')).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'challenge', 'paid']);
    expect(watch.to('/challenges/')[0]!.body).to.deep.equal({ approve: true });
  });

  it('fails with the issuer’s refusal when the customer denies 3-D Secure', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await payIntoChallenge(frame, channel);
    buttonNamed(frame, en('threeDs.deny')).click();
    expect(await statusTitle(frame)).to.equal(en('status.failed.title'));
    expect(frame.textContent).to.include(en('status.failed.reason.authentication_failed'));
    expect(channel.posted.find((message) => message.type === 'paymentCompleted')).to.include({
      paymentSucceeded: false,
    });
  });

  it('after a processing error shows the reason and pays again with a new idempotency key', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4000000000000119' });
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('.svc-notice'), 'no notice', { timeout: 8000 });
    expect(frame.querySelector('.svc-notice')!.textContent).to.include(
      en('status.failed.reason.processing_error'),
    );
    expect(liveRegion(frame).textContent).to.include(en('status.failed.reason.processing_error'));
    expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'form']);
    expect(channel.posted.some((message) => message.type === 'paymentCompleted')).to.equal(false);
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    payButton(frame).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    const keys = watch.to('/payments').map((request) => request.body!['idempotencyKey']);
    expect(keys).to.have.length(2);
    expect(keys[0]).to.not.equal(keys[1]);
  });

  it('refuses a Mastercard on a Visa-only order before anything is sent, and says why', async () => {
    const { frame } = await openForm(await checkoutOrder({ constraints: { paymentScheme: 'VISA' } }));
    await typeInto(frame, 'svc-card-number', '55');
    await frame.updateComplete;
    const number = input(frame, 'svc-card-number');
    expect(number.getAttribute('aria-invalid')).to.equal('true');
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      en('card.constraint.paymentScheme', { expected: 'Visa' }),
    );
    await typeCard(frame, { number: '5555555555554444' });
    payButton(frame).click();
    await waitUntil(() => document.activeElement === number, 'focus did not go to the card number');
    expect(watch.to('/payments')).to.have.length(0);
    expect(liveRegion(frame).textContent).to.include(
      en('card.constraint.paymentScheme', { expected: 'Visa' }),
    );
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    await frame.updateComplete;
    expect(number.getAttribute('aria-invalid')).to.equal('false');
    payButton(frame).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
  });

  it('names the brand constraint when the gateway refuses a card it cannot judge from the number', async () => {
    const { frame } = await openForm(await checkoutOrder({ constraints: { brand: 'VISA ELECTRON' } }));
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-card-number-error'), 'no error', { timeout: 8000 });
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      en('card.constraint.brand', { expected: 'VISA ELECTRON' }),
    );
    expect(document.activeElement).to.equal(input(frame, 'svc-card-number'));
    await typeInto(frame, 'svc-card-number', '4000056655665556');
    payButton(frame).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
  });

  it('makes one attempt for a double click and for Enter pressed while it runs', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4111111111111111' });
    const held = watch.holdNext('/payments');
    payButton(frame).click();
    payButton(frame).click();
    await channel.waitForState('processing');
    await frame.updateComplete;
    expect(payButton(frame).getAttribute('aria-disabled')).to.equal('true');
    expect(payButton(frame).textContent!.trim()).to.equal(en('pay.processing'));
    frame.querySelector('form')!.requestSubmit();
    buttonNamed(frame, en('pay.cancel')).click();
    held.release();
    await channel.waitForState('paid');
    expect(watch.to('/payments')).to.have.length(1);
    expect(watch.to('/cancel')).to.have.length(0);
  });

  it('after a lost answer asks the gateway first, and shows the payment that did go through', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4111111111111111' });
    watch.loseNextAnswer('/payments', 'after-sending');
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-retry'), 'no retry button', { timeout: 8000 });
    expect(frame.querySelector('.svc-notice')!.textContent).to.include(en('status.networkError'));
    expect(document.activeElement).to.equal(frame.querySelector('#svc-retry'));
    expect(frame.querySelector('button.svc-pay')).to.equal(null);
    expect(channel.posted.some((message) => message.type === 'paymentCompleted')).to.equal(false);
    const orderId = watch.to('/payments')[0]!.url.split('/orders/')[1]!.split('/')[0]!;
    expect(sessionStorage.getItem(`svc-checkout.attempt.${orderId}`)).to.equal(
      watch.to('/payments')[0]!.body!['idempotencyKey'],
    );
    (frame.querySelector('#svc-retry') as HTMLButtonElement).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(watch.to('/payments')).to.have.length(1);
    expect(watch.requests.at(-1)).to.include({ method: 'GET' });
    expect(sessionStorage.getItem(`svc-checkout.attempt.${orderId}`)).to.equal(null);
  });

  it('after a request that never arrived sends it again with the same idempotency key', async () => {
    const { frame } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4111111111111111' });
    watch.loseNextAnswer('/payments', 'before-sending');
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-retry'), 'no retry button', { timeout: 8000 });
    (frame.querySelector('#svc-retry') as HTMLButtonElement).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    const payments = watch.to('/payments');
    expect(payments).to.have.length(2);
    expect(payments[0]!.body!['idempotencyKey']).to.equal(payments[1]!.body!['idempotencyKey']);
    const methods = watch.requests.slice(-2).map((request) => request.method);
    expect(methods).to.deep.equal(['GET', 'POST']);
  });

  it('shows a paid order again after a reload instead of charging it twice', async () => {
    const order = await checkoutOrder();
    const first = await openForm(order);
    await typeCard(first.frame, { number: '4111111111111111' });
    watch.loseNextAnswer('/payments', 'after-sending');
    payButton(first.frame).click();
    await waitUntil(() => first.frame.querySelector('#svc-retry'), 'no retry button', { timeout: 8000 });
    first.frame.remove();

    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order);
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(channel.states).to.deep.equal(['loading', 'paid']);
    expect(watch.to('/payments')).to.have.length(1);
  });

  it('says paymentCompleted once: a load that finds the order ended shows it without the event', async () => {
    const order = await checkoutOrder();
    const first = await openForm(order);
    await typeCard(first.frame, { number: '4111111111111111' });
    payButton(first.frame).click();
    await first.channel.waitForState('paid');
    expect(first.channel.types.filter((type) => type === 'paymentCompleted')).to.have.length(1);
    first.frame.remove();

    // A reload, a retry or a moved element: a new load of the frame on the same order.
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order);
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(channel.states).to.deep.equal(['loading', 'paid']);
    expect(channel.types).to.not.include('paymentCompleted');
  });

  it('keeps what was sent while a lost answer is in doubt: no changes, and the retry sends the same', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4111111111111111' });
    watch.loseNextAnswer('/payments', 'before-sending');
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-retry'), 'no retry button', { timeout: 8000 });
    await frame.querySelector('svc-card-fields')!.updateComplete;
    const number = input(frame, 'svc-card-number');
    const sent = number.value;
    for (const id of ['svc-card-number', 'svc-card-expiry', 'svc-card-cvc', 'svc-card-holder']) {
      expect(input(frame, id).readOnly, `${id} is read-only`).to.equal(true);
    }
    expect(buttonNamed(frame, en('pay.cancel')).getAttribute('aria-disabled')).to.equal('true');
    await typeInto(frame, 'svc-card-number', '5555555555554444');
    expect(number.value).to.equal(sent);
    const retry = frame.querySelector<HTMLButtonElement>('#svc-retry')!;
    retry.click();
    retry.click();
    frame.querySelector('form')!.requestSubmit();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    const payments = watch.to('/payments');
    expect(payments).to.have.length(2);
    expect(payments[1]!.body!['idempotencyKey']).to.equal(payments[0]!.body!['idempotencyKey']);
    expect(payments[1]!.body!['card']).to.deep.equal(payments[0]!.body!['card']);
    expect(
      watch.requests.filter((request) => request.method === 'GET' && /\/orders\/[^/]+$/.test(request.url)),
    ).to.have.length(1);
    expect(channel.types.filter((type) => type === 'paymentCompleted')).to.have.length(1);
  });

  it('shows the open 3-D Secure challenge again after a reload, and pays when it is approved', async () => {
    const order = await checkoutOrder();
    const first = await openForm(order);
    await typeCard(first.frame, { number: '4000000000003220' });
    payButton(first.frame).click();
    await first.channel.waitForState('challenge');
    first.frame.remove();

    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order);
    await channel.waitForState('challenge');
    await waitUntil(
      () => document.activeElement === frame.querySelector('#svc-challenge-title'),
      'focus not on the challenge',
    );
    expect(channel.states).to.deep.equal(['loading', 'challenge']);
    buttonNamed(frame, en('threeDs.approve')).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(watch.to('/payments')).to.have.length(1);
    expect(watch.to('/challenges/')).to.have.length(1);
  });

  it('after a lost answer to the challenge asks the gateway, and shows the payment it approved', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await payIntoChallenge(frame, channel);
    watch.loseNextAnswer('/challenges/', 'after-sending');
    buttonNamed(frame, en('threeDs.approve')).click();
    await waitUntil(() => frame.querySelector('.svc-challenge .svc-notice'), 'no network notice');
    expect(frame.querySelector('.svc-challenge .svc-notice')!.textContent).to.include(
      en('status.networkError'),
    );
    expect(liveRegion(frame).textContent).to.include(en('status.networkError'));
    expect(channel.posted.some((message) => message.type === 'paymentCompleted')).to.equal(false);
    buttonNamed(frame, en('status.retry')).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
    expect(watch.to('/challenges/')).to.have.length(1);
    expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'challenge', 'paid']);
  });

  it('after a lost answer to a cancellation asks the gateway, and shows the cancelled order', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    watch.loseNextAnswer('/cancel', 'after-sending');
    buttonNamed(frame, en('pay.cancel')).click();
    await waitUntil(() => frame.querySelector('#svc-retry'), 'no retry button');
    expect(document.activeElement).to.equal(frame.querySelector('#svc-retry'));
    (frame.querySelector('#svc-retry') as HTMLButtonElement).click();
    expect(await statusTitle(frame)).to.equal(en('status.cancelled.title'));
    expect(watch.to('/cancel')).to.have.length(1);
    expect(channel.states.at(-1)).to.equal('cancelled');
  });

  it('shows the sandbox’s own words when the number is no test card', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    // A Visa number with a right check digit, but none of the sandbox's test cards.
    await typeCard(frame, { number: '4242424242424242' });
    payButton(frame).click();
    const number = input(frame, 'svc-card-number');
    await waitUntil(() => document.activeElement === number, 'focus did not go to the card number');
    const error = frame.querySelector('#svc-card-number-error')!.textContent!;
    expect(error).to.include('test cards only');
    expect(error).to.not.equal(en('card.number.error.luhn_failed'));
    expect(number.getAttribute('aria-invalid')).to.equal('true');
    expect(number.getAttribute('aria-describedby')).to.include('svc-card-number-error');
    expect(liveRegion(frame).textContent).to.include('test cards only');
    expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'form']);
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    payButton(frame).click();
    expect(await statusTitle(frame)).to.equal(en('status.paid.title'));
  });

  it('cancels the payment, then offers the way back to the shop', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    buttonNamed(frame, en('pay.cancel')).click();
    expect(await statusTitle(frame)).to.equal(en('status.cancelled.title'));
    expect(channel.states.at(-1)).to.equal('cancelled');
    expect(channel.posted.some((message) => message.type === 'paymentCompleted')).to.equal(false);
    buttonNamed(frame, en('status.backToMerchant')).click();
    expect(channel.posted.at(-1)).to.deep.equal({ type: 'navigateBackToCart' });
  });

  it('reports its height, rounded up, whenever it changes', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    const heights = () =>
      channel.posted.flatMap((message) => (message.type === 'resize' ? [message.height] : []));
    await waitUntil(
      () => heights().at(-1) === Math.ceil(frame.getBoundingClientRect().height),
      'height not reported',
    );
    expect(heights().every(Number.isInteger)).to.equal(true);
    const before = heights().length;
    await typeInto(frame, 'svc-card-number', '4111');
    input(frame, 'svc-card-number').dispatchEvent(new Event('change'));
    await waitUntil(() => heights().length > before, 'the error line did not change the height');
    expect(heights().at(-1)).to.equal(Math.ceil(frame.getBoundingClientRect().height));
  });

  it('never puts card data in a message, in storage or in a URL', async () => {
    const number = '4000000000003220';
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number, cvc: '987', holder: 'Secret Holder' });
    payButton(frame).click();
    await channel.waitForState('challenge');
    await waitUntil(() => frame.querySelector('#svc-challenge-title'));
    buttonNamed(frame, en('threeDs.approve')).click();
    await channel.waitForState('paid');
    // The ids are the gateway's and the merchant's random ones, which may hold any digits by chance.
    const everything = JSON.stringify(
      channel.posted.map((message) =>
        message.type === 'paymentCompleted' ? { ...message, orderId: 'id', merchantOrderId: 'id' } : message,
      ),
    );
    for (const secret of [number, '4000 0000 0000 3220', '3220', '987', 'Secret Holder']) {
      expect(everything).to.not.include(secret);
    }
    const stored = JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage });
    expect(stored).to.not.include(number);
    for (const request of watch.requests) expect(request.url).to.not.match(/4000000000003220|Secret/);
    expect(location.href).to.not.include(number);
    // The only request that carried the card is the payment, in its body.
    const carriers = watch.requests.filter((request) => JSON.stringify(request.body ?? {}).includes(number));
    expect(carriers.map((request) => request.url)).to.have.length(1);
    expect(carriers[0]!.url).to.match(/\/payments$/);
  });
});
