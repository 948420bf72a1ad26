/**
 * The sandbox config's types: the file as written (what `sandbox-config.schema.json` describes) and the
 * checked config the sandbox runs with (defaults filled in, PEMs loaded and imported).
 */
import type { KeyObject } from 'node:crypto';
import type { CardScheme } from '../../core/card.js';
import type { DecimalInput, OrderJson } from '../../core/order.js';
import type { TestCreditor } from './test-creditors.js';

// ---------------------------------------------------------------------------------------------------------
// The file as written (what the schema describes)

/** A language the payment frame speaks. */
export type Language = 'lv' | 'en' | 'ru';
/**
 * An INSTANT widget's fixed order: the order JSON without `orderId`, which each page gives (one fixed id
 * would make the widget payable once).
 */
export type FixedOrder = Omit<OrderJson, 'orderId'>;

/** INSTANT: fixed price, order kept in the config. CHECKOUT: the page supplies the order. */
export type WidgetType = 'INSTANT' | 'CHECKOUT';
/** How a page's order is trusted: by the merchant's signature, or by asking the order verification URL. */
export type WidgetValidation = 'SIGNATURE' | 'CALLBACK';

/** The config file as written; see `sandbox-config.schema.json` for each member's documentation. */
export interface SandboxConfigFile {
  $schema?: string;
  service?: { privateKeyFile?: string };
  merchants: MerchantConfigFile[];
  notifications?: Partial<NotificationSettings>;
  orderVerification?: Partial<OrderVerificationSettings>;
}

/** One merchant as written in the config file. */
export interface MerchantConfigFile {
  id: string;
  name: string;
  apiKey: string;
  requireApiKey?: boolean;
  company?: MerchantCompany;
  v1?: MerchantV1Credentials;
  brand?: MerchantBrandFile;
  defaults?: Partial<MerchantDefaults>;
  allowedOrigins?: string[];
  allowLoopbackOrigins?: boolean;
  callbacks: MerchantCallbacks;
  certificates?: CertificateConfigFile[];
  widgets?: WidgetConfigFile[];
}

/** A certificate as written: the PEM inline or in a file beside the config. */
export interface CertificateConfigFile {
  name: string;
  pem?: string;
  /** Relative to the config file. */
  pemFile?: string;
  revoked?: boolean;
}

/** A widget as written. */
export interface WidgetConfigFile {
  id: string;
  type: WidgetType;
  validation?: WidgetValidation;
  collectCustomerData?: boolean;
  /** The card schemes the widget takes; default Visa and Mastercard. */
  cardSchemes?: AcceptedCardScheme[];
  pickupPoints?: PickupPoint[];
  /** Required for INSTANT, refused for CHECKOUT. */
  order?: FixedOrder;
}

// ---------------------------------------------------------------------------------------------------------
// The checked config (defaults filled in, PEMs loaded and imported)

/** Credentials of the v1 REST interface. */
export interface MerchantV1Credentials {
  secretKey: string;
  /** A UUID. */
  brandId: string;
  /** The rate limit of `GET /payment_methods/` per distinct query; default 1 call per 60,000 ms. */
  rateLimit?: { max?: number; windowMs?: number };
  /**
   * How the test acquirer answers this merchant's captures, releases, charges, refunds and token deletions:
   * `normal` at once, `slow` later (the `pending_*` states, settling `slowMs` later on the sandbox clock,
   * default 10,000 ms), `fail` with a processing failure. A request's `X-Sandbox-Acquirer` header overrides
   * the mode for that request.
   */
  acquirer?: { mode?: 'normal' | 'slow' | 'fail'; slowMs?: number };
  /**
   * The creditors whitelisted for this merchant's bank payments: every creditor IBAN of a bulk payment
   * (`pis_bulk_purchase`) must be one of theirs, and a variable creditor (`pis_purchase`) must match one entry
   * by name and IBAN. When absent, {@link TEST_CREDITORS}; `[]` whitelists none. Each IBAN must pass the
   * mod-97 check; the checked config holds it without spaces, in capitals.
   */
  creditors?: TestCreditor[];
  /** Whether the variable creditor (`pis_purchase`) is enabled; default false, as at the gateway. */
  variableCreditor?: boolean;
}

/**
 * The merchant's company as the merchant console holds it: the purchase notification's and merchant API
 * v2's `company`. Without it, `company.name` is the merchant's `name` and the other members are null.
 */
export interface MerchantCompany {
  name: string;
  address?: string;
  registrationNumber?: string;
  vatNumber?: string;
}

/** The merchant's look on the v1 hosted payment page, as written. */
export interface MerchantBrandFile {
  /** The name the page shows; default the merchant's `name`. */
  name?: string;
  /** An absolute http(s) URL, or an image file (SVG, PNG, JPEG, WebP, GIF) relative to the config file. */
  logo?: string;
  /** The pay and approve buttons' colour, `#rgb` or `#rrggbb`. */
  color?: string;
  /** The text on `color`, `#rgb` or `#rrggbb`; default white. At least 4.5:1 against `color`. */
  textColor?: string;
}

/** A checked brand: colours as `#rrggbb`, the logo as a URL or a readable file. */
export interface MerchantBrand {
  name?: string;
  logo?: { url: string } | { file: string; contentType: string };
  color: string;
  textColor: string;
}

/** What a merchant's orders fall back to. */
export interface MerchantDefaults {
  /** ISO 4217. */
  currency: string;
  /** As written: `0.21` or `21` (a value above 1 is a percentage); it reads as an order item's `taxRate`. */
  taxRate: DecimalInput;
  language: Language;
}

/** The merchant's URLs the gateway calls; all absolute http(s) URLs. */
export interface MerchantCallbacks {
  notificationUrl: string;
  termsUrl: string;
  shippingCostUrl?: string;
  orderVerificationUrl?: string;
  connectionTestUrl?: string;
}

/** Where a pickup point is: sent as the shipping cost request's `address` and the notification's address. */
export interface PickupPointAddress {
  /** Street and number. */
  address: string;
  city: string;
  postalCode: string;
  country?: string;
  /** Degrees, sent as the notification's `shipping.address.latitude`. */
  latitude?: number;
  longitude?: number;
}

/** A pickup point offered by a full-checkout widget. */
export interface PickupPoint {
  externalId: string;
  name: string;
  comments?: string;
  serviceHours?: string;
  /** Without it, the shipping cost request for this point carries an address of empty strings. */
  address?: PickupPointAddress;
}

/** A merchant certificate, imported. */
export interface MerchantCertificate {
  name: string;
  /** The PEM as given (public key or X.509 certificate). */
  pem: string;
  /** The RSA public key, ready for `crypto.verify`. */
  publicKey: KeyObject;
  revoked: boolean;
}

/** A card scheme a widget may take, named as core's card checks name it. */
export type AcceptedCardScheme = Exclude<CardScheme, 'UNKNOWN'>;

interface WidgetConfigBase {
  id: string;
  validation: WidgetValidation;
  collectCustomerData: boolean;
  /** The card schemes the widget takes (the form and the gateway refuse others). */
  cardSchemes: AcceptedCardScheme[];
  pickupPoints: PickupPoint[];
}

/** A fixed-price widget: its order is part of the config. */
export interface InstantWidgetConfig extends WidgetConfigBase {
  type: 'INSTANT';
  /** The fixed order as written, its `null` members left out (checked: `parseOrder({ widgetId: id, ...order })` succeeds). */
  order: FixedOrder;
}

/** A dynamic-price widget: the page supplies the order. */
export interface CheckoutWidgetConfig extends WidgetConfigBase {
  type: 'CHECKOUT';
  /** Never present: named so that `widget.order` reads on either kind of widget. */
  order?: undefined;
}

/** A checked widget, discriminated by `type`. */
export type WidgetConfig = InstantWidgetConfig | CheckoutWidgetConfig;

/** A checked merchant. */
export interface MerchantConfig {
  id: string;
  name: string;
  apiKey: string;
  /** Whether merchant API v2 refuses a request without `X-Svc-Api-Key` (the official client sends none). */
  requireApiKey: boolean;
  company?: MerchantCompany;
  v1?: MerchantV1Credentials;
  /** The look of the v1 hosted payment page; absent, the page's own. */
  brand?: MerchantBrand;
  defaults: MerchantDefaults;
  allowedOrigins: string[];
  /** Whether a page on any loopback origin (`localhost`, `127.0.0.1`, any port) may embed the widgets too. */
  allowLoopbackOrigins: boolean;
  callbacks: MerchantCallbacks;
  certificates: MerchantCertificate[];
  widgets: WidgetConfig[];
}

/** How deliveries to merchant URLs are retried (see the delivery queue). */
export interface NotificationSettings {
  retryBaseMs: number;
  maxFurtherAttempts: number;
  maxAgeMs: number;
  timeoutMs: number;
}

/** How a CALLBACK widget's order waits for the merchant's decision through merchant API v2. */
export interface OrderVerificationSettings {
  /** How long the order intake waits for a decision the verification URL's answer did not give. */
  decisionTimeoutMs: number;
}

/** The checked configuration the sandbox runs with. */
export interface SandboxConfig {
  /** `privateKeyFile` is absolute here. */
  service: { privateKeyFile?: string };
  merchants: MerchantConfig[];
  notifications: NotificationSettings;
  orderVerification: OrderVerificationSettings;
}
