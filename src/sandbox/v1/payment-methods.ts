/**
 * `GET /payment_methods/` and `GET /payout_methods/`: the documented query parameters, checked, and the
 * documented answer members, built from the sandbox's method catalogue.
 */
import type { MethodLogo, PaymentMethodGroup, PaymentMethods, PayoutMethods } from '../../core/v1-types.js';
import { UUID } from '../formats.js';
import type { V1Issue } from './errors.js';
import {
  type CatalogueLanguage,
  COUNTRY_NAMES,
  localize,
  logoPath,
  METHOD_COUNTRIES,
  METHOD_GROUPS,
  PAYMENT_METHODS,
  PAYOUT_METHODS,
  type PaymentMethodEntry,
  type PayoutMethodEntry,
} from './method-catalogue.js';

/** What a payment methods lookup asks for, checked. */
export interface PaymentMethodsLookup {
  brandId: string;
  currency: string;
  /** Lower case. */
  country: string | undefined;
  recurring: boolean;
  skipCapture: boolean;
  preauthorization: boolean;
  language: CatalogueLanguage;
}

/** What a payout methods lookup asks for, checked. */
export interface PayoutMethodsLookup {
  brandId: string;
  currency: string;
  language: CatalogueLanguage;
}

const CURRENCY = /^[A-Za-z]{3}$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const LANGUAGE = /^[A-Za-z]{2}$/;

/** Reads query parameters one by one, collecting a problem per parameter. */
class QueryReader {
  readonly issues: V1Issue[] = [];

  constructor(private readonly query: URLSearchParams) {}

  private value(name: string): string | undefined {
    const value = this.query.get(name);
    return value === null || value === '' ? undefined : value;
  }

  required(name: string, pattern: RegExp, what: string): string {
    const value = this.value(name);
    if (value === undefined) {
      this.issues.push({ field: name, code: 'required', message: `${name} is required: ${what}` });
      return '';
    }
    if (!pattern.test(value)) {
      this.issues.push({ field: name, code: 'invalid', message: `${name} must be ${what}` });
    }
    return value;
  }

  optional(name: string, pattern: RegExp, what: string): string | undefined {
    const value = this.value(name);
    if (value !== undefined && !pattern.test(value)) {
      this.issues.push({ field: name, code: 'invalid', message: `${name} must be ${what}` });
      return undefined;
    }
    return value;
  }

  flag(name: string): boolean {
    const value = this.value(name);
    if (value === undefined || value === 'false' || value === '0') return false;
    if (value === 'true' || value === '1') return true;
    this.issues.push({ field: name, code: 'invalid', message: `${name} must be true or false` });
    return false;
  }

  /** `brand_id`, required. */
  brandId(): string {
    return this.required('brand_id', UUID, 'the brand id, a UUID');
  }

  /** `currency`, required; in capitals. */
  currency(): string {
    return this.required('currency', CURRENCY, 'an ISO 4217 currency code such as EUR').toUpperCase();
  }

  /** `language`, optional: the catalogue language it names, else `fallback`. */
  language(fallback: CatalogueLanguage): CatalogueLanguage {
    const code = this.optional('language', LANGUAGE, 'an ISO 639-1 language code such as lv');
    return catalogueLanguage(code, fallback);
  }
}

/** The catalogue language for a requested ISO 639-1 code; others read as English. */
function catalogueLanguage(code: string | undefined, fallback: CatalogueLanguage): CatalogueLanguage {
  if (code === undefined) return fallback;
  const lower = code.toLowerCase();
  return lower === 'lv' || lower === 'ru' || lower === 'en' ? lower : 'en';
}

/** Checks the query of `GET /payment_methods/`: the lookup, or every problem by parameter. */
export function readPaymentMethodsQuery(
  query: URLSearchParams,
  defaultLanguage: CatalogueLanguage,
): { lookup: PaymentMethodsLookup } | { issues: V1Issue[] } {
  const reader = new QueryReader(query);
  // Read member by member, so that the problems are listed in the order of the parameters.
  const lookup: PaymentMethodsLookup = {
    brandId: reader.brandId(),
    currency: reader.currency(),
    country: reader
      .optional('country', COUNTRY, 'an ISO 3166-1 alpha-2 country code such as lv')
      ?.toLowerCase(),
    recurring: reader.flag('recurring'),
    skipCapture: reader.flag('skip_capture'),
    preauthorization: reader.flag('preauthorization'),
    language: reader.language(defaultLanguage),
  };
  return reader.issues.length > 0 ? { issues: reader.issues } : { lookup };
}

/** Checks the query of `GET /payout_methods/`. */
export function readPayoutMethodsQuery(
  query: URLSearchParams,
  defaultLanguage: CatalogueLanguage,
): { lookup: PayoutMethodsLookup } | { issues: V1Issue[] } {
  const reader = new QueryReader(query);
  const lookup: PayoutMethodsLookup = {
    brandId: reader.brandId(),
    currency: reader.currency(),
    language: reader.language(defaultLanguage),
  };
  return reader.issues.length > 0 ? { issues: reader.issues } : { lookup };
}

/** Whether `method` can pay in `currency` with what the purchase asks of it. */
export function methodSupports(
  method: PaymentMethodEntry,
  needs: { currency: string; recurring?: boolean; skipCapture?: boolean; preauthorization?: boolean },
): boolean {
  return (
    method.currencies.includes(needs.currency) &&
    (!needs.recurring || method.recurring) &&
    (!needs.skipCapture || method.skipCapture) &&
    (!needs.preauthorization || method.preauthorization)
  );
}

/** The answer of `GET /payment_methods/`. */
export function paymentMethods(lookup: PaymentMethodsLookup): PaymentMethods {
  const countries = METHOD_COUNTRIES.filter(
    (country) => lookup.country === undefined || country === lookup.country || country === 'any',
  );
  const methods = PAYMENT_METHODS.filter(
    (method) => countries.includes(method.country) && methodSupports(method, lookup),
  );
  const byCountry: Record<string, string[]> = {};
  const countryNames: Record<string, string> = {};
  for (const country of countries) {
    const names = methods.filter((method) => method.country === country).map((method) => method.name);
    if (names.length === 0) continue;
    byCountry[country] = names;
    countryNames[country] = localize(COUNTRY_NAMES[country], lookup.language);
  }
  const groups: PaymentMethodGroup[] = [];
  for (const group of METHOD_GROUPS) {
    const members = methods.filter((method) => method.group === group.name);
    if (members.length === 0) continue;
    groups.push({
      name: group.name,
      // The card choice shows every scheme it takes, as checkout pages do; the others have one badge.
      logo: group.name === 'card' ? members.map((method) => logoPath(method.logo)) : logoPath(group.name),
      label: localize(group.label, lookup.language),
      methods: members.map((method) => method.name),
    });
  }
  return {
    available_payment_methods: methods.map((method) => method.name),
    by_country: byCountry,
    country_names: countryNames,
    ...namesAndLogos(methods, lookup.language),
    card_methods: methods.filter((method) => method.group === 'card').map((method) => method.name),
    payment_method_groups: groups,
  };
}

/** The answer of `GET /payout_methods/`. */
export function payoutMethods(lookup: PayoutMethodsLookup): PayoutMethods {
  const methods = PAYOUT_METHODS.filter((method) => method.currencies.includes(lookup.currency));
  return {
    available_payout_methods: methods.map((method) => method.name),
    ...namesAndLogos(methods, lookup.language),
    card_methods: methods.filter((method) => method.card).map((method) => method.name),
  };
}

/** The `names` and `logos` members of a lookup's answer, by method name. */
function namesAndLogos(
  methods: ReadonlyArray<PaymentMethodEntry | PayoutMethodEntry>,
  language: CatalogueLanguage,
): { names: Record<string, string>; logos: Record<string, MethodLogo> } {
  const names: Record<string, string> = {};
  const logos: Record<string, MethodLogo> = {};
  for (const method of methods) {
    names[method.name] = localize(method.displayName, language);
    logos[method.name] = logoPath(method.logo);
  }
  return { names, logos };
}
