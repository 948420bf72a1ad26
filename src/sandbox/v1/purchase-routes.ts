/**
 * The Purchases endpoints of `/api/v1/`: create, get, cancel, and the operations after checkout (capture,
 * release, charge, delete_recurring_token, refund, mark_as_paid, resend_invoice), each answered as the
 * document shows it. How the test acquirer answers an operation is the merchant's configured mode, or the
 * request's `X-Sandbox-Acquirer` header.
 */
import { ACQUIRER_MODES, type AcquirerBehaviour, type AcquirerMode } from '../acquirer.js';
import { type RequestContext, type RouteHandler, type Router, sendJson } from '../http.js';
import type { V1Billing } from './billing.js';
import type { V1Clients } from './clients.js';
import { V1HttpError } from './errors.js';
import { readCapture, readCharge, readMarkAsPaid, readRefund } from './operation-requests.js';
import type { PurchaseOperations } from './purchase-operations.js';
import { readCreatePurchase, requestContextOf } from './purchase-request.js';
import { paymentView } from './purchase-view.js';
import { type PurchaseRecord, purchaseView, type V1Purchases } from './purchases.js';
import { clientIpOf, type V1Context, type V1Handler, type V1Merchant } from './request-context.js';

/** The test header that sets how the acquirer answers one operation. */
export const ACQUIRER_HEADER = 'x-sandbox-acquirer';
const DEFAULT_SLOW_MS = 10_000;

export interface PurchaseRoutesDeps {
  purchases: V1Purchases;
  operations: PurchaseOperations;
  /** A Purchase's `client_id` must name one of the merchant's Clients. */
  clients: Pick<V1Clients, 'has' | 'purchaseClient' | 'clientForPurchase'>;
  /** `resend_invoice` puts the invoice in the outbox again. */
  invoices: Pick<V1Billing, 'resendInvoice'>;
  authenticated: (handler: V1Handler) => RouteHandler;
}

export function mountPurchaseRoutes(api: Router, deps: PurchaseRoutesDeps): void {
  const { purchases, operations, clients, invoices, authenticated: as } = deps;
  api.on(
    'POST',
    '/purchases/',
    as(async ({ http, merchant, baseUrl }) => {
      const read = readCreatePurchase(await http.json(), requestContextOf(merchant));
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      const { draft } = read;
      if (draft.client_id !== null) {
        if (!clients.has(merchant.id, draft.client_id)) {
          throw V1HttpError.invalid([
            {
              field: 'client_id',
              code: 'invalid',
              message: `client_id ${draft.client_id} is no Client of this account`,
            },
          ]);
        }
        // The stored Client's details fill in what the Purchase's own `client` leaves out.
        draft.client = { ...clients.purchaseClient(merchant.id, draft.client_id), ...draft.client };
      }
      // As the platform, every Purchase has a Client: one found by the email, or made of the details.
      const created = purchases.transaction(() =>
        purchases.create(merchant.id, draft, {
          baseUrl,
          ...(draft.client_id === null && { clientId: clients.clientForPurchase(merchant.id, draft.client) }),
          fromIp: clientIpOf(http.req),
        }),
      );
      sendJson(http.res, 201, purchaseView(created, baseUrl));
    }),
  );
  api.on(
    'GET',
    '/purchases/:id/',
    as(({ http, merchant, params, baseUrl }) => {
      sendJson(http.res, 200, purchaseView(purchases.get(merchant.id, params['id']!), baseUrl));
    }),
  );

  /** An operation that answers the Purchase; `body` reads the request's optional JSON body. */
  const operation = (
    name: string,
    run: (
      context: V1Context,
      body: () => Promise<Record<string, unknown>>,
    ) => Promise<PurchaseRecord> | PurchaseRecord,
  ) =>
    api.on(
      'POST',
      `/purchases/:id/${name}/`,
      as(async (context) => {
        const record = await run(context, () => optionalBody(context.http));
        sendJson(context.http.res, 200, purchaseView(record, context.baseUrl));
      }),
    );
  operation('cancel', ({ merchant, params }) => purchases.cancel(merchant.id, params['id']!));
  operation('capture', async ({ http, merchant, params }, body) => {
    const { amount } = readCapture(await body());
    return operations.capture(merchant.id, params['id']!, amount, behaviour(http, merchant));
  });
  operation('release', ({ http, merchant, params }) =>
    operations.release(merchant.id, params['id']!, behaviour(http, merchant)),
  );
  operation('charge', async ({ http, merchant, params }, body) => {
    const { recurringToken } = readCharge(await body());
    return operations.charge(merchant.id, params['id']!, recurringToken, behaviour(http, merchant));
  });
  operation('delete_recurring_token', ({ http, merchant, params }) =>
    operations.deleteRecurringToken(merchant.id, params['id']!, behaviour(http, merchant)),
  );
  operation('mark_as_paid', async ({ merchant, params }, body) =>
    operations.markAsPaid(merchant.id, params['id']!, readMarkAsPaid(await body()).paidOn),
  );
  operation('resend_invoice', ({ merchant, params }) => invoices.resendInvoice(merchant.id, params['id']!));
  api.on(
    'POST',
    '/purchases/:id/refund/',
    as(async ({ http, merchant, params }) => {
      const request = readRefund(await optionalBody(http));
      const payment = operations.refund(merchant.id, params['id']!, request, behaviour(http, merchant));
      sendJson(http.res, 200, paymentView(payment, purchases.find(payment.related_to.id)));
    }),
  );
}

/** A body that may be left out: none (or an empty one) reads as `{}`. */
async function optionalBody(http: RequestContext): Promise<Record<string, unknown>> {
  const raw = await http.rawBody();
  return raw.toString('utf8').trim() === '' ? {} : http.json();
}

/**
 * How the test acquirer answers this request: the merchant's configured mode, unless the request's
 * `X-Sandbox-Acquirer` header names another.
 */
function behaviour(http: RequestContext, merchant: V1Merchant): AcquirerBehaviour {
  const header = http.req.headers[ACQUIRER_HEADER];
  const slowMs = merchant.v1.acquirer?.slowMs ?? DEFAULT_SLOW_MS;
  if (header === undefined) return { mode: merchant.v1.acquirer?.mode ?? 'normal', slowMs };
  const mode = String(header).trim().toLowerCase();
  if (!ACQUIRER_MODES.includes(mode as AcquirerMode)) {
    throw V1HttpError.nonField(
      400,
      'invalid',
      `X-Sandbox-Acquirer must be one of ${ACQUIRER_MODES.join(', ')}; it was ${JSON.stringify(header)}`,
    );
  }
  return { mode: mode as AcquirerMode, slowMs };
}
