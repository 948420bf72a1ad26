// Every state of the frame passes axe; the whole payment works with the keyboard alone; errors and state
// changes are announced; the focus goes where the customer needs it; the card fields format while typing.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator } from '../../src/core/index.js';
import type { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import {
  buttonNamed,
  checkoutOrder,
  futureExpiryDigits,
  gatewayInfo,
  init,
  input,
  liveRegion,
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

async function challenge(frame: HTMLElement, channel: MemoryChannel) {
  await payIntoChallenge(frame, channel);
  await waitUntil(
    () => document.activeElement === frame.querySelector('#svc-challenge-title'),
    'focus not on challenge',
  );
}

describe('accessibility', () => {
  const watch = watchFetchInEachTest();

  describe('every state passes axe', () => {
    it('loading', async () => {
      // The element says "loading" in its own texts and keeps the frame hidden meanwhile. A frame that has
      // not started (no bootstrap yet) has no texts, so it shows the progress mark and no text at all (never a
      // text's key).
      const frame = await fixture<SvcPaymentFrame>(
        html`<svc-payment-frame .widgetId=${(await gatewayInfo()).widgets.checkout}></svc-payment-frame>`,
      );
      expect(frame.querySelector('.svc-progress')).to.not.equal(null);
      expect(frame.textContent!.trim()).to.equal('');
      await expect(frame).to.be.accessible();
    });

    it('form', async () => {
      const { frame } = await openForm(await checkoutOrder({ orderId: newOrderId() }));
      await expect(frame).to.be.accessible();
    });

    it('form with field errors', async () => {
      const { frame } = await openForm(await checkoutOrder());
      await typeInto(frame, 'svc-card-number', '4111 1111');
      payButton(frame).click();
      await waitUntil(
        () => frame.querySelectorAll('[aria-invalid="true"]').length === 4,
        'not every field refused',
      );
      for (const id of ['svc-card-number', 'svc-card-expiry', 'svc-card-cvc', 'svc-card-holder']) {
        const field = input(frame, id);
        expect(field.getAttribute('aria-describedby')).to.include(`${id}-error`);
        expect(frame.querySelector(`#${id}-error`)!.textContent).to.not.equal('');
      }
      await expect(frame).to.be.accessible();
    });

    it('constraint refusal', async () => {
      const { frame } = await openForm(await checkoutOrder({ constraints: { paymentScheme: 'VISA' } }));
      await typeInto(frame, 'svc-card-number', '5555');
      await waitUntil(() => frame.querySelector('#svc-card-number-error'));
      await expect(frame).to.be.accessible();
    });

    it('full checkout with errors', async () => {
      const { widgets } = await gatewayInfo();
      const { frame } = await openForm({
        widgetId: widgets.fullCheckout,
        items: [{ amount: '5.00', currency: 'EUR', label: 'Tea' }],
        shippingOptions: [{ id: 'latvian-post', amount: '2.99', currency: 'EUR' }, { id: 'courier' }],
      });
      payButton(frame).click();
      await waitUntil(() => frame.querySelector('#svc-terms-error'));
      await expect(frame).to.be.accessible();
    });

    it('form with shipping still to choose (the pay button says so), with the test-mode mark', async () => {
      const { frame } = await openForm(
        await checkoutOrder({
          shippingOptions: [
            { id: 'post', amount: '2.80', currency: 'EUR' },
            { id: 'courier', currency: 'EUR' },
          ],
        }),
      );
      expect(payButton(frame).textContent!.trim()).to.equal(en('pay.chooseShipping'));
      expect(frame.querySelector('.svc-test-mode')!.textContent).to.include('sandbox');
      await expect(frame).to.be.accessible();
    });

    it('processing', async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      await typeCard(frame, { number: '4111111111111111' });
      const held = watch.holdNext('/payments');
      payButton(frame).click();
      await channel.waitForState('processing');
      await frame.updateComplete;
      expect(frame.querySelector('form')!.getAttribute('aria-busy')).to.equal('true');
      expect(input(frame, 'svc-card-number').readOnly).to.equal(true);
      await expect(frame).to.be.accessible();
      held.release();
      await channel.waitForState('paid');
    });

    it('network failure with its retry', async () => {
      const { frame } = await openForm(await checkoutOrder());
      await typeCard(frame, { number: '4111111111111111' });
      watch.loseNextAnswer('/payments', 'before-sending');
      payButton(frame).click();
      await waitUntil(() => frame.querySelector('#svc-retry'));
      await expect(frame).to.be.accessible();
    });

    it('3-D Secure', async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      await challenge(frame, channel);
      await expect(frame).to.be.accessible();
    });

    for (const [state, number] of [
      ['paid', '4111111111111111'],
      ['failed', '4000000000009995'],
    ] as const) {
      it(state, async () => {
        const { frame, channel } = await openForm(await checkoutOrder());
        await typeCard(frame, { number });
        payButton(frame).click();
        await channel.waitForState(state);
        await waitUntil(
          () => document.activeElement === frame.querySelector('#svc-status-title'),
          'focus not on status',
        );
        await expect(frame).to.be.accessible();
      });
    }

    it('cancelled', async () => {
      const { frame, channel } = await openForm(await checkoutOrder());
      buttonNamed(frame, en('pay.cancel')).click();
      await channel.waitForState('cancelled');
      await waitUntil(
        () => document.activeElement === frame.querySelector('#svc-status-title'),
        'focus not on status',
      );
      await expect(frame).to.be.accessible();
    });

    it('intake error', async () => {
      const order = await checkoutOrder();
      const { frame, channel } = await mountFrame(order.widgetId);
      await init(channel, order, { signature: 'bm90IGEgc2lnbmF0dXJl' });
      await channel.waitForState('error');
      await frame.updateComplete;
      await expect(frame).to.be.accessible();
    });
  });

  it('pays with the keyboard alone, from the first Tab to the status screen', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    (document.activeElement as HTMLElement | null)?.blur();
    const number = input(frame, 'svc-card-number');
    for (let presses = 0; presses < 10 && document.activeElement !== number; presses++) {
      await sendKeys({ press: 'Tab' });
    }
    expect(document.activeElement).to.equal(number);
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
    expect(getComputedStyle(payButton(frame)).outlineStyle).to.equal('solid');
    await sendKeys({ press: 'Enter' });
    await channel.waitForState('paid');
    await waitUntil(
      () => document.activeElement === frame.querySelector('#svc-status-title'),
      'focus not on status',
    );
    expect(document.activeElement!.textContent).to.equal(en('status.paid.title'));
  });

  it('answers 3-D Secure with the keyboard', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await challenge(frame, channel);
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement!.textContent!.trim()).to.equal(en('threeDs.approve'));
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement!.textContent!.trim()).to.equal(en('threeDs.deny'));
    await sendKeys({ press: 'Enter' });
    await channel.waitForState('failed');
  });

  it('submits with Enter from a field and focuses the first field to fix', async () => {
    const { frame } = await openForm(await checkoutOrder());
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    await typeInto(frame, 'svc-card-holder', 'Anna');
    await sendKeys({ press: 'Enter' });
    await waitUntil(() => document.activeElement === input(frame, 'svc-card-expiry'), 'focus not on expiry');
    expect(liveRegion(frame).textContent).to.include(en('card.expiry.error.empty'));
    expect(liveRegion(frame).textContent).to.include(en('card.cvc.error.empty'));
    expect(watch.to('/payments')).to.have.length(0);
  });

  it('gives the card fields their autofill names, numeric keyboards and real labels', async () => {
    const { frame } = await openForm(await checkoutOrder());
    const expected = {
      'svc-card-number': ['cc-number', 'numeric'],
      'svc-card-expiry': ['cc-exp', 'numeric'],
      'svc-card-cvc': ['cc-csc', 'numeric'],
      'svc-card-holder': ['cc-name', null],
    } as const;
    for (const [id, [autocomplete, inputmode]] of Object.entries(expected)) {
      const field = input(frame, id);
      expect(field.getAttribute('autocomplete'), id).to.equal(autocomplete);
      expect(field.getAttribute('inputmode'), id).to.equal(inputmode);
      expect(field.labels?.length, id).to.equal(1);
    }
    expect(frame.querySelector('[style]')).to.equal(null);
  });

  it('formats the card number, expiry and CVC while they are typed, and shows the scheme', async () => {
    const { frame } = await openForm(await checkoutOrder());
    await typeInto(frame, 'svc-card-number', '4111111111111111');
    expect(input(frame, 'svc-card-number').value).to.equal('4111 1111 1111 1111');
    await waitUntil(() => frame.querySelector('svg.svc-scheme-logo[role="img"]'));
    expect(frame.querySelector('svg.svc-scheme-logo')!.getAttribute('aria-label')).to.equal('Visa');
    expect(liveRegion(frame).textContent).to.equal(en('card.scheme.detected', { scheme: 'Visa' }));
    await typeInto(frame, 'svc-card-number', '378282246310005');
    expect(input(frame, 'svc-card-number').value).to.equal('3782 822463 10005');
    await typeInto(frame, 'svc-card-expiry', '1229');
    expect(input(frame, 'svc-card-expiry').value).to.equal('12/29');
    await typeInto(frame, 'svc-card-expiry', '4');
    expect(input(frame, 'svc-card-expiry').value).to.equal('04');
    await typeInto(frame, 'svc-card-cvc', '1a2b34');
    expect(input(frame, 'svc-card-cvc').value).to.equal('1234');
  });

  it('keeps the caret in place when a digit is typed inside the number', async () => {
    const { frame } = await openForm(await checkoutOrder());
    await typeInto(frame, 'svc-card-number', '41111111');
    const number = input(frame, 'svc-card-number');
    expect(number.value).to.equal('4111 1111');
    number.setSelectionRange(2, 2);
    await sendKeys({ type: '9' });
    expect(number.value).to.equal('4191 1111 1');
    expect(number.selectionStart).to.equal(3);
  });
});
