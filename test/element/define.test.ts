// Defining the tag is safe to repeat (the npm package and the gateway's script on one page, a bundle
// loaded twice), and the manifest that editors and docs read documents the element's tokens and events.
import { expect } from '@open-wc/testing';
import { DESIGN_TOKEN_NAMES } from '../../src/core/design-token-names.js';
import { DEFAULT_APPEARANCE, type TokenName } from '../../src/core/design-tokens.js';
import '../../src/element/define.js';
import { defineSvcCheckout, SVC_CHECKOUT_TAG } from '../../src/element/register.js';
import { SvcCheckout } from '../../src/element/svc-checkout.js';
import { FRAME_BOX_TOKENS } from '../../src/element/svc-checkout.styles.js';

/** Loads a classic script and resolves with the errors it raised (uncaught errors do not reject). */
function runClassicScript(src: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    window.addEventListener('error', onError);
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => {
      window.removeEventListener('error', onError);
      script.remove();
      resolve(errors);
    };
    script.onerror = () => reject(new Error(`${src} did not load; run npm run build:browser`));
    document.head.append(script);
  });
}

describe('defining <svc-checkout>', () => {
  it('defines the tag once, with the class, and ignores repeated definitions', async () => {
    expect(customElements.get(SVC_CHECKOUT_TAG)).to.equal(SvcCheckout);
    expect(() => defineSvcCheckout()).to.not.throw();
    // A second evaluation of the defining module, as a page that bundles it twice would run it.
    const again = new URL('../../src/element/define.ts?again', import.meta.url).href;
    await import(/* @vite-ignore */ again);
    expect(customElements.get('svc-checkout')).to.equal(SvcCheckout);
  });

  it('survives the gateway’s built scripts on a page that already has the element, twice each', async () => {
    const module = `/dist/browser/svc-checkout.js`;
    try {
      expect(SvcCheckout.defaultGateway).to.equal(undefined);
      await import(/* @vite-ignore */ module);
      // The built script has its own copy of the class; the page's elements are made by the one defined
      // first (the npm package's), so that one gets the gateway: the origin the script came from.
      expect(SvcCheckout.defaultGateway).to.equal(location.origin);
      await import(/* @vite-ignore */ `${module}?twice`);
      SvcCheckout.defaultGateway = undefined;
      expect(await runClassicScript('/dist/browser/svc-checkout.classic.js')).to.deep.equal([]);
      expect(SvcCheckout.defaultGateway, 'the classic script’s own address').to.equal(location.origin);
      expect(await runClassicScript('/dist/browser/svc-checkout.classic.js?twice')).to.deep.equal([]);
      expect(customElements.get('svc-checkout')).to.equal(SvcCheckout);
    } finally {
      SvcCheckout.defaultGateway = undefined;
    }
  });

  it('uses the default gateway of the class that made it, such as a subclass the page registered', async () => {
    class ShopCheckout extends SvcCheckout {}
    customElements.define('shop-checkout', ShopCheckout);
    ShopCheckout.defaultGateway = location.origin;
    const element = document.createElement('shop-checkout') as SvcCheckout;
    element.widgetId = 'w-1';
    element.lazy = true;
    document.body.append(element);
    try {
      element.init();
      expect(element.state).to.equal('loading');
      await element.updateComplete;
      expect(element.shadowRoot!.querySelector('iframe')?.src ?? '').to.match(
        new RegExp(
          `^${location.origin}/widget/frame/w-1\\?fields=0&lang=\\w*&card-layout=&cardholder-name=#`,
        ),
      );
    } finally {
      element.remove();
    }
  });

  // Both modes: v1's attributes, navigateToCheckout and the picker's parts are documented with the legacy ones.
  it('is documented in custom-elements.json with every design token, its events and its parts', async () => {
    const manifest = (await (await fetch('/custom-elements.json')).json()) as {
      modules: Array<{ path: string; declarations?: Array<Record<string, unknown>> }>;
    };
    const declaration = manifest.modules
      .flatMap((module) => module.declarations ?? [])
      .find((entry) => entry['tagName'] === 'svc-checkout');
    expect(declaration, 'no svc-checkout in custom-elements.json').to.not.equal(undefined);
    const names = (key: string) => (declaration![key] as Array<{ name: string }>).map((entry) => entry.name);
    expect(names('cssProperties')).to.deep.equal([...DESIGN_TOKEN_NAMES, ...Object.keys(FRAME_BOX_TOKENS)]);
    // The @cssproperty JSDoc describes each token for people; its stated default is the frame's (the
    // iframe box's, for the element's own tokens).
    const defaults: Record<string, string> = { ...DEFAULT_APPEARANCE, ...FRAME_BOX_TOKENS };
    for (const { name, description } of declaration!['cssProperties'] as Array<{
      name: TokenName;
      description: string;
    }>) {
      expect(description, name).to.include(`Default \`${defaults[name]}\``);
    }
    expect(names('events')).to.deep.equal([
      'paymentCompleted',
      'navigateBackToCart',
      'checkoutError',
      'navigateToCheckout',
    ]);
    expect(names('cssParts')).to.deep.equal([
      'frame',
      'loading',
      'error',
      'retry-button',
      'status',
      'picker',
      'group',
      'method',
      'country-select',
      'confirm-button',
    ]);
    expect(names('attributes')).to.include.members([
      'widget-id',
      'order',
      'lazy',
      'gateway',
      'texts',
      'first-name',
      'back-to-merchant-url',
      'checkout-url',
      'payment-methods-url',
      'country',
      'method',
      'card-layout',
      'cardholder-name',
    ]);
  });
});
