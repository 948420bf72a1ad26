/**
 * The sandbox's test helpers, for merchants' own tests that pay and fire events without a browser: in
 * process (`sandbox.testHelpers`) and over HTTP under `/sandbox/test-helpers/` (routes.ts). Sandbox only: the
 * real gateway has none of this, and a shop's production code must not call it.
 */
import type { SandboxClocks } from '../clock.js';
import type { SandboxConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import type { LegacyParts } from '../legacy/api.js';
import type { V1Parts } from '../v1/api.js';
import { type PayOrderInput, type PayOrderResult, payOrder } from './pay-order.js';
import { type PayPurchaseInput, type PayPurchaseResult, payPurchase } from './pay-purchase.js';
import { type TriggerInput, type TriggerResult, trigger } from './trigger.js';

/** Each throws a `TestHelperError` naming what to fix; a decline or a denied 3-D Secure is a result. */
export interface TestHelpers {
  /** Pays a signed legacy order as the payment frame would; the notification goes out as usual. */
  payOrder(input: PayOrderInput): Promise<PayOrderResult>;
  /** Pays a v1 Purchase by card or by a bank or wallet method, as its checkout page would. */
  payPurchase(input: PayPurchaseInput): Promise<PayPurchaseResult>;
  /** Fires a v1 event for an existing object by doing what causes it. */
  trigger(input: TriggerInput): Promise<TriggerResult>;
}

/** The sandbox's parts the helpers drive: the same objects its routes use. */
export interface TestHelperParts {
  legacy: LegacyParts;
  queue: DeliveryQueue;
  /** Test cards expire after the latest merchant's clock, so that they are valid on every merchant's. */
  clocks: Pick<SandboxClocks, 'latest'>;
  config: SandboxConfig;
  v1: V1Parts;
}

/** The helpers of one sandbox; `baseUrl` is its own URL, which checkout URLs in events name. */
export function createTestHelpers(parts: TestHelperParts, baseUrl: string): TestHelpers {
  return {
    payOrder: (input) => payOrder(legacyDeps(parts), input),
    payPurchase: async (input) => payPurchase(parts.v1, input, baseUrl, parts.clocks.latest()),
    trigger: async (input) => trigger(parts.v1, input, baseUrl, parts.clocks.latest()),
  };
}

export function legacyDeps(parts: TestHelperParts) {
  return {
    legacy: parts.legacy,
    queue: parts.queue,
    now: () => parts.clocks.latest(),
    notificationTimeoutMs: parts.config.notifications.timeoutMs,
  };
}
