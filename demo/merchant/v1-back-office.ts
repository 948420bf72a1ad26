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
 *   GET  /api/v1/back-office/clients        {clients}: the shop's Clients with their saved cards, newest first
 *   POST /api/v1/back-office/remove-card    {clientId, cardId}: deletes the Client's saved card
 *   POST /api/v1/back-office/charge-card    {clientId, cardId}: a new order of the cart, paid with that card
 * Each POST answers 200 {order, message} (for a charge, the new order; for remove-card {client, message}),
 * or {error, message} with 400 (the request: `malformed_body`, `invalid_request`, `invalid_amount`), 404
 * `unknown_order` or `unknown_card`, 415 `unsupported_media_type`, 422 `refused` (the gateway's refusal, with
 * `cause` {code, description}) or 502 `gateway_error`.
 */
import { type FetchHandler, type Purchase, V1ApiError, type V1Client } from 'svc-checkout/server';
import { json, methodNotAllowed } from './json-answers.js';
import { Refusal, readBody, refusal } from './json-requests.js';
import { money } from './v1-cart.js';
import type { SavedCard, ShopClient, V1Customers } from './v1-customers.js';
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

/** The paths of the back office's Clients: the list, and what the staff do to a Client's saved card. */
export const V1_BACK_OFFICE_CLIENT_PATHS = {
  clients: '/api/v1/back-office/clients',
  removeCard: '/api/v1/back-office/remove-card',
  chargeCard: '/api/v1/back-office/charge-card',
} as const;

/** What the staff do to a Client's saved card. */
export type ClientCardOperation = Exclude<keyof typeof V1_BACK_OFFICE_CLIENT_PATHS, 'clients'>;

/** What `remove-card` answers when the gateway did it. */
export interface CardRemoved {
  /** The Client as it is now, without the card. */
  client: ShopClient;
  message: string;
}

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
  customers: V1Customers;
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

/** The members of a request about a Client's saved card. */
const CARD_MEMBERS = ['clientId', 'cardId'] as const;

/** The gateway's ids: a Client's, and a saved card's (its Purchase's). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/**
 * Reads an operation's request.
 * @throws Refusal naming what is wrong with it.
 */
async function readRequest(
  request: Request,
  operation: BackOfficeOperation,
  log: V1EventLog,
): Promise<OperationRequest> {
  const { reference, amount } = await readBody(request, MEMBERS[operation]);
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
      const what = `${money(payment.payment.amount, payment.payment.currency)} of order ${order.reference}`;
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
    } satisfies BackOfficeRefusal);
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

  /**
   * The Client's saved card a request names.
   * @throws Refusal: 404 `unknown_card` when the account has no such Client, or the Client no such card.
   */
  async function namedCard(request: Request): Promise<{ clientId: string; card: SavedCard }> {
    const body = await readBody(request, CARD_MEMBERS);
    for (const member of CARD_MEMBERS) {
      if (typeof body[member] !== 'string' || !UUID.test(body[member])) {
        throw refusal(
          400,
          'invalid_request',
          `${member} is required: the ${member === 'clientId' ? "Client's" : "saved card's"} id, a UUID, not ${JSON.stringify(body[member])}`,
        );
      }
    }
    const { clientId, cardId } = body as Record<(typeof CARD_MEMBERS)[number], string>;
    const card = await deps.customers.card(clientId, cardId).catch((error: unknown) => {
      if (error instanceof V1ApiError && error.code === 'not_found') return undefined;
      console.error(`demo shop: reading the saved cards of client ${clientId} failed:`, error);
      throw refusal(502, 'gateway_error', `The gateway did not answer about client ${clientId}; try again`);
    });
    if (!card) throw refusal(404, 'unknown_card', `Client ${clientId} has no saved card ${cardId}`);
    return { clientId, card };
  }

  const clients: FetchHandler = async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    try {
      return json(200, { clients: await deps.customers.list() });
    } catch (error) {
      console.error("demo shop: listing the shop's clients failed:", error);
      return json(502, {
        error: 'gateway_error',
        message: 'The gateway did not list the clients; try again',
      });
    }
  };

  const removeCard: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let named: { clientId: string; card: SavedCard };
    try {
      named = await namedCard(request);
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return json(error.status, error.body);
    }
    const { clientId, card } = named;
    try {
      await client.clients.deleteRecurringToken(clientId, card.id);
    } catch (error) {
      if (error instanceof V1ApiError && error.code === 'not_found') {
        return json(404, {
          error: 'unknown_card',
          message: `Client ${clientId} has no saved card ${card.id}`,
        });
      }
      console.error(`demo shop: removing the saved card ${card.id} failed:`, error);
      return json(502, {
        error: 'gateway_error',
        message: `The gateway did not remove ${card.description}; try again`,
      });
    }
    const message = `Removed ${card.description} from the saved cards of`;
    try {
      // The order that saved it can no longer be charged: shown at once, before the webhook says so.
      if (card.reference !== null) keep(await client.purchases.get(card.id));
      const now = await deps.customers.get(clientId);
      const done: CardRemoved = {
        client: now,
        message: `${message} ${now.email}: it is no longer offered at checkout and cannot be charged.`,
      };
      return json(200, done);
    } catch (error) {
      // Removed all the same: only the page's picture of it is behind.
      console.error(`demo shop: reading client ${clientId} after removing a card failed:`, error);
      return json(502, {
        error: 'gateway_error',
        message: `${message} client ${clientId}, but the gateway did not answer when asked again; reload the page`,
      });
    }
  };

  // The same charge as an order's "Charge the saved card", named by the Client's card.
  const chargeCard: FetchHandler = async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let order: V1Order;
    try {
      const { clientId, card } = await namedCard(request);
      const saving = card.reference === null ? undefined : log.order(card.reference);
      if (!saving) {
        throw refusal(
          404,
          'unknown_card',
          `Client ${clientId}'s card ${card.id} was not saved by an order of this shop`,
        );
      }
      order = saving;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return json(error.status, error.body);
    }
    try {
      return json(200, await operations.charge({ order, amount: undefined }));
    } catch (error) {
      const answer = await refusalOf(error, 'charge', order);
      return json(answer.status, answer.body);
    }
  };

  return new Map<string, FetchHandler>([
    [V1_BACK_OFFICE_PATHS.purchases, purchases],
    [V1_BACK_OFFICE_PATHS.capture, route('capture')],
    [V1_BACK_OFFICE_PATHS.release, route('release')],
    [V1_BACK_OFFICE_PATHS.refund, route('refund')],
    [V1_BACK_OFFICE_PATHS.charge, route('charge')],
    [V1_BACK_OFFICE_PATHS.markAsPaid, route('markAsPaid')],
    [V1_BACK_OFFICE_CLIENT_PATHS.clients, clients],
    [V1_BACK_OFFICE_CLIENT_PATHS.removeCard, removeCard],
    [V1_BACK_OFFICE_CLIENT_PATHS.chargeCard, chargeCard],
  ]);
}
