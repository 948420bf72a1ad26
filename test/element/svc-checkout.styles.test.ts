// The element's styles, and the v1 picker's, write the tokens' defaults out (core's appearance module would
// bring every token's checks into the script-tag file), so this holds each fallback to the one core gives
// the frame. The iframe's box tokens are the element's alone: each falls back to FRAME_BOX_TOKENS' default.

import type { CSSResult } from '@lit/reactive-element';
import { expect } from '@open-wc/testing';
import { DESIGN_TOKENS, type TokenName, tokenVar } from '../../src/core/design-tokens.js';
import { paymentMethodPickerStyles } from '../../src/element/payment-method-picker.styles.js';
import { FRAME_BOX_TOKENS, svcCheckoutStyles } from '../../src/element/svc-checkout.styles.js';

/** Holds each `var(--svc-...)` of the styles to core's `tokenVar`; the uses, as `[use, name]`. */
function expectCoreFallbacks(styles: CSSResult): RegExpMatchArray[] {
  const uses = [...styles.cssText.matchAll(/var\((--svc-[a-z-]+)[^)]*\)/g)];
  for (const [use, name] of uses) {
    if (Object.hasOwn(FRAME_BOX_TOKENS, name!)) {
      expect(use).to.equal(`var(${name}, ${FRAME_BOX_TOKENS[name as keyof typeof FRAME_BOX_TOKENS]})`);
      continue;
    }
    expect(DESIGN_TOKENS.map((token) => token.name as string)).to.include(name);
    expect(use).to.equal(tokenVar(name as TokenName));
  }
  return uses;
}

describe('<svc-checkout> styles', () => {
  it('fall back to each token’s own default, exactly as core’s tokenVar writes it', () => {
    const uses = expectCoreFallbacks(svcCheckoutStyles);
    expect(new Set(uses.map(([, name]) => name)).size).to.be.greaterThan(10);
  });

  it('of the v1 picker fall back to each token’s own default, as the element’s do', () => {
    expect(expectCoreFallbacks(paymentMethodPickerStyles).length).to.be.greaterThan(10);
  });
});
