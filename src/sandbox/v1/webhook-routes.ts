/**
 * The Webhooks endpoints of `/api/v1/`: create, list, get, replace (`PUT`), change (`PATCH`) and delete a
 * webhook, and `GET /webhooks/deliveries/` for an object's delivery history. Lists are pages with `next`.
 */
import { type RequestContext, sendJson } from '../http.js';
import type { V1Context, V1Route } from './api.js';
import { V1HttpError } from './errors.js';
import { type PageRequest, pageOf, readPageRequest } from './pagination.js';
import type { V1Purchases } from './purchases.js';
import type { WebhookDeliveries } from './webhook-deliveries.js';
import { readDeliveriesQuery, readWebhookBody } from './webhook-request.js';
import { type V1Webhooks, webhookView } from './webhooks.js';

export interface WebhookRoutesDeps {
  webhooks: V1Webhooks;
  deliveries: WebhookDeliveries;
  purchases: V1Purchases;
}

/** `/webhooks/{id}/`, where the id is anything but `deliveries` (which is its own endpoint). */
const ONE_WEBHOOK = /^\/webhooks\/(?!deliveries\/?$)([^/]+)\/?$/;

export function webhookRoutes({ webhooks, deliveries, purchases }: WebhookRoutesDeps): V1Route[] {
  const replace = async ({ http, merchant, params }: V1Context, partial: boolean) => {
    const body = await http.json();
    const current = webhooks.get(merchant.id, params[0]!);
    const read = readWebhookBody(body, partial ? webhooks.draftOf(current) : undefined);
    if ('issues' in read) throw V1HttpError.invalid(read.issues);
    sendJson(http.res, 200, webhookView(webhooks.update(merchant.id, current.webhook.id, read.draft)));
  };
  return [
    {
      method: 'POST',
      pattern: /^\/webhooks\/?$/,
      async handler({ http, merchant }) {
        const read = readWebhookBody(await http.json());
        if ('issues' in read) throw V1HttpError.invalid(read.issues);
        sendJson(http.res, 201, webhookView(await webhooks.create(merchant.id, read.draft)));
      },
    },
    {
      method: 'GET',
      pattern: /^\/webhooks\/?$/,
      handler({ http, merchant, baseUrl }) {
        const page = pageRequest(http);
        sendJson(
          http.res,
          200,
          pageOf(webhooks.list(merchant.id).map(webhookView), page, ownUrl(http, baseUrl)),
        );
      },
    },
    {
      method: 'GET',
      pattern: /^\/webhooks\/deliveries\/?$/,
      handler({ http, merchant, baseUrl }) {
        const read = readDeliveriesQuery(http.url.searchParams);
        const page = readPageRequest(http.url.searchParams);
        if ('issues' in read || 'issues' in page) {
          throw V1HttpError.invalid([
            ...('issues' in read ? read.issues : []),
            ...('issues' in page ? page.issues : []),
          ]);
        }
        const { source } = read;
        // The sandbox's only objects with events are purchases: any other id names nothing here.
        if (source.type === 'purchase') purchases.get(merchant.id, source.id);
        else throw V1HttpError.nonField(404, 'not_found', `No ${source.type} ${source.id}`);
        sendJson(
          http.res,
          200,
          pageOf(deliveries.list(merchant.id, source), page.request, ownUrl(http, baseUrl)),
        );
      },
    },
    {
      method: 'GET',
      pattern: ONE_WEBHOOK,
      handler({ http, merchant, params }) {
        sendJson(http.res, 200, webhookView(webhooks.get(merchant.id, params[0]!)));
      },
    },
    { method: 'PUT', pattern: ONE_WEBHOOK, handler: (context) => replace(context, false) },
    { method: 'PATCH', pattern: ONE_WEBHOOK, handler: (context) => replace(context, true) },
    {
      method: 'DELETE',
      pattern: ONE_WEBHOOK,
      handler({ http, merchant, params }) {
        deliveries.deleteWebhook(merchant.id, params[0]!);
        http.res.writeHead(204, { 'cache-control': 'no-store' });
        http.res.end();
      },
    },
  ];
}

function pageRequest(http: RequestContext): PageRequest {
  const read = readPageRequest(http.url.searchParams);
  if ('issues' in read) throw V1HttpError.invalid(read.issues);
  return read.request;
}

/** The request's URL on the host the caller used, for the page links. */
function ownUrl(http: RequestContext, baseUrl: string): URL {
  return new URL(`${http.url.pathname}${http.url.search}`, baseUrl);
}
