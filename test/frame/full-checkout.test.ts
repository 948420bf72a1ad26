// The full checkout (a widget that collects customer and delivery data): contact fields prefilled from the
// page, shipping options by their labels with fixed prices and prices from the merchant's shipping cost URL
// (the demo merchant's back end answers it), a pickup-point option that asks for a point and no street, the
// VAT line with the shipping's tax, and the merchant's terms.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator, formatMoney, type OrderInput } from '../../src/core/index.js';
import {
  buttonNamed,
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
const eur = (minor: number) => formatMoney(minor, 'EUR', 'en-GB');

async function fullCheckoutOrder(): Promise<OrderInput> {
  const { widgets } = await gatewayInfo();
  return {
    widgetId: widgets.fullCheckout,
    orderId: newOrderId(),
    items: [{ amount: '20.00', currency: 'EUR', label: 'Tea set' }],
    shippingOptions: [
      { id: 'latvian-post', amount: '2.99', currency: 'EUR', label: 'Latvian Post' },
      { id: 'courier', label: 'Courier' },
      { id: 'pickup-point', label: 'Pickup point', type: 'PICKUP_POINT' },
    ],
  };
}

/** The Tea set's 20.00 at the demo merchant's 21% holds 3.47 of VAT. */
const ITEMS_TAX = 347;

const PREFILL = { firstName: 'Anna', email: 'anna@example.lv' };

function chooseOption(frame: HTMLElement, index: number): void {
  input(frame, `svc-shipping-option-${index}`).click();
}

/** Types an address and leaves the last field, which asks for a price where one is needed. */
async function typeAddress(frame: HTMLElement, city: string): Promise<void> {
  await typeInto(frame, 'svc-delivery-address', 'Brivibas iela 1');
  await typeInto(frame, 'svc-delivery-city', city);
  await typeInto(frame, 'svc-delivery-postalCode', 'LV-1010');
  await sendKeys({ press: 'Tab' });
}

async function fillContactAndTerms(frame: HTMLElement): Promise<void> {
  await typeInto(frame, 'svc-customer-lastName', 'Berzina');
  await typeInto(frame, 'svc-customer-phone', '+371 20000000');
  input(frame, 'svc-terms').click();
}

function optionPrice(frame: HTMLElement, index: number): string {
  return frame
    .querySelector(`label[for="svc-shipping-option-${index}"] .svc-shipping-price`)!
    .textContent!.trim();
}

function pickupSelect(frame: HTMLElement): HTMLSelectElement | null {
  return frame.querySelector<HTMLSelectElement>('#svc-delivery-pickup');
}

function choosePoint(frame: HTMLElement, externalId: string): void {
  const select = pickupSelect(frame)!;
  select.value = externalId;
  select.dispatchEvent(new Event('change'));
}

function taxLine(frame: HTMLElement): string {
  return frame.querySelector('.svc-summary-tax')!.textContent!.trim();
}

describe('full checkout', () => {
  const watch = watchFetchInEachTest();

  it('shows contact fields prefilled from the page, the shipping options and the terms', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    expect(input(frame, 'svc-customer-firstName').value).to.equal('Anna');
    expect(input(frame, 'svc-customer-email').value).to.equal('anna@example.lv');
    expect(input(frame, 'svc-customer-lastName').value).to.equal('');
    expect(input(frame, 'svc-customer-email').autocomplete).to.equal('email');
    // The options by their labels, not their ids.
    const labels = [0, 1, 2].map(
      (index) =>
        frame.querySelector(`label[for="svc-shipping-option-${index}"] .svc-shipping-name`)!.textContent,
    );
    expect(labels).to.deep.equal(['Latvian Post', 'Courier', 'Pickup point']);
    expect(optionPrice(frame, 0)).to.equal('€2.99');
    expect(optionPrice(frame, 1)).to.equal(en('delivery.priceOnRequest'));
    expect(optionPrice(frame, 2)).to.equal(en('delivery.priceOnPickupPoint'));
    // The address is asked while address deliveries are on offer; a pickup point only once its option is chosen.
    expect(input(frame, 'svc-delivery-address').required).to.equal(true);
    expect(pickupSelect(frame)).to.equal(null);
    const { merchantUrl } = await gatewayInfo();
    const terms = frame.querySelector<HTMLAnchorElement>('.svc-terms a')!;
    expect(terms.href).to.equal(`${merchantUrl}/api/terms`);
    expect(terms.target).to.equal('_blank');
    expect(terms.rel).to.include('noopener');
  });

  it('refuses an incomplete form, focuses the first field to fix and sends nothing', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    payButton(frame).click();
    await waitUntil(
      () => document.activeElement === input(frame, 'svc-customer-lastName'),
      'focus not on last name',
    );
    const invalid = [...frame.querySelectorAll('[aria-invalid="true"]')].map((node) => node.id);
    expect(invalid).to.include.members([
      'svc-customer-lastName',
      'svc-shipping-option-0',
      'svc-delivery-address',
      'svc-delivery-city',
      'svc-delivery-postalCode',
      'svc-card-number',
      'svc-terms',
    ]);
    expect(invalid).to.not.include('svc-customer-phone');
    expect(frame.querySelector('#svc-shipping-option-error')!.textContent).to.equal(
      en('delivery.chooseOption'),
    );
    expect(frame.querySelector('#svc-terms-error')!.textContent).to.equal(en('terms.required'));
    expect(liveRegion(frame).textContent).to.include(en('terms.required'));
    expect(watch.to('/payments')).to.have.length(0);
  });

  it('focuses the shipping options when the choice is all that is missing', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    await typeAddress(frame, 'Riga');
    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    // The options are disabled while the form is checked; the focus still reaches the first of them.
    await waitUntil(
      () => document.activeElement === input(frame, 'svc-shipping-option-0'),
      'focus not on the shipping options',
    );
    expect(liveRegion(frame).textContent).to.include(en('delivery.chooseOption'));
    expect(watch.to('/payments')).to.have.length(0);
  });

  it('pays with a fixed-price option, sending the contact and delivery data', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    // No total before the shipping is chosen: the button says what is missing.
    expect(payButton(frame).textContent!.trim()).to.equal(en('pay.chooseShipping'));
    chooseOption(frame, 0);
    const withPost = en('pay.button', { amount: eur(2299) });
    await waitUntil(
      () => payButton(frame).textContent!.trim() === withPost,
      'the total does not include shipping',
    );
    await typeAddress(frame, 'Riga');
    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/shipping-quotes')).to.have.length(0);
    const body = watch.to('/payments')[0]!.body!;
    expect(body['customer']).to.deep.equal({
      firstName: 'Anna',
      lastName: 'Berzina',
      email: 'anna@example.lv',
      phone: '+371 20000000',
    });
    expect(body['shipping']).to.deep.equal({
      optionId: 'latvian-post',
      address: { address: 'Brivibas iela 1', city: 'Riga', postalCode: 'LV-1010' },
      contactPhone: '+371 20000000',
    });
    await waitUntil(() => frame.querySelector('.svc-status-text'));
    expect(frame.querySelector('.svc-status-text')!.textContent).to.include(eur(2299));
  });

  it('prices a courier delivery through the merchant’s shipping cost URL once the address is known', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    chooseOption(frame, 1);
    const totals = () => frame.querySelector('.svc-summary-totals')!.textContent!;
    await waitUntil(
      () => totals().includes(en('delivery.priceOnRequest')),
      'no shipping line in the summary',
    );
    expect(watch.to('/shipping-quotes')).to.have.length(0);
    await typeAddress(frame, 'Rīga');
    await waitUntil(() => optionPrice(frame, 1) === '€3.50', `price: ${optionPrice(frame, 1)}`);
    expect(watch.to('/shipping-quotes')[0]!.body).to.deep.equal({
      optionId: 'courier',
      address: { address: 'Brivibas iela 1', city: 'Rīga', postalCode: 'LV-1010' },
    });
    await waitUntil(() => frame.querySelector('.svc-summary-total dd')!.textContent === eur(2350), 'total');
    expect(payButton(frame).textContent!.trim()).to.equal(en('pay.button', { amount: eur(2350) }));
    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '5555555555554444' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/shipping-quotes')).to.have.length(1);
    await waitUntil(() => frame.querySelector('.svc-status-text'));
    expect(frame.querySelector('.svc-status-text')!.textContent).to.include(eur(2350));
  });

  it('says so when a delivery cannot be priced', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    chooseOption(frame, 1);
    await typeAddress(frame, 'Nowhere');
    await waitUntil(() => frame.querySelector('#svc-shipping-option-error'), 'no quote failure shown');
    expect(frame.querySelector('#svc-shipping-option-error')!.textContent).to.equal(
      en('delivery.quoteFailed'),
    );
    expect(liveRegion(frame).textContent).to.include(en('delivery.quoteFailed'));
  });

  it('asks a pickup-point option for a required point and no street address; axe passes', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    chooseOption(frame, 2);
    await waitUntil(() => pickupSelect(frame), 'no pickup point select');
    for (const absent of ['address', 'city', 'postalCode', 'country']) {
      expect(frame.querySelector(`#svc-delivery-${absent}`), absent).to.equal(null);
    }
    const select = pickupSelect(frame)!;
    expect(select.required).to.equal(true);
    expect(frame.querySelector('label[for="svc-delivery-pickup"]')!.textContent!.trim()).to.equal(
      en('delivery.pickupPoint'),
    );
    expect([...select.options].map((option) => option.value)).to.deep.equal([
      '',
      'riga-centre',
      'riga-old-town',
    ]);
    await expect(frame).to.be.accessible();

    // Paying without a point says what is missing there, and sends nothing.
    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await waitUntil(() => document.activeElement === pickupSelect(frame), 'focus not on the pickup point');
    expect(pickupSelect(frame)!.getAttribute('aria-invalid')).to.equal('true');
    expect(frame.querySelector('#svc-delivery-pickup-error')!.textContent).to.equal(
      en('delivery.choosePickupPoint'),
    );
    expect(pickupSelect(frame)!.getAttribute('aria-describedby')).to.equal('svc-delivery-pickup-error');
    expect(watch.to('/payments')).to.have.length(0);
    expect(watch.to('/shipping-quotes')).to.have.length(0);
    await expect(frame).to.be.accessible();
  });

  it('prices a pickup point as soon as it is chosen, and pays it without a street address', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    chooseOption(frame, 2);
    await waitUntil(() => pickupSelect(frame), 'no pickup point select');
    choosePoint(frame, 'riga-old-town');
    await waitUntil(() => optionPrice(frame, 2) === '€2.49', `price: ${optionPrice(frame, 2)}`);
    expect(watch.to('/shipping-quotes').map((request) => request.body)).to.deep.equal([
      { optionId: 'pickup-point', pickupPointId: 'riga-old-town' },
    ]);
    expect(frame.querySelector('#svc-shipping-option-error')).to.equal(null);
    expect(frame.querySelector('#svc-delivery-pickup-error')).to.equal(null);
    expect(frame.querySelector('#svc-delivery-pickup-hint')!.textContent).to.include('Mon-Fri 10-19');
    expect(frame.querySelector('#svc-delivery-pickup-hint')!.textContent).to.include('Audēju iela 16');
    // The summary, Pay and the VAT line all include the point's price: 2.49 at 21% holds 0.43.
    await waitUntil(() => frame.querySelector('.svc-summary-total dd')!.textContent === eur(2249), 'total');
    expect(payButton(frame).textContent!.trim()).to.equal(en('pay.button', { amount: eur(2249) }));
    expect(frame.querySelector('.svc-summary-shipping dd')!.textContent).to.equal('Pickup point · €2.49');
    expect(taxLine(frame)).to.equal(en('summary.taxIncluded', { tax: eur(ITEMS_TAX + 43) }));

    // Another point is priced at once too.
    choosePoint(frame, 'riga-centre');
    await waitUntil(() => optionPrice(frame, 2) === '€1.99', `price: ${optionPrice(frame, 2)}`);
    await waitUntil(() => frame.querySelector('.svc-summary-total dd')!.textContent === eur(2199), 'total');

    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/payments')[0]!.body!['shipping']).to.deep.equal({
      optionId: 'pickup-point',
      pickupPointId: 'riga-centre',
      contactPhone: '+371 20000000',
    });
    await waitUntil(() => frame.querySelector('.svc-status-text'));
    expect(frame.querySelector('.svc-status-text')!.textContent).to.include(eur(2199));
  });

  it("includes the quoted shipping's VAT in the VAT line", async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    expect(taxLine(frame)).to.equal(en('summary.taxIncluded', { tax: eur(ITEMS_TAX) }));
    chooseOption(frame, 1);
    await typeAddress(frame, 'Riga');
    await waitUntil(() => optionPrice(frame, 1) === '€3.50', `price: ${optionPrice(frame, 1)}`);
    // 3.50 at 21% holds 0.61.
    await waitUntil(
      () => taxLine(frame) === en('summary.taxIncluded', { tax: eur(ITEMS_TAX + 61) }),
      `VAT line: ${taxLine(frame)}`,
    );
    expect(frame.querySelector('.svc-summary-shipping dd')!.textContent).to.equal('Courier · €3.50');
  });

  it('offers cancellation on the full checkout too', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder());
    buttonNamed(frame, en('pay.cancel')).click();
    await channel.waitForState('cancelled');
  });
});
