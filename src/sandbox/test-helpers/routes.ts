/**
 * The test helpers over HTTP, sandbox only, each as the merchant:
 * - `POST /sandbox/test-helpers/legacy/pay-order` with the widget's merchant's API key in `X-Svc-Api-Key`
 *   (as merchant API v2 takes it), the body a `PayOrderInput`;
 * - `POST /sandbox/test-helpers/v1/pay-purchase` and `POST /sandbox/test-helpers/v1/trigger` with the v1
 *   secret key as `Authorization: Bearer <secret key>`, the bodies a `PayPurchaseInput` and a `TriggerInput`.
 * Answers: 200 with the helper's result; an error `{error: {code, message, field?, gatewayCode?}}`.
 */
import type { IncomingMessage } from 'node:http';
import type { MerchantConfig } from '../config.js';
import { HttpError, type RequestContext, type Router, sendJson } from '../http.js';
import { baseUrlOf } from '../v1/v1-context.js';
import { payOrder } from './pay-order.js';
import { payPurchase } from './pay-purchase.js';
import { TestHelperError } from './test-helper-error.js';
import { legacyDeps, type TestHelperParts } from './test-helpers.js';
import { trigger } from './trigger.js';

const TEST_HELPERS_PATH = '/sandbox/test-helpers';

export function mountTestHelperRoutes(router: Router, parts: TestHelperParts, listenHost: string): void {
  const answer =
    (run: (context: RequestContext) => Promise<unknown>) =>
    async (context: RequestContext): Promise<void> => {
      try {
        sendJson(context.res, 200, await run(context));
      } catch (error) {
        if (!(error instanceof TestHelperError)) throw error;
        sendJson(context.res, error.status, error.toJSON());
      }
    };

  router.on(
    'POST',
    `${TEST_HELPERS_PATH}/legacy/pay-order`,
    answer(async (context) => {
      const body = await context.json();
      return payOrder(legacyDeps(parts), body, (merchant) => requireApiKey(context.req, merchant));
    }),
  );
  router.on(
    'POST',
    `${TEST_HELPERS_PATH}/v1/pay-purchase`,
    answer(async (context) => {
      const merchant = bearerMerchant(context.req, parts.config.merchants);
      const body = await context.json();
      return payPurchase(
        parts.v1,
        body,
        baseUrlOf(context.req, listenHost),
        parts.clocks.latest(),
        merchant.id,
      );
    }),
  );
  router.on(
    'POST',
    `${TEST_HELPERS_PATH}/v1/trigger`,
    answer(async (context) => {
      const merchant = bearerMerchant(context.req, parts.config.merchants);
      const body = await context.json();
      return trigger(parts.v1, body, baseUrlOf(context.req, listenHost), parts.clocks.latest(), merchant.id);
    }),
  );
}

/** The widget's merchant's API key, always: a helper that pays is no page, and the key says who asks. */
function requireApiKey(req: IncomingMessage, merchant: MerchantConfig): void {
  const key = req.headers['x-svc-api-key'];
  if (key === undefined)
    throw new HttpError(
      401,
      'api_key_missing',
      "Send the widget's merchant's API key in X-Svc-Api-Key (the config's merchants[].apiKey)",
    );
  if (key !== merchant.apiKey)
    throw new HttpError(
      401,
      'api_key_invalid',
      `X-Svc-Api-Key is not the API key of merchant ${merchant.id}, whose widget this is`,
    );
}

function bearerMerchant(req: IncomingMessage, merchants: readonly MerchantConfig[]): MerchantConfig {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const merchant = match ? merchants.find((candidate) => candidate.v1?.secretKey === match[1]) : undefined;
  if (merchant) return merchant;
  throw new HttpError(
    401,
    match ? 'authentication_failed' : 'not_authenticated',
    match
      ? 'The secret key is not valid: send a v1 secret key of a merchant of this sandbox'
      : "Send the merchant's v1 secret key as Authorization: Bearer <secret key>",
    undefined,
    undefined,
    { 'www-authenticate': 'Bearer realm="svc-sandbox v1"' },
  );
}
