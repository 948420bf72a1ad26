import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FRAME_MESSAGES, LANGUAGES, type OrderInput } from '../../../src/core/index.js';
import { FRAME_BOOTSTRAP_ID, type FrameBootstrap } from '../../../src/core/widget-api.js';
import { parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { pageTranslator } from '../../../src/sandbox/v1/checkout-texts.js';
import { signOrder } from '../../../src/server/index.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';

/** A GET written by hand, so the path reaches the sandbox exactly as given (fetch would normalise `..`). */
function rawGet(sandbox: Sandbox, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${sandbox.url}${path}`, { method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The frame page's bootstrap, read from its data block as a browser's JSON.parse reads it. */
function bootstrapOf(html: string): FrameBootstrap {
  const block = new RegExp(
    `<script type="application/json" id="${FRAME_BOOTSTRAP_ID}">([^<]*)</script>`,
  ).exec(html);
  assert.ok(block, 'the frame page has its bootstrap data block');
  return JSON.parse(block[1]!) as FrameBootstrap;
}

describe('sandbox: widget script, frame page, embedding check and intake rules', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let browserRoot: string;

  before(async () => {
    merchant = await FakeMerchant.start();
    browserRoot = await tempDir();
    await mkdir(join(browserRoot, 'frame', 'assets'), { recursive: true });
    await writeFile(join(browserRoot, 'svc-checkout.js'), 'export const element = 1;\n');
    await writeFile(join(browserRoot, 'frame', 'assets', 'frame.js'), 'export const frame = 1;\n');
    await writeFile(join(browserRoot, 'frame', 'assets', 'messages-lv.js'), 'export const lv = 1;\n');
    await writeFile(join(browserRoot, 'frame', 'assets', 'messages-ru.js'), 'export const ru = 1;\n');
    await writeFile(join(browserRoot, 'secret.txt'), 'not for the web');
    sandbox = await startSandbox({
      port: 0,
      config: parseConfig(testConfigFile(merchant.url)),
      dataDir: await tempDir(),
      browserRoot,
    });
  });
  after(async () => {
    await sandbox.close();
    await merchant.close();
  });

  /** Takes `input` as the merchant's page does: signed with the merchant's `main` key. */
  const intake = (input: OrderInput) =>
    call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });

  test('the widget module is served to any page, with CORS, as JavaScript', async () => {
    const response = await fetch(`${sandbox.url}/widget/svc-checkout.js`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await response.text(), 'export const element = 1;\n');
  });

  test('a widget file that was not built answers 404 and says to build', async () => {
    const response = await fetch(`${sandbox.url}/widget/svc-checkout.classic.js`);
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as { error: { message: string } }).error.message, /npm run build/);
  });

  test('only the widget files are served: other names and paths out of the folder are not', async () => {
    assert.equal((await fetch(`${sandbox.url}/widget/secret.txt`)).status, 404);
    assert.equal((await rawGet(sandbox, '/widget/frame/assets/../../secret.txt')).status, 404);
    assert.equal((await rawGet(sandbox, '/widget/frame/assets/..%2F..%2Fsecret.txt')).status, 404);
    assert.equal((await rawGet(sandbox, '/svc-checkout.js')).status, 404);
  });

  test('the frame page carries a strict CSP framed only by the merchant origins', async () => {
    const response = await fetch(`${sandbox.url}/widget/frame/${WIDGETS.checkout}`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    const directives = new Map(
      csp.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    assert.equal(directives.get('default-src'), "'none'");
    assert.equal(directives.get('script-src'), "'self'");
    assert.equal(directives.get('style-src'), "'self'");
    assert.equal(directives.get('connect-src'), "'self'");
    assert.equal(directives.get('frame-ancestors'), PAGE_ORIGIN);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const html = await response.text();
    assert.match(html, /<html lang="lv">/);
    assert.match(html, /<script type="module" src="\/widget\/frame\/assets\/frame.js"><\/script>/);
    assert.doesNotMatch(html, /<script>|<style|style=/, 'nothing inline');
    // The page carries what the frame's first render needs: the widget's configuration, exactly as the widget
    // API answers it, and the texts of the merchant's default language (lv); and, as the sandbox's page, the
    // test-mode mark the frame shows, in each language, in the words of the hosted page (a production
    // gateway leaves it out).
    const bootstrap = bootstrapOf(html);
    const config = await fetch(`${sandbox.url}/widget-api/v1/widgets/${WIDGETS.checkout}`);
    assert.deepEqual(bootstrap, {
      config: await config.json(),
      language: 'lv',
      texts: FRAME_MESSAGES.lv,
      testMode: Object.fromEntries(
        LANGUAGES.map((language) => [language, pageTranslator(language)('card.testOnly')]),
      ),
    });
    const frameScript = await fetch(`${sandbox.url}/widget/frame/assets/frame.js`);
    assert.equal(frameScript.status, 200);
    assert.equal(frameScript.headers.get('access-control-allow-origin'), null);
  });

  test('the frame page is in the language the element names, with its texts; else in the merchant’s', async () => {
    const page = async (query: string) =>
      (await fetch(`${sandbox.url}/widget/frame/${WIDGETS.checkout}${query}`)).text();
    const russian = await page('?lang=ru');
    assert.match(russian, /<html lang="ru">/);
    assert.equal(bootstrapOf(russian).language, 'ru');
    assert.deepEqual(bootstrapOf(russian).texts, FRAME_MESSAGES.ru);
    // A region is ours when its language is (ru-RU), as the element's own language check reads it.
    assert.match(await page('?fields=1&lang=ru-RU'), /<html lang="ru">/);
    // A language we do not speak, and what is no language at all, leave the merchant's (lv).
    for (const query of ['?lang=de', '?lang=%22%3E%3Cscript%3E', '?lang=', '']) {
      const html = await page(query);
      assert.match(html, /<html lang="lv">/, query);
      assert.equal(bootstrapOf(html).language, 'lv', query);
      assert.doesNotMatch(html, /<script>/, query);
    }
  });

  test("the frame page names the first chunk of the widget's kind: the full checkout's has its fields", async () => {
    const firstChunk = async (widgetId: string) => {
      const html = await (await fetch(`${sandbox.url}/widget/frame/${widgetId}`)).text();
      return /<script type="module" src="\/widget\/frame\/assets\/([\w.-]+)"><\/script>/.exec(html)?.[1];
    };
    // A build without the full checkout's chunk: frame.js imports the fields itself.
    assert.equal(await firstChunk(WIDGETS.full), 'frame.js');
    const chunk = join(browserRoot, 'frame', 'assets', 'frame-checkout.js');
    await writeFile(chunk, 'export const fullCheckout = 1;\n');
    assert.equal(await firstChunk(WIDGETS.full), 'frame-checkout.js');
    assert.equal(await firstChunk(WIDGETS.checkout), 'frame.js');
    assert.equal(await firstChunk(WIDGETS.instant), 'frame.js', 'a fixed order without shipping options');
    const served = await fetch(`${sandbox.url}/widget/frame/assets/frame-checkout.js`);
    assert.match(served.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(await served.text(), 'export const fullCheckout = 1;\n');
  });

  test("a merchant's name that holds markup stays text in the frame page's data block", async () => {
    const hostileName = '</script><script>alert(1)</script><!-- Shop & Co';
    const file = testConfigFile(merchant.url);
    file.merchants[0]!.name = hostileName;
    const hostile = await startSandbox({
      port: 0,
      config: parseConfig(file),
      dataDir: await tempDir(),
      browserRoot,
    });
    try {
      const html = await (await fetch(`${hostile.url}/widget/frame/${WIDGETS.checkout}`)).text();
      assert.doesNotMatch(html, /<script>|<!--/);
      // One data block, ending where the gateway ended it, that reads back the name exactly.
      assert.equal(html.match(/<\/script>/g)?.length, 2, 'the module script and the data block');
      assert.equal(bootstrapOf(html).config.merchant.name, hostileName);
    } finally {
      await hostile.close();
    }
  });

  test('an unknown widget gets no form and may not be framed', async () => {
    const response = await fetch(`${sandbox.url}/widget/frame/no-such-widget`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  });

  test('the embedding check tells an allowed origin, a foreign origin and an unknown widget apart', async () => {
    const check = async (widgetId: string, origin: string) => {
      const response = await fetch(
        `${sandbox.url}/widget-api/v1/widgets/${widgetId}/embedding?origin=${encodeURIComponent(origin)}`,
      );
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      return (await response.json()) as { ok: boolean; code?: string; message?: string };
    };
    assert.deepEqual(await check(WIDGETS.checkout, PAGE_ORIGIN), { ok: true });
    const foreign = await check(WIDGETS.checkout, 'https://evil.example');
    assert.equal(foreign.code, 'origin_not_allowed');
    assert.match(foreign.message ?? '', /https:\/\/evil\.example/);
    assert.ok(!foreign.message?.includes(PAGE_ORIGIN), 'the allowed origins are not given away');
    assert.equal((await check('nope', PAGE_ORIGIN)).code, 'unknown_widget');
  });

  test('the same order taken twice is one order, so a reload after paying charges nothing', async () => {
    const order: OrderInput = {
      widgetId: WIDGETS.checkout,
      orderId: 'reload-1',
      items: [{ amount: '9.99', label: 'Socks' }],
    };
    const first = await intake(order);
    assert.equal(first.status, 201);
    const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${first.body['id']}/payments`, {
      idempotencyKey: 'reload-key',
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'A B' },
    });
    assert.equal(paid.body['state'], 'PAID');
    const again = await intake(order);
    assert.equal(again.body['id'], first.body['id']);
    assert.equal(again.body['state'], 'PAID');
    const changed = await intake({ ...order, items: [{ amount: '10.99', label: 'Socks' }] });
    assert.notEqual(changed.body['id'], first.body['id']);
    assert.equal(changed.body['state'], 'CREATED');
    assert.equal(again.body['customer'], undefined, 'the view carries no customer data');
  });

  test('an unsigned order naming a taken order id is a new order, never the other customer’s', async () => {
    const order = { widgetId: WIDGETS.instant, orderId: 'unsigned-1' };
    const unsignedIntake = () =>
      call(sandbox, 'POST', '/widget-api/v1/orders', {
        order,
        pageOrigin: PAGE_ORIGIN,
        customer: { email: 'first@example.com' },
      });
    const first = await unsignedIntake();
    const second = await unsignedIntake();
    assert.equal(first.status, 201);
    assert.notEqual(second.body['id'], first.body['id']);
  });

  test('a plain widget takes shipping options, priced or priced later, and a payment must choose one', async () => {
    const items = [{ amount: '20.00', label: 'Boots' }];
    // Priced later by the shipping cost URL, with no address (test/sandbox/shipping-options.test.ts).
    const later = await intake({ widgetId: WIDGETS.checkout, items, shippingOptions: [{ id: 'courier' }] });
    assert.equal(later.status, 201, JSON.stringify(later.body));

    const fixed = await intake({
      widgetId: WIDGETS.checkout,
      items,
      shippingOptions: [{ id: 'courier', amount: '3.50' }],
    });
    assert.equal(fixed.status, 201);
    const pay = (shipping?: { optionId: string }) =>
      call(sandbox, 'POST', `/widget-api/v1/orders/${fixed.body['id']}/payments`, {
        idempotencyKey: `plain-${shipping?.optionId ?? 'none'}`,
        card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'A B' },
        ...(shipping && { shipping }),
      });
    const without = await pay();
    assert.equal(without.status, 400);
    assert.equal(without.body['error'].code, 'shipping_required');
    const paid = await pay({ optionId: 'courier' });
    assert.equal(paid.body['state'], 'PAID');
    assert.equal(paid.body['order'].total, '23.50');
  });
});
