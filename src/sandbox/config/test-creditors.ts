/**
 * The creditors whitelisted for v1 bank payments when a merchant's config names none. The gateway takes only
 * creditor IBANs (and, for a variable creditor, names) that the merchant whitelisted in advance by agreement;
 * in the sandbox each merchant's whitelist is `merchants[].v1.creditors` of the config, {@link TEST_CREDITORS}
 * by default, so merchants can exercise both the accepted and the refused case.
 */

/** A creditor as a whitelist names it. */
export interface TestCreditor {
  name: string;
  /** In {@link TEST_CREDITORS} and a checked config: without spaces, in capitals. */
  iban: string;
}

/**
 * The default creditor whitelist: what a merchant whose config has no `merchants[].v1.creditors` takes, and
 * the demo merchant's. One creditor per country with bank methods.
 */
export const TEST_CREDITORS: readonly TestCreditor[] = [
  { name: 'Sandbox Creditor LV', iban: 'LV80BANK0000435195001' },
  { name: 'Sandbox Creditor EE', iban: 'EE382200221020145685' },
  { name: 'Sandbox Creditor LT', iban: 'LT121000011101001000' },
];
