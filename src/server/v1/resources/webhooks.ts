/** `/webhooks/`: the targets of signed event deliveries, and the deliveries themselves. */
import type {
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookRequest,
} from '../../../core/v1-types.js';
import {
  expect,
  requireObject,
  requireQueryText,
  segment,
  type V1Core,
  type V1QueryValue,
  type V1RequestOptions,
} from '../client-core.js';
import type { V1List } from '../pagination.js';

/** Webhooks: the targets of signed event deliveries, each with its own key (`public_key`). */
export interface V1Webhooks {
  /**
   * `POST /webhooks/`. Keep the answer's `public_key`: it verifies this webhook's deliveries
   * (`constructWebhookEvent`).
   * @throws V1ApiError `bad_request` when the body is refused.
   */
  create(body: WebhookRequest, options?: V1RequestOptions): Promise<Webhook>;
  /** `GET /webhooks/`, page by page; `query` may carry paging parameters (the sandbox's `per_page`). */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Webhook>;
  /**
   * `GET /webhooks/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<Webhook>;
  /** `PUT /webhooks/{id}/`: replaces the webhook's settings (its key stays). */
  update(id: string, body: WebhookRequest, options?: V1RequestOptions): Promise<Webhook>;
  /** `PATCH /webhooks/{id}/`: changes the members given. */
  patch(id: string, body: Partial<WebhookRequest>, options?: V1RequestOptions): Promise<Webhook>;
  /**
   * `DELETE /webhooks/{id}/`: no more deliveries to it.
   * @throws V1ApiError `not_found`.
   */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /**
   * `GET /webhooks/deliveries/`: every delivery of the object's events, retries included, page by page.
   * @throws V1ApiError `invalid_request` at once when `id` or `source_type` is missing; the pages' requests
   *   reject the iteration as other calls do.
   */
  deliveries(query: WebhookDeliveriesQuery, options?: V1RequestOptions): V1List<WebhookDelivery>;
}

const isWebhook = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['public_key'] === 'string';

export function webhooksResource({ send, urlOf, list }: V1Core): V1Webhooks {
  const webhookPath = (id: string) => `/webhooks/${segment(id, 'id')}/`;
  return {
    async create(body, callOptions) {
      requireObject(body, 'The webhook body must be an object');
      return expect<Webhook>(
        await send('POST', urlOf('/webhooks/'), body, callOptions),
        'Webhook',
        isWebhook,
      );
    },
    list(query, listOptions) {
      return list<Webhook>('/webhooks/', query, listOptions);
    },
    async get(id, callOptions) {
      const answer = await send('GET', urlOf(webhookPath(id)), undefined, callOptions);
      return expect<Webhook>(answer, 'Webhook', isWebhook);
    },
    async update(id, body, callOptions) {
      requireObject(body, 'The webhook body must be an object');
      const answer = await send('PUT', urlOf(webhookPath(id)), body, callOptions);
      return expect<Webhook>(answer, 'Webhook', isWebhook);
    },
    async patch(id, body, callOptions) {
      requireObject(body, 'The webhook body must be an object');
      const answer = await send('PATCH', urlOf(webhookPath(id)), body, callOptions);
      return expect<Webhook>(answer, 'Webhook', isWebhook);
    },
    async delete(id, callOptions) {
      await send('DELETE', urlOf(webhookPath(id)), undefined, callOptions);
    },
    deliveries(query, listOptions) {
      requireObject(query, 'The query must be an object');
      requireQueryText(query, 'id');
      requireQueryText(query, 'source_type');
      const { id, source_type } = query;
      return list<WebhookDelivery>('/webhooks/deliveries/', { id, source_type }, listOptions);
    },
  };
}
