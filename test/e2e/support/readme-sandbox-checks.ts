/**
 * What the README's sandbox examples must have done ("The sandbox gateway: `svc-sandbox`",
 * readme-sandbox.test.ts): the config that starts the sandbox every example talks to, the sandbox in a test's
 * process, paying in a browser test, the clock, and the test helpers.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import type { Payment } from '../../../src/server/index.js';
import { launchBrowser } from './browser.js';
import { provide } from './readme-prelude.js';
import {
  type Checks,
  checkedOutPurchase,
  env,
  examples,
  merchant,
  pageHtml,
  project,
  SHOP,
} from './readme-run.js';

export const SANDBOX_CHECKS: Checks = {
  runsFirst: ['keys'],
  json: {
    /** The README's sandbox config, for the shop on its real origin: the sandbox every example talks to. */
    async 'sandbox-config'(example) {
      assert.ok(env.keys, 'the keys example made merchant-public-key.pem');
      const file = join(project, 'sandbox.json');
      await writeFile(file, example.code.replaceAll(SHOP, env.shopUrl));
      env.sandbox = await startSandbox({
        port: 0,
        config: file,
        dataDir: env.dataDir,
        browserRoot: env.browserRoot,
      });
      env.config = env.sandbox.config;
      const { merchant: shop, plain } = merchant();
      assert.ok(shop.v1, 'the config has v1 credentials');
      provide({
        widgetId: plain.id,
        gatewayCertificatePem: env.sandbox.serviceCertificatePem,
        merchantId: shop.id,
        apiKey: shop.apiKey,
        secretKey: shop.v1.secretKey,
        brandId: shop.v1.brandId,
      });
    },
    /**
     * The README's merchant brand, as the first merchant's `brand` in the sandbox config: a sandbox starts with
     * it, and the hosted page's brand stylesheet carries its colours.
     */
    async 'sandbox-brand'(example) {
      const configExample = examples.find((candidate) => candidate.name === 'sandbox-config');
      assert.ok(configExample, 'the README has its sandbox-config example');
      const config = JSON.parse(configExample.code.replaceAll(SHOP, env.shopUrl)) as {
        merchants: Array<{ id: string; brand?: unknown }>;
      };
      const brand = JSON.parse(example.code) as { color: string; textColor: string };
      config.merchants[0]!.brand = brand;
      const file = join(project, 'sandbox-branded.json');
      await writeFile(file, JSON.stringify(config));
      const dataDir = await mkdtemp(join(tmpdir(), 'svc-readme-brand-'));
      const branded = await startSandbox({ port: 0, config: file, dataDir, browserRoot: env.browserRoot });
      try {
        const css = await fetch(`${branded.url}/checkout/assets/brand/${config.merchants[0]!.id}.css`);
        assert.equal(css.status, 200);
        const text = await css.text();
        assert.ok(text.includes(brand.color) && text.includes(brand.textColor), text);
      } finally {
        await branded.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  },
  ts: {
    'sandbox-in-process': {
      exports: ['sandbox'],
      async check({ sandbox }) {
        const started = sandbox as Sandbox;
        assert.match(started.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(started.config.merchants[0]?.id, merchant().merchant.id, 'it ran with sandbox.json');
        await rm(started.keyDir, { recursive: true, force: true });
      },
    },
    'browser-test': {
      async check({ declineThenPay }) {
        // The first element of the element examples, under an order id of its own: its page pays it.
        const elements = examples.find((candidate) => candidate.name === 'element-examples')!;
        const orderId = `PW-${crypto.randomUUID()}`;
        const tag = /<svc-checkout\b[^>]*><\/svc-checkout>/
          .exec(elements.code)![0]
          .replace(/order-id="[^"]*"/, `order-id="${orderId}"`);
        env.pages.set('browser-test', await pageHtml({ ...elements, code: tag }));
        env.browser ??= await launchBrowser();
        const page = await env.browser.newPage();
        try {
          await page.goto(`${env.shopUrl}/__readme/browser-test`);
          const pay = declineThenPay as (page: Page) => Promise<string | null>;
          assert.equal(await pay(page), orderId);
        } finally {
          await page.close();
        }
      },
    },
    'sandbox-clock': {
      exports: ['pending', 'after'],
      async before() {
        provide({ heldId: await checkedOutPurchase({ skip_capture: true }) });
      },
      async check({ pending, after }) {
        assert.equal((pending as { status: string }).status, 'pending_capture');
        assert.equal((after as { status: string }).status, 'paid');
      },
    },
    'test-helpers-in-process': {
      exports: ['paid', 'fulfilled', 'tookMs'],
      async check({ paid, fulfilled, tookMs }) {
        const result = paid as { status: string; orderId: string; notification: { state: string } };
        assert.equal(result.status, 'PAID');
        assert.equal(result.notification.state, 'delivered');
        const notifications = fulfilled as Array<{ id: string; status: string; order_id: string | null }>;
        assert.deepEqual(
          notifications.map((notification) => [notification.id, notification.status, notification.order_id]),
          [[result.orderId, 'PAID', 'A-1001']],
        );
        console.log(
          `README test helpers: a paid order and its notification in ${(tookMs as number).toFixed(1)} ms`,
        );
      },
    },
    'test-helpers-http': {
      exports: ['order', 'bank', 'refund'],
      async check({ order, bank, refund }) {
        const failed = order as { status: string; error: { code: string }; merchantOrderId: string };
        assert.deepEqual(
          [failed.status, failed.error.code, failed.merchantOrderId],
          ['FAILED', 'authentication_failed', 'CI-1001'],
        );
        assert.equal((bank as { outcome: string }).outcome, 'paid');
        const refunded = refund as {
          event: string;
          payment: Payment;
          purchase: { refundable_amount: number };
        };
        assert.equal(refunded.event, 'payment.refunded');
        assert.equal(refunded.payment.payment.amount, 500);
        assert.equal(refunded.purchase.refundable_amount, 2000);
      },
    },
  },
};
