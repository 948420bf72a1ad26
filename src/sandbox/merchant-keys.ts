/**
 * Which merchant a request comes from, by the key it carries: a merchant API key in `X-Svc-Api-Key`, or a v1
 * secret key as `Authorization: Bearer <key>`. One lookup for the v1 interface and the sandbox's own endpoints
 * (logs, forwarding, legacy notifications, clock, test helpers); each answers a failure in its own words, and
 * the sandbox's v1-side endpoints share {@link bearerRefusal}.
 */
import type { IncomingMessage } from 'node:http';
import type { MerchantConfig } from './config.js';
import { HttpError } from './http.js';
import { noteMerchant } from './sandbox-log.js';

/** A key a request may carry. */
export type KeyKind = 'api_key' | 'bearer';

/** What a request's key says: its merchant, no key at all, or a key that is no merchant's. */
export type KeyLookup =
  | { kind: 'merchant'; merchant: MerchantConfig }
  | { kind: 'no_key' }
  | { kind: 'unknown_key'; sent: KeyKind };

/**
 * Reads a request's key, of the kinds `accepted` in that order: the first kind the request carries decides,
 * whether or not its key is a merchant's. A found merchant is noted for the request's log line.
 */
export type MerchantKeyLookup = (req: IncomingMessage, accepted: readonly KeyKind[]) => KeyLookup;

export function merchantKeyLookup(merchants: readonly MerchantConfig[]): MerchantKeyLookup {
  const byKey: Record<KeyKind, Map<string, MerchantConfig>> = {
    api_key: new Map(merchants.map((merchant) => [merchant.apiKey, merchant])),
    bearer: new Map(
      merchants.flatMap((merchant) => (merchant.v1 ? [[merchant.v1.secretKey, merchant]] : [])),
    ),
  };
  return (req, accepted) => {
    for (const kind of accepted) {
      const key = sentKey(req, kind);
      if (key === undefined) continue;
      const merchant = byKey[kind].get(key);
      if (merchant === undefined) return { kind: 'unknown_key', sent: kind };
      noteMerchant(req, merchant.id);
      return { kind: 'merchant', merchant };
    }
    return { kind: 'no_key' };
  };
}

function sentKey(req: IncomingMessage, kind: KeyKind): string | undefined {
  if (kind === 'bearer') return /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  const apiKey = req.headers['x-svc-api-key'];
  return typeof apiKey === 'string' ? apiKey : undefined;
}

const UNKNOWN_KEY: Record<KeyKind, string> = {
  bearer: 'The secret key is not valid: send a v1 secret key of a merchant of this sandbox',
  api_key:
    'The API key is not valid: send the merchant API key of a merchant of this sandbox in X-Svc-Api-Key',
};

/**
 * The 401 of the sandbox's v1-side endpoints, in v1's codes (`not_authenticated`, `authentication_failed`)
 * with its `WWW-Authenticate` challenge; `noKey` says what to send when nothing was.
 */
export function bearerRefusal(lookup: Exclude<KeyLookup, { kind: 'merchant' }>, noKey: string): HttpError {
  return new HttpError(
    401,
    lookup.kind === 'no_key' ? 'not_authenticated' : 'authentication_failed',
    lookup.kind === 'no_key' ? noKey : UNKNOWN_KEY[lookup.sent],
    undefined,
    undefined,
    { 'www-authenticate': 'Bearer realm="svc-sandbox v1"' },
  );
}
