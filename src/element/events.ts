/**
 * The events `<svc-checkout>` dispatches on itself. The two of the legacy document keep its names exactly
 * (`paymentCompleted`, `navigateBackToCart`); `checkoutError` is ours and follows the same naming. All
 * bubble and are composed, so a listener on `document` or on a shadow root above the element hears them.
 * None carries card data: the frame never sends any (the channel's message types have no place for it).
 */
import type { WidgetErrorCode } from '../core/frame-channel.js';
import type { OrderRejectionReason } from '../core/legacy-callbacks.js';

/** `paymentCompleted`'s detail: the outcome of the payment, just before the frame shows its status screen. */
export interface PaymentCompletedDetail {
  /** The gateway's order id: the purchase notification's `id` and merchant API v2's `{order_id}`. */
  readonly orderId: string;
  /** The page's `order-id` attribute (or the order JSON's `orderId`), or `null` when the page gave none. */
  readonly merchantOrderId: string | null;
  /** `true` when the payment was collected; `false` when it failed. */
  readonly paymentSucceeded: boolean;
}

/**
 * The payment succeeded or failed. Fired once, when the payment ends while the form is open: a form that
 * opens on an order that had already ended (after a reload, or when the element was moved) shows its status
 * without firing it again. The outcome for fulfilment is the purchase notification to the merchant's back
 * end, which is signed; this event is for the page (for example, to empty the cart).
 * Cancelable: when the payment succeeded and the order has a `success-redirect-url`, the element goes there
 * once the listeners have run, unless one calls `preventDefault()` (a single-page app routes by itself).
 */
export class PaymentCompletedEvent extends CustomEvent<PaymentCompletedDetail> {
  static readonly eventName = 'paymentCompleted';

  constructor(detail: PaymentCompletedDetail) {
    super(PaymentCompletedEvent.eventName, { detail, bubbles: true, composed: true, cancelable: true });
  }
}

/** `navigateBackToCart`'s detail: where the element goes unless a listener calls `preventDefault()`. */
export interface NavigateBackToCartDetail {
  /**
   * The `back-to-merchant-url` of the order in the frame (absolute or relative to the page, as the page wrote
   * it), or `null` when the page gave none (the element then goes nowhere).
   */
  readonly backToMerchantUrl: string | null;
}

/**
 * The customer pressed the back-to-merchant button on the failed or cancelled screen. Cancelable: unless a
 * listener calls `preventDefault()`, the element goes to `detail.backToMerchantUrl` when it is not `null`.
 * A single-page app cancels it and routes by itself.
 */
export class NavigateBackToCartEvent extends CustomEvent<NavigateBackToCartDetail> {
  static readonly eventName = 'navigateBackToCart';

  constructor(detail: NavigateBackToCartDetail) {
    super(NavigateBackToCartEvent.eventName, { detail, bubbles: true, composed: true, cancelable: true });
  }
}

/**
 * What a `checkoutError` can point at: the attribute the merchant changes in the page to fix it, or the
 * script method (`addOrderItem`, `addShippingOption`) whose item or shipping option the gateway refused.
 * In v1 mode, `checkout-url`. For `order_locked`, the (first) attribute whose change was refused.
 */
export type CheckoutAttribute =
  | 'widget-id'
  | 'gateway'
  | 'order'
  | 'order-id'
  | 'language'
  | 'back-to-merchant-url'
  | 'success-redirect-url'
  | 'amount'
  | 'currency'
  | 'label'
  | 'tax-rate'
  | 'count'
  | 'unit'
  | 'signature'
  | 'certificate-name'
  | 'email'
  | 'phone'
  | 'first-name'
  | 'last-name'
  | 'addOrderItem'
  | 'addShippingOption'
  | 'checkout-url'
  | 'card-layout'
  | 'cardholder-name';

/**
 * Why `checkoutError` fired: a code of the frame channel (the widget cannot take a payment), or the element's
 * own `order_locked` (the page changed the order after a payment attempt began; the change was refused and
 * the widget keeps working on the order it has). The frame never sends `order_locked`.
 */
export type CheckoutErrorCode = WidgetErrorCode | 'order_locked';

/** `checkoutError`'s detail. */
export interface CheckoutErrorDetail {
  /** Why the widget cannot take a payment, or `order_locked` for a refused change. */
  readonly code: CheckoutErrorCode;
  /** For the developer: what went wrong and what to change (the customer sees a translated text). */
  readonly message: string;
  /** The attribute to fix (or the script method whose item or option was refused), when one is to blame. */
  readonly attribute?: CheckoutAttribute;
  /**
   * With `order_rejected` from a CALLBACK widget's order verification: the merchant's reason, which the
   * frame shows the customer in words (the element keeps the frame; change the order to try again).
   */
  readonly reason?: OrderRejectionReason;
}

/**
 * The widget cannot take a payment: it is set up wrong (no `widget-id`, an invalid order, a refused
 * signature, ...) or the gateway cannot be reached. The element shows its error view instead of the form.
 * With code `order_locked` the page changed the order after a payment attempt began: the change is refused,
 * and the form stays, on the order it has (no error view).
 */
export class CheckoutErrorEvent extends CustomEvent<CheckoutErrorDetail> {
  static readonly eventName = 'checkoutError';

  constructor(detail: CheckoutErrorDetail) {
    super(CheckoutErrorEvent.eventName, { detail, bubbles: true, composed: true });
  }
}
