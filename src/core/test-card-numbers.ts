/**
 * The sandbox's test cards that merchants' tests name most (README, "Test cards"), by the outcome each gives:
 * `TEST_CARD_NUMBERS` of svc-checkout/testing, and the first names the sandbox's test helpers take.
 */
export const TEST_CARD_NUMBERS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDSecure: '4000000000003220',
  processingError: '4000000000000119',
} as const;
