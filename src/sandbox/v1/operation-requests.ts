/**
 * The bodies of the Purchase operations (capture, charge, refund, mark as paid), checked as the create
 * request is: every problem named by its field. A member the operation does not know is refused rather than
 * ignored: `{"ammount": 500}` would otherwise capture or refund everything.
 */
import {
  REFUND_CLIENT_NAME_MAX_LENGTH,
  refundClientNameProblem,
  V1_MAX_AMOUNT,
} from '../../core/v1-limits.js';
import { BodyReader, type Json } from '../body-reader.js';
import { V1HttpError } from './errors.js';

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
  return reader.integer(body, 'amount', 'amount', { min: 1, max: V1_MAX_AMOUNT });
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
    const clientName = readRefundClientName(reader, body);
    return { ...(amount !== undefined && { amount }), ...(clientName !== undefined && { clientName }) };
  });
}

/**
 * A refund's `client_name`, held to core's rule (the toolkit checks the same before sending): a blank name is
 * refused, since leaving the member out is how a refund takes the Purchase's client name.
 */
function readRefundClientName(reader: BodyReader, body: Json): string | undefined {
  const value = body['client_name'];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    reader.add('client_name', 'invalid', 'client_name must be a string');
    return undefined;
  }
  const problem = refundClientNameProblem(value);
  if (problem === 'blank') {
    reader.add(
      'client_name',
      'blank',
      "client_name may not be blank; leave it out for the Purchase's client name",
    );
  } else if (problem === 'max_length') {
    reader.add(
      'client_name',
      'max_length',
      `client_name has at most ${REFUND_CLIENT_NAME_MAX_LENGTH} characters`,
    );
  }
  return problem === undefined ? value : undefined;
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
