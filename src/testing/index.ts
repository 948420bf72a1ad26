/**
 * svc-checkout/testing: helpers for merchants' own browser tests of a page with `<svc-checkout>`, against the
 * sandbox (or the gateway's test environment). They take Playwright's objects and need no Playwright types:
 * see playwright-shapes.ts.
 */

// The cards it knows by name are the sandbox's test helpers' first names too: one table, in core.
export { TEST_CARD_NUMBERS } from '../core/test-card-numbers.js';
export {
  type CheckoutOutcome,
  CheckoutTestError,
  type PayInCheckoutOptions,
  type PaymentFailureCode,
  payInCheckout,
  type TestCard,
  type TestCustomer,
  type TestDelivery,
} from './pay-in-checkout.js';
export type { LocatorShape, RootShape } from './playwright-shapes.js';
