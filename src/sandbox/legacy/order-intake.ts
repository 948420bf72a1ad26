/**
 * Orders from pages: the page's origin, the order itself, an INSTANT widget's fixed order, the signature of
 * a SIGNATURE widget's order (with the named or any active certificate), and what an order id the widget
 * has taken before gets. A CALLBACK widget's order goes on to the merchant's verification
 * ({@link OrderVerifier}).
 */
import { randomUUID } from 'node:crypto';
import { checkCardConstraints } from '../../core/card.js';
import { type OrderInput, parseOrder } from '../../core/order.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { CreateOrderRequest, PaidReceipt, SignatureDiagnosis } from '../../core/widget-api.js';
import { certificateValidityError, verifyOrderSignatureAsync } from '../../server/for-sandbox.js';
import { verifyOrderSignature } from '../../server/index.js';
import type { MerchantConfig, WidgetConfig } from '../config.js';
import { HttpError } from '../http.js';
import type { MerchantDirectory } from './merchant-directory.js';
import { type OrderBook, orderAlreadyPaid, sameCharge } from './order-book.js';
import { type CustomerData, isPaid, type OrderRecord } from './order-records.js';
import type { OrderVerifier } from './order-verification.js';
import { isPageOriginAllowed } from './page-origins.js';
import { diagnoseSignature } from './signature-diagnosis.js';

export interface OrderIntakeDeps {
  directory: MerchantDirectory;
  book: OrderBook;
  verifier: OrderVerifier;
  now: () => Date;
  /** Hears why a signature did not verify (the sandbox's log). */
  onSignatureMismatch?: (mismatch: {
    merchantId: string;
    widgetId: string;
    diagnosis: SignatureDiagnosis;
  }) => void;
}

export class OrderIntake {
  constructor(private readonly deps: OrderIntakeDeps) {}

  /**
   * Takes an order from a page: checks the page's origin, then the signature with the named certificate
   * (SIGNATURE widgets) before anything is stored. A CALLBACK widget's order is stored unpayable, then the
   * merchant is asked to decide on it ({@link OrderVerifier.askMerchantToApprove}). An order id the
   * widget has taken before is answered as `repeatedOrderId` says: a reload charges nothing.
   */
  async create(
    request: Omit<CreateOrderRequest, 'order' | 'customer'> & {
      /** Checked here: anything may arrive. */
      order: unknown;
      customer?: Partial<CustomerData>;
    },
  ): Promise<OrderRecord | PaidReceipt> {
    const raw = request.order;
    const widgetId = isPlainObject(raw) ? raw['widgetId'] : undefined;
    if (typeof widgetId !== 'string')
      throw new HttpError(400, 'invalid_order', 'order.widgetId is required', 'order.widgetId');
    const { merchant, widget } = this.deps.directory.widget(widgetId);
    if (request.pageOrigin !== undefined && !isPageOriginAllowed(merchant, request.pageOrigin)) {
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
      // A scheme constraint that none of the widget's schemes meets makes an order that no card can pay.
      const scheme = parsed.constraints.paymentScheme;
      if (
        scheme !== undefined &&
        !widget.cardSchemes.some(
          (taken) => checkCardConstraints({ scheme: taken }, { paymentScheme: scheme }).ok,
        )
      ) {
        throw new HttpError(
          400,
          'invalid_order',
          `constraints.paymentScheme ${JSON.stringify(scheme)} is none of the card schemes this widget takes (${widget.cardSchemes.join(', ')}), so no card could pay the order; name one of them, or leave it out`,
          'order.constraints.paymentScheme',
        );
      }
      if (widget.validation === 'SIGNATURE')
        input = await this.checkSignature(
          merchant,
          widget,
          parsed.input,
          request.signature,
          request.certificateName,
        );
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
    // Kept before the merchant is asked, who may read it through merchant API v2 meanwhile; `OrderBook.get`
    // keeps it from being paid until the merchant approves it.
    // The order as read above, unless its input changed since (a fixed-price order, a certificate name added).
    this.deps.book.add(record, input === parsed.input ? parsed : undefined);
    if (callback) {
      try {
        return await this.deps.verifier.askMerchantToApprove(merchant, record);
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
   * An unpaid earlier order is never handed to unsigned content: it gets a new order, and
   * `OrderBook.paidTwin` keeps the two from both being paid.
   */
  private repeatedOrderId(
    widget: WidgetConfig,
    input: OrderInput,
  ):
    | { kind: 'order'; record: OrderRecord }
    | { kind: 'receipt'; orderId: string }
    | { kind: 'new'; paidBefore: boolean } {
    const { orderId } = input;
    if (orderId == null) return { kind: 'new', paidBefore: false };
    const earlier = this.deps.book.ordersWithOrderId(widget.id, orderId);
    const same = earlier.filter((record) => sameCharge(widget, record.input, input));
    if (isSigned(widget)) {
      const record = same.find(isPaid) ?? same[0];
      if (record) return { kind: 'order', record };
    } else if (same.some(isPaid)) return { kind: 'receipt', orderId };
    return { kind: 'new', paidBefore: earlier.some(isPaid) };
  }

  /**
   * Checks a SIGNATURE widget's order; returns the input as signed. The certificate name the page gives (the
   * order's `certificateName`, from `certificate-name`, or the request's own `certificateName`, which API
   * clients may send beside the order) is part of the signed input, and only that certificate may verify it.
   * Without one (the official client and the documentation's examples give none), any active certificate of
   * the merchant may: not revoked, and within its validity at the sandbox clock. The RSA work runs on libuv's
   * thread pool (the event loop serves other requests meanwhile); nothing is stored before it is done.
   */
  private async checkSignature(
    merchant: MerchantConfig,
    widget: WidgetConfig,
    input: OrderInput,
    signature?: string,
    requestCertificateName?: string,
  ): Promise<OrderInput> {
    if (!signature)
      throw new HttpError(
        401,
        'signature_missing',
        'This widget takes signed orders; set the signature attribute',
        'signature',
      );
    // An empty name is none, as the signature input leaves it out (signOrder signs no name for it).
    const given = input.certificateName || undefined;
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
    // The production-like code, with the sandbox's diagnosis beside it in `details` and the log.
    const refused = (verifies: (candidate: OrderInput) => boolean) => {
      const diagnosis = diagnoseSignature(signed, verifies, merchant.defaults);
      this.deps.onSignatureMismatch?.({ merchantId: merchant.id, widgetId: widget.id, diagnosis });
      return new HttpError(
        401,
        'signature_invalid',
        `The signature does not match the order; sign exactly the attributes on the page with ${certificateName === undefined ? 'an active certificate' : 'the named certificate'}`,
        'signature',
        undefined,
        {},
        diagnosis,
      );
    };
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
      for (const certificate of active)
        if (await verifyOrderSignatureAsync(signed, signature, certificate.pem, { now })) return signed;
      throw refused((candidate) =>
        active.some((certificate) => verifyOrderSignature(candidate, signature, certificate.pem, { now })),
      );
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
    if (await verifyOrderSignatureAsync(signed, signature, certificate.pem, { now })) return signed;
    throw refused((candidate) => verifyOrderSignature(candidate, signature, certificate.pem, { now }));
  }
}

/** Whether the widget's orders come signed: only a signature proves an order is the merchant's page's. */
function isSigned(widget: WidgetConfig): boolean {
  return widget.type !== 'INSTANT' && widget.validation === 'SIGNATURE';
}
