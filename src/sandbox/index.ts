/**
 * `svc-checkout/sandbox`: the local gateway, for the demo, our tests and merchants' own integration tests.
 */
export type { OrderView, PaymentResult, SignatureDiagnosis } from '../core/widget-api.js';
export {
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
  DEMO_API_KEY,
  DEMO_CALLBACK_PATHS,
  DEMO_CERTIFICATE_NAME,
  DEMO_MERCHANT_ID,
  DEMO_SHOP_ORIGIN,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  DEMO_WIDGET_IDS,
  demoConfig,
  demoConfigFile,
  loadConfig,
  type MerchantConfig,
  parseConfig,
  type SandboxConfig,
  type SandboxConfigFile,
  TEST_CREDITORS,
  type TestCreditor,
  type WidgetConfig,
} from './config.js';
export type { ConnectionTimeouts } from './connection-limits.js';
export type { LegacyNotificationView } from './legacy/notification-routes.js';
export type { ForwardedDelivery } from './observe-routes.js';
export {
  type Sandbox,
  type SandboxOptions,
  type SandboxWarning,
  startSandbox,
} from './sandbox.js';
export {
  type DeliveryKind,
  type DeliveryLogEntry,
  formatLogEntry,
  type RequestLogEntry,
  type SandboxLog,
  type SandboxLogEntry,
  type SignatureMismatchLogEntry,
} from './sandbox-log.js';
export { TEST_CARDS, type TestCard, type TestCardOutcome } from './test-cards.js';
export type {
  NotificationOutcome,
  PayOrderInput,
  PayOrderResult,
  RenderedOrderAttributes,
  StepAnswer,
} from './test-helpers/pay-order.js';
export type { PayPurchaseInput, PayPurchaseResult } from './test-helpers/pay-purchase.js';
export { TEST_CARD_NAMES, type TestCardChoice, type TestCardName } from './test-helpers/test-card-choice.js';
export { TestHelperError, type TestHelperErrorCode } from './test-helpers/test-helper-error.js';
export type { TestHelpers } from './test-helpers/test-helpers.js';
export {
  TRIGGER_EVENTS,
  type TriggerEvent,
  type TriggerInput,
  type TriggerResult,
} from './test-helpers/trigger.js';
