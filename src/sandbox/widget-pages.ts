/**
 * What browsers load from the gateway: the widget script for merchant pages (an ES module and a classic
 * script), the payment frame's page with its strict Content-Security-Policy, the frame's built assets, and
 * the embedding check the element asks when a frame never answered.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ELEMENT_MESSAGES } from '../core/index.js';
import { escapeHtml, HttpError, type RequestContext, type Router, sendJson } from './http.js';
import type { LegacyOrders } from './legacy-orders.js';

/** The files of the widget script a merchant page may load, by the name it loads them under. */
const WIDGET_SCRIPTS = new Set([
  'svc-checkout.js',
  'svc-checkout.js.map',
  'svc-checkout-v1.js',
  'svc-checkout-v1.js.map',
  'svc-checkout.classic.js',
  'svc-checkout.classic.js.map',
]);

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The frame page's policy: nothing inline, nothing from elsewhere, framed only by the merchant's origins. */
function frameContentSecurityPolicy(allowedOrigins: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${allowedOrigins.length > 0 ? allowedOrigins.join(' ') : "'none'"}`,
  ].join('; ');
}

async function sendBuiltFile(
  context: RequestContext,
  path: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const body = await readFile(path).catch(() => {
    throw new HttpError(
      404,
      'not_built',
      `${context.url.pathname} is not built; run \`npm run build\` in the svc-checkout package`,
    );
  });
  context.res.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    'content-length': body.length,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  context.res.end(body);
}

export function mountWidgetPages(router: Router, orders: LegacyOrders, browserRoot: string): void {
  // Module scripts from another origin load only with CORS; the script holds nothing secret.
  router.on('GET', '/widget/:file', (context) => {
    const file = context.params['file']!;
    if (!WIDGET_SCRIPTS.has(file)) throw new HttpError(404, 'not_found', `No widget file ${file}`);
    return sendBuiltFile(context, join(browserRoot, file), { 'access-control-allow-origin': '*' });
  });

  router.on('GET', '/widget/frame/assets/:file', (context) => {
    const file = context.params['file']!;
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.'))
      throw new HttpError(404, 'not_found', `No frame asset ${file}`);
    return sendBuiltFile(context, join(browserRoot, 'frame', 'assets', file));
  });

  router.on('GET', '/widget/frame/:widgetId', ({ res, params }) => {
    let found: ReturnType<LegacyOrders['widget']>;
    try {
      found = orders.widget(params['widgetId']!);
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
    const language = merchant.defaults.language;
    const assets = join(browserRoot, 'frame', 'assets');
    // The first chunk for the widget's kind: a full checkout, or a fixed order with shipping options, shows the
    // customer's or the delivery fields, which frame-checkout.js has built in; frame.js is the card form,
    // which imports them only for an order (from the page) that shows them. See vite.config.ts.
    const withFields = widget.collectCustomerData || (widget.order?.shippingOptions?.length ?? 0) > 0;
    const entry =
      withFields && existsSync(join(assets, 'frame-checkout.js')) ? 'frame-checkout.js' : 'frame.js';
    const stylesheet = existsSync(join(assets, 'frame.css'))
      ? '<link rel="stylesheet" href="/widget/frame/assets/frame.css">'
      : '';
    // The merchant's language is the likely one: its texts load beside the frame's code, not after it.
    const texts = existsSync(join(assets, `messages-${language}.js`))
      ? `<link rel="modulepreload" href="/widget/frame/assets/messages-${language}.js">`
      : '';
    const html = `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${escapeHtml(ELEMENT_MESSAGES[language]['frame.title'])}</title>
${stylesheet}
<script type="module" src="/widget/frame/assets/${entry}"></script>
${texts}
</head>
<body></body>
</html>
`;
    res.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': frameContentSecurityPolicy(merchant.allowedOrigins),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    });
    res.end(html);
  });

  // Answers any page: it tells only whether a widget exists and may be embedded at an origin.
  router.on('GET', '/widget-api/v1/widgets/:widgetId/embedding', ({ res, params, url }) => {
    const cors = { 'access-control-allow-origin': '*' };
    const origin = url.searchParams.get('origin') ?? '';
    let found: ReturnType<LegacyOrders['widget']>;
    try {
      found = orders.widget(params['widgetId']!);
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      sendJson(res, 200, { ok: false, code: 'unknown_widget', message: (error as Error).message }, cors);
      return;
    }
    const { allowedOrigins } = found.merchant;
    if (!allowedOrigins.includes(origin)) {
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
