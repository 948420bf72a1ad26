/**
 * Merchant API v2 (legacy): `GET /v2/merchants/{id}/orders/{orderId}` and `POST .../refunds`, each request
 * checked for its HTTP signature, digest, date, key id and API key before anything is read or changed.
 *
 * A refund is made once per signed request (a replay of the same bytes is refused) and, our extension, once
 * per `X-Svc-Request-Id` of the merchant: a repeat with that id, signed anew or not, gets the first refund's
 * answer again and refunds nothing.
 */
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../core/money.js';
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
import type { Collection, Store } from './store.js';

const MAX_SKEW_SECONDS = 300;

/** Our refund request id header, as Node names it; the toolkit's client sends it signed. */
const REQUEST_ID_HEADER = 'x-svc-request-id';
/** Visible ASCII, at most 255: what the client sends and what fits a header and a signing string. */
const REQUEST_ID = /^[\x21-\x7e]{1,255}$/;

/**
 * A refund made under a request id, kept with what it answered. Orders are kept for good, so these are too:
 * a request id is remembered as long as the order it refunded.
 */
interface RefundByRequestId {
  /** The gateway's id of the order refunded. */
  orderId: string;
  amount: MinorUnits;
  reason: string;
  note: string;
  /** The first answer, sent again to every repeat. */
  status: number;
  body: unknown;
}

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

/**
 * Checks API key, HTTP signature (with the request id, when one is sent, among the signed headers) and key
 * id; answers 401 naming what failed. Returns the raw body and the signature's canonical bytes.
 */
async function authenticate(
  context: RequestContext,
  merchant: MerchantConfig,
  now: () => Date,
): Promise<{ rawBody: Buffer; signature: string }> {
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
    // A request id travels signed, or an intermediary could swap it and make a retry refund twice.
    { now: now(), maxSkewSeconds: MAX_SKEW_SECONDS, signedIfPresent: [REQUEST_ID_HEADER] },
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
  return { rawBody, signature: result.signature };
}

/** The refund request id of a request, checked; undefined when it sends none. */
function requestIdOf(context: RequestContext): string | undefined {
  const id = header(context, REQUEST_ID_HEADER);
  if (id === undefined) return undefined;
  if (!REQUEST_ID.test(id)) {
    throw new HttpError(
      400,
      'invalid_request_id',
      'X-Svc-Request-Id must be 1 to 255 visible ASCII characters, without spaces',
      'X-Svc-Request-Id',
    );
  }
  return id;
}

export function mountMerchantApiV2(
  router: Router,
  orders: LegacyOrders,
  now: () => Date,
  store: Store,
): void {
  // Reads are safe to repeat; a request that changes something is taken once.
  const seen = new SeenSignatures();
  // Keyed by merchant id and request id, joined by a character neither may hold.
  const byRequestId: Collection<RefundByRequestId> = store.collection('merchant-api-v2-refund-requests');
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
    const { rawBody, signature } = await authenticate(context, merchant, now);
    const requestId = requestIdOf(context);
    const body = parseJsonObject(rawBody);
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
    // From here to the answer nothing awaits, so concurrent copies are taken one after the other.
    const key = `${merchant.id}\n${requestId}`;
    const earlier = requestId === undefined ? undefined : byRequestId.get(key);
    if (earlier) {
      // A retry of a refund already made (signed anew, or a copy): answered as the first was, changing nothing.
      if (
        earlier.orderId !== record.id ||
        earlier.amount !== amount ||
        earlier.reason !== reason ||
        earlier.note !== note
      ) {
        throw new HttpError(
          409,
          'request_id_reused',
          `X-Svc-Request-Id ${requestId} was used for another refund (${formatMinorUnits(earlier.amount)} of order ${earlier.orderId}); give each new refund a new id, and a retry the same id and content`,
          'X-Svc-Request-Id',
        );
      }
      sendJson(context.res, earlier.status, earlier.body, { 'x-svc-idempotent-replayed': 'true' });
      return;
    }
    if (!seen.claim(signature, now().getTime())) {
      throw new HttpError(
        401,
        'request_replayed',
        'This signed request was already taken; sign each request anew (a new Date), retries included',
      );
    }
    const answer = store.transaction(() => {
      const { refund, record: updated } = orders.refund(record, { amount, reason, note });
      const made = {
        status: 201,
        body: {
          refundId: refund.id,
          orderId: updated.id,
          amount: formatMinorUnits(refund.amount),
          status: 'REFUNDED',
          order: orders.apiView(updated),
        },
      };
      if (requestId !== undefined) {
        byRequestId.put(key, { orderId: record.id, amount, reason, note, ...made });
      }
      return made;
    });
    sendJson(context.res, answer.status, answer.body);
  });
}
