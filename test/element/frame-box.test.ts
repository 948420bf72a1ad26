// The iframe is a card on the shop's page, not a white square: rounded, bordered and shadowed by default,
// each through a token of the element (`--svc-frame-radius`, `--svc-frame-border`, `--svc-frame-shadow`).
// The border lies outside the frame's content, so the iframe still fits the host's width and its height
// is the content's; the radius clips the frame's own background; forced colours keep the border.
import { expect, waitUntil } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import '../../src/element/define.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { FRAME_BOX_TOKENS } from '../../src/element/svc-checkout.styles.js';
import { gatewayInfo, iframeOf, signedCheckout } from './helpers.js';

/** The checkout widget's element with a signed one-item order, once its frame shows the form. */
async function shownFrame(style = ''): Promise<{ element: SvcCheckout; iframe: HTMLIFrameElement }> {
  const element = await signedCheckout(await gatewayInfo(), { style });
  const iframe = await iframeOf(element);
  await waitUntil(() => element.state === 'form', `state ${element.state}`, { timeout: 8000 });
  await waitUntil(() => Number.parseFloat(iframe.style.height) > 100, 'no height', { timeout: 8000 });
  return { element, iframe };
}

describe('<svc-checkout> frame box', function () {
  this.timeout(20000);

  afterEach(() => emulateMedia({ forcedColors: 'none' }));

  it('is rounded, bordered and shadowed by default, fits the host and keeps its content height', async () => {
    const { element, iframe } = await shownFrame('width: 360px');
    const style = getComputedStyle(iframe);
    expect(style.borderTopLeftRadius).to.equal(FRAME_BOX_TOKENS['--svc-frame-radius']);
    expect(style.borderTopWidth).to.equal('1px');
    expect(style.borderTopStyle).to.equal('solid');
    expect(style.borderTopColor).to.equal('rgb(209, 213, 219)');
    expect(style.boxShadow).to.not.equal('none');
    // The border box fills the host exactly: no overflow beside the shop's other cards.
    expect(iframe.getBoundingClientRect().width).to.equal(element.getBoundingClientRect().width);
    expect(iframe.clientHeight).to.equal(Number.parseFloat(iframe.style.height));
    expect(iframe.getBoundingClientRect().height).to.equal(Number.parseFloat(iframe.style.height) + 2);
  });

  it('takes the shop’s radius, border and shadow', async () => {
    const { element, iframe } = await shownFrame(
      '--svc-frame-radius: 20px; --svc-frame-border: 3px dashed rgb(1, 2, 3); --svc-frame-shadow: none',
    );
    const style = getComputedStyle(iframe);
    expect(style.borderTopLeftRadius).to.equal('20px');
    expect(style.borderTopWidth).to.equal('3px');
    expect(style.borderTopStyle).to.equal('dashed');
    expect(style.borderTopColor).to.equal('rgb(1, 2, 3)');
    expect(style.boxShadow).to.equal('none');
    expect(iframe.getBoundingClientRect().width).to.equal(element.getBoundingClientRect().width);
  });

  it('keeps its border in forced colours, painted in a system colour, where the shadow is dropped', async () => {
    const { iframe } = await shownFrame();
    await emulateMedia({ forcedColors: 'active' });
    expect(matchMedia('(forced-colors: active)').matches).to.equal(true);
    const forced = getComputedStyle(iframe);
    expect(forced.borderTopStyle).to.equal('solid');
    expect(forced.borderTopWidth).to.equal('1px');
    expect(forced.borderTopColor).to.not.equal('rgb(209, 213, 219)');
    expect(forced.boxShadow).to.equal('none');
  });
});
