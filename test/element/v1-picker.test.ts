// <svc-checkout> in v1 mode with real data: a Purchase created on the sandbox, and the payment methods of the
// sandbox's /api/v1 through the merchant's real endpoint (handler and cache) on this page's origin.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import type { Purchase } from '../../src/core/v1-types.js';
import type { CheckoutErrorEvent } from '../../src/element/events.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { capturingConsoleErrors, consoleSettled } from './helpers.js';
import {
  choiceNames,
  confirmAndCatch,
  confirmButton,
  countrySelect,
  createPurchase,
  type GatewayInfo,
  gatewayInfo,
  PAYMENT_METHODS_URL,
  pickerShown,
  radio,
  radios,
  selectCountry,
  shadow,
} from './v1-helpers.js';

describe('<svc-checkout> in v1 mode', function () {
  this.timeout(20000);
  let info: GatewayInfo;
  let purchase: Purchase;
  before(async () => {
    info = await gatewayInfo();
    purchase = await createPurchase();
  });

  async function picker(attributes: {
    country?: string;
    method?: string;
    language?: string;
    checkoutUrl?: string;
  }): Promise<SvcCheckout> {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${attributes.checkoutUrl ?? purchase.checkout_url}
      payment-methods-url=${PAYMENT_METHODS_URL}
      language=${attributes.language ?? 'en'}
      country=${attributes.country ?? ''}
      method=${attributes.method ?? ''}
    ></svc-checkout>`);
    await pickerShown(element);
    return element;
  }

  it('shows the sandbox’s groups: cards as one choice, banks by country, wallets; names and logos from the gateway host', async () => {
    const element = await picker({ country: 'lv' });
    const root = shadow(element);
    expect(element.getAttribute('state')).to.equal('form');
    expect(root.querySelector('.methods > legend')!.textContent!.trim()).to.equal('Choose a payment method');

    const card = radios(element)[0]!.closest('label')!;
    expect(card.querySelector('.name')!.textContent).to.equal('Card');
    expect(card.querySelector('.detail')!.textContent).to.equal('Accepted: Visa and Mastercard');
    const cardLogos = [...card.querySelectorAll('img')].map((img) => img.src);
    expect(cardLogos).to.deep.equal([
      `${info.gatewayUrl}/sandbox/v1/logos/visa.svg`,
      `${info.gatewayUrl}/sandbox/v1/logos/mastercard.svg`,
    ]);

    const legends = [...root.querySelectorAll('.group > legend')].map((legend) => legend.textContent!.trim());
    expect(legends).to.deep.equal(['Bank payment', 'Mobile wallet']);
    expect([...countrySelect(element).options].map((option) => [option.value, option.text])).to.deep.equal([
      ['ee', 'Estonia'],
      ['lt', 'Lithuania'],
      ['lv', 'Latvia'],
    ]);
    expect(choiceNames(element)).to.deep.equal([
      'Card',
      'Swedbank',
      'SEB',
      'Citadele',
      'Mobile wallet A',
      'Mobile wallet B',
    ]);
    expect(radios(element).map((input) => input.value)).to.deep.equal([
      'visa',
      'swedbank_lv_pis',
      'seb_lv_pis',
      'citadele_lv_pis',
      'svc_wallet_a',
      'svc_wallet_b',
    ]);
    expect(radios(element).every((input) => !input.checked)).to.equal(true);
    // The logos load from the gateway: a wrong host would leave them broken.
    const images = [...root.querySelectorAll('img')];
    expect(images.every((img) => img.alt === '')).to.equal(true);
    await waitUntil(() => images.every((img) => img.complete && img.naturalWidth > 0), 'logos do not load');
    expect(radio(element, 'citadele_lv_pis').closest('label')!.querySelector('img')!.src).to.equal(
      `${info.gatewayUrl}/sandbox/v1/logos/citadele.svg`,
    );
    await expect(element).to.be.accessible();
  });

  it('the customer’s country is preselected and changeable, by the select and by the country attribute', async () => {
    const element = await picker({ country: 'LT' });
    expect(countrySelect(element).value).to.equal('lt');
    expect(choiceNames(element).slice(1, 4)).to.deep.equal(['Swedbank', 'SEB', 'Luminor']);

    await selectCountry(element, 'ee');
    expect(
      radios(element)
        .slice(1, 4)
        .map((input) => input.value),
    ).to.deep.equal(['swedbank_ee_pis', 'seb_ee_pis', 'lhv_ee_pis']);

    element.country = 'lv';
    await element.updateComplete;
    expect(countrySelect(element).value).to.equal('lv');
    expect(radios(element)[3]!.value).to.equal('citadele_lv_pis');
  });

  it('a country without bank methods of its own shows the first country', async () => {
    const element = await picker({ country: 'fi' });
    expect(countrySelect(element).value).to.equal('ee');
  });

  it('choosing a bank method and confirming: navigateToCheckout carries preferred merged into the checkout URL’s query; cancelled, the page stays', async () => {
    const checkoutUrl = `${purchase.checkout_url}?lang=lv&note=a%26b#pay`;
    const element = await picker({ country: 'lt', checkoutUrl });
    radio(element, 'seb_lt_pis').click();
    await element.updateComplete;
    expect(radio(element, 'seb_lt_pis').checked).to.equal(true);
    const page = location.href;

    const event = confirmAndCatch(element);
    expect(event.defaultPrevented).to.equal(true);
    expect(event.bubbles && event.composed && event.cancelable).to.equal(true);
    expect(event.detail.method).to.equal('seb_lt_pis');
    const url = new URL(event.detail.url);
    const checkout = new URL(purchase.checkout_url);
    expect(url.origin + url.pathname).to.equal(checkout.origin + checkout.pathname);
    expect([...url.searchParams]).to.deep.equal([
      ['lang', 'lv'],
      ['note', 'a&b'],
      ['preferred', 'seb_lt_pis'],
    ]);
    expect(url.hash).to.equal('#pay');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(location.href).to.equal(page);
  });

  it('choosing the card choice sends its first scheme; a preselected card method checks it and is sent', async () => {
    const element = await picker({});
    radio(element, 'visa').click();
    await element.updateComplete;
    expect(confirmAndCatch(element).detail).to.deep.equal({
      method: 'visa',
      url: `${purchase.checkout_url}?preferred=visa`,
    });

    const preselected = await picker({ method: 'mastercard' });
    const card = radios(preselected)[0]!;
    expect([card.value, card.checked]).to.deep.equal(['mastercard', true]);
    expect(confirmAndCatch(preselected).detail.method).to.equal('mastercard');
  });

  it('a preselected bank method shows its own country, checked', async () => {
    const element = await picker({ country: 'lv', method: 'luminor_lt_pis' });
    expect(countrySelect(element).value).to.equal('lt');
    expect(radio(element, 'luminor_lt_pis').checked).to.equal(true);
  });

  it('a bank method of a country no longer shown is not sent', async () => {
    const element = await picker({ country: 'lv' });
    radio(element, 'seb_lv_pis').click();
    await element.updateComplete;
    await selectCountry(element, 'ee');
    expect(radios(element).some((input) => input.checked)).to.equal(false);
    expect(confirmAndCatch(element).detail).to.deep.equal({ method: null, url: purchase.checkout_url });
  });

  it('in Latvian: the gateway’s names and the picker’s texts, the merchant’s text overrides winning', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${purchase.checkout_url}
      payment-methods-url=${PAYMENT_METHODS_URL}
      language="lv"
      country="lv"
      texts='{"picker.confirm": "Uz maksājumu"}'
    ></svc-checkout>`);
    await pickerShown(element);
    const root = shadow(element);
    expect(root.querySelector('.methods > legend')!.textContent!.trim()).to.equal(
      'Izvēlieties maksājuma veidu',
    );
    expect(root.querySelector('.group > legend')!.textContent!.trim()).to.equal('Bankas maksājums');
    expect(countrySelect(element).selectedOptions[0]!.text).to.equal('Latvija');
    expect(confirmButton(element).textContent).to.equal('Uz maksājumu');
    expect(root.querySelector('[part~="picker"]')!.closest('[lang]')!.getAttribute('lang')).to.equal('lv');
  });

  it('the empty state: nothing to choose, the customer goes on without a method', async () => {
    // The sandbox has no method that pays in yen.
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${purchase.checkout_url}
      payment-methods-url=${`${PAYMENT_METHODS_URL}?currency=JPY`}
      language="en"
      method="visa"
    ></svc-checkout>`);
    await pickerShown(element);
    const status = shadow(element).querySelector('[role="status"]')!;
    await waitUntil(() => status.textContent !== '', 'the status says nothing');
    expect(status.textContent).to.equal(
      'There are no payment methods to choose from here. Continue to the payment page to pay.',
    );
    expect(radios(element)).to.have.length(0);
    expect(confirmAndCatch(element).detail).to.deep.equal({ method: null, url: purchase.checkout_url });
    await expect(element).to.be.accessible();
  });

  for (const [what, endpoint] of [
    ['an endpoint that cannot be reached', 'http://127.0.0.1:9/payment-methods'],
    ['an endpoint that refuses the query (HTTP 400)', `${PAYMENT_METHODS_URL}?currency=EURO`],
    ['an endpoint that answers no JSON (HTTP 404 page)', '/__no-such-endpoint'],
  ] as const) {
    it(`the failure state with ${what}: announced, logged, and the customer goes on without a preselection`, async () => {
      await capturingConsoleErrors(async (errors) => {
        const element = await fixture<SvcCheckout>(html`<svc-checkout
          checkout-url=${purchase.checkout_url}
          payment-methods-url=${endpoint}
          language="en"
          method="visa"
        ></svc-checkout>`);
        await pickerShown(element);
        const alert = shadow(element).querySelector('[role="alert"]');
        expect(alert?.textContent?.trim()).to.equal(
          'The payment methods could not be loaded. You can still continue to the payment page and choose a method there.',
        );
        expect(radios(element)).to.have.length(0);
        expect(confirmButton(element).textContent).to.equal('Continue to payment');
        expect(confirmAndCatch(element).detail).to.deep.equal({ method: null, url: purchase.checkout_url });
        await consoleSettled();
        expect(errors).to.have.length(1);
        expect(errors[0]).to.contain('[attribute: payment-methods-url]');
        await expect(element).to.be.accessible();
      });
    });
  }

  it('relays the endpoint’s own message when it refuses the query, instead of blaming the URL', async () => {
    await capturingConsoleErrors(async (errors) => {
      const endpoint = `${PAYMENT_METHODS_URL}?currency=EURO`;
      const element = await fixture<SvcCheckout>(html`<svc-checkout
        checkout-url=${purchase.checkout_url}
        payment-methods-url=${endpoint}
        language="en"
      ></svc-checkout>`);
      await pickerShown(element);
      await consoleSettled();
      expect(errors).to.have.length(1);
      const url = new URL(`${endpoint}&language=en`, location.href).href;
      expect(errors[0]).to.equal(
        `<svc-checkout> payment methods lookup failed [attribute: payment-methods-url]: the endpoint ${url} answered 400: currency must be an ISO 4217 code such as EUR, not "EURO". The customer can only go on to the payment page without a preselected method. Change the request as the endpoint's message says: the query of payment-methods-url (such as ?currency=EUR), or the endpoint's options (such as createPaymentMethodsHandler's defaultCurrency).`,
      );
    });
  });

  it('without payment-methods-url: the failure state, naming the attribute', async () => {
    await capturingConsoleErrors(async (errors) => {
      const element = await fixture<SvcCheckout>(
        html`<svc-checkout checkout-url=${purchase.checkout_url}></svc-checkout>`,
      );
      await pickerShown(element);
      expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
      await consoleSettled();
      expect(errors).to.deep.equal([
        "<svc-checkout> payment methods lookup failed [attribute: payment-methods-url]: payment-methods-url: null is not an http(s) URL. The customer can only go on to the payment page without a preselected method. Point payment-methods-url at the merchant's payment-methods endpoint (createPaymentMethodsHandler of svc-checkout/server).",
      ]);
    });
  });

  it('a checkout-url that is no http(s) URL: the error box, checkoutError naming it, no way on', async () => {
    await capturingConsoleErrors(async (errors) => {
      const caught: CheckoutErrorEvent[] = [];
      const listener = (event: Event) => caught.push(event as CheckoutErrorEvent);
      document.addEventListener('checkoutError', listener);
      try {
        const element = await fixture<SvcCheckout>(html`<svc-checkout
          checkout-url="javascript:alert(1)"
          payment-methods-url=${PAYMENT_METHODS_URL}
          language="en"
        ></svc-checkout>`);
        await waitUntil(() => element.state === 'error', `state ${element.state}`);
        await element.updateComplete;
        expect(caught.map((event) => [event.detail.code, event.detail.attribute])).to.deep.equal([
          ['invalid_order', 'checkout-url'],
        ]);
        expect(shadow(element).querySelector('[role="alert"] p')!.textContent).to.equal(
          'This shop cannot take payments right now. Please try again later.',
        );
        expect(confirmButton(element)).to.equal(null);
        expect(errors[0]).to.match(/^<svc-checkout> invalid_order \[attribute: checkout-url\]: /);
        await expect(element).to.be.accessible();
      } finally {
        document.removeEventListener('checkoutError', listener);
      }
    });
  });

  it('the loading state says so in a status region, and is accessible', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${purchase.checkout_url}
      payment-methods-url="/__payment-methods-slow"
      language="en"
    ></svc-checkout>`);
    await waitUntil(
      () => shadow(element).querySelector('[role="status"]')?.textContent === 'Loading payment methods…',
      'no loading text',
    );
    expect(element.state).to.equal('loading');
    expect(confirmButton(element)).to.equal(null);
    await expect(element).to.be.accessible();
    await pickerShown(element);
    expect(shadow(element).querySelector('[role="status"]')!.textContent).to.equal('');
    expect(radios(element).length).to.be.greaterThan(3);
  });
});
