/**
 * The merchant's payment-methods endpoint, which `<svc-checkout>` in v1 mode calls: it passes the documented
 * filters of `GET /payment_methods/` through a {@link PaymentMethodsCache}, adding the brand from the server's
 * configuration. The secret key stays in the cache's upstream call; nothing in the request can choose either.
 *
 * Every distinct query costs a gateway call a minute and an entry in the cache's store, so the endpoint takes
 * only known codes: ISO 4217 currencies in use, ISO 3166-1 countries and the gateway's languages by default
 * (issue 9: a made-up query cost a gateway call), or the shop's own lists.
 */
import { LANGUAGES } from '../../core/i18n.js';
import { ISO_3166_COUNTRIES, ISO_4217_CURRENCIES } from '../../core/iso-codes.js';
import { type FetchHandler, type HandlerOptions, json, methodNotAllowed } from '../handlers.js';
import {
  checkOptions,
  hasMethods,
  isString,
  isStringList,
  isText,
  type OptionRules,
  onErrorRule,
  optional,
  required,
} from '../options.js';
import {
  type PaymentMethodsCache,
  PaymentMethodsCacheError,
  type PaymentMethodsLookup,
  type PaymentMethodsQuery,
} from './payment-methods-cache.js';

/** The query parameters the endpoint takes: the document's, less `brand_id`, which the server sets. */
export const PAYMENT_METHODS_PARAMETERS = [
  'currency',
  'country',
  'recurring',
  'skip_capture',
  'preauthorization',
  'language',
] as const;

/** One of {@link PAYMENT_METHODS_PARAMETERS}. */
export type PaymentMethodsParameter = (typeof PAYMENT_METHODS_PARAMETERS)[number];

/** What {@link createPaymentMethodsHandler} needs. */
export interface PaymentMethodsHandlerOptions extends Pick<HandlerOptions, 'onError'> {
  /** The brand id from the merchant account's Developers section, sent as `brand_id`. */
  brandId: string;
  /** The cache whose upstream call carries the secret key. */
  cache: PaymentMethodsCache;
  /** Used when a request names no `currency` (the gateway requires one); a request without one is 400 otherwise. */
  defaultCurrency?: string;
  /**
   * The currencies the shop takes (ISO 4217); others are answered 400 without a gateway call. Every ISO 4217
   * currency in use when left out. Name yours: each distinct query costs one gateway call a minute.
   */
  currencies?: readonly string[];
  /** The countries the shop serves (ISO 3166-1 alpha-2); every assigned country when left out. */
  countries?: readonly string[];
  /**
   * The languages asked for (ISO 639-1); the gateway's, `lv`, `en` and `ru`, when left out. `<svc-checkout>`
   * asks in one of those only.
   */
  languages?: readonly string[];
}

const HANDLER_OPTIONS: OptionRules<PaymentMethodsHandlerOptions> = {
  brandId: required('the brand id from the Developers section of the account (a non-empty string)', isText),
  cache: required(
    'a PaymentMethodsCache, such as new PaymentMethodsCache({ fetchPaymentMethods })',
    hasMethods('get'),
  ),
  defaultCurrency: optional('an ISO 4217 code such as EUR', isString),
  currencies: optional("a list of ISO 4217 codes such as ['EUR']", isStringList),
  countries: optional("a list of ISO 3166-1 alpha-2 codes such as ['LV', 'EE']", isStringList),
  languages: optional("a list of ISO 639-1 codes such as ['lv', 'en']", isStringList),
  onError: onErrorRule,
};

/** A query parameter the endpoint refused. */
class ParameterError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}

const CODE_FORMS = {
  currency: { pattern: /^[A-Za-z]{3}$/, form: 'an ISO 4217 code such as EUR', option: 'currencies' },
  country: { pattern: /^[A-Za-z]{2}$/, form: 'an ISO 3166-1 alpha-2 code such as LV', option: 'countries' },
  language: { pattern: /^[A-Za-z]{2}$/, form: 'an ISO 639-1 code such as lv', option: 'languages' },
} as const;

type CodeName = keyof typeof CODE_FORMS;

/** The codes a parameter takes, in their ISO case, and how a refusal names them. */
interface AllowList {
  codes: ReadonlySet<string>;
  /** Ends the refusal's sentence: `is not offered here; use one of EUR, USD`. */
  refusal: string;
}

function isoCase(name: CodeName, value: string): string {
  return name === 'language' ? value.toLowerCase() : value.toUpperCase();
}

const DEFAULT_REFUSALS: Readonly<Record<CodeName, string>> = {
  currency: 'is not an ISO 4217 currency in use',
  country: 'is not an ISO 3166-1 country',
  language: `is not one of the gateway's languages (${LANGUAGES.join(', ')})`,
};

/**
 * The allow-list of a parameter: the shop's list when given, else the default.
 * @throws TypeError naming the option when the shop's list is empty or has a malformed code.
 */
function allowList(
  name: CodeName,
  given: readonly string[] | undefined,
  fallback: readonly string[],
): AllowList {
  if (given === undefined) {
    return { codes: new Set(fallback.map((code) => isoCase(name, code))), refusal: DEFAULT_REFUSALS[name] };
  }
  const { pattern, form, option } = CODE_FORMS[name];
  const bad = given.find((code) => !pattern.test(code));
  if (given.length === 0 || bad !== undefined) {
    throw new TypeError(
      `createPaymentMethodsHandler: the option "${option}" must list codes, each ${form}` +
        (bad === undefined ? '; leave it out to take every one' : `, not ${JSON.stringify(bad)}`),
    );
  }
  const codes = new Set(given.map((code) => isoCase(name, code)));
  return { codes, refusal: `is not offered here; use one of ${[...codes].join(', ')}` };
}

function readCode(name: CodeName, value: string, allowed: AllowList): string {
  const { pattern, form } = CODE_FORMS[name];
  if (!pattern.test(value))
    throw new ParameterError(name, `${name} must be ${form}, not ${JSON.stringify(value)}`);
  const code = isoCase(name, value);
  if (!allowed.codes.has(code)) throw new ParameterError(name, `${name} ${code} ${allowed.refusal}`);
  return code;
}

function readFlag(name: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ParameterError(name, `${name} must be true or false, not ${JSON.stringify(value)}`);
}

/** What a request's query is read with. */
interface QueryRules {
  brandId: string;
  defaultCurrency: string | undefined;
  allowed: Readonly<Record<CodeName, AllowList>>;
}

/**
 * The gateway query for a request's search parameters.
 * @throws ParameterError naming the first parameter that is unknown, repeated, malformed or not allowed.
 */
function readQuery(params: URLSearchParams, options: QueryRules): PaymentMethodsQuery {
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (name === 'brand_id') {
      throw new ParameterError(name, 'brand_id is set by the server; leave it out of the request');
    }
    if (!(PAYMENT_METHODS_PARAMETERS as readonly string[]).includes(name)) {
      throw new ParameterError(
        name,
        `${JSON.stringify(name)} is not a payment methods parameter; use ${PAYMENT_METHODS_PARAMETERS.join(', ')}`,
      );
    }
    if (seen.has(name)) throw new ParameterError(name, `${name} is given more than once`);
    seen.add(name);
  }
  const currency = params.get('currency') ?? options.defaultCurrency;
  if (currency === undefined)
    throw new ParameterError('currency', 'currency is required, such as currency=EUR');
  const query: PaymentMethodsQuery = {
    brand_id: options.brandId,
    currency: readCode('currency', currency, options.allowed.currency),
  };
  const country = params.get('country');
  if (country !== null) query.country = readCode('country', country, options.allowed.country);
  const language = params.get('language');
  if (language !== null) query.language = readCode('language', language, options.allowed.language);
  for (const flag of ['recurring', 'skip_capture', 'preauthorization'] as const) {
    const value = params.get(flag);
    if (value !== null) query[flag] = readFlag(flag, value);
  }
  return query;
}

function seconds(ms: number): string {
  return String(Math.max(0, Math.ceil(ms / 1000)));
}

/** The gateway's answer, cacheable by the browser (and shared caches) until the cache itself would refresh. */
function answer(lookup: PaymentMethodsLookup): Response {
  return json(200, lookup.methods, {
    'cache-control': `public, max-age=${seconds(lookup.refreshInMs)}`,
    age: String(Math.max(0, Math.floor(lookup.ageMs / 1000))),
    'x-svc-cache': lookup.stale ? 'stale' : 'fresh',
  });
}

/**
 * The payment-methods endpoint for `<svc-checkout>` in v1 mode. GET with the documented filters
 * (`currency`, `country`, `recurring`, `skip_capture`, `preauthorization`, `language`) answers the gateway's
 * payment methods JSON with `Cache-Control: public, max-age=<seconds until the next refresh>`, `Age`, and
 * `X-Svc-Cache: fresh` or `stale` (the gateway failed and the last good answer is served).
 * Errors: 400 `{error: 'invalid_parameter', parameter, message}` (also for a code outside the allow-lists,
 * with no gateway call); 405 for other methods; 502 `{error: 'gateway_unavailable'}` or 503
 * `{error: 'gateway_busy'}` with `Retry-After` when nothing is cached; 500 for an error the cache does not
 * know (reported to `onError`). A failing store is no error: the cache goes on without it.
 *
 * @example
 * ```ts
 * const cache = new PaymentMethodsCache({ fetchPaymentMethods: (query) => v1.paymentMethods(query) });
 * const handler = createPaymentMethodsHandler({ brandId, cache, defaultCurrency: 'EUR' });
 * app.get('/api/payment-methods', toNodeHandler(handler));
 * ```
 * @throws TypeError at once naming the option when one is unknown, missing or of the wrong kind, when an
 *   allow-list is empty or holds a malformed code, or when `defaultCurrency` is malformed or not allowed.
 */
export function createPaymentMethodsHandler(options: PaymentMethodsHandlerOptions): FetchHandler {
  checkOptions('createPaymentMethodsHandler', options, HANDLER_OPTIONS);
  const rules: QueryRules = {
    brandId: options.brandId,
    defaultCurrency: options.defaultCurrency,
    allowed: {
      currency: allowList('currency', options.currencies, ISO_4217_CURRENCIES),
      country: allowList('country', options.countries, ISO_3166_COUNTRIES),
      language: allowList('language', options.languages, LANGUAGES),
    },
  };
  if (options.defaultCurrency !== undefined) {
    try {
      readCode('currency', options.defaultCurrency, rules.allowed.currency);
    } catch (error) {
      throw new TypeError(
        `createPaymentMethodsHandler: the option "defaultCurrency" is wrong: ${(error as Error).message}`,
      );
    }
  }
  return async (request) => {
    if (request.method !== 'GET') return methodNotAllowed('GET');
    let query: PaymentMethodsQuery;
    try {
      query = readQuery(new URL(request.url).searchParams, rules);
    } catch (error) {
      if (!(error instanceof ParameterError)) throw error;
      return json(400, { error: 'invalid_parameter', parameter: error.parameter, message: error.message });
    }
    try {
      return answer(await options.cache.get(query));
    } catch (error) {
      if (!(error instanceof PaymentMethodsCacheError)) {
        (options.onError ?? ((cause: unknown) => console.error('svc-checkout payment methods:', cause)))(
          error,
        );
        return json(500, {
          error: 'server_error',
          message: 'The payment methods lookup failed; see the server log',
        });
      }
      // The upstream error's own text goes to onRefreshError (the server log), not to the browser.
      const busy = error.code === 'refresh_timeout';
      return json(
        busy ? 503 : 502,
        busy
          ? { error: 'gateway_busy', message: 'The payment methods are being fetched; try again shortly' }
          : {
              error: 'gateway_unavailable',
              message: 'The gateway cannot list payment methods now; try again later',
            },
        { 'retry-after': seconds(error.retryInMs) },
      );
    }
  };
}
