/**
 * The invoicing endpoints of `/api/v1/`: `POST /billing/`, billing templates (create, list, get, `PUT`,
 * delete, `send_invoice`, `add_subscriber`) and a template's subscribers (list, get, `PATCH` of `status` and
 * settings; a subscriber is named by its Client's id or its own);
 * and the sandbox's outbox, `GET /sandbox/v1/outbox/` with the merchant's bearer secret key: the invoices and
 * receipts the gateway would have mailed to the merchant's customers.
 */
import type { RouteHandler, Router } from '../http.js';
import { sendJson } from '../http.js';
import type { V1Billing } from './billing.js';
import {
  readBillingClients,
  readClientId,
  readSubscriberBody,
  readSubscriberPatch,
  readTemplateBody,
} from './billing-request.js';
import { V1HttpError } from './errors.js';
import { requestedPage } from './pagination.js';
import { requestContextOf } from './purchase-request.js';
import { purchaseView } from './purchases.js';
import { sendNoContent, type V1Handler, v1Router } from './request-context.js';

/** Where the outbox is served, beside `/api/v1`: it is the sandbox's, not the gateway's. */
export const OUTBOX_PATH = '/sandbox/v1/outbox';

export interface BillingRoutesDeps {
  billing: V1Billing;
  authenticated: (handler: V1Handler) => RouteHandler;
}

/** Mounts the billing endpoints on the v1 router `api`, and the outbox on the sandbox's `router`. */
export function mountBillingRoutes(router: Router, api: Router, deps: BillingRoutesDeps): void {
  const { billing, authenticated: as } = deps;
  api.on(
    'POST',
    '/billing/',
    as(async ({ http, merchant, baseUrl }) => {
      const body = await http.json();
      const template = readTemplateBody(body, requestContextOf(merchant), true);
      const clients = readBillingClients(body);
      const issues = [
        ...('issues' in template ? template.issues : []),
        ...('issues' in clients ? clients.issues : []),
      ];
      if (!('fields' in template) || !('clientIds' in clients)) throw V1HttpError.invalid(issues);
      sendJson(http.res, 200, billing.bill(merchant.id, template.fields, clients.clientIds, baseUrl));
    }),
  );
  api.on(
    'POST',
    '/billing_templates/',
    as(async ({ http, merchant }) => {
      const read = readTemplateBody(await http.json(), requestContextOf(merchant));
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 201, billing.createTemplate(merchant.id, read.fields));
    }),
  );
  api.on(
    'GET',
    '/billing_templates/',
    as(({ http, merchant, baseUrl }) =>
      sendJson(http.res, 200, requestedPage(http, baseUrl, billing.listTemplates(merchant.id))),
    ),
  );
  api.on(
    'GET',
    '/billing_templates/:id/',
    as(({ http, merchant, params }) => sendJson(http.res, 200, billing.template(merchant.id, params['id']!))),
  );
  api.on(
    'PUT',
    '/billing_templates/:id/',
    as(async ({ http, merchant, params }) => {
      billing.template(merchant.id, params['id']!);
      const read = readTemplateBody(await http.json(), requestContextOf(merchant));
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(http.res, 200, billing.replaceTemplate(merchant.id, params['id']!, read.fields));
    }),
  );
  api.on(
    'DELETE',
    '/billing_templates/:id/',
    as(({ http, merchant, params }) => {
      billing.deleteTemplate(merchant.id, params['id']!);
      sendNoContent(http.res);
    }),
  );
  api.on(
    'POST',
    '/billing_templates/:id/send_invoice/',
    as(async ({ http, merchant, params, baseUrl }) => {
      billing.template(merchant.id, params['id']!);
      const read = readClientId(await http.json());
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      const record = billing.sendInvoice(merchant.id, params['id']!, read.clientId, baseUrl);
      sendJson(http.res, 200, purchaseView(record, baseUrl));
    }),
  );
  api.on(
    'POST',
    '/billing_templates/:id/add_subscriber/',
    as(async ({ http, merchant, params, baseUrl }) => {
      billing.template(merchant.id, params['id']!);
      const read = readSubscriberBody(await http.json());
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      const added = billing.addSubscriber(merchant.id, params['id']!, read.clientId, read.settings, baseUrl);
      sendJson(http.res, 200, {
        billing_template_client: added.subscriber,
        purchase: added.purchase && purchaseView(added.purchase, baseUrl),
      });
    }),
  );
  api.on(
    'GET',
    '/billing_templates/:id/clients/',
    as(({ http, merchant, params, baseUrl }) =>
      sendJson(
        http.res,
        200,
        requestedPage(http, baseUrl, billing.listSubscribers(merchant.id, params['id']!)),
      ),
    ),
  );
  api.on(
    'GET',
    '/billing_templates/:id/clients/:client_id/',
    as(({ http, merchant, params }) =>
      sendJson(http.res, 200, billing.subscriber(merchant.id, params['id']!, params['client_id']!)),
    ),
  );
  api.on(
    'PATCH',
    '/billing_templates/:id/clients/:client_id/',
    as(async ({ http, merchant, params }) => {
      billing.subscriber(merchant.id, params['id']!, params['client_id']!);
      const read = readSubscriberPatch(await http.json());
      if ('issues' in read) throw V1HttpError.invalid(read.issues);
      sendJson(
        http.res,
        200,
        billing.patchSubscriber(merchant.id, params['id']!, params['client_id']!, read.patch),
      );
    }),
  );

  const outbox = v1Router();
  outbox.on(
    'GET',
    '/',
    as(({ http, merchant, baseUrl }) =>
      sendJson(http.res, 200, requestedPage(http, baseUrl, billing.outbox(merchant.id))),
    ),
  );
  router.mount(OUTBOX_PATH, outbox);
}
