/**
 * The signed merchant API v2 (deprecated by the gateway, still used by widget merchants): read an order and
 * refund it. Every request is signed with the merchant certificate's private key (see http-signature.ts).
 */
import { SvcError } from '../core/errors.js';
import type { MerchantApiV2Order, MerchantApiV2Refund } from '../core/merchant-api-v2-types.js';
import { AmountError, formatMinorUnits, parseMinorUnits } from '../core/money.js';
import { durationOption } from './durations.js';
import {
  type HttpSignatureAlgorithmName,
  httpSignatureAlgorithm,
  signHttpRequest,
} from './http-signature.js';
import { importPrivateKey } from './keys.js';
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
} from './options.js';

export type { MerchantApiV2Order, MerchantApiV2Refund };

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
  /** Any other non-2xx status. */
  | 'unexpected_status'
  /** No answer: connection refused, DNS, TLS, or the timeout passed. */
  | 'network_error'
  /** A 2xx answer that is not the expected JSON. */
  | 'invalid_response';

/** A failed merchant API call. `status` is the HTTP status, absent when no answer came. */
export class MerchantApiError extends SvcError<MerchantApiErrorCode> {
  readonly status: number | undefined;
  /** The parsed error body (or its text) when the API sent one. */
  readonly body: unknown;

  constructor(
    code: MerchantApiErrorCode,
    message: string,
    details: { status?: number; body?: unknown; cause?: unknown } = {},
  ) {
    super(code, message, { cause: details.cause });
    this.status = details.status;
    this.body = details.body;
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
  /** `OTHER_REFUND` when left out (the only value the document shows). */
  reason?: string;
  /** An internal note shown in the console. */
  note?: string;
}

/** The two operations the document shows; every call is signed and rejects with {@link MerchantApiError}. */
export interface MerchantApiV2Client {
  /**
   * `GET /v2/merchants/{merchantId}/orders/{orderId}`.
   * @throws MerchantApiError
   */
  getOrder(orderId: string): Promise<MerchantApiV2Order>;
  /**
   * `POST /v2/merchants/{merchantId}/orders/{orderId}/refunds`, full or partial.
   * @throws MerchantApiError (`invalid_request` before sending when the amount is not above 0 with at most 2 decimals)
   */
  refund(orderId: string, refund: RefundInput): Promise<MerchantApiV2Refund>;
}

function codeForStatus(status: number): MerchantApiErrorCode {
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
  if (typeof reason !== 'string' || reason === '') {
    throw new MerchantApiError('invalid_request', 'reason must be a non-empty string such as OTHER_REFUND');
  }
  if (refund.note !== undefined && typeof refund.note !== 'string') {
    throw new MerchantApiError('invalid_request', 'note must be a string');
  }
  const note = refund.note === undefined ? '' : `,"note":${JSON.stringify(refund.note)}`;
  return `{"refundRequest":{"amount":${formatMinorUnits(minor)},"reason":${JSON.stringify(reason)}${note}}}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A client of the merchant API v2.
 * @throws KeyFormatError at once when `privateKeyPem` is not an RSA private key PEM.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind, for an
 *   invalid `baseUrl`, or for an unknown algorithm.
 * @throws RangeError at once when `timeoutMs` is not a positive number.
 */
export function createMerchantApiV2Client(options: MerchantApiV2ClientOptions): MerchantApiV2Client {
  const owner = 'createMerchantApiV2Client';
  checkOptions(owner, options, CLIENT_OPTIONS);
  const { merchantId, apiKey, certificateName } = options;
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

  async function send(method: 'GET' | 'POST', path: string, body?: string): Promise<unknown> {
    const url = new URL(`${basePath}${path}`, base.origin);
    // Sign the path as the URL parser puts it on the request line, so both sides see the same target.
    const fullPath = `${url.pathname}${url.search}`;
    const signed = signHttpRequest(
      { method, path: fullPath, ...(body !== undefined && { body }) },
      signingKey,
    );
    const headers: Record<string, string> = {
      ...signed,
      Accept: 'application/json',
      'X-Svc-Api-Key': apiKey,
    };
    if (method !== 'GET') headers['X-Svc-Key-ID'] = certificateName;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(url, {
        method,
        headers,
        ...(body !== undefined && { body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new MerchantApiError('network_error', `${method} ${fullPath} got no answer: ${reason}`, {
        cause: error,
      });
    }
    const parsed = parseJson(text);
    if (!response.ok) {
      const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
      const nested = (
        typeof fields['error'] === 'object' && fields['error'] !== null ? fields['error'] : {}
      ) as Record<string, unknown>;
      const said = [nested['message'], fields['message'], fields['error']].find(
        (value) => typeof value === 'string' && value !== '',
      );
      throw new MerchantApiError(
        codeForStatus(response.status),
        `${method} ${fullPath} answered ${response.status}: ${String(said ?? (text.slice(0, 200) || response.statusText))}`,
        { status: response.status, body: parsed ?? text },
      );
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new MerchantApiError(
        'invalid_response',
        `${method} ${fullPath} answered ${response.status} without a JSON object`,
        {
          status: response.status,
          body: text,
        },
      );
    }
    return parsed;
  }

  function expectMember<T>(value: unknown, member: string, what: string): T {
    if (typeof (value as Record<string, unknown>)[member] !== 'string') {
      throw new MerchantApiError('invalid_response', `The ${what} answer has no ${member}`, { body: value });
    }
    return value as T;
  }

  const ordersPath = (orderId: string) =>
    `/v2/merchants/${encodeURIComponent(merchantId)}/orders/${pathSegment(orderId, 'orderId')}`;

  return {
    async getOrder(orderId) {
      return expectMember<MerchantApiV2Order>(await send('GET', ordersPath(orderId)), 'id', 'order');
    },
    async refund(orderId, refund) {
      const path = `${ordersPath(orderId)}/refunds`;
      return expectMember<MerchantApiV2Refund>(
        await send('POST', path, refundBody(refund)),
        'refundId',
        'refund',
      );
    },
  };
}
