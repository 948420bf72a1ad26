/**
 * What every endpoint of the sandbox's v1 interface shares: the bearer secret key that names the merchant,
 * the sandbox's base URL as the caller reached it (for `checkout_url` and page links), and the document's
 * error shape for every failure, the router's own 404 and 405 included.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { MerchantConfig } from '../config.js';
import { HttpError, type RequestContext, type RouteHandler, Router } from '../http.js';
import { type MerchantKeyLookup, merchantKeyLookup } from '../merchant-keys.js';
import { isWriteFailure } from '../store.js';
import { sendV1Error, V1HttpError } from './errors.js';

/** A merchant that has v1 credentials. */
export type V1Merchant = MerchantConfig & { v1: NonNullable<MerchantConfig['v1']> };

/** A request that passed authentication. */
export interface V1Context {
  http: RequestContext;
  merchant: V1Merchant;
  /** Path parameters of the route, by name. */
  params: Record<string, string>;
  /** Scheme, host and port the caller reached the sandbox under. */
  baseUrl: string;
}

export type V1Handler = (context: V1Context) => Promise<void> | void;

/** A router whose routes take `/x` and `/x/` alike and answer every error in the document's shape. */
export function v1Router(): Router {
  return new Router({ optionalTrailingSlash: true, answerError: answerV1Error });
}

/**
 * Wraps v1 handlers: each runs for the merchant whose secret key the request carries as
 * `Authorization: Bearer <key>`, or is answered 401.
 */
export function authenticated(
  merchants: readonly MerchantConfig[],
  listenHost?: string,
): (handler: V1Handler) => RouteHandler {
  const lookup = merchantKeyLookup(merchants);
  return (handler) => async (http) => {
    const merchant = authenticate(http.req, lookup);
    const baseUrl = baseUrlOf(http.req, listenHost);
    await handler({ http, merchant, params: http.params, baseUrl });
  };
}

/** The merchant whose secret key the request carries as `Authorization: Bearer <key>`. */
function authenticate(req: IncomingMessage, lookup: MerchantKeyLookup): V1Merchant {
  const challenge = { 'www-authenticate': 'Bearer realm="svc-sandbox v1"' };
  const found = lookup(req, ['bearer']);
  // Only merchants with v1 credentials have a secret key to be found by.
  if (found.kind === 'merchant') return found.merchant as V1Merchant;
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') {
    throw V1HttpError.nonField(
      401,
      'not_authenticated',
      'Send the secret key as Authorization: Bearer <secret key>',
      challenge,
    );
  }
  if (found.kind === 'no_key') {
    throw V1HttpError.nonField(
      401,
      'authentication_failed',
      'The Authorization header must be Bearer <secret key>',
      challenge,
    );
  }
  throw V1HttpError.nonField(401, 'authentication_failed', 'The secret key is not valid', challenge);
}

/** The answer of a delete: 204, nothing to cache. */
export function sendNoContent(res: ServerResponse): void {
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

/** The address a request came from, as the platform records it (`created_from_ip`, `client_ip`): IPv4 plain. */
export function clientIpOf(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

/**
 * The sandbox's own address (`https://` when it serves HTTPS), for checkout URLs and page links: the host it
 * was told to listen on (`--host`, which its TLS certificate names), else the address the connection reached.
 * The `Host` header is taken only when it names this sandbox (a loopback name or one of those, at the port
 * listened on), so a forged `Host: evil.example` never becomes a link.
 */
export function baseUrlOf(req: IncomingMessage, listenHost?: string): string {
  const scheme = (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  const bracketed = (host: string) => (host.includes(':') ? `[${host}]` : host);
  const wildcard = listenHost === undefined || listenHost === '0.0.0.0' || listenHost === '::';
  const ownHost = bracketed(wildcard ? (req.socket.localAddress ?? '127.0.0.1') : listenHost);
  const own = `${scheme}://${ownHost}:${req.socket.localPort}`;
  const host = req.headers.host;
  if (host === undefined || !/^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host)) return own;
  // The pattern lets through ports past 65535, which no URL takes.
  if (!URL.canParse(`${scheme}://${host}`) || !URL.canParse(own)) return own;
  const named = new URL(`${scheme}://${host}`);
  const port = named.port === '' ? (scheme === 'https' ? 443 : 80) : Number(named.port);
  const ownNames = ['localhost', '127.0.0.1', '[::1]', new URL(own).hostname];
  if (req.socket.localAddress !== undefined)
    ownNames.push(new URL(`http://${bracketed(req.socket.localAddress)}`).hostname);
  return port === req.socket.localPort && ownNames.includes(named.hostname)
    ? `${scheme}://${named.host}`
    : own;
}

/** Any failure in the document's error shape. */
export function answerV1Error(res: ServerResponse, error: unknown): void {
  sendV1Error(res, asV1Error(error));
}

function asV1Error(error: unknown): V1HttpError {
  if (error instanceof V1HttpError) return error;
  if (error instanceof HttpError) {
    // The router's: no such endpoint (404), a method it does not take (405); the body's: malformed JSON or a
    // malformed path (400), a body over the limit (413).
    const code =
      error.code === 'not_found' || error.code === 'method_not_allowed' || error.code === 'body_too_large'
        ? error.code
        : 'parse_error';
    return V1HttpError.nonField(error.status, code, error.message, error.headers);
  }
  if (isWriteFailure(error)) {
    // As the sandbox answers it elsewhere (storageFailure), in the v1 shape: nothing was changed.
    return error.code === 'no_space'
      ? V1HttpError.nonField(507, 'insufficient_storage', error.message)
      : V1HttpError.nonField(503, 'storage_unavailable', error.message);
  }
  console.error('svc-sandbox: internal error in /api/v1', error);
  return V1HttpError.nonField(500, 'internal_error', 'The sandbox failed; see its console');
}
