// The merchant's terms on every widget kind, and the card schemes a widget takes: Visa and Mastercard
// unless its config (`cardSchemes`) names more. The frame refuses another card as its first digits show
// the scheme, names the schemes it takes and says so to screen readers; the gateway has the last word.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator, type Language, type OrderInput } from '../../src/core/index.js';
import {
  checkoutOrder,
  gatewayInfo,
  input,
  liveRegion,
  newOrderId,
  openForm,
  payButton,
  typeCard,
  typeInto,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');
const AMEX = '378282246310005';
const MAESTRO = '6759649826438453';

/** An order of each widget kind of the demo merchant, and what `init` sends with it. */
async function orderOf(kind: 'instant' | 'checkout' | 'fullCheckout'): Promise<{
  order: OrderInput;
  options: { signature?: undefined };
}> {
  const { widgets } = await gatewayInfo();
  if (kind === 'instant') {
    // A fixed-price widget's order is in the merchant's config: the page sends it unsigned.
    return {
      order: { widgetId: widgets.instant, orderId: newOrderId(), items: [] },
      options: { signature: undefined },
    };
  }
  if (kind === 'fullCheckout')
    return { order: await checkoutOrder({ widgetId: widgets.fullCheckout }), options: {} };
  return { order: await checkoutOrder(), options: {} };
}

function termsLink(frame: HTMLElement): HTMLAnchorElement {
  const link = frame.querySelector<HTMLAnchorElement>('.svc-terms-link a');
  if (!link) throw new Error('no terms link');
  return link;
}

describe('the terms link', () => {
  for (const kind of ['instant', 'checkout', 'fullCheckout'] as const) {
    it(`shows the merchant’s terms on the ${kind} widget, reachable from the keyboard`, async () => {
      const { order, options } = await orderOf(kind);
      const { frame } = await openForm(order, options);
      const { merchantUrl } = await gatewayInfo();
      const link = termsLink(frame);
      expect(link.href).to.equal(`${merchantUrl}/api/terms`);
      expect(link.target).to.equal('_blank');
      expect(link.rel.split(' ')).to.include.members(['noopener', 'noreferrer']);
      // Its name says what it is and that it opens a new tab; only screen readers hear the second part.
      expect(link.textContent).to.equal(`${en('terms.link')} ${en('terms.newTab')}`);
      expect(link.querySelector('.svc-visually-hidden')!.textContent).to.equal(` ${en('terms.newTab')}`);
      // The only way to agree stays the full checkout's: elsewhere the link alone.
      expect(frame.querySelector('#svc-terms') !== null).to.equal(kind === 'fullCheckout');
      input(frame, 'svc-card-holder').focus();
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement === link, 'focus not on the terms link').to.equal(true);
      await expect(frame).to.be.accessible();
    });
  }

  for (const language of ['lv', 'ru'] as const) {
    it(`names the link in ${language}`, async () => {
      const t = createTranslator(language);
      const { frame } = await openForm(await checkoutOrder(), { language });
      expect(termsLink(frame).textContent).to.equal(`${t('terms.link')} ${t('terms.newTab')}`);
      await expect(frame).to.be.accessible();
    });
  }
});

describe('card schemes', () => {
  const watch = watchFetchInEachTest();

  /** The refusal of the widget's schemes, as the frame shows it in `language`. */
  function refusal(language: Language, accepted: string): string {
    return createTranslator(language)('card.number.error.scheme_not_accepted', { accepted });
  }

  it('refuses an American Express card on a Visa and Mastercard widget as it is typed, and says why', async () => {
    const { frame } = await openForm(await checkoutOrder());
    await typeInto(frame, 'svc-card-number', '37');
    const error = refusal('en', 'Visa and Mastercard');
    await waitUntil(() => frame.querySelector('#svc-card-number-error'), 'no refusal at the second digit');
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(error);
    expect(input(frame, 'svc-card-number').getAttribute('aria-invalid')).to.equal('true');
    // Read out with the scheme, as soon as the scheme shows.
    expect(liveRegion(frame).textContent).to.equal(
      `${en('card.scheme.detected', { scheme: 'American Express' })}. ${error}`,
    );
    await typeCard(frame, { number: AMEX, cvc: '1234' });
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(error);
    await expect(frame).to.be.accessible();
    // Paying sends nothing: the focus goes to the number, and the refusal is read again.
    payButton(frame).click();
    await waitUntil(() => document.activeElement === input(frame, 'svc-card-number'), 'focus not on number');
    expect(liveRegion(frame).textContent).to.include(error);
    expect(watch.to('/payments')).to.have.length(0);
  });

  it('refuses a Maestro card from its first digit, in Latvian', async () => {
    const { frame } = await openForm(await checkoutOrder(), { language: 'lv' });
    await typeInto(frame, 'svc-card-number', '6');
    await waitUntil(() => frame.querySelector('#svc-card-number-error'), 'no refusal at the first digit');
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      refusal('lv', 'Visa un Mastercard'),
    );
    await typeInto(frame, 'svc-card-number', MAESTRO);
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      refusal('lv', 'Visa un Mastercard'),
    );
  });

  it('takes Visa and Mastercard without a word', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '5555555555554444' });
    expect(frame.querySelector('#svc-card-number-error')?.textContent).to.equal(undefined);
    payButton(frame).click();
    await channel.waitForState('paid');
  });

  it('takes American Express and Maestro where the widget’s config allows them', async () => {
    const { widgets } = await gatewayInfo();
    for (const [number, cvc] of [
      [AMEX, '1234'],
      [MAESTRO, '123'],
    ] as const) {
      const { frame, channel } = await openForm(await checkoutOrder({ widgetId: widgets.allSchemes }));
      await typeCard(frame, { number, cvc });
      expect(frame.querySelector('#svc-card-number-error')?.textContent).to.equal(undefined);
      payButton(frame).click();
      await channel.waitForState('paid');
    }
  });

  it('lets the order’s paymentScheme constraint narrow the widget’s schemes, with the narrower text', async () => {
    const { widgets } = await gatewayInfo();
    const { frame } = await openForm(
      await checkoutOrder({ widgetId: widgets.allSchemes, constraints: { paymentScheme: 'VISA' } }),
    );
    await typeInto(frame, 'svc-card-number', '37');
    await waitUntil(() => frame.querySelector('#svc-card-number-error'));
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      en('card.constraint.paymentScheme', { expected: 'Visa' }),
    );
  });

  it('shows the gateway’s refusal of a scheme in the frame’s words, should a card get past the form', async () => {
    const { frame, channel } = await openForm(await checkoutOrder());
    await typeCard(frame, { number: '4111111111111111' });
    // A form whose own check let an American Express card through (a tampered page, an older frame): the
    // gateway still holds to the widget's config.
    const fields = frame.querySelector('svc-card-fields')!;
    const check = fields.check.bind(fields);
    fields.check = () => {
      const card = check();
      return card && { ...card, number: AMEX, cvc: '1234' };
    };
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-card-number-error'), 'no refusal from the gateway');
    expect(frame.querySelector('#svc-card-number-error')!.textContent).to.equal(
      refusal('en', 'Visa and Mastercard'),
    );
    expect(watch.to('/payments')).to.have.length(1);
    expect(watch.to('/payments')[0]!.body!['card']).to.include({ number: AMEX });
    expect(liveRegion(frame).textContent).to.include(refusal('en', 'Visa and Mastercard'));
    expect(channel.states).to.not.include('paid');
    await expect(frame).to.be.accessible();
  });
});
