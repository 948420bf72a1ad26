// A failed payment leaves the order payable: the failed screen offers "Try another card" besides the way
// back to the shop, which brings the form back with the card fields empty and everything else as it was;
// each attempt that ends says `paymentCompleted`. And a notice about the last attempt goes as soon as the
// customer submits again.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator, type OrderInput } from '../../src/core/index.js';
import {
  buttonNamed,
  checkoutOrder,
  futureExpiryDigits,
  gatewayInfo,
  init,
  input,
  type MemoryChannel,
  mountFrame,
  newOrderId,
  openForm,
  payButton,
  payIntoChallenge,
  typeCard,
  typeInto,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');

const CARD_FIELDS = ['svc-card-number', 'svc-card-expiry', 'svc-card-cvc', 'svc-card-holder'];

/** What the frame said in `paymentCompleted`, in order. */
function completions(channel: MemoryChannel): boolean[] {
  return channel.posted.flatMap((message) =>
    message.type === 'paymentCompleted' ? [message.paymentSucceeded] : [],
  );
}

/**
 * Whether the frame has an element matching `selector`. A boolean, because chai's message for an element
 * that should not be there walks the element's object graph and never finishes.
 */
function shown(frame: HTMLElement, selector: string): boolean {
  return frame.querySelector(selector) !== null;
}

/** Resolves once the failed screen shows with its focus on the title. */
async function failedScreen(frame: HTMLElement, channel: MemoryChannel): Promise<void> {
  await channel.waitForState('failed');
  await waitUntil(
    () => document.activeElement === frame.querySelector('#svc-status-title'),
    'focus not on the failed screen',
  );
}

/** Resolves once the form is back, its focus on the card number. */
async function backOnForm(frame: HTMLElement): Promise<void> {
  await waitUntil(
    () => document.activeElement === input(frame, 'svc-card-number'),
    'focus not on the card number',
  );
}

describe('try another card', () => {
  const watch = watchFetchInEachTest();

  for (const [number, reason] of [
    ['4000000000000002', 'card_declined'],
    ['4000000000009995', 'insufficient_funds'],
  ] as const) {
    it(`after ${reason} returns to the form with empty card fields, and another card pays`, async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      await typeCard(frame, { number });
      payButton(frame).click();
      await failedScreen(frame, channel);
      expect(frame.querySelector('.svc-status-text')!.textContent).to.equal(
        en('status.failed.text', { reason: en(`status.failed.reason.${reason}`) }),
      );
      const tryAnother = buttonNamed(frame, en('status.tryAnotherCard'));
      expect(tryAnother.classList.contains('svc-button--primary')).to.equal(true);
      buttonNamed(frame, en('status.backToMerchant'));
      // The form waits behind the screen, out of sight and out of the keyboard's way.
      expect(input(frame, 'svc-card-number').checkVisibility()).to.equal(false);

      tryAnother.click();
      await backOnForm(frame);
      expect(shown(frame, '#svc-status-title'), '#svc-status-title').to.equal(false);
      for (const id of CARD_FIELDS) {
        expect(input(frame, id).value, id).to.equal('');
        expect(input(frame, id).getAttribute('aria-invalid'), id).to.equal('false');
      }
      expect(shown(frame, '.svc-notice'), '.svc-notice').to.equal(false);
      expect(channel.states).to.deep.equal(['loading', 'form', 'processing', 'failed', 'form']);

      await typeCard(frame, { number: '4111111111111111' });
      payButton(frame).click();
      await channel.waitForState('paid');
      expect(completions(channel)).to.deep.equal([false, true]);
      const ids = channel.posted.flatMap((message) =>
        message.type === 'paymentCompleted' ? [message.orderId] : [],
      );
      expect(ids[0]).to.equal(ids[1]);
      const keys = watch.to('/payments').map((request) => request.body!['idempotencyKey']);
      expect(keys).to.have.length(2);
      expect(keys[0]).to.not.equal(keys[1]);
    });
  }

  it('after a denied 3-D Secure step lets another card pay the same order', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await payIntoChallenge(frame, channel);
    buttonNamed(frame, en('threeDs.deny')).click();
    await failedScreen(frame, channel);
    expect(frame.textContent).to.include(en('status.failed.reason.authentication_failed'));
    buttonNamed(frame, en('status.tryAnotherCard')).click();
    await backOnForm(frame);
    expect(input(frame, 'svc-card-number').value).to.equal('');
    await typeCard(frame, { number: '5555555555554444' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(completions(channel)).to.deep.equal([false, true]);
    expect(channel.states).to.deep.equal([
      'loading',
      'form',
      'processing',
      'challenge',
      'failed',
      'form',
      'processing',
      'paid',
    ]);
  });

  for (const failure of ['a decline', 'a denied 3-D Secure step'] as const) {
    it(`keeps the contact and delivery data and the terms on the full checkout after ${failure}`, async () => {
      const { widgets } = await gatewayInfo();
      const order: OrderInput = {
        widgetId: widgets.fullCheckout,
        orderId: newOrderId(),
        items: [{ amount: '20.00', currency: 'EUR', label: 'Tea set' }],
        shippingOptions: [{ id: 'latvian-post', amount: '2.99', currency: 'EUR' }],
      };
      const { frame, channel } = await openForm(order, { customer: { firstName: 'Anna' } });
      input(frame, 'svc-shipping-option-0').click();
      await typeInto(frame, 'svc-delivery-address', 'Brivibas iela 1');
      await typeInto(frame, 'svc-delivery-city', 'Riga');
      await typeInto(frame, 'svc-delivery-postalCode', 'LV-1010');
      await typeInto(frame, 'svc-customer-lastName', 'Berzina');
      await typeInto(frame, 'svc-customer-email', 'anna@example.lv');
      input(frame, 'svc-terms').click();
      if (failure === 'a decline') {
        await typeCard(frame, { number: '4000000000000002' });
        payButton(frame).click();
      } else {
        // The 3-D Secure step takes the form's place too; the form must come back as it was.
        await payIntoChallenge(frame, channel);
        buttonNamed(frame, en('threeDs.deny')).click();
      }
      await failedScreen(frame, channel);

      buttonNamed(frame, en('status.tryAnotherCard')).click();
      await backOnForm(frame);
      const kept = Object.fromEntries(
        [
          'svc-customer-firstName',
          'svc-customer-lastName',
          'svc-customer-email',
          'svc-delivery-address',
          'svc-delivery-city',
          'svc-delivery-postalCode',
        ].map((id) => [id, input(frame, id).value]),
      );
      expect(kept).to.deep.equal({
        'svc-customer-firstName': 'Anna',
        'svc-customer-lastName': 'Berzina',
        'svc-customer-email': 'anna@example.lv',
        'svc-delivery-address': 'Brivibas iela 1',
        'svc-delivery-city': 'Riga',
        'svc-delivery-postalCode': 'LV-1010',
      });
      expect(input(frame, 'svc-shipping-option-0').checked).to.equal(true);
      expect(input(frame, 'svc-terms').checked).to.equal(true);
      for (const id of CARD_FIELDS) expect(input(frame, id).value, id).to.equal('');

      await typeCard(frame, { number: '4111111111111111' });
      payButton(frame).click();
      await channel.waitForState('paid');
      const [first, second] = watch.to('/payments').map((request) => request.body!);
      expect(second!['customer']).to.deep.equal(first!['customer']);
      expect(second!['shipping']).to.deep.equal(first!['shipping']);
    });
  }

  it('a reloaded frame on a failed order shows the form again, without an event, and pays', async () => {
    const order = await checkoutOrder();
    const first = await openForm(order);
    await typeCard(first.frame, { number: '4000000000000002' });
    payButton(first.frame).click();
    await first.channel.waitForState('failed');
    first.frame.remove();

    // A reload: a new load of the frame on the same order, which the gateway has as FAILED.
    const { frame, channel } = await mountFrame(order.widgetId);
    await init(channel, order);
    await channel.waitForState('form');
    await frame.updateComplete;
    expect(channel.states).to.deep.equal(['loading', 'form']);
    expect(channel.types).to.not.include('paymentCompleted');
    expect(shown(frame, '#svc-status-title'), '#svc-status-title').to.equal(false);
    expect(shown(frame, '.svc-notice'), '.svc-notice').to.equal(false);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(completions(channel)).to.deep.equal([true]);
  });

  it('the failed screen passes axe with both buttons, and another card pays with the keyboard alone', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4000000000009995' });
    payButton(frame).click();
    await failedScreen(frame, channel);
    expect([...frame.querySelectorAll('.svc-status button')].map((b) => b.textContent!.trim())).to.deep.equal(
      [en('status.tryAnotherCard'), en('status.backToMerchant')],
    );
    await expect(frame).to.be.accessible();

    await sendKeys({ press: 'Tab' });
    expect(document.activeElement!.textContent!.trim()).to.equal(en('status.tryAnotherCard'));
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement!.textContent!.trim()).to.equal(en('status.backToMerchant'));
    await sendKeys({ press: 'Shift+Tab' });
    await sendKeys({ press: 'Enter' });
    await backOnForm(frame);
    await expect(frame).to.be.accessible();

    await sendKeys({ type: '4111111111111111' });
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(input(frame, 'svc-card-expiry'));
    await sendKeys({ type: futureExpiryDigits() });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: '123' });
    await sendKeys({ press: 'Tab' });
    await sendKeys({ type: 'Anna Berzina' });
    // The merchant's terms come between the card and the pay button, on every widget kind.
    await sendKeys({ press: 'Tab' });
    expect(
      document.activeElement === frame.querySelector('.svc-terms-link a'),
      'focus not on the terms',
    ).to.equal(true);
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(payButton(frame));
    await sendKeys({ press: 'Enter' });
    await channel.waitForState('paid');
    expect(completions(channel)).to.deep.equal([false, true]);
  });
});

describe('a notice of the last attempt', () => {
  const watch = watchFetchInEachTest();

  it('goes as soon as the customer submits again, even when a field is still wrong', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4000000000000119' });
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('.svc-notice'), 'no notice', { timeout: 8000 });
    expect(frame.querySelector('.svc-notice')!.textContent).to.include(
      en('status.failed.reason.processing_error'),
    );

    // The customer corrects the card, but leaves the security code short, and submits.
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    await typeInto(frame, 'svc-card-cvc', '12');
    payButton(frame).click();
    await waitUntil(() => document.activeElement === input(frame, 'svc-card-cvc'), 'focus not on the CVC');
    await frame.updateComplete;
    expect(shown(frame, '.svc-notice'), '.svc-notice').to.equal(false);
    expect(watch.to('/payments')).to.have.length(1);

    await typeInto(frame, 'svc-card-cvc', '123');
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/payments')).to.have.length(2);
  });
});
