/**
 * The signed merchant API v2 (deprecated by the gateway, still used by widget merchants): read an order and
 * refund it. Every request is signed with the merchant certificate's private key (see http-signature.ts).
 *
 * A refund moves money, so once the API has answered 2xx the client never rejects: whatever the body holds is
 * returned, so that no merchant refunds again because a member was missing. Each refund carries a request id
 * of ours (`X-Svc-Request-Id`, signed), so that a retry of the same refund is answered, not made again.
 */
import { randomUUID } from 'node:crypto';
import { SvcError } from '../../core/errors.js';
import {
  isOrderRejectionReason,
  ORDER_REJECTION_REASONS,
  type OrderRejectionReason,
} from '../../core/legacy-callbacks.js';
import {
  isRefundReason,
  type MerchantApiV2ApproveRequest,
  type MerchantApiV2Order,
  type MerchantApiV2OrderDecision,
  type MerchantApiV2Refund,
  type MerchantApiV2RejectRequest,
  REFUND_REASONS,
  type RefundReason,
} from '../../core/merchant-api-v2-types.js';
import { AmountError, formatMinorUnits, parseMinorUnits } from '../../core/money.js';
import { isPlainObject } from '../../core/plain-object.js';
import { durationOption } from '../durations.js';
import { importPrivateKey } from '../keys.js';
import {
  checkOptions,
  isFunction,
  isNumber,
  isString,
  isText,
  MILLISECONDS,
  type OptionRules,
  optional,
  required,
} from '../options.js';
import {
  type HttpSignatureAlgorithmName,
  httpSignatureAlgorithm,
  isHeaderText,
  signHttpRequest,
} from './http-signature.js';

export type { MerchantApiV2Order, MerchantApiV2OrderDecision, MerchantApiV2Refund };

/** Why a merchant API call failed. */
export type MerchantApiErrorCode =
  /** Refused before sending: an argument is invalid (the message names it). */
  | 'invalid_request'
  /** 400 or 422: the API refused the request's content. */
  | 'bad_request'
  /** 401: the signature, API key or certificate was not accepted. */
  | 'unauthorized'
  /** 403: the key is valid but may not do this. */
  | 'forbidden'
  | 'not_found'
  /** 409: the order's state does not allow it (say, refunding more than is left). */
  | 'conflict'
  | 'rate_limited'
  /** 5xx. */
  | 'server_error'
  /**
   * 3xx: the API answered with a redirect, which the client does not follow: it would carry the API key and
   * the signed request to another address. `baseUrl` should be the API's own URL.
   */
  | 'redirected'
  /** Any other non-2xx status. */
  | 'unexpected_status'
  /** No answer: connection refused or reset, DNS, TLS. */
  | 'network_error'
  /** No answer within the client's `timeoutMs`. */
  | 'timeout'
  /** The caller's `signal` aborted the call. */
  | 'aborted'
  /** A 2xx answer to `getOrder` that is not an order. A refund's 2xx answer is returned, never refused. */
  | 'invalid_response';

/** What a {@link MerchantApiError} carries beside its code and message. */
export interface MerchantApiErrorDetails {
  status?: number;
  body?: unknown;
  requestId?: string;
  cause?: unknown;
}

/** A failed merchant API call. `status` is the HTTP status, absent when no answer came. */
export class MerchantApiError extends SvcError<MerchantApiErrorCode> {
  readonly status: number | undefined;
  /** The parsed error body (or its text) when the API sent one. */
  readonly body: unknown;
  /**
   * For a refund: the `X-Svc-Request-Id` it was sent with. After `network_error`, `timeout`, `aborted` or
   * `server_error` the refund may have been made: retry with this id, and it is made at most once.
   */
  readonly requestId: string | undefined;

  constructor(code: MerchantApiErrorCode, message: string, details: MerchantApiErrorDetails = {}) {
    super(code, message, { cause: details.cause });
    this.status = details.status;
    this.body = details.body;
    this.requestId = details.requestId;
  }
}

/** Where the API is and who calls it: the values shown in the merchant console. */
export interface MerchantApiV2ClientOptions {
  /** `{legacy_api_url}` of the environment, such as the sandbox's `http://127.0.0.1:4010`. */
  baseUrl: string;
  merchantId: string;
  /** The API key from the console, sent as `X-Svc-Api-Key`. */
  apiKey: string;
  /** The certificate's name in the console: the signature's `keyId` and `X-Svc-Key-ID`. */
  certificateName: string;
  /** The certificate's private key, PKCS#8 or PKCS#1 PEM. */
  privateKeyPem: string;
  /** `rsa-sha256` when left out. */
  algorithm?: HttpSignatureAlgorithmName;
  /** A fetch to use instead of the global one (for proxies or tests). */
  fetch?: typeof fetch;
  /** Give up on a request after this many milliseconds; 30 000 when left out. */
  timeoutMs?: number;
}

/** A refund to ask for. */
export interface RefundInput {
  /** Major units, more than 0 and at most 2 decimals: `12.3`, `"12.30"`. */
  amount: number | string;
  /** One of the real service's reasons ({@link REFUND_REASONS}); `OTHER_REFUND` when left out. */
  reason?: RefundReason;
  /** An internal note shown in the console. */
  note?: string;
}

/** Per-call options. */
export interface MerchantApiV2CallOptions {
  /** Aborts the call; it then rejects with code `aborted`. */
  signal?: AbortSignal;
}

/** Options of a refund. */
export interface MerchantApiV2RefundOptions extends MerchantApiV2CallOptions {
  /**
   * Our extension, sent and signed as `X-Svc-Request-Id`: the gateway makes one refund per request id and
   * merchant, and answers a repeat with the first refund's answer. A new random id when left out. Give your
   * own (such as your refund record's id: 1 to 255 visible ASCII characters) and reuse it to retry the same
   * refund.
   */
  requestId?: string;
}

/**
 * A 2xx answer as the client returns it: each member of `Known` that the answer holds with its documented
 * type, beside the whole body. The documents do not show the answers, so none of those members is promised:
 * the 2xx status is what says the request was taken.
 */
export type MerchantApiV2Answer<Known> = Partial<Known> & {
  /** The 2xx status the API answered. */
  httpStatus: number;
  /** The body as the API sent it: parsed JSON, else its text (`''` when empty). */
  raw: unknown;
};

/** What {@link MerchantApiV2Client.refund} resolves with: the refund was made. */
export type MerchantApiV2RefundResult = MerchantApiV2Answer<MerchantApiV2Refund> & {
  /** The `X-Svc-Request-Id` the refund was sent with. */
  requestId: string;
};

/** What {@link MerchantApiV2Client.approveOrder} and `rejectOrder` resolve with: the decision was taken. */
export type MerchantApiV2DecisionResult = MerchantApiV2Answer<MerchantApiV2OrderDecision>;

/**
 * The operations of the document and of the real service's official client; every call is signed and
 * rejects with {@link MerchantApiError}.
 */
export interface MerchantApiV2Client {
  /**
   * `GET /v2/merchants/{merchantId}/orders/{orderId}`.
   * @throws MerchantApiError
   */
  getOrder(orderId: string, options?: MerchantApiV2CallOptions): Promise<MerchantApiV2Order>;
  /**
   * `POST /v2/merchants/{merchantId}/orders/{orderId}/refunds`, full or partial. Resolves on any 2xx answer.
   * When it rejects with `network_error`, `timeout`, `aborted` or `server_error`, the refund may have been
   * made: retry with `{ requestId: error.requestId }`, and it is made at most once.
   * @throws MerchantApiError (`invalid_request` before sending when the amount is not above 0 with at most 2
   *   decimals, or the request id is not 1 to 255 visible ASCII characters)
   * @throws TypeError naming the option when `options` has an unknown one or one of the wrong kind.
   */
  refund(
    orderId: string,
    refund: RefundInput,
    options?: MerchantApiV2RefundOptions,
  ): Promise<MerchantApiV2RefundResult>;
  /**
   * `PUT /v2/merchants/{merchantId}/orders/{orderId}` with `{id}`: approves a CALLBACK widget's order that
   * awaits your decision (your verification URL answered without one). `orderId` is the token's `orderId`,
   * the gateway's id. Resolves on any 2xx answer. A second decision, one after the gateway stopped waiting, or
   * one on an order that awaits none rejects with `conflict` (409).
   * @throws MerchantApiError
   */
  approveOrder(orderId: string, options?: MerchantApiV2CallOptions): Promise<MerchantApiV2DecisionResult>;
  /**
   * `DELETE /v2/merchants/{merchantId}/orders/{orderId}` with `{reasonCode}`: rejects such an order; the
   * customer is told the reason. Resolves on any 2xx answer; conflicts as {@link approveOrder}.
   * @throws MerchantApiError (`invalid_request` before sending when `reasonCode` is not one of
   *   {@link ORDER_REJECTION_REASONS})
   */
  rejectOrder(
    orderId: string,
    reasonCode: OrderRejectionReason,
    options?: MerchantApiV2CallOptions,
  ): Promise<MerchantApiV2DecisionResult>;
}

/** The header of our refund request id (an extension: the documents show none). */
const REQUEST_ID_HEADER = 'X-Svc-Request-Id';

/** Visible ASCII: it travels in a header and in the signing string as it is. */
const REQUEST_ID = /^[\x21-\x7e]{1,255}$/;

/** A check per member of `Known`: the compiler keeps them in step with the answer's type. */
type MemberChecks<Known> = { readonly [Name in keyof Known]-?: (value: unknown) => boolean };

const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

const isObjectOrNull = (value: unknown) => value === null || isPlainObject(value);
const isAmount = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

const ORDER_MEMBERS: MemberChecks<MerchantApiV2Order> = {
  id: isString,
  order_id: isStringOrNull,
  status: isString,
  company: isPlainObject,
  customer: isPlainObject,
  payment: isObjectOrNull,
  amount: isAmount,
  tax_amount: isAmount,
  total_amount: isAmount,
  effective_amount: isAmount,
  items: Array.isArray,
  currency: isString,
  merchant_urls: isPlainObject,
  shipping: isObjectOrNull,
  refunded_amount: isAmount,
  refundable_amount: isAmount,
  created_at: isString,
  paid_at: isStringOrNull,
};

const DECISION_MEMBERS: MemberChecks<MerchantApiV2OrderDecision> = {
  id: isString,
  decision: (value) => value === 'APPROVED' || value === 'REJECTED',
  reasonCode: (value) => value === null || isOrderRejectionReason(value),
};

const REFUND_MEMBERS: MemberChecks<MerchantApiV2Refund> = {
  totalRefundedAmount: isAmount,
  orderEffectiveAmount: isAmount,
  refundId: isString,
  orderId: isString,
  amount: isString,
  status: (value) => value === 'REFUNDED',
  order: (value) =>
    Object.keys(knownMembers(value, ORDER_MEMBERS)).length === Object.keys(ORDER_MEMBERS).length,
};

/** The members of `body` that pass their check; none when `body` is not a JSON object. */
function knownMembers<Known>(body: unknown, checks: MemberChecks<Known>): Partial<Known> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const fields = body as Record<string, unknown>;
  const known: Record<string, unknown> = {};
  for (const [name, check] of Object.entries(checks) as Array<[string, (value: unknown) => boolean]>) {
    if (Object.hasOwn(fields, name) && check(fields[name])) known[name] = fields[name];
  }
  return known as Partial<Known>;
}

function codeForStatus(status: number): MerchantApiErrorCode {
  if (status >= 300 && status < 400) return 'redirected';
  if (status === 400 || status === 422) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'unexpected_status';
}

const CLIENT_OPTIONS: OptionRules<MerchantApiV2ClientOptions> = {
  baseUrl: required("the API's absolute URL, such as the sandbox's http://127.0.0.1:4010", isText),
  merchantId: required('the merchant id shown in the merchant console (a non-empty string)', isText),
  apiKey: required('the API key shown in the merchant console (a non-empty string)', isText),
  certificateName: required("the certificate's name in the merchant console (a non-empty string)", isText),
  privateKeyPem: required("the certificate's private key as PEM text (BEGIN PRIVATE KEY)", isText),
  algorithm: optional('rsa-sha256, rsa-sha384 or rsa-sh512', isString),
  fetch: optional('a fetch function', isFunction),
  timeoutMs: optional(MILLISECONDS, isNumber),
};

const CALL_OPTIONS: OptionRules<MerchantApiV2CallOptions> = {
  signal: optional('an AbortSignal', (value) => value instanceof AbortSignal),
};

const REFUND_OPTIONS: OptionRules<MerchantApiV2RefundOptions> = {
  ...CALL_OPTIONS,
  requestId: optional("a string such as your refund record's id", isString),
};

function pathSegment(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new MerchantApiError('invalid_request', `${name} must be a non-empty string`);
  }
  return encodeURIComponent(value);
}

/** The refund body with the amount written with exactly 2 decimals, which JSON.stringify cannot do. */
function refundBody(refund: RefundInput): string {
  let minor: number;
  try {
    minor = parseMinorUnits(refund.amount);
  } catch (error) {
    if (error instanceof AmountError)
      throw new MerchantApiError('invalid_request', `amount: ${error.message}`);
    throw error;
  }
  if (minor <= 0) throw new MerchantApiError('invalid_request', `amount ${refund.amount} must be above 0`);
  const reason = refund.reason ?? 'OTHER_REFUND';
  if (!isRefundReason(reason)) {
    throw new MerchantApiError(
      'invalid_request',
      `reason ${JSON.stringify(reason)} is not one of ${REFUND_REASONS.join(', ')}`,
    );
  }
  if (refund.note !== undefined && typeof refund.note !== 'string') {
    throw new MerchantApiError('invalid_request', 'note must be a string');
  }
  const note = refund.note === undefined ? '' : `,"note":${JSON.stringify(refund.note)}`;
  return `{"refundRequest":{"amount":${formatMinorUnits(minor)},"reason":${JSON.stringify(reason)}${note}}}`;
}

/** The body parsed as JSON, else its text. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** What the API's non-2xx body says, in the shapes seen: `{error: {message}}`, `{message}`, `{error: "..."}`. */
function errorText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  const nested = (
    typeof fields['error'] === 'object' && fields['error'] !== null ? fields['error'] : {}
  ) as Record<string, unknown>;
  const said = [nested['message'], fields['message'], fields['error']].find(
    (value) => typeof value === 'string' && value !== '',
  );
  return said as string | undefined;
}

/** A 2xx answer: its status and body (parsed JSON, else the text). */
interface Answer {
  status: number;
  body: unknown;
}

/**
 * A client of the merchant API v2.
 * @throws KeyFormatError at once when `privateKeyPem` is not an RSA private key PEM.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind, for an
 *   invalid `baseUrl`, for an unknown algorithm, or for a `certificateName` or `apiKey` that a header cannot carry.
 * @throws RangeError at once when `timeoutMs` is not a positive number.
 */
export function createMerchantApiV2Client(options: MerchantApiV2ClientOptions): MerchantApiV2Client {
  const owner = 'createMerchantApiV2Client';
  checkOptions(owner, options, CLIENT_OPTIONS);
  const { merchantId, apiKey, certificateName } = options;
  // Both travel in headers. One that cannot be sent would fail every call as network_error, which for a refund
  // says "it may have been made" although nothing left.
  for (const [name, value] of [
    ['certificateName', certificateName],
    ['apiKey', apiKey],
  ] as const) {
    if (!isHeaderText(value) || (name === 'certificateName' && value.includes('"'))) {
      throw new TypeError(
        `${owner}: ${name} ${JSON.stringify(value)} cannot be sent in a header (no control characters, nothing beyond Latin-1${name === 'certificateName' ? ', no quotes: the signature quotes it' : ''}); write it as the merchant console shows it`,
      );
    }
  }
  importPrivateKey(options.privateKeyPem);
  const algorithm = options.algorithm ?? 'rsa-sha256';
  if (httpSignatureAlgorithm(algorithm) === undefined) {
    throw new TypeError(
      `${owner}: unknown algorithm ${JSON.stringify(algorithm)}; use rsa-sha256, rsa-sha384 or rsa-sh512`,
    );
  }
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`${owner}: baseUrl ${JSON.stringify(options.baseUrl)} is not an absolute URL`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = durationOption(owner, 'timeoutMs', options.timeoutMs, 30_000);
  const signingKey = { keyId: certificateName, privateKeyPem: options.privateKeyPem, algorithm };

  /** One signed request: resolves the 2xx answer, rejects with a {@link MerchantApiError} otherwise. */
  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    request: { body?: string; requestId?: string; signal: AbortSignal | undefined },
  ): Promise<Answer> {
    const url = new URL(`${basePath}${path}`, base.origin);
    // Sign the path as the URL parser puts it on the request line, so both sides see the same target.
    const fullPath = `${url.pathname}${url.search}`;
    const what = `${method} ${fullPath}`;
    const { body, requestId, signal: callerSignal } = request;
    const details = requestId === undefined ? {} : { requestId };
    if (callerSignal?.aborted) {
      throw new MerchantApiError('aborted', `${what} was aborted before it was sent`, {
        ...details,
        cause: callerSignal.reason,
      });
    }
    const extensions: Record<string, string> =
      requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId };
    const signed = signHttpRequest(
      { method, path: fullPath, ...(body !== undefined && { body }), headers: extensions },
      signingKey,
    );
    const headers: Record<string, string> = {
      ...signed,
      ...extensions,
      Accept: 'application/json',
      'X-Svc-Api-Key': apiKey,
    };
    if (method !== 'GET') headers['X-Svc-Key-ID'] = certificateName;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body }),
        signal: callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout,
        // An API answers, it does not redirect: following would carry the API key and the signed request on.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (callerSignal?.aborted) {
        throw new MerchantApiError('aborted', `${what} was aborted`, {
          ...details,
          cause: callerSignal.reason ?? error,
        });
      }
      if (timeout.aborted) {
        throw new MerchantApiError('timeout', `${what} got no answer within ${timeoutMs} ms`, {
          ...details,
          cause: error,
        });
      }
      // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ...) in `cause`.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new MerchantApiError('network_error', `${what} got no answer: ${reason}`, {
        ...details,
        cause: error,
      });
    }
    const parsed = parseBody(text);
    if (response.status < 200 || response.status > 299) {
      const location = response.headers.get('location');
      const redirect =
        response.status >= 300 && response.status < 400
          ? ` with a redirect to ${location ?? '(no Location)'}, which is not followed so that the API key goes nowhere else; set baseUrl to the API's own URL`
          : '';
      const said = errorText(parsed) ?? (text.slice(0, 200) || response.statusText);
      throw new MerchantApiError(
        codeForStatus(response.status),
        `${what} answered ${response.status}${redirect}: ${said}`,
        {
          ...details,
          status: response.status,
          body: parsed,
        },
      );
    }
    return { status: response.status, body: parsed };
  }

  const ordersPath = (orderId: string) =>
    `/v2/merchants/${encodeURIComponent(merchantId)}/orders/${pathSegment(orderId, 'orderId')}`;

  return {
    async getOrder(orderId, callOptions = {}) {
      checkOptions(`${owner}().getOrder`, callOptions, CALL_OPTIONS);
      const answer = await send('GET', ordersPath(orderId), { signal: callOptions.signal });
      // A read moves nothing: an answer that is not an order can be refused, and the call repeated.
      const fields = answer.body as Record<string, unknown> | null;
      if (typeof fields !== 'object' || fields === null || typeof fields['id'] !== 'string') {
        throw new MerchantApiError('invalid_response', `The order answer (${answer.status}) has no id`, {
          status: answer.status,
          body: answer.body,
        });
      }
      return answer.body as MerchantApiV2Order;
    },
    async refund(orderId, refund, refundOptions = {}) {
      checkOptions(`${owner}().refund`, refundOptions, REFUND_OPTIONS);
      const requestId = refundOptions.requestId ?? randomUUID();
      if (!REQUEST_ID.test(requestId)) {
        throw new MerchantApiError(
          'invalid_request',
          "requestId must be 1 to 255 visible ASCII characters without spaces, such as your refund record's id",
        );
      }
      const answer = await send('POST', `${ordersPath(orderId)}/refunds`, {
        body: refundBody(refund),
        requestId,
        signal: refundOptions.signal,
      });
      // The money moved: whatever the body holds is returned, never refused.
      return {
        ...knownMembers(answer.body, REFUND_MEMBERS),
        httpStatus: answer.status,
        raw: answer.body,
        requestId,
      };
    },
    async approveOrder(orderId, callOptions = {}) {
      checkOptions(`${owner}().approveOrder`, callOptions, CALL_OPTIONS);
      // The official client sends the whole order as it read it; the gateway needs its id alone.
      const approval: MerchantApiV2ApproveRequest = { id: orderId };
      const answer = await send('PUT', ordersPath(orderId), {
        body: JSON.stringify(approval),
        signal: callOptions.signal,
      });
      // The decision was taken: whatever the body holds is returned, as for a refund.
      return { ...knownMembers(answer.body, DECISION_MEMBERS), httpStatus: answer.status, raw: answer.body };
    },
    async rejectOrder(orderId, reasonCode, callOptions = {}) {
      checkOptions(`${owner}().rejectOrder`, callOptions, CALL_OPTIONS);
      if (!isOrderRejectionReason(reasonCode)) {
        throw new MerchantApiError(
          'invalid_request',
          `reasonCode ${JSON.stringify(reasonCode)} is not one of ${ORDER_REJECTION_REASONS.join(', ')}`,
        );
      }
      const rejection: MerchantApiV2RejectRequest = { reasonCode };
      const answer = await send('DELETE', ordersPath(orderId), {
        body: JSON.stringify(rejection),
        signal: callOptions.signal,
      });
      return { ...knownMembers(answer.body, DECISION_MEMBERS), httpStatus: answer.status, raw: answer.body };
    },
  };
}
