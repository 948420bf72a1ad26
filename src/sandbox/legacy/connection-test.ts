/**
 * The merchant console's "test connection" (`POST /sandbox/merchants/{id}/connection-test`, with the
 * merchant's API key in `X-Svc-Api-Key`): an OPTIONS request to the merchant's connection test URL, which
 * must answer 200 and allow POST, as the gateway's callbacks will be posted there.
 */
import { HttpError, type Router, sendJson } from '../http.js';
import type { MerchantDirectory } from './merchant-directory.js';

export function mountConnectionTest(router: Router, directory: MerchantDirectory): void {
  router.on('POST', '/sandbox/merchants/:merchantId/connection-test', async (context) => {
    const merchant = directory.merchant(context.params['merchantId']!);
    if (context.req.headers['x-svc-api-key'] !== merchant.apiKey) {
      throw new HttpError(401, 'api_key_invalid', "Send the merchant's API key in X-Svc-Api-Key");
    }
    sendJson(context.res, 200, await connectionTest(merchant.callbacks.connectionTestUrl));
  });
}

/** Sends OPTIONS to the merchant's connection test URL, as the console's "test connection" does. */
async function connectionTest(url: string | undefined) {
  if (!url)
    return {
      ok: false,
      status: null,
      allowMethods: null,
      message: 'The merchant has no connection test URL configured',
    };
  try {
    const response = await fetch(url, { method: 'OPTIONS', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    const allowMethods = response.headers.get('access-control-allow-methods');
    const allowsPost = (allowMethods ?? '')
      .split(',')
      .some((method) => method.trim().toUpperCase() === 'POST');
    const ok = response.status === 200 && allowsPost;
    return {
      ok,
      status: response.status,
      allowMethods,
      message: ok
        ? 'The merchant answered 200 and allows POST'
        : response.status !== 200
          ? `The merchant answered ${response.status}, not 200`
          : 'The merchant answered 200 but Access-Control-Allow-Methods does not contain POST',
    };
  } catch (error) {
    return { ok: false, status: null, allowMethods: null, message: `No answer: ${(error as Error).message}` };
  }
}
