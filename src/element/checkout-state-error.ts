import { SvcError } from '../core/errors.js';

/**
 * Why a call of the script interface came at the wrong time:
 * - `order_already_sent`: `addOrderItem` / `addShippingOption` after the element started (the order it
 *   sends is fixed then, since it is what was signed);
 * - `already_initialized`: a second `init()`, or `init()` after a non-lazy element started by itself.
 */
export type CheckoutStateErrorCode = 'order_already_sent' | 'already_initialized';

/** Thrown by `<svc-checkout>`'s script interface when called in the wrong state; nothing is changed then. */
export class CheckoutStateError extends SvcError<CheckoutStateErrorCode> {}
