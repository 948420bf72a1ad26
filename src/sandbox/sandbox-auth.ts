/**
 * Who calls the sandbox's own endpoints (logs, forwarding, legacy notifications): the merchant whose API key
 * comes in `X-Svc-Api-Key`, as merchant API v2 and the connection test take it, or a v1 merchant's secret key
 * as `Authorization: Bearer`. Each merchant sees only its own.
 */
import type { IncomingMessage } from 'node:http';
import type { MerchantConfig } from './config.js';
import { HttpError } from './http.js';
import { merchantKeyLookup } from './merchant-keys.js';

/** The merchant a request authenticates as, or a 401 naming what to send. */
export type SandboxMerchantAuth = (req: IncomingMessage) => MerchantConfig;

export function sandboxMerchantAuth(merchants: readonly MerchantConfig[]): SandboxMerchantAuth {
  const lookup = merchantKeyLookup(merchants);
  return (req) => {
    const found = lookup(req, ['api_key', 'bearer']);
    if (found.kind === 'merchant') return found.merchant;
    throw new HttpError(
      401,
      found.kind === 'no_key' ? 'api_key_missing' : 'api_key_invalid',
      found.kind === 'no_key'
        ? "Send the merchant's API key in X-Svc-Api-Key (or a v1 secret key as Authorization: Bearer)"
        : "The key is no merchant's: send the merchant's API key in X-Svc-Api-Key (or its v1 secret key as Authorization: Bearer)",
    );
  };
}
