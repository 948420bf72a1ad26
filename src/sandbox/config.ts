/**
 * The sandbox's configuration: merchants, their widgets, certificates and callback URLs. The file is
 * described by `sandbox-config.schema.json` (which editors read for completion and docs), checked with the
 * validator ajv compiled from it at development time (src/sandbox/generated/, so ajv is not needed at run time),
 * then checked for what a schema cannot say (unique ids, keys that import, INSTANT orders that parse). A
 * wrong file is refused at start with every problem named by its field, so nothing fails later mid-payment.
 */
import { createPublicKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { CardScheme } from '../core/card.js';
import { SvcError } from '../core/errors.js';
import { type DecimalInput, type OrderJson, parseOrder } from '../core/order.js';
import { isHttpUrl, UUID } from './formats.js';
import {
  type ConfigFormats,
  type ConfigSchemaError,
  type ConfigSchemaValidator,
  everyProblemValidator,
  firstProblemValidator,
} from './generated/config-validator.js';
import {
  byteSize,
  FileTooLargeError,
  MAX_CONFIG_FILE_BYTES,
  MAX_PEM_FILE_BYTES,
  readTextFile,
  readTextFileIfPresent,
  writeTextFileAtomic,
} from './text-file.js';
import { isIban, normalizeIban, TEST_CREDITORS, type TestCreditor } from './v1/test-creditors.js';

export { MAX_CONFIG_FILE_BYTES, MAX_PEM_FILE_BYTES };

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

// ---------------------------------------------------------------------------------------------------------
// Errors

/** One problem of a config, at a field path such as `merchants[0].widgets[1].type`. */
export interface ConfigIssue {
  path: string;
  message: string;
}

/** Why a config was refused: it could not be read, or it was read and is wrong. */
export type ConfigErrorCode = 'invalid_config' | 'unreadable_config';

/**
 * A config the sandbox refuses to start with. The message lists every problem as `path: what is wrong`, so
 * one run shows all there is to fix; a single problem stays on the one line.
 */
export class ConfigError extends SvcError<ConfigErrorCode> {
  readonly issues: readonly ConfigIssue[];

  constructor(code: ConfigErrorCode, source: string, issues: readonly ConfigIssue[]) {
    const text = (issue: ConfigIssue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message);
    const what = code === 'unreadable_config' ? 'Cannot read the sandbox config' : 'Invalid sandbox config';
    super(
      code,
      issues.length === 1
        ? `${what} (${source}): ${text(issues[0]!)}`
        : `${what} (${source}):\n${issues.map((issue) => `  - ${text(issue)}`).join('\n')}`,
    );
    this.issues = issues;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Loading and checking

const FORMAT_MESSAGES: Record<string, string> = {
  uuid: 'must be a UUID such as 1b4e28ba-2fa1-11d2-883f-0016d3cca427',
  currency: 'must be an ISO 4217 currency code in capitals, such as EUR',
  origin:
    'must be an origin: scheme, host and port only, such as https://shop.example or http://localhost:5173',
  'http-url': 'must be an absolute http(s) URL such as https://shop.example/path',
};

/**
 * The schema's custom formats. The generated validator (scripts/generate-config-validator.mjs) calls each as
 * a function of the string.
 */
const FORMATS: ConfigFormats = {
  uuid: (text) => UUID.test(text),
  currency: (text) => /^[A-Z]{3}$/.test(text),
  'http-url': isHttpUrl,
  // The browser's Origin header form: the URL's origin must be the whole text.
  origin: (text) => isHttpUrl(text) && new URL(text).origin === text,
};

const validators = new Map<boolean, ConfigSchemaValidator>();

/**
 * Made once, on first use, so importing this module costs nothing. One stops at the first problem, one
 * lists them all: ajv's time to list them grows with their square (64,000 wrong entries take 14 s), so the
 * listing one runs only on a config small enough, and only once the first has found a problem. Both are
 * ajv's standalone code for the schema with `useDefaults`, `allowUnionTypes`, `verbose` and `strict`.
 */
function schemaValidator(allErrors: boolean): ConfigSchemaValidator {
  const made = validators.get(allErrors);
  if (made) return made;
  const validator = (allErrors ? everyProblemValidator : firstProblemValidator)(FORMATS);
  validators.set(allErrors, validator);
  return validator;
}

/** `/merchants/0/widgets/1/type` as `merchants[0].widgets[1].type`. */
export function fieldPath(pointer: string, member?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  if (member !== undefined) segments.push(member);
  let path = '';
  for (const raw of segments) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}

function schemaIssue(error: ConfigSchemaError): ConfigIssue {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        path: fieldPath(error.instancePath, String(params['missingProperty'])),
        message: 'is required',
      };
    case 'additionalProperties': {
      const known = Object.keys((error.parentSchema?.['properties'] as object | undefined) ?? {});
      return {
        path: fieldPath(error.instancePath, String(params['additionalProperty'])),
        message: `is not a setting here; the settings are ${known.join(', ')}`,
      };
    }
    case 'enum':
      return {
        path: fieldPath(error.instancePath),
        message: `must be one of ${(params['allowedValues'] as unknown[]).join(', ')}`,
      };
    case 'type': {
      const types = String(params['type'])
        .split(',')
        .map((type) => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`);
      return { path: fieldPath(error.instancePath), message: `must be ${types.join(' or ')}` };
    }
    case 'format':
      return {
        path: fieldPath(error.instancePath),
        message: FORMAT_MESSAGES[String(params['format'])] ?? error.message ?? 'is not valid',
      };
    case 'minLength':
      return { path: fieldPath(error.instancePath), message: 'must not be empty' };
    case 'minItems':
      return {
        path: fieldPath(error.instancePath),
        message: `must list at least ${String(params['limit'])} entry`,
      };
    default:
      return { path: fieldPath(error.instancePath), message: error.message ?? `fails ${error.keyword}` };
  }
}

/** Options of {@link parseConfig}. */
export interface ParseConfigOptions {
  /** Where relative paths (`pemFile`, `service.privateKeyFile`) start; the config file's folder. Default: cwd. */
  baseDir?: string;
  /** Names the config in error messages, such as its file path; default `config object`. */
  source?: string;
}

/**
 * Reads and checks a config file: UTF-8 JSON of at most {@link MAX_CONFIG_FILE_BYTES} (1 MiB), a leading byte
 * order mark allowed.
 * @throws ConfigError `unreadable_config` when the file cannot be read or is larger than 1 MiB,
 *   `invalid_config` when it is not JSON or not a valid config.
 */
export function loadConfig(path: string): SandboxConfig {
  const file = resolve(path);
  let text: string;
  try {
    text = readTextFile(file, MAX_CONFIG_FILE_BYTES);
  } catch (error) {
    const message =
      error instanceof FileTooLargeError
        ? `is larger than ${byteSize(MAX_CONFIG_FILE_BYTES)}, the most read from a config file; a sandbox config is a few KiB of JSON`
        : `cannot read the file: ${errorText(error)}`;
    throw new ConfigError('unreadable_config', file, [{ path: '', message }]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError('invalid_config', file, [
      { path: '', message: `is not JSON: ${jsonErrorText(error, text)}` },
    ]);
  }
  return parseConfig(json, { baseDir: dirname(file), source: file });
}

/**
 * Checks a parsed config and returns it normalized: defaults filled in, PEM files read, keys imported,
 * INSTANT orders checked. The input is not modified.
 * @throws ConfigError `invalid_config` listing every problem found; alone when the value nests deeper than
 *   {@link MAX_CONFIG_DEPTH} levels or refers back to itself, which no config does.
 */
export function parseConfig(json: unknown, options: ParseConfigOptions = {}): SandboxConfig {
  const baseDir = resolve(options.baseDir ?? process.cwd());
  const source = options.source ?? 'config object';
  const shape = configShape(json);
  if (shape.issue) throw new ConfigError('invalid_config', source, [shape.issue]);
  const data = structuredClone(json);
  const firstProblem = schemaValidator(false);
  if (!firstProblem(data)) {
    if (shape.values > MAX_VALUES_LISTED) {
      throw new ConfigError('invalid_config', source, [
        ...(firstProblem.errors ?? []).map(schemaIssue),
        {
          path: '',
          message: `only the first problem is named: the config holds ${shape.values} values, more than the ${MAX_VALUES_LISTED} checked for every problem at once`,
        },
      ]);
    }
    const everyProblem = schemaValidator(true);
    everyProblem(structuredClone(json));
    throw new ConfigError('invalid_config', source, (everyProblem.errors ?? []).map(schemaIssue));
  }
  // The schema holds, and ajv filled in its defaults, so the shape below is what it promises.
  const file = data as FilledConfigFile;
  const checker = new SemanticChecker(baseDir);
  const config = checker.config(file);
  if (checker.issues.length > 0) throw new ConfigError('invalid_config', source, checker.issues);
  checkedConfigs.add(config);
  return config;
}

/**
 * The configs {@link parseConfig} made: `startSandbox` runs these as they are and reads anything else as the
 * file's shape. A mark, not a look at the members: a file may spell out every default a checked config has.
 */
const checkedConfigs = new WeakSet<SandboxConfig>();

/** Whether `value` came from {@link parseConfig} (or {@link loadConfig}, {@link demoConfig}). */
export function isCheckedConfig(value: unknown): value is SandboxConfig {
  return typeof value === 'object' && value !== null && checkedConfigs.has(value as SandboxConfig);
}

/** What is wrong with `text` as a page origin, or undefined when it is one. */
export function originProblem(text: string): string | undefined {
  return FORMATS.origin(text) ? undefined : FORMAT_MESSAGES['origin'];
}

/** @throws ConfigError `invalid_config` naming each entry of `origins` (`allowOrigins`) that is not an origin. */
export function checkAllowedOrigins(origins: readonly string[]): void {
  const issues = origins.flatMap((origin, index) => {
    const message = originProblem(origin);
    return message ? [{ path: `[${index}]`, message: `${JSON.stringify(origin)} ${message}` }] : [];
  });
  if (issues.length > 0) throw new ConfigError('invalid_config', 'allowOrigins', issues);
}

/**
 * `config` with `origins` added to every merchant's allowed origins (the CLI's `--allow-origin`).
 * @throws ConfigError `invalid_config` naming each entry that is not an origin.
 */
export function withAllowedOrigins(config: SandboxConfig, origins: readonly string[]): SandboxConfig {
  checkAllowedOrigins(origins);
  const widened: SandboxConfig = {
    ...config,
    merchants: config.merchants.map((merchant) => ({
      ...merchant,
      allowedOrigins: [...new Set([...merchant.allowedOrigins, ...origins])],
    })),
  };
  checkedConfigs.add(widened);
  return widened;
}

/**
 * How deep a config may nest: the deepest member the schema has (`merchants[0].widgets[0].order.items[0].amount`)
 * is 8 levels down, and cloning and schema checking recurse once per level.
 */
export const MAX_CONFIG_DEPTH = 32;

/**
 * The most values (objects, arrays, strings, numbers...) of a wrong config for which every schema problem is
 * listed; past it, the first. A config with 100 merchants of 4 widgets holds about 6,000.
 */
const MAX_VALUES_LISTED = 10_000;

/** The longest path a nesting issue prints; the start of it says where the config went wrong. */
const MAX_PATH_TEXT = 200;

/**
 * How many values `value` holds, and whether it nests deeper than {@link MAX_CONFIG_DEPTH} or holds itself,
 * found without recursion (a recursive walk of a 10,000-deep value overflows the stack: the stack trace
 * this check replaces).
 */
function configShape(value: unknown): { issue?: ConfigIssue; values: number } {
  interface Level {
    value: object;
    key: string | number;
    parent: Level | undefined;
    depth: number;
  }
  const path = (level: Level): string => {
    const keys: Array<string | number> = [];
    for (let at: Level | undefined = level; at?.parent; at = at.parent) keys.push(at.key);
    let text = '';
    for (const key of keys.reverse()) text += typeof key === 'number' ? `[${key}]` : text ? `.${key}` : key;
    return text.length > MAX_PATH_TEXT ? `${text.slice(0, MAX_PATH_TEXT)}…` : text;
  };
  let values = 1;
  if (typeof value !== 'object' || value === null) return { values };
  const pending: Level[] = [{ value, key: '', parent: undefined, depth: 0 }];
  for (let level = pending.pop(); level; level = pending.pop()) {
    const entries: Array<[string | number, unknown]> = Array.isArray(level.value)
      ? level.value.map((child, index) => [index, child])
      : Object.entries(level.value);
    values += entries.length;
    for (const [key, child] of entries) {
      if (typeof child !== 'object' || child === null) continue;
      const next: Level = { value: child, key, parent: level, depth: level.depth + 1 };
      if (next.depth > MAX_CONFIG_DEPTH) {
        const message = `nests deeper than ${MAX_CONFIG_DEPTH} levels; a sandbox config nests at most 8`;
        return { issue: { path: path(next), message }, values };
      }
      for (let at: Level | undefined = level; at; at = at.parent) {
        if (at.value === child) {
          const message = `refers back to ${path(at) || 'the config itself'}; a config is plain JSON data`;
          return { issue: { path: path(next), message }, values };
        }
      }
      pending.push(next);
    }
  }
  return { values };
}

/** The file's shape once ajv has filled in the schema's defaults (the schema holds every default value). */
interface FilledConfigFile {
  service?: { privateKeyFile?: string };
  merchants: FilledMerchant[];
  notifications: NotificationSettings;
  orderVerification: OrderVerificationSettings;
}

type FilledMerchant = Omit<
  MerchantConfigFile,
  'requireApiKey' | 'defaults' | 'allowedOrigins' | 'allowLoopbackOrigins' | 'certificates' | 'widgets'
> & {
  requireApiKey: boolean;
  defaults: MerchantDefaults;
  allowedOrigins: string[];
  allowLoopbackOrigins: boolean;
  certificates: FilledCertificate[];
  widgets: FilledWidget[];
};

type FilledCertificate = CertificateConfigFile & { revoked: boolean };

type FilledWidget = WidgetConfigFile & {
  validation: WidgetValidation;
  collectCustomerData: boolean;
  cardSchemes: AcceptedCardScheme[];
  pickupPoints: PickupPoint[];
};

/** The checks a JSON Schema cannot express, collecting every problem. */
class SemanticChecker {
  readonly issues: ConfigIssue[] = [];
  private readonly widgetIds = new Map<string, string>();

  constructor(private readonly baseDir: string) {}

  private add(path: string, message: string): void {
    this.issues.push({ path, message });
  }

  config(file: FilledConfigFile): SandboxConfig {
    this.unique(file.merchants, (m) => m.id, 'id', 'merchants', 'merchant id');
    this.unique(file.merchants, (m) => m.apiKey, 'apiKey', 'merchants', 'API key');
    this.unique(file.merchants, (m) => m.v1?.secretKey, 'v1.secretKey', 'merchants', 'v1 secret key');
    this.unique(file.merchants, (m) => m.v1?.brandId.toLowerCase(), 'v1.brandId', 'merchants', 'v1 brand id');
    const merchants = file.merchants.map((merchant, index) => this.merchant(merchant, `merchants[${index}]`));
    const privateKeyFile = file.service?.privateKeyFile;
    return {
      service: privateKeyFile === undefined ? {} : { privateKeyFile: resolve(this.baseDir, privateKeyFile) },
      merchants,
      notifications: { ...file.notifications },
      orderVerification: { ...file.orderVerification },
    };
  }

  /** Refuses a value that an earlier entry of `list` already has, naming both. */
  private unique<T>(
    list: readonly T[],
    key: (entry: T) => string | undefined,
    member: string,
    listPath: string,
    what: string,
  ): void {
    const seen = new Map<string, number>();
    list.forEach((entry, index) => {
      const value = key(entry);
      if (value === undefined) return;
      const first = seen.get(value);
      if (first === undefined) seen.set(value, index);
      else {
        const shown = what.includes('key') ? '' : ` ${JSON.stringify(value)}`;
        this.add(
          `${listPath}[${index}].${member}`,
          `the ${what}${shown} is already used by ${listPath}[${first}]`,
        );
      }
    });
  }

  private merchant(merchant: FilledMerchant, path: string): MerchantConfig {
    this.taxRate(merchant.defaults.taxRate, `${path}.defaults.taxRate`);
    this.unique(merchant.certificates, (c) => c.name, 'name', `${path}.certificates`, 'certificate name');
    const certificates = merchant.certificates.flatMap((certificate, index) => {
      const imported = this.certificate(certificate, `${path}.certificates[${index}]`);
      return imported ? [imported] : [];
    });
    const widgets = merchant.widgets.flatMap((widget, index) => {
      const checked = this.widget(widget, merchant, `${path}.widgets[${index}]`);
      return checked ? [checked] : [];
    });
    return {
      id: merchant.id,
      name: merchant.name,
      apiKey: merchant.apiKey,
      requireApiKey: merchant.requireApiKey,
      ...(merchant.company && { company: { ...merchant.company } }),
      ...(merchant.v1 && { v1: this.v1(merchant.v1, `${path}.v1`) }),
      defaults: { ...merchant.defaults },
      allowedOrigins: [...merchant.allowedOrigins],
      allowLoopbackOrigins: merchant.allowLoopbackOrigins,
      callbacks: { ...merchant.callbacks },
      certificates,
      widgets,
    };
  }

  /** The v1 settings with the creditor whitelist checked, normalised and defaulted. */
  private v1(v1: MerchantV1Credentials, path: string): MerchantV1Credentials {
    const creditors = (v1.creditors ?? TEST_CREDITORS).map((creditor, index) => {
      if (creditor.name.trim() === '') this.add(`${path}.creditors[${index}].name`, 'must not be blank');
      if (!isIban(creditor.iban)) {
        this.add(
          `${path}.creditors[${index}].iban`,
          `${JSON.stringify(creditor.iban)} is not an IBAN: a country code, 2 check digits and the account, such as LV80BANK0000435195001, passing the ISO 13616 mod-97 check`,
        );
      }
      return { name: creditor.name.trim(), iban: normalizeIban(creditor.iban) };
    });
    return { ...v1, creditors, variableCreditor: v1.variableCreditor ?? false };
  }

  /** A default tax rate reads exactly as an order item's would, so it is checked by the same parser. */
  private taxRate(taxRate: DecimalInput, path: string): void {
    const probe = parseOrder({ widgetId: 'probe', items: [{ amount: 0, label: 'probe', taxRate }] });
    for (const issue of probe.error?.issues ?? []) this.add(path, withoutPath(issue.message, issue.path));
  }

  private certificate(certificate: FilledCertificate, path: string): MerchantCertificate | undefined {
    let pem = certificate.pem;
    if (pem !== undefined && certificate.pemFile !== undefined) {
      this.add(path, 'give either pem or pemFile, not both');
      return undefined;
    }
    if (certificate.pemFile !== undefined) {
      const file = resolve(this.baseDir, certificate.pemFile);
      try {
        pem = readTextFile(file, MAX_PEM_FILE_BYTES);
      } catch (error) {
        this.add(
          `${path}.pemFile`,
          error instanceof FileTooLargeError
            ? `${file} is larger than ${byteSize(MAX_PEM_FILE_BYTES)}, the most read from a PEM file; name the file that holds the public key or certificate`
            : `cannot read ${file}: ${errorText(error)}`,
        );
        return undefined;
      }
    }
    if (pem === undefined) {
      this.add(path, 'give the public key or certificate in pem, or a file holding it in pemFile');
      return undefined;
    }
    const field = `${path}.${certificate.pemFile === undefined ? 'pem' : 'pemFile'}`;
    const imported = importCertificatePem(pem);
    if ('error' in imported) {
      this.add(field, imported.error);
      return undefined;
    }
    return { name: certificate.name, pem, publicKey: imported.publicKey, revoked: certificate.revoked };
  }

  private widget(widget: FilledWidget, merchant: FilledMerchant, path: string): WidgetConfig | undefined {
    const id = widget.id.toLowerCase();
    const first = this.widgetIds.get(id);
    if (first !== undefined) this.add(`${path}.id`, `the widget id ${widget.id} is already used by ${first}`);
    else this.widgetIds.set(id, path);

    if (widget.validation === 'CALLBACK' && merchant.callbacks.orderVerificationUrl === undefined) {
      this.add(
        `${path}.validation`,
        'CALLBACK needs the merchant to have callbacks.orderVerificationUrl; add it or use SIGNATURE',
      );
    }
    if (widget.pickupPoints.length > 0 && !widget.collectCustomerData) {
      this.add(
        `${path}.pickupPoints`,
        'pickup points are offered only by the full checkout; set collectCustomerData to true or remove them',
      );
    }
    this.unique(
      widget.pickupPoints,
      (p) => p.externalId,
      'externalId',
      `${path}.pickupPoints`,
      'pickup point id',
    );
    // A scheme listed twice is a slip (another was meant), and the frame would name it twice to the customer.
    // The first repeat is named: a list of thousands of repeats gets one line, not thousands.
    const repeat = widget.cardSchemes.findIndex(
      (scheme, index) => widget.cardSchemes.indexOf(scheme) < index,
    );
    if (repeat !== -1) {
      const scheme = widget.cardSchemes[repeat]!;
      const first = widget.cardSchemes.indexOf(scheme);
      this.add(`${path}.cardSchemes[${repeat}]`, `${scheme} is listed twice (also cardSchemes[${first}])`);
    }

    const base = {
      id: widget.id,
      validation: widget.validation,
      collectCustomerData: widget.collectCustomerData,
      cardSchemes: [...widget.cardSchemes],
      pickupPoints: widget.pickupPoints.map((point) => ({
        ...point,
        ...(point.address && { address: { ...point.address } }),
      })),
    };
    if (widget.type === 'CHECKOUT') {
      if (widget.order !== undefined) {
        this.add(
          `${path}.order`,
          'only INSTANT widgets have a fixed order; a CHECKOUT widget takes it from the page',
        );
      }
      return { ...base, type: 'CHECKOUT' };
    }
    if (widget.order === undefined) {
      this.add(
        `${path}.order`,
        'is required for an INSTANT widget: its fixed order (items, shippingOptions)',
      );
      return undefined;
    }
    const parsed = parseOrder({ widgetId: widget.id, ...widget.order });
    if (parsed.error) {
      for (const issue of parsed.error.issues) {
        this.add(`${path}.order.${issue.path}`, withoutPath(issue.message, issue.path));
      }
      return undefined;
    }
    // A fixed order's pickup-point option could never be paid on a widget that offers no point to choose.
    parsed.value.shippingOptions.forEach((option, index) => {
      if (option.type === 'PICKUP_POINT' && widget.pickupPoints.length === 0) {
        this.add(
          `${path}.order.shippingOptions[${index}].type`,
          'PICKUP_POINT needs pickup points on this widget (pickupPoints, with collectCustomerData)',
        );
      }
    });
    // As read: its `null` members ("not given") left out, as every order the sandbox keeps.
    const { widgetId: _, ...order } = parsed.value.input;
    return { ...base, type: 'INSTANT', order };
  }
}

/** Order issues carry their own `path: ` prefix; the config prefixes its longer path instead. */
function withoutPath(message: string, path: string): string {
  return message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
}

/**
 * Imports a merchant's RSA public key from PEM: SPKI (`PUBLIC KEY`), PKCS#1 (`RSA PUBLIC KEY`) or an X.509
 * `CERTIFICATE`. A private key is refused: the gateway never holds merchants' private keys, and a config that
 * carries one leaks it.
 */
export function importCertificatePem(pem: string): { publicKey: KeyObject } | { error: string } {
  const label = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(pem)?.[1];
  if (label === undefined) {
    return {
      error:
        'is not PEM; expected -----BEGIN PUBLIC KEY-----, -----BEGIN RSA PUBLIC KEY----- or -----BEGIN CERTIFICATE-----',
    };
  }
  if (label.includes('PRIVATE KEY')) {
    return {
      error: 'is a private key; give the public key or certificate (the private key stays with the merchant)',
    };
  }
  let publicKey: KeyObject;
  try {
    publicKey =
      label === 'CERTIFICATE'
        ? new X509Certificate(pem).publicKey
        : createPublicKey({ key: pem, format: 'pem' });
  } catch (error) {
    return {
      error: `does not read as a ${label === 'CERTIFICATE' ? 'certificate' : 'public key'} (${errorText(error)})`,
    };
  }
  if (publicKey.asymmetricKeyType !== 'rsa') {
    return {
      error: `is an ${publicKey.asymmetricKeyType ?? 'unknown'} key; signatures are SHA256withRSA, so give an RSA key`,
    };
  }
  return { publicKey };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** JSON.parse's message, with a line and column when it names a position. */
function jsonErrorText(error: unknown, text: string): string {
  const message = errorText(error);
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = text.slice(0, Number(position)).split('\n');
  return `${message} (line ${before.length}, column ${before.at(-1)!.length + 1})`;
}

// ---------------------------------------------------------------------------------------------------------
// The demo merchant, used when no config is given

/** The demo merchant's id. */
export const DEMO_MERCHANT_ID = 'demo-merchant';
/** The demo merchant's merchant API v2 key. */
export const DEMO_API_KEY = 'demo-api-key';
/** The demo merchant's v1 secret key (bearer token). */
export const DEMO_V1_SECRET_KEY = 'demo-v1-secret-key';
/** The demo merchant's v1 brand id. */
export const DEMO_V1_BRAND_ID = 'de300000-0000-4000-8000-0000000000b1';
/** The name of the demo merchant's certificate: the public half of the key pair in the data dir. */
export const DEMO_CERTIFICATE_NAME = 'demo';
/** Where the demo shop runs (Vite's dev server). */
export const DEMO_SHOP_ORIGIN = 'http://localhost:5173';

/** Paths on the demo shop's origin that the sandbox calls back; the demo shop serves them. */
export const DEMO_CALLBACK_PATHS = {
  notification: '/api/notification',
  terms: '/api/terms',
  shippingCost: '/api/shipping-cost',
  orderVerification: '/api/order-verification',
  connectionTest: '/api/connection-test',
} as const;

/** The demo merchant's widgets, with fixed ids that the demo shop and tests can name. */
export const DEMO_WIDGET_IDS = {
  /** INSTANT: a fixed-price order kept in the config. */
  instant: 'de300000-0000-4000-8000-000000000001',
  /** CHECKOUT, signed orders: the widget as a payment option. */
  checkout: 'de300000-0000-4000-8000-000000000002',
  /** CHECKOUT, signed orders, collects customer and delivery data, with pickup points: the full checkout. */
  fullCheckout: 'de300000-0000-4000-8000-000000000003',
  /** CHECKOUT whose orders the merchant approves through the order verification URL. */
  callbackValidation: 'de300000-0000-4000-8000-000000000004',
} as const;

/** The demo merchant's config file, with `publicKeyPem` as its certificate `demo`. */
export function demoConfigFile(
  publicKeyPem: string,
  shopOrigin: string = DEMO_SHOP_ORIGIN,
): SandboxConfigFile {
  const callback = (path: string) => `${shopOrigin}${path}`;
  return {
    merchants: [
      {
        id: DEMO_MERCHANT_ID,
        name: 'Demo Shop',
        apiKey: DEMO_API_KEY,
        company: {
          name: 'Demo Shop SIA',
          address: 'Brīvības iela 1, Rīga, LV-1010',
          registrationNumber: '40000000000',
          vatNumber: 'LV40000000000',
        },
        v1: {
          secretKey: DEMO_V1_SECRET_KEY,
          brandId: DEMO_V1_BRAND_ID,
          creditors: TEST_CREDITORS.map((creditor) => ({ ...creditor })),
          variableCreditor: true,
        },
        defaults: { currency: 'EUR', taxRate: '0.21', language: 'en' },
        // A page on any local port works at once; the origins below are the demo shop's own.
        allowLoopbackOrigins: true,
        allowedOrigins: [
          ...new Set([
            shopOrigin,
            'http://localhost:5173',
            'http://127.0.0.1:5173',
            'http://localhost:4173',
            'http://127.0.0.1:4173',
          ]),
        ],
        callbacks: {
          notificationUrl: callback(DEMO_CALLBACK_PATHS.notification),
          termsUrl: callback(DEMO_CALLBACK_PATHS.terms),
          shippingCostUrl: callback(DEMO_CALLBACK_PATHS.shippingCost),
          orderVerificationUrl: callback(DEMO_CALLBACK_PATHS.orderVerification),
          connectionTestUrl: callback(DEMO_CALLBACK_PATHS.connectionTest),
        },
        certificates: [{ name: DEMO_CERTIFICATE_NAME, pem: publicKeyPem }],
        widgets: [
          {
            id: DEMO_WIDGET_IDS.instant,
            type: 'INSTANT',
            order: {
              items: [{ amount: '15.00', label: 'Sandbox T-shirt', orderItemId: 'tshirt', count: 1 }],
            },
          },
          { id: DEMO_WIDGET_IDS.checkout, type: 'CHECKOUT', validation: 'SIGNATURE' },
          {
            id: DEMO_WIDGET_IDS.fullCheckout,
            type: 'CHECKOUT',
            validation: 'SIGNATURE',
            collectCustomerData: true,
            pickupPoints: [
              {
                externalId: 'riga-centre',
                name: 'Riga Centre parcel locker',
                comments: 'Beside the main entrance of the shopping centre',
                serviceHours: '24/7',
                address: {
                  address: 'Brīvības iela 68',
                  city: 'Rīga',
                  postalCode: 'LV-1011',
                  country: 'LV',
                  latitude: 56.9563,
                  longitude: 24.1205,
                },
              },
              {
                externalId: 'riga-old-town',
                name: 'Old Town shop',
                serviceHours: 'Mon-Fri 10-19, Sat 10-16',
                address: { address: 'Audēju iela 16', city: 'Rīga', postalCode: 'LV-1050', country: 'LV' },
              },
            ],
          },
          { id: DEMO_WIDGET_IDS.callbackValidation, type: 'CHECKOUT', validation: 'CALLBACK' },
        ],
      },
    ],
  };
}

/** The config the sandbox runs with when none is given: the demo merchant, checked like any config. */
export function demoConfig(options: { publicKeyPem: string; shopOrigin?: string }): SandboxConfig {
  return parseConfig(demoConfigFile(options.publicKeyPem, options.shopOrigin), { source: 'demo config' });
}

/** The demo merchant's key pair as kept in the data dir. */
export interface DemoMerchantKeys {
  privateKeyPem: string;
  publicKeyPem: string;
  /** `<dataDir>/demo-merchant/private-key.pem`: where the demo shop reads the key it signs orders with. */
  privateKeyFile: string;
  publicKeyFile: string;
  /** Whether this call generated the pair (false when it was already there). */
  created: boolean;
}

/**
 * Returns the demo merchant's RSA 2048 key pair, generating it on first use into
 * `<dataDir>/demo-merchant/` (private key PKCS#8 PEM, mode 0600; public key SPKI PEM beside it). Kept
 * across restarts so that a demo shop that read the key once keeps working.
 * @throws ConfigError `unreadable_config` when a key file is there but cannot be read or is not a key.
 */
export function ensureDemoMerchantKeys(dataDir: string): DemoMerchantKeys {
  const dir = join(resolve(dataDir), DEMO_MERCHANT_ID);
  const privateKeyFile = join(dir, 'private-key.pem');
  const publicKeyFile = join(dir, 'public-key.pem');
  let privateKeyPem: string | undefined;
  try {
    privateKeyPem = readTextFileIfPresent(privateKeyFile, MAX_PEM_FILE_BYTES);
  } catch (error) {
    throw new ConfigError('unreadable_config', privateKeyFile, [{ path: '', message: errorText(error) }]);
  }
  if (privateKeyPem !== undefined) {
    let publicKeyPem: string;
    try {
      publicKeyPem = createPublicKey(privateKeyPem).export({ type: 'spki', format: 'pem' }).toString();
    } catch (error) {
      throw new ConfigError('unreadable_config', privateKeyFile, [
        {
          path: '',
          message: `is not a private key PEM (${errorText(error)}); delete it to have a new pair made`,
        },
      ]);
    }
    if (readTextFileIfPresent(publicKeyFile, MAX_PEM_FILE_BYTES) !== publicKeyPem)
      writeTextFileAtomic(publicKeyFile, publicKeyPem, 0o644);
    return { privateKeyPem, publicKeyPem, privateKeyFile, publicKeyFile, created: false };
  }
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeTextFileAtomic(privateKeyFile, pair.privateKey, 0o600);
  writeTextFileAtomic(publicKeyFile, pair.publicKey, 0o644);
  return {
    privateKeyPem: pair.privateKey,
    publicKeyPem: pair.publicKey,
    privateKeyFile,
    publicKeyFile,
    created: true,
  };
}
