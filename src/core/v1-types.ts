/**
 * Wire types of the gateway's v1 REST interface (`spec/gateway-rest-api-v1.md`), shared by the server
 * toolkit's v1 client and the sandbox, so both read and write the same shapes. Member names are the wire's
 * (`snake_case`). Where the document leaves something open, the choice the sandbox makes is named in the
 * member's comment; members the document does not name are optional and say so, since the real gateway may
 * not send them, except those of the platform's Purchase, Payment and ClientDetails, which its webhook payloads
 * and SDK models show it always sends.
 *
 * One file per resource in `v1/`; this module names them all, so that a reader of the wire imports one place.
 */

export type * from './v1/balance-and-statements.js';
export type * from './v1/billing.js';
export type * from './v1/clients.js';
export * from './v1/errors.js';
export type * from './v1/list-page.js';
export type * from './v1/payment.js';
export type * from './v1/payment-methods.js';
export type * from './v1/purchase.js';
export type * from './v1/purchase-requests.js';
export type * from './v1/success-callbacks.js';
export type * from './v1/wallet-payments.js';
export type * from './v1/webhooks.js';
