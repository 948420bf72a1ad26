/**
 * Type test of svc-checkout/testing with Playwright's own types: a merchant's Page, Frame and Locator (of
 * playwright-core, which @playwright/test re-exports) fit the helper's shapes, and its outcome narrows by
 * `outcome`. Compiled by the typecheck (tsconfig.json), never run; test/package/testing-types.test.ts compiles
 * the same against the built declarations with skipLibCheck off.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import { type CheckoutOutcome, payInCheckout } from 'svc-checkout/testing';

export async function shapes(page: Page, frame: Frame, cart: Locator): Promise<string> {
  await payInCheckout(frame);
  await payInCheckout(page, { element: cart, card: { number: '4000000000000002' }, threeDSecure: 'deny' });
  // @ts-expect-error the 3-D Secure answer is approve or deny
  await payInCheckout(page, { threeDSecure: 'yes' });
  const outcome: CheckoutOutcome = await payInCheckout(page, { element: '#cart svc-checkout' });
  if (outcome.outcome === 'failed') return outcome.code;
  // @ts-expect-error only a failure has a code
  return outcome.code;
}
