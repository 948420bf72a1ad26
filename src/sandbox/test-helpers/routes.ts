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
import { bearerRefusal, type MerchantKeyLookup, merchantKeyLookup } from '../merchant-keys.js';
import { baseUrlOf } from '../v1/request-context.js';
import { payOrder } from './pay-order.js';
import { payPurchase } from './pay-purchase.js';
import { TestHelperError } from './test-helper-error.js';
import { legacyDeps, type TestHelperParts } from './test-helpers.js';
import { trigger } from './trigger.js';

const TEST_HELPERS_PATH = '/sandbox/test-helpers';

export function mountTestHelperRoutes(router: Router, parts: TestHelperParts, listenHost: string): void {
  const lookup = merchantKeyLookup(parts.config.merchants);
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
      return payOrder(legacyDeps(parts), body, (merchant) => requireApiKey(lookup, context.req, merchant));
    }),
  );
  router.on(
    'POST',
    `${TEST_HELPERS_PATH}/v1/pay-purchase`,
    answer(async (context) => {
      const merchant = bearerMerchant(lookup, context.req);
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
      const merchant = bearerMerchant(lookup, context.req);
      const body = await context.json();
      return trigger(parts.v1, body, baseUrlOf(context.req, listenHost), parts.clocks.latest(), merchant.id);
    }),
  );
}

/** The widget's merchant's API key, always: a helper that pays is no page, and the key says who asks. */
function requireApiKey(lookup: MerchantKeyLookup, req: IncomingMessage, merchant: MerchantConfig): void {
  const found = lookup(req, ['api_key']);
  if (found.kind === 'no_key')
    throw new HttpError(
      401,
      'api_key_missing',
      "Send the widget's merchant's API key in X-Svc-Api-Key (the config's merchants[].apiKey)",
    );
  if (found.kind !== 'merchant' || found.merchant.id !== merchant.id)
    throw new HttpError(
      401,
      'api_key_invalid',
      `X-Svc-Api-Key is not the API key of merchant ${merchant.id}, whose widget this is`,
    );
}

/** The merchant whose v1 secret key the request carries, else a 401 as v1 answers it. */
function bearerMerchant(lookup: MerchantKeyLookup, req: IncomingMessage): MerchantConfig {
  const found = lookup(req, ['bearer']);
  if (found.kind === 'merchant') return found.merchant;
  throw bearerRefusal(found, "Send the merchant's v1 secret key as Authorization: Bearer <secret key>");
}
