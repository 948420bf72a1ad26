/**
 * A merchant's brand on the v1 hosted checkout page: the config's `merchants[].brand` is checked (hex
 * colours, 4.5:1 text contrast, a logo URL or a readable image file), and the page takes its name, its colours
 * through a stylesheet of its own (the page's policy allows no inline style) and its logo, as Chromium shows.
 */
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import { ConfigError, parseConfig } from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../support/chromium.mjs';
import { FakeMerchant, tempDir } from '../support.js';
import { OTHER, purchaseBody, SHORT_WINDOW, V1, v1, v1ConfigFile } from './support.js';

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="24"><rect width="80" height="24"/></svg>';

/** The config file with `brand` on merchant `m1`. */
function branded(brand: Record<string, unknown>) {
  const file = v1ConfigFile('http://127.0.0.1:9');
  Object.assign(file.merchants[0]!, { brand });
  return file;
}

/** The problems a config with this brand is refused for, as `path: message`. */
function refusal(brand: Record<string, unknown>, baseDir?: string): string[] {
  try {
    parseConfig(branded(brand), baseDir === undefined ? {} : { baseDir });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
  }
  assert.fail('the config was accepted');
}

describe('sandbox config: a merchant brand', () => {
  test('colours are #rgb or #rrggbb, kept as #rrggbb; white text by default', () => {
    const config = parseConfig(branded({ color: '#1A7F37' }));
    assert.deepEqual(config.merchants[0]!.brand, { color: '#1a7f37', textColor: '#ffffff' });
    assert.deepEqual(parseConfig(branded({ color: '#000', textColor: '#ff0' })).merchants[0]!.brand, {
      color: '#000000',
      textColor: '#ffff00',
    });
    assert.deepEqual(refusal({ color: 'red', textColor: '#fff;}body{x:y' }), [
      'merchants[0].brand.color: "red" is not a colour the page takes: write #rgb or #rrggbb, such as #0b5cad',
      'merchants[0].brand.textColor: "#fff;}body{x:y" is not a colour the page takes: write #rgb or #rrggbb, such as #0b5cad',
    ]);
  });

  test('text on the brand colour below 4.5:1 is refused, saying what to change', () => {
    assert.deepEqual(refusal({ color: '#ffd400' }), [
      "merchants[0].brand.color: the text #ffffff on the brand colour #ffd400 has a contrast of 1.43:1, and the pay button's label needs 4.5:1 (WCAG AA): set textColor to #000000, or choose a darker color",
    ]);
    assert.match(
      refusal({ color: '#777777', textColor: '#888888' })[0] ?? '',
      /^merchants\[0\]\.brand\.textColor: /,
    );
  });

  test('a logo is an http(s) URL or an image file beside the config', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'logo.svg'), LOGO_SVG);
    await writeFile(join(dir, 'logo.txt'), 'not an image');
    const file = parseConfig(branded({ logo: 'logo.svg' }), { baseDir: dir }).merchants[0]!.brand;
    assert.deepEqual(file?.logo, { file: join(dir, 'logo.svg'), contentType: 'image/svg+xml' });
    const url = parseConfig(branded({ logo: 'https://cdn.shop.example/logo.png' })).merchants[0]!.brand;
    assert.deepEqual(url?.logo, { url: 'https://cdn.shop.example/logo.png' });
    assert.match(refusal({ logo: 'logo.txt' }, dir)[0] ?? '', /logo\.txt is not an image the page shows/);
    assert.match(
      refusal({ logo: 'missing.png' }, dir)[0] ?? '',
      /^merchants\[0\]\.brand\.logo: cannot read /,
    );
    assert.match(refusal({ logo: 'javascript:alert(1)' })[0] ?? '', /must be an absolute http\(s\) URL/);
  });
});

describe('sandbox v1 hosted checkout page in a merchant brand', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  before(async () => {
    merchant = await FakeMerchant.start();
    const dir = await tempDir();
    await writeFile(join(dir, 'logo.svg'), LOGO_SVG);
    const file = v1ConfigFile(merchant.url);
    Object.assign(file.merchants[0]!, {
      brand: { name: 'Tea House', logo: 'logo.svg', color: '#1a7f37' },
    });
    Object.assign(file.merchants[1]!, {
      brand: { logo: 'https://cdn.shop.example/logo.png', color: '#ffd400', textColor: '#1f2933' },
    });
    sandbox = await startSandbox({ port: 0, config: parseConfig(file, { baseDir: dir }), dataDir: dir });
  });
  after(async () => {
    await sandbox?.close();
    await merchant?.close();
  });

  async function checkoutPage(account: { secretKey: string; brandId: string } = V1) {
    const created = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({
        brand_id: account.brandId,
        purchase: { products: [{ name: 'Tea', price: 1250 }], language: 'en' },
      }),
      key: account.secretKey,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const answer = await fetch(created.body.checkout_url);
    return { html: await answer.text(), policy: answer.headers.get('content-security-policy') ?? '' };
  }

  test('the page shows the brand name and logo and loads the brand stylesheet after its own', async () => {
    const { html, policy } = await checkoutPage();
    assert.match(html, /<title>Payment to Tea House<\/title>/);
    assert.match(
      html,
      /<link rel="stylesheet" href="\/checkout\/assets\/checkout\.css"><link rel="stylesheet" href="\/checkout\/assets\/brand\/m1\.css"><\/head>/,
    );
    assert.match(
      html,
      /<main><div class="brand"><img src="\/checkout\/assets\/logo\/m1" alt=""><\/div><h1>Payment to Tea House<\/h1>/,
    );
    assert.match(policy, /img-src 'self'(;|$)/);

    const css = await fetch(`${sandbox.url}/checkout/assets/brand/m1.css`);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.equal(
      await css.text(),
      ':root { --primary: #1a7f37; --primary-contrast: #ffffff; --accent: #1a7f37; }\n',
    );
    const logo = await fetch(`${sandbox.url}/checkout/assets/logo/m1`);
    assert.equal(logo.headers.get('content-type'), 'image/svg+xml');
    assert.match(logo.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(await logo.text(), LOGO_SVG);
    assert.equal((await fetch(`${sandbox.url}/checkout/assets/brand/m3.css`)).status, 404);
    assert.equal((await fetch(`${sandbox.url}/checkout/assets/logo/m2`)).status, 404);
  });

  test('in Chromium the buttons take the brand colours and the logo loads under the page policy; axe passes', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
    try {
      const created = await v1(sandbox, 'POST', '/purchases/', {
        body: purchaseBody({ purchase: { products: [{ name: 'Tea', price: 1250 }], language: 'en' } }),
      });
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(created.body.checkout_url);
      const look = await page.evaluate<{ background: string; color: string; logoWidth: number }>(
        `(() => { const pay = getComputedStyle(document.querySelector('button.pay'));
          return { background: pay.backgroundColor, color: pay.color,
            logoWidth: document.querySelector('.brand img').naturalWidth }; })()`,
      );
      assert.deepEqual(look, { background: 'rgb(26, 127, 55)', color: 'rgb(255, 255, 255)', logoWidth: 80 });
      await page.evaluate(
        await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'),
      );
      const violations = await page.evaluate<Array<{ id: string }>>(
        'axe.run(document).then((result) => result.violations)',
      );
      assert.deepEqual(
        violations.map((violation) => violation.id),
        [],
      );
      assert.deepEqual(blocked, []);
    } finally {
      await browser.close();
    }
  });

  test('a logo URL is allowed by the page policy; an unbranded merchant keeps the page look', async () => {
    const { html, policy } = await checkoutPage(OTHER);
    assert.match(html, /<img src="https:\/\/cdn\.shop\.example\/logo\.png" alt="">/);
    assert.match(policy, /img-src 'self' https:\/\/cdn\.shop\.example;/);
    // Yellow does not stand out from white: the chosen method is marked in the text colour instead.
    assert.match(
      await (await fetch(`${sandbox.url}/checkout/assets/brand/m2.css`)).text(),
      /--primary: #ffd400; --primary-contrast: #1f2933; --accent: #1f2933;/,
    );
    const plain = await checkoutPage(SHORT_WINDOW);
    assert.doesNotMatch(plain.html, /brand/);
  });
});
