/**
 * Merchant API v2 (legacy): `GET /v2/merchants/{id}/orders/{orderId}` and `POST .../refunds`, each request
 * checked for its HTTP signature, digest, date, key id and API key before anything is read or changed.
 */
import { formatMinorUnits, parseMinorUnits } from '../core/money.js';
import { verifyHttpSignature } from '../server/index.js';
import type { MerchantConfig } from './config.js';
import {
  HttpError,
  parseJsonObject,
  type RequestContext,
  type Router,
  requireObject,
  requireString,
  sendJson,
} from './http.js';
import type { LegacyOrders } from './legacy-orders.js';

const MAX_SKEW_SECONDS = 300;

/**
 * The signatures of requests already taken, for as long as their `Date` is accepted: a request whose `Date`
 * lies up to the skew ahead stays acceptable twice the skew from now, so entries are kept that long. A
 * repeat within that time is a replay; past it, its `Date` refuses it anyway.
 */
class SeenSignatures {
  readonly #expiry = new Map<string, number>();

  /** False when the signature was taken before and its window is still open; else records it. */
  claim(signature: string, nowMs: number): boolean {
    // Entries go in with one lifetime, so the oldest expire first: drop from the front while expired.
    for (const [seen, expiresAt] of this.#expiry) {
      if (expiresAt > nowMs) break;
      this.#expiry.delete(seen);
    }
    if (this.#expiry.has(signature)) return false;
    this.#expiry.set(signature, nowMs + 2 * MAX_SKEW_SECONDS * 1000);
    return true;
  }
}

function header(context: RequestContext, name: string): string | undefined {
  const value = context.req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Checks API key, HTTP signature and key id; answers 401 naming what failed. */
async function authenticate(
  context: RequestContext,
  merchant: MerchantConfig,
  now: () => Date,
  seen?: SeenSignatures,
): Promise<Buffer> {
  const apiKey = header(context, 'x-svc-api-key');
  if (!apiKey) throw new HttpError(401, 'api_key_missing', 'Send the API key in X-Svc-Api-Key');
  if (apiKey !== merchant.apiKey)
    throw new HttpError(401, 'api_key_invalid', "X-Svc-Api-Key is not this merchant's API key");
  const rawBody = await context.rawBody();
  const result = verifyHttpSignature(
    {
      method: context.req.method ?? 'GET',
      path: `${context.url.pathname}${context.url.search}`,
      headers: context.req.headers,
      rawBody,
    },
    (keyId) =>
      merchant.certificates.find((certificate) => certificate.name === keyId && !certificate.revoked)?.pem,
    { now: now(), maxSkewSeconds: MAX_SKEW_SECONDS },
  );
  if (!result.ok) throw new HttpError(401, result.code, result.message);
  if (context.req.method !== 'GET') {
    const keyId = header(context, 'x-svc-key-id');
    if (keyId !== result.keyId) {
      throw new HttpError(
        401,
        'key_id_mismatch',
        'X-Svc-Key-ID must name the certificate that signed the request',
      );
    }
  }
  if (seen && !seen.claim(result.signature, now().getTime())) {
    throw new HttpError(
      401,
      'request_replayed',
      'This signed request was already taken; sign each request anew (a new Date), retries included',
    );
  }
  return rawBody;
}

export function mountMerchantApiV2(router: Router, orders: LegacyOrders, now: () => Date): void {
  // Reads are safe to repeat; a request that changes something is taken once.
  const seen = new SeenSignatures();
  const find = (context: RequestContext) => {
    const merchant = orders.merchant(context.params['merchantId']!);
    return { merchant, orderId: context.params['orderId']! };
  };

  router.on('GET', '/v2/merchants/:merchantId/orders/:orderId', async (context) => {
    const { merchant, orderId } = find(context);
    await authenticate(context, merchant, now);
    const record = orders.findForMerchant(merchant.id, orderId);
    if (!record)
      throw new HttpError(404, 'not_found', `No order ${JSON.stringify(orderId)} for this merchant`);
    sendJson(context.res, 200, orders.apiView(record));
  });

  router.on('POST', '/v2/merchants/:merchantId/orders/:orderId/refunds', async (context) => {
    const { merchant, orderId } = find(context);
    const body = parseJsonObject(await authenticate(context, merchant, now, seen));
    const fields = requireObject(body, 'refundRequest');
    let amount: number;
    try {
      amount = parseMinorUnits(fields['amount']);
    } catch (error) {
      throw new HttpError(
        400,
        'invalid_amount',
        `refundRequest.amount: ${(error as Error).message}`,
        'refundRequest.amount',
      );
    }
    const reason = requireString(fields, 'reason', 'refundRequest.reason');
    const note = typeof fields['note'] === 'string' ? fields['note'] : '';
    const record = orders.findForMerchant(merchant.id, orderId);
    if (!record)
      throw new HttpError(404, 'not_found', `No order ${JSON.stringify(orderId)} for this merchant`);
    const { refund, record: updated } = orders.refund(record, { amount, reason, note });
    const view = orders.apiView(updated);
    sendJson(context.res, 201, {
      refundId: refund.id,
      orderId: updated.id,
      amount: formatMinorUnits(refund.amount),
      status: 'REFUNDED',
      order: view,
    });
  });
}
