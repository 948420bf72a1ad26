// Issue 24, "the frame, beside the best checkouts": an item line says which amount is the unit price and
// which the line total; the pay button never names a total that leaves out a shipping still to choose or
// price, and never charges one it did not name; the 3-D Secure step names the merchant and the amount; the
// sandbox's frame carries a test-mode mark, from its page's data.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { createTranslator, formatMoney, type Language, localeFor } from '../../src/core/index.js';
import type { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import {
  CHECKOUT_ITEMS_TOTAL,
  checkoutOrder,
  init,
  input,
  LATVIAN_POST,
  liveRegion,
  MemoryChannel,
  openForm,
  payButton,
  payIntoChallenge,
  payText,
  servedBootstrap,
  typeCard,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');
const eur = (minor: number, language: Language = 'en') => formatMoney(minor, 'EUR', localeFor(language));

describe('the frame beside the best checkouts', function () {
  // Several screens and languages in one test, on a machine that may be busy.
  this.timeout(30000);
  const watch = watchFetchInEachTest();

  it('shows a line as its quantity at its unit price and its total, and says which is which in en, lv and ru; a single piece its total alone', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    const tea = () => frame.querySelector('.svc-summary-lines li')!;
    expect(tea().querySelector('.svc-line-quantity')!.textContent).to.equal(`2 × ${eur(1250)}`);
    expect(tea().querySelector('.svc-line-total')!.textContent).to.equal(eur(2500));
    // Screen readers hear "Green tea, 2 at €12.50 each, €25.00", not the bare "2 × €12.50".
    expect(tea().querySelector('.svc-line-quantity')!.getAttribute('aria-hidden')).to.equal('true');
    expect(tea().querySelector('.svc-line-total')!.getAttribute('aria-hidden')).to.equal(null);
    // A single piece (the strainer) shows its total alone: "1 × €3.99 €3.99" would say it twice.
    const strainer = frame.querySelectorAll('.svc-summary-lines li')[1]!;
    expect(strainer.querySelector('.svc-line-quantity')!.textContent).to.equal('');
    expect(strainer.querySelector('.svc-visually-hidden')!.textContent).to.equal('');
    expect(strainer.querySelector('.svc-line-total')!.textContent).to.equal(eur(399));
    for (const language of ['en', 'lv', 'ru'] as const) {
      if (language !== 'en') {
        const before = tea();
        channel.send({ type: 'update', language });
        await waitUntil(() => tea() !== before, `the list was not built again in ${language}`);
      }
      // A count of pieces is a bare number in every language, as "× {price}" follows it.
      expect(tea().querySelector('.svc-visually-hidden')!.textContent, language).to.equal(
        createTranslator(language)('summary.line', {
          quantity: '2',
          price: eur(1250, language),
        }),
      );
    }
    await expect(frame).to.be.accessible();
  });

  it('names the shipping still to choose on the pay button, which stays focusable and says what to do', async () => {
    const { frame } = await openForm(await checkoutOrder({ shippingOptions: [LATVIAN_POST] }));
    await frame.updateComplete;
    // A single fixed-price option is chosen for the customer: nothing is missing.
    expect(payText(frame)).to.equal(en('pay.button', { amount: eur(CHECKOUT_ITEMS_TOTAL + 280) }));

    const two = await openForm(
      await checkoutOrder({
        shippingOptions: [LATVIAN_POST, { id: 'express', amount: '6.90', currency: 'EUR' }],
      }),
    );
    expect(payText(two.frame)).to.equal(en('pay.chooseShipping'));
    const button = payButton(two.frame);
    expect(button.getAttribute('aria-disabled')).to.equal('true');
    expect(button.disabled).to.equal(false);
    // Not dimmed as a payment in progress is: its words say what is missing, so they must read at 4.5:1.
    expect(getComputedStyle(button).opacity).to.equal('1');
    button.focus();
    expect(document.activeElement).to.equal(button);
    await expect(two.frame).to.be.accessible();
    await typeCard(two.frame, { number: '4111111111111111' });
    payButton(two.frame).click();
    await waitUntil(
      () => document.activeElement === input(two.frame, 'svc-shipping-option-0'),
      'focus not on the options',
    );
    expect(watch.to('/payments')).to.have.length(0);
    input(two.frame, 'svc-shipping-option-1').click();
    await waitUntil(
      () => payText(two.frame) === en('pay.button', { amount: eur(CHECKOUT_ITEMS_TOTAL + 690) }),
      payText(two.frame),
    );
    expect(payButton(two.frame).getAttribute('aria-disabled')).to.equal('false');
  });

  it('prices the shipping when pressed before its price came, and charges only once the total was shown', async () => {
    const { frame, channel } = await openForm(
      await checkoutOrder({ shippingOptions: [LATVIAN_POST, { id: 'courier', label: 'Courier' }] }),
    );
    await typeCard(frame, { number: '4111111111111111' });
    const quote = watch.holdNext('/shipping-quotes');
    input(frame, 'svc-shipping-option-1').click();
    await waitUntil(() => payText(frame) === en('pay.priceShipping'), payText(frame));
    expect(payButton(frame).getAttribute('aria-disabled')).to.equal('true');
    await expect(frame).to.be.accessible();
    payButton(frame).click();
    quote.release();
    // The demo shop prices its courier at 7.90 without an address.
    const withCourier = en('pay.button', { amount: eur(CHECKOUT_ITEMS_TOTAL + 790) });
    await waitUntil(() => payText(frame) === withCourier, payText(frame));
    await waitUntil(() => liveRegion(frame).textContent!.includes(withCourier), 'the total was not said');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(watch.to('/payments')).to.have.length(0);
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/payments')).to.have.length(1);
    expect(watch.to('/shipping-quotes')).to.have.length(1);
  });

  it('names the merchant and the amount on the 3-D Secure step', async () => {
    const order = await checkoutOrder();
    const { frame, channel } = await openForm(order);
    await payIntoChallenge(frame, channel);
    const { merchant } = (await servedBootstrap(order.widgetId)).config;
    const rows = [...frame.querySelectorAll('.svc-challenge dl > div')].map((row) => [
      row.querySelector('dt')!.textContent,
      row.querySelector('dd')!.textContent,
    ]);
    expect(rows).to.deep.equal([
      [en('threeDs.merchant'), merchant.name],
      [en('summary.total'), eur(CHECKOUT_ITEMS_TOTAL)],
    ]);
    await expect(frame).to.be.accessible();
  });

  it('carries the test-mode mark of its page on every screen, in the frame’s language, and none without one', async () => {
    const order = await checkoutOrder();
    const { testMode, ...production } = await servedBootstrap(order.widgetId);
    expect(testMode, 'the sandbox’s page names no mark').to.not.equal(undefined);
    const { frame, channel } = await openForm(order);
    const marks = () => [...frame.querySelectorAll('.svc-test-mode')].map((mark) => mark.textContent);
    expect(marks()).to.deep.equal([testMode!.en]);
    // Words in a dashed box, not colour alone, and no live region: read once, where it stands.
    expect(getComputedStyle(frame.querySelector('.svc-test-mode')!).borderTopStyle).to.equal('dashed');
    expect(frame.querySelector('.svc-test-mode')!.closest('[aria-live]')).to.equal(null);
    channel.send({ type: 'update', language: 'ru' });
    await waitUntil(() => marks()[0] === testMode!.ru, `mark: ${marks()}`);
    channel.send({ type: 'update', language: 'en' });
    await waitUntil(() => marks()[0] === testMode!.en, `mark: ${marks()}`);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    await waitUntil(() => frame.querySelector('.svc-status'), 'no status screen');
    expect(marks()).to.deep.equal([testMode!.en]);
    expect(liveRegion(frame).textContent).to.not.include(testMode!.en);
    await expect(frame).to.be.accessible();

    // A production gateway's page carries no `testMode`: no mark.
    const productionChannel = new MemoryChannel();
    const plain = await fixture<SvcPaymentFrame>(
      html`<svc-payment-frame
        .widgetId=${order.widgetId}
        .pageOrigin=${location.origin}
        .apiBase=${''}
        .bootstrap=${production}
        .channel=${productionChannel}
      ></svc-payment-frame>`,
    );
    await init(productionChannel, await checkoutOrder());
    await productionChannel.waitForState('form');
    expect(plain.querySelector('.svc-test-mode')).to.equal(null);
  });
});
