// The v1 picker by keyboard alone, with the real browser's keys (web-test-runner's sendKeys): the methods
// are one radio group (Tab reaches it once, arrow keys choose), the country select and the confirm button
// are in the tab order, and Enter on the button confirms.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/element/define.js';
import type { Purchase } from '../../src/core/v1-types.js';
import type { NavigateToCheckoutEvent } from '../../src/element/navigate-to-checkout-event.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import {
  confirmButton,
  countrySelect,
  createPurchase,
  PAYMENT_METHODS_URL,
  pickerShown,
  radio,
  shadow,
} from './v1-helpers.js';

describe('<svc-checkout> v1 by keyboard', function () {
  this.timeout(20000);
  let purchase: Purchase;
  before(async () => {
    purchase = await createPurchase();
  });

  /** The picker after a button that takes the focus first, as the page's own controls before it would. */
  async function pickerAfterButton(): Promise<{ element: SvcCheckout; events: NavigateToCheckoutEvent[] }> {
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <button type="button">Before</button>
      <svc-checkout
        checkout-url=${purchase.checkout_url}
        payment-methods-url=${PAYMENT_METHODS_URL}
        language="en"
        country="lv"
      ></svc-checkout>
    </div>`);
    const element = wrapper.querySelector('svc-checkout')!;
    await pickerShown(element);
    const events: NavigateToCheckoutEvent[] = [];
    element.addEventListener('navigateToCheckout', (event) => {
      event.preventDefault();
      events.push(event);
    });
    wrapper.querySelector('button')!.focus();
    return { element, events };
  }

  const focused = (element: SvcCheckout) => shadow(element).activeElement;

  it('Tab to the methods, arrow keys choose, Tab to confirm, Enter goes on with the method', async () => {
    const { element, events } = await pickerAfterButton();
    await sendKeys({ press: 'Tab' });
    expect(focused(element)).to.equal(radio(element, 'visa'));
    await sendKeys({ press: 'ArrowDown' });
    expect(focused(element)).to.equal(radio(element, 'swedbank_lv_pis'));
    expect(radio(element, 'swedbank_lv_pis').checked).to.equal(true);
    await sendKeys({ press: 'ArrowDown' });
    await element.updateComplete;
    expect(radio(element, 'seb_lv_pis').checked).to.equal(true);
    await sendKeys({ press: 'Tab' });
    expect(focused(element)).to.equal(confirmButton(element));
    await sendKeys({ press: 'Enter' });
    expect(events.map((event) => event.detail.method)).to.deep.equal(['seb_lv_pis']);
  });

  it('Shift+Tab from the chosen bank reaches the country select, whose arrow keys change the country', async () => {
    const { element, events } = await pickerAfterButton();
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'ArrowDown' });
    await element.updateComplete;
    expect(radio(element, 'swedbank_lv_pis').checked).to.equal(true);
    await sendKeys({ press: 'Shift+Tab' });
    expect(focused(element)).to.equal(countrySelect(element));
    await sendKeys({ press: 'ArrowUp' });
    await element.updateComplete;
    expect(countrySelect(element).value).to.equal('lt');
    expect(focused(element)).to.equal(countrySelect(element));
    // The Latvian bank is no longer shown, so nothing is chosen: Tab goes to the first Lithuanian bank.
    await sendKeys({ press: 'Tab' });
    expect(focused(element)).to.equal(radio(element, 'swedbank_lt_pis'));
    await sendKeys({ press: 'Space' });
    await element.updateComplete;
    await sendKeys({ press: 'Tab' });
    expect(focused(element)).to.equal(confirmButton(element));
    await sendKeys({ press: 'Enter' });
    expect(events.map((event) => event.detail.method)).to.deep.equal(['swedbank_lt_pis']);
  });
});
