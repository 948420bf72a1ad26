/**
 * Wallet payments server to server: `POST {base_url}/p/{purchase_id}/`, beside `/api/v1` (the document's
 * "Wallet payments, server to server"). The merchant's server posts the form fields `pm` (`svc_wallet_a` or
 * `svc_wallet_b`), `s2s=true`, and `token` (wallet A: Base64 of its `paymentData` as JSON) or `data`
 * (wallet B: Base64 of its whole payload as JSON), with its bearer secret key, for one of its own Purchases
 * that lists the method in `payment_method_whitelist`. The payment goes through the hosted page's engine
 * (`CheckoutPayments.payByWallet`), so the Purchase, the acquirer's ledger, the success callback and the
 * webhooks end as a payment on the page would.
 *
 * The sandbox decrypts nothing: the Base64 JSON is taken as the wallet's decrypted payload, and its member
 * `outcome` (see {@link WALLET_TEST_OUTCOMES}) chooses how the test wallet answers, as a test card number
 * does on the page. Any other member is ignored, so a payload of the real shape is approved.
 *
 * Answers, as the document shows them: `{status}` when the payment was taken (its outcome comes by webhook);
 * for wallet B with 3-D Secure, the wallet gateway's order object whose `response.threeDsRedirectUrl` is the
 * hosted page's test challenge; `{error_response: {response: {gatewayCode, threeDsRedirectUrl: null}, result:
 * 'FAILURE'}}` with 400 when the wallet declined. A post the sandbox refuses is a 400 in the v1 error shape
 * keyed by the form field at fault (`__all__` for the body or the Purchase as a whole), 401, 404 or 413.
 */
import { randomInt } from 'node:crypto';
import { isPlainObject } from '../../core/plain-object.js';
import type {
  WalletBPaymentAnswer,
  WalletMethod,
  WalletPaymentAccepted,
  WalletPaymentFailure,
} from '../../core/v1-types.js';
import type { RequestContext, RouteHandler, Router } from '../http.js';
import { sendJson } from '../http.js';
import { type CheckoutPayments, methodsFor, type WalletOutcome } from './checkout-payments.js';
import { V1HttpError, type V1Issue } from './errors.js';
import { checkoutPath, type PurchaseRecord, type V1Purchases } from './purchases.js';
import { type V1Handler, v1Router } from './request-context.js';

/** What a wallet post's handler is given once the request's secret key named a merchant. */
export interface WalletPaymentsDeps {
  purchases: V1Purchases;
  payments: CheckoutPayments;
  /** The v1 interface's authentication: the handler runs for the merchant whose secret key the request carries. */
  authenticated: (handler: V1Handler) => RouteHandler;
}

/** The two wallets and the form field that carries each one's payload. */
const PAYLOAD_FIELD: Readonly<Record<WalletMethod, 'token' | 'data'>> = {
  svc_wallet_a: 'token',
  svc_wallet_b: 'data',
};

/** A sandbox outcome of a wallet payment, and the wallet gateway's code for it. */
interface TestOutcome {
  outcome: WalletOutcome;
  /** The wallet gateway's `response.gatewayCode` (a failure's, or wallet B's while 3-D Secure is due). */
  gatewayCode: string;
  /** The wallets that can answer so: wallet A has no 3-D Secure step. */
  wallets: readonly WalletMethod[];
}

/**
 * The test payloads: the member `outcome` of the decoded JSON object (absent: `approved`).
 *
 * | `outcome` | wallet | answer |
 * |---|---|---|
 * | `approved` | A, B | 200 `{status}`; the Purchase is `paid` (`hold` with `skip_capture`) |
 * | `declined` | A, B | 400 failure, `gatewayCode` `DECLINED`; the Purchase is `error` (`card_declined`) |
 * | `insufficient_funds` | A, B | 400 failure, `gatewayCode` `INSUFFICIENT_FUNDS` (`insufficient_funds`) |
 * | `three_ds` | B | 200 with `threeDsRedirectUrl`: the customer approves (paid) or declines (`error`) |
 */
const WALLET_TEST_OUTCOMES: Readonly<Record<string, TestOutcome>> = {
  approved: {
    outcome: { kind: 'approved' },
    gatewayCode: 'APPROVED',
    wallets: ['svc_wallet_a', 'svc_wallet_b'],
  },
  declined: {
    outcome: { kind: 'declined', code: 'card_declined', message: "The wallet's card was declined" },
    gatewayCode: 'DECLINED',
    wallets: ['svc_wallet_a', 'svc_wallet_b'],
  },
  insufficient_funds: {
    outcome: {
      kind: 'declined',
      code: 'insufficient_funds',
      message: "The wallet's card has insufficient funds",
    },
    gatewayCode: 'INSUFFICIENT_FUNDS',
    wallets: ['svc_wallet_a', 'svc_wallet_b'],
  },
  three_ds: { outcome: { kind: 'three_ds' }, gatewayCode: 'PENDING', wallets: ['svc_wallet_b'] },
};

/** The `status` of a payment taken: as the gateway's, it sends the caller to the webhook for the outcome. */
const WALLET_ACCEPTED_STATUS =
  'The payment is being processed: its result comes by webhook (purchase.paid, purchase.hold or ' +
  'purchase.payment_failure) and in the Purchase';

const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/**
 * Mounts `POST /p/{purchase_id}/` (with or without the trailing slash) as a v1 router of its own: other
 * methods get 405 and every failure the document's error shape.
 */
export function mountWalletPayments(router: Router, deps: WalletPaymentsDeps): void {
  const wallets = v1Router();
  wallets.on(
    'POST',
    '/:id/',
    deps.authenticated(({ http, merchant, baseUrl }) => post(deps, http, merchant.id, baseUrl)),
  );
  router.mount('/p', wallets);
}

async function post(deps: WalletPaymentsDeps, http: RequestContext, merchantId: string, baseUrl: string) {
  // The body first, then the purchase: what was read before an await may be stale after it, and a second
  // post of a paid purchase must find it paid.
  const raw = await http.rawBody();
  const type = http.req.headers['content-type'] ?? '';
  if (!FORM_TYPE.test(type)) {
    throw V1HttpError.nonField(
      400,
      'parse_error',
      'Send the form fields pm, s2s and token or data as Content-Type: application/x-www-form-urlencoded, ' +
        `not ${type === '' ? 'without a Content-Type' : JSON.stringify(type)}`,
    );
  }
  const record = deps.purchases.get(merchantId, http.params['id'] ?? '');
  const { method, test } = readForm(new URLSearchParams(raw.toString('utf8')));
  checkWhitelisted(record, method);
  const outcome = deps.payments.payByWallet(record, method, test.outcome);
  switch (outcome.kind) {
    case 'paid':
      sendJson(http.res, 200, { status: WALLET_ACCEPTED_STATUS } satisfies WalletPaymentAccepted);
      return;
    case 'failed':
      sendJson(http.res, 400, failureAnswer(test.gatewayCode));
      return;
    case 'step':
      sendJson(
        http.res,
        200,
        threeDsAnswer(outcome.record, merchantId, test.gatewayCode, {
          id: outcome.step.id,
          url: `${baseUrl}${checkoutPath(outcome.record.purchase.id)}steps/${outcome.step.id}`,
          now: new Date(deps.purchases.nowSeconds(merchantId) * 1000),
        }),
      );
      return;
    case 'closed':
      throw V1HttpError.nonField(
        400,
        'invalid',
        `The purchase is ${outcome.record.purchase.status}: it can no longer be paid, and nothing was charged`,
      );
    case 'invalid': {
      // Whitelisted, but not a method for this purchase (its currency, force_recurring, a bank payment).
      const methods = methodsFor(record).map((candidate) => candidate.name);
      throw V1HttpError.invalid([
        {
          field: 'pm',
          code: 'invalid',
          message: `${method} cannot pay this purchase; ${
            methods.length > 0 ? `the methods that can: ${methods.join(', ')}` : 'no method can'
          }`,
        },
      ]);
    }
  }
}

/** Notes one problem of a field. */
type Problem = (field: string, code: V1Issue['code'], message: string) => void;

/** The posted fields, checked: every problem at once, each keyed by its field. */
function readForm(form: URLSearchParams): { method: WalletMethod; test: TestOutcome } {
  const issues: V1Issue[] = [];
  const problem: Problem = (field, code, message) => {
    issues.push({ field, code, message });
  };
  /** The field's one value; undefined when it was not sent, null when it was sent more than once. */
  const single = (field: string): string | undefined | null => {
    const values = form.getAll(field);
    if (values.length > 1) {
      problem(field, 'invalid', `${field} was sent ${values.length} times; send it once`);
      return null;
    }
    return values[0];
  };

  const pm = single('pm');
  let method: WalletMethod | undefined;
  if (pm === undefined) problem('pm', 'required', 'pm is required: svc_wallet_a or svc_wallet_b');
  else if (pm === 'svc_wallet_a' || pm === 'svc_wallet_b') method = pm;
  else if (pm !== null) {
    problem(
      'pm',
      'invalid',
      `pm must be svc_wallet_a or svc_wallet_b, not ${JSON.stringify(pm.slice(0, 40))}`,
    );
  }

  const s2s = single('s2s');
  if (s2s === undefined) problem('s2s', 'required', 's2s is required: the text true');
  else if (s2s !== null && s2s !== 'true') {
    problem(
      's2s',
      'invalid',
      `s2s must be the text true (this endpoint takes server-to-server posts), not ${JSON.stringify(s2s.slice(0, 40))}`,
    );
  }

  let test: TestOutcome | undefined;
  if (method !== undefined) {
    const field = PAYLOAD_FIELD[method];
    const other = field === 'token' ? 'data' : 'token';
    if (form.has(other)) {
      problem(
        other,
        'invalid',
        `${other} is ${other === 'token' ? "wallet A's" : "wallet B's"} field; ${method} sends its payload as ${field}`,
      );
    }
    const value = single(field);
    if (value === undefined) {
      problem(field, 'required', `${field} is required for ${method}: ${describePayload(method)}`);
    } else if (value !== null) {
      const payload = readPayload(field, value, method, problem);
      if (payload !== undefined) test = testOutcome(field, payload, method, problem);
    }
  }
  if (issues.length > 0 || method === undefined || test === undefined) throw V1HttpError.invalid(issues);
  return { method, test };
}

function describePayload(method: WalletMethod): string {
  return method === 'svc_wallet_a'
    ? "Base64 of wallet A's paymentData as JSON"
    : "Base64 of wallet B's whole payload as JSON";
}

/** The field's Base64 JSON object, or undefined after naming what is wrong with it. */
function readPayload(
  field: string,
  value: string,
  method: WalletMethod,
  problem: Problem,
): Record<string, unknown> | undefined {
  if (value.trim() === '') {
    problem(field, 'blank', `${field} is empty; send ${describePayload(method)}`);
    return undefined;
  }
  const bytes = decodeBase64(value);
  if (bytes === undefined) {
    problem(
      field,
      'invalid',
      value.includes(' ')
        ? `${field} is not Base64: it has a space, which is how a form reads a "+" sent without ` +
            'percent-encoding; encode the field (+ as %2B)'
        : `${field} is not Base64; send ${describePayload(method)}`,
    );
    return undefined;
  }
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    problem(field, 'invalid', `${field} is Base64 of no JSON text in UTF-8; send ${describePayload(method)}`);
    return undefined;
  }
  if (!isPlainObject(payload)) {
    problem(
      field,
      'invalid',
      `${field} must be Base64 of a JSON object (the wallet's payload), not of ${
        payload === null ? 'null' : Array.isArray(payload) ? 'an array' : `a ${typeof payload}`
      }`,
    );
    return undefined;
  }
  return payload as Record<string, unknown>;
}

/** Bytes of standard or URL-safe Base64 (padding optional), or undefined for anything else. */
function decodeBase64(text: string): Buffer | undefined {
  const body = text.replace(/={1,2}$/, '');
  const standard = /^[A-Za-z0-9+/]+$/.test(body);
  if (!standard && !/^[A-Za-z0-9_-]+$/.test(body)) return undefined;
  // One character past whole groups of four carries less than a byte; padding must complete a group.
  if (body.length % 4 === 1 || (body.length !== text.length && text.length % 4 !== 0)) return undefined;
  return Buffer.from(body, standard ? 'base64' : 'base64url');
}

/** The test outcome the payload's `outcome` names, or undefined after naming what is wrong with it. */
function testOutcome(
  field: string,
  payload: Record<string, unknown>,
  method: WalletMethod,
  problem: Problem,
): TestOutcome | undefined {
  const name = Object.hasOwn(payload, 'outcome') ? payload['outcome'] : 'approved';
  const known =
    typeof name === 'string' && Object.hasOwn(WALLET_TEST_OUTCOMES, name)
      ? WALLET_TEST_OUTCOMES[name]
      : undefined;
  const takes = Object.keys(WALLET_TEST_OUTCOMES).filter((candidate) =>
    WALLET_TEST_OUTCOMES[candidate]!.wallets.includes(method),
  );
  if (!known?.wallets.includes(method)) {
    problem(
      field,
      'invalid',
      `The payload's outcome (the sandbox's test member) must be ${takes.join(', ')} for ${method}, or be ` +
        `left out for approved; not ${JSON.stringify(name)}`,
    );
    return undefined;
  }
  return known;
}

/** The spec's rule: the Purchase is created with the wallet in `payment_method_whitelist`. */
function checkWhitelisted(record: PurchaseRecord, method: WalletMethod): void {
  const whitelist = record.purchase.payment_method_whitelist;
  if (whitelist?.includes(method)) return;
  throw V1HttpError.invalid([
    {
      field: 'pm',
      code: 'invalid',
      message:
        whitelist === null || whitelist === undefined
          ? `The purchase has no payment_method_whitelist; create it with payment_method_whitelist: ["${method}"] to take ${method}`
          : `${method} is not in the purchase's payment_method_whitelist (${whitelist.join(', ')})`,
    },
  ]);
}

function failureAnswer(gatewayCode: string): WalletPaymentFailure {
  return { error_response: { response: { gatewayCode, threeDsRedirectUrl: null }, result: 'FAILURE' } };
}

/**
 * Wallet B's answer while the customer's 3-D Secure is due: the wallet gateway's order (nothing authorised
 * yet) and its authentication transaction. Amounts are major units as JSON numbers (the wallets take EUR,
 * USD and GBP only, all with cents).
 */
function threeDsAnswer(
  record: PurchaseRecord,
  merchantId: string,
  gatewayCode: string,
  step: { id: string; url: string; now: Date },
): WalletBPaymentAnswer {
  const { purchase } = record;
  const amount = (purchase.purchase.total ?? 0) / 100;
  const currency = purchase.purchase.currency;
  return {
    merchant: merchantId,
    order: {
      amount,
      creationTime: (purchase.created_on === undefined
        ? step.now
        : new Date(purchase.created_on * 1000)
      ).toISOString(),
      currency,
      id: purchase.id,
      lastUpdatedTime: step.now.toISOString(),
      totalRefundedAmount: 0,
      totalAuthorizedAmount: 0,
      totalCapturedAmount: 0,
      totalDisbursedAmount: 0,
      merchantCurrency: currency,
    },
    response: { gatewayCode, threeDsRedirectUrl: step.url },
    result: 'SUCCESS',
    transaction: {
      id: step.id,
      amount,
      currency,
      type: 'AUTHENTICATION',
      retRefNr: String(randomInt(1e11, 1e12)),
    },
  };
}
