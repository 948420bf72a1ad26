/**
 * A typed client over `fetch` for the widget API. Every call resolves, never rejects: the frame must tell
 * "the gateway said no" (an HTTP error with the gateway's code) from "we do not know what happened" (the
 * request or its answer was lost), because after a lost payment answer the only safe move is to ask the
 * gateway what became of the order before paying again.
 */
import type { OrderRejectionReason } from '../core/legacy-callbacks.js';
import { isPlainObject } from '../core/plain-object.js';
import type {
  ApiError,
  ApiErrorBody,
  ChallengeAnswer,
  CreateOrderRequest,
  OrderView,
  PaidReceipt,
  PaymentRequest,
  PaymentResult,
  ShippingQuote,
  ShippingQuoteRequest,
} from '../core/widget-api.js';

/** The outcome of one widget API call. */
export type ApiResult<T> =
  | { kind: 'ok'; value: T }
  /** The gateway answered with an error status; `error` is its body (or a stand-in when it had none). */
  | { kind: 'http-error'; status: number; error: ApiError }
  /** No answer arrived: the connection failed or was cut. The request may or may not have been handled. */
  | { kind: 'network-error'; message: string };

/** The widget API under `${apiBase}/widget-api/v1`. */
export class WidgetApiClient {
  /** @param apiBase Prefix of `/widget-api/v1/...`: `''` in the frame (same origin as the gateway). */
  constructor(private readonly apiBase: string) {}

  /** The order taken (201), the order taken before for the same page (a reload), or a receipt of one paid. */
  createOrder(request: CreateOrderRequest): Promise<ApiResult<OrderView | PaidReceipt>> {
    return this.call('POST', '/orders', request);
  }

  order(orderId: string): Promise<ApiResult<OrderView>> {
    return this.call('GET', orderPath(orderId));
  }

  quoteShipping(orderId: string, request: ShippingQuoteRequest): Promise<ApiResult<ShippingQuote>> {
    return this.call('POST', orderPath(orderId, 'shipping-quotes'), request);
  }

  pay(orderId: string, request: PaymentRequest): Promise<ApiResult<PaymentResult>> {
    return this.call('POST', orderPath(orderId, 'payments'), request);
  }

  answerChallenge(orderId: string, challengeId: string, approve: boolean): Promise<ApiResult<PaymentResult>> {
    return this.call('POST', orderPath(orderId, 'challenges', challengeId), {
      approve,
    } satisfies ChallengeAnswer);
  }

  cancel(orderId: string): Promise<ApiResult<PaymentResult>> {
    return this.call('POST', orderPath(orderId, 'cancel'), {});
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiResult<T>> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.apiBase}/widget-api/v1${path}`, {
        method,
        credentials: 'same-origin',
        cache: 'no-store',
        headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      text = await response.text();
    } catch (error) {
      // Only the error's own text: the request (which may hold card data) is never echoed.
      return { kind: 'network-error', message: error instanceof Error ? error.message : 'fetch failed' };
    }
    const parsed = parseJson(text);
    if (response.ok) {
      if (isPlainObject(parsed)) {
        return { kind: 'ok', value: parsed as T };
      }
      return {
        kind: 'http-error',
        status: response.status,
        error: { code: 'malformed_response', message: 'The gateway answered with something other than JSON' },
      };
    }
    return { kind: 'http-error', status: response.status, error: errorBodyOf(parsed, response.status) };
  }
}

/** `/orders/<id>/<segments...>`, each part encoded. */
function orderPath(orderId: string, ...segments: string[]): string {
  return ['', 'orders', orderId, ...segments].map(encodeURIComponent).join('/');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The error of an {@link ApiErrorBody}, read with care: a proxy may answer an error status with anything. */
function errorBodyOf(parsed: unknown, status: number): ApiError {
  const error = (parsed as { [K in keyof ApiErrorBody]?: unknown } | undefined)?.error;
  if (isPlainObject(error)) {
    const { code, message, field, reason, hint, details } = error;
    if (typeof code === 'string' && typeof message === 'string') {
      // The sandbox's signature diagnosis says what it found in `details.finding`.
      const diagnosis = typeof hint === 'string' ? hint : (details as { finding?: unknown } | null)?.finding;
      return {
        code,
        message,
        ...(typeof field === 'string' && { field }),
        ...(typeof diagnosis === 'string' && { hint: diagnosis }),
        // Unchecked here, to keep the frame's first chunk small: the only reader (rejectionTextKey) shows a
        // reason only when it has a text for it.
        ...(typeof reason === 'string' && { reason: reason as OrderRejectionReason }),
      };
    }
  }
  return { code: `http_${status}`, message: `The gateway answered HTTP ${status}` };
}

/** Whether a failed call left the outcome unknown: no answer, or the gateway (or a proxy) broke down. */
export function outcomeUnknown(result: ApiResult<unknown>): boolean {
  return result.kind === 'network-error' || (result.kind === 'http-error' && result.status >= 500);
}
