/**
 * The core every v1 resource sends through (as stripe-node's request sender is for its resources): the secret
 * key as a bearer token, one request with its timeout and the caller's abort, the answer parsed and checked,
 * and every failure mapped to one {@link V1ApiError}. Nothing is retried behind the caller's back. The files
 * in ./resources/ only say which path, which body and which answer they expect.
 */
import { isPlainObject } from '../../core/plain-object.js';
import type { V1Page } from '../../core/v1-types.js';
import { normalizeV1ErrorBody, parseRetryAfter, V1ApiError, v1ErrorCodeForStatus } from './errors.js';
import { paginate, type V1List } from './pagination.js';

/** Per-call options. */
export interface V1RequestOptions {
  /** Aborts the call; it then rejects with code `aborted`. */
  signal?: AbortSignal;
}

/** Values of a query string: `undefined` leaves the parameter out, booleans travel as `true` / `false`. */
export type V1QueryValue = string | number | boolean | undefined;

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The REST interface's place under `{base_url}`. */
export const API_PREFIX = '/api/v1';

/** What the core needs, checked by `createV1Client`. */
export interface V1CoreSettings {
  /** `{base_url}` without a trailing slash nor `/api/v1`: the wallet post lies beside the REST interface. */
  readonly gateway: string;
  /** The gateway's origin, which a statement's `download_url` must keep. */
  readonly origin: string;
  /** `Bearer <secret key>`. */
  readonly authorization: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
}

/** What a resource calls: where, one request, a list. */
export interface V1Core {
  readonly settings: V1CoreSettings;
  /** A URL under `{base_url}/api/v1`, with the query's defined values. */
  urlOf(path: string, query?: Record<string, V1QueryValue>): URL;
  /**
   * One request: resolves the parsed 2xx body (`undefined` when empty), rejects with a {@link V1ApiError}.
   * `body` travels as JSON, or form-encoded when it is a `URLSearchParams`.
   */
  send(method: Method, url: URL, body: unknown, callOptions?: V1RequestOptions): Promise<unknown>;
  /**
   * Any list endpoint, walked along `next`. The items are not checked beyond being in `results`: `Item` is
   * the caller's word.
   */
  list<Item>(path: string, query?: Record<string, V1QueryValue>, options?: V1RequestOptions): V1List<Item>;
}

export function createV1Core(settings: V1CoreSettings): V1Core {
  const { authorization, timeoutMs, fetch: fetchImpl } = settings;
  const root = `${settings.gateway}${API_PREFIX}`;

  function urlOf(path: string, query?: Record<string, V1QueryValue>): URL {
    const url = new URL(`${root}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value));
    }
    return url;
  }

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
    const form = body instanceof URLSearchParams;
    if (body !== undefined) {
      headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
    }
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body: form ? body.toString() : JSON.stringify(body) }),
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
        isPlainObject(error) && error['cause'] instanceof Error ? error['cause'] : error,
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

  return { settings, urlOf, send, list };
}

/** A path segment from a caller's id, refused before sending when it is empty. */
export function segment(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new V1ApiError('invalid_request', `${name} must be a non-empty string`);
  }
  return encodeURIComponent(value);
}

export function requireQueryText(query: Record<string, unknown>, name: string): void {
  if (typeof query[name] !== 'string' || (query[name] as string).trim() === '') {
    throw new V1ApiError('invalid_request', `${name} is required and must be a non-empty string`);
  }
}

export function errorMessage(error: unknown): string {
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
export function expect<T>(
  value: unknown,
  what: string,
  has: (record: Record<string, unknown>) => boolean,
): T {
  if (!isPlainObject(value) || !has(value)) {
    throw new V1ApiError('invalid_response', `The ${what} answer is not a ${what}`, { body: value });
  }
  return value as T;
}

/** A value as a message shows it: strings quoted, so that `"5"` and `5` read differently. */
export function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** A body or query the caller must give as an object, refused before sending when it is not one. */
export function requireObject(value: unknown, message: string): asserts value is Record<string, unknown> {
  if (!isPlainObject(value)) throw new V1ApiError('invalid_request', message);
}

/** An operation's optional body, refused before sending when it is given but not an object. */
export function optionalBody(body: unknown, operation: string): Record<string, unknown> {
  if (body === undefined) return {};
  requireObject(body, `The ${operation} body must be an object`);
  return body;
}

/** The members given, as a JSON body; no body at all when none is given. */
export function given(members: Record<string, unknown>): Record<string, unknown> | undefined {
  const entries = Object.entries(members).filter(([, value]) => value !== undefined);
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}
