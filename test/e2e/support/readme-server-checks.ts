/**
 * What the README's server toolkit examples must have done ("The server toolkit: `svc-checkout/server`",
 * readme-server.test.ts): notifications and callbacks that arrive and verify, the merchant API v2, and the v1
 * REST interface's purchases, clients, billing, statements, wallets and cached payment methods.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createMerchantApiV2Client,
  type OrderInput,
  orderSignatureInput,
  type Payment,
} from '../../../src/server/index.js';
import { payInCheckout } from '../../../src/testing/index.js';
import { launchBrowser } from './browser.js';
import { clientId, provide, tokenId } from './readme-prelude.js';
import {
  type Checks,
  checkedOutPurchase,
  consoleErrors,
  createOrder,
  env,
  eventually,
  formsShown,
  json,
  merchant,
  merchantV1,
  paidOrder,
  payOnHostedPage,
  project,
} from './readme-run.js';

export const SERVER_CHECKS: Checks = {
  runsFirst: ['keys', 'sandbox-config'],
  ts: {
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
        assert.ok(
          !env.paid.some((paid) => paid.orderId === 'FORGED-1'),
          'a forged notification marks nothing',
        );

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
    'checkout-markup': {
      async check() {
        env.browser ??= await launchBrowser();
        const page = await env.browser.newPage();
        const errors = consoleErrors(page);
        try {
          // The example's page names no icon; the shop has none to serve.
          await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
          await page.goto(`${env.shopUrl}/checkout/tea?email=${encodeURIComponent('anna@example.com')}`);
          await formsShown(page, errors, false);
          // The browser reads the values back as signed: the gateway took the signature, and they are these.
          const read = await page.evaluate(`(() => {
            const element = document.querySelector('svc-checkout');
            return {
              backToMerchantUrl: element.getAttribute('back-to-merchant-url'),
              email: element.getAttribute('email'),
              label: JSON.parse(element.getAttribute('order')).items[0].label,
            };
          })()`);
          assert.deepEqual(read, {
            backToMerchantUrl: 'https://shop.example/cart?from=checkout&step=2',
            email: 'anna@example.com',
            label: 'Tea "Earl Grey" & <milk>',
          });
          const outcome = await payInCheckout(page);
          assert.equal(outcome.outcome, 'paid');
          assert.deepEqual(errors, [], 'no console error');
        } finally {
          await page.close();
        }
      },
    },
    'checkout-markup-declared': {
      async check() {
        env.browser ??= await launchBrowser();
        const page = await env.browser.newPage();
        const errors = consoleErrors(page);
        // The frame's documents the page loads: the declared one, adopted by the element, and no other.
        const frames: string[] = [];
        page.on('request', (request) => {
          if (request.resourceType() === 'document' && request.url().includes('/widget/frame/'))
            frames.push(request.url());
        });
        try {
          await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
          await page.goto(`${env.shopUrl}/checkout/tea-now`);
          await formsShown(page, errors, false);
          const outcome = await payInCheckout(page);
          assert.equal(outcome.outcome, 'paid');
          assert.equal(frames.length, 1, `one frame document: ${frames.join(', ')}`);
          assert.deepEqual(errors, [], 'no console error');
        } finally {
          await page.close();
        }
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
        const created = purchase as {
          client_id: string;
          force_recurring: boolean;
          client: { email: string };
        };
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
  },
};
