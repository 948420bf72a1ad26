/**
 * `<svc-checkout>`'s v1 mode, which the element imports on demand when it has a `checkout-url`: the gateway's
 * script serves it as a file of its own (`/widget/svc-checkout-v1.js`) beside the legacy widget, which pages
 * without `checkout-url` never download.
 */
export { PaymentMethodPicker, type PickerControls, type PickerHost } from './payment-method-picker.js';
