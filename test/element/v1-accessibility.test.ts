// The v1 picker passes the raised accessibility check in each of its states, beyond axe (v1-picker.test.ts):
// every control's focus ring has 3:1 against the colours beside it (WCAG 1.4.11), every button, radio and
// select shows a boundary in forced colours, Latvian and Russian fit 320 px without sideways scrolling, also
// with WCAG text spacing (1.4.10, 1.4.12), nothing moves with reduced motion, and targets are 24 px or more.
// The checks are the shared probe's (test/support/accessibility-probe.js), as for the frame and the hosted page.
import '../support/accessibility-probe.js';
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia, sendKeys, setViewport } from '@web/test-runner-commands';
import '../../src/element/define.js';
import type { Purchase } from '../../src/core/v1-types.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import type { Problems } from '../support/accessibility-probe.js';
import { problemsByState } from '../support/problems-by-state.js';
import { capturingConsoleErrors } from './helpers.js';
import { createPurchase, PAYMENT_METHODS_URL, pickerShown, shadow } from './v1-helpers.js';

type Language = 'en' | 'lv' | 'ru';

const probe = globalThis.svcAccessibilityProbe;

/** The picker with `endpoint` as its payment-methods URL, once its status region has had its say. */
async function picker(purchase: Purchase, endpoint: string, language: Language): Promise<SvcCheckout> {
  const element = await fixture<SvcCheckout>(html`<svc-checkout
    checkout-url=${purchase.checkout_url}
    payment-methods-url=${endpoint}
    language=${language}
  ></svc-checkout>`);
  if (endpoint.includes('slow')) {
    await waitUntil(
      () => shadow(element).querySelector('[role="status"]')?.textContent !== '',
      'not loading',
    );
  } else {
    await pickerShown(element);
  }
  return element;
}

let slowLookups = 0;

/**
 * Each state of the picker, by the endpoint that leads to it. The element keeps a lookup's answer for a minute
 * by its URL, so each loading state asks a URL of its own (the answer, a refusal of the query, comes 1.5 s
 * later, after the checks).
 */
const STATES: Record<string, () => string> = {
  loading: () => `/__payment-methods-slow?attempt=${++slowLookups}`,
  methods: () => PAYMENT_METHODS_URL,
  'lookup failed': () => '/__no-such-endpoint',
  'no methods': () => `${PAYMENT_METHODS_URL}?currency=JPY`,
};

describe('<svc-checkout> v1 picker, raised accessibility check', function () {
  this.timeout(60000);
  let purchase: Purchase;
  before(async () => {
    purchase = await createPurchase();
  });
  afterEach(async () => {
    await emulateMedia({ forcedColors: 'none', reducedMotion: 'no-preference' });
    await setViewport({ width: 800, height: 600 });
  });

  /** `check` on the picker in every state in `language`, by state (a failed lookup logs its error). */
  const problems = (language: Language, check: (element: SvcCheckout) => Promise<Problems> | Problems) =>
    capturingConsoleErrors(() =>
      problemsByState(
        Object.fromEntries(
          Object.entries(STATES).map(([state, endpoint]) => [
            state,
            () => picker(purchase, endpoint(), language),
          ]),
        ),
        check,
      ),
    );

  it('every state passes axe, and its focus rings and targets hold', async () => {
    const found = await problems('en', async (element) => {
      await expect(element).to.be.accessible();
      await sendKeys({ press: 'Tab' });
      return [...probe.focusRingsProblems(element), ...probe.targetSizeProblems(element)];
    });
    expect(found).to.deep.equal({});
  });

  it('the methods state has every kind of control to check: radios, a select and the button', async () => {
    const element = await picker(purchase, PAYMENT_METHODS_URL, 'en');
    const kinds = new Set(probe.controls(element).map((control) => control.localName));
    expect([...kinds].sort()).to.deep.equal(['button', 'input', 'select']);
  });

  it('in forced colours every button, radio and select of every state shows a boundary', async () => {
    await emulateMedia({ forcedColors: 'active' });
    expect(await problems('en', (element) => probe.boundaryProblems(element))).to.deep.equal({});
  });

  for (const language of ['lv', 'ru'] as const) {
    it(`in ${language} at 320 px every state fits without sideways scrolling, also with text spacing`, async () => {
      await setViewport({ width: 320, height: 640 });
      const found = await problems(language, (element) => [
        ...probe.reflowProblems(element),
        ...probe.textSpacingProblems(element),
      ]);
      expect(found).to.deep.equal({});
    });
  }

  it('with reduced motion nothing in any state moves', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    expect(await problems('en', (element) => probe.motionProblems(element))).to.deep.equal({});
  });
});
