/**
 * Ready handlers for the merchant-hosted callback URLs of the legacy interface (connection test, shipping
 * cost, order verification), written against fetch `Request`/`Response` so they run in any runtime;
 * `toNodeHandler` (../handlers.ts) mounts them on node:http or Express.
 */
import { decimalText } from '../../core/decimal.js';
import {
  isOrderRejectionReason,
  ORDER_REJECTION_REASONS,
  type OrderVerificationAnswer,
  type OrderVerificationPayload,
  type ShippingCostRequest,
  type ShippingCostResponse,
} from '../../core/legacy-callbacks.js';
import { AmountError, parseMinorUnits } from '../../core/money.js';
import { type FetchHandler, type HandlerOptions, json, methodNotAllowed } from '../handlers.js';
import { importPublicKey } from '../keys.js';
import {
  checkOptions,
  isFunction,
  isText,
  maxBodyBytesRule,
  type OptionRules,
  onErrorRule,
  required,
} from '../options.js';
import { DEFAULT_MAX_BODY_BYTES, RequestBodyError, readFetchBody } from '../raw-request.js';
import {
  parseJsonObject,
  refusalStatus,
  SignatureVerificationError,
  SVC_SIGNATURE_HEADER,
  verifySignedRequest,
} from '../signed-request.js';
import { verifyOrderVerificationToken } from './order-verification-token.js';

/** The answer to a request that failed verification or could not be read. */
function refusal(error: SignatureVerificationError): Response {
  return json(refusalStatus(error), { error: error.code, message: error.message });
}

function reportError(options: HandlerOptions, error: unknown): Response {
  (options.onError ?? ((cause: unknown) => console.error('svc-checkout handler:', cause)))(error);
  return json(500, {
    error: 'server_error',
    message: 'The merchant callback failed; see the merchant server log',
  });
}

/** The rule of every handler's `servicePublicKeyPem`. */
const servicePublicKeyRule = required(
  "the gateway's public key or certificate as PEM text (BEGIN PUBLIC KEY or BEGIN CERTIFICATE)",
  isText,
);

/**
 * The merchant callback URL's connection test: the gateway sends OPTIONS and expects 200 with
 * `Access-Control-Allow-Methods` containing `POST`. POST answers 200 `{ok: true}`; other methods 405.
 * @throws TypeError when given options: it takes none.
 */
export function createConnectionTestHandler(): FetchHandler {
  // Typed without parameters, so only JavaScript can pass some; they would be ignored, so they are refused.
  // biome-ignore lint/complexity/noArguments: the signature has no parameter to read.
  if (arguments[0] !== undefined) checkOptions('createConnectionTestHandler', arguments[0], {});
  const allowed = 'POST, OPTIONS';
  return async (request) => {
    if (request.method === 'OPTIONS') {
      return new Response(null, {
        status: 200,
        headers: { 'access-control-allow-methods': allowed, allow: allowed },
      });
    }
    if (request.method === 'POST') return json(200, { ok: true });
    return methodNotAllowed(allowed);
  };
}

/** A field of a callback body that is missing or has the wrong form. */
class InvalidFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field} ${message}`);
  }
}

function requireText(value: unknown, field: string): string {
  if (typeof value !== 'string' || value === '')
    throw new InvalidFieldError(field, 'must be a non-empty string');
  return value;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new InvalidFieldError(field, 'must be a string');
  return value;
}

function optionalString(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  return requireString(value, field);
}

function requireObject(value: unknown, field: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidFieldError(field, 'must be an object');
  }
  return value as Record<string, unknown>;
}

/**
 * Reads a verified shipping cost request body.
 * @throws InvalidFieldError naming the first field that is missing or malformed.
 */
function readShippingCostRequest(body: Record<string, unknown>): ShippingCostRequest {
  const orderItems = body['order_items'];
  if (!Array.isArray(orderItems)) throw new InvalidFieldError('order_items', 'must be an array');
  const address = requireObject(body['address'], 'address');
  const request: ShippingCostRequest = {
    order_id: requireText(body['order_id'], 'order_id'),
    order_items: orderItems.map((raw, index) => {
      const item = requireObject(raw, `order_items[${index}]`);
      const quantity = item['quantity'];
      if (typeof quantity !== 'number' || !Number.isFinite(quantity) || quantity <= 0) {
        throw new InvalidFieldError(`order_items[${index}].quantity`, 'must be a JSON number above 0');
      }
      // An item without an orderItemId has no reference: null (its place in the list tells it).
      return { reference: optionalString(item['reference'], `order_items[${index}].reference`), quantity };
    }),
    shipping_method_id: requireText(body['shipping_method_id'], 'shipping_method_id'),
    address: {
      city: requireString(address['city'], 'address.city'),
      address: requireString(address['address'], 'address.address'),
      postal_code: requireString(address['postal_code'], 'address.postal_code'),
    },
  };
  if (body['pickup_point'] !== undefined && body['pickup_point'] !== null) {
    const point = requireObject(body['pickup_point'], 'pickup_point');
    request.pickup_point = {
      external_id: requireString(point['external_id'], 'pickup_point.external_id'),
      name: requireString(point['name'], 'pickup_point.name'),
      comments: optionalString(point['comments'], 'pickup_point.comments'),
      service_hours: optionalString(point['service_hours'], 'pickup_point.service_hours'),
    };
  }
  return request;
}

/** Why a merchant's quote cannot be sent to the gateway, or undefined when it can. */
function quoteProblem(quote: ShippingCostResponse): string | undefined {
  try {
    if (parseMinorUnits(quote.amount) < 0) return `amount ${quote.amount} is negative`;
  } catch (error) {
    if (error instanceof AmountError) return `amount: ${error.message}`;
    throw error;
  }
  if (quote.currency !== undefined && !/^[A-Z]{3}$/.test(quote.currency)) {
    return `currency ${JSON.stringify(quote.currency)} is not an ISO 4217 code such as EUR`;
  }
  if (quote.taxRate !== undefined && decimalText(quote.taxRate) === undefined) {
    return `taxRate ${JSON.stringify(quote.taxRate)} is not a decimal such as 0.21 or 21`;
  }
  return undefined;
}

/** What {@link createShippingCostHandler} needs: the gateway's key and the merchant's pricing. */
export interface ShippingCostHandlerOptions extends HandlerOptions {
  /** The gateway's public key or certificate (PEM) that signs `X-Svc-Signature`. */
  servicePublicKeyPem: string;
  /**
   * Prices the chosen shipping method for the order and address, tax included; `null` when it cannot be
   * delivered there (answered 422 `{error: 'no_quote'}`).
   */
  quote: (request: ShippingCostRequest) => Promise<ShippingCostResponse | null>;
}

const SHIPPING_COST_OPTIONS: OptionRules<ShippingCostHandlerOptions> = {
  servicePublicKeyPem: servicePublicKeyRule,
  quote: required('an async function (request) => {amount, currency?, taxRate?} or null', isFunction),
  maxBodyBytes: maxBodyBytesRule,
  onError: onErrorRule,
};

/**
 * The shipping cost calculation URL, for dynamic delivery pricing: verifies `X-Svc-Signature` over the raw
 * body (401 when missing or wrong), reads the request (400 naming the bad field), and answers the quote.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError at once when `servicePublicKeyPem` is not an RSA public key or certificate PEM.
 */
export function createShippingCostHandler(options: ShippingCostHandlerOptions): FetchHandler {
  checkOptions('createShippingCostHandler', options, SHIPPING_COST_OPTIONS);
  // Read the key now, so a wrong PEM fails at start-up rather than on the gateway's first call.
  importPublicKey(options.servicePublicKeyPem);
  return async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let shippingRequest: ShippingCostRequest;
    try {
      const rawBody = await verifySignedRequest(request, options.servicePublicKeyPem, {
        header: SVC_SIGNATURE_HEADER,
        maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      });
      shippingRequest = readShippingCostRequest(parseJsonObject(rawBody, 'shipping cost request'));
    } catch (error) {
      if (error instanceof SignatureVerificationError) return refusal(error);
      if (error instanceof InvalidFieldError) {
        return json(400, { error: 'malformed_body', field: error.field, message: error.message });
      }
      throw error;
    }
    let quote: ShippingCostResponse | null;
    try {
      quote = await options.quote(shippingRequest);
    } catch (error) {
      return reportError(options, error);
    }
    if (quote === null) {
      return json(422, { error: 'no_quote', message: 'No price for this shipping method and address' });
    }
    const problem = quoteProblem(quote);
    if (problem !== undefined)
      return reportError(options, new TypeError(`The shipping quote is invalid: ${problem}`));
    return json(200, quote);
  };
}

/** What {@link createOrderVerificationHandler} needs: the gateway's key and the merchant's decision. */
export interface OrderVerificationHandlerOptions extends HandlerOptions {
  /** The gateway's public key or certificate (PEM) that signs the token. */
  servicePublicKeyPem: string;
  /**
   * Decides whether the order may be paid: true (or `{approved: true}`) to approve; false to reject, or
   * `{approved: false, reasonCode}` to reject with one of {@link ORDER_REJECTION_REASONS}, which the
   * customer is shown.
   */
  approve: (payload: OrderVerificationPayload) => Promise<boolean | OrderVerificationAnswer>;
}

const ORDER_VERIFICATION_OPTIONS: OptionRules<OrderVerificationHandlerOptions> = {
  servicePublicKeyPem: servicePublicKeyRule,
  approve: required(
    'an async function (payload) => true to approve the order, false or {approved: false, reasonCode} to reject it',
    isFunction,
  ),
  maxBodyBytes: maxBodyBytesRule,
  onError: onErrorRule,
};

/**
 * The order verification URL of CALLBACK widgets (deprecated by the gateway): the body is the gateway's
 * RS256 JWS; answers 200 `{approved}` with the merchant's decision (and `reasonCode` when a rejection gives
 * one), 401 when the token does not verify. A decision the gateway cannot take (a `reasonCode` it does not
 * know) is the merchant code's error: `onError`, then 500, which the gateway takes as a rejection.
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind.
 * @throws KeyFormatError at once when `servicePublicKeyPem` is not an RSA public key or certificate PEM.
 */
export function createOrderVerificationHandler(options: OrderVerificationHandlerOptions): FetchHandler {
  checkOptions('createOrderVerificationHandler', options, ORDER_VERIFICATION_OPTIONS);
  importPublicKey(options.servicePublicKeyPem);
  return async (request) => {
    if (request.method !== 'POST') return methodNotAllowed('POST');
    let payload: OrderVerificationPayload;
    try {
      const rawBody = await readFetchBody(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      payload = verifyOrderVerificationToken(rawBody.toString('utf8'), options.servicePublicKeyPem);
    } catch (error) {
      if (error instanceof RequestBodyError || error instanceof SignatureVerificationError) {
        return refusal(new SignatureVerificationError(error.code, error.message));
      }
      throw error;
    }
    let decision: OrderVerificationAnswer;
    try {
      decision = verificationAnswer(await options.approve(payload));
    } catch (error) {
      return reportError(options, error);
    }
    return json(200, decision);
  };
}

/**
 * The answer for the merchant's decision: only `approved === true` approves.
 * @throws TypeError when a rejection's reasonCode is not one the gateway knows.
 */
function verificationAnswer(decision: boolean | OrderVerificationAnswer): OrderVerificationAnswer {
  if (typeof decision !== 'object' || decision === null) return { approved: decision === true };
  if (decision.approved === true) return { approved: true };
  const { reasonCode } = decision as { reasonCode?: unknown };
  if (reasonCode === undefined) return { approved: false };
  if (!isOrderRejectionReason(reasonCode)) {
    throw new TypeError(
      `The order verification's reasonCode ${JSON.stringify(reasonCode)} is not one of ${ORDER_REJECTION_REASONS.join(', ')}`,
    );
  }
  return { approved: false, reasonCode };
}
