/**
 * The fields of the form that only some orders show, each a chunk of its own beside the card form's first
 * chunk (frame.js), imported as soon as the frame learns that the order shows them: the customer's contact
 * fields in the full checkout, the delivery fields when the order has shipping options.
 *
 * The full checkout (and a fixed order with shipping options) has a first chunk of its own, frame-checkout.js,
 * with both built in: vite.config.ts builds it with form-parts.eager.ts in place of this module, so that its
 * page load is one file rather than three (each file is compressed on its own: split, it would cost about
 * 1.4 KB gzip more).
 */

/** Which parts an order shows. */
export interface FormParts {
  /** The customer's contact fields (`<svc-customer-fields>`): the full checkout. */
  customer: boolean;
  /** The shipping choice and delivery address (`<svc-delivery-fields>`): an order with shipping options. */
  delivery: boolean;
}

/** Imports the parts, each once; resolves false when one did not load. */
export type LoadFormParts = (parts: FormParts) => Promise<boolean>;

/** Imports the chunks of the parts asked for. */
export const loadFormParts: LoadFormParts = async ({ customer, delivery }) => {
  try {
    // The browser imports each module once; a second call waits for the same import.
    await Promise.all([
      customer && import('./customer-fields.js'),
      delivery && import('./delivery-fields.js'),
    ]);
    return true;
  } catch {
    return false;
  }
};
