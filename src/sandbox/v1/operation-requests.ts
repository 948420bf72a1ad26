/**
 * The bodies of the Purchase operations (capture, charge, refund, mark as paid), checked as the create
 * request is: every problem named by its field. A member the operation does not know is refused rather than
 * ignored: `{"ammount": 500}` would otherwise capture or refund everything.
 */
import { BodyReader, type Json } from '../body-reader.js';
import { V1HttpError } from './errors.js';

/** The largest amount a whole-number field takes (minor units), as in the create request. */
const MAX_AMOUNT = Number.MAX_SAFE_INTEGER;

/** The refund's `client_name`, at most (the document's "Limits", 2). */
const CLIENT_NAME_MAX = 70;

function read<T>(body: Json, known: readonly string[], take: (reader: BodyReader) => T): T {
  const reader = new BodyReader();
  for (const key of Object.keys(body)) {
    if (!known.includes(key)) {
      reader.add(key, 'invalid', `${key} is not a field of this request; it takes ${known.join(', ')}`);
    }
  }
  const value = take(reader);
  if (reader.issues.length > 0) throw V1HttpError.invalid(reader.issues);
  return value;
}

/**
 * An `amount` that may be left out for the whole amount. `null` is refused by name: read as left out, a
 * caller that meant a number it failed to fill in would capture or refund everything.
 */
function optionalAmount(reader: BodyReader, body: Json): number | undefined {
  if (body['amount'] === null) {
    reader.add('amount', 'null', 'amount may not be null; leave it out for the whole amount');
    return undefined;
  }
  return reader.integer(body, 'amount', 'amount', { min: 1, max: MAX_AMOUNT });
}

/** `{amount?}` of a capture. */
export function readCapture(body: Json): { amount?: number } {
  return read(body, ['amount'], (reader) => {
    const amount = optionalAmount(reader, body);
    return amount === undefined ? {} : { amount };
  });
}

/** `{recurring_token}` of a charge: the id of a token Purchase. */
export function readCharge(body: Json): { recurringToken: string } {
  return read(body, ['recurring_token'], (reader) => ({
    recurringToken: reader.string(body, 'recurring_token', 'recurring_token', true) ?? '',
  }));
}

/** `{amount?, client_name?}` of a refund. */
export function readRefund(body: Json): { amount?: number; clientName?: string } {
  return read(body, ['amount', 'client_name'], (reader) => {
    const amount = optionalAmount(reader, body);
    const clientName = reader.string(body, 'client_name', 'client_name');
    if (clientName !== undefined && [...clientName].length > CLIENT_NAME_MAX) {
      reader.add('client_name', 'max_length', `client_name has at most ${CLIENT_NAME_MAX} characters`);
    }
    return { ...(amount !== undefined && { amount }), ...(clientName !== undefined && { clientName }) };
  });
}

/** `{paid_on?}` of mark as paid: a Unix timestamp in seconds. */
export function readMarkAsPaid(body: Json): { paidOn?: number } {
  return read(body, ['paid_on'], (reader) => {
    const value = body['paid_on'];
    if (value === undefined || value === null) return {};
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 253402300799) {
      reader.add('paid_on', 'invalid', 'paid_on must be a Unix timestamp in seconds (UTC)');
      return {};
    }
    return { paidOn: Math.floor(value) };
  });
}
