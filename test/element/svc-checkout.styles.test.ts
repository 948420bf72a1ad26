// The element's styles write the tokens' defaults out (core's appearance module would bring every token's
// checks into the script-tag file), so this holds each fallback to the one core gives the frame.
import { expect } from '@open-wc/testing';
import { DESIGN_TOKENS, type TokenName, tokenVar } from '../../src/core/appearance.js';
import { svcCheckoutStyles } from '../../src/element/svc-checkout.styles.js';

describe('<svc-checkout> styles', () => {
  it('fall back to each token’s own default, exactly as core’s tokenVar writes it', () => {
    const uses = [...svcCheckoutStyles.cssText.matchAll(/var\((--svc-[a-z-]+)[^)]*\)/g)];
    const names = new Set(uses.map(([, name]) => name));
    expect(names.size).to.be.greaterThan(10);
    for (const [use, name] of uses) {
      expect(DESIGN_TOKENS.map((token) => token.name as string)).to.include(name);
      expect(use).to.equal(tokenVar(name as TokenName));
    }
  });
});
