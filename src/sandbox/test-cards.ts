/**
 * The sandbox's test cards (ARCHITECTURE.md, "Test cards") and a small BIN table, so that card constraints
 * (issuer, brand, payment scheme) can be exercised. Any future expiry, any CVC of the right length, any
 * holder name.
 */
import type { CardScheme } from '../core/card.js';

export type TestCardOutcome =
  | { kind: 'approved' }
  | { kind: 'declined'; code: 'card_declined' | 'insufficient_funds'; message: string }
  | { kind: 'challenge' }
  | { kind: 'processing_error'; code: 'processing_error'; message: string };

export interface TestCard {
  number: string;
  scheme: Exclude<CardScheme, 'UNKNOWN'>;
  brand: string;
  issuer: string;
  outcome: TestCardOutcome;
  /**
   * How charges of its recurring token (made without the customer) end; approved unless given.
   * `declined_after_acceptance`: the acquirer accepts the charge (`pending_charge`) and declines it when it
   * settles.
   */
  charges?:
    | Extract<TestCardOutcome, { kind: 'approved' | 'declined' }>
    | { kind: 'declined_after_acceptance'; code: 'card_declined'; message: string };
  description: string;
}

const approved = { kind: 'approved' } as const;

export const TEST_CARDS: readonly TestCard[] = [
  {
    number: '4111111111111111',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    description: 'Visa, approved',
  },
  {
    number: '5555555555554444',
    scheme: 'MASTERCARD',
    brand: 'MASTERCARD',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    description: 'Mastercard, approved',
  },
  {
    number: '4000000000000002',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: { kind: 'declined', code: 'card_declined', message: 'The card was declined' },
    description: 'declined (card declined)',
  },
  {
    number: '4000000000009995',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: { kind: 'declined', code: 'insufficient_funds', message: 'The card has insufficient funds' },
    description: 'declined (insufficient funds)',
  },
  {
    number: '4000000000003220',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: { kind: 'challenge' },
    description: '3-D Secure challenge, then approved or declined as the customer chooses',
  },
  {
    number: '4000000000000119',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: {
      kind: 'processing_error',
      code: 'processing_error',
      message: 'The processor failed; try again',
    },
    description: 'processing error (retryable)',
  },
  {
    number: '4000000000000341',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    charges: { kind: 'declined', code: 'card_declined', message: 'The card was declined' },
    description: 'approved; later charges of its recurring token declined',
  },
  {
    number: '4000000000000358',
    scheme: 'VISA',
    brand: 'VISA',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    charges: {
      kind: 'declined_after_acceptance',
      code: 'card_declined',
      message: 'The card was declined after the charge was accepted',
    },
    description: 'approved; later charges of its recurring token accepted, then declined',
  },
  // Cards of other issuers and brands, for card constraints.
  {
    number: '4000056655665556',
    scheme: 'VISA',
    brand: 'VISA ELECTRON',
    issuer: 'NORDIC BANK',
    outcome: approved,
    description: 'Visa Electron of Nordic Bank, approved',
  },
  {
    number: '5200828282828210',
    scheme: 'MASTERCARD',
    brand: 'DEBIT MASTERCARD',
    issuer: 'NORDIC BANK',
    outcome: approved,
    description: 'Debit Mastercard of Nordic Bank, approved',
  },
  {
    // The official PHP client's README constrains its example order to the brand "Citadele".
    number: '4012000000000008',
    scheme: 'VISA',
    brand: 'CITADELE',
    issuer: 'CITADELE BANKA',
    outcome: approved,
    description: 'Visa of brand Citadele (Citadele banka), approved',
  },
  // Cards of schemes a widget takes only when its config's cardSchemes names them (the default is Visa and
  // Mastercard): the gateway and the form refuse them otherwise.
  {
    number: '378282246310005',
    scheme: 'AMEX',
    brand: 'AMEX',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    description: 'American Express, approved where the widget takes AMEX',
  },
  {
    number: '6759649826438453',
    scheme: 'MAESTRO',
    brand: 'MAESTRO',
    issuer: 'SANDBOX BANK',
    outcome: approved,
    description: 'Maestro, approved where the widget takes MAESTRO',
  },
];

const byNumber = new Map(TEST_CARDS.map((card) => [card.number, card]));

/** The test card with this number (digits only), if any. */
export function findTestCard(number: string): TestCard | undefined {
  return byNumber.get(number);
}

/** The test card with these first six and last four digits (what an authorisation keeps of a card). */
export function findTestCardByDigits(bin: string, last4: string): TestCard | undefined {
  return TEST_CARDS.find((card) => card.number.startsWith(bin) && card.number.endsWith(last4));
}
