// The payment frame passes the raised accessibility check in its states, beyond axe (accessibility.test.ts):
// every control's focus ring has 3:1 against the colours beside it (WCAG 1.4.11), every button and field
// shows a boundary in forced colours, Latvian and Russian fit 320 px without sideways scrolling, also with
// WCAG text spacing (1.4.10, 1.4.12), nothing moves with reduced motion, and targets are 24 px or more.
// The checks are the shared probe's (test/support/accessibility-probe.js), as for the picker and the hosted page.
import '../support/accessibility-probe.js';
import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import type { SvcPaymentFrame } from '../../src/frame/payment-frame.js';
import type { Problems } from '../support/accessibility-probe.js';
import { problemsByState } from '../support/problems-by-state.js';
import { checkoutOrder, gatewayInfo, openForm, payButton, payIntoChallenge, typeCard } from './harness.js';

type Language = 'en' | 'lv' | 'ru';

const probe = globalThis.svcAccessibilityProbe;

/** Pays with `number` and waits for the status screen of `state`. */
async function paid(language: Language, number: string, state: 'paid' | 'failed'): Promise<SvcPaymentFrame> {
  const { frame, channel } = await openForm(await checkoutOrder(), { language });
  await typeCard(frame, { number });
  payButton(frame).click();
  await channel.waitForState(state);
  await waitUntil(() => frame.querySelector('#svc-status-title'), 'no status screen');
  return frame;
}

/** Each state of the frame, reached as a customer reaches it. */
const STATES: Record<string, (language: Language) => Promise<SvcPaymentFrame>> = {
  'card form': async (language) => (await openForm(await checkoutOrder(), { language })).frame,
  'card form with errors': async (language) => {
    const { frame } = await openForm(await checkoutOrder(), { language });
    payButton(frame).click();
    await waitUntil(() => frame.querySelectorAll('[aria-invalid="true"]').length > 0, 'no field refused');
    return frame;
  },
  'full checkout with errors': async (language) => {
    const { widgets } = await gatewayInfo();
    const { frame } = await openForm(
      {
        widgetId: widgets.fullCheckout,
        items: [{ amount: '5.00', currency: 'EUR', label: 'Tea' }],
        shippingOptions: [{ id: 'latvian-post', amount: '2.99', currency: 'EUR' }, { id: 'courier' }],
      },
      { language },
    );
    payButton(frame).click();
    await waitUntil(() => frame.querySelector('#svc-terms-error'), 'no terms error');
    return frame;
  },
  '3-D Secure': async (language) => {
    const { frame, channel } = await openForm(await checkoutOrder(), { language });
    await payIntoChallenge(frame, channel);
    return frame;
  },
  paid: (language) => paid(language, '4111111111111111', 'paid'),
  failed: (language) => paid(language, '4000000000009995', 'failed'),
};

describe('the payment frame, raised accessibility check', function () {
  this.timeout(90000);
  afterEach(async () => {
    await emulateMedia({ forcedColors: 'none', reducedMotion: 'no-preference' });
    await setViewport({ width: 800, height: 600 });
  });

  /** `check` on every state in `language`, by state. */
  const problems = (language: Language, check: (frame: SvcPaymentFrame) => Promise<Problems> | Problems) =>
    problemsByState(
      Object.fromEntries(Object.entries(STATES).map(([state, reach]) => [state, () => reach(language)])),
      check,
    );

  it('every state’s focus rings and targets hold', async () => {
    const found = await problems('en', async (frame) => {
      await sendKeys({ press: 'Tab' });
      return [...probe.focusRingsProblems(frame), ...probe.targetSizeProblems(frame)];
    });
    expect(found).to.deep.equal({});
  });

  it('in forced colours every button and field of every state shows a boundary', async () => {
    await emulateMedia({ forcedColors: 'active' });
    expect(await problems('en', (frame) => probe.boundaryProblems(frame))).to.deep.equal({});
  });

  for (const language of ['lv', 'ru'] as const) {
    it(`in ${language} at 320 px every state fits without sideways scrolling, also with text spacing`, async () => {
      await setViewport({ width: 320, height: 640 });
      const found = await problems(language, (frame) => [
        ...probe.reflowProblems(frame),
        ...probe.textSpacingProblems(frame),
      ]);
      expect(found).to.deep.equal({});
    });
  }

  it('with reduced motion nothing in any state moves', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(await problems('en', (frame) => probe.motionProblems(frame))).to.deep.equal({});
  });
});
