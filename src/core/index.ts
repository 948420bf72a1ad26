/**
 * svc-checkout core: what every part shares. Pure TypeScript: no DOM, no Node.
 */

export * from './appearance.js';
export * from './appearance-messages.js';
export * from './card.js';
export * from './card-messages.js';
export { decimalText, type ExactDecimal, parseDecimal } from './decimal.js';
export * from './design-token-names.js';
export * from './design-tokens.js';
export * from './errors.js';
export * from './frame-channel.js';
export * from './i18n.js';
export type * from './legacy-callbacks.js';
export * from './money.js';
export * from './order.js';
export * from './order-attributes.js';
export * from './payment-method-groups.js';
export * from './signature-input.js';
export * from './totals.js';
export * from './v1-types.js';
