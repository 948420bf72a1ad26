/**
 * `svc-checkout/server`: the merchant back end's toolkit for Node. Sign widget orders, verify the gateway's
 * signed callbacks, answer the callback URLs, and call the signed merchant API v2.
 */
export type {
  OrderVerificationPayload,
  PurchaseNotification,
  ShippingCostRequest,
  ShippingCostResponse,
} from '../core/legacy-callbacks.js';
export type { MerchantApiV2Order, MerchantApiV2Refund } from '../core/merchant-api-v2-types.js';
export type { OrderInput } from '../core/order.js';
export {
  type CacheStore,
  MemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache-store.js';
export {
  createConnectionTestHandler,
  createOrderVerificationHandler,
  createShippingCostHandler,
  type FetchHandler,
  type HandlerOptions,
  type NodeHandler,
  type NodeHandlerOptions,
  type OrderVerificationHandlerOptions,
  type ShippingCostHandlerOptions,
  toNodeHandler,
} from './handlers.js';
export {
  type HttpRequestToSign,
  type HttpRequestToVerify,
  type HttpSignatureAlgorithm,
  type HttpSignatureAlgorithmName,
  type HttpSignatureFailureCode,
  type HttpSignatureVerification,
  type HttpSigningKey,
  httpSignatureAlgorithm,
  type SignedHttpHeaders,
  signHttpRequest,
  type VerifyHttpSignatureOptions,
  verifyHttpSignature,
} from './http-signature.js';
export {
  type CertificateInfo,
  certificateInfo,
  createSelfSignedCertificate,
  generateMerchantKeyPair,
  importPrivateKey,
  importPublicKey,
  KeyFormatError,
  type KeyFormatErrorCode,
  type MerchantKeyPair,
  type SelfSignedCertificateOptions,
} from './keys.js';
export {
  createMerchantApiV2Client,
  MerchantApiError,
  type MerchantApiErrorCode,
  type MerchantApiV2Client,
  type MerchantApiV2ClientOptions,
  type RefundInput,
} from './merchant-api-v2.js';
export { constructPurchaseNotification, type PurchaseNotificationOptions } from './notifications.js';
export {
  signOrderVerificationToken,
  type VerifyOrderVerificationTokenOptions,
  verifyOrderVerificationToken,
} from './order-verification-token.js';
export {
  type FetchPaymentMethods,
  normalizePaymentMethodsQuery,
  type PaymentMethods,
  PaymentMethodsCache,
  PaymentMethodsCacheError,
  type PaymentMethodsCacheErrorCode,
  type PaymentMethodsCacheOptions,
  type PaymentMethodsLookup,
  type PaymentMethodsQuery,
  paymentMethodsQueryKey,
  type RefreshFailure,
} from './payment-methods-cache.js';
export {
  createPaymentMethodsHandler,
  PAYMENT_METHODS_PARAMETERS,
  type PaymentMethodsHandlerOptions,
  type PaymentMethodsParameter,
} from './payment-methods-handler.js';
export {
  type BufferedRequest,
  DEFAULT_MAX_BODY_BYTES,
  type HeadersLike,
  type IncomingRequest,
  RequestBodyError,
  type RequestBodyErrorCode,
} from './raw-request.js';
export {
  createRedisCacheStore,
  type IoRedisClientLike,
  type NodeRedisClientLike,
  type RedisClientLike,
  type RedisCommand,
} from './redis-cache-store.js';
export {
  orderSignatureInput,
  signBody,
  signOrder,
  type VerifyOrderSignatureOptions,
  verifyOrderSignature,
  verifySignature,
} from './signatures.js';
export {
  SignatureVerificationError,
  type SignatureVerificationErrorCode,
  SVC_SIGNATURE_HEADER,
  type VerifySignedRequestOptions,
  verifySignedRequest,
} from './signed-request.js';
