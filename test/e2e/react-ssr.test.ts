/**
 * The README's React example as a merchant runs it: its three blocks (the page component, the server render,
 * the hydrating client script) written as files, the page rendered with react-dom/server in Node, the client
 * bundled with esbuild, and the page opened in Chromium against the real sandbox on another origin. The
 * server's markup carries the signed order; after hydration the shopper pays with a test card, and the
 * component's `onPaymentCompleted` is called once, with no `checkoutError` (the re-render after the payment
 * passes a new but equal order). And `Checkout`'s server render of each prop, in Node alone. Run after
 * `npm run build` (the README's blocks import `svc-checkout/react` from dist/).
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { Checkout } from '../../src/react.js';
import { DEMO_WIDGET_IDS, type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { signOrder } from '../../src/server/index.js';
import { payInCheckout } from '../../src/testing/index.js';
import { launchBrowser } from './support/browser.js';
import { openHydratedPage } from './support/payment-completed-calls.js';
import { named, repoRoot } from './support/readme-run.js';

/** The README's blocks, by name, and the file each is (its `path=`), which the others import. */
const BLOCKS = ['react-app', 'react-server', 'react-client'] as const;

/** The props of the README's `CheckoutPage`. */
interface CheckoutPageProps {
  gateway: string;
  widgetId: string;
  orderId: string;
  items: { amount: string; label: string; count: number }[];
  signature: string;
}

let sandbox: Sandbox;
let shop: Server;
let shopUrl: string;
let dataDir: string;
let folder: string;
let browser: Browser;
let clientScript: string;
let pageHtml: (props: CheckoutPageProps, clientScript: string) => string;
let pageProps: CheckoutPageProps;

before(async () => {
  // The merchant's app: inside the package, where `svc-checkout` (linked as npm would install it) and React
  // resolve as in a merchant's project.
  const projects = join(repoRoot, '.readme-examples');
  await mkdir(projects, { recursive: true });
  folder = await mkdtemp(join(projects, 'react-ssr-'));
  await mkdir(join(folder, 'node_modules'));
  await symlink(repoRoot, join(folder, 'node_modules', 'svc-checkout'), 'dir');
  // The merchant's own tsconfig, so that the builds below do not take the repository's (whose `paths` lead
  // to src/).
  await writeFile(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { jsx: 'react-jsx' } }));
  for (const name of BLOCKS) {
    const block = named(name);
    assert.ok(block.path, `the README's ${name} block names its file (path=)`);
    await writeFile(join(folder, block.path), block.code);
  }
  // Each side bundled as a merchant's build does: the client for the browser, the server for Node with its
  // packages (React, svc-checkout) left to Node.
  const bundle = (name: string, side: 'browser' | 'node') =>
    build({
      entryPoints: [join(folder, named(name).path!)],
      bundle: true,
      format: 'esm',
      platform: side,
      target: side === 'node' ? 'node20' : 'es2022',
      jsx: 'automatic',
      write: false,
      logLevel: 'silent',
      ...(side === 'node'
        ? { packages: 'external' as const }
        : { minify: true, define: { 'process.env.NODE_ENV': '"production"' } }),
    });
  clientScript = (await bundle('react-client', 'browser')).outputFiles[0]!.text;
  await writeFile(join(folder, 'server.mjs'), (await bundle('react-server', 'node')).outputFiles[0]!.text);
  const server = (await import(pathToFileURL(join(folder, 'server.mjs')).href)) as {
    checkoutPageHtml: typeof pageHtml;
  };
  pageHtml = server.checkoutPageHtml;

  shop = createServer((request, response) => {
    if (request.url === '/client.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(clientScript);
    } else if (request.url === '/checkout') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(pageHtml(pageProps, '/client.js'));
    } else {
      // The sandbox's notifications.
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('OK');
    }
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  // Another origin than the sandbox's (127.0.0.1): the frame is cross-origin, as in production.
  shopUrl = `http://localhost:${(shop.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'svc-react-ssr-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir, demoShopOrigin: shopUrl });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => (shop ? shop.close(() => resolve()) : resolve()));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** A signed order for the card widget, as the README's `CheckoutPage` takes it. */
function signedProps(): CheckoutPageProps {
  const widgetId = DEMO_WIDGET_IDS.checkout;
  const orderId = `REACT-${crypto.randomUUID()}`;
  // A label with the characters an attribute must escape: React escapes them, the element reads them back.
  const items = [{ amount: '6.40', label: 'Tea "Rīga" <100 g> & honey', count: 2 }];
  const signature = signOrder({ widgetId, orderId, items }, sandbox.demoMerchant!.privateKeyPem);
  return { gateway: sandbox.url, widgetId, orderId, items, signature };
}

describe('the README React example, rendered on the server and hydrated', () => {
  test('the markup carries the order; after hydration the payment calls onPaymentCompleted once, with no checkoutError', async () => {
    pageProps = signedProps();
    const response = await fetch(`${shopUrl}/checkout`);
    const html = await response.text();
    const tag = /<svc-checkout [^>]*>/.exec(html)?.[0] ?? '';
    const escaped = (text: string) =>
      text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
    // The first paint's order: every attribute the element reads, the order as its escaped JSON text; no
    // listener in the markup.
    assert.equal(
      tag,
      `<svc-checkout gateway="${sandbox.url}" widget-id="${pageProps.widgetId}" order-id="${pageProps.orderId}" order="${escaped(JSON.stringify({ items: pageProps.items }))}" signature="${pageProps.signature}">`,
    );

    const { context, page, consoleErrors } = await openHydratedPage(browser, `${shopUrl}/checkout`);
    try {
      const outcome = await payInCheckout(page);
      assert.deepEqual(outcome, {
        outcome: 'paid',
        orderId: (outcome as { orderId: string }).orderId,
        merchantOrderId: pageProps.orderId,
      });
      await page.getByRole('status').filter({ hasText: 'Thank you! Your order is paid.' }).waitFor();
      // A second call, or an order_locked of the re-render after the payment, would follow at once.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await page.evaluate('window.paymentCompletedCalls'), 1, 'onPaymentCompleted called once');
      assert.equal(
        await page.evaluate('window.paymentCompletedListeners'),
        1,
        'one listener, of the component',
      );
      assert.deepEqual(await page.evaluate('window.checkoutErrors'), []);
      assert.equal(await page.locator('svc-checkout').getAttribute('state'), 'paid');
      // Hydrated, not replaced: the element paid in is the one the server wrote.
      assert.equal(
        await page.evaluate('window.serverElement === document.querySelector("svc-checkout")'),
        true,
      );
      assert.deepEqual(consoleErrors, []);
    } finally {
      await context.close();
    }
  });

  test('a server writes every prop as the attribute the element reads, objects as JSON, no listener', () => {
    const html = renderToString(
      createElement(Checkout, {
        widgetId: 'w',
        language: 'lv',
        order: '{"items":[]}',
        backToMerchantUrl: '/cart?a=1&b=2',
        texts: { 'loading.text': 'Brīdi…' },
        lazy: true,
        cardLayout: 'compact',
        cardholderName: 'hidden',
        email: undefined,
        className: 'checkout',
        id: 'pay',
        style: { maxWidth: '32rem' },
        onPaymentCompleted: () => {},
        onCheckoutError: () => {},
      }),
    );
    assert.equal(
      html,
      '<svc-checkout widget-id="w" language="lv" order="{&quot;items&quot;:[]}" back-to-merchant-url="/cart?a=1&amp;b=2" texts="{&quot;loading.text&quot;:&quot;Brīdi…&quot;}" lazy="" card-layout="compact" cardholder-name="hidden" class="checkout" id="pay" style="max-width:32rem"></svc-checkout>',
    );
    // `lazy={false}` is no attribute (the element reads any `lazy` but "false" as true).
    assert.equal(
      renderToString(createElement(Checkout, { widgetId: 'w', lazy: false })),
      '<svc-checkout widget-id="w"></svc-checkout>',
    );
  });
});
