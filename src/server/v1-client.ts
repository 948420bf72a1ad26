/**
 * A typed client of the gateway's v1 REST interface (`{base_url}/api/v1/`) for the merchant's server: the
 * secret key travels as a bearer token, so this client belongs on the server, never in a page. Every call
 * resolves the document's response type or rejects with one {@link V1ApiError} whose `code` says what kind
 * of failure it was. Nothing is retried behind the caller's back: creating a Purchase twice is two Purchases.
 */
import type {
  CreatePurchaseRequest,
  PaymentMethods,
  PaymentMethodsQuery,
  PayoutMethods,
  PayoutMethodsQuery,
  Purchase,
  V1Page,
  V1PublicKey,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookRequest,
} from '../core/v1-types.js';
import { importPublicKey } from './keys.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isText,
  MILLISECONDS,
  type OptionRules,
  optional,
  required,
} from './options.js';
import {
  isRecord,
  normalizeV1ErrorBody,
  parseRetryAfter,
  V1ApiError,
  v1ErrorCodeForStatus,
} from './v1-errors.js';
import { paginate, type V1List } from './v1-pagination.js';

/** Where the gateway is and whose account calls it. */
export interface V1ClientOptions {
  /**
   * `{base_url}` of the environment, such as the sandbox's `http://127.0.0.1:4010`; the client adds
   * `/api/v1`. A URL that already ends in `/api/v1` is taken as it is.
   */
  baseUrl: string;
  /** The account's secret key (Developers section), sent as `Authorization: Bearer <key>`. */
  secretKey: string;
  /** A fetch to use instead of the global one (for proxies or instrumentation). */
  fetch?: typeof fetch;
  /** Give up on a request after this many milliseconds; 30 000 when left out. */
  timeoutMs?: number;
}

/** Per-call options. */
export interface V1RequestOptions {
  /** Aborts the call; it then rejects with code `aborted`. */
  signal?: AbortSignal;
}

/** Values of a query string: `undefined` leaves the parameter out, booleans travel as `true` / `false`. */
export type V1QueryValue = string | number | boolean | undefined;

/** Purchases: create, read, cancel. */
export interface V1Purchases {
  /**
   * `POST /purchases/`: a new Purchase; send the customer to its `checkout_url`.
   * @throws V1ApiError `bad_request` with one entry per problem in `errors` when the body is refused.
   */
  create(body: CreatePurchaseRequest, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `GET /purchases/{id}/`.
   * @throws V1ApiError `not_found` when there is no such Purchase for this key.
   */
  get(id: string, options?: V1RequestOptions): Promise<Purchase>;
  /**
   * `POST /purchases/{id}/cancel/`: the Purchase can no longer be paid.
   * @throws V1ApiError `not_found`; `bad_request` when it is past paying (already paid, say).
   */
  cancel(id: string, options?: V1RequestOptions): Promise<Purchase>;
}

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

/** The calls of the v1 interface this toolkit covers. Every call rejects with {@link V1ApiError} only. */
export interface V1Client {
  /** `/purchases/`. */
  readonly purchases: V1Purchases;
  /**
   * `GET /payment_methods/`. The gateway rate-limits it (once per minute): put it behind a
   * `PaymentMethodsCache`, whose fetch it fits as is: `(query, { signal }) => v1.paymentMethods(query, { signal })`.
   * @throws V1ApiError `rate_limited` (with `retryAfterMs`), `bad_request`, ...
   */
  paymentMethods(query: PaymentMethodsQuery, options?: V1RequestOptions): Promise<PaymentMethods>;
  /** `GET /payout_methods/`. */
  payoutMethods(query: PayoutMethodsQuery, options?: V1RequestOptions): Promise<PayoutMethods>;
  /**
   * `GET /public_key/`: the PEM of the company key that signs success callbacks; give it to
   * `constructSuccessCallback`. It changes rarely: fetch it once and keep it.
   * @throws V1ApiError `invalid_response` when the answer is not an RSA public key PEM.
   */
  publicKey(options?: V1RequestOptions): Promise<V1PublicKey>;
  /** `/webhooks/` and their deliveries (the sandbox's Webhook fields; the document names only `public_key`). */
  readonly webhooks: V1Webhooks;
  /**
   * Any list endpoint, such as `/clients/`, walked along `next`. `path` is relative to `/api/v1`.
   * The items are not checked beyond being in `results`: `Item` is the caller's word.
   */
  list<Item>(path: string, query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Item>;
}

const API_PREFIX = '/api/v1';

const OWNER = 'createV1Client';

const CLIENT_OPTIONS: OptionRules<V1ClientOptions> = {
  baseUrl: required("the gateway's absolute URL, such as the sandbox's http://127.0.0.1:4010", isText),
  secretKey: required(
    'the secret key from the Developers section of the account (a non-empty string)',
    isText,
  ),
  fetch: optional('a fetch function', isFunction),
  timeoutMs: optional(MILLISECONDS, isNumber),
};

/** A path segment from a caller's id, refused before sending when it is empty. */
function segment(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new V1ApiError('invalid_request', `${name} must be a non-empty string`);
  }
  return encodeURIComponent(value);
}

function requireQueryText(query: Record<string, unknown>, name: string): void {
  if (typeof query[name] !== 'string' || (query[name] as string).trim() === '') {
    throw new V1ApiError('invalid_request', `${name} is required and must be a non-empty string`);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

/** Checks that a 2xx answer has the member that marks it as the expected resource. */
function expect<T>(value: unknown, what: string, has: (record: Record<string, unknown>) => boolean): T {
  if (!isRecord(value) || !has(value)) {
    throw new V1ApiError('invalid_response', `The ${what} answer is not a ${what}`, { body: value });
  }
  return value as T;
}

const isPurchase = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['status'] === 'string';

const isWebhook = (record: Record<string, unknown>) =>
  typeof record['id'] === 'string' && typeof record['public_key'] === 'string';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * A client of the v1 REST interface.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind, for an
 *   invalid `baseUrl`, or a `timeoutMs` that is not a positive number.
 * @example
 * ```ts
 * const v1 = createV1Client({ baseUrl: 'http://127.0.0.1:4010', secretKey: process.env.SVC_SECRET_KEY! });
 * const purchase = await v1.purchases.create({ brand_id, purchase: { products: [{ name: 'Tea', price: 1250 }] } });
 * res.redirect(303, purchase.checkout_url);
 * ```
 */
export function createV1Client(options: V1ClientOptions): V1Client {
  checkOptions(OWNER, options, CLIENT_OPTIONS);
  const secretKey = options.secretKey.trim();
  // One test covers whitespace too: every whitespace character lies outside \x21-\x7e.
  if (/[^\x21-\x7e]/.test(secretKey)) {
    throw new TypeError(`${OWNER}: secretKey must be one token of visible ASCII characters`);
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`${OWNER}: baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`${OWNER}: baseUrl must be an http: or https: URL, not ${base.protocol}`);
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new TypeError(`${OWNER}: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const root = `${base.origin}${basePath.endsWith(API_PREFIX) ? basePath : basePath + API_PREFIX}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const authorization = `Bearer ${secretKey}`;

  function urlOf(path: string, query?: Record<string, V1QueryValue>): URL {
    const url = new URL(`${root}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    return url;
  }

  /** One request: resolves the parsed 2xx body (`undefined` when empty), rejects with a {@link V1ApiError}. */
  async function send(
    method: Method,
    url: URL,
    body: unknown,
    callOptions: V1RequestOptions = {},
  ): Promise<unknown> {
    const what = `${method} ${url.pathname}`;
    const callerSignal = callOptions.signal;
    if (callerSignal?.aborted) {
      throw new V1ApiError('aborted', `${what} was aborted before it was sent`, {
        cause: callerSignal.reason,
      });
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    const headers: Record<string, string> = { authorization, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal,
        // An API answers, it does not redirect; following a redirect could carry the key elsewhere.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) {
        throw new V1ApiError('aborted', `${what} was aborted`, { cause: callerSignal.reason ?? error });
      }
      if (timeout.aborted) {
        throw new V1ApiError('timeout', `${what} got no answer within ${timeoutMs} ms`, { cause: error });
      }
      const reason = errorMessage(
        isRecord(error) && error['cause'] instanceof Error ? error['cause'] : error,
      );
      throw new V1ApiError('network_error', `${what} got no answer: ${reason}`, { cause: error });
    }
    const parsed = text === '' ? { value: undefined } : parseJson(text);
    if (response.status < 200 || response.status > 299) {
      const errors = normalizeV1ErrorBody(parsed?.value);
      const said = errors.length
        ? errors
            .map((error) => (error.field === '__all__' ? error.message : `${error.field}: ${error.message}`))
            .join('; ')
        : text.slice(0, 200) || response.statusText;
      const location = response.headers.get('location');
      const redirected =
        response.status >= 300 && response.status < 400 && location ? ` (to ${location})` : '';
      const retryAfterMs =
        response.status === 429 ? parseRetryAfter(response.headers.get('retry-after')) : undefined;
      throw new V1ApiError(
        v1ErrorCodeForStatus(response.status),
        `${what} answered ${response.status}${redirected}: ${said}`,
        {
          status: response.status,
          errors,
          body: parsed ? parsed.value : text,
          ...(retryAfterMs !== undefined && { retryAfterMs }),
        },
      );
    }
    if (parsed === undefined) {
      throw new V1ApiError('invalid_response', `${what} answered ${response.status} without JSON`, {
        status: response.status,
        body: text,
      });
    }
    return parsed.value;
  }

  const purchasePath = (id: string, action = '') => `/purchases/${segment(id, 'id')}/${action}`;
  const webhookPath = (id: string) => `/webhooks/${segment(id, 'id')}/`;

  function list<Item>(
    path: string,
    query?: Record<string, V1QueryValue>,
    listOptions: V1RequestOptions = {},
  ): V1List<Item> {
    return paginate<Item>(
      urlOf(path, query),
      async (pageUrl, { signal }) =>
        (await send('GET', pageUrl, undefined, signal ? { signal } : {})) as V1Page<Item>,
      listOptions.signal ? { signal: listOptions.signal } : {},
    );
  }

  return {
    purchases: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The purchase body must be an object');
        const answer = await send('POST', urlOf('/purchases/'), body, callOptions);
        return expect<Purchase>(answer, 'Purchase', isPurchase);
      },
      async get(id, callOptions) {
        const answer = await send('GET', urlOf(purchasePath(id)), undefined, callOptions);
        return expect<Purchase>(answer, 'Purchase', isPurchase);
      },
      async cancel(id, callOptions) {
        const answer = await send('POST', urlOf(purchasePath(id, 'cancel/')), undefined, callOptions);
        return expect<Purchase>(answer, 'Purchase', isPurchase);
      },
    },

    async paymentMethods(query, callOptions) {
      if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
      requireQueryText(query, 'brand_id');
      requireQueryText(query, 'currency');
      const { brand_id, currency, country, recurring, skip_capture, preauthorization, language } = query;
      const url = urlOf('/payment_methods/', {
        brand_id,
        currency,
        country,
        recurring,
        skip_capture,
        preauthorization,
        language,
      });
      const answer = await send('GET', url, undefined, callOptions);
      return expect<PaymentMethods>(answer, 'payment methods', (record) =>
        Array.isArray(record['available_payment_methods']),
      );
    },

    async payoutMethods(query, callOptions) {
      if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
      requireQueryText(query, 'brand_id');
      requireQueryText(query, 'currency');
      const { brand_id, currency, language } = query;
      const answer = await send(
        'GET',
        urlOf('/payout_methods/', { brand_id, currency, language }),
        undefined,
        callOptions,
      );
      return expect<PayoutMethods>(answer, 'payout methods', (record) =>
        Array.isArray(record['available_payout_methods']),
      );
    },

    async publicKey(callOptions) {
      const url = urlOf('/public_key/');
      let pem: unknown;
      try {
        pem = await send('GET', url, undefined, callOptions);
      } catch (error) {
        // A gateway may send the PEM as plain text rather than as a JSON string.
        const plainText =
          error instanceof V1ApiError && error.code === 'invalid_response' && typeof error.body === 'string';
        if (!plainText) throw error;
        pem = error.body;
      }
      try {
        if (typeof pem !== 'string') throw new TypeError('not a string');
        importPublicKey(pem);
      } catch (error) {
        throw new V1ApiError('invalid_response', 'GET /public_key/ did not answer an RSA public key PEM', {
          body: pem,
          cause: error,
        });
      }
      return pem;
    },

    webhooks: {
      async create(body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
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
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
        const answer = await send('PUT', urlOf(webhookPath(id)), body, callOptions);
        return expect<Webhook>(answer, 'Webhook', isWebhook);
      },
      async patch(id, body, callOptions) {
        if (!isRecord(body)) throw new V1ApiError('invalid_request', 'The webhook body must be an object');
        const answer = await send('PATCH', urlOf(webhookPath(id)), body, callOptions);
        return expect<Webhook>(answer, 'Webhook', isWebhook);
      },
      async delete(id, callOptions) {
        await send('DELETE', urlOf(webhookPath(id)), undefined, callOptions);
      },
      deliveries(query, listOptions) {
        if (!isRecord(query)) throw new V1ApiError('invalid_request', 'The query must be an object');
        requireQueryText(query, 'id');
        requireQueryText(query, 'source_type');
        const { id, source_type } = query;
        return list<WebhookDelivery>('/webhooks/deliveries/', { id, source_type }, listOptions);
      },
    },

    list,
  };
}
