// v1 mode from the gateway's own scripts, as built (npm run build:browser) and served by the sandbox: the
// module script fetches its v1 chunk (/widget/svc-checkout-v1-<hash>.js) only for an element with checkout-url, the
// classic script has it inline, and confirming without a listener that cancels really navigates. Each page
// is a same-origin iframe, so the test can follow it to where the element sends it.
import { expect, waitUntil } from '@open-wc/testing';
import { type GatewayInfo, gatewayInfo } from './v1-helpers.js';

const WAIT = { timeout: 8000 };

describe('<svc-checkout> v1 mode from the gateway’s scripts', function () {
  this.timeout(20000);
  let info: GatewayInfo;
  before(async () => {
    info = await gatewayInfo();
  });

  /** A page with the script and `body`, in an iframe of this origin. */
  async function page(script: string, body: string): Promise<HTMLIFrameElement> {
    const frame = document.createElement('iframe');
    frame.style.width = '600px';
    frame.style.height = '800px';
    frame.srcdoc = `<!doctype html><html lang="en"><head><title>Shop</title>${script}</head><body>${body}</body></html>`;
    document.body.append(frame);
    await waitUntil(
      () => frame.contentDocument?.querySelector('svc-checkout'),
      'the page does not load',
      WAIT,
    );
    return frame;
  }

  const chunkRequests = (frame: HTMLIFrameElement) =>
    frame
      .contentWindow!.performance.getEntriesByType('resource')
      .filter(
        (entry) =>
          entry.name.startsWith(`${info.gatewayUrl}/widget/svc-checkout-v1-`) && entry.name.endsWith('.js'),
      ).length;

  for (const [kind, file, chunks] of [
    ['module', 'svc-checkout.js', 1],
    ['classic', 'svc-checkout.classic.js', 0],
  ] as const) {
    it(`the ${kind} script: the picker ${chunks ? 'from its chunk' : 'inline'}; confirming navigates to checkout-url with preferred`, async () => {
      const src = `${info.gatewayUrl}/widget/${file}`;
      const script =
        kind === 'module' ? `<script type="module" src="${src}"></script>` : `<script src="${src}"></script>`;
      // A checkout URL on this origin, so that the test can read where the page went.
      const frame = await page(
        script,
        `<svc-checkout checkout-url="/__landing/${kind}?order=7" payment-methods-url="/__payment-methods"
          language="en" country="lv"></svc-checkout>`,
      );
      try {
        const element = () => frame.contentDocument!.querySelector('svc-checkout')!;
        await waitUntil(
          () => element().shadowRoot?.querySelector('[part~="confirm-button"]'),
          `no picker (state ${element().getAttribute('state')})`,
          WAIT,
        );
        expect(chunkRequests(frame)).to.equal(chunks);
        const visa = element().shadowRoot!.querySelector<HTMLInputElement>('input[value="visa"]')!;
        // Logos come from the checkout URL's host, here this origin.
        expect(visa.closest('label')!.querySelector('img')!.src).to.equal(
          `${location.origin}/sandbox/v1/logos/visa.svg`,
        );
        visa.click();
        await waitUntil(() => visa.checked, 'visa is not chosen');
        element().shadowRoot!.querySelector<HTMLButtonElement>('[part~="confirm-button"]')!.click();
        await waitUntil(
          () => {
            try {
              return frame.contentWindow!.location.pathname === `/__landing/${kind}`;
            } catch {
              return false;
            }
          },
          'the page does not go to the checkout URL',
          WAIT,
        );
        expect(frame.contentWindow!.location.search).to.equal('?order=7&preferred=visa');
      } finally {
        frame.remove();
      }
    });
  }

  it('the module script does not fetch the v1 chunk for a legacy element', async () => {
    const frame = await page(
      `<script type="module" src="${info.gatewayUrl}/widget/svc-checkout.js"></script>`,
      // No widget-id: the legacy element starts and stops with its error box, without the frame.
      '<svc-checkout></svc-checkout>',
    );
    try {
      const element = () => frame.contentDocument!.querySelector('svc-checkout')!;
      await waitUntil(() => element().getAttribute('state') === 'error', 'the element does not start', WAIT);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(chunkRequests(frame)).to.equal(0);
    } finally {
      frame.remove();
    }
  });
});
