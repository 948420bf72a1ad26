// The v1 picker's lookup is reused in the tab for a minute: elements and renders share one request, and the
// tab's storage keeps the answer with its time for the tab's next pages. Requests are counted with the
// browser's own resource timing, which lists every request the page makes, those the HTTP cache answers too.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/element/define.js';
import type { Purchase } from '../../src/core/v1-types.js';
import {
  LOOKUP_REUSE_MS,
  LOOKUP_STORAGE_PREFIX,
  lookupUrl,
} from '../../src/element/payment-methods-lookup.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { capturingConsoleErrors, consoleSettled } from './helpers.js';
import {
  choiceNames,
  createPurchase,
  PAYMENT_METHODS_URL,
  pickerShown,
  radios,
  requestsFor,
  shadow,
} from './v1-helpers.js';

describe('<svc-checkout> v1 lookup reuse', function () {
  this.timeout(20000);
  let purchase: Purchase;
  before(async () => {
    performance.setResourceTimingBufferSize(10_000);
    purchase = await createPurchase();
  });

  function picker(endpoint: string, language = 'en') {
    return fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${purchase.checkout_url}
      payment-methods-url=${endpoint}
      language=${language}
      country="lv"
    ></svc-checkout>`);
  }

  it('two elements at once and later renders make one request within a minute', async () => {
    // A query of its own (the endpoint reads recurring=false as no filter), so no earlier test has asked it.
    const endpoint = `${PAYMENT_METHODS_URL}?recurring=false`;
    const url = lookupUrl(endpoint, 'en')!;
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <svc-checkout checkout-url=${purchase.checkout_url} payment-methods-url=${endpoint} language="en"></svc-checkout>
      <svc-checkout checkout-url=${purchase.checkout_url} payment-methods-url=${endpoint} language="en"></svc-checkout>
    </div>`);
    const [first, second] = [...wrapper.querySelectorAll('svc-checkout')];
    await pickerShown(first!);
    await pickerShown(second!);
    expect(radios(first!).length).to.be.greaterThan(3);
    expect(choiceNames(second!)).to.deep.equal(choiceNames(first!));

    first!.country = 'ee';
    first!.requestUpdate();
    await first!.updateComplete;
    second!.remove();
    wrapper.append(second!);
    const third = await picker(endpoint);
    await pickerShown(third);
    expect(requestsFor(url)).to.equal(1);

    // Another language is another query, with its own request.
    const latvian = await picker(endpoint, 'lv');
    await pickerShown(latvian);
    expect(requestsFor(lookupUrl(endpoint, 'lv')!)).to.equal(1);
    expect(requestsFor(url)).to.equal(1);
  });

  it('keeps the answer in the tab’s storage, keyed by the request URL, with its time', async () => {
    const endpoint = `${PAYMENT_METHODS_URL}?skip_capture=false`;
    const element = await picker(endpoint);
    await pickerShown(element);
    const stored = JSON.parse(sessionStorage.getItem(LOOKUP_STORAGE_PREFIX + lookupUrl(endpoint, 'en'))!);
    expect(Date.now() - stored.at).to.be.within(0, 10_000);
    expect(stored.methods.card_methods).to.deep.equal(['visa', 'mastercard']);
  });

  describe('a stored answer (as a page of the tab before this one left it)', () => {
    // The endpoint of these cannot be reached: only the stored answer can fill the list.
    const endpoint = 'http://127.0.0.1:9/payment-methods';
    let answer: unknown;
    before(async () => {
      answer = await (await fetch(`${PAYMENT_METHODS_URL}?language=en`)).json();
    });

    function store(at: number, where = endpoint): void {
      sessionStorage.setItem(
        LOOKUP_STORAGE_PREFIX + lookupUrl(where, 'en'),
        JSON.stringify({ at, methods: answer }),
      );
    }

    it('younger than a minute: used, without a request', async () => {
      store(Date.now() - (LOOKUP_REUSE_MS - 5_000));
      const element = await picker(endpoint);
      await pickerShown(element);
      expect(shadow(element).querySelector('[role="alert"]')).to.equal(null);
      expect(radios(element).map((input) => input.value)).to.include('citadele_lv_pis');
      expect(requestsFor(lookupUrl(endpoint, 'en')!)).to.equal(0);
    });

    it('older than a minute: not used; the lookup is made (and fails here)', async () => {
      const old = `${endpoint}-old`;
      store(Date.now() - (LOOKUP_REUSE_MS + 1_000), old);
      await capturingConsoleErrors(async (errors) => {
        const element = await picker(old);
        await pickerShown(element);
        expect(shadow(element).querySelector('[role="alert"]')).to.not.equal(null);
        expect(radios(element)).to.have.length(0);
        expect(requestsFor(lookupUrl(old, 'en')!)).to.equal(1);
        await consoleSettled();
        expect(errors).to.have.length(1);
      });
    });
  });
});
