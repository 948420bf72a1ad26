/**
 * The order's intake, as the payment frame runs it on the element's `init`: the order must be for the
 * frame's own widget; then the gateway checks and keeps it (its signature, or the merchant's order
 * verification) while the texts of init's language and the parts of the form that the order shows load beside
 * it. It ends in what the frame does next, which the frame carries out: it tells the element and shows it.
 */
import type {
  ElementToFrameMessage,
  FrameMessages,
  FrameToElementMessage,
  Unenveloped,
} from '../core/index.js';
import type { OrderView, PaidReceipt } from '../core/widget-api.js';
import { loadFormParts } from './form-parts.js';
import { type IntakeError, intakeErrorOf, rejectionTextKey } from './intake-errors.js';
import type { Phase } from './payment-flow.js';
import type { ApiResult, WidgetApiClient } from './widget-api-client.js';

/** The element's `init`: the order and what comes with it. */
export type Init = Extract<ElementToFrameMessage, { type: 'init' }>;

/** How an intake ended. */
export type IntakeOutcome =
  /** The widget cannot take a payment of this order: the element is told why, and shows it. */
  | { kind: 'error'; error: IntakeError }
  /**
   * The merchant's order verification rejected the order: the page hears it first (`message`), so that it is
   * not taken for a payment attempt, then the customer reads why (`phase`).
   */
  | {
      kind: 'rejected';
      message: Unenveloped<Extract<FrameToElementMessage, { type: 'rejected' }>>;
      phase: Extract<Phase, { kind: 'rejected' }>;
    }
  /** The gateway took the order, and the form's parts that it shows have loaded; or it had ended before. */
  | { kind: 'taken'; order: OrderView | PaidReceipt };

/** What the intake needs of the frame. */
export interface IntakeFrame {
  api: WidgetApiClient;
  /** The widget the frame was opened for. */
  widgetId: string;
  /** The merchant page's exact origin, which the gateway checks against the widget's allowed origins. */
  pageOrigin: string;
  /** Shows the texts of init's language (resolves once they show, or the ones shown stay). */
  showLanguage(): Promise<void>;
  /** The texts the frame shows. */
  catalog(): FrameMessages;
}

/** Has the gateway take the order of `init`. */
export async function takeOrder(init: Init, frame: IntakeFrame): Promise<IntakeOutcome> {
  if (init.order.widgetId !== frame.widgetId) {
    return {
      kind: 'error',
      error: {
        code: 'invalid_order',
        message: `order.widgetId ${JSON.stringify(init.order.widgetId)} is not this frame's widget ${JSON.stringify(frame.widgetId)}`,
        field: 'order.widgetId',
      },
    };
  }
  // An order with shipping options shows the delivery fields: they load while the gateway takes it.
  const { shippingOptions } = init.order;
  if (Array.isArray(shippingOptions) && shippingOptions.length > 0) {
    void loadFormParts({ customer: false, delivery: true });
  }
  // Init's language loads while the gateway takes the order (the frame shows the bootstrap's meanwhile).
  const [created] = await Promise.all([
    frame.api.createOrder({
      order: init.order,
      ...(init.signature !== undefined && { signature: init.signature }),
      ...(init.certificateName !== undefined && { certificateName: init.certificateName }),
      pageOrigin: frame.pageOrigin,
      customer: init.customer,
    }),
    frame.showLanguage(),
  ]);
  if (created.kind !== 'ok') {
    const rejected = rejectionTextKey(created, frame.catalog());
    if (!rejected) return { kind: 'error', error: intakeErrorOf(created) };
    // The merchant said why: the customer reads it, with the way back when the page gave its URL.
    const { message, reason } = (created as Extract<ApiResult<unknown>, { kind: 'http-error' }>).error;
    return {
      kind: 'rejected',
      message: { type: 'rejected', message, ...(reason && { reason }) },
      phase: { kind: 'rejected', reason: rejected, back: Boolean(init.order.backToMerchantUrl) },
    };
  }
  // The parts of the form that this order shows (most began to load when the widget or init named them).
  const order = created.value;
  if (!('receipt' in order)) {
    const customer = order.collectCustomerData;
    if (!(await loadFormParts({ customer, delivery: order.shippingOptions.length > 0 }))) {
      return {
        kind: 'error',
        error: { code: 'gateway_unreachable', message: 'The payment form could not load its fields' },
      };
    }
  }
  return { kind: 'taken', order };
}
