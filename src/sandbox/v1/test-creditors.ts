/**
 * Creditors of bulk and variable-creditor bank payments. The gateway takes only creditor IBANs (and, for a
 * variable creditor, names) that the merchant whitelisted in advance by agreement; in the sandbox each
 * merchant's whitelist is `merchants[].v1.creditors` of the config, {@link TEST_CREDITORS} by default, so
 * merchants can exercise both the accepted and the refused case.
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

/** An IBAN without spaces, in capitals. */
export function normalizeIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase();
}

/** An IBAN as people read it: groups of four (`LV80 BANK 0000 4351 9500 1`). */
export function formatIban(iban: string): string {
  return normalizeIban(iban).replace(/(.{4})(?=.)/g, '$1 ');
}

/** Whether the text is an IBAN: country, check digits and account, with the ISO 13616 mod-97 check. */
export function isIban(text: string): boolean {
  const iban = normalizeIban(text);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`;
  let remainder = 0;
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Whether the IBAN is on the whitelist (a bulk payment's creditors need only that). */
export function isWhitelistedIban(iban: string, whitelist: readonly TestCreditor[]): boolean {
  const normalized = normalizeIban(iban);
  return whitelist.some((creditor) => normalizeIban(creditor.iban) === normalized);
}

/** Whether name and IBAN are one whitelisted creditor (a variable creditor needs both). */
export function isWhitelistedCreditor(
  name: string,
  iban: string,
  whitelist: readonly TestCreditor[],
): boolean {
  const normalized = normalizeIban(iban);
  return whitelist.some(
    (creditor) => normalizeIban(creditor.iban) === normalized && creditor.name.trim() === name.trim(),
  );
}
