// The v1 picker loads logos from the gateway only (issue 9: a protocol-relative `//host/x.svg` in the payment
// methods answer loaded from a third-party origin). The answer comes over HTTP from a static file on this
// page's origin, as a compromised or buggy endpoint would send it; the Purchase is a real one of the sandbox.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { createPurchase, type GatewayInfo, gatewayInfo, pickerShown, shadow } from './v1-helpers.js';

const HOSTILE_ANSWER = '/test/element/fixtures/hostile-logos.json';

describe('<svc-checkout> v1 logos', function () {
  this.timeout(20000);
  let info: GatewayInfo;
  before(async () => {
    info = await gatewayInfo();
  });

  it('shows only logos on the gateway’s origin, and requests nothing from another', async () => {
    const purchase = await createPurchase();
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      checkout-url=${purchase.checkout_url}
      payment-methods-url=${HOSTILE_ANSWER}
      language="en"
      country="lv"
    ></svc-checkout>`);
    await pickerShown(element);
    const images = [...shadow(element).querySelectorAll('img')];
    expect(images.map((img) => img.src)).to.deep.equal([
      `${info.gatewayUrl}/sandbox/v1/logos/mastercard.svg`,
    ]);
    await waitUntil(() => images.every((img) => img.complete), 'the gateway logo does not settle');
    // Resource timing lists every request the page made, failed ones included.
    const elsewhere = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.includes('evil.example'));
    expect(elsewhere).to.deep.equal([]);
    expect(shadow(element).innerHTML).not.to.contain('evil.example');
  });
});
