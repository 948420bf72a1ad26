/**
 * The back office of the demo shop's v1 Purchases: what the shop's staff do to an order after checkout,
 * through the v1 client on this server (the secret key never reaches the page). Staff name an order by the
 * shop's own reference, so only Purchases this shop created can be touched; the gateway decides whether an
 * operation is possible, and when it refuses, the answer carries the cause read with `failureCause`.
 *
 * Routes (POSTs take a JSON object, `content-type: application/json`):
 *   GET  /api/v1/back-office/purchases      {purchases}: the shop's Purchases, newest first
 *   POST /api/v1/back-office/capture        {reference, amount?}: all that is held, or `amount` cents of it
 *   POST /api/v1/back-office/release        {reference}: gives the hold back
 *   POST /api/v1/back-office/refund         {reference, amount?}: all that is refundable, or `amount` cents
 *   POST /api/v1/back-office/charge         {reference}: a new order of the cart, paid with that order's saved card
 *   POST /api/v1/back-office/mark-as-paid   {reference}: the customer paid outside the gateway
 * Each POST answers 200 {order, message} (for a charge, the new order), or {error, message} with 400 (the
 * request: `malformed_body`, `invalid_request`, `invalid_amount`), 404 `unknown_order`, 415
 * `unsupported_media_type`, 422 `refused` (the gateway's refusal, with `cause` {code, description}) or 502
 * `gateway_error`.
 */
import { type FetchHandler, type Purchase, V1ApiError, type V1Client } from 'svc-checkout/server';
import { json, methodNotAllowed } from './json-answers.js';
import { money } from './v1-cart.js';
import type { V1EventLog, V1Order } from './v1-event-log.js';

/** The paths of the back office's routes. */
export const V1_BACK_OFFICE_PATHS = {
  purchases: '/api/v1/back-office/purchases',
  capture: '/api/v1/back-office/capture',
  release: '/api/v1/back-office/release',
  refund: '/api/v1/back-office/refund',
  charge: '/api/v1/back-office/charge',
  markAsPaid: '/api/v1/back-office/mark-as-paid',
} as const;

/** The operations of the back office. */
export type BackOfficeOperation = Exclude<keyof typeof V1_BACK_OFFICE_PATHS, 'purchases'>;

/** What an operation answers when the gateway did it. */
export interface BackOfficeDone {
  /** The order as it is now; for a charge, the new order the saved card paid. */
  order: V1Order;
  /** What happened, in a sentence for the staff. */
  message: string;
}

/** What an operation answers when it was not done. */
export interface BackOfficeRefusal {
  /** `malformed_body`, `invalid_request`, `invalid_amount`, `unknown_order`, `unsupported_media_type`, `refused`, `gateway_error`. */
  error: string;
  /** What went wrong and what to do, in a sentence for the staff. */
  message: string;
  /** For `refused`: the gateway's reason, from the Purchase's newest attempt (or its error answer). */
  cause?: { code: string; description: string };
}

export interface V1BackOfficeDeps {
  client: V1Client;
  log: V1EventLog;
  /**
   * Creates an order of the shop's cart for a charge of `token`'s saved card: a Purchase without redirects,
   * since the customer is not there.
   */
  createChargeOrder(token: V1Order): Promise<V1Order>;
}

/** What a request names: the order, and for a capture or refund the amount. */
interface OperationRequest {
  order: V1Order;
  amount: number | undefined;
}

/** The members each operation takes. */
const MEMBERS: Readonly<Record<BackOfficeOperation, readonly string[]>> = {
  capture: ['reference', 'amount'],
  release: ['reference'],
  refund: ['reference', 'amount'],
  charge: ['reference'],
  markAsPaid: ['reference'],
};

/** The gateway's error of each money operation, whose cause the Purchase's newest attempt tells. */
const OPERATION_ERRORS: Readonly<Partial<Record<BackOfficeOperation, string>>> = {
  capture: 'purchase_capture_error',
  release: 'purchase_release_error',
  refund: 'purchase_refund_error',
  charge: 'purchase_charge_error',
};

/** What the gateway refused, for "The gateway refused to …". */
const REFUSED: Readonly<Record<BackOfficeOperation, (order: V1Order) => string>> = {
  capture: (order) => `capture order ${order.reference}`,
  release: (order) => `release order ${order.reference}`,
  refund: (order) => `refund order ${order.reference}`,
  // The order is the new one, unless creating it failed.
  charge: (order) =>
    order.chargedWith === null
      ? `charge the card saved with order ${order.reference}`
      : `charge the card saved with order ${order.chargedWith} for the new order ${order.reference}`,
  markAsPaid: (order) => `mark order ${order.reference} as paid`,
};

/** A request the route cannot take, answered with its status. */
class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly body: BackOfficeRefusal,
  ) {
    super(body.message);
  }
}

const refusal = (status: number, error: string, message: string) => new Refusal(status, { error, message });

/**
 * Reads an operation's request.
 * @throws Refusal naming what is wrong with it.
 */
async function readRequest(
  request: Request,
  operation: BackOfficeOperation,
  log: V1EventLog,
): Promise<OperationRequest> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw refusal(415, 'unsupported_media_type', 'Send the request as JSON (content-type: application/json)');
  }
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw refusal(400, 'malformed_body', 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw refusal(400, 'invalid_request', 'The body must be a JSON object, such as {"reference": "V1-…"}');
  }
  const members = MEMBERS[operation];
  const unknown = Object.keys(body).find((member) => !members.includes(member));
  if (unknown !== undefined) {
    throw refusal(
      400,
      'invalid_request',
      `${JSON.stringify(unknown)} is not a member of this request; it takes ${members.join(', ')}`,
    );
  }
  const { reference, amount } = body as Record<string, unknown>;
  if (typeof reference !== 'string' || reference === '') {
    throw refusal(400, 'invalid_request', "reference is required: the shop's order reference, such as V1-…");
  }
  const order = log.order(reference);
  if (!order) throw refusal(404, 'unknown_order', `The shop has no order ${reference}`);
  if (amount !== undefined && !(Number.isSafeInteger(amount) && (amount as number) > 0)) {
    throw refusal(
      400,
      'invalid_amount',
      `amount must be a positive whole number of cents (1745 for 17.45 ${order.currency}), not ${JSON.stringify(amount)}; leave it out for all of it`,
    );
  }
  return { order, amount: amount as number | undefined };
}

/** Creates the back office's routes. */
export function createV1BackOffice(deps: V1BackOfficeDeps): ReadonlyMap<string, FetchHandler> {
  const { client, log } = deps;

  /** Takes the Purchase an operation answered, and says what became of the order. */
  const keep = (purchase: Purchase): V1Order => {
    const order = log.update(purchase);
    if (!order) throw new Error(`Purchase ${purchase.id} is none of the shop's orders`);
    return order;
  };

  /** A status that says the acquirer has not answered yet. */
  const pending = (order: V1Order, what: string): string | undefined =>
    order.status.startsWith('pending_')
      ? `The ${what} of order ${order.reference} waits for the acquirer (${order.status}); the page updates when it is done.`
      : undefined;

  const operations: Record<BackOfficeOperation, (request: OperationRequest) => Promise<BackOfficeDone>> = {
    async capture({ order, amount }) {
      const captured = keep(await client.purchases.capture(order.purchaseId, { amount }));
      const taken = amount ?? order.total;
      const rest = order.total - taken;
      return {
        order: captured,
        message:
          pending(captured, 'capture') ??
          `Captured ${money(taken, order.currency)} of order ${order.reference}${rest > 0 ? `; the other ${money(rest, order.currency)} is released` : ''}.`,
      };
    },
    async release({ order }) {
      const released = keep(await client.purchases.release(order.purchaseId));
      return {
        order: released,
        message:
          pending(released, 'release') ??
          `Released the hold of ${money(order.total, order.currency)} on order ${order.reference}.`,
      };
    },
    async refund({ order, amount }) {
      const payment = await client.purchases.refund(order.purchaseId, { amount });
      // The answer is the refund's Payment: the Purchase's refundable amount is read again.
      const refunded = keep(await client.purchases.get(order.purchaseId));
      const what = `${money(payment.amount, payment.currency)} of order ${order.reference}`;
      const left =
        refunded.refundableAmount > 0
          ? `${money(refunded.refundableAmount, order.currency)} can still be refunded`
          : 'nothing is left to refund';
      return {
        order: refunded,
        message:
          payment.status === 'pending'
            ? `The refund of ${what} waits for the acquirer; payment.refunded follows when it is done.`
            : `Refunded ${what}; ${left}.`,
      };
    },
    async charge({ order }) {
      const created = await deps.createChargeOrder(order);
      const charged = keep(
        await chargeOrRefuse(created, () =>
          client.purchases.charge(created.purchaseId, { recurring_token: order.purchaseId }),
        ),
      );
      return {
        order: charged,
        message:
          pending(charged, 'charge') ??
          `Charged the card saved with order ${order.reference}: new order ${charged.reference}, ${money(charged.total, charged.currency)}, is ${charged.status}.`,
      };
    },
    async markAsPaid({ order }) {
      const marked = keep(await client.purchases.markAsPaid(order.purchaseId));
      return { order: marked, message: `Order ${order.reference} is marked as paid.` };
    },
  };

  /**
   * A charge refused by the gateway is told about the new order (whose newest attempt has the cause), not
   * about the order whose card was to pay.
   */
  async function chargeOrRefuse(created: V1Order, charge: () => Promise<Purchase>): Promise<Purchase> {
    try {
      return await charge();
    } catch (error) {
      throw await refusalOf(error, 'charge', created);
    }
  }

  /** The answer to the gateway's refusal of an operation on `order`, with its cause. */
  async function refusalOf(error: unknown, operation: BackOfficeOperation, order: V1Order): Promise<Refusal> {
    if (error instanceof Refusal) return error;
    if (!(error instanceof V1ApiError) || error.code !== 'bad_request') {
      // The gateway's own words go to the server log; the staff get what to do.
      console.error(`demo shop: the back office's ${operation} of ${order.reference} failed:`, error);
      return refusal(
        502,
        'gateway_error',
        `The gateway did not answer the ${operation} of order ${order.reference}; try again`,
      );
    }
    const [first] = error.errors;
    const operationError = OPERATION_ERRORS[operation];
    // A money operation's 400 only says that it failed; the Purchase's newest attempt says why (rule 4).
    const read =
      operationError !== undefined && first?.code === operationError
        ? await client.purchases.failureCause(order.purchaseId).catch(() => undefined)
        : undefined;
    const cause = read
      ? { code: read.code, description: read.description }
      : { code: first?.code ?? 'unknown', description: first?.message ?? error.message };
    return new Refusal(422, {
      error: 'refused',
      message: `The gateway refused to ${REFUSED[operation](order)}: ${cause.description || cause.code} (${cause.code}).`,
      cause,
    });
  }

  const route =
    (operation: BackOfficeOperation): FetchHandler =>
    async (request) => {
      if (request.method !== 'POST') return methodNotAllowed('POST');
      let named: OperationRequest;
      try {
        named = await readRequest(request, operation, log);
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        return json(error.status, error.body);
      }
      try {
        const done: BackOfficeDone = await operations[operation](named);
        return json(200, done);
      } catch (error) {
        const answer = await refusalOf(error, operation, named.order);
        return json(answer.status, answer.body);
      }
    };

  const purchases: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    return json(200, { purchases: log.allOrders });
  };

  return new Map<string, FetchHandler>([
    [V1_BACK_OFFICE_PATHS.purchases, purchases],
    [V1_BACK_OFFICE_PATHS.capture, route('capture')],
    [V1_BACK_OFFICE_PATHS.release, route('release')],
    [V1_BACK_OFFICE_PATHS.refund, route('refund')],
    [V1_BACK_OFFICE_PATHS.charge, route('charge')],
    [V1_BACK_OFFICE_PATHS.markAsPaid, route('markAsPaid')],
  ]);
}
