// The element's own buttons (the error view's "Try again", the v1 picker's "Continue to payment") stay buttons in
// forced colours, which paint a border only where one is set: each keeps a transparent border, at no change of
// size outside forced colours.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/element/define.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { capturingConsoleErrors } from './helpers.js';
import {
  confirmButton,
  createPurchase,
  gatewayInfo,
  PAYMENT_METHODS_URL,
  pickerShown,
  shadow,
} from './v1-helpers.js';

/** The error view of a gateway that refuses connections at once, with its retry button. */
async function retryButton(): Promise<HTMLButtonElement> {
  const widgetId = (await gatewayInfo()).widgets.checkout;
  return capturingConsoleErrors(async () => {
    const element = await fixture<SvcCheckout>(
      html`<svc-checkout gateway="http://127.0.0.1:1" widget-id=${widgetId} amount="1" label="Tea"></svc-checkout>`,
    );
    await waitUntil(() => element.state === 'error', 'no error for an unreachable gateway');
    await element.updateComplete;
    return shadow(element).querySelector<HTMLButtonElement>('button[part="retry-button"]')!;
  });
}

async function pickerButton(): Promise<HTMLButtonElement> {
  const purchase = await createPurchase();
  const element = await fixture<SvcCheckout>(html`<svc-checkout
    checkout-url=${purchase.checkout_url}
    payment-methods-url=${PAYMENT_METHODS_URL}
    language="en"
  ></svc-checkout>`);
  await pickerShown(element);
  return confirmButton(element);
}

describe('<svc-checkout> buttons in forced colours', function () {
  this.timeout(20000);

  afterEach(() => emulateMedia({ forcedColors: 'none' }));

  for (const [name, render] of [
    ['Try again', retryButton],
    ['Continue to payment', pickerButton],
  ] as const) {
    it(`"${name}" has a border forced colours paint, and its size outside them`, async () => {
      const button = await render();
      expect(button.textContent!.trim()).to.equal(name);
      const style = getComputedStyle(button);
      // The token defaults: 44 px high, 1.25em (20 px) from the edge to the text, border included.
      expect(button.offsetHeight).to.equal(44);
      expect(Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.borderLeftWidth)).to.equal(20);
      expect(style.borderTopColor).to.equal('rgba(0, 0, 0, 0)');

      await emulateMedia({ forcedColors: 'active' });
      expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
      const forced = getComputedStyle(button);
      expect(forced.borderTopStyle).to.equal('solid');
      expect(Number.parseFloat(forced.borderTopWidth)).to.be.greaterThan(0);
      expect(forced.borderTopColor).to.not.equal('rgba(0, 0, 0, 0)');
    });
  }
});
