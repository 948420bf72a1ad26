/**
 * A test card as a test names it: a name (`visa`, `declined`, `three_d_secure`, the README's test cards table
 * in words), a number (spaces allowed), or a number with its own expiry, CVC and holder. What is left out is
 * filled in as a customer would type it: an expiry three years ahead on the sandbox clock, a CVC of the right
 * length, a holder name.
 */
import { findTestCard } from '../test-cards.js';
import { invalidInput } from './test-helper-error.js';

/** The test cards by name, in the order of the README's table. */
export const TEST_CARD_NAMES = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficient_funds: '4000000000009995',
  three_d_secure: '4000000000003220',
  processing_error: '4000000000000119',
  recurring_declined: '4000000000000341',
  recurring_declined_after_acceptance: '4000000000000358',
  visa_electron_nordic: '4000056655665556',
  debit_mastercard_nordic: '5200828282828210',
  visa_citadele: '4012000000000008',
  amex: '378282246310005',
  maestro: '6759649826438453',
} as const;

export type TestCardName = keyof typeof TEST_CARD_NAMES;

/** A card to pay with: a {@link TestCardName}, a test card's number, or the number with the form's other fields. */
export type TestCardChoice =
  | TestCardName
  | (string & {})
  | { number: string; expiry?: string; cvc?: string; holder?: string };

/** The card form's fields, all filled. */
export interface CardFields {
  number: string;
  expiry: string;
  cvc: string;
  holder: string;
}

/**
 * The card fields of a choice (`visa` when none), read from anything a caller may send.
 * @throws TestHelperError `invalid_input` naming `field` when the choice is neither a name nor a number.
 */
export function cardFieldsOf(choice: unknown, now: Date, field = 'card'): CardFields {
  const given = choice ?? 'visa';
  const spec =
    typeof given === 'string'
      ? { number: given }
      : typeof given === 'object' && !Array.isArray(given)
        ? (given as Record<string, unknown>)
        : undefined;
  if (spec === undefined || typeof spec['number'] !== 'string') {
    throw invalidInput(
      field,
      `${field} must be a test card's name (${Object.keys(TEST_CARD_NAMES).join(', ')}), its number, or {number, expiry?, cvc?, holder?}`,
    );
  }
  for (const member of ['expiry', 'cvc', 'holder'] as const) {
    if (spec[member] !== undefined && typeof spec[member] !== 'string')
      throw invalidInput(`${field}.${member}`, `${field}.${member} must be a string`);
  }
  const named = spec['number']
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  let number: string;
  if (Object.hasOwn(TEST_CARD_NAMES, named)) number = TEST_CARD_NAMES[named as TestCardName];
  else if (/^[\d\s-]+$/.test(spec['number'])) number = spec['number'].replace(/[\s-]/g, '');
  else {
    throw invalidInput(
      typeof given === 'string' ? field : `${field}.number`,
      `${JSON.stringify(spec['number'])} is no test card name (${Object.keys(TEST_CARD_NAMES).join(', ')}) and no card number`,
    );
  }
  const year = (now.getUTCFullYear() + 3) % 100;
  return {
    number,
    expiry: (spec['expiry'] as string | undefined) ?? `12/${String(year).padStart(2, '0')}`,
    cvc: (spec['cvc'] as string | undefined) ?? (number.startsWith('3') ? '1234' : '123'),
    holder: (spec['holder'] as string | undefined) ?? 'Test Customer',
  };
}

/**
 * Refuses a 3-D Secure answer for a card that asks for none: the test would believe it answered a challenge.
 * Unknown numbers are left to the gateway to refuse.
 */
export function checkThreeDSecureAnswer(answer: string | undefined, number: string): void {
  if (answer !== undefined && findTestCard(number)?.outcome.kind !== 'challenge')
    throw invalidInput(
      'threeDSecure',
      'threeDSecure answers the 3-D Secure challenge, which only the card three_d_secure (4000 0000 0000 3220) asks for; leave it out, or pay with that card',
    );
}
