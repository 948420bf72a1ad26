/** `/billing_templates/`: templates, their invoices and their subscribers (BillingTemplateClients). */
import { isPlainObject } from '../../../core/plain-object.js';
import type {
  AddSubscriberAnswer,
  BillingTemplate,
  BillingTemplateClient,
  BillingTemplateClientPatch,
  BillingTemplateClientRequest,
  BillingTemplateRequest,
  Purchase,
} from '../../../core/v1-types.js';
import {
  expect,
  type Method,
  requireObject,
  segment,
  type V1Core,
  type V1QueryValue,
  type V1RequestOptions,
} from '../client-core.js';
import { V1ApiError } from '../errors.js';
import type { V1List } from '../pagination.js';
import { expectPurchase } from './purchases.js';

/** Billing templates, their invoices and their subscribers (BillingTemplateClients). */
export interface V1BillingTemplates {
  /** `POST /billing_templates/`. @throws V1ApiError `bad_request` naming each refused field. */
  create(body: BillingTemplateRequest, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `GET /billing_templates/`, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<BillingTemplate>;
  /** `GET /billing_templates/{id}/`. @throws V1ApiError `not_found`. */
  get(id: string, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `PUT /billing_templates/{id}/`: new subscribers join with the new period; billings copy the new `purchase`. */
  update(id: string, body: BillingTemplateRequest, options?: V1RequestOptions): Promise<BillingTemplate>;
  /** `DELETE /billing_templates/{id}/`: its subscribers are no longer billed. */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /**
   * `POST /billing_templates/{id}/send_invoice/`: a Purchase of a one-time template for the Client, to pay
   * at its `checkout_url`; the Client is not saved to the template.
   * @throws V1ApiError `bad_request` for a subscription template or a Client not of the account.
   */
  sendInvoice(
    id: string,
    body: Pick<BillingTemplateClientRequest, 'client_id'>,
    options?: V1RequestOptions,
  ): Promise<Purchase>;
  /**
   * `POST /billing_templates/{id}/add_subscriber/`: `active` with `purchase` null for trial and period-end
   * subscriptions, else `pending` with the first Purchase to pay at its `checkout_url`. The body's settings
   * (`payment_method_whitelist`, `send_*`) are the subscriber's.
   * @throws V1ApiError `bad_request` for a one-time template, a Client not of the account or subscribed, or a
   *   whitelist the template's Purchases cannot take.
   */
  addSubscriber(
    id: string,
    body: BillingTemplateClientRequest,
    options?: V1RequestOptions,
  ): Promise<AddSubscriberAnswer>;
  /** A template's subscribers. */
  readonly clients: {
    /** `GET /billing_templates/{id}/clients/`, page by page. */
    list(
      templateId: string,
      query?: Record<string, V1QueryValue>,
      options?: V1RequestOptions,
    ): V1List<BillingTemplateClient>;
    /**
     * `GET /billing_templates/{id}/clients/{client_id}/`; `clientId` is the Client's id or the subscriber's
     * own `id`. @throws V1ApiError `not_found`.
     */
    get(templateId: string, clientId: string, options?: V1RequestOptions): Promise<BillingTemplateClient>;
    /**
     * `PATCH /billing_templates/{id}/clients/{client_id}/`: `status` (`active`, `paused` or `cancelled`,
     * final) and the subscriber's settings, each optional.
     * @throws V1ApiError `bad_request` for another status, a change out of `cancelled` or a refused whitelist.
     */
    patch(
      templateId: string,
      clientId: string,
      body: BillingTemplateClientPatch,
      options?: V1RequestOptions,
    ): Promise<BillingTemplateClient>;
  };
}

export function billingTemplatesResource({ send, urlOf, list }: V1Core): V1BillingTemplates {
  const templatePath = (id: string, action = '') => `/billing_templates/${segment(id, 'id')}/${action}`;
  const subscriberPath = (id: string, clientId: string) =>
    templatePath(id, `clients/${segment(clientId, 'clientId')}/`);
  const isTemplate = (record: Record<string, unknown>) =>
    typeof record['id'] === 'string' && typeof record['is_subscription'] === 'boolean';
  const isSubscriber = (record: Record<string, unknown>) =>
    typeof record['client_id'] === 'string' && typeof record['status'] === 'string';
  const sendTemplate = async (
    method: Method,
    path: string,
    body: unknown,
    callOptions?: V1RequestOptions,
  ) => {
    if (body !== undefined && !isPlainObject(body)) {
      throw new V1ApiError('invalid_request', 'The billing template body must be an object');
    }
    return expect<BillingTemplate>(
      await send(method, urlOf(path), body, callOptions),
      'BillingTemplate',
      isTemplate,
    );
  };
  const sendSubscriber = async (
    method: Method,
    templateId: string,
    clientId: string,
    body: unknown,
    callOptions?: V1RequestOptions,
  ) =>
    expect<BillingTemplateClient>(
      await send(method, urlOf(subscriberPath(templateId, clientId)), body, callOptions),
      'BillingTemplateClient',
      isSubscriber,
    );
  const clientBody = (body: unknown) => {
    requireObject(body, 'The body must be an object {client_id}');
    return body;
  };
  return {
    create: (body, callOptions) => sendTemplate('POST', '/billing_templates/', body, callOptions),
    list: (query, listOptions) => list<BillingTemplate>('/billing_templates/', query, listOptions),
    get: (id, callOptions) => sendTemplate('GET', templatePath(id), undefined, callOptions),
    update: (id, body, callOptions) => sendTemplate('PUT', templatePath(id), body, callOptions),
    async delete(id, callOptions) {
      await send('DELETE', urlOf(templatePath(id)), undefined, callOptions);
    },
    async sendInvoice(id, body, callOptions) {
      const answer = await send(
        'POST',
        urlOf(templatePath(id, 'send_invoice/')),
        clientBody(body),
        callOptions,
      );
      return expectPurchase(answer);
    },
    async addSubscriber(id, body, callOptions) {
      const answer = await send(
        'POST',
        urlOf(templatePath(id, 'add_subscriber/')),
        clientBody(body),
        callOptions,
      );
      return expect<AddSubscriberAnswer>(
        answer,
        'add_subscriber',
        (record) =>
          isPlainObject(record['billing_template_client']) &&
          (record['purchase'] === null || isPlainObject(record['purchase'])),
      );
    },
    clients: {
      list: (templateId, query, listOptions) =>
        list<BillingTemplateClient>(templatePath(templateId, 'clients/'), query, listOptions),
      get: (templateId, clientId, callOptions) =>
        sendSubscriber('GET', templateId, clientId, undefined, callOptions),
      async patch(templateId, clientId, body, callOptions) {
        requireObject(body, 'The body must be an object {status}');
        return sendSubscriber('PATCH', templateId, clientId, body, callOptions);
      },
    },
  };
}
