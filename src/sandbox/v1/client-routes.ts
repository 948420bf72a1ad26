/**
 * The Clients endpoints of `/api/v1/`: create, list, get, replace (`PUT`), change (`PATCH`) and delete a
 * Client, and its saved cards (recurring tokens): list, get, delete.
 */
import { type RouteHandler, type Router, sendJson } from '../http.js';
import { readClientBody, type V1Clients } from './clients.js';
import { V1HttpError } from './errors.js';
import { requestedPage } from './pagination.js';
import { sendNoContent, type V1Handler } from './request-context.js';

export interface ClientRoutesDeps {
  clients: V1Clients;
  /** Deletes the token of a Purchase as `POST /purchases/{id}/delete_recurring_token/` does. */
  deleteToken: (merchantId: string, purchaseId: string) => void;
  authenticated: (handler: V1Handler) => RouteHandler;
}

export function mountClientRoutes(api: Router, deps: ClientRoutesDeps): void {
  const { clients, authenticated: as } = deps;
  api.on(
    'POST',
    '/clients/',
    as(async ({ http, merchant }) => {
      const read = readClientBody(await http.json(), false);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 201, clients.create(merchant.id, { ...read.client, email: read.client.email! }));
    }),
  );
  api.on(
    'GET',
    '/clients/',
    as(({ http, merchant, baseUrl }) =>
      sendJson(http.res, 200, requestedPage(http, baseUrl, clients.list(merchant.id))),
    ),
  );
  api.on(
    'GET',
    '/clients/:id/',
    as(({ http, merchant, params }) => sendJson(http.res, 200, clients.get(merchant.id, params['id']!))),
  );
  const replace = (partial: boolean) =>
    as(async ({ http, merchant, params }) => {
      clients.get(merchant.id, params['id']!);
      const read = readClientBody(await http.json(), partial);
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 200, clients.update(merchant.id, params['id']!, read.client, partial));
    });
  api.on('PUT', '/clients/:id/', replace(false));
  api.on('PATCH', '/clients/:id/', replace(true));
  api.on(
    'DELETE',
    '/clients/:id/',
    as(({ http, merchant, params }) => {
      clients.delete(merchant.id, params['id']!, (purchaseId) => deps.deleteToken(merchant.id, purchaseId));
      sendNoContent(http.res);
    }),
  );
  api.on(
    'GET',
    '/clients/:id/recurring_tokens/',
    as(({ http, merchant, params, baseUrl }) =>
      sendJson(http.res, 200, requestedPage(http, baseUrl, clients.tokens(merchant.id, params['id']!))),
    ),
  );
  api.on(
    'GET',
    '/clients/:id/recurring_tokens/:token/',
    as(({ http, merchant, params }) =>
      sendJson(http.res, 200, clients.token(merchant.id, params['id']!, params['token']!)),
    ),
  );
  api.on(
    'DELETE',
    '/clients/:id/recurring_tokens/:token/',
    as(({ http, merchant, params }) => {
      const token = clients.token(merchant.id, params['id']!, params['token']!);
      deps.deleteToken(merchant.id, token.id);
      sendNoContent(http.res);
    }),
  );
}
