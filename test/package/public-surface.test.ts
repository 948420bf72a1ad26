// The public surface of each package entry, pinned: every name exported is a promise kept across minor
// versions, so adding one is a decision made here, and removing one is a breaking change made here. The
// names are read from what is shipped: the runtime names by importing each entry's file as package.json
// `exports` names it, the type names from its declaration file. Run after `npm run build`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { readPackageJson, repoRoot, requireBuild } from './support.js';

interface Surface {
  /** Classes, functions and constants: what `import { … }` takes at run time. */
  values: string[];
  /** Interfaces and type aliases: what `import type { … }` takes. */
  types: string[];
}

const EXPECTED: Record<string, Surface> = {
  // The element, its events and their details, the error its methods throw, the order types its `order`
  // property and `addOrderItem` / `addShippingOption` take, its states, its design tokens' names.
  '.': {
    values: [
      'CheckoutErrorEvent',
      'CheckoutStateError',
      'NavigateBackToCartEvent',
      'NavigateToCheckoutEvent',
      'PaymentCompletedEvent',
      'SvcCheckout',
    ],
    types: [
      'CheckoutAttribute',
      'CheckoutErrorCode',
      'CheckoutErrorDetail',
      'CheckoutStateErrorCode',
      'DecimalInput',
      'DesignTokenName',
      'NavigateBackToCartDetail',
      'NavigateToCheckoutDetail',
      'OrderConstraints',
      'OrderInput',
      'OrderItemInput',
      'OrderJson',
      'PaymentCompletedDetail',
      'ShippingOptionInput',
      'ShippingType',
      'Unit',
      'WidgetState',
    ],
  },
  './server': {
    values: [
      'CacheStoreFullError',
      'CertificateValidityError',
      'CheckoutMarkupError',
      'DEFAULT_MAX_BODY_BYTES',
      'EventDeduplicatorError',
      'KeyFormatError',
      'MemoryCacheStore',
      'MerchantApiError',
      'ORDER_ATTRIBUTE_NAMES',
      'ORDER_REJECTION_REASONS',
      'OrderValidationError',
      'PAYMENT_METHODS_PARAMETERS',
      'PaymentMethodsCache',
      'PaymentMethodsCacheError',
      'REFUND_REASONS',
      'RequestBodyError',
      'SVC_SIGNATURE_HEADER',
      'SignatureVerificationError',
      'V1ApiError',
      'V1_SIGNATURE_HEADER',
      'certificateInfo',
      'checkCertificateValidity',
      'checkoutElementAttributes',
      'checkoutElementHtml',
      'constructPurchaseNotification',
      'constructSuccessCallback',
      'constructWebhookEvent',
      'createConnectionTestHandler',
      'createEventDeduplicator',
      'createMerchantApiV2Client',
      'createNotificationReceiver',
      'createOrderVerificationHandler',
      'createPaymentMethodsHandler',
      'createRedisCacheStore',
      'createSelfSignedCertificate',
      'createShippingCostHandler',
      'createSuccessCallbackReceiver',
      'createV1Client',
      'createWebhookReceiver',
      'generateMerchantKeyPair',
      'httpSignatureAlgorithm',
      'importPrivateKey',
      'importPublicKey',
      'normalizePaymentMethodsQuery',
      'normalizeV1ErrorBody',
      'orderFromAttributes',
      'orderSignatureInput',
      'paginate',
      'paymentMethodsQueryKey',
      'readFailureCause',
      'refusalStatus',
      'signBody',
      'signHttpRequest',
      'signOrder',
      'signOrderVerificationToken',
      'toNodeHandler',
      'v1EventKey',
      'v1EventTime',
      'verifyHttpSignature',
      'verifyOrderSignature',
      'verifyOrderVerificationToken',
      'verifyPaidOrder',
      'verifySignature',
      'verifySignedRequest',
    ],
    types: [
      'AddSubscriberAnswer',
      'BankAccount',
      'BillingPeriodUnits',
      'BillingRequest',
      'BillingTemplate',
      'BillingTemplateClient',
      'BillingTemplateClientPatch',
      'BillingTemplateClientRequest',
      'BillingTemplateClientSettings',
      'BillingTemplateClientStatus',
      'BillingTemplateRequest',
      'BufferedRequest',
      'CacheStore',
      'CapturePurchaseRequest',
      'CardTransactionExtra',
      'CertificateInfo',
      'CertificateValidityErrorCode',
      'CertificateValidityOptions',
      'ChargePurchaseRequest',
      'CheckoutElementExtras',
      'CheckoutElementHtmlOptions',
      'CheckoutElementOptions',
      'CheckoutMarkupErrorCode',
      'Client',
      'ClientDetails',
      'ClientDetailsText',
      'ClientRecurringToken',
      'ClientRequest',
      'CompanyBalance',
      'CompanyBalanceAmounts',
      'CompanyStatement',
      'CompanyStatementFormat',
      'CompanyStatementStatus',
      'CreateCompanyStatementRequest',
      'CreatePurchaseRequest',
      'DeclaredFrameOptions',
      'DeduplicatedEvent',
      'DeliveryRepeatOutcome',
      'EventClaim',
      'EventDeduplicator',
      'EventDeduplicatorErrorCode',
      'EventDeduplicatorOptions',
      'ExpectedPaidOrder',
      'FastifyInstanceLike',
      'FastifyReceiverOptions',
      'FastifyReceiverPlugin',
      'FastifyReplyLike',
      'FetchHandler',
      'FetchPaymentMethods',
      'FetchV1Page',
      'HandlerOptions',
      'HeadersLike',
      'HttpRequestToSign',
      'HttpRequestToVerify',
      'HttpSignatureAlgorithm',
      'HttpSignatureAlgorithmName',
      'HttpSignatureFailureCode',
      'HttpSignatureVerification',
      'HttpSigningKey',
      'IncomingRequest',
      'IoRedisClientLike',
      'IssuerDetails',
      'KeyFormatErrorCode',
      'MarkAsPaidRequest',
      'MemoryCacheStoreOptions',
      'MerchantApiErrorCode',
      'MerchantApiErrorDetails',
      'MerchantApiV2Answer',
      'MerchantApiV2CallOptions',
      'MerchantApiV2Client',
      'MerchantApiV2ClientOptions',
      'MerchantApiV2DecisionResult',
      'MerchantApiV2Order',
      'MerchantApiV2OrderDecision',
      'MerchantApiV2Refund',
      'MerchantApiV2RefundOptions',
      'MerchantApiV2RefundResult',
      'MerchantKeyPair',
      'NoShipping',
      'NodeHandler',
      'NodeHandlerOptions',
      'NodeRedisClientLike',
      'NotificationReceiver',
      'NotificationReceiverOptions',
      'NotificationReceiverOutcome',
      'NotificationShipping',
      'OnceResult',
      'OrderAttributeProperty',
      'OrderAttributes',
      'OrderInput',
      'OrderIssue',
      'OrderIssueCode',
      'OrderRejectionReason',
      'OrderVerificationAnswer',
      'OrderVerificationHandlerOptions',
      'OrderVerificationPayload',
      'OutboxMessage',
      'PaginateOptions',
      'PaidOrderDefaults',
      'PaidOrderMismatchCode',
      'PaidOrderVerification',
      'Payment',
      'PaymentDetails',
      'PaymentMethods',
      'PaymentMethodsCacheErrorCode',
      'PaymentMethodsCacheOptions',
      'PaymentMethodsHandlerOptions',
      'PaymentMethodsLookup',
      'PaymentMethodsParameter',
      'PaymentMethodsQuery',
      'PaymentRefundedEvent',
      'PayoutMethods',
      'PayoutMethodsQuery',
      'Purchase',
      'PurchaseAttempt',
      'PurchaseAttemptError',
      'PurchaseAttemptType',
      'PurchaseCallbackPayload',
      'PurchaseClient',
      'PurchaseDetails',
      'PurchaseEventType',
      'PurchaseFailureCause',
      'PurchaseNotification',
      'PurchaseNotificationOptions',
      'PurchaseProductDetails',
      'PurchaseStatus',
      'PurchaseStatusChange',
      'PurchaseWebhookPayload',
      'ReceiverAnswer',
      'ReceiverLogger',
      'ReceiverMounts',
      'RedisClientLike',
      'RedisCommand',
      'RefreshFailure',
      'RefundAvailability',
      'RefundInput',
      'RefundPurchaseRequest',
      'RefundReason',
      'RefusedPaidOrder',
      'RequestBodyErrorCode',
      'SelfSignedCertificateOptions',
      'ShippingCostHandlerOptions',
      'ShippingCostRequest',
      'ShippingCostResponse',
      'SignOrderVerificationTokenOptions',
      'SignatureVerificationErrorCode',
      'SignedHttpHeaders',
      'StoreOutageEvent',
      'SubscriptionPeriod',
      'SuccessCallbackHandlers',
      'SuccessCallbackReceiverOptions',
      'TransactionData',
      'TransactionExtra',
      'TransactionProduct',
      'V1ApiErrorCode',
      'V1ApiErrorDetails',
      'V1Billing',
      'V1BillingTemplates',
      'V1CallbackOptions',
      'V1Client',
      'V1ClientOptions',
      'V1Clients',
      'V1EventType',
      'V1FieldError',
      'V1List',
      'V1Page',
      'V1PublicKey',
      'V1Purchases',
      'V1QueryValue',
      'V1Receiver',
      'V1ReceiverOptions',
      'V1ReceiverOutcome',
      'V1RequestOptions',
      'V1StatementDownload',
      'V1StatementWaitOptions',
      'V1Statements',
      'V1Wallets',
      'V1WebhookEvent',
      'V1WebhookEventOf',
      'V1WebhookHandlers',
      'V1Webhooks',
      'VerifiedPaidOrder',
      'VerifyHttpSignatureOptions',
      'VerifyOrderSignatureOptions',
      'VerifyOrderVerificationTokenOptions',
      'VerifySignatureOptions',
      'VerifySignedRequestOptions',
      'WalletBPaymentAnswer',
      'WalletMethod',
      'WalletPayment',
      'WalletPaymentFailure',
      'WalletPaymentResult',
      'Webhook',
      'WebhookDeliveriesQuery',
      'WebhookDelivery',
      'WebhookEventType',
      'WebhookReceiverOptions',
      'WebhookRequest',
      'WebhookSourceType',
    ],
  },
  './sandbox': {
    values: [
      'ConfigError',
      'DEMO_API_KEY',
      'DEMO_CALLBACK_PATHS',
      'DEMO_CERTIFICATE_NAME',
      'DEMO_MERCHANT_ID',
      'DEMO_SHOP_ORIGIN',
      'DEMO_V1_BRAND_ID',
      'DEMO_V1_SECRET_KEY',
      'DEMO_WIDGET_IDS',
      'TEST_CARDS',
      'TEST_CARD_NAMES',
      'TEST_CREDITORS',
      'TRIGGER_EVENTS',
      'TestHelperError',
      'demoConfig',
      'demoConfigFile',
      'formatLogEntry',
      'loadConfig',
      'parseConfig',
      'startSandbox',
    ],
    types: [
      'ConfigErrorCode',
      'ConfigIssue',
      'ConnectionTimeouts',
      'DeliveryKind',
      'DeliveryLogEntry',
      'ForwardedDelivery',
      'LegacyNotificationView',
      'MerchantConfig',
      'NotificationOutcome',
      'OrderView',
      'PayOrderInput',
      'PayOrderResult',
      'PayPurchaseInput',
      'PayPurchaseResult',
      'PaymentResult',
      'RenderedOrderAttributes',
      'RequestLogEntry',
      'Sandbox',
      'SandboxConfig',
      'SandboxConfigFile',
      'SandboxLog',
      'SandboxLogEntry',
      'SandboxOptions',
      'SandboxWarning',
      'SignatureDiagnosis',
      'SignatureMismatchLogEntry',
      'StepAnswer',
      'TestCard',
      'TestCardChoice',
      'TestCardName',
      'TestCardOutcome',
      'TestCreditor',
      'TestHelperErrorCode',
      'TestHelpers',
      'TriggerEvent',
      'TriggerInput',
      'TriggerResult',
      'WidgetConfig',
    ],
  },
  // The React component (over @lit/react) and JSX for React 19.
  './react': {
    values: ['Checkout'],
    types: ['CheckoutElementProps', 'CheckoutEventProps', 'CheckoutProps', 'SvcCheckoutProps'],
  },
  // Types only: JSX for Preact 11.
  './preact': { values: [], types: ['SvcCheckoutProps'] },
  // The browser test helper, and the Playwright shapes its options name.
  './testing': {
    values: ['CheckoutTestError', 'TEST_CARD_NUMBERS', 'payInCheckout'],
    types: [
      'CheckoutOutcome',
      'LocatorShape',
      'PayInCheckoutOptions',
      'PaymentFailureCode',
      'RootShape',
      'TestCard',
      'TestCustomer',
      'TestDelivery',
    ],
  },
};

/** An entry's files as package.json `exports` names them: its declarations and its code for Node. */
function entryFiles(entry: string): { types: string; code: string } {
  const target = readPackageJson().exports[entry];
  assert.ok(target && typeof target === 'object', `package.json exports has no conditions for ${entry}`);
  const code = target['node'] ?? target['default'];
  assert.ok(target['types'] && code, `package.json exports ${entry} needs "types" and "node" or "default"`);
  return { types: target['types'], code };
}

/**
 * The names a declaration file exports. Entries list their names (`export { a, type B } from`); an
 * `export *` would export whatever a module adds, so it is refused here.
 */
function declaredSurface(file: string): Surface {
  const text = readFileSync(join(repoRoot, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '');
  assert.doesNotMatch(
    text,
    /export\s+(?:type\s+)?\*/,
    `${file}: list the names an entry exports, no export *`,
  );
  const surface: Surface = { values: [], types: [] };
  for (const [, typeOnly, names] of text.matchAll(/export\s+(type\s+)?\{([^}]*)\}/g)) {
    for (const part of names!.split(',').map((name) => name.trim())) {
      if (!part) continue;
      const name = part
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!;
      (typeOnly || part.startsWith('type ') ? surface.types : surface.values).push(name);
    }
  }
  const declarations =
    /export\s+(?:declare\s+)?(?:abstract\s+)?(interface|type|class|function|const|let|var|enum)\s+([\w$]+)/g;
  for (const [, kind, name] of text.matchAll(declarations)) {
    (kind === 'interface' || kind === 'type' ? surface.types : surface.values).push(name!);
  }
  return { values: surface.values.sort(), types: surface.types.sort() };
}

describe('the public surface of each package entry', () => {
  before(requireBuild);

  test('package.json exports exactly the entries pinned here, besides its JSON files', () => {
    const entries = Object.keys(readPackageJson().exports).filter((entry) => !entry.endsWith('.json'));
    assert.deepEqual(entries.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [entry, expected] of Object.entries(EXPECTED)) {
    test(`${entry}: the names its declarations export`, () => {
      assert.deepEqual(declaredSurface(entryFiles(entry).types), expected);
    });

    test(`${entry}: the names it exports at run time`, async () => {
      const module = (await import(pathToFileURL(join(repoRoot, entryFiles(entry).code)).href)) as object;
      assert.deepEqual(Object.keys(module).sort(), expected.values);
    });
  }
});
