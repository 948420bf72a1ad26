/**
 * What browsers load from the gateway: the widget script for merchant pages (an ES module and a classic
 * script), the payment frame's page with its strict Content-Security-Policy, the frame's built assets, and
 * the embedding check the element asks when a frame never answered.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { ELEMENT_MESSAGES, FRAME_MESSAGES, normalizeLanguage } from '../../core/index.js';
import { FRAME_BOOTSTRAP_ID, type FrameBootstrap } from '../../core/widget-api.js';
import { BuiltFiles, type Encoding, negotiateEncoding } from '../built-files.js';
import { dataBlockJson, escapeHtml, HttpError, type RequestContext, type Router, sendJson } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';
import { TEST_MODE_NOTICE } from '../test-mode-notice.js';
import { cardSettingsOf, firstViewRenderer } from './frame-first-view.js';
import type { MerchantDirectory } from './merchant-directory.js';
import { frameAncestors, isPageOriginAllowed } from './page-origins.js';
import { widgetConfigView } from './widget-api-routes.js';

/**
 * The widget files a merchant page may load from a build without served-files.json (built by other means, or
 * a test's folder), by name. With served-files.json, the files it names (and their source maps) are served.
 */
const WIDGET_SCRIPTS = new Set([
  'svc-checkout.js',
  'svc-checkout.js.map',
  'svc-checkout-v1.js',
  'svc-checkout-v1.js.map',
  'svc-checkout.classic.js',
  'svc-checkout.classic.js.map',
]);

/** The frame's files, under the build folder and under `/widget/`. */
const FRAME_ASSETS = 'frame/assets';
/** A file name as the builds make them: no path, no dot file (so no `..`, no hidden folder). */
const SAFE_NAME = /^[\w-][\w.-]*$/;

/**
 * A page made per request, compressed on the way out as a gateway's front would (faster settings than the
 * built files', which are compressed once): the frame page carries its texts, several KB of them.
 */
function encodePage(html: string, encoding: Encoding): Buffer {
  const bytes = Buffer.from(html);
  if (encoding === 'br')
    return brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  return encoding === 'gzip' ? gzipSync(bytes) : bytes;
}

/**
 * The frame page's policy: nothing inline but the first view's styles (by their hash), nothing from
 * elsewhere, framed only by the merchant's origins.
 */
function frameContentSecurityPolicy(allowedOrigins: readonly string[], styleSource = ''): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${styleSource && ` ${styleSource}`}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${allowedOrigins.length > 0 ? allowedOrigins.join(' ') : "'none'"}`,
  ].join('; ');
}

export function mountWidgetPages(router: Router, directory: MerchantDirectory, browserRoot: string): void {
  const built = new BuiltFiles(browserRoot);
  const renderFirstView = firstViewRenderer(browserRoot);
  // Module scripts from another origin load only with CORS; the scripts hold nothing secret.
  const widgetFile = async (context: RequestContext) => {
    const file = context.params['file']!;
    const cacheControl = SAFE_NAME.test(file)
      ? await built.cachePolicy(file, (name) => WIDGET_SCRIPTS.has(name))
      : undefined;
    if (!cacheControl) throw new HttpError(404, 'not_found', `No widget file ${file}`);
    return built.send(context, file, cacheControl, { 'access-control-allow-origin': '*' });
  };
  const frameAsset = async (context: RequestContext) => {
    const file = context.params['file']!;
    const cacheControl = SAFE_NAME.test(file)
      ? await built.cachePolicy(`${FRAME_ASSETS}/${file}`, () => true)
      : undefined;
    if (!cacheControl) throw new HttpError(404, 'not_found', `No frame asset ${file}`);
    return built.send(context, `${FRAME_ASSETS}/${file}`, cacheControl);
  };
  for (const method of ['GET', 'HEAD']) {
    router.on(method, '/widget/:file', widgetFile);
    router.on(method, '/widget/frame/assets/:file', frameAsset);
  }

  router.on('GET', '/widget/frame/:widgetId', async ({ req, res, params, url }) => {
    let found: ReturnType<MerchantDirectory['widget']>;
    try {
      found = directory.widget(params['widgetId']!);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      // An unknown widget gets no form, and may be framed by nobody.
      res.writeHead(404, {
        'content-type': 'text/plain; charset=utf-8',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      });
      res.end((error as Error).message);
      return;
    }
    const { merchant, widget } = found;
    noteMerchant(req, merchant.id);
    // The page's language, which the element names (`?lang=`) when we speak it, else the merchant's: the
    // frame's page is served in it, and carries its texts (below).
    const language = normalizeLanguage(url.searchParams.get('lang')) ?? merchant.defaults.language;
    // Each file by its role: its content-hashed name from served-files.json (or its own name in a build
    // without one), when that file is built.
    const builtPath = async (role: string) => {
      const path = await built.resolve(`${FRAME_ASSETS}/${role}`);
      return existsSync(join(browserRoot, path)) ? `/widget/${path}` : undefined;
    };
    // The first chunk for the widget's kind: a full checkout, a fixed order with shipping options, or a page
    // whose order has them (the element says so: `?fields=1`) shows the customer's or the delivery fields,
    // which frame-checkout.js has built in; frame.js is the card form, which imports them only for an order
    // that shows them (from an element that did not say). See vite.config.ts.
    const withFields =
      widget.collectCustomerData ||
      (widget.order?.shippingOptions?.length ?? 0) > 0 ||
      url.searchParams.get('fields') === '1';
    const entry =
      (withFields ? await builtPath('frame-checkout.js') : undefined) ??
      (await builtPath('frame.js')) ??
      `/widget/${FRAME_ASSETS}/frame.js`;
    const stylesheetPath = await builtPath(
      withFields && entry.includes('/frame-checkout') ? 'frame-checkout.css' : 'frame.css',
    );
    const stylesheet = stylesheetPath ? `<link rel="stylesheet" href="${stylesheetPath}">` : '';
    // The frame's first render needs the widget's configuration and the texts: the page carries both. It
    // is the sandbox's page, which takes test cards only, and says so (the hosted page does too).
    const bootstrap: FrameBootstrap = {
      config: widgetConfigView(directory, found),
      language,
      texts: FRAME_MESSAGES[language],
      testMode: TEST_MODE_NOTICE,
    };
    const firstView = await renderFirstView(bootstrap, cardSettingsOf(url.searchParams));
    const html = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(ELEMENT_MESSAGES[language]['frame.title'])}</title>
${stylesheet}${firstView?.style ?? ''}
<script type="module" src="${entry}"></script>
<script type="application/json" id="${FRAME_BOOTSTRAP_ID}">${dataBlockJson(bootstrap)}</script>
</head>
<body>${firstView?.body ?? ''}</body>
</html>
`;
    // no-store: the page carries the merchant's allowed origins (its CSP), the widget's configuration and the
    // build's current chunks, which change without its address changing; it is a few KB compressed, and
    // everything it loads is cached.
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': frameContentSecurityPolicy(frameAncestors(merchant), firstView?.styleSource),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      vary: 'accept-encoding',
      ...(encoding !== 'identity' && { 'content-encoding': encoding }),
    });
    res.end(encodePage(html, encoding));
  });

  // Answers any page: it tells only whether a widget exists and may be embedded at an origin.
  router.on('GET', '/widget-api/v1/widgets/:widgetId/embedding', ({ req, res, params, url }) => {
    const cors = { 'access-control-allow-origin': '*' };
    const origin = url.searchParams.get('origin') ?? '';
    let found: ReturnType<MerchantDirectory['widget']>;
    try {
      found = directory.widget(params['widgetId']!);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      sendJson(res, 200, { ok: false, code: 'unknown_widget', message: (error as Error).message }, cors);
      return;
    }
    noteMerchant(req, found.merchant.id);
    if (!isPageOriginAllowed(found.merchant, origin)) {
      sendJson(
        res,
        200,
        {
          ok: false,
          code: 'origin_not_allowed',
          message: `The page origin ${origin || '(none given)'} is not among the merchant's allowed origins (the config's merchants[].allowedOrigins)`,
        },
        cors,
      );
      return;
    }
    sendJson(res, 200, { ok: true }, cors);
  });
}
