/**
 * Creditors of bulk and variable-creditor bank payments. The gateway takes only creditor IBANs (and, for a
 * variable creditor, names) that the merchant whitelisted in advance by agreement; in the sandbox each
 * merchant's whitelist is `merchants[].v1.creditors` of the config, `TEST_CREDITORS` (config) by default, so
 * merchants can exercise both the accepted and the refused case.
 */
import type { TestCreditor } from '../config.js';
import { normalizeIban } from '../formats.js';

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
