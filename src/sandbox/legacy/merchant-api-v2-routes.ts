/**
 * Merchant API v2 (legacy): `GET /v2/merchants/{id}/orders/{orderId}`, `POST .../refunds`, and a CALLBACK
 * widget's order approved (`PUT .../orders/{orderId}`) or rejected (`DELETE`, `{reasonCode}`), each request
 * checked for its HTTP signature, digest and date before anything is read or changed. The API key and key id
 * headers are checked when sent: the real service's official client sends neither with its signed requests.
 * A merchant's `requireApiKey` makes the API key required, as the interface document has it.
 * Its approvals and rejections carry no HTTP signature but a JWS body signed with the merchant's key (`kid`:
 * the certificate's name), which is taken in its place.
 *
 * A refund is made once per signed request (a replay of the same bytes is refused) and, our extension, once
 * per `X-Svc-Request-Id` of the merchant: a repeat with that id, signed anew or not, gets the first refund's
 * answer again and refunds nothing.
 */
import { isOrderRejectionReason, ORDER_REJECTION_REASONS } from '../../core/legacy-callbacks.js';
import {
  isRefundReason,
  type MerchantApiV2OrderDecision,
  type MerchantApiV2Refund,
  REFUND_REASONS,
  type RefundReason,
} from '../../core/merchant-api-v2-types.js';
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../../core/money.js';
import {
  certificateValidityError,
  isCompactJws,
  jwsHeader,
  verifyRs256Jws,
} from '../../server/for-sandbox.js';
import { verifyHttpSignature } from '../../server/index.js';
import { BodyReader } from '../body-reader.js';
import type { MerchantConfig } from '../config.js';
import { HttpError, parseJsonObject, type RequestContext, type Router, sendJson } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';
import type { Collection, Store } from '../store.js';
import type { MerchantDirectory } from './merchant-directory.js';
import type { OrderBook } from './order-book.js';
import type { OrderVerification } from './order-records.js';
import type { OrderVerifier } from './order-verification.js';
import type { OrderViews } from './order-views.js';
import type { PaymentMachine } from './payment-machine.js';
import { money, type Written } from './wire-json.js';

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
 * Refuses an API key that is sent and is not the merchant's. None sent is taken unless the merchant's
 * `requireApiKey` says otherwise: see the file's comment.
 */
function checkApiKey(context: RequestContext, merchant: MerchantConfig): void {
  const apiKey = header(context, 'x-svc-api-key');
  if (apiKey === undefined && merchant.requireApiKey) {
    throw new HttpError(
      401,
      'api_key_missing',
      "Send the merchant's API key in the X-Svc-Api-Key header: this merchant's requireApiKey is on",
    );
  }
  if (apiKey !== undefined && apiKey !== merchant.apiKey)
    throw new HttpError(401, 'api_key_invalid', "X-Svc-Api-Key is not this merchant's API key");
}

/**
 * Checks API key (see {@link checkApiKey}) and key id when sent, and the HTTP signature (with the request id, when one is sent, among
 * the signed headers); answers 401 naming what failed. Returns the raw body and the signature's canonical
 * bytes.
 */
async function authenticate(
  context: RequestContext,
  merchant: MerchantConfig,
  now: () => Date,
): Promise<{ rawBody: Buffer; signature: string }> {
  checkApiKey(context, merchant);
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
    if (keyId !== undefined && keyId !== result.keyId) {
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

/**
 * The refund a body asks for, in either form the real service takes: `{refundRequest: {amount, reason,
 * note}}` as its documents show it, or `{amount, reason, note}` as its official client sends it. `prefix`
 * names the fields as the body wrote them (`refundRequest.` or nothing).
 */
function refundFields(body: Record<string, unknown>): {
  amount: MinorUnits;
  reason: RefundReason;
  note: string;
  prefix: string;
} {
  const wrapped = body['refundRequest'] !== undefined;
  const forms =
    'Send the refund as {"refundRequest": {"amount", "reason", "note"}} or as {"amount", "reason", "note"}';
  if (!wrapped && body['amount'] === undefined)
    throw new HttpError(400, 'invalid_request', forms, 'refundRequest');
  // Both forms at once name two refunds (which amount is meant?): taking either would refund what nobody asked.
  const beside = wrapped ? ['amount', 'reason', 'note'].filter((name) => Object.hasOwn(body, name)) : [];
  if (beside.length > 0) {
    const both = `${forms}, not both: ${beside.join(', ')} beside refundRequest`;
    throw new HttpError(400, 'invalid_request', both, 'refundRequest');
  }
  const reader = new BodyReader();
  const fields = wrapped ? (reader.object(body, 'refundRequest', 'refundRequest', true) ?? {}) : body;
  reader.throwFirst();
  const prefix = wrapped ? 'refundRequest.' : '';
  if (fields['amount'] === undefined) {
    const required = `${prefix}amount is required, such as 12.34`;
    throw new HttpError(400, 'invalid_amount', required, `${prefix}amount`);
  }
  let amount: MinorUnits;
  try {
    amount = parseMinorUnits(fields['amount']);
  } catch (error) {
    throw new HttpError(
      400,
      'invalid_amount',
      `${prefix}amount: ${(error as Error).message}`,
      `${prefix}amount`,
    );
  }
  const reason = fields['reason'];
  if (!isRefundReason(reason)) {
    throw new HttpError(
      400,
      'invalid_reason',
      `${prefix}reason ${JSON.stringify(reason ?? null)} is not one of ${REFUND_REASONS.join(', ')}`,
      `${prefix}reason`,
    );
  }
  const note = reader.text(fields, 'note', `${prefix}note`) ?? '';
  reader.throwFirst();
  return { amount, reason, note, prefix };
}

/**
 * The payload of a JWS body signed with one of the merchant's active certificates, named by the header's
 * `kid`: how the real service's official client signs its approvals and rejections. 401 naming what failed.
 */
function merchantJws(token: string, merchant: MerchantConfig, now: Date): Record<string, unknown> {
  const kid = jwsHeader(token)?.['kid'];
  if (typeof kid !== 'string') {
    throw new HttpError(
      401,
      'unknown_key',
      "The JWS body's header names no certificate: set kid to your certificate's name, or send JSON with an HTTP signature",
    );
  }
  const certificate = merchant.certificates.find((candidate) => candidate.name === kid && !candidate.revoked);
  if (!certificate)
    throw new HttpError(401, 'unknown_key', `No active certificate is named ${JSON.stringify(kid)}`);
  const outdated = certificateValidityError(certificate.pem, { now, name: kid });
  if (outdated) throw new HttpError(401, outdated.code, outdated.message);
  const payload = verifyRs256Jws(token, certificate.pem, now);
  if (payload === undefined) {
    throw new HttpError(
      401,
      'signature_invalid',
      `The JWS body is not an RS256 JWS signed with the key of certificate ${JSON.stringify(kid)}`,
    );
  }
  return payload;
}

/**
 * The body of an approval or a rejection, authenticated: JSON under an HTTP signature (the toolkit's
 * client), or a compact JWS signed with the merchant's key (the official client, which sends no HTTP
 * signature). A JWS sent with an HTTP signature too must pass both.
 */
async function decisionBody(
  context: RequestContext,
  merchant: MerchantConfig,
  now: () => Date,
): Promise<{ fields: Record<string, unknown>; jws: boolean }> {
  const text = (await context.rawBody()).toString('utf8').trim();
  const jws = isCompactJws(text);
  if (!jws || header(context, 'authorization') !== undefined) await authenticate(context, merchant, now);
  else checkApiKey(context, merchant);
  if (jws) return { fields: merchantJws(text, merchant, now()), jws };
  // An approval needs nothing beyond its path; a rejection's missing reasonCode is named below.
  return { fields: text === '' ? {} : parseJsonObject(await context.rawBody()), jws };
}

/** What merchant API v2's routes use: the legacy orders' parts, the store its refund request ids are kept in. */
export interface MerchantApiV2Deps {
  directory: MerchantDirectory;
  book: OrderBook;
  verifier: OrderVerifier;
  views: OrderViews;
  payments: PaymentMachine;
  store: Store;
  /** Real time: the requests' `Date` and the merchant's certificates are checked against it. */
  now: () => Date;
}

export function mountMerchantApiV2(router: Router, deps: MerchantApiV2Deps): void {
  const { directory, book, verifier, views, payments, store, now } = deps;
  // Reads are safe to repeat; a request that changes something is taken once.
  const seen = new SeenSignatures();
  // Keyed by merchant id and request id, joined by a character neither may hold.
  const byRequestId: Collection<RefundByRequestId> = store.collection('merchant-api-v2-refund-requests');
  const find = (context: RequestContext) => {
    const merchant = directory.merchant(context.params['merchantId']!);
    noteMerchant(context.req, merchant.id);
    return { merchant, orderId: context.params['orderId']! };
  };

  router.on('GET', '/v2/merchants/:merchantId/orders/:orderId', async (context) => {
    const { merchant, orderId } = find(context);
    await authenticate(context, merchant, now);
    const record = book.findForMerchant(merchant.id, orderId);
    if (!record)
      throw new HttpError(404, 'not_found', `No order ${JSON.stringify(orderId)} for this merchant`);
    sendJson(context.res, 200, views.apiView(record));
  });

  router.on('POST', '/v2/merchants/:merchantId/orders/:orderId/refunds', async (context) => {
    const { merchant, orderId } = find(context);
    const { rawBody, signature } = await authenticate(context, merchant, now);
    const requestId = requestIdOf(context);
    const { amount, reason, note, prefix } = refundFields(parseJsonObject(rawBody));
    const record = book.findForMerchant(merchant.id, orderId);
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
      const {
        refund,
        record: updated,
        refunded,
        effective,
      } = payments.refund(record, { amount, reason, note }, `${prefix}amount`);
      const body: Written<MerchantApiV2Refund> = {
        // The real service's two totals, as numbers; the members after them are ours.
        totalRefundedAmount: money(refunded),
        orderEffectiveAmount: money(effective),
        refundId: refund.id,
        orderId: updated.id,
        amount: formatMinorUnits(refund.amount),
        status: 'REFUNDED',
        order: views.apiView(updated),
      };
      const made = { status: 201, body };
      if (requestId !== undefined) {
        byRequestId.put(key, { orderId: record.id, amount, reason, note, ...made });
      }
      return made;
    });
    sendJson(context.res, answer.status, answer.body);
  });

  // A CALLBACK widget's order awaiting the merchant's decision: PUT approves it, DELETE rejects it.
  const decide = (approve: boolean) => async (context: RequestContext) => {
    const { merchant, orderId } = find(context);
    const { fields, jws } = await decisionBody(context, merchant, now);
    const record = book.findForMerchant(merchant.id, orderId);
    if (!record)
      throw new HttpError(404, 'not_found', `No order ${JSON.stringify(orderId)} for this merchant`);
    let verification: OrderVerification;
    if (approve) {
      // The official client sends the order it read: its id must be this order's. A JWS body must name it:
      // unlike an HTTP signature it does not cover the method, and a rejection's `{reasonCode}` names no order.
      const id = fields['id'];
      if ((id !== undefined || jws) && id !== record.id && id !== record.input.orderId) {
        throw new HttpError(
          400,
          'order_mismatch',
          `The body's id ${JSON.stringify(id ?? null)} is not the order ${JSON.stringify(orderId)} of the path; an approval's JWS body is the order, with its id`,
          'id',
        );
      }
      verification = verifier.decide(record, { approved: true });
    } else {
      const reasonCode = fields['reasonCode'];
      if (!isOrderRejectionReason(reasonCode)) {
        throw new HttpError(
          400,
          'invalid_reason_code',
          `reasonCode ${JSON.stringify(reasonCode ?? null)} is not one of ${ORDER_REJECTION_REASONS.join(', ')}`,
          'reasonCode',
        );
      }
      verification = verifier.decide(record, { approved: false, reasonCode });
    }
    const answer: MerchantApiV2OrderDecision = {
      id: record.id,
      decision: approve ? 'APPROVED' : 'REJECTED',
      reasonCode: verification.reasonCode ?? null,
    };
    sendJson(context.res, 200, answer);
  };
  router.on('PUT', '/v2/merchants/:merchantId/orders/:orderId', decide(true));
  router.on('DELETE', '/v2/merchants/:merchantId/orders/:orderId', decide(false));
}
