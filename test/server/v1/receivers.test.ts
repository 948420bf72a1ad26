/**
 * createSuccessCallbackReceiver and createWebhookReceiver against the sandbox: a Purchase paid on the hosted
 * form over HTTP sends a success callback and a webhook; each reaches its typed handler once, a throwing
 * handler is delivered again, and a forged body is refused.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  createSuccessCallbackReceiver,
  createWebhookReceiver,
  type PurchaseCallbackPayload,
  type ReceiverLogger,
  type V1Client,
  type V1WebhookEventOf,
  type V1WebhookHandlers,
} from '../../../src/server/index.js';
import { type FakeMerchant, until } from '../../sandbox/support.js';
import { FUTURE_EXPIRY, V1, withV1Sandbox } from '../../sandbox/v1/support.js';
import { listen } from '../support.js';

const started = withV1Sandbox();
let merchant: FakeMerchant;
let sandbox: Sandbox;
let v1: V1Client;
before(async () => ({ merchant, sandbox, client: v1 } = await started.ready));

describe('v1 receivers', () => {
  test('a paid Purchase reaches the success callback and webhook handlers once each, typed per event', async () => {
    const lines: string[] = [];
    const logger: ReceiverLogger = {
      info: (line) => lines.push(line),
      warn: (line) => lines.push(line),
      error: (line) => lines.push(line),
    };
    const successes: PurchaseCallbackPayload[] = [];
    const webhooks: Array<V1WebhookEventOf<'purchase.paid'>> = [];
    let successCalls = 0;
    let failOnce = true;
    const success = createSuccessCallbackReceiver({
      companyPublicKeyPem: await v1.publicKey(),
      brandId: V1.brandId,
      logger,
      on: {
        'purchase.paid': (purchase) => {
          successCalls += 1;
          if (failOnce) {
            failOnce = false;
            throw new Error('not now');
          }
          successes.push(purchase);
        },
      },
    });
    let webhookKey = '';
    let webhook: ReturnType<typeof createWebhookReceiver> | undefined;
    const server = await listen((req, res) =>
      req.url === '/success' ? success.node(req, res) : webhook!.node(req, res),
    );
    try {
      const created = await v1.webhooks.create({
        title: 'paid',
        callback: `${server.url}/webhook`,
        events: ['purchase.paid'],
      });
      webhookKey = created.public_key;
      webhook = createWebhookReceiver({
        webhookPublicKeyPem: webhookKey,
        brandId: V1.brandId,
        logger,
        on: {
          'purchase.paid': (purchase) => {
            // Typed for its event: a Purchase, whose event_type is this one.
            const type: 'purchase.paid' = purchase.event_type;
            assert.equal(type, 'purchase.paid');
            webhooks.push(purchase);
          },
          'payment.refunded': (payment) => {
            assert.fail(`no refund was made: ${payment.id}`);
          },
        },
      });
      const purchase = await v1.purchases.create({
        brand_id: V1.brandId,
        purchase: { products: [{ name: 'Tea', price: 1250, quantity: 2 }], language: 'en' },
        success_callback: `${server.url}/success`,
        success_redirect: 'https://shop.example/ok',
      });
      const form = await fetch(new URL(`/checkout/${purchase.id}/pay`, sandbox.url), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          method: 'card',
          card_number: '4111 1111 1111 1111',
          card_expiry: FUTURE_EXPIRY,
          card_cvc: '123',
          card_holder: 'Anna Tester',
        }).toString(),
        redirect: 'manual',
      });
      assert.equal(form.status, 303);
      await until(
        () => successes.length === 1 && webhooks.length === 1,
        () =>
          `handled: ${successes.length} callbacks, ${webhooks.length} webhooks; log ${JSON.stringify(lines)}`,
      );
      assert.equal(successes[0]!.id, purchase.id);
      assert.equal(successes[0]!.status, 'paid');
      assert.equal(webhooks[0]!.id, purchase.id);
      assert.equal(successCalls, 2, 'the throwing handler was answered 500 and delivered again');
      assert.ok(
        lines.some((line) =>
          /success callback receiver: handler_failed \(answered 500\): the purchase\.paid handler threw .*not now/.test(
            line,
          ),
        ),
        JSON.stringify(lines),
      );

      // A forged body, and the genuine one sent again, straight to the receiver.
      const forged = await success.handle({
        rawBody: JSON.stringify({ ...successes[0], status: 'paid' }),
        headers: { 'x-signature': 'AAAA' },
      });
      assert.deepEqual([forged.status, forged.outcome], [401, 'signature_invalid']);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(successes.length, 1);
      assert.equal(webhooks.length, 1);
    } finally {
      await server.close();
    }
  });

  test("types each handler for its event: a Purchase for purchase.*, the refund's Payment for payment.refunded", () => {
    const seen: string[] = [];
    const on: V1WebhookHandlers = {
      'purchase.paid': (purchase) => {
        seen.push(purchase.checkout_url);
      },
      'payment.refunded': (payment) => {
        const type: 'payment.refunded' = payment.event_type;
        // @ts-expect-error a refund's Payment is no Purchase: it has no checkout_url
        seen.push(type, payment.checkout_url);
      },
    };
    assert.deepEqual(Object.keys(on), ['purchase.paid', 'payment.refunded']);
  });

  test('refuses an `on` map with a misspelt event or a handler that is no function', async () => {
    const companyPublicKeyPem = await v1.publicKey();
    assert.throws(
      () =>
        createSuccessCallbackReceiver({
          companyPublicKeyPem,
          brandId: V1.brandId,
          on: { 'purchase.paid': 'yes' as never },
        }),
      /createSuccessCallbackReceiver.*on/,
    );
    assert.throws(
      () =>
        createWebhookReceiver({
          webhookPublicKeyPem: companyPublicKeyPem,
          brandId: V1.brandId,
          on: { paid: () => undefined } as never,
        }),
      /createWebhookReceiver.*on/,
    );
  });
});
