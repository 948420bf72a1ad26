/**
 * `svc-checkout/server`: the merchant back end's toolkit for Node. Sign widget orders, verify the gateway's
 * signed callbacks, check a paid order against the order you signed (`verifyPaidOrder`), answer the callback
 * URLs, and call the signed merchant API v2; for the v1 interface, the typed client (`createV1Client`, every
 * Purchase operation and the wallet post) with `readFailureCause`, success-callback and webhook verification
 * with a duplicate detector, and the cached payment-methods lookup with its HTTP handler.
 */
export {
  type NoShipping,
  type NotificationShipping,
  ORDER_REJECTION_REASONS,
  type OrderRejectionReason,
  type OrderVerificationAnswer,
  type OrderVerificationPayload,
  type PurchaseNotification,
  type ShippingCostRequest,
  type ShippingCostResponse,
} from '../core/legacy-callbacks.js';
export {
  type MerchantApiV2Order,
  type MerchantApiV2OrderDecision,
  type MerchantApiV2Refund,
  REFUND_REASONS,
  type RefundReason,
} from '../core/merchant-api-v2-types.js';
// signOrder and verifyOrderSignature throw OrderValidationError, naming the field in its issues.
export {
  type OrderInput,
  type OrderIssue,
  type OrderIssueCode,
  OrderValidationError,
} from '../core/order.js';
// The order `<svc-checkout>` sends for its attributes, checked, for a server that renders the tag and signs
// exactly what it will carry; problems name the attribute to change.
export { orderFromAttributes } from '../core/order-attributes.js';
export {
  ORDER_ATTRIBUTE_NAMES,
  type OrderAttributeProperty,
  type OrderAttributes,
} from '../core/order-input-from-attributes.js';
export type {
  AddSubscriberAnswer,
  BankAccount,
  BillingPeriodUnits,
  BillingRequest,
  BillingTemplate,
  BillingTemplateClient,
  BillingTemplateClientPatch,
  BillingTemplateClientRequest,
  BillingTemplateClientSettings,
  BillingTemplateClientStatus,
  BillingTemplateRequest,
  CapturePurchaseRequest,
  CardTransactionExtra,
  ChargePurchaseRequest,
  Client,
  ClientDetails,
  ClientDetailsText,
  ClientRecurringToken,
  ClientRequest,
  CompanyBalance,
  CompanyBalanceAmounts,
  CompanyStatement,
  CompanyStatementFormat,
  CompanyStatementStatus,
  CreateCompanyStatementRequest,
  CreatePurchaseRequest,
  IssuerDetails,
  MarkAsPaidRequest,
  OutboxMessage,
  Payment,
  PaymentDetails,
  PayoutMethods,
  PayoutMethodsQuery,
  Purchase,
  PurchaseAttempt,
  PurchaseAttemptError,
  PurchaseAttemptType,
  PurchaseCallbackPayload,
  PurchaseClient,
  PurchaseDetails,
  PurchaseEventType,
  PurchaseProductDetails,
  PurchaseStatus,
  PurchaseStatusChange,
  PurchaseWebhookPayload,
  RefundAvailability,
  RefundPurchaseRequest,
  SubscriptionPeriod,
  TransactionData,
  TransactionExtra,
  TransactionProduct,
  V1EventType,
  V1Page,
  V1PublicKey,
  WalletBPaymentAnswer,
  WalletMethod,
  WalletPaymentFailure,
  Webhook,
  WebhookDeliveriesQuery,
  WebhookDelivery,
  WebhookEventType,
  WebhookRequest,
  WebhookSourceType,
} from '../core/v1-types.js';
export {
  type CacheStore,
  CacheStoreFullError,
  MemoryCacheStore,
  type MemoryCacheStoreOptions,
} from './cache-store.js';
export {
  createEventDeduplicator,
  type DeduplicatedEvent,
  type EventClaim,
  type EventDeduplicator,
  EventDeduplicatorError,
  type EventDeduplicatorErrorCode,
  type EventDeduplicatorOptions,
  type OnceResult,
  v1EventKey,
  v1EventTime,
} from './event-deduplicator.js';
export {
  type FetchHandler,
  type HandlerOptions,
  type NodeHandler,
  type NodeHandlerOptions,
  toNodeHandler,
} from './handlers.js';
export {
  type CertificateInfo,
  CertificateValidityError,
  type CertificateValidityErrorCode,
  type CertificateValidityOptions,
  certificateInfo,
  checkCertificateValidity,
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
  type CheckoutElementExtras,
  type CheckoutElementHtmlOptions,
  type CheckoutElementOptions,
  CheckoutMarkupError,
  type CheckoutMarkupErrorCode,
  checkoutElementAttributes,
  checkoutElementHtml,
  type DeclaredFrameOptions,
} from './legacy/checkout-markup.js';
export {
  createConnectionTestHandler,
  createOrderVerificationHandler,
  createShippingCostHandler,
  type OrderVerificationHandlerOptions,
  type ShippingCostHandlerOptions,
} from './legacy/handlers.js';
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
} from './legacy/http-signature.js';
export {
  createMerchantApiV2Client,
  MerchantApiError,
  type MerchantApiErrorCode,
  type MerchantApiErrorDetails,
  type MerchantApiV2Answer,
  type MerchantApiV2CallOptions,
  type MerchantApiV2Client,
  type MerchantApiV2ClientOptions,
  type MerchantApiV2DecisionResult,
  type MerchantApiV2RefundOptions,
  type MerchantApiV2RefundResult,
  type RefundInput,
} from './legacy/merchant-api-v2.js';
export {
  createNotificationReceiver,
  type NotificationReceiver,
  type NotificationReceiverOptions,
  type NotificationReceiverOutcome,
  type RefusedPaidOrder,
  type VerifiedPaidOrder,
} from './legacy/notification-receiver.js';
export { constructPurchaseNotification, type PurchaseNotificationOptions } from './legacy/notifications.js';
export {
  type SignOrderVerificationTokenOptions,
  signOrderVerificationToken,
  type VerifyOrderVerificationTokenOptions,
  verifyOrderVerificationToken,
} from './legacy/order-verification-token.js';
export {
  type ExpectedPaidOrder,
  type PaidOrderDefaults,
  type PaidOrderMismatchCode,
  type PaidOrderVerification,
  verifyPaidOrder,
} from './legacy/paid-order.js';
export {
  type BufferedRequest,
  DEFAULT_MAX_BODY_BYTES,
  type HeadersLike,
  type IncomingRequest,
  RequestBodyError,
  type RequestBodyErrorCode,
} from './raw-request.js';
export type {
  DeliveryRepeatOutcome,
  FastifyInstanceLike,
  FastifyReceiverOptions,
  FastifyReceiverPlugin,
  FastifyReplyLike,
  ReceiverAnswer,
  ReceiverLogger,
  ReceiverMounts,
} from './receiver-mounts.js';
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
  type VerifySignatureOptions,
  verifyOrderSignature,
  verifySignature,
} from './signatures.js';
export {
  refusalStatus,
  SignatureVerificationError,
  type SignatureVerificationErrorCode,
  SVC_SIGNATURE_HEADER,
  type VerifySignedRequestOptions,
  verifySignedRequest,
} from './signed-request.js';
export {
  constructSuccessCallback,
  constructWebhookEvent,
  type PaymentRefundedEvent,
  V1_SIGNATURE_HEADER,
  type V1CallbackOptions,
  type V1WebhookEvent,
} from './v1/callbacks.js';
export { createV1Client, type V1Client, type V1ClientOptions } from './v1/client.js';
export type { V1QueryValue, V1RequestOptions } from './v1/client-core.js';
export {
  normalizeV1ErrorBody,
  V1ApiError,
  type V1ApiErrorCode,
  type V1ApiErrorDetails,
  type V1FieldError,
} from './v1/errors.js';
export { type PurchaseFailureCause, readFailureCause } from './v1/failure-cause.js';
export { type FetchV1Page, type PaginateOptions, paginate, type V1List } from './v1/pagination.js';
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
  type StoreOutageEvent,
} from './v1/payment-methods-cache.js';
export {
  createPaymentMethodsHandler,
  PAYMENT_METHODS_PARAMETERS,
  type PaymentMethodsHandlerOptions,
  type PaymentMethodsParameter,
} from './v1/payment-methods-handler.js';
export {
  createSuccessCallbackReceiver,
  createWebhookReceiver,
  type SuccessCallbackHandlers,
  type SuccessCallbackReceiverOptions,
  type V1Receiver,
  type V1ReceiverOptions,
  type V1ReceiverOutcome,
  type V1WebhookEventOf,
  type V1WebhookHandlers,
  type WebhookReceiverOptions,
} from './v1/receivers.js';
export type { V1Billing } from './v1/resources/billing.js';
export type { V1BillingTemplates } from './v1/resources/billing-templates.js';
export type { V1Clients } from './v1/resources/clients.js';
export type { V1Statements } from './v1/resources/company-statements.js';
export type { V1Purchases } from './v1/resources/purchases.js';
export type { V1Wallets, WalletPayment, WalletPaymentResult } from './v1/resources/wallets.js';
export type { V1Webhooks } from './v1/resources/webhooks.js';
export type { V1StatementDownload, V1StatementWaitOptions } from './v1/statements.js';
