/**
 * A gateway stand-in for the v1 client's tests on the wire: a node:http server records each request as it
 * arrived (method, path, headers, raw body) and answers canned JSON; with the platform's sample Purchase and
 * Payment and attempts to answer with.
 */
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Payment, Purchase, PurchaseAttempt } from '../../../src/server/index.js';
import { listen } from '../support.js';

export interface Recorded {
  method: string;
  /** Path and query as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, '' when none was sent. */
  body: string;
}

export interface Canned {
  status: number;
  body: unknown;
}

/** A gateway stand-in: records every request; answers what `answer` gives for it (200 `{}` otherwise). */
export async function recordingGateway() {
  const received: Recorded[] = [];
  let answer: (request: Recorded) => Canned = () => ({ status: 200, body: {} });
  const server = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: Recorded = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(request);
      const { status, body } = answer(request);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return {
    ...server,
    received,
    answer(next: (request: Recorded) => Canned) {
      answer = next;
    },
  };
}

export const ID = '6f9619ff-8b86-4011-b42d-00c04fc964ff';
export const TOKEN_ID = '0b7a3c1e-5d2f-4e8a-9c6b-1f2e3d4c5b6a';

/** A real held Purchase of the platform (its `purchase.hold` sample payload), with `overrides`. */
export function purchase(overrides: Partial<Purchase> = {}): Purchase {
  const { event_type: _, ...held } = sample('08-event-Purchase-hold.json');
  return { ...(held as unknown as Purchase), id: ID, ...overrides };
}

/** A real refund Payment of the platform (its `payment.refunded` sample payload, without `event_type`). */
export const PAYMENT: Payment = (() => {
  const { event_type: _, ...payment } = sample('12-event-Purchase-refunded.json');
  return payment as unknown as Payment;
})();

function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../fixtures/v1-samples/${name}`, import.meta.url), 'utf8'));
}

/** An attempt as the platform writes it: a successful payment, with `overrides`. */
export function attempt(overrides: Partial<PurchaseAttempt> = {}): PurchaseAttempt {
  return {
    flow: 'payform',
    type: 'execute',
    error: null,
    extra: {},
    country: '',
    client_ip: '',
    fee_amount: 0,
    successful: true,
    payment_method: 'visa',
    processing_time: 1_900_000_000,
    ...overrides,
  };
}

/** The transaction data of a Purchase with these attempts. */
export function attempts(...list: PurchaseAttempt[]): Purchase['transaction_data'] {
  return { flow: 'payform', extra: {}, country: '', payment_method: 'visa', attempts: list };
}
