/**
 * The company statement helpers of the v1 client: waiting until a statement is ready (polling `GET
 * /company_statements/{id}/`, bounded and abortable) and streaming its download, chunk by chunk as it arrives,
 * so that a statement of any size never has to fit in the merchant's memory.
 */
import { isPlainObject } from '../../core/plain-object.js';
import type { CompanyStatement } from '../../core/v1-types.js';
import { normalizeV1ErrorBody, V1ApiError, v1ErrorCodeForStatus } from './errors.js';

/** Options of waiting for a statement. */
export interface V1StatementWaitOptions {
  /** Stops waiting (and the download): the call rejects with code `aborted`. */
  signal?: AbortSignal;
  /** Give up after this many milliseconds of waiting; 60 000 when left out. */
  waitMs?: number;
  /** How often to ask; 500 ms when left out. */
  intervalMs?: number;
}

/**
 * A statement's file as it arrives. Read it once: iterate it (`for await (const chunk of download)`), or take
 * `body` to pipe it on (`Readable.fromWeb(download.body).pipe(res)`).
 */
export interface V1StatementDownload extends AsyncIterable<Uint8Array> {
  /** The ready statement. */
  statement: CompanyStatement;
  /** `text/csv; charset=utf-8` or `application/json; charset=utf-8`. */
  contentType: string;
  body: ReadableStream<Uint8Array>;
}

/** Reads a statement (`GET /company_statements/{id}/`). */
type GetStatement = (options: { signal?: AbortSignal }) => Promise<CompanyStatement>;

function checkWaitOptions(options: V1StatementWaitOptions): { waitMs: number; intervalMs: number } {
  const waitMs = options.waitMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 500;
  for (const [name, value] of [
    ['waitMs', waitMs],
    ['intervalMs', intervalMs],
  ] as const) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new V1ApiError(
        'invalid_request',
        `${name} must be a positive number of milliseconds, not ${value}`,
      );
    }
  }
  return { waitMs, intervalMs };
}

/**
 * Asks until the statement is `ready`.
 * @throws V1ApiError `timeout` when it is not ready within `waitMs`; `aborted`; `invalid_request` when it was
 *   cancelled (it will never be ready); anything `get` rejects with.
 */
export async function waitForStatement(
  id: string,
  get: GetStatement,
  options: V1StatementWaitOptions = {},
): Promise<CompanyStatement> {
  const { waitMs, intervalMs } = checkWaitOptions(options);
  const { signal } = options;
  const deadline = Date.now() + waitMs;
  for (;;) {
    const statement = await get(signal ? { signal } : {});
    if (statement.status === 'ready') return statement;
    if (statement.status === 'cancelled') {
      throw new V1ApiError('invalid_request', `Statement ${id} was cancelled; it will never be ready`, {
        body: statement,
      });
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new V1ApiError(
        'timeout',
        `Statement ${id} was not ready within ${waitMs} ms (it is ${statement.status})`,
        {
          body: statement,
        },
      );
    }
    await pause(Math.min(intervalMs, left), signal, id);
  }
}

function pause(ms: number, signal: AbortSignal | undefined, id: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new V1ApiError('aborted', `Waiting for statement ${id} was aborted`, { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** What the download needs of the client. */
export interface StatementFetch {
  fetch: typeof fetch;
  /** `Bearer <key>`. */
  authorization: string;
  /** The gateway's origin: the key is sent there only. */
  origin: string;
  /** Give up when the answer's headers have not come within this many milliseconds. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Starts the download of a ready statement and resolves once its headers arrived; the body follows as the
 * caller reads it.
 * @throws V1ApiError `invalid_response` when the statement has no `download_url` or it leaves the gateway's
 *   origin (the key would go elsewhere); the status's code for an answer that is not 2xx; `timeout`,
 *   `aborted`, `network_error`.
 */
export async function openStatementDownload(
  statement: CompanyStatement,
  how: StatementFetch,
): Promise<V1StatementDownload> {
  const url = urlOf(statement.download_url);
  if (!url || url.origin !== how.origin) {
    throw new V1ApiError(
      'invalid_response',
      url
        ? `The statement's download_url leads to ${url.origin}, not ${how.origin}; the secret key is sent to the gateway only`
        : `Statement ${statement.id} has no download_url (it is ${statement.status})`,
      { body: statement },
    );
  }
  const what = `GET ${url.pathname}`;
  const headersTimeout = new AbortController();
  const timer = setTimeout(() => headersTimeout.abort(), how.timeoutMs);
  const signal = how.signal ? AbortSignal.any([how.signal, headersTimeout.signal]) : headersTimeout.signal;
  let response: Response;
  try {
    response = await how.fetch(url, {
      headers: { authorization: how.authorization, accept: 'text/csv, application/json' },
      signal,
      redirect: 'manual',
    });
  } catch (error) {
    throw failure(error, what, how, headersTimeout.signal);
  } finally {
    clearTimeout(timer);
  }
  if (response.status < 200 || response.status > 299 || response.body === null) {
    const text = await response.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    const errors = normalizeV1ErrorBody(body);
    const said = errors.map((error) => error.message).join('; ') || text.slice(0, 200);
    throw new V1ApiError(
      v1ErrorCodeForStatus(response.status),
      `${what} answered ${response.status}: ${said}`,
      {
        status: response.status,
        errors,
        body,
      },
    );
  }
  const body = response.body;
  return {
    statement,
    contentType: response.headers.get('content-type') ?? '',
    body,
    async *[Symbol.asyncIterator]() {
      const reader = body.getReader();
      let done = false;
      try {
        for (;;) {
          let read: ReadableStreamReadResult<Uint8Array>;
          try {
            read = await reader.read();
          } catch (error) {
            done = true;
            throw failure(error, what, how, headersTimeout.signal);
          }
          if (read.done) {
            done = true;
            return;
          }
          yield read.value;
        }
      } finally {
        // A caller that stops early stops the download too.
        if (!done) await reader.cancel().catch(() => {});
        reader.releaseLock();
      }
    },
  };
}

function urlOf(text: string | null): URL | undefined {
  if (text === null) return undefined;
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function failure(error: unknown, what: string, how: StatementFetch, timeout: AbortSignal): V1ApiError {
  if (how.signal?.aborted)
    return new V1ApiError('aborted', `${what} was aborted`, { cause: how.signal.reason });
  if (timeout.aborted) {
    return new V1ApiError('timeout', `${what} got no answer within ${how.timeoutMs} ms`, { cause: error });
  }
  const cause = isPlainObject(error) && error['cause'] instanceof Error ? error['cause'] : error;
  return new V1ApiError(
    'network_error',
    `${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    {
      cause: error,
    },
  );
}
