/**
 * Legacy widget orders in the sandbox: intake with the signature or callback check, card payments with the
 * test cards, the 3-D Secure test challenge, cancellation, refunds, and the signed purchase notifications
 * that each ended attempt (PAID, FAILED) and each cancellation sends. A FAILED attempt leaves the order
 * payable: another card may pay it, and its own notification follows. Every state change and its
 * notification are written in one transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  cardSchemeOf,
  checkCardConstraints,
  validateCardNumber,
  validateCvc,
  validateExpiry,
} from '../core/card.js';
import type {
  LegacyOrderStatus,
  NotificationItem,
  NotificationPayment,
  NotificationShipping,
  PurchaseNotification,
  ShippingCostRequest,
  ShippingCostResponse,
} from '../core/legacy-callbacks.js';
import {
  isOrderRejectionReason,
  ORDER_REJECTION_REASONS,
  type OrderRejectionReason,
} from '../core/legacy-callbacks.js';
import type { MerchantApiV2Order } from '../core/merchant-api-v2-types.js';
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../core/money.js';
import { type Order, type OrderInput, parseOrder, parseTaxRate, type TaxRate } from '../core/order.js';
import { type OrderDefaults, type PricedOrder, priceOrder, shippingTaxRate } from '../core/totals.js';
import type {
  CreateOrderRequest,
  FixedOrderSummary,
  OrderState,
  OrderView,
  PaidReceipt,
  PaymentRequest,
  PaymentResult,
  ShippingQuote,
  ShippingQuoteRequest,
} from '../core/widget-api.js';
import { BoundedCache } from '../server/bounded-cache.js';
import { signBody, signOrderVerificationToken, verifyOrderSignature } from '../server/index.js';
import { certificateValidityError } from '../server/keys.js';
import type { MerchantConfig, PickupPoint, SandboxConfig, WidgetConfig } from './config.js';
import type { DeliveryQueue } from './delivery-queue.js';
import { HttpError } from './http.js';
import type { Store } from './store.js';
import { findTestCard } from './test-cards.js';
import {
  fraction,
  JsonNumber,
  money,
  netUnitAmount,
  quantity,
  type Written,
  writeJson,
} from './wire-json.js';

export interface CustomerData {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
}

export interface ShippingChoice {
  optionId: string;
  label: string;
  amount: MinorUnits;
  type: 'ADDRESS' | 'PICKUP_POINT';
  address: {
    city: string;
    address: string;
    postalCode: string;
    country: string | null;
    /** A pickup point's coordinates, when the config gives them. */
    latitude?: number;
    longitude?: number;
  } | null;
  pickupPoint: {
    externalId: string;
    name: string;
    comments: string | null;
    serviceHours: string | null;
  } | null;
  contactPhone: string | null;
}

export interface PaymentAttempt {
  id: string;
  at: string;
  cardLast4: string;
  /** The card's first 6 digits (absent on attempts stored before it was kept). */
  cardBin?: string;
  scheme: string;
  result: 'approved' | 'declined' | 'challenge' | 'processing_error';
  /** Why the attempt did not pay: a decline, a processing error, or a 3-D Secure step the customer denied. */
  error?: { code: string; message: string };
}

export interface Refund {
  id: string;
  amount: MinorUnits;
  reason: string;
  note: string;
  at: string;
}

/** What the sandbox keeps of one order. Card numbers are never kept: only the first six and last four digits. */
export interface OrderRecord {
  id: string;
  merchantId: string;
  widgetId: string;
  input: OrderInput;
  state: OrderState;
  createdAt: string;
  paidAt: string | null;
  customer: CustomerData;
  /** The latest price of each option priced by the merchant, with the pickup point it was asked for. */
  quotes: Record<string, { amount: MinorUnits; taxRate?: string; currency?: string; pickupPointId?: string }>;
  shipping: ShippingChoice | null;
  attempts: PaymentAttempt[];
  /** Idempotency keys of payment requests already answered, with the attempt they made. */
  idempotency: Record<string, string>;
  challengeId: string | null;
  /** The last payment attempt; `cardBin` is its card's first 6 digits (absent when no card was used). */
  payment: {
    method: string;
    reference: string;
    cardBin?: string;
    error?: { code: string; message: string };
  } | null;
  refunds: Refund[];
  /** A CALLBACK widget's order: where the merchant's decision stands. Absent on other orders. */
  verification?: OrderVerification;
}

/**
 * The merchant's decision on a CALLBACK widget's order. The order is kept from before the merchant is
 * asked, so that merchant API v2 can read it, and the widget API takes it only once it is APPROVED.
 * EXPIRED: no decision came in time (or the verification URL did not answer), and the intake was refused.
 */
export interface OrderVerification {
  status: 'PENDING' | 'APPROVED' | 'REJECTED' | 'EXPIRED';
  /** A rejection's reason, when the merchant gave one of {@link ORDER_REJECTION_REASONS}. */
  reasonCode?: OrderRejectionReason;
  /** How the decision came: the verification URL's answer, or merchant API v2 (`PUT` / `DELETE`). */
  via?: 'answer' | 'api';
  /** When the decision was taken, by the sandbox clock. */
  at?: string;
}

/**
 * The `kid` of the order verification token: the name of the sandbox's certificate, the file name it
 * downloads under (`GET /sandbox/service-certificate.pem` saves as `svc-sandbox.pem`).
 */
export const SERVICE_CERTIFICATE_NAME = 'svc-sandbox';

/**
 * A payment request as the widget API's route has read it (the wire's {@link PaymentRequest}): customer
 * fields left out or empty read as null, and the card holder as `''`.
 */
export interface PaymentIntake extends Omit<PaymentRequest, 'card' | 'customer'> {
  card: Required<PaymentRequest['card']>;
  customer?: Partial<CustomerData>;
}

export interface LegacyOrdersDeps {
  config: SandboxConfig;
  store: Store;
  queue: DeliveryQueue;
  servicePrivateKeyPem: string;
  /** Sends a signed request to a merchant URL and reads its answer (shipping cost, order verification). */
  callMerchant: (url: string, body: string, contentType: string) => Promise<{ status: number; body: string }>;
  now: () => Date;
}

/**
 * States in which the order takes no further payment. FAILED is not among them: a declined attempt leaves
 * the order payable, so the customer may try another card.
 */
const FINAL: ReadonlySet<OrderState> = new Set(['PAID', 'CANCELLED', 'REFUNDED', 'PARTIALLY_REFUNDED']);

function orderOf(input: OrderInput): Order {
  const { value, error } = parseOrder(input);
  if (error) throw error;
  return value;
}

export class LegacyOrders {
  private readonly orders;
  /** Stored orders keep the merchant's input, which never changes; reading it once per order is enough. */
  private readonly parsedOrders = new BoundedCache<string, Order>(10_000);
  /** The orders by widget and merchant order id, for intake and payments to find an order id's others. */
  private byOrderId: OrderIdIndex | undefined;
  /** Intakes waiting for the merchant's decision through merchant API v2, by gateway order id. */
  private readonly awaitingDecision = new Map<string, () => void>();

  constructor(private readonly deps: LegacyOrdersDeps) {
    this.orders = deps.store.collection<OrderRecord>('legacy-orders');
  }

  widget(widgetId: string): { merchant: MerchantConfig; widget: WidgetConfig } {
    for (const merchant of this.deps.config.merchants) {
      const widget = merchant.widgets.find((candidate) => candidate.id === widgetId);
      if (widget) return { merchant, widget };
    }
    throw new HttpError(
      404,
      'unknown_widget',
      `No widget ${JSON.stringify(widgetId)}; check the widget-id attribute`,
      'widgetId',
    );
  }

  merchant(merchantId: string): MerchantConfig {
    const merchant = this.deps.config.merchants.find((candidate) => candidate.id === merchantId);
    if (!merchant) throw new HttpError(404, 'unknown_merchant', `No merchant ${JSON.stringify(merchantId)}`);
    return merchant;
  }

  defaults(merchant: MerchantConfig): OrderDefaults {
    return {
      currency: merchant.defaults.currency,
      taxRate: parseTaxRate(merchant.defaults.taxRate, 'defaults.taxRate'),
    };
  }

  /** The priced fixed order of an INSTANT widget, for the frame to show before an order exists. */
  fixedOrderSummary(widgetId: string): FixedOrderSummary {
    const { merchant, widget } = this.widget(widgetId);
    if (widget.type !== 'INSTANT')
      throw new HttpError(400, 'not_fixed_price', 'Only fixed-price widgets have a fixed order');
    const priced = priceOrder(orderOf({ widgetId, ...widget.order }), this.defaults(merchant));
    return {
      currency: priced.currency,
      total: formatMinorUnits(priced.total),
      tax: formatMinorUnits(priced.tax),
      lines: priced.lines.map((line) => ({ label: line.label, total: formatMinorUnits(line.total) })),
    };
  }

  private order(record: OrderRecord): Order {
    let order = this.parsedOrders.get(record.id);
    if (!order) {
      order = orderOf(record.input);
      this.parsedOrders.set(record.id, order);
    }
    return order;
  }

  /** An order the widget API may act on: a CALLBACK widget's only once the merchant approved it. */
  get(id: string): OrderRecord {
    const record = this.orders.get(id);
    if (!record) throw new HttpError(404, 'unknown_order', `No order ${JSON.stringify(id)}`);
    if (record.verification !== undefined && record.verification.status !== 'APPROVED') {
      throw new HttpError(
        409,
        'order_not_approved',
        `Order ${JSON.stringify(id)} is not approved by the merchant (${record.verification.status}); it cannot be paid`,
      );
    }
    return record;
  }

  /** Orders of one merchant with the merchant's own order id (or the gateway id). */
  findForMerchant(merchantId: string, orderId: string): OrderRecord | undefined {
    const direct = this.orders.get(orderId);
    if (direct?.merchantId === merchantId) return direct;
    let refused: OrderRecord | undefined;
    for (const record of this.orders.values()) {
      if (record.merchantId !== merchantId || record.input.orderId !== orderId) continue;
      // A cart the merchant did not approve (or has not yet) is kept too; one that went on is the order.
      if (record.verification === undefined || record.verification.status === 'APPROVED') return record;
      refused ??= record;
    }
    return refused;
  }

  /**
   * Takes an order from a page: checks the page's origin, then the signature with the named certificate
   * (SIGNATURE widgets) before anything is stored. A CALLBACK widget's order is stored unpayable, then the
   * merchant is asked to decide on it ({@link askMerchantToApprove}). An order id the widget has taken before
   * is answered as `repeatedOrderId` says: a reload charges nothing.
   */
  async create(
    request: Omit<CreateOrderRequest, 'order' | 'customer'> & {
      /** Checked here: anything may arrive. */
      order: unknown;
      customer?: Partial<CustomerData>;
    },
  ): Promise<OrderRecord | PaidReceipt> {
    const raw = request.order;
    const widgetId =
      typeof raw === 'object' && raw !== null ? (raw as { widgetId?: unknown }).widgetId : undefined;
    if (typeof widgetId !== 'string')
      throw new HttpError(400, 'invalid_order', 'order.widgetId is required', 'order.widgetId');
    const { merchant, widget } = this.widget(widgetId);
    if (request.pageOrigin !== undefined && !merchant.allowedOrigins.includes(request.pageOrigin)) {
      throw new HttpError(
        403,
        'origin_not_allowed',
        `The page origin ${request.pageOrigin} is not among the merchant's allowed origins (the config's merchants[].allowedOrigins)`,
        'pageOrigin',
      );
    }
    const { value: parsed, error } = parseOrder(raw);
    if (error) {
      throw new HttpError(
        400,
        'invalid_order',
        error.message,
        error.issues[0] ? `order.${error.issues[0].path}` : 'order',
      );
    }
    let input = parsed.input;
    if (widget.type === 'INSTANT') {
      if (parsed.items.length > 0 || parsed.shippingOptions.length > 0) {
        throw new HttpError(
          400,
          'invalid_order',
          'A fixed-price widget takes its order from the gateway; give no items',
          'order.items',
        );
      }
      // The fixed order comes from the gateway; the page adds only what the merchant may set per page.
      const { language, orderId, backToMerchantUrl, successRedirectUrl } = parsed.input;
      input = {
        widgetId: widget.id,
        ...widget.order,
        ...(language !== undefined && { language }),
        ...(orderId !== undefined && { orderId }),
        ...(backToMerchantUrl !== undefined && { backToMerchantUrl }),
        // Not signed here (nothing is), but the notification's merchant_urls.confirmation names it.
        ...(successRedirectUrl !== undefined && { successRedirectUrl }),
      };
    } else {
      if (parsed.items.length === 0) {
        throw new HttpError(
          400,
          'invalid_order',
          'The order has no items; give amount and label, or an order with items',
          'order.items',
        );
      }
      if (!widget.collectCustomerData) {
        // Pricing later needs the customer's address, which only the full checkout collects.
        const unpriced = parsed.shippingOptions.findIndex((option) => option.amount === undefined);
        if (unpriced !== -1) {
          throw new HttpError(
            400,
            'invalid_order',
            `Shipping option ${parsed.shippingOptions[unpriced]!.id} has no amount; options priced later through the shipping cost URL need a full-checkout widget (collectCustomerData)`,
            `order.shippingOptions[${unpriced}].amount`,
          );
        }
      }
      // A pickup-point option could never be paid where no point can be chosen.
      const toPoint = parsed.shippingOptions.findIndex((option) => option.type === 'PICKUP_POINT');
      if (toPoint !== -1 && widget.pickupPoints.length === 0) {
        throw new HttpError(
          400,
          'invalid_order',
          `Shipping option ${parsed.shippingOptions[toPoint]!.id} has type PICKUP_POINT, but this widget offers no pickup points; use a full-checkout widget with pickup points, or type ADDRESS`,
          `order.shippingOptions[${toPoint}].type`,
        );
      }
      if (widget.validation === 'SIGNATURE')
        input = this.checkSignature(merchant, parsed.input, request.signature, request.certificateName);
    }
    const repeated = this.repeatedOrderId(widget, input);
    if (repeated.kind === 'order') return repeated.record;
    if (repeated.kind === 'receipt') return { receipt: true, state: 'PAID', orderId: repeated.orderId };
    const record: OrderRecord = {
      id: randomUUID(),
      merchantId: merchant.id,
      widgetId: widget.id,
      input,
      state: 'CREATED',
      createdAt: this.deps.now().toISOString(),
      paidAt: null,
      customer: {
        firstName: request.customer?.firstName ?? null,
        lastName: request.customer?.lastName ?? null,
        email: request.customer?.email ?? null,
        phone: request.customer?.phone ?? null,
      },
      quotes: {},
      shipping: null,
      attempts: [],
      idempotency: {},
      challengeId: null,
      payment: null,
      refunds: [],
    };
    const callback = widget.type !== 'INSTANT' && widget.validation === 'CALLBACK';
    if (callback) record.verification = { status: 'PENDING' };
    // Kept before the merchant is asked, who may read it through merchant API v2 meanwhile; `get` keeps it
    // from being paid until the merchant approves it.
    this.orders.put(record.id, record);
    this.byOrderId?.add(record);
    if (callback) {
      try {
        return await this.askMerchantToApprove(merchant, record);
      } catch (error) {
        // Another cart under a paid order id: the merchant said no, so the answer is why, and only that.
        if (repeated.paidBefore && error instanceof HttpError && error.code === 'order_rejected')
          throw orderAlreadyPaid(
            input.orderId!,
            "and the merchant's order verification URL did not approve another cart under it (a new payment needs a new order-id)",
            'order.orderId',
          );
        throw error;
      }
    }
    return record;
  }

  /**
   * How an intake naming an `order-id` that this widget has taken before is answered. The rule: an order id is
   * paid once per widget, unless the merchant approves another cart under it.
   * - `order`: a signed order with the same content gets that order back, in whatever state: the signature
   *   shows the page is the merchant's own page of that order, so a reload shows it paid (or mid-payment).
   * - `receipt`: an unsigned order (fixed-price or CALLBACK widget) whose content was paid under the order id
   *   gets the paid status alone. Anyone can send unsigned content naming any order id, so it gets no hold on
   *   the order (no gateway id) and learns nothing of it (no amounts, lines or shipping) beyond "paid".
   * - `new`: a new order. `paidBefore` when another cart was paid under the order id: a signature is the
   *   merchant's approval of the new cart; a CALLBACK widget asks the merchant's verification URL.
   * An unpaid earlier order is never handed to unsigned content: it gets a new order, and `paidTwin` keeps the
   * two from both being paid.
   */
  private repeatedOrderId(
    widget: WidgetConfig,
    input: OrderInput,
  ):
    | { kind: 'order'; record: OrderRecord }
    | { kind: 'receipt'; orderId: string }
    | { kind: 'new'; paidBefore: boolean } {
    const { orderId } = input;
    if (orderId === undefined) return { kind: 'new', paidBefore: false };
    const earlier = this.ordersWithOrderId(widget.id, orderId);
    const same = earlier.filter((record) => sameCharge(widget, record.input, input));
    if (isSigned(widget)) {
      const record = same.find(isPaid) ?? same[0];
      if (record) return { kind: 'order', record };
    } else if (same.some(isPaid)) return { kind: 'receipt', orderId };
    return { kind: 'new', paidBefore: earlier.some(isPaid) };
  }

  /**
   * Another order of the same widget, order id and content that is paid already: two payment forms opened for
   * one order before either was paid (two tabs, a reload mid-payment) must not both charge.
   */
  private paidTwin(widget: WidgetConfig, record: OrderRecord): OrderRecord | undefined {
    const { orderId } = record.input;
    if (orderId === undefined) return undefined;
    return this.ordersWithOrderId(widget.id, orderId).find(
      (other) => other.id !== record.id && isPaid(other) && sameCharge(widget, other.input, record.input),
    );
  }

  /** The widget's orders with this merchant order id, oldest first. */
  private ordersWithOrderId(widgetId: string, orderId: string): OrderRecord[] {
    this.byOrderId ??= new OrderIdIndex(this.orders.values());
    return this.byOrderId.ids(widgetId, orderId).flatMap((id) => this.orders.get(id) ?? []);
  }

  /**
   * Checks a SIGNATURE widget's order; returns the input as signed. The certificate name the page gives (the
   * order's `certificateName`, from `certificate-name`, or the request's own `certificateName`, which API
   * clients may send beside the order) is part of the signed input, and only that certificate may verify it.
   * Without one (the official client and the documentation's examples give none), any active certificate of
   * the merchant may: not revoked, and within its validity at the sandbox clock.
   */
  private checkSignature(
    merchant: MerchantConfig,
    input: OrderInput,
    signature?: string,
    requestCertificateName?: string,
  ): OrderInput {
    if (!signature)
      throw new HttpError(
        401,
        'signature_missing',
        'This widget takes signed orders; set the signature attribute',
        'signature',
      );
    const given = input.certificateName;
    if (given !== undefined && requestCertificateName !== undefined && given !== requestCertificateName) {
      throw new HttpError(
        400,
        'invalid_order',
        `order.certificateName ${JSON.stringify(given)} and certificateName ${JSON.stringify(requestCertificateName)} differ; give the certificate name once`,
        'order.certificateName',
      );
    }
    const certificateName = given ?? requestCertificateName;
    const signed = certificateName === undefined ? input : { ...input, certificateName };
    // Certificates expire (the console issues them for two years); the sandbox clock is the time of use.
    const now = this.deps.now();
    const refused = () =>
      new HttpError(
        401,
        'signature_invalid',
        `The signature does not match the order; sign exactly the attributes on the page with ${certificateName === undefined ? 'an active certificate' : 'the named certificate'}`,
        'signature',
      );
    if (certificateName === undefined) {
      const active = merchant.certificates.filter(
        (candidate) =>
          !candidate.revoked && !certificateValidityError(candidate.pem, { now, name: candidate.name }),
      );
      if (active.length === 0) {
        throw new HttpError(
          401,
          'certificate_missing',
          'The merchant has no active certificate (each is revoked or outside its validity); add one, or name one in certificate-name',
          'certificateName',
        );
      }
      if (!active.some((candidate) => verifyOrderSignature(signed, signature, candidate.pem, { now })))
        throw refused();
      return signed;
    }
    const certificate = merchant.certificates.find((candidate) => candidate.name === certificateName);
    if (!certificate) {
      throw new HttpError(
        401,
        'unknown_certificate',
        `The merchant has no certificate named ${JSON.stringify(certificateName)}`,
        'certificateName',
      );
    }
    if (certificate.revoked) {
      throw new HttpError(
        401,
        'certificate_revoked',
        `The certificate ${JSON.stringify(certificateName)} is revoked`,
        'certificateName',
      );
    }
    const outdated = certificateValidityError(certificate.pem, { now, name: certificate.name });
    if (outdated) throw new HttpError(401, outdated.code, outdated.message, 'certificateName');
    if (!verifyOrderSignature(signed, signature, certificate.pem, { now })) throw refused();
    return signed;
  }

  /**
   * Asks a CALLBACK widget's merchant about a kept order: posts the token to the order verification URL and
   * takes its answer's decision, or, when the answer (2xx) decides nothing, waits up to
   * `orderVerification.decisionTimeoutMs` for the merchant's approval or rejection through merchant API v2
   * ({@link decide}). The first decision stands. Resolves the approved order.
   * @throws HttpError 403 `order_rejected` (with the merchant's `reason`), 504 `verification_timeout`, 502
   *   `verification_unreachable`.
   */
  private async askMerchantToApprove(merchant: MerchantConfig, record: OrderRecord): Promise<OrderRecord> {
    const url = merchant.callbacks.orderVerificationUrl!;
    // The real service's token: `{kid, alg}` over `{orderId, externalOrderId}`, no `iat`.
    const token = signOrderVerificationToken(
      { orderId: record.id, externalOrderId: record.input.orderId ?? null },
      this.deps.servicePrivateKeyPem,
      { kid: SERVICE_CERTIFICATE_NAME },
    );
    // Registered before the merchant is asked: it may decide through merchant API v2 before it answers.
    const decided = new Promise<void>((resolve) => this.awaitingDecision.set(record.id, resolve));
    let detail = '';
    try {
      let answer: { status: number; body: string } | undefined;
      let unreachable: unknown;
      try {
        answer = await this.deps.callMerchant(url, token, 'application/jose');
      } catch (error) {
        unreachable = error;
      }
      if (this.verificationOf(record.id).status === 'PENDING') {
        if (answer === undefined) {
          this.settle(record.id, { status: 'EXPIRED' });
          throw new HttpError(
            502,
            'verification_unreachable',
            `The merchant's order verification URL did not answer: ${(unreachable as Error).message}`,
          );
        }
        const said = decisionOf(answer);
        if (said) {
          this.settle(record.id, { ...said.verification, via: 'answer' });
          detail = said.detail;
        } else await this.waitForDecision(record.id, decided);
      }
    } finally {
      this.awaitingDecision.delete(record.id);
    }
    const verification = this.verificationOf(record.id);
    if (verification.status !== 'APPROVED') {
      const reason = verification.reasonCode;
      throw new HttpError(
        403,
        'order_rejected',
        `The merchant did not approve this order${reason ? ` (${reason})` : ''}${detail}`,
        undefined,
        reason,
      );
    }
    return this.orders.get(record.id)!;
  }

  /**
   * Waits for a decision through merchant API v2 within the configured time (real time: it bounds how long
   * the customer's intake request stays open), then gives the order up.
   * @throws HttpError 504 `verification_timeout` when none came.
   */
  private async waitForDecision(id: string, decided: Promise<void>): Promise<void> {
    const { decisionTimeoutMs } = this.deps.config.orderVerification;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, decisionTimeoutMs);
      // A closing sandbox does not wait for a merchant that never decides.
      timer.unref();
    });
    await Promise.race([decided, late]);
    clearTimeout(timer);
    if (this.verificationOf(id).status !== 'PENDING') return;
    this.settle(id, { status: 'EXPIRED' });
    throw new HttpError(
      504,
      'verification_timeout',
      `The merchant's order verification URL answered without a decision, and no approval (PUT /v2/merchants/{merchant_id}/orders/${id}) or rejection (DELETE, with {reasonCode}) came within ${decisionTimeoutMs} ms (orderVerification.decisionTimeoutMs); nothing was charged`,
    );
  }

  /** Where the merchant's decision on an order stands; EXPIRED for an order that is not kept. */
  private verificationOf(id: string): OrderVerification {
    return this.orders.get(id)?.verification ?? { status: 'EXPIRED' };
  }

  private settle(id: string, verification: OrderVerification): void {
    this.orders.update(id, (current) => ({
      ...current,
      verification: { ...verification, at: this.deps.now().toISOString() },
    }));
  }

  /**
   * The merchant's decision on a CALLBACK widget's order through merchant API v2 (`PUT` approves, `DELETE`
   * rejects), while the order intake waits for it. A decision is taken once.
   * @throws HttpError 409 `order_not_awaiting_decision` (not a CALLBACK widget's order),
   *   `order_already_decided`, `verification_expired` (the intake gave up waiting, or the sandbox restarted).
   */
  decide(
    record: OrderRecord,
    decision: { approved: true } | { approved: false; reasonCode: OrderRejectionReason },
  ): OrderVerification {
    const { verification } = this.orders.get(record.id) ?? record;
    const name = JSON.stringify(record.id);
    if (verification === undefined) {
      throw new HttpError(
        409,
        'order_not_awaiting_decision',
        `Order ${name} is not a CALLBACK widget's order: only those await the merchant's approval or rejection`,
      );
    }
    if (verification.status === 'APPROVED' || verification.status === 'REJECTED') {
      const how =
        verification.status === 'APPROVED'
          ? 'approved'
          : `rejected${verification.reasonCode ? ` (${verification.reasonCode})` : ''}`;
      throw new HttpError(
        409,
        'order_already_decided',
        `Order ${name} was already ${how} ${verification.via === 'api' ? 'through merchant API v2' : "by the verification URL's answer"}; a decision is taken once`,
      );
    }
    const resume = this.awaitingDecision.get(record.id);
    if (verification.status === 'EXPIRED' || resume === undefined) {
      // PENDING with nobody waiting: the intake that asked ended with the sandbox process.
      if (verification.status === 'PENDING') this.settle(record.id, { status: 'EXPIRED' });
      throw new HttpError(
        409,
        'verification_expired',
        `Order ${name} no longer awaits a decision: no decision came within ${this.deps.config.orderVerification.decisionTimeoutMs} ms (orderVerification.decisionTimeoutMs), so the customer was refused; a new attempt makes a new order`,
      );
    }
    const decided: OrderVerification = decision.approved
      ? { status: 'APPROVED', via: 'api' }
      : { status: 'REJECTED', reasonCode: decision.reasonCode, via: 'api' };
    this.settle(record.id, decided);
    resume();
    return this.verificationOf(record.id);
  }

  view(record: OrderRecord): OrderView {
    const merchant = this.merchant(record.merchantId);
    const { widget } = this.widget(record.widgetId);
    const order = this.order(record);
    const priced = this.price(record, merchant);
    const last = record.payment?.error ?? null;
    return {
      id: record.id,
      state: record.state,
      orderId: record.input.orderId ?? null,
      currency: priced.currency,
      lines: priced.lines.map((line) => ({
        type: line.type,
        label: line.label,
        unitAmount: formatMinorUnits(line.unitAmount),
        count: line.count.text,
        unit: line.unit,
        taxRate: line.taxRate.text,
        total: formatMinorUnits(line.total),
        tax: formatMinorUnits(line.tax),
      })),
      total: formatMinorUnits(priced.total),
      tax: formatMinorUnits(priced.tax),
      shippingOptions: order.shippingOptions.map((option) => {
        const quote = quoteOf(record, option.id);
        const amount = option.amount ?? quote?.amount;
        const quotedRate = quote?.taxRate === undefined ? undefined : parseTaxRate(quote.taxRate);
        return {
          id: option.id,
          label: option.label ?? option.id,
          type: option.type,
          amount: amount === undefined ? null : formatMinorUnits(amount),
          taxRate: shippingTaxRate(option, this.defaults(merchant).taxRate, quotedRate).text,
        };
      }),
      constraints: order.constraints,
      collectCustomerData: widget.collectCustomerData,
      backToMerchantUrl: record.input.backToMerchantUrl ?? null,
      lastError: last,
      challengeId: record.state === 'CHALLENGE' ? record.challengeId : null,
    };
  }

  private price(record: OrderRecord, merchant: MerchantConfig): PricedOrder {
    const order = this.order(record);
    const defaults = this.defaults(merchant);
    if (!record.shipping) return priceOrder(order, defaults);
    const quote = quoteOf(record, record.shipping.optionId);
    return priceOrder(order, defaults, {
      id: record.shipping.optionId,
      label: record.shipping.label,
      amount: record.shipping.amount,
      ...(quote?.taxRate !== undefined && { taxRate: parseTaxRate(quote.taxRate) }),
    });
  }

  /**
   * Asks the merchant's shipping cost URL for the price of an option priced later, and keeps the quote. An
   * ADDRESS option is priced for the customer's address; a PICKUP_POINT option for the chosen point, whose
   * configured address (else empty strings) the request carries as its `address`.
   */
  async quoteShipping(id: string, request: ShippingQuoteRequest): Promise<ShippingQuote> {
    const record = this.get(id);
    this.assertPayable(record);
    const merchant = this.merchant(record.merchantId);
    const { widget } = this.widget(record.widgetId);
    const order = this.order(record);
    const option = findShippingOption(order, request.optionId, 'optionId');
    const pickup = destinationPoint(widget, option, request, '');
    if (option.type === 'ADDRESS' && request.address === undefined) {
      throw new HttpError(
        400,
        'address_required',
        `Shipping option ${option.id} delivers to an address; give address {address, city, postalCode} to price it`,
        'address',
      );
    }
    const currency = order.currency ?? merchant.defaults.currency;
    const defaultRate = this.defaults(merchant).taxRate;
    if (option.amount !== undefined) {
      const taxRate = shippingTaxRate(option, defaultRate).text;
      return { amount: formatMinorUnits(option.amount), currency, taxRate };
    }
    const url = merchant.callbacks.shippingCostUrl;
    if (!url)
      throw new HttpError(
        409,
        'no_shipping_cost_url',
        'The merchant has no shipping cost URL to price this option',
      );
    const address = pickup ? pickup.address : request.address;
    const costRequest: Written<ShippingCostRequest> = {
      order_id: record.id,
      // In the order's item order, so an item without an orderItemId (reference null) is told by its place.
      order_items: order.items.map((item) => ({
        reference: item.orderItemId ?? null,
        quantity: quantity(item.count),
      })),
      shipping_method_id: option.id,
      // Present in both cases, as the document says: a pickup point's own address when the config gives one.
      address: {
        city: address?.city ?? '',
        address: address?.address ?? '',
        postal_code: address?.postalCode ?? '',
      },
      ...(pickup && {
        pickup_point: {
          external_id: pickup.externalId,
          name: pickup.name,
          comments: pickup.comments ?? null,
          service_hours: pickup.serviceHours ?? null,
        },
      }),
    };
    const body = writeJson(costRequest);
    let answer: { status: number; body: string };
    try {
      answer = await this.deps.callMerchant(url, body, 'application/json');
    } catch (error) {
      throw new HttpError(
        502,
        'shipping_cost_unreachable',
        `The merchant's shipping cost URL did not answer: ${(error as Error).message}`,
      );
    }
    if (answer.status !== 200)
      throw new HttpError(
        502,
        'shipping_cost_refused',
        `The merchant's shipping cost URL answered ${answer.status}`,
      );
    let quote: ShippingCostResponse;
    let amount: MinorUnits;
    let quotedRate: TaxRate | undefined;
    try {
      quote = JSON.parse(answer.body) as ShippingCostResponse;
      amount = parseMinorUnits(quote.amount);
      if (amount < 0) throw new Error('negative amount');
      // Read now, so that a rate the order cannot be priced with is the merchant's error, not a later 500.
      quotedRate = quote.taxRate === undefined ? undefined : parseTaxRate(quote.taxRate, 'taxRate');
    } catch (error) {
      throw new HttpError(
        502,
        'shipping_cost_malformed',
        `The merchant's shipping cost answer is not {amount, taxRate?}: ${(error as Error).message}`,
      );
    }
    if (quote.currency !== undefined && quote.currency !== currency) {
      throw new HttpError(
        502,
        'shipping_cost_malformed',
        `The merchant quoted ${quote.currency} for an order in ${currency}`,
      );
    }
    this.orders.update(id, (current) => ({
      ...current,
      quotes: {
        ...current.quotes,
        [option.id]: {
          amount,
          ...(quotedRate !== undefined && { taxRate: quotedRate.text }),
          ...(pickup && { pickupPointId: pickup.externalId }),
        },
      },
    }));
    const taxRate = shippingTaxRate(option, defaultRate, quotedRate).text;
    return { amount: formatMinorUnits(amount), currency, taxRate };
  }

  private assertPayable(record: OrderRecord): void {
    if (FINAL.has(record.state)) {
      throw new HttpError(409, 'order_final', `The order is already ${record.state}`);
    }
  }

  /**
   * One card payment attempt, on a new order or on one whose earlier attempts failed. A repeated
   * idempotency key answers how its attempt ended, and a request for an order already final (or in a
   * 3-D Secure step) answers with the order's state; neither charges anything.
   */
  pay(id: string, request: PaymentIntake): PaymentResult {
    const record = this.get(id);
    // Own members only: a key such as `__proto__` or `toString` would otherwise find Object.prototype's.
    const earlier = Object.hasOwn(record.idempotency, request.idempotencyKey)
      ? record.idempotency[request.idempotencyKey]
      : undefined;
    if (earlier !== undefined) return this.repeatedResult(record, earlier);
    if (FINAL.has(record.state) || record.state === 'CHALLENGE') return this.result(record);

    const { widget } = this.widget(record.widgetId);
    if (this.paidTwin(widget, record))
      throw orderAlreadyPaid(record.input.orderId!, 'through another payment form opened for it');
    const order = this.order(record);
    // Only the widget's card schemes (by default Visa and Mastercard), whatever the frame let through.
    const number = validateCardNumber(request.card.number, { acceptedSchemes: widget.cardSchemes });
    if (!number.valid) {
      const message =
        number.code === 'scheme_not_accepted'
          ? `This widget takes only ${widget.cardSchemes.join(', ')} cards (its cardSchemes in the sandbox config); this card's scheme is ${cardSchemeOf(request.card.number)}`
          : number.message;
      throw new HttpError(400, `card_${number.code}`, message, 'card.number');
    }
    const expiry = validateExpiry(request.card.expiry, this.deps.now());
    if (!expiry.valid) throw new HttpError(400, `expiry_${expiry.code}`, expiry.message, 'card.expiry');
    const cvc = validateCvc(request.card.cvc, number.scheme);
    if (!cvc.valid) throw new HttpError(400, `cvc_${cvc.code}`, cvc.message, 'card.cvc');
    const card = findTestCard(number.number);
    if (!card) {
      throw new HttpError(
        400,
        'unknown_test_card',
        'The sandbox takes test cards only, such as 4111 1111 1111 1111 (see the README)',
        'card.number',
      );
    }
    const constraint = checkCardConstraints(
      { scheme: card.scheme, brand: card.brand, issuer: card.issuer },
      order.constraints,
    );
    if (!constraint.ok) throw new HttpError(400, 'card_not_accepted', constraint.message, 'card.number');

    const customer = { ...record.customer, ...definedOnly(request.customer ?? {}) };
    const shipping = this.shippingChoice(record, order, widget, request.shipping);
    if (widget.collectCustomerData) {
      for (const field of ['firstName', 'lastName', 'email'] as const) {
        if (!customer[field])
          throw new HttpError(400, 'customer_required', `customer.${field} is required`, `customer.${field}`);
      }
    }
    if (order.shippingOptions.length > 0 && !shipping) {
      throw new HttpError(400, 'shipping_required', 'Choose a shipping option', 'shipping.optionId');
    }

    const attempt: PaymentAttempt = {
      id: randomUUID(),
      at: this.deps.now().toISOString(),
      cardLast4: number.number.slice(-4),
      cardBin: number.number.slice(0, 6),
      scheme: card.scheme,
      result: card.outcome.kind,
      ...(card.outcome.kind === 'declined' || card.outcome.kind === 'processing_error'
        ? { error: { code: card.outcome.code, message: card.outcome.message } }
        : {}),
    };
    const updated: OrderRecord = {
      ...record,
      customer,
      shipping,
      attempts: [...record.attempts, attempt],
      idempotency: { ...record.idempotency, [request.idempotencyKey]: attempt.id },
    };
    // The real service's method of a card payment, whatever the scheme (the attempt keeps the scheme).
    const payment = { method: 'CARD', reference: attempt.id, cardBin: attempt.cardBin! };
    switch (card.outcome.kind) {
      case 'approved':
        return this.finish(updated, 'PAID', payment);
      case 'declined':
        return this.finish(updated, 'FAILED', { ...payment, error: attempt.error! });
      case 'challenge': {
        const challengeId = randomUUID();
        this.orders.put(id, { ...updated, state: 'CHALLENGE', challengeId, payment });
        return this.result(this.get(id));
      }
      case 'processing_error': {
        // Nothing ended: the state stays (CREATED, or FAILED after an earlier decline) and nobody is notified.
        const error = attempt.error!;
        this.orders.put(id, { ...updated, payment: { ...payment, error } });
        return { state: 'RETRY', order: this.view(this.get(id)), error };
      }
    }
  }

  /** The customer's answer to the 3-D Secure test challenge. */
  completeChallenge(id: string, challengeId: string, approve: boolean): PaymentResult {
    const record = this.get(id);
    if (record.state !== 'CHALLENGE' || record.challengeId !== challengeId) return this.result(record);
    const payment = record.payment!;
    // The same order paid meanwhile in another form: the approval comes too late to charge.
    const twin = approve && this.paidTwin(this.widget(record.widgetId).widget, record);
    if (approve && !twin) {
      const { error: _none, ...approved } = payment;
      return this.finish(record, 'PAID', approved);
    }
    const error = twin
      ? errorBody(orderAlreadyPaid(record.input.orderId!, 'through another payment form opened for it'))
      : { code: 'authentication_failed', message: 'The cardholder did not confirm the payment' };
    // The attempt keeps how it ended, for a repeat of its idempotency key.
    const attempts = record.attempts.map((attempt) =>
      attempt.id === payment.reference ? { ...attempt, error } : attempt,
    );
    return this.finish({ ...record, attempts }, 'FAILED', { ...payment, error });
  }

  cancel(id: string): PaymentResult {
    const record = this.get(id);
    if (FINAL.has(record.state)) return this.result(record);
    // The last card tried, if any, without its error: the cancellation is not that attempt's failure.
    const { error: _earlier, ...last } = record.payment ?? { method: 'CARD', reference: '' };
    return this.finish(record, 'CANCELLED', last);
  }

  /**
   * A refund through merchant API v2: never more than was paid, and the order's state follows. `amountField`
   * names the amount as the request wrote it (`refundRequest.amount`, or `amount` unwrapped).
   */
  refund(
    record: OrderRecord,
    request: { amount: MinorUnits; reason: string; note: string },
    amountField = 'refundRequest.amount',
  ): { refund: Refund; record: OrderRecord; refunded: MinorUnits; effective: MinorUnits } {
    if (record.state !== 'PAID' && record.state !== 'PARTIALLY_REFUNDED') {
      throw new HttpError(
        409,
        'not_refundable',
        `Only paid orders can be refunded; this one is ${record.state}`,
      );
    }
    const { total } = this.price(record, this.merchant(record.merchantId));
    const refundable = total - record.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    if (request.amount <= 0)
      throw new HttpError(400, 'invalid_amount', `${amountField} must be greater than 0`, amountField);
    if (request.amount > refundable) {
      throw new HttpError(
        409,
        'refund_exceeds_payment',
        `${amountField} ${formatMinorUnits(request.amount)} is more than the ${formatMinorUnits(refundable)} still refundable`,
        amountField,
      );
    }
    const refund: Refund = { id: randomUUID(), ...request, at: this.deps.now().toISOString() };
    const state: OrderState = request.amount === refundable ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const updated = { ...record, state, refunds: [...record.refunds, refund] };
    this.orders.put(record.id, updated);
    // What the real service answers: refunded so far, and what the order is still worth.
    const refunded = total - refundable + request.amount;
    return { refund, record: updated, refunded, effective: total - refunded };
  }

  /**
   * The order as merchant API v2's GET answers it: the notification's shape with the status and payment of
   * the last notification, and members of ours after it. Sent with `JSON.stringify`, so numbers go plain.
   */
  apiView(record: OrderRecord): Written<MerchantApiV2Order> {
    const merchant = this.merchant(record.merchantId);
    const model = this.orderModel(record, merchant, this.merchantStatus(record), lastPayment(record));
    return {
      ...model,
      refunded_amount: money(record.refunds.reduce((sum, refund) => sum + refund.amount, 0)),
      // What the gateway still holds of the payment is what may be refunded.
      refundable_amount: model.effective_amount,
      created_at: record.createdAt,
      paid_at: record.paidAt,
    };
  }

  private shippingChoice(
    record: OrderRecord,
    order: Order,
    widget: WidgetConfig,
    request: PaymentRequest['shipping'],
  ): ShippingChoice | null {
    if (!request) return record.shipping;
    const option = findShippingOption(order, request.optionId, 'shipping.optionId');
    const pickup = destinationPoint(widget, option, request, 'shipping.');
    const quote = quoteOf(record, option.id);
    // A point's price is the one quoted for that point: the customer may have asked for others since.
    const quoted = quote && quote.pickupPointId === pickup?.externalId ? quote.amount : undefined;
    const amount = option.amount ?? quoted;
    if (amount === undefined) {
      throw new HttpError(
        409,
        'shipping_not_priced',
        `Shipping option ${option.id} has no price yet${pickup ? ` for pickup point ${pickup.externalId}` : ''}; ask for a quote first`,
        'shipping.optionId',
      );
    }
    // A pickup point's delivery goes to the point's address (when the config gives one), never the customer's.
    const address = pickup ? pickup.address : request.address;
    return {
      optionId: option.id,
      label: option.label ?? option.id,
      amount,
      type: option.type,
      address: address
        ? {
            city: address.city,
            address: address.address,
            postalCode: address.postalCode,
            country: address.country ?? null,
            // Only a pickup point's configured address has coordinates; a customer types no coordinates.
            ...(pickup?.address?.latitude !== undefined && { latitude: pickup.address.latitude }),
            ...(pickup?.address?.longitude !== undefined && { longitude: pickup.address.longitude }),
          }
        : null,
      pickupPoint: pickup
        ? {
            externalId: pickup.externalId,
            name: pickup.name,
            comments: pickup.comments ?? null,
            serviceHours: pickup.serviceHours ?? null,
          }
        : null,
      contactPhone: request.contactPhone ?? null,
    };
  }

  /**
   * The order's status as merchant API v2 tells it: the status of the last notification. While another
   * card is in its 3-D Secure step after a decline, that is still FAILED; PENDING until an attempt ends.
   */
  private merchantStatus(record: OrderRecord): MerchantApiV2Order['status'] {
    if (record.state !== 'CREATED' && record.state !== 'CHALLENGE') return record.state;
    const failedBefore = record.attempts.some(
      (attempt) => attempt.error && attempt.result !== 'processing_error',
    );
    return failedBefore ? 'FAILED' : 'PENDING';
  }

  /**
   * What a repeated idempotency key answers: how its own attempt ended (a decline stays a decline even
   * after another card paid), with the order as it is now. An attempt without an error (approved, or
   * still in its 3-D Secure step) answers the order's state.
   */
  private repeatedResult(record: OrderRecord, attemptId: string): PaymentResult {
    const attempt = record.attempts.find((candidate) => candidate.id === attemptId);
    if (!attempt?.error) return this.result(record);
    const order = this.view(record);
    return attempt.result === 'processing_error'
      ? { state: 'RETRY', order, error: attempt.error }
      : { state: 'FAILED', order, error: attempt.error };
  }

  private result(record: OrderRecord): PaymentResult {
    const order = this.view(record);
    if (record.state === 'PAID' || record.state === 'REFUNDED' || record.state === 'PARTIALLY_REFUNDED')
      return { state: 'PAID', order };
    if (record.state === 'CHALLENGE') return { state: 'CHALLENGE', order, challengeId: record.challengeId! };
    if (record.state === 'CANCELLED') return { state: 'CANCELLED', order };
    const error = record.payment?.error ?? {
      code: record.state.toLowerCase(),
      message: `The order is ${record.state}`,
    };
    if (record.state === 'CREATED') return { state: 'RETRY', order, error };
    return { state: 'FAILED', order, error };
  }

  /**
   * Ends an attempt (PAID, or FAILED with the order still payable) or the order (CANCELLED), and queues
   * its signed notification, in one transaction. The queue delivers an order's notifications in order.
   */
  private finish(
    record: OrderRecord,
    state: 'PAID' | 'FAILED' | 'CANCELLED',
    payment: NonNullable<OrderRecord['payment']>,
  ): PaymentResult {
    const merchant = this.merchant(record.merchantId);
    const now = this.deps.now().toISOString();
    const updated: OrderRecord = {
      ...record,
      state,
      payment,
      challengeId: null,
      paidAt: state === 'PAID' ? now : record.paidAt,
    };
    // Written as the real service writes it (88.00, 1.000): the signature is over these exact bytes.
    const body = writeJson(this.notification(updated, merchant));
    this.deps.store.transaction(() => {
      this.orders.put(updated.id, updated);
      this.deps.queue.enqueue({
        key: updated.id,
        url: merchant.callbacks.notificationUrl,
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-svc-signature': signBody(body, this.deps.servicePrivateKeyPem),
        },
        body,
        acceptStatus: 'exactly-200',
      });
    });
    return this.result(updated);
  }

  /** The purchase notification of the attempt (or cancellation) that `record` has just ended. */
  notification(record: OrderRecord, merchant: MerchantConfig): Written<PurchaseNotification> {
    const status = record.state as LegacyOrderStatus;
    const paymentStatus = status === 'PAID' ? 'SUCCEEDED' : status === 'CANCELLED' ? 'CANCELLED' : 'FAILED';
    return this.orderModel(record, merchant, status, paymentOf(record.payment!, paymentStatus));
  }

  /**
   * The order in the real service's order model (its official client's `MerchantOrder`), members in its
   * order, money written with 2 decimals: what the notification and merchant API v2's GET share.
   */
  private orderModel<Status extends string, Payment>(
    record: OrderRecord,
    merchant: MerchantConfig,
    status: Status,
    payment: Payment,
  ) {
    const priced = this.price(record, merchant);
    const refunded = record.refunds.reduce((sum, refund) => sum + refund.amount, 0);
    const company = merchant.company;
    return {
      id: record.id,
      order_id: record.input.orderId ?? null,
      status,
      company: {
        name: company?.name ?? merchant.name,
        address: company?.address ?? null,
        registration_number: company?.registrationNumber ?? null,
        vat_number: company?.vatNumber ?? null,
      },
      customer: {
        email: record.customer.email,
        first_name: record.customer.firstName,
        last_name: record.customer.lastName,
        phone_number: record.customer.phone,
      },
      payment,
      amount: money(priced.total - priced.tax),
      tax_amount: money(priced.tax),
      total_amount: money(priced.total),
      effective_amount: money(isPaid(record) ? priced.total - refunded : 0),
      items: notificationItems(priced),
      currency: priced.currency,
      merchant_urls: {
        confirmation: record.input.successRedirectUrl ?? null,
        place_order: record.input.backToMerchantUrl ?? null,
        terms: merchant.callbacks.termsUrl,
        verification: merchant.callbacks.orderVerificationUrl ?? null,
      },
      shipping: record.shipping ? shippingModel(record.shipping, shippingDate(record)) : null,
    } satisfies Written<Omit<PurchaseNotification, 'status' | 'payment'>> & {
      status: Status;
      payment: Payment;
    };
  }
}

/**
 * The decision a 2xx verification answer gives: `{approved: true}`, or `{approved: false, reasonCode?}`
 * (a reason outside {@link ORDER_REJECTION_REASONS} is named in `detail` and not passed on). Undefined when
 * the answer decides nothing (no JSON object, or no `approved`): the merchant decides through merchant API
 * v2. Any other status, or an `approved` that is not a boolean, is a rejection, as an approval must be clear.
 */
function decisionOf(answer: {
  status: number;
  body: string;
}): { verification: OrderVerification; detail: string } | undefined {
  const rejected = (detail: string) => ({ verification: { status: 'REJECTED' as const }, detail });
  if (answer.status < 200 || answer.status > 299)
    return rejected(`: its verification URL answered ${answer.status}`);
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || !('approved' in body)) return undefined;
  // The shape of OrderVerificationAnswer, read from anything the merchant may send.
  const { approved, reasonCode } = body as { approved: unknown; reasonCode?: unknown };
  if (approved === true) return { verification: { status: 'APPROVED' }, detail: '' };
  if (approved !== false) return rejected(': "approved" in its answer is not true or false');
  if (reasonCode === undefined) return rejected('');
  if (!isOrderRejectionReason(reasonCode)) {
    return rejected(
      `: its reasonCode ${JSON.stringify(reasonCode)} is not one of ${ORDER_REJECTION_REASONS.join(', ')}`,
    );
  }
  return { verification: { status: 'REJECTED', reasonCode }, detail: '' };
}

function isPaid(record: OrderRecord): boolean {
  return record.state === 'PAID' || record.state === 'REFUNDED' || record.state === 'PARTIALLY_REFUNDED';
}

/** Whether the widget's orders come signed: only a signature proves an order is the merchant's page's. */
function isSigned(widget: WidgetConfig): boolean {
  return widget.type !== 'INSTANT' && widget.validation === 'SIGNATURE';
}

/**
 * Whether two orders of one widget charge for the same: always on a fixed-price widget (its order is the
 * gateway's), else when the merchant's content is the same. The language only says how the frame speaks,
 * and the certificate name which key signed it (a reload signed with a new certificate charges the same).
 */
function sameCharge(widget: WidgetConfig, a: OrderInput, b: OrderInput): boolean {
  if (widget.type === 'INSTANT') return true;
  const { language: _a, certificateName: _ca, ...contentA } = a;
  const { language: _b, certificateName: _cb, ...contentB } = b;
  return canonicalJson(contentA) === canonicalJson(contentB);
}

/** JSON with members in sorted order and undefined ones left out: equal content, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The refusal of a second payment under an order id already paid on the widget. It says "paid" and nothing
 * else of that order: whoever sent it may not be the customer who paid.
 */
function orderAlreadyPaid(orderId: string, how: string, field?: string): HttpError {
  return new HttpError(
    409,
    'order_already_paid',
    `Order ${JSON.stringify(orderId)} is already paid on this widget, ${how}; nothing was charged`,
    field,
  );
}

function errorBody(error: HttpError): { code: string; message: string } {
  return { code: error.code, message: error.message };
}

/** The widget's orders by merchant order id, oldest first, as gateway ids. */
class OrderIdIndex {
  private readonly byKey = new Map<string, string[]>();

  /** @param records in the order they were taken, as the store keeps them. */
  constructor(records: Iterable<OrderRecord>) {
    for (const record of records) this.add(record);
  }

  add(record: OrderRecord): void {
    const { orderId } = record.input;
    if (orderId === undefined) return;
    const key = `${record.widgetId}\u0000${orderId}`;
    const ids = this.byKey.get(key);
    if (ids) ids.push(record.id);
    else this.byKey.set(key, [record.id]);
  }

  ids(widgetId: string, orderId: string): readonly string[] {
    return this.byKey.get(`${widgetId}\u0000${orderId}`) ?? [];
  }
}

/** The quote kept for a shipping option: an own member only, whatever the option's id (`constructor`…). */
function quoteOf(record: OrderRecord, optionId: string): OrderRecord['quotes'][string] | undefined {
  return Object.hasOwn(record.quotes, optionId) ? record.quotes[optionId] : undefined;
}

/** The lines of a priced order as the notification (and merchant API v2) write them. */
function notificationItems(priced: PricedOrder): Written<NotificationItem>[] {
  return priced.lines.map((line) => ({
    amount: money(netUnitAmount(line.total, line.tax, line.count)),
    label: line.label,
    tax_amount: money(line.tax),
    total_amount: money(line.total),
    tax_rate: fraction(line.taxRate),
    order_item_id: line.orderItemId ?? null,
    quantity: quantity(line.count),
    unit: line.unit,
    // The widget's order says nothing of what an item is (physical or digital goods).
    type: line.type === 'SHIPPING' ? 'SHIPPING' : 'UNKNOWN',
  }));
}

/** A payment of the record as the notification writes it. */
function paymentOf(
  payment: NonNullable<OrderRecord['payment']>,
  status: NotificationPayment['status'],
): NotificationPayment {
  return {
    // Card payments are the only kind the widget takes; records kept before said VISA or MASTERCARD here.
    method: 'CARD',
    status,
    accountStatementReference: payment.reference
      ? `SVC-${payment.reference.slice(0, 8).toUpperCase()}`
      : null,
    card: payment.cardBin ? { bin: payment.cardBin } : null,
    error: payment.error ?? null,
  };
}

/**
 * The payment as the last notification told it: the paid or cancelled one, else the last attempt that
 * failed (one in its 3-D Secure step has not ended), else null.
 */
function lastPayment(record: OrderRecord): NotificationPayment | null {
  if (isPaid(record)) return paymentOf(record.payment!, 'SUCCEEDED');
  if (record.state === 'CANCELLED') return paymentOf(record.payment!, 'CANCELLED');
  const failed = record.attempts.findLast(
    (attempt) => attempt.error !== undefined && attempt.result !== 'processing_error',
  );
  if (!failed) return null;
  return paymentOf(
    {
      method: 'CARD',
      reference: failed.id,
      ...(failed.cardBin !== undefined && { cardBin: failed.cardBin }),
      ...(failed.error !== undefined && { error: failed.error }),
    },
    'FAILED',
  );
}

/**
 * The notification's `shipping.date`, `yyyy-MM-dd` in UTC: the widget asks for no preferred delivery date, so
 * it is the day of the payment (of the last attempt, for an order not paid).
 */
function shippingDate(record: OrderRecord): string {
  const at = record.paidAt ?? record.attempts.at(-1)?.at ?? record.createdAt;
  return at.slice(0, 10);
}

function shippingModel(shipping: ShippingChoice, date: string): Written<NotificationShipping> {
  const { address, pickupPoint } = shipping;
  const coordinate = (degrees: number | undefined) =>
    degrees === undefined ? null : new JsonNumber(String(degrees));
  return {
    type: shipping.type,
    date,
    method: { id: shipping.optionId, name: shipping.label },
    address: address
      ? {
          country: address.country,
          city: address.city,
          street: address.address,
          postal_code: address.postalCode,
          latitude: coordinate(address.latitude),
          longitude: coordinate(address.longitude),
        }
      : null,
    contact_phone: shipping.contactPhone,
    pickup_point: pickupPoint
      ? {
          name: pickupPoint.name,
          external_id: pickupPoint.externalId,
          comments: pickupPoint.comments,
          service_hours: pickupPoint.serviceHours,
        }
      : null,
  };
}

function findShippingOption(order: Order, id: string, field: string): Order['shippingOptions'][number] {
  const option = order.shippingOptions.find((candidate) => candidate.id === id);
  if (!option)
    throw new HttpError(400, 'unknown_shipping_option', `No shipping option ${JSON.stringify(id)}`, field);
  return option;
}

/**
 * The pickup point a delivery goes to, checked against the option's type: an ADDRESS option takes no point;
 * a PICKUP_POINT option needs one of the widget's points, and no address (the point is where it goes).
 * `prefix` is the request's path to the fields (`shipping.` in a payment).
 */
function destinationPoint(
  widget: WidgetConfig,
  option: Order['shippingOptions'][number],
  request: { address?: unknown; pickupPointId?: string | undefined },
  prefix: string,
): PickupPoint | undefined {
  if (option.type === 'ADDRESS') {
    if (request.pickupPointId === undefined) return undefined;
    throw new HttpError(
      400,
      'pickup_point_not_allowed',
      `Shipping option ${option.id} delivers to an address, not a pickup point; send no pickupPointId (or give the option type PICKUP_POINT)`,
      `${prefix}pickupPointId`,
    );
  }
  if (request.pickupPointId === undefined) {
    throw new HttpError(
      400,
      'pickup_point_required',
      `Shipping option ${option.id} delivers to a pickup point; choose one in pickupPointId`,
      `${prefix}pickupPointId`,
    );
  }
  if (request.address !== undefined) {
    throw new HttpError(
      400,
      'address_not_allowed',
      `Shipping option ${option.id} delivers to a pickup point; send pickupPointId and no address`,
      `${prefix}address`,
    );
  }
  return findPickupPoint(widget, request.pickupPointId, `${prefix}pickupPointId`);
}

function findPickupPoint(
  widget: WidgetConfig,
  id: string | undefined,
  field: string,
): PickupPoint | undefined {
  if (id === undefined) return undefined;
  const point = widget.pickupPoints.find((candidate) => candidate.externalId === id);
  if (!point)
    throw new HttpError(400, 'unknown_pickup_point', `No pickup point ${JSON.stringify(id)}`, field);
  return point;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as Partial<T>;
}
