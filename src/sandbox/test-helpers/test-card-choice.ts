/**
 * A test card as a test names it: a name (`visa`, `declined`, `threeDSecure`: the README's test cards table in
 * words, in any spelling, `three_d_secure` too), a number (spaces allowed), or a number with its own expiry,
 * CVC and holder. What is left out is filled in as a customer would type it: an expiry three years ahead on
 * the sandbox clock, a CVC of the right length, a holder name.
 */
import { TEST_CARD_NUMBERS } from '../../core/test-card-numbers.js';
import { findTestCard } from '../test-cards.js';
import { invalidInput } from './test-helper-error.js';

/**
 * The test cards by name, in the order of the README's table; the first five are svc-checkout/testing's
 * `TEST_CARD_NUMBERS`, under the same names.
 */
export const TEST_CARD_NAMES = {
  ...TEST_CARD_NUMBERS,
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  recurringDeclined: '4000000000000341',
  recurringDeclinedAfterAcceptance: '4000000000000358',
  visaElectronNordic: '4000056655665556',
  debitMastercardNordic: '5200828282828210',
  visaCitadele: '4012000000000008',
  amex: '378282246310005',
  maestro: '6759649826438453',
} as const;

/** A name as written any way (`threeDSecure`, `three_d_secure`, `3ds`…): its letters and digits, lower case. */
const folded = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const BY_FOLDED_NAME = new Map<string, string>([
  ...Object.entries(TEST_CARD_NAMES).map(([name, number]): [string, string] => [folded(name), number]),
  ['3ds', TEST_CARD_NAMES.threeDSecure],
]);

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
  const known = BY_FOLDED_NAME.get(folded(spec['number']));
  let number: string;
  if (known !== undefined) number = known;
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
      'threeDSecure answers the 3-D Secure challenge, which only the card threeDSecure (4000 0000 0000 3220) asks for; leave it out, or pay with that card',
    );
}
