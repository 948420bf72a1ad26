/**
 * Who calls the sandbox's own endpoints (logs, forwarding, legacy notifications): the merchant whose API key
 * comes in `X-Svc-Api-Key`, as merchant API v2 and the connection test take it, or a v1 merchant's secret key
 * as `Authorization: Bearer`. Each merchant sees only its own.
 */
import type { IncomingMessage } from 'node:http';
import type { MerchantConfig } from '../config.js';
import { HttpError } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';

/** The merchant a request authenticates as, or a 401 naming what to send. */
export type SandboxMerchantAuth = (req: IncomingMessage) => MerchantConfig;

export function sandboxMerchantAuth(merchants: readonly MerchantConfig[]): SandboxMerchantAuth {
  const byKey = new Map<string, MerchantConfig>();
  for (const merchant of merchants) {
    byKey.set(`api-key ${merchant.apiKey}`, merchant);
    if (merchant.v1) byKey.set(`bearer ${merchant.v1.secretKey}`, merchant);
  }
  return (req) => {
    const apiKey = req.headers['x-svc-api-key'];
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const merchant =
      typeof apiKey === 'string'
        ? byKey.get(`api-key ${apiKey}`)
        : bearer !== undefined
          ? byKey.get(`bearer ${bearer}`)
          : undefined;
    if (merchant === undefined) {
      throw new HttpError(
        401,
        apiKey === undefined && bearer === undefined ? 'api_key_missing' : 'api_key_invalid',
        apiKey === undefined && bearer === undefined
          ? "Send the merchant's API key in X-Svc-Api-Key (or a v1 secret key as Authorization: Bearer)"
          : "The key is no merchant's: send the merchant's API key in X-Svc-Api-Key (or its v1 secret key as Authorization: Bearer)",
      );
    }
    noteMerchant(req, merchant.id);
    return merchant;
  };
}
