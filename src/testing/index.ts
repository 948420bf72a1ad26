/**
 * svc-checkout/testing: helpers for merchants' own browser tests of a page with `<svc-checkout>`, against the
 * sandbox (or the gateway's test environment). They take Playwright's objects and need no Playwright types:
 * see playwright-shapes.ts.
 */
export {
  type CheckoutOutcome,
  CheckoutTestError,
  type PayInCheckoutOptions,
  type PaymentFailureCode,
  payInCheckout,
  TEST_CARD_NUMBERS,
  type TestCard,
  type TestCustomer,
  type TestDelivery,
} from './pay-in-checkout.js';
export type { LocatorShape, RootShape } from './playwright-shapes.js';
