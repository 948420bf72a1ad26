/**
 * What the demo's v1 test files share: the test's own client of the gateway, the merchant's v1 back end, and
 * orders of the shop's cart asked for and paid over HTTP, as the checkout page and the hosted page send them.
 */
import assert from 'node:assert/strict';
import type { V1PaymentMode } from '../../../demo/merchant/v1-cart.js';
import { type CreatedPurchase, V1_PATHS } from '../../../demo/merchant/v1-shop.js';
import { DEMO_V1_SECRET_KEY } from '../../../src/sandbox/index.js';
import { createV1Client, type V1Client } from '../../../src/server/index.js';
import type { DemoInBrowser } from './demo-env.js';
import { request } from './merchant-server.js';

export interface V1Demo {
  /** The test's own client of the gateway, to see the gateway's side (Purchases, Clients, deliveries). */
  gateway(): V1Client;
  /** The merchant's v1 side; the demo always has one. */
  backEnd(): NonNullable<DemoInBrowser['demo']['merchant']['v1']>;
  /** An order of the shop's cart (34.90 EUR), for the customer with `email`, asked for as the checkout page asks. */
  newOrder(mode: V1PaymentMode, email?: string): Promise<CreatedPurchase>;
  /**
   * The gateway's record of the Purchase's webhooks: one delivery of each of `events`, in this order, answered
   * 200 at its first attempt.
   */
  assertDeliveredOnce(purchaseId: string, events: readonly string[]): Promise<void>;
}

/** The v1 sides of the demo that `env` starts; call it at the top of the file, beside `demoInBrowser()`. */
export function v1Demo(env: DemoInBrowser): V1Demo {
  let client: V1Client | undefined;
  const gateway = () => {
    client ??= createV1Client({ baseUrl: env.demo.gatewayUrl, secretKey: DEMO_V1_SECRET_KEY });
    return client;
  };
  return {
    gateway,
    backEnd() {
      const v1 = env.demo.merchant.v1;
      assert.ok(v1, 'the demo merchant serves v1');
      return v1;
    },
    async newOrder(mode, email) {
      const created = await request(`${env.demo.shopUrl}${V1_PATHS.purchase}`, 'POST', {
        mode,
        ...(email !== undefined && { email }),
      });
      assert.equal(created.status, 201, created.text);
      return created.body as unknown as CreatedPurchase;
    },
    async assertDeliveredOnce(purchaseId, events) {
      const deliveries = await gateway()
        .webhooks.deliveries({ id: purchaseId, source_type: 'purchase' })
        .toArray();
      assert.deepEqual(
        deliveries.map((delivery) => [delivery.event, delivery.attempts, delivery.status]),
        events.map((event) => [event, 1, 'delivered']),
      );
      for (const delivery of deliveries) {
        const attempts = delivery.delivery_attempts as Array<{ status_code: number | null }>;
        assert.deepEqual(
          attempts.map((attempt) => attempt.status_code),
          [200],
        );
      }
    },
  };
}

/** Pays an order with a card as the hosted page's form posts it. */
export async function payOnHostedPage(order: CreatedPurchase, card: string): Promise<void> {
  const paid = await fetch(new URL('pay', order.checkoutUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      method: 'card',
      card_number: card,
      card_expiry: '12/34',
      card_cvc: '123',
      card_holder: 'Test Buyer',
    }),
    redirect: 'manual',
  });
  assert.equal(paid.status, 303, await paid.text());
}
