/**
 * The checks of a config that a JSON Schema cannot express: unique ids and keys, PEMs that read and import,
 * INSTANT orders that parse, settings that only make sense together, the v1 creditor whitelist. Every problem
 * is collected, so one run names all there is to fix.
 */
import { resolve } from 'node:path';
import { type DecimalInput, parseOrder } from '../../core/order.js';
import { isIban, normalizeIban } from '../formats.js';
import { byteSize, FileTooLargeError, MAX_PEM_FILE_BYTES, readTextFile } from '../text-file.js';
import { checkBrand } from './brand.js';
import { importCertificatePem } from './certificate-pem.js';
import { type ConfigIssue, errorText } from './config-error.js';
import { TEST_CREDITORS } from './test-creditors.js';
import type {
  AcceptedCardScheme,
  CertificateConfigFile,
  MerchantCertificate,
  MerchantConfig,
  MerchantConfigFile,
  MerchantDefaults,
  MerchantV1Credentials,
  NotificationSettings,
  OrderVerificationSettings,
  PickupPoint,
  SandboxConfig,
  WidgetConfig,
  WidgetConfigFile,
  WidgetValidation,
} from './types.js';

/** The file's shape once ajv has filled in the schema's defaults (the schema holds every default value). */
export interface FilledConfigFile {
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
export class SemanticChecker {
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
      ...(merchant.brand && {
        brand: checkBrand(merchant.brand, `${path}.brand`, this.baseDir, (issue) =>
          this.add(issue.path, issue.message),
        ),
      }),
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
