/**
 * The Webhooks endpoints of `/api/v1/`: create, list, get, replace (`PUT`), change (`PATCH`) and delete a
 * webhook, and `GET /webhooks/deliveries/` for an object's delivery history. Lists are pages with `next`.
 *
 * The sandbox's events are of Purchases and refund Payments. A subscriber's (`billing_template_client`)
 * deliveries are those of the Purchases made for it; the sandbox makes no payouts, so no payout id names one.
 */
import { HttpError, type RequestContext, type RouteHandler, type Router, sendJson } from '../http.js';
import type { V1Billing } from './billing.js';
import { V1HttpError } from './errors.js';
import { pageOf, readPageRequest, requestedPage } from './pagination.js';
import type { PurchaseOperations } from './purchase-operations.js';
import type { V1Purchases } from './purchases.js';
import { sendNoContent, type V1Handler } from './request-context.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';
import { type DeliverySource, readDeliveriesQuery, readWebhookBody } from './webhook-request.js';
import { type V1Webhooks, webhookView } from './webhooks.js';

export interface WebhookRoutesDeps {
  webhooks: V1Webhooks;
  deliveries: WebhookDeliveries;
  purchases: V1Purchases;
  /** The refund Payments, whose deliveries are listed too. */
  operations: Pick<PurchaseOperations, 'payment'>;
  /** The Purchases of a subscriber, whose deliveries are its. */
  billing: Pick<V1Billing, 'subscriberPurchaseIds'>;
  authenticated: (handler: V1Handler) => RouteHandler;
}

export function mountWebhookRoutes(api: Router, deps: WebhookRoutesDeps): void {
  const { webhooks, deliveries, purchases, operations, billing, authenticated: as } = deps;
  /** The objects whose deliveries are the source's: itself, or a subscriber's Purchases. @throws 404. */
  const objectsOf = (merchantId: string, source: DeliverySource): DeliverySource[] => {
    switch (source.type) {
      case 'purchase':
        purchases.get(merchantId, source.id);
        return [source];
      case 'payment':
        operations.payment(merchantId, source.id);
        return [source];
      case 'billing_template_client':
        return billing.subscriberPurchaseIds(merchantId, source.id).map((id) => ({ type: 'purchase', id }));
      case 'payout':
        throw V1HttpError.nonField(
          404,
          'not_found',
          `No payout ${source.id}: the sandbox makes no payouts (the document shows no Payout operations)`,
        );
    }
  };
  const replace = (partial: boolean) =>
    as(async ({ http, merchant, params }) => {
      const body = await http.json();
      const current = webhooks.get(merchant.id, params['id']!);
      const read = readWebhookBody(body, partial ? webhooks.draftOf(current) : undefined);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 200, webhookView(webhooks.update(merchant.id, current.webhook.id, read.draft)));
    });
  api.on(
    'POST',
    '/webhooks/',
    as(async ({ http, merchant }) => {
      const read = readWebhookBody(await http.json());
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 201, webhookView(await webhooks.create(merchant.id, read.draft)));
    }),
  );
  api.on(
    'GET',
    '/webhooks/',
    as(({ http, merchant, baseUrl }) => {
      sendJson(http.res, 200, requestedPage(http, baseUrl, webhooks.list(merchant.id).map(webhookView)));
    }),
  );
  // Before `/webhooks/:id/`, which would take `deliveries` for an id.
  api.on(
    'GET',
    '/webhooks/deliveries/',
    as(({ http, merchant, baseUrl }) => {
      const read = readDeliveriesQuery(http.url.searchParams);
      const page = readPageRequest(http.url.searchParams);
      if ('issues' in read || 'issues' in page) {
        throw V1HttpError.invalid([
          ...('issues' in read ? read.issues : []),
          ...('issues' in page ? page.issues : []),
        ]);
      }
      const listed = objectsOf(merchant.id, read.source)
        .flatMap((object) => deliveries.list(merchant.id, object))
        // Oldest first across a subscriber's Purchases; the sort is stable, so each keeps its own order.
        .sort((a, b) => a.created_on.localeCompare(b.created_on));
      sendJson(http.res, 200, pageOf(listed, page.request, ownUrl(http, baseUrl)));
    }),
  );
  api.any('/webhooks/deliveries/', () => {
    throw new HttpError(
      405,
      'method_not_allowed',
      'Webhook deliveries are only read (GET)',
      undefined,
      undefined,
      {
        allow: 'GET',
      },
    );
  });
  api.on(
    'GET',
    '/webhooks/:id/',
    as(({ http, merchant, params }) => {
      sendJson(http.res, 200, webhookView(webhooks.get(merchant.id, params['id']!)));
    }),
  );
  api.on('PUT', '/webhooks/:id/', replace(false));
  api.on('PATCH', '/webhooks/:id/', replace(true));
  api.on(
    'DELETE',
    '/webhooks/:id/',
    as(({ http, merchant, params }) => {
      deliveries.deleteWebhook(merchant.id, params['id']!);
      sendNoContent(http.res);
    }),
  );
}

/** The request's URL on the host the caller used, for the page links. */
function ownUrl(http: RequestContext, baseUrl: string): URL {
  return new URL(`${http.url.pathname}${http.url.search}`, baseUrl);
}
