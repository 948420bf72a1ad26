// The card block as merchants set it up (issue 24): the marks of the accepted card schemes before a digit is
// typed, named once for screen readers; the compact layout (number, expiry and CVC on one line, wrapping where
// the frame is narrow); and the cardholder's name required, optional or not asked. The settings reach the
// frame in its URL (readCardSettings), which the element writes from `card-layout` and `cardholder-name`.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import {
  type CardFormSettings,
  createTranslator,
  DEFAULT_CARD_SETTINGS,
  type Language,
} from '../../src/core/index.js';
import { readCardSettings } from '../../src/frame/frame-location.js';
import {
  checkoutOrder,
  gatewayInfo,
  input,
  liveRegion,
  openForm,
  payButton,
  typeCard,
  typeInto,
  watchFetchInEachTest,
} from './harness.js';

const en = createTranslator('en');

/** The payment form, laid out and asking for the name as `settings` say. */
function openWith(settings: Partial<CardFormSettings>, language?: Language) {
  return checkoutOrder().then((order) =>
    openForm(order, language ? { language } : {}, {
      cardSettings: { ...DEFAULT_CARD_SETTINGS, ...settings },
    }),
  );
}

/** The marks inside the card number's box. */
function marks(frame: HTMLElement): SVGElement[] {
  return [...frame.querySelectorAll<SVGElement>('#svc-card-number ~ * svg, #svc-card-number ~ svg')];
}

function box(element: Element): DOMRect {
  return element.getBoundingClientRect();
}

describe('the card block', () => {
  const watch = watchFetchInEachTest();

  describe('accepted card schemes before typing', () => {
    it('shows the marks of the schemes the widget takes, named once in the number’s description', async () => {
      const { frame } = await openWith({});
      const number = input(frame, 'svc-card-number');
      expect(marks(frame).map((mark) => mark.getAttribute('aria-hidden'))).to.deep.equal(['true', 'true']);
      // Read as the field takes the focus, not at each keystroke: the marks are hidden from screen readers.
      const hint = frame.querySelector('#svc-card-number-hint')!;
      expect(number.getAttribute('aria-describedby')).to.equal('svc-card-number-hint');
      expect(hint.textContent).to.equal(en('card.number.accepted', { accepted: 'Visa and Mastercard' }));
      expect(box(hint).width, 'the hint is for screen readers only').to.be.at.most(1);
      // Nothing runs under the marks: the box keeps room for them.
      const firstMark = box(marks(frame)[0]!);
      expect(box(number).right - Number.parseFloat(getComputedStyle(number).paddingRight)).to.be.at.most(
        firstMark.left,
      );
      await expect(frame).to.be.accessible();

      // Once the number shows its scheme, that scheme's mark alone, named; the live region says it once.
      await typeInto(frame, 'svc-card-number', '4111');
      await waitUntil(() => marks(frame).length === 1, 'not one mark once the scheme shows');
      expect(marks(frame)[0]!.getAttribute('aria-label')).to.equal('Visa');
      expect(liveRegion(frame).textContent).to.equal(en('card.scheme.detected', { scheme: 'Visa' }));
      expect(hint.textContent).to.equal(en('card.number.accepted', { accepted: 'Visa and Mastercard' }));
      await typeInto(frame, 'svc-card-number', '1111');
      expect(liveRegion(frame).textContent).to.equal(en('card.scheme.detected', { scheme: 'Visa' }));

      number.select();
      await sendKeys({ press: 'Backspace' });
      await waitUntil(() => marks(frame).length === 2, 'the accepted marks do not come back');
    });

    it('shows every scheme a widget takes, and only those the order’s constraint leaves', async () => {
      const { widgets } = await gatewayInfo();
      const all = await openForm(await checkoutOrder({ widgetId: widgets.allSchemes }));
      expect(marks(all.frame)).to.have.length(4);
      expect(all.frame.querySelector('#svc-card-number-hint')!.textContent).to.equal(
        en('card.number.accepted', { accepted: 'Visa, Mastercard, American Express and Maestro' }),
      );
      await expect(all.frame).to.be.accessible();

      const visaOnly = await openForm(await checkoutOrder({ constraints: { paymentScheme: 'VISA' } }));
      expect(marks(visaOnly.frame)).to.have.length(1);
      expect(visaOnly.frame.querySelector('#svc-card-number-hint')!.textContent).to.equal(
        en('card.number.accepted', { accepted: 'Visa' }),
      );
    });

    it('names them in Latvian and Russian', async () => {
      for (const [language, accepted] of [
        ['lv', 'Visa un Mastercard'],
        ['ru', 'Visa и Mastercard'],
      ] as const) {
        const { frame } = await openWith({}, language);
        expect(frame.querySelector('#svc-card-number-hint')!.textContent).to.equal(
          createTranslator(language)('card.number.accepted', { accepted }),
        );
      }
    });
  });

  describe('compact layout', () => {
    const fields = ['svc-card-number', 'svc-card-expiry', 'svc-card-cvc'] as const;

    it('puts number, expiry and CVC on one line, each input named by its own label', async () => {
      const { frame } = await openWith({ layout: 'compact' });
      frame.style.width = '640px';
      const [number, expiry, cvc] = fields.map((id) => input(frame, id));
      expect(box(expiry!).top).to.equal(box(number!).top);
      expect(box(cvc!).top).to.equal(box(number!).top);
      expect(box(number!).width).to.be.greaterThan(box(expiry!).width);
      for (const id of fields) {
        const label = frame.querySelector(`label[for="${id}"]`)!;
        expect(label.textContent!.trim()).to.equal(en(`card.${id.slice(9) as 'number'}.label`));
        expect(box(label).width, `${id}'s label is for screen readers`).to.be.at.most(1);
      }
      // Without its label in sight, the CVC's placeholder names it.
      expect(cvc!.placeholder).to.equal(en('card.cvc.compactPlaceholder'));
      // The holder's name stays on its own line, below.
      expect(box(input(frame, 'svc-card-holder')).top).to.be.greaterThan(box(number!).bottom);
      await expect(frame).to.be.accessible();

      // By keyboard: number, expiry, CVC, name, in that order.
      number!.focus();
      for (const next of ['svc-card-expiry', 'svc-card-cvc', 'svc-card-holder']) {
        await sendKeys({ press: 'Tab' });
        expect(document.activeElement?.id).to.equal(next);
      }
    });

    it('lists each field’s error below the line, tied to its input, and reads them out', async () => {
      const { frame } = await openWith({ layout: 'compact' });
      frame.style.width = '640px';
      await typeInto(frame, 'svc-card-number', '4111 1111 1111 1112');
      await typeInto(frame, 'svc-card-expiry', '13');
      payButton(frame).click();
      await waitUntil(
        () => document.activeElement === input(frame, 'svc-card-number'),
        'focus not on number',
      );
      const line = box(input(frame, 'svc-card-number'));
      const errors = fields.map((id) => frame.querySelector(`#${id}-error`)!);
      for (const [index, error] of errors.entries()) {
        expect(input(frame, fields[index]!).getAttribute('aria-describedby')).to.include(error.id);
        expect(box(error).top).to.be.at.least(line.bottom);
        expect(liveRegion(frame).textContent).to.include(error.textContent!.trim());
      }
      // One under the other, each on its own line.
      expect(box(errors[1]!).top).to.be.at.least(box(errors[0]!).bottom);
      expect(box(errors[2]!).top).to.be.at.least(box(errors[1]!).bottom);
      expect(watch.to('/payments')).to.have.length(0);
      await expect(frame).to.be.accessible();
    });

    for (const language of ['en', 'lv', 'ru'] as const) {
      it(`wraps at 320 px in ${language}: the number on its line, expiry and CVC on the next`, async () => {
        const { frame } = await openWith({ layout: 'compact' }, language);
        frame.style.width = '320px';
        const [number, expiry, cvc] = fields.map((id) => input(frame, id));
        expect(box(expiry!).top).to.be.greaterThan(box(number!).bottom);
        expect(box(cvc!).top).to.equal(box(expiry!).top);
        for (const element of [number!, expiry!, cvc!]) {
          expect(box(element).right).to.be.at.most(box(frame).right);
        }
        expect(frame.scrollWidth).to.be.at.most(frame.clientWidth);
        // The placeholders fit their boxes.
        for (const element of [expiry!, cvc!]) {
          const padding = Number.parseFloat(getComputedStyle(element).paddingLeft) * 2;
          const text = document.createElement('canvas').getContext('2d')!;
          text.font = getComputedStyle(element).font;
          expect(text.measureText(element.placeholder).width + padding).to.be.at.most(box(element).width);
        }
        await expect(frame).to.be.accessible();
      });
    }

    it('pays', async () => {
      const { frame, channel } = await openWith({ layout: 'compact' });
      await typeCard(frame, { number: '4111111111111111' });
      payButton(frame).click();
      await channel.waitForState('paid');
    });
  });

  describe('the cardholder’s name', () => {
    it('required, as before: an empty name is refused', async () => {
      const { frame } = await openWith({});
      const holder = input(frame, 'svc-card-holder');
      expect(holder.required).to.equal(true);
      await typeCard(frame, { number: '4111111111111111', holder: ' ' });
      payButton(frame).click();
      await waitUntil(() => frame.querySelector('#svc-card-holder-error'), 'no error for the empty name');
      expect(watch.to('/payments')).to.have.length(0);
    });

    it('optional: marked so, and a payment without it goes through', async () => {
      const { frame, channel } = await openWith({ holder: 'optional' }, 'lv');
      const holder = input(frame, 'svc-card-holder');
      const lv = createTranslator('lv');
      expect(holder.required).to.equal(false);
      expect(
        frame.querySelector('label[for="svc-card-holder"]')!.textContent!.replace(/\s+/g, ' ').trim(),
      ).to.equal(`${lv('card.holder.label')} (${lv('field.optional')})`);
      await expect(frame).to.be.accessible();
      await typeCard(frame, { number: '4111111111111111', holder: ' ' });
      payButton(frame).click();
      await channel.waitForState('paid');
      expect(frame.querySelector('#svc-card-holder-error')).to.equal(null);
      expect((watch.to('/payments')[0]!.body!['card'] as { holder: string }).holder).to.equal('');
    });

    it('hidden: no name field, and the payment goes without a name', async () => {
      const { frame, channel } = await openWith({ holder: 'hidden', layout: 'compact' });
      expect(frame.querySelector('#svc-card-holder')).to.equal(null);
      await expect(frame).to.be.accessible();
      await typeInto(frame, 'svc-card-number', '4111111111111111');
      await typeInto(frame, 'svc-card-expiry', `12${String((new Date().getFullYear() + 3) % 100)}`);
      await typeInto(frame, 'svc-card-cvc', '123');
      // From the CVC, the keyboard goes on past the merchant's terms to the pay button (compared as booleans:
      // a failure that printed the elements would not end).
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement === frame.querySelector('.svc-terms-link a'), 'not on terms').to.equal(
        true,
      );
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement === payButton(frame), 'not on the pay button').to.equal(true);
      await sendKeys({ press: 'Enter' });
      await channel.waitForState('paid');
    });
  });

  describe('settings from the frame’s URL', () => {
    const hash = '#channel=0123456789abcdef&origin=https%3A%2F%2Fshop.example';

    it('reads card-layout and cardholder-name; without them, the form as it always was', () => {
      expect(readCardSettings(hash)).to.deep.equal({ layout: 'stacked', holder: 'required' });
      expect(readCardSettings(`${hash}&card-layout=&cardholder-name=`)).to.deep.equal(DEFAULT_CARD_SETTINGS);
      expect(readCardSettings(`${hash}&card-layout=compact&cardholder-name=hidden`)).to.deep.equal({
        layout: 'compact',
        holder: 'hidden',
      });
      expect(readCardSettings(`${hash}&cardholder-name=optional`).holder).to.equal('optional');
    });

    it('reads them from the query, as the gateway did for its first view; from the hash of an earlier element', () => {
      const query = '?fields=0&lang=en&card-layout=compact&cardholder-name=optional';
      expect(readCardSettings(query, `${hash}&card-layout=stacked&cardholder-name=hidden`)).to.deep.equal({
        layout: 'compact',
        holder: 'optional',
      });
      expect(readCardSettings('?fields=0&lang=en', `${hash}&card-layout=compact`)).to.deep.equal({
        layout: 'compact',
        holder: 'required',
      });
    });

    it('names a value it does not know in the console, with what to write, and keeps the default', () => {
      const warnings: string[] = [];
      const warn = console.warn;
      console.warn = (message: string) => warnings.push(message);
      try {
        expect(readCardSettings(`${hash}&card-layout=Compact&cardholder-name=none`)).to.deep.equal(
          DEFAULT_CARD_SETTINGS,
        );
      } finally {
        console.warn = warn;
      }
      expect(warnings).to.deep.equal([
        '<svc-checkout> card-layout="Compact": write one of stacked, compact (stacked applies)',
        '<svc-checkout> cardholder-name="none": write one of required, optional, hidden (required applies)',
      ]);
    });
  });
});
