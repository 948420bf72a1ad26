/**
 * The sandbox's HTTP plumbing on Node's own `http`: a small router, raw-body reading, JSON answers
 * and HTML escaping.
 * Node's `http` rather than a framework: signature checks need the raw bytes, the routes are few, and a
 * gateway that merchants run in their tests should install nothing beyond what it uses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { OrderRejectionReason } from '../core/legacy-callbacks.js';
import type { SignatureDiagnosis } from '../core/widget-api.js';
import { RequestBodyError, readNodeBody } from '../server/for-sandbox.js';
import { isWriteFailure, type StoreError } from './store.js';

/**
 * An error answered as `{error: {code, message, field?, reason?}}` with its HTTP status. `reason` is the
 * merchant's rejection reason of an `order_rejected` (the widget API's `ApiError.reason`).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly reason?: OrderRejectionReason,
    /** Headers of the answer, such as `Allow` of a 405. */
    readonly headers: Record<string, string> = {},
    /** The sandbox's diagnosis of a `signature_invalid` (the widget API's `ApiError.details`). */
    readonly details?: SignatureDiagnosis,
  ) {
    super(message);
  }
}

export interface RequestContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  /** The raw body, read once on first use. */
  rawBody(): Promise<Buffer>;
  /** The body as a JSON object, or a 400 naming the problem. */
  json(): Promise<Record<string, unknown>>;
}

export type RouteHandler = (context: RequestContext) => Promise<void> | void;

/** The raw body, with the server toolkit's reader (which drains and bounds it); too large is a 413. */
async function readRawBody(req: IncomingMessage): Promise<Buffer> {
  try {
    return await readNodeBody(req);
  } catch (error) {
    if (error instanceof RequestBodyError && error.code === 'body_too_large') {
      throw new HttpError(413, 'body_too_large', error.message);
    }
    // The client hung up mid-body (nothing here reads a body before): its mistake, not the sandbox's, so no
    // "internal error"; the answer goes nowhere.
    if (error instanceof RequestBodyError) throw new HttpError(400, 'body_incomplete', error.message);
    throw error;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Text made safe for HTML: as element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` data block: every `<` escaped, so that no text in it (a
 * merchant's name with `</script>` in it) can end the block; JSON.parse reads `\u003c` back as `<`.
 */
export function dataBlockJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * The answer to a change the store could not write: 507 Insufficient Storage when the disk is full, 503 for
 * any other write failure. Nothing was changed; the same request succeeds once the disk takes writes again.
 */
export function storageFailure(error: StoreError): HttpError {
  return error.code === 'no_space'
    ? new HttpError(507, 'insufficient_storage', error.message)
    : new HttpError(503, 'storage_unavailable', error.message);
}

export function sendError(res: ServerResponse, error: HttpError): void {
  sendJson(
    res,
    error.status,
    {
      error: {
        code: error.code,
        message: error.message,
        ...(error.field !== undefined && { field: error.field }),
        ...(error.reason !== undefined && { reason: error.reason }),
        ...(error.details !== undefined && { details: error.details }),
      },
    },
    error.headers,
  );
}

/** Answers an error thrown by a route (or the router's own 404/405) in the shape of the mounted interface. */
export type ErrorAnswer = (res: ServerResponse, error: unknown) => void;

interface Route {
  /** A method, or `*` for any. */
  method: string;
  pattern: RegExp;
  names: string[];
  handler: RouteHandler;
}

export interface RouterOptions {
  /** Whether `/a/b` also matches a route declared as `/a/b/`, and the other way round (the v1 interface's). */
  optionalTrailingSlash?: boolean;
  /** How errors are answered; default {@link answerError}, the sandbox's `{error: {code, message}}`. */
  answerError?: ErrorAnswer;
}

/**
 * Routes requests by method and path pattern (`/orders/:id`). A router mounted under a prefix
 * ({@link Router.mount}) takes every request below it, with its own routes, its own 404 and 405 and its own
 * error shape: one router for the whole sandbox, with each interface answering as its document says.
 */
export class Router {
  private readonly routes: Route[] = [];
  private readonly mounts: Array<{ prefix: string; router: Router }> = [];
  private readonly answer: ErrorAnswer;

  constructor(private readonly options: RouterOptions = {}) {
    this.answer = options.answerError ?? answerError;
  }

  /** A route: `:name` takes one path segment as `params.name`; a last `/*` takes anything below the path. */
  on(method: string, path: string, handler: RouteHandler): this {
    const names: string[] = [];
    const below = path.endsWith('/*');
    const base = below ? path.slice(0, -2) : path;
    const trimmed = this.options.optionalTrailingSlash ? base.replace(/\/$/, '') : base;
    const source = trimmed.replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
    const tail = below ? '(?:/.*)?' : this.options.optionalTrailingSlash ? '/?' : '';
    this.routes.push({ method, pattern: new RegExp(`^${source}${tail}$`), names, handler });
    return this;
  }

  /** A route for every method (an endpoint that is answered the same whatever the method). */
  any(path: string, handler: RouteHandler): this {
    return this.on('*', path, handler);
  }

  /** Hands every request whose path is `prefix` or below it to `router`, with the path after the prefix. */
  mount(prefix: string, router: Router): this {
    this.mounts.push({ prefix, router });
    return this;
  }

  /**
   * Handles the request, or answers 404/405; errors become answers in the shape of the router that took the
   * request, never a crash: nothing a request sends may end the process (merchants run the sandbox inside
   * their own test runners).
   */
  async handle(req: IncomingMessage, res: ServerResponse, fallback?: RouteHandler): Promise<void> {
    let owner: Router = this;
    try {
      const context = createContext(req, res);
      let path = context.url.pathname;
      for (;;) {
        const mount = owner.mounts.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
        if (!mount) break;
        path = path.slice(mount.prefix.length);
        owner = mount.router;
      }
      await owner.dispatch(context, path, owner === this ? fallback : undefined);
    } catch (error) {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      owner.answer(res, error);
    }
  }

  private async dispatch(context: RequestContext, path: string, fallback?: RouteHandler): Promise<void> {
    const { req, url } = context;
    const allowed = new Set<string>();
    for (const route of this.routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      if (route.method !== '*' && route.method !== req.method) {
        allowed.add(route.method);
        continue;
      }
      route.names.forEach((name, index) => {
        context.params[name] = decodePathSegment(match[index + 1] ?? '');
      });
      await route.handler(context);
      return;
    }
    if (allowed.size === 0 && fallback) {
      await fallback(context);
      return;
    }
    if (allowed.size === 0) throw new HttpError(404, 'not_found', `No such endpoint: ${url.pathname}`);
    const allow = [...allowed].join(', ');
    throw new HttpError(
      405,
      'method_not_allowed',
      `${req.method} is not allowed on ${url.pathname}; use ${allow}`,
      undefined,
      undefined,
      { allow },
    );
  }
}

function createContext(req: IncomingMessage, res: ServerResponse): RequestContext {
  let body: Promise<Buffer> | undefined;
  const context: RequestContext = {
    req,
    res,
    url: requestUrl(req),
    params: {},
    rawBody: () => {
      body ??= readRawBody(req);
      return body;
    },
    json: async () => parseJsonObject(await context.rawBody()),
  };
  return context;
}

/**
 * Answers `CONNECT`, which Node hands to no request handler: the sandbox is no proxy. Left unanswered, the
 * client would wait until a timeout closed the connection.
 */
export function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => {});
  socket.end(
    'HTTP/1.1 405 Method Not Allowed\r\nallow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n' +
      'content-length: 0\r\nconnection: close\r\n\r\n',
  );
}

/** The sandbox's own error answer: `{error: {code, message, field?, reason?}}`. */
export function answerError(res: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) sendError(res, error);
  else if (isWriteFailure(error)) sendError(res, storageFailure(error));
  else {
    console.error('svc-sandbox: internal error', error);
    sendError(res, new HttpError(500, 'internal_error', 'The sandbox failed; see its console'));
  }
}

/**
 * The request's target as a URL. Only its path and query count: an absolute-form target
 * (`GET http://host/path`) is read for its path, and one that is no URL at all is a 400. Runs of slashes in
 * the path are one, as the real front end merges them: an SDK's base URL with a trailing slash makes
 * `/api/v1//purchases/`. (A target starting `//` would otherwise be read as a host.)
 */
function requestUrl(req: IncomingMessage): URL {
  const target = req.url ?? '/';
  try {
    if (target.startsWith('/')) {
      const query = target.search(/[?#]/);
      const path = query === -1 ? target : target.slice(0, query);
      const rest = query === -1 ? '' : target.slice(query);
      return new URL(`${mergeSlashes(path)}${rest}`, 'http://sandbox.invalid');
    }
    const url = new URL(target, 'http://sandbox.invalid');
    url.pathname = mergeSlashes(url.pathname);
    return url;
  } catch {
    throw new HttpError(
      400,
      'malformed_request_target',
      `The request target ${JSON.stringify(req.url)} is not a path such as /widget/svc-checkout.js`,
    );
  }
}

const mergeSlashes = (path: string) => path.replace(/\/{2,}/g, '/');

/** A percent-encoded path segment, decoded; a malformed escape (`%E0%A4%A`) is a 400, not a crash. */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(
      400,
      'malformed_path',
      `The path segment ${JSON.stringify(segment)} has a malformed percent-escape`,
    );
  }
}

export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8') || 'null');
  } catch (error) {
    throw new HttpError(400, 'malformed_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'malformed_json', 'The body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
