/**
 * The plumbing of the toolkit's HTTP handlers, legacy and v1 alike: handlers are written against fetch
 * `Request`/`Response` so they run in any runtime, answer JSON, and {@link toNodeHandler} mounts them on
 * node:http or Express.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkOptions, describeValue, maxBodyBytesRule, type OptionRules } from './options.js';
import { DEFAULT_MAX_BODY_BYTES, RequestBodyError, readNodeBody } from './raw-request.js';

/** A handler in the fetch style, as Deno, Bun, Cloudflare Workers, Hono and Next.js route handlers take. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A handler for node:http's `request` event, also mountable as an Express route handler. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Options shared by the handlers that read a body. */
export interface HandlerOptions {
  /** The largest body read, in bytes; 1 MiB when left out. */
  maxBodyBytes?: number;
  /**
   * Called with anything the merchant's own callback throws, before the handler answers 500. Logs with
   * `console.error` when left out, so failures in the merchant's code are not silent.
   */
  onError?: (error: unknown) => void;
}

/** A JSON answer, not to be cached unless `headers` says otherwise. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function methodNotAllowed(allowed: string): Response {
  return json(405, { error: 'method_not_allowed', message: `Use ${allowed}` }, { allow: allowed });
}

/** Options of {@link toNodeHandler}. */
export interface NodeHandlerOptions {
  /** The largest body passed to the handler, in bytes; 1 MiB when left out. */
  maxBodyBytes?: number;
}

async function toFetchRequest(req: IncomingMessage, maxBodyBytes: number): Promise<Request> {
  const protocol = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `${protocol}://${req.headers.host ?? 'localhost'}`);
  } catch {
    url = new URL(req.url ?? '/', `${protocol}://localhost`);
  }
  const headers = new Headers();
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2) {
    try {
      headers.append(req.rawHeaders[index]!, req.rawHeaders[index + 1]!);
    } catch {
      // A header fetch cannot carry (HTTP/2 pseudo-headers, odd bytes) is left out, as fetch would.
    }
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // Node's buffers sit on plain ArrayBuffers; DOM typings only ask for that to be said.
  const body = hasBody ? ((await readNodeBody(req, maxBodyBytes)) as Uint8Array<ArrayBuffer>) : undefined;
  return new Request(url, { method, headers, ...(body !== undefined && { body }) });
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') res.setHeader(name, value);
  });
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(Buffer.from(await response.arrayBuffer()));
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

const NODE_HANDLER_OPTIONS: OptionRules<NodeHandlerOptions> = { maxBodyBytes: maxBodyBytesRule };

/**
 * Mounts a fetch-style handler on node:http (`http.createServer(toNodeHandler(h))`) or Express
 * (`app.post('/shipping', toNodeHandler(h))`, before any body parser on that route, or after
 * `express.raw()`). The body is read once, within `maxBodyBytes`, and handed over as the exact bytes.
 * @throws TypeError at once when `handler` is not a function, or naming the option when one is unknown or of
 *   the wrong kind.
 */
export function toNodeHandler(handler: FetchHandler, options: NodeHandlerOptions = {}): NodeHandler {
  if (typeof handler !== 'function') {
    throw new TypeError(
      `toNodeHandler: the handler must be a function (request) => Promise<Response>, such as ` +
        `createShippingCostHandler({...}), not ${describeValue(handler)}`,
    );
  }
  checkOptions('toNodeHandler', options, NODE_HANDLER_OPTIONS);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req, res) => {
    toFetchRequest(req, maxBodyBytes)
      .then(handler)
      .then((response) => writeResponse(res, response))
      .catch((error: unknown) => {
        if (error instanceof RequestBodyError) {
          writeJson(res, error.code === 'body_too_large' ? 413 : 500, {
            error: error.code,
            message: error.message,
          });
          return;
        }
        console.error('svc-checkout handler:', error);
        writeJson(res, 500, { error: 'server_error', message: 'The handler failed; see the server log' });
      });
  };
}
