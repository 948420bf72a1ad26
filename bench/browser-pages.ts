/**
 * The web side of the browser bench (bench/browser.ts), in a process of its own as a shop's server and a
 * gateway are: sharing the driver's process (Playwright's protocol traffic, its polling) slowed the gateway's
 * answers and the frame's figures with them. It serves, on `localhost`:
 * - `/`: the fixed-price widget by script tag; `/declared`: the same widget as `checkoutElementHtml` writes it
 *   with its frame declared in the page's HTML (rendered for each request: the frame's channel is new each
 *   time); `/big`: an order of 1,000 items; `/v1`: the v1 picker (with the merchant's cached payment-methods
 *   endpoint at `/payment-methods`);
 * - `/baseline`: a minimal Lit card form of our own on the page itself;
 * - `/floor` and `/floor-scripted`: a frame page that is one static card input and no script, from a third
 *   origin (`127.0.0.1`, another site), in an iframe the page's HTML declares, or that a small module script
 *   adds, as the element's script tag does. Whatever code a frame runs, its field can't be focusable earlier.
 * The gateway is the browser tests' (test/support/gateway-fixture.ts). Run alone, it prints `{"pageOrigin"}`
 * as one JSON line once it listens, and stops when its standard input ends.
 * Needs `npm run build:browser`: the sandbox serves the built files.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { OrderInput } from '../src/core/index.js';
import { checkoutElementHtml, toNodeHandler } from '../src/server/index.js';
import { startGatewayFixture } from '../test/support/gateway-fixture.js';

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export async function startBenchPages(): Promise<{ pageOrigin: string; close(): Promise<void> }> {
  const pages = createServer();
  await new Promise<void>((resolve) => pages.listen(0, 'localhost', resolve));
  const pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
  // The browser tests' gateway: the sandbox and the demo merchant's server side, the page's origin allowed.
  const gateway = await startGatewayFixture({ pageOrigin });
  const script = `<script type="module" src="${gateway.gatewayUrl}/widget/svc-checkout.js"></script>`;
  const bigOrder: OrderInput = {
    widgetId: gateway.widgets.checkout,
    // The page gives certificate-name, which is signed.
    certificateName: gateway.certificateName,
    items: Array.from({ length: 1000 }, (_, index) => ({
      amount: `${(index % 97) + 1}.${String(index % 100).padStart(2, '0')}`,
      label: `Item ${index + 1}`,
      count: (index % 3) + 1,
    })),
  };
  const bigSignature = gateway.sign(bigOrder);
  // The merchant's side of v1 mode: a Purchase, and the cached payment-methods endpoint on the page's origin.
  const purchase = await gateway.createPurchase({ client: { email: 'bench@example.com' } });
  const paymentMethods = toNodeHandler(gateway.paymentMethods);
  const html = (body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>${script}</head><body>${body}</body></html>`;
  const baselineScript = await buildBaseline();
  const floor = await startFrameFloor();
  // The fixed-price widget takes its order from the gateway: the page gives no items, and nothing is signed.
  const instantOrder: OrderInput = { widgetId: gateway.widgets.instant, items: [] };
  const instantSignature = gateway.sign(instantOrder);
  const documents: Record<string, string | (() => string)> = {
    '/': html(`<svc-checkout widget-id="${gateway.widgets.instant}"></svc-checkout>`),
    '/declared': () =>
      html(
        checkoutElementHtml({
          order: instantOrder,
          signature: instantSignature,
          gateway: gateway.gatewayUrl,
          declaredFrame: { pageOrigin, pageLanguage: 'en' },
        }),
      ),
    '/baseline': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><script type="module" src="/baseline.js"></script></head><body><bench-card-form></bench-card-form></body></html>`,
    '/big': html(
      `<svc-checkout widget-id="${bigOrder.widgetId}" order="${escapeAttribute(
        JSON.stringify({ items: bigOrder.items }),
      )}" signature="${bigSignature}" certificate-name="${gateway.certificateName}"></svc-checkout>`,
    ),
    '/v1': html(
      `<svc-checkout checkout-url="${escapeAttribute(purchase.checkout_url)}" payment-methods-url="/payment-methods" country="lv"></svc-checkout>`,
    ),
    '/floor': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title></head><body><iframe src="${floor.frameUrl}"></iframe></body></html>`,
    '/floor-scripted': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title><script type="module" src="${floor.scriptUrl}"></script></head><body><bench-frame></bench-frame></body></html>`,
  };
  pages.on('request', (req, res) => {
    if (req.url?.startsWith('/payment-methods')) {
      void paymentMethods(req, res);
      return;
    }
    if (req.url === '/baseline.js') {
      // Cached as the gateway caches its own hashed files, so that the warm figures compare alike.
      res
        .writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=31536000, immutable',
        })
        .end(baselineScript);
      return;
    }
    const body = documents[req.url ?? ''];
    if (body === undefined) res.writeHead(404).end();
    else
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(typeof body === 'function' ? body() : body);
  });

  return {
    pageOrigin,
    async close() {
      await gateway.close();
      await Promise.all([pages, floor.server].map(closeServer));
    },
  };
}

/**
 * The floor's origin: `127.0.0.1` on a port of its own, another site than the page's `localhost`, so its frame
 * gets a renderer of its own as the payment frame does. Its frame page has the path the bench looks for.
 */
async function startFrameFloor() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const frameUrl = `${origin}/widget/frame/floor`;
  const frame = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head><body><label>Card number <input autocomplete="cc-number" inputmode="numeric"></label></body></html>`;
  const script = `const frame = document.createElement('iframe'); frame.src = ${JSON.stringify(frameUrl)}; document.querySelector('bench-frame').append(frame);`;
  server.on('request', (req, res) => {
    if (req.url === '/widget/frame/floor') {
      // As the payment frame's page: never cached.
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(frame);
    } else if (req.url === '/open-frame.js') {
      res
        .writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'public, max-age=31536000, immutable',
          'access-control-allow-origin': '*',
        })
        .end(script);
    } else res.writeHead(404).end();
  });
  return { server, frameUrl, scriptUrl: `${origin}/open-frame.js` };
}

/**
 * The baseline: a minimal Lit card form (number, expiry, CVC, pay) defined and rendered on the page itself,
 * bundled with Lit and minified as the widget is. What a form costs when no frame stands in between.
 */
async function buildBaseline(): Promise<string> {
  const { build } = await import('vite');
  // Inside the package, so that `lit` resolves from it.
  await mkdir(join(process.cwd(), 'node_modules', '.cache'), { recursive: true });
  const dir = await mkdtemp(join(process.cwd(), 'node_modules', '.cache', 'svc-bench-baseline-'));
  const entry = join(dir, 'baseline.js');
  await writeFile(
    entry,
    `import { LitElement, html, css } from 'lit';
class BenchCardForm extends LitElement {
  static styles = css\`label { display: block; margin: 8px 0; } input { display: block; font: inherit; }\`;
  render() {
    return html\`<form @submit=\${(event) => event.preventDefault()}>
      <label>Card number<input autocomplete="cc-number" inputmode="numeric"></label>
      <label>Expiry<input autocomplete="cc-exp" inputmode="numeric"></label>
      <label>CVC<input autocomplete="cc-csc" inputmode="numeric"></label>
      <button>Pay</button>
    </form>\`;
  }
}
customElements.define('bench-card-form', BenchCardForm);
`,
  );
  try {
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      root: process.cwd(),
      build: {
        write: false,
        minify: true,
        lib: { entry, formats: ['es'], fileName: 'baseline' },
      },
    });
    const results = Array.isArray(output) ? output : [output];
    for (const result of results) {
      if (!('output' in result)) continue;
      const chunk = result.output.find((file) => file.type === 'chunk');
      if (chunk && chunk.type === 'chunk') return chunk.code;
    }
    throw new Error('vite built no baseline chunk');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = await startBenchPages();
  process.stdout.write(`${JSON.stringify({ pageOrigin: started.pageOrigin })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void started.close().then(() => process.exit(0)));
}
