// What looking at every screen found (issue 24, scripts/screenshots.ts), each measured here as the screenshot
// showed it: the frame at 356 px (a 390 px phone's shop page with its margins) and wider, in en, lv and ru.
import { expect, waitUntil } from '@open-wc/testing';
import { resetMouse, sendMouse } from '@web/test-runner-commands';
import {
  type CardFormSettings,
  DEFAULT_CARD_SETTINGS,
  type Language,
  type OrderInput,
} from '../../src/core/index.js';
import { checkoutOrder, gatewayInfo, input, openForm, payButton, typeInto } from './harness.js';

/** The frame's width inside a 390 px phone's shop page (16 px margins and the iframe's 1 px border). */
const PHONE = 356;

function box(element: Element): DOMRect {
  return element.getBoundingClientRect();
}

async function openAt(
  width: number,
  language: Language,
  settings: Partial<CardFormSettings> = {},
  order?: OrderInput,
) {
  const opened = await openForm(
    order ?? (await checkoutOrder()),
    { language },
    {
      cardSettings: { ...DEFAULT_CARD_SETTINGS, ...settings },
    },
  );
  opened.frame.style.width = `${width}px`;
  await opened.frame.updateComplete;
  return opened;
}

describe('what the screenshots showed', () => {
  afterEach(() => resetMouse());

  for (const language of ['en', 'lv', 'ru'] as const) {
    it(`keeps expiry and CVC level at ${PHONE} px in ${language}, whatever their labels and errors take`, async () => {
      const { frame } = await openAt(PHONE, language);
      const level = () => {
        const [expiry, cvc] = ['svc-card-expiry', 'svc-card-cvc'].map((id) => box(input(frame, id)));
        expect(cvc!.top, 'the inputs’ top edges').to.equal(expiry!.top);
        expect(cvc!.height).to.equal(expiry!.height);
      };
      level();
      // An error under one of them alone: the other input stays where it is.
      await typeInto(frame, 'svc-card-expiry', '13');
      input(frame, 'svc-card-expiry').blur();
      await waitUntil(() => frame.querySelector('#svc-card-expiry-error'), 'no expiry error');
      level();
    });
  }

  it('keeps the test-mode mark off the frame’s edges by the frame’s spacing', async () => {
    const { frame } = await openAt(PHONE, 'ru');
    const mark = box(frame.querySelector('.svc-test-mode')!);
    const edge = box(frame);
    const spacing = Number.parseFloat(getComputedStyle(frame).getPropertyValue('--svc-spacing')) || 12;
    expect(mark.top - edge.top).to.be.at.least(spacing);
    expect(mark.left - edge.left).to.be.at.least(spacing);
    expect(edge.right - mark.right).to.be.at.least(spacing);
  });

  for (const language of ['en', 'lv', 'ru'] as const) {
    it(`wraps the compact line as a whole at every width in ${language}: all three on it, or the number alone`, async () => {
      const { frame } = await openAt(320, language, { layout: 'compact' });
      for (let width = 320; width <= 560; width += 12) {
        frame.style.width = `${width}px`;
        const [number, expiry, cvc] = ['svc-card-number', 'svc-card-expiry', 'svc-card-cvc'].map((id) =>
          input(frame, id),
        );
        const line = box(number!).top;
        const oneLine = box(expiry!).top === line && box(cvc!).top === line;
        const twoLines = box(expiry!).top > box(number!).bottom && box(cvc!).top === box(expiry!).top;
        expect(oneLine || twoLines, `at ${width} px`).to.equal(true);
        // Each placeholder fits its box; the number's is not cut by the scheme marks.
        for (const field of [number!, expiry!, cvc!]) {
          const style = getComputedStyle(field);
          const text = document.createElement('canvas').getContext('2d')!;
          text.font = style.font;
          const room =
            box(field).width - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
          expect(text.measureText(field.placeholder).width, `${field.id} at ${width} px`).to.be.at.most(room);
        }
      }
    });
  }

  it('keeps each shipping option’s radio on the first line of its words, and its whole row pressable', async () => {
    const { widgets } = await gatewayInfo();
    const order = await checkoutOrder({
      widgetId: widgets.fullCheckout,
      shippingOptions: [
        { id: 'courier', currency: 'EUR', label: 'Courier' },
        { id: 'latvian-post', amount: '2.80', currency: 'EUR', label: 'Latvian Post' },
      ],
    });
    const { frame } = await openAt(PHONE, 'ru', {}, order);
    for (const option of frame.querySelectorAll('.svc-shipping-option')) {
      const radio = box(option.querySelector('input')!);
      // The name's text, not its box: the box stretches to the height of the price beside it.
      const words = document.createRange();
      words.selectNodeContents(option.querySelector('.svc-shipping-name')!);
      const firstLine = words.getClientRects()[0]!;
      const middle = firstLine.top + firstLine.height / 2;
      expect(Math.abs(radio.top + radio.height / 2 - middle), option.textContent!).to.be.at.most(1.5);
      // A press anywhere on the row chooses it: its label fills the row, its top edge too.
      option.scrollIntoView({ block: 'center' });
      const row = box(option);
      const pressed = document.elementFromPoint(row.left + row.width / 2, row.top + 3);
      expect(option.querySelector('label')!.contains(pressed), `${option.textContent} at its top`).to.equal(
        true,
      );
    }
  });

  it('sets an error apart from a hint without colour, as forced colours paint both alike', async () => {
    const { frame } = await openAt(PHONE, 'en');
    await typeInto(frame, 'svc-card-number', '4111 1111 1111 1112');
    input(frame, 'svc-card-expiry').focus();
    await waitUntil(() => frame.querySelector('#svc-card-number-error'), 'no error');
    const error = frame.querySelector('#svc-card-number-error')!;
    const hint = frame.querySelector('.svc-hint:not(.svc-visually-hidden)')!;
    const weight = (element: Element) => Number(getComputedStyle(element).fontWeight);
    expect(weight(error) - weight(hint), 'the error is bolder than the hint').to.be.at.least(200);
  });

  it('takes a click on Pay straight from a field whose error shows on leaving it', async () => {
    const { frame } = await openAt(PHONE, 'en');
    await typeInto(frame, 'svc-card-number', '4111 1111 1111 1112');
    payButton(frame).scrollIntoView({ block: 'center' });
    const pay = box(payButton(frame));
    // A real press and release: leaving the number shows its error, which moved Pay away in between.
    await sendMouse({ type: 'click', position: [Math.round(pay.left + 20), Math.round(pay.top + 4)] });
    // The submission checked every field: the empty ones say so too, and the first wrong one has the focus.
    await waitUntil(() => frame.querySelector('#svc-card-cvc-error'), 'the click on Pay was lost');
    expect(document.activeElement?.id).to.equal('svc-card-number');
  });
});
