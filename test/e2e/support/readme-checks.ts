/**
 * What each README example must have done (TS_CHECKS, JSON_CHECKS, JS_CHECKS: a named example without its
 * check fails), and the tests that run one part's examples: {@link describeExamples}, which each
 * test/e2e/readme-*.test.ts calls for its part. The machinery they run on is support/readme-run.ts's.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import {
  createMerchantApiV2Client,
  type OrderInput,
  orderSignatureInput,
  type Payment,
  signOrder,
  verifyOrderSignature,
} from '../../../src/server/index.js';
import { launchBrowser } from './browser.js';
import { commandsOf, type Example } from './readme-examples.js';
import { clientId, provide, tokenId } from './readme-prelude.js';
import {
  checkedOutPurchase,
  checkListedCommand,
  consoleErrors,
  createOrder,
  elementOrder,
  env,
  eventually,
  examples,
  formsShown,
  json,
  merchant,
  merchantV1,
  named,
  needsGateway,
  pageHtml,
  paidOrder,
  partOf,
  payOnHostedPage,
  project,
  type ReadmePart,
  readmeName,
  run,
  runSandboxCommand,
  SHOP,
  setUp,
  tearDown,
  where,
} from './readme-run.js';
import { CARDS, PaymentFrame } from './shop-page.js';

// ---------------------------------------------------------------------------------------------------------
// What each ts and json example must have done

interface TsCheck {
  /** Names of the example's top-level bindings that the check reads. */
  exports?: string[];
  /** Runs before the example, for what it takes that only exists by then. */
  before?: () => Promise<void>;
  check: (exported: Record<string, unknown>) => Promise<void>;
}

export const TS_CHECKS: Record<string, TsCheck> = {
  keys: {
    async check() {
      const privateKeyPem = await readFile(join(project, 'merchant-private-key.pem'), 'utf8');
      const publicKeyPem = await readFile(join(project, 'merchant-public-key.pem'), 'utf8');
      assert.match(privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
      assert.match(publicKeyPem, /^-----BEGIN PUBLIC KEY-----/);
      assert.equal(statSync(join(project, 'merchant-private-key.pem')).mode & 0o777, 0o600);
      const order = { widgetId: 'a', items: [{ amount: '1.00', label: 'x' }] };
      assert.ok(
        verifyOrderSignature(order, signOrder(order, privateKeyPem), publicKeyPem),
        'the two halves match',
      );
      env.keys = { privateKeyPem, publicKeyPem };
      provide({ privateKeyPem });
    },
  },
  'sign-order': {
    exports: ['signature'],
    async check({ signature }) {
      const [tag] = /<svc-checkout\b[^>]*>/.exec(named('element-examples').code) ?? [];
      assert.ok(tag, 'the element-examples example has an element');
      const first = elementOrder(tag);
      assert.equal(
        signature,
        signOrder(first.order, env.keys!.privateKeyPem),
        `the sign-order example must sign exactly the attributes of the first element example:\n${first.tag}`,
      );
    },
  },
  'signature-input': {
    exports: ['text'],
    async check({ text }) {
      // The text the example's comment shows, written out here by hand: the given fields joined, the count
      // with three decimals; and the text of the first element example, which the sign-order example signs.
      const rest = 'enmainhttps://shop.example/cartA-100112.50EURTea2.000';
      const shown = `// \`\${widgetId}${rest}\``;
      assert.ok(named('signature-input').code.includes(shown), `the example shows ${shown}`);
      assert.equal(text, `${merchant().plain.id}${rest}`);
      const { order } = elementOrder(/<svc-checkout\b[^>]*>/.exec(named('element-examples').code)![0]);
      assert.equal(text, orderSignatureInput(order), 'the text of the first element example');
    },
  },
  'lazy-server': {
    async check() {
      const answer = await json(`${env.shopUrl}/checkout/order`, 'POST', {
        products: { tea: 2 },
        shipping: 'courier',
      });
      assert.equal(answer.status, 200, answer.text);
      const { order, signature } = answer.body as { order: OrderInput; signature: string };
      assert.equal(order.certificateName, 'main', 'the page sets certificate-name, which is signed');
      assert.equal(order.widgetId, merchant().plain.id);
      assert.ok(verifyOrderSignature(order, signature, env.keys!.publicKeyPem), 'the order verifies');
      assert.ok(
        order.shippingOptions?.every((option) => option.amount !== undefined),
        'a plain widget takes only priced shipping options',
      );
      const priced = await json(`${env.shopUrl}/checkout/order`, 'POST', {
        products: { tea: 1, caviar: 1 },
        shipping: 'courier',
      });
      assert.equal(priced.status, 400, 'an unknown product is refused');
    },
  },
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
  notifications: {
    async check() {
      const order = await paidOrder();
      await eventually(
        () => env.paid.some((paid) => paid.orderId === order.merchantOrderId),
        () =>
          `markPaid was not called for ${order.merchantOrderId}; it was called with ${JSON.stringify(env.paid)}`,
      );
      assert.deepEqual(
        env.paid.filter((paid) => paid.orderId === order.merchantOrderId),
        [{ orderId: order.merchantOrderId, amount: order.total }],
      );
      const forged = await fetch(`${env.shopUrl}/svc/notification`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'x-svc-signature': 'AAAA' },
        body: JSON.stringify({ id: 'forged', order_id: 'FORGED-1', status: 'PAID', total_amount: '0.01' }),
      });
      assert.notEqual(forged.status, 200, 'a forged notification is not acknowledged');
      assert.ok(!env.paid.some((paid) => paid.orderId === 'FORGED-1'), 'a forged notification marks nothing');

      // The page re-splits the signed order's fields (label "Tea" + count 2 as label "Tea2"): the same signature,
      // half the price. The gateway takes it and signs a genuine PAID notification, which must mark nothing.
      const signedTea: OrderInput = {
        widgetId: merchant().plain.id,
        orderId: 'README-RESPLIT-1',
        items: [{ amount: '12.50', label: 'Tea', count: 2 }],
      };
      const resplit = ['Tea2', 'Tea2.000']
        .map((label): OrderInput => ({ ...signedTea, items: [{ amount: '12.50', label }] }))
        .find((candidate) => orderSignatureInput(candidate) === orderSignatureInput(signedTea));
      assert.ok(resplit, 'a re-split order signs the same text');
      const { id } = await createOrder(resplit, signedTea);
      const paid = await json(`${env.sandbox!.url}/widget-api/v1/orders/${id}/payments`, 'POST', {
        idempotencyKey: `${id}-1`,
        card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Anna Tester' },
      });
      assert.equal((paid.body as { state: string }).state, 'PAID', paid.text);
      await eventually(
        () => env.lookedUp.includes('README-RESPLIT-1'),
        () =>
          `the notification route did not look up README-RESPLIT-1; it looked up ${JSON.stringify(env.lookedUp)}`,
      );
      // The route goes on to verifyPaidOrder and markPaid without waiting on anything but this test's lookup.
      await new Promise((resolveTurn) => setImmediate(resolveTurn));
      assert.ok(
        !env.paid.some((entry) => entry.orderId === 'README-RESPLIT-1'),
        'a genuine notification of a re-split order marks nothing paid',
      );
    },
  },
  callbacks: {
    async check() {
      const { merchant: shop, full } = merchant();
      const test = await json(
        `${env.sandbox!.url}/sandbox/merchants/${shop.id}/connection-test`,
        'POST',
        undefined,
        {
          'x-svc-api-key': shop.apiKey,
        },
      );
      assert.equal((test.body as { ok: boolean }).ok, true, test.text);
      const { id } = await createOrder({
        widgetId: full.id,
        orderId: 'README-QUOTE-1',
        items: [{ amount: '12.50', label: 'Tea' }],
        shippingOptions: [{ id: 'courier' }],
      });
      const quote = await json(`${env.sandbox!.url}/widget-api/v1/orders/${id}/shipping-quotes`, 'POST', {
        optionId: 'courier',
        address: { city: 'Riga', address: 'Brivibas iela 1', postalCode: 'LV-1010', country: 'LV' },
      });
      assert.equal(quote.status, 200, quote.text);
      assert.match(quote.text, /4\.99/, 'the shipping-cost handler priced the option');
    },
  },
  'merchant-api': {
    async before() {
      provide({ orderId: (await paidOrder()).id });
    },
    async check() {
      const { merchant: shop } = merchant();
      const api = createMerchantApiV2Client({
        baseUrl: env.sandbox!.url,
        merchantId: shop.id,
        apiKey: shop.apiKey,
        certificateName: 'main',
        privateKeyPem: env.keys!.privateKeyPem,
      });
      const { id } = await paidOrder();
      const order = await api.getOrder(id);
      assert.equal(order.status, 'PARTIALLY_REFUNDED', JSON.stringify(order));
      // The example's retry, with its request id: answered, not refunded again.
      const refund = { amount: '5.00', reason: 'RETURNED_PRODUCT', note: 'scratched' } as const;
      const again = await api.refund(id, refund, { requestId: `refund-${id}-1` });
      assert.equal(again.httpStatus, 201);
      assert.equal((await api.getOrder(id)).refunded_amount, 5, 'refunded once');
    },
  },
  v1: {
    exports: ['purchase'],
    async check({ purchase }) {
      const { id, checkout_url: checkoutUrl } = purchase as { id: string; checkout_url: string };
      assert.ok(checkoutUrl.startsWith(`${env.sandbox!.url}/checkout/`), checkoutUrl);
      const paid = await payOnHostedPage(id);
      assert.equal(paid.status, 303);
      assert.equal(paid.headers.get('location'), `${env.shopUrl}/paid`);
      await eventually(
        () => env.paid.some((entry) => entry.orderId === id),
        () => `markPaid was not called for the purchase ${id}`,
      );
      assert.equal(env.paid.filter((entry) => entry.orderId === id).length, 1, 'once');
      // Unsigned, forged and garbage requests (a fixed seed): refused with 400 or 401, which the gateway's
      // retries do not mistake for the receiver failing; never 500.
      let seed = 21;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
      const bodies = [
        '',
        '{',
        '[]',
        'null',
        JSON.stringify({ id, status: 'paid', event_type: 'purchase.paid' }),
      ];
      const signatures = [undefined, '', 'AAAA', '%%%', 'x'.repeat(600)];
      const statuses = new Set<number>();
      for (let round = 0; round < 40; round += 1) {
        const signature = pick(signatures);
        const answer = await fetch(`${env.shopUrl}/svc/success`, {
          method: 'POST',
          headers: {
            'content-type': pick(['application/json', 'text/plain', 'application/octet-stream']),
            ...(signature !== undefined && { 'x-signature': signature }),
          },
          body: pick(bodies),
        });
        await answer.arrayBuffer();
        statuses.add(answer.status);
      }
      assert.deepEqual([...statuses].sort(), [401]);
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
      const refunded = refund as { event: string; payment: Payment; purchase: { refundable_amount: number } };
      assert.equal(refunded.event, 'payment.refunded');
      assert.equal(refunded.payment.payment.amount, 500);
      assert.equal(refunded.purchase.refundable_amount, 2000);
    },
  },
  'v1-operations': {
    exports: ['captured', 'released', 'refund', 'charged', 'settled', 'cause'],
    async before() {
      provide({
        heldId: await checkedOutPurchase({ skip_capture: true }),
        otherHeldId: await checkedOutPurchase({ skip_capture: true }),
        paidId: await checkedOutPurchase(),
        tokenId: await checkedOutPurchase({ force_recurring: true }),
      });
    },
    async check({ captured, released, refund, charged, settled, cause }) {
      const purchase = captured as { status: string; refundable_amount: number };
      assert.equal(purchase.status, 'paid');
      assert.equal(purchase.refundable_amount, 1000, 'the rest was released');
      assert.equal((released as { status: string }).status, 'released');
      assert.equal((refund as Payment).payment.amount, 500);
      assert.equal((refund as Payment).status, 'success');
      assert.equal((charged as { status: string }).status, 'paid');
      const paid = settled as { status: string; marked_as_paid: boolean };
      assert.deepEqual([paid.status, paid.marked_as_paid], ['paid', true]);
      assert.equal((cause as { code: string } | undefined)?.code, 'not_held');
      const v1 = merchantV1();
      assert.equal((await v1.purchases.get(tokenId)).is_recurring_token, false, 'the token was deleted');
    },
  },
  'v1-clients': {
    exports: ['customer', 'purchase', 'cards'],
    async before() {
      const v1 = merchantV1();
      const returning = await v1.clients.create({ email: 'returning@example.com' });
      await checkedOutPurchase({ client_id: returning.id, force_recurring: true });
      provide({ clientId: returning.id });
    },
    async check({ customer, purchase, cards }) {
      const created = purchase as { client_id: string; force_recurring: boolean; client: { email: string } };
      assert.equal(created.client_id, (customer as { id: string }).id);
      assert.equal(created.client.email, 'customer@example.com', 'the Client’s details fill the Purchase');
      const saved = cards as Array<{ description: string }>;
      assert.deepEqual(
        saved.map((card) => card.description),
        ['Visa •••• 1111'],
      );
      const v1 = merchantV1();
      const left = [];
      for await (const card of v1.clients.recurringTokens(clientId)) left.push(card);
      assert.deepEqual(left, [], 'the example deleted it');
    },
  },
  'v1-billing': {
    exports: ['purchaseIds', 'invoice', 'plan', 'billing_template_client', 'purchase'],
    async before() {
      const v1 = merchantV1();
      provide({ otherClientId: (await v1.clients.create({ email: 'other@example.com' })).id });
    },
    async check({ purchaseIds, invoice, plan, billing_template_client, purchase }) {
      const ids = purchaseIds as string[];
      assert.equal(ids.length, 2, 'one Purchase per Client');
      const v1 = merchantV1();
      for (const id of ids) assert.equal((await v1.purchases.get(id)).status, 'created');
      assert.equal((invoice as { status: string }).status, 'created');
      assert.equal((plan as { is_subscription: boolean }).is_subscription, true);
      assert.equal(purchase, null, 'a trial: active at once, nothing to pay now');
      const subscriber = billing_template_client as { status: string; client_id: string };
      assert.equal(subscriber.status, 'active');
      const after = await v1.billingTemplates.clients.get((plan as { id: string }).id, clientId);
      assert.equal(after.status, 'paused', 'the example paused it');
    },
  },
  'v1-statements': {
    exports: ['available', 'statement'],
    async check({ available, statement }) {
      assert.equal(typeof available, 'number');
      assert.equal((statement as { format: string }).format, 'csv');
      const csv = await readFile(join(project, 'paid.csv'), 'utf8');
      const [header, ...rows] = csv.trim().split('\r\n');
      assert.match(header!, /^id,reference,status,/);
      assert.ok(rows.length > 0, 'the paid purchases of the examples are in it');
      assert.ok(
        rows.every((row) => row.split(',')[2] === 'paid'),
        csv,
      );
    },
  },
  'v1-wallets': {
    exports: ['purchase', 'result', 'next'],
    async check({ purchase, result, next }) {
      assert.equal((result as { kind: string }).kind, 'three_ds');
      // The customer approves on the sandbox's 3-D Secure page.
      const answered = await fetch(next as string, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'decision=approve',
        redirect: 'manual',
      });
      assert.equal(answered.status, 200, 'no success_redirect: the sandbox shows the outcome');
      const v1 = merchantV1();
      assert.equal((await v1.purchases.get((purchase as { id: string }).id)).status, 'paid');
    },
  },
  'payment-methods': {
    async check() {
      // The gateway answers one lookup per query a minute: a second answer for the same query is the cache's.
      for (const query of ['', '?currency=EUR']) {
        const answer = await json(`${env.shopUrl}/payment-methods${query}`, 'GET');
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.headers.get('x-svc-cache'), 'fresh');
        assert.ok(
          (answer.body as { available_payment_methods: string[] }).available_payment_methods.length > 0,
          answer.text,
        );
      }
      const keys = await env.redisClient.keys('svc-checkout:payment-methods:*');
      assert.ok(keys.length > 0, 'the answer is kept in Redis');
    },
  },
};

export const JSON_CHECKS: Record<string, (example: Example) => Promise<void>> = {
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
};

// ---------------------------------------------------------------------------------------------------------
// Browser examples

/** Resolves the page's recorded calls once there are `count` of them; fails at once on a page error. */
type PageCalls = (count: number) => Promise<unknown[][]>;

/** What a named js example must have done, driven in its page as a customer would. */
export const JS_CHECKS: Record<string, (page: Page, calls: PageCalls) => Promise<void>> = {
  /** The order JSON element took the new signed order: its frame asks for the new cart's total. */
  async 'replace-order'(page) {
    // Tea 2 × 6.40, honey 8.90, Latvian Post 2.80, by the lazy-server example's prices.
    const element = page.locator('svc-checkout[order-id]').nth(1);
    await new PaymentFrame(element.frameLocator('iframe')).waitForPayAmount('24.50');
  },
  /** A declined card, "Back to the shop" (the page goes itself), another card, paid. */
  async events(page, calls) {
    const frame = new PaymentFrame(page.locator('svc-checkout').first().frameLocator('iframe'));
    await frame.payWith({ number: CARDS.declined });
    await frame.waitForStatus('Payment failed');
    const url = page.url();
    await frame.backToShop();
    assert.deepEqual(
      await calls(1),
      [['goTo', 'https://shop.example/cart']],
      'navigateBackToCart carries the URL',
    );
    assert.equal(page.url(), url, 'preventDefault() keeps the page');
    await frame.frame.getByRole('button', { name: 'Try another card' }).click();
    await frame.payWith({ number: CARDS.visa });
    await frame.waitForStatus('Payment successful');
    assert.deepEqual((await calls(2))[1], ['showThankYou', 'A-1001']);
  },
};

/**
 * Loads an html example in Chromium and waits for its elements' forms (lazy ones wait for `init()`). With a
 * js example, runs it in that page next, waits for every form again, and runs its check.
 */
async function runPage(example: Example, script?: Example): Promise<void> {
  env.browser ??= await launchBrowser();
  const page = await env.browser.newPage();
  page.setDefaultTimeout(15_000);
  const errors = consoleErrors(page);
  try {
    const name = examples.indexOf(example).toString();
    env.pages.set(name, await pageHtml(example));
    await page.goto(`${env.shopUrl}/__readme/${name}`);
    if ((await page.locator('svc-checkout').count()) === 0) {
      await page.waitForFunction(() => customElements.get('svc-checkout') !== undefined, null, {
        timeout: 10_000,
      });
    }
    await formsShown(page, errors, false);
    if (script) {
      // The functions the example takes from the page record their calls.
      await page.evaluate((names) => {
        const page = window as unknown as Record<string, unknown> & { readmeCalls: unknown[][] };
        page.readmeCalls = [];
        for (const name of names) page[name] = (...args: unknown[]) => page.readmeCalls.push([name, ...args]);
      }, script.uses);
      await page.addScriptTag({ type: 'module', content: script.code });
      await formsShown(page, errors, true);
      const check = script.name === undefined ? undefined : JS_CHECKS[script.name];
      assert.ok(
        script.name === undefined || check,
        `no check for the js example ${script.name}: add one to JS_CHECKS`,
      );
      const calls: PageCalls = async (count) => {
        let recorded: unknown[][] = [];
        await eventually(
          async () => {
            recorded = await page.evaluate(
              () => (window as unknown as { readmeCalls: unknown[][] }).readmeCalls,
            );
            return errors.length > 0 || recorded.length >= count;
          },
          () => `expected ${count} calls of ${script.uses.join(', ')}; got ${JSON.stringify(recorded)}`,
        );
        assert.deepEqual(errors, [], 'no page error');
        return recorded;
      };
      try {
        await check?.(page, calls);
      } catch (error) {
        throw new Error(`${(error as Error).message}; console: ${JSON.stringify(errors)}`, { cause: error });
      }
    }
    for (const method of await page.$$eval('svc-checkout[method]', (elements) =>
      elements.map((element) => element.getAttribute('method')),
    )) {
      const chosen = page.locator('svc-checkout input[name="method"]:checked');
      assert.equal(await chosen.count(), 1, 'the picker shows the methods, one of them chosen');
      assert.equal(await chosen.inputValue(), method, 'the picker preselects the method attribute');
    }
    assert.deepEqual(errors, [], 'no console error');
  } finally {
    await page.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// The tests of a part

/** The order the examples run in: the keys, then the sandbox config they make possible, then the rest. */
const runnable = [
  ...examples.filter((example) => example.kind === 'ts' && example.name === 'keys'),
  ...examples.filter((example) => example.kind === 'json'),
  ...examples.filter((example) => example.kind === 'ts' && example.name !== 'keys'),
];

const exportsOf = (example: Example): readonly string[] =>
  (example.name === undefined ? undefined : TS_CHECKS[example.name]?.exports) ?? [];

/** Runs a ts or json example and its check. */
async function runExample(example: Example): Promise<void> {
  if (example.kind === 'json') {
    const check = JSON_CHECKS[example.name!];
    assert.ok(check, `no check for the json example ${example.name}: add one to JSON_CHECKS`);
    await check(example);
    return;
  }
  const check = TS_CHECKS[example.name!];
  assert.ok(check, `no check for the ts example ${example.name}: add one to TS_CHECKS`);
  await check.before?.();
  await check.check(await run(example, exportsOf(example)));
}

/**
 * The tests of one part of the README, after `tests` (the file's own): its ts and json examples run in the
 * order of {@link runnable}, then its html pages (with their js), its sh commands and its listed commands.
 * When the part talks to the gateway, the keys and sandbox-config examples of other parts run first, in the
 * `before` hook, as they start it.
 */
export function describeExamples(part: ReadmePart, tests: () => void = () => {}): void {
  const own = (example: Example) => partOf(example) === part;
  describe(`${readmeName} examples`, () => {
    before(async () => {
      await setUp(exportsOf);
      if (!needsGateway(part)) return;
      const gateway = runnable.filter(
        (example) => (example.name === 'keys' || example.name === 'sandbox-config') && !own(example),
      );
      for (const example of gateway) await runExample(example);
    });

    after(tearDown);

    tests();

    for (const example of runnable.filter(own)) {
      test(`${where(example)} runs`, () => runExample(example));
    }

    for (const example of examples.filter((candidate) => candidate.kind === 'html' && own(candidate))) {
      test(`${where(example)} takes its order in Chromium`, () => runPage(example));
      for (const script of examples.filter((candidate) => candidate.after === example.name)) {
        test(`${where(script)} runs in the page of ${example.name}`, () => runPage(example, script));
      }
    }

    for (const example of examples.filter((candidate) => candidate.kind === 'sh' && own(candidate))) {
      test(`${where(example)} runs in a merchant's project`, async () => {
        for (const command of commandsOf(example)) {
          if (/^npx svc-sandbox\b/.test(command)) await runSandboxCommand(command);
          else assert.fail(`the test does not know how to run \`${command}\`; teach runSandboxCommand`);
        }
      });
    }

    for (const example of examples.filter(
      (candidate) => (candidate.kind === 'ci' || candidate.kind === 'scripts') && own(candidate),
    )) {
      test(`${where(example)} lists commands that exist (CI runs them)`, () => {
        for (const command of commandsOf(example)) checkListedCommand(command);
      });
    }
  });
}
