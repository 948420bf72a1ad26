// The full checkout (a widget that collects customer and delivery data): contact fields prefilled from the
// page, shipping options with fixed prices and prices from the merchant's shipping cost URL (the demo
// merchant's back end answers it), pickup points, and the merchant's terms.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { createTranslator, formatMoney, type OrderInput } from '../../src/core/index.js';
import {
  buttonNamed,
  type FetchWatch,
  gatewayInfo,
  input,
  liveRegion,
  newOrderId,
  openForm,
  payButton,
  typeCard,
  typeInto,
  watchFetch,
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
      { id: 'latvian-post', amount: '2.99', currency: 'EUR' },
      { id: 'courier' },
      { id: 'pickup-point' },
    ],
  };
}

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

describe('full checkout', () => {
  let watch: FetchWatch;

  beforeEach(() => {
    watch = watchFetch();
  });

  afterEach(() => watch.restore());

  it('shows contact fields prefilled from the page, the shipping options and the terms', async () => {
    const { frame } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    expect(input(frame, 'svc-customer-firstName').value).to.equal('Anna');
    expect(input(frame, 'svc-customer-email').value).to.equal('anna@example.lv');
    expect(input(frame, 'svc-customer-lastName').value).to.equal('');
    expect(input(frame, 'svc-customer-email').autocomplete).to.equal('email');
    const labels = [0, 1, 2].map(
      (index) =>
        frame.querySelector(`label[for="svc-shipping-option-${index}"] .svc-shipping-name`)!.textContent,
    );
    expect(labels).to.deep.equal(['latvian-post', 'courier', 'pickup-point']);
    expect(optionPrice(frame, 0)).to.equal('€2.99');
    expect(optionPrice(frame, 1)).to.equal(en('delivery.priceOnRequest'));
    const pickup = frame.querySelector<HTMLSelectElement>('#svc-delivery-pickup')!;
    expect([...pickup.options].map((option) => option.value)).to.deep.equal([
      '',
      'riga-centre',
      'riga-old-town',
    ]);
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
    expect(payButton(frame).textContent!.trim()).to.equal(en('pay.button', { amount: eur(2000) }));
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

  it('prices a pickup point, and says so when a delivery cannot be priced', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder(), { customer: PREFILL });
    chooseOption(frame, 1);
    await typeAddress(frame, 'Nowhere');
    await waitUntil(() => frame.querySelector('#svc-shipping-option-error'), 'no quote failure shown');
    expect(frame.querySelector('#svc-shipping-option-error')!.textContent).to.equal(
      en('delivery.quoteFailed'),
    );
    expect(liveRegion(frame).textContent).to.include(en('delivery.quoteFailed'));

    chooseOption(frame, 2);
    const pickup = frame.querySelector<HTMLSelectElement>('#svc-delivery-pickup')!;
    pickup.value = 'riga-old-town';
    pickup.dispatchEvent(new Event('change'));
    await waitUntil(() => optionPrice(frame, 2) === '€2.49', `price: ${optionPrice(frame, 2)}`);
    expect(frame.querySelector('#svc-shipping-option-error')).to.equal(null);
    expect(frame.querySelector('#svc-delivery-pickup-hint')!.textContent).to.include('Mon-Fri 10-19');
    await fillContactAndTerms(frame);
    await typeCard(frame, { number: '4111111111111111' });
    payButton(frame).click();
    await channel.waitForState('paid');
    expect(watch.to('/payments')[0]!.body!['shipping']).to.include({
      optionId: 'pickup-point',
      pickupPointId: 'riga-old-town',
    });
  });

  it('offers cancellation on the full checkout too', async () => {
    const { frame, channel } = await openForm(await fullCheckoutOrder());
    buttonNamed(frame, en('pay.cancel')).click();
    await channel.waitForState('cancelled');
  });
});
