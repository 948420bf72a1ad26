/** `/clients/`: a merchant's customers, and their saved cards (recurring tokens). */
import { isPlainObject } from '../../../core/plain-object.js';
import type { Client, ClientRecurringToken, ClientRequest } from '../../../core/v1-types.js';
import {
  expect,
  type Method,
  segment,
  type V1Core,
  type V1QueryValue,
  type V1RequestOptions,
} from '../client-core.js';
import { V1ApiError } from '../errors.js';
import type { V1List } from '../pagination.js';

/** Clients: a merchant's customers, and their saved cards (recurring tokens). */
export interface V1Clients {
  /**
   * `POST /clients/`. `email` is required.
   * @throws V1ApiError `bad_request` naming each field the gateway refused.
   */
  create(body: ClientRequest & { email: string }, options?: V1RequestOptions): Promise<Client>;
  /** `GET /clients/`, page by page. */
  list(query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Client>;
  /**
   * `GET /clients/{id}/`.
   * @throws V1ApiError `not_found`.
   */
  get(id: string, options?: V1RequestOptions): Promise<Client>;
  /** `PUT /clients/{id}/`: replaces the Client; members left out are cleared. */
  update(id: string, body: ClientRequest & { email: string }, options?: V1RequestOptions): Promise<Client>;
  /** `PATCH /clients/{id}/`: changes the members given (`null` clears one). */
  patch(id: string, body: ClientRequest, options?: V1RequestOptions): Promise<Client>;
  /** `DELETE /clients/{id}/`: the Client and its saved cards; its Purchases stay. */
  delete(id: string, options?: V1RequestOptions): Promise<void>;
  /** `GET /clients/{id}/recurring_tokens/`: the saved cards, page by page. */
  recurringTokens(
    clientId: string,
    query?: Record<string, V1QueryValue>,
    options?: V1RequestOptions,
  ): V1List<ClientRecurringToken>;
  /**
   * `GET /clients/{id}/recurring_tokens/{token_id}/`.
   * @throws V1ApiError `not_found`, a deleted token included.
   */
  getRecurringToken(
    clientId: string,
    tokenId: string,
    options?: V1RequestOptions,
  ): Promise<ClientRecurringToken>;
  /**
   * `DELETE /clients/{id}/recurring_tokens/{token_id}/`: hidden at checkout, refused by `charge`, and its
   * Purchase's `is_recurring_token` becomes false.
   */
  deleteRecurringToken(clientId: string, tokenId: string, options?: V1RequestOptions): Promise<void>;
}

const isClient = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['email'] === 'string';

const isToken = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['payment_method'] === 'string';

export function clientsResource({ send, urlOf, list }: V1Core): V1Clients {
  const clientPath = (id: string) => `/clients/${segment(id, 'id')}/`;
  const tokenPath = (clientId: string, tokenId: string) =>
    `${clientPath(clientId)}recurring_tokens/${segment(tokenId, 'tokenId')}/`;
  const sendClient = async (method: Method, path: string, body: unknown, callOptions?: V1RequestOptions) => {
    if (body !== undefined && !isPlainObject(body)) {
      throw new V1ApiError('invalid_request', 'The client body must be an object');
    }
    return expect<Client>(await send(method, urlOf(path), body, callOptions), 'Client', isClient);
  };
  return {
    create: (body, callOptions) => sendClient('POST', '/clients/', body, callOptions),
    list: (query, listOptions) => list<Client>('/clients/', query, listOptions),
    get: (id, callOptions) => sendClient('GET', clientPath(id), undefined, callOptions),
    update: (id, body, callOptions) => sendClient('PUT', clientPath(id), body, callOptions),
    patch: (id, body, callOptions) => sendClient('PATCH', clientPath(id), body, callOptions),
    async delete(id, callOptions) {
      await send('DELETE', urlOf(clientPath(id)), undefined, callOptions);
    },
    recurringTokens: (clientId, query, listOptions) =>
      list<ClientRecurringToken>(`${clientPath(clientId)}recurring_tokens/`, query, listOptions),
    async getRecurringToken(clientId, tokenId, callOptions) {
      const answer = await send('GET', urlOf(tokenPath(clientId, tokenId)), undefined, callOptions);
      return expect<ClientRecurringToken>(answer, 'ClientRecurringToken', isToken);
    },
    async deleteRecurringToken(clientId, tokenId, callOptions) {
      await send('DELETE', urlOf(tokenPath(clientId, tokenId)), undefined, callOptions);
    },
  };
}
