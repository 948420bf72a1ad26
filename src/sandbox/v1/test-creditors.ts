/**
 * Creditors for bulk and variable-creditor bank payments. The gateway takes only creditor IBANs (and, for a
 * variable creditor, names) whitelisted in advance by agreement; the sandbox's whitelist is this fixed list,
 * as its test cards are, so merchants can exercise both the accepted and the refused case.
 */

export interface TestCreditor {
  name: string;
  iban: string;
}

/** The whitelisted creditors: one per country with bank methods. */
export const TEST_CREDITORS: readonly TestCreditor[] = [
  { name: 'Sandbox Creditor LV', iban: 'LV80BANK0000435195001' },
  { name: 'Sandbox Creditor EE', iban: 'EE382200221020145685' },
  { name: 'Sandbox Creditor LT', iban: 'LT121000011101001000' },
];

/** An IBAN without spaces, in capitals. */
export function normalizeIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase();
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

/** Whether the IBAN is on the whitelist. */
export function isWhitelistedIban(iban: string): boolean {
  const normalized = normalizeIban(iban);
  return TEST_CREDITORS.some((creditor) => creditor.iban === normalized);
}

/** Whether name and IBAN are a whitelisted creditor (a variable creditor needs both). */
export function isWhitelistedCreditor(name: string, iban: string): boolean {
  const normalized = normalizeIban(iban);
  return TEST_CREDITORS.some((creditor) => creditor.iban === normalized && creditor.name === name.trim());
}
