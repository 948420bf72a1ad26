/**
 * Legacy widget orders in the sandbox: intake with the signature or callback check, card payments with the
 * test cards, the 3-D Secure test challenge, cancellation, refunds, and the signed purchase notifications
 * that each ended attempt (PAID, FAILED) and each cancellation sends. A FAILED attempt leaves the order
 * payable: another card may pay it, and its own notification follows. Every state change and its
 * notification are written in one transaction.
 *
 * This is what the routes (widget-api.ts, widget-pages.ts, merchant-api-v2.ts) hold; the work is done in
 * `legacy/`, one job per file:
 * - `order-records.ts`: what is kept of an order, and the payment request as the route read it;
 * - `merchant-directory.ts`: merchants and widgets of the config;
 * - `order-book.ts`: the kept orders, found, read and priced, and the once-per-order-id rule;
 * - `order-intake.ts`: orders from pages, with the signature check;
 * - `order-verification.ts`: a CALLBACK widget's order verification and the merchant's decision;
 * - `shipping-options.ts`: shipping quotes from the merchant and the customer's choice;
 * - `payment-machine.ts`: card attempts, 3-D Secure, cancellation, refunds, each with its notification;
 * - `order-views.ts`: the widget API's view, the notification's body and merchant API v2's order.
 */
import type { MerchantApiV2Order } from '../../core/merchant-api-v2-types.js';
import type { MinorUnits } from '../../core/money.js';
import type {
  FixedOrderSummary,
  OrderView,
  PaidReceipt,
  PaymentResult,
  ShippingQuote,
  ShippingQuoteRequest,
} from '../../core/widget-api.js';
import type { TestAcquirer } from '../acquirer.js';
import type { SandboxClocks } from '../clock.js';
import type { MerchantConfig, SandboxConfig, WidgetConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { MerchantDirectory } from './merchant-directory.js';
import { OrderBook } from './order-book.js';
import { OrderIntake, type OrderIntakeDeps } from './order-intake.js';
import type {
  CallMerchant,
  OrderRecord,
  OrderVerification,
  PaymentIntake,
  Refund,
} from './order-records.js';
import { OrderVerifier } from './order-verification.js';
import { OrderViews } from './order-views.js';
import { PaymentMachine } from './payment-machine.js';
import { ShippingQuotes } from './shipping-options.js';
import type { Store } from '../store.js';
import type { Written } from '../wire-json.js';

/** The types the routes read requests into. */
export type { CustomerData, PaymentIntake } from './order-records.js';

export interface LegacyOrdersDeps {
  config: SandboxConfig;
  store: Store;
  queue: DeliveryQueue;
  servicePrivateKeyPem: string;
  /** Sends a signed request to a merchant URL and reads its answer (shipping cost, order verification). */
  callMerchant: CallMerchant;
  acquirer: TestAcquirer;
  /** Payments are dated on their merchant's clock. */
  clocks: SandboxClocks;
  /** Real time: checks of what the merchant's own clock wrote (certificates, tokens). */
  now: () => Date;
  /** {@link OrderIntakeDeps.onSignatureMismatch} */
  onSignatureMismatch?: OrderIntakeDeps['onSignatureMismatch'];
}

export class LegacyOrders {
  private readonly directory: MerchantDirectory;
  private readonly book: OrderBook;
  private readonly verifier: OrderVerifier;
  private readonly intake: OrderIntake;
  private readonly views: OrderViews;
  private readonly shipping: ShippingQuotes;
  private readonly payments: PaymentMachine;

  constructor(deps: LegacyOrdersDeps) {
    const { config, store, queue, servicePrivateKeyPem, callMerchant, acquirer, clocks, now } = deps;
    const directory = new MerchantDirectory(config);
    const book = new OrderBook(store);
    const verifier = new OrderVerifier({ config, book, servicePrivateKeyPem, callMerchant, now });
    const views = new OrderViews({ directory, book });
    this.directory = directory;
    this.book = book;
    this.verifier = verifier;
    this.intake = new OrderIntake({
      directory,
      book,
      verifier,
      now,
      ...(deps.onSignatureMismatch && { onSignatureMismatch: deps.onSignatureMismatch }),
    });
    this.views = views;
    this.shipping = new ShippingQuotes({ directory, book, callMerchant });
    this.payments = new PaymentMachine({
      directory,
      book,
      views,
      store,
      queue,
      acquirer,
      servicePrivateKeyPem,
      now: (merchantId) => clocks.for(merchantId).now(),
    });
  }

  /** {@link MerchantDirectory.widget} */
  widget(widgetId: string): { merchant: MerchantConfig; widget: WidgetConfig } {
    return this.directory.widget(widgetId);
  }

  /** {@link MerchantDirectory.merchant} */
  merchant(merchantId: string): MerchantConfig {
    return this.directory.merchant(merchantId);
  }

  /** {@link MerchantDirectory.fixedOrderSummary} */
  fixedOrderSummary(widgetId: string): FixedOrderSummary {
    return this.directory.fixedOrderSummary(widgetId);
  }

  /** {@link OrderBook.merchantOf} */
  merchantOf(id: string): string | undefined {
    return this.book.merchantOf(id);
  }

  /** {@link OrderBook.get} */
  get(id: string): OrderRecord {
    return this.book.get(id);
  }

  /** {@link OrderBook.findForMerchant} */
  findForMerchant(merchantId: string, orderId: string): OrderRecord | undefined {
    return this.book.findForMerchant(merchantId, orderId);
  }

  /** {@link OrderIntake.create} */
  create(request: Parameters<OrderIntake['create']>[0]): Promise<OrderRecord | PaidReceipt> {
    return this.intake.create(request);
  }

  /** {@link OrderVerifier.decide} */
  decide(record: OrderRecord, decision: Parameters<OrderVerifier['decide']>[1]): OrderVerification {
    return this.verifier.decide(record, decision);
  }

  /** {@link ShippingQuotes.quote} */
  quoteShipping(id: string, request: ShippingQuoteRequest): Promise<ShippingQuote> {
    return this.shipping.quote(id, request);
  }

  /** {@link PaymentMachine.pay} */
  pay(id: string, request: PaymentIntake): PaymentResult {
    return this.payments.pay(id, request);
  }

  /** {@link PaymentMachine.completeChallenge} */
  completeChallenge(id: string, challengeId: string, approve: boolean): PaymentResult {
    return this.payments.completeChallenge(id, challengeId, approve);
  }

  /** {@link PaymentMachine.cancel} */
  cancel(id: string): PaymentResult {
    return this.payments.cancel(id);
  }

  /** {@link PaymentMachine.refund} */
  refund(
    record: OrderRecord,
    request: { amount: MinorUnits; reason: string; note: string },
    amountField?: string,
  ): { refund: Refund; record: OrderRecord; refunded: MinorUnits; effective: MinorUnits } {
    return this.payments.refund(record, request, amountField);
  }

  /** {@link OrderViews.view} */
  view(record: OrderRecord): OrderView {
    return this.views.view(record);
  }

  /** {@link OrderViews.apiView} */
  apiView(record: OrderRecord): Written<MerchantApiV2Order> {
    return this.views.apiView(record);
  }
}
