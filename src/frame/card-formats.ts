/**
 * Each card field's text as it is typed: the number in groups by its scheme, the expiry with its slash, the
 * CVC in digits. One table for the frame's `<svc-card-fields>` and the hosted checkout page's script.
 */
import { formatCardNumber, formatExpiryInput } from '../core/card.js';
import type { CardValues } from './card-checks.js';

export const CARD_FORMATS: Readonly<Record<keyof CardValues, (text: string) => string>> = {
  number: formatCardNumber,
  expiry: formatExpiryInput,
  cvc: (text) => text.replace(/\D/g, '').slice(0, 4),
  holder: (text) => text,
};
