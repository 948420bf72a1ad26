// `card-layout` and `cardholder-name`: the element hands the card form's settings to the frame in its URL,
// which the frame reads before its first render (test/frame/card-block.test.ts shows what it does with them).
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/element/define.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { gatewayInfo, iframeOf, shadow } from './helpers.js';

describe('<svc-checkout> card form settings', () => {
  let widgetId: string;
  before(async () => {
    widgetId = (await gatewayInfo()).widgets.checkout;
  });

  /**
   * The settings as the iframe's URL carries them to the gateway and the frame (which reads them with
   * readCardSettings): in its query.
   */
  const settingsOf = (iframe: HTMLIFrameElement) => {
    const query = new URL(iframe.src).searchParams;
    return { layout: query.get('card-layout'), holder: query.get('cardholder-name') };
  };

  it('passes card-layout and cardholder-name to the frame', async () => {
    const element = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
      card-layout="compact"
      cardholder-name="hidden"
    ></svc-checkout>`);
    expect(settingsOf(await iframeOf(element))).to.deep.equal({ layout: 'compact', holder: 'hidden' });
    expect(element.cardLayout).to.equal('compact');
    expect(element.cardholderName).to.equal('hidden');
  });

  it('without them, the form as before; a value the frame does not know goes as written, for it to name', async () => {
    const plain = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
    ></svc-checkout>`);
    // Empty: the frame's defaults (stacked, required).
    expect(settingsOf(await iframeOf(plain))).to.deep.equal({ layout: '', holder: '' });

    const odd = await fixture<SvcCheckout>(html`<svc-checkout
      gateway=${location.origin}
      widget-id=${widgetId}
      amount="1.00"
      label="Tea"
      cardholder-name="no&card-layout=compact"
    ></svc-checkout>`);
    expect(settingsOf(await iframeOf(odd))).to.deep.equal({ layout: '', holder: 'no&card-layout=compact' });
  });

  it('takes settings a script gives right after adding the element, before it starts', async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
    const element = document.createElement('svc-checkout');
    for (const [name, value] of Object.entries({
      gateway: location.origin,
      'widget-id': widgetId,
      amount: '1.00',
      label: 'Tea',
    })) {
      element.setAttribute(name, value);
    }
    wrapper.append(element);
    // The frame opens as the element connects; the settings come in the same task, as the order's may.
    element.cardholderName = 'optional';
    await waitUntil(() => {
      const iframe = shadow(element).querySelector('iframe');
      return iframe && settingsOf(iframe).holder === 'optional';
    }, 'the frame was not opened again with the settings');
    expect(shadow(element).querySelectorAll('iframe')).to.have.length(1);
  });
});
