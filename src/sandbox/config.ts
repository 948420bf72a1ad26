/**
 * The sandbox's configuration: merchants, their widgets, certificates and callback URLs. The file is
 * described by `sandbox-config.schema.json` (which editors read for completion and docs), checked with the
 * validator ajv compiled from it at development time (src/sandbox/generated/, so ajv is not needed at run time),
 * then checked for what a schema cannot say (unique ids, keys that import, INSTANT orders that parse). A
 * wrong file is refused at start with every problem named by its field, so nothing fails later mid-payment.
 *
 * This is the module the rest of the sandbox imports; the parts live in `config/`: the types, reading
 * (`read.ts`), the shape check, the schema's messages, the semantic checks, certificate PEMs, the default
 * test creditors and the demo merchant.
 */

export { importCertificatePem } from './config/certificate-pem.js';
export { ConfigError, type ConfigErrorCode, type ConfigIssue } from './config/config-error.js';
export {
  DEMO_API_KEY,
  DEMO_CALLBACK_PATHS,
  DEMO_CERTIFICATE_NAME,
  DEMO_MERCHANT_ID,
  DEMO_SHOP_ORIGIN,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  DEMO_WIDGET_IDS,
  type DemoMerchantKeys,
  demoConfig,
  demoConfigFile,
  ensureDemoMerchantKeys,
} from './config/demo.js';
export {
  checkAllowedOrigins,
  isCheckedConfig,
  loadConfig,
  type ParseConfigOptions,
  parseConfig,
  withAllowedOrigins,
} from './config/read.js';
export { fieldPath, originProblem } from './config/schema.js';
export { MAX_CONFIG_DEPTH } from './config/shape.js';
export { TEST_CREDITORS, type TestCreditor } from './config/test-creditors.js';
export type {
  AcceptedCardScheme,
  CertificateConfigFile,
  CheckoutWidgetConfig,
  FixedOrder,
  InstantWidgetConfig,
  Language,
  MerchantCallbacks,
  MerchantCertificate,
  MerchantCompany,
  MerchantConfig,
  MerchantConfigFile,
  MerchantDefaults,
  MerchantV1Credentials,
  NotificationSettings,
  OrderVerificationSettings,
  PickupPoint,
  PickupPointAddress,
  SandboxConfig,
  SandboxConfigFile,
  WidgetConfig,
  WidgetConfigFile,
  WidgetType,
  WidgetValidation,
} from './config/types.js';
export { MAX_CONFIG_FILE_BYTES, MAX_PEM_FILE_BYTES } from './text-file.js';
