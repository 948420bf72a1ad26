/**
 * What the v1 payment method picker shows, derived from the answer of `GET /payment_methods/`
 * (`spec/gateway-rest-api-v1.md`): the answer's `payment_method_groups` in their order, each as one of three
 * kinds of choice. Card methods (`card_methods`) are one choice under their group, as the document groups
 * them; a group with methods of particular countries (`by_country`) lists them per country, with `any` as
 * Other; any other group lists its methods. Names come from `names`, countries from `country_names`, and
 * logos, paths relative to the API host, are made absolute on the gateway host; a logo that would load from
 * any other origin is dropped (issue 9: a protocol-relative `//host/x.svg` loaded from a third party).
 *
 * The answer comes from the merchant's endpoint, which passes on the gateway's: {@link readPaymentMethods}
 * reads it without trusting its shape, so a member of the wrong type leaves that member out rather than
 * breaking the page.
 */
import { isPlainObject } from './plain-object.js';
import type { MethodLogo, PaymentMethodGroup, PaymentMethods } from './v1-types.js';

/** The `by_country` key of the methods of every country, which the picker calls Other. */
export const ANY_COUNTRY = 'any';

/** One method the customer can choose. */
export interface MethodChoice {
  /** The method's name: what `?preferred=` and `payment_method_whitelist` take. */
  readonly method: string;
  /** The method's display name (`names`), or its name when the answer has none. */
  readonly name: string;
  /** The method's logos as absolute http(s) URLs on the gateway's origin; empty when it has none. */
  readonly logos: readonly string[];
}

/** The methods of a group in one country. */
export interface CountryChoices {
  /** A lower-case ISO 3166-1 alpha-2 code, or {@link ANY_COUNTRY}. */
  readonly code: string;
  /** The country's name (`country_names`); undefined when the answer has none for `any` (say Other). */
  readonly name: string | undefined;
  /** The country's own methods, then the group's methods of every country. */
  readonly methods: readonly MethodChoice[];
}

interface GroupViewBase {
  /** The group's name, such as `card` or `bank`. */
  readonly name: string;
  /** The group's label; undefined for a group the answer did not name (methods in no group). */
  readonly label: string | undefined;
  /** The group's logos as absolute http(s) URLs on the gateway's origin. */
  readonly logos: readonly string[];
}

/**
 * One group as the picker shows it:
 * - `card`: one choice for all its methods (all card methods); `methods` says which (for their names);
 * - `byCountry`: its methods per country (at least one country besides `any`), the customer's country first
 *   chosen and changeable;
 * - `list`: each method its own choice.
 */
export type MethodGroupView =
  | (GroupViewBase & { readonly kind: 'card'; readonly methods: readonly MethodChoice[] })
  | (GroupViewBase & { readonly kind: 'byCountry'; readonly countries: readonly CountryChoices[] })
  | (GroupViewBase & { readonly kind: 'list'; readonly methods: readonly MethodChoice[] });

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((entry) => typeof entry === 'string');
}

function isLogo(value: unknown): value is MethodLogo {
  return typeof value === 'string' || isStringArray(value);
}

/** The members of a record that pass `keep`; others, and a record that is none, are left out. */
function recordOf<T>(value: unknown, keep: (entry: unknown) => entry is T): Record<string, T> {
  const result: Record<string, T> = {};
  if (!isPlainObject(value)) return result;
  for (const [key, entry] of Object.entries(value)) if (keep(entry)) result[key] = entry;
  return result;
}

function isGroup(value: unknown): value is PaymentMethodGroup {
  return (
    isPlainObject(value) &&
    typeof value['name'] === 'string' &&
    typeof value['label'] === 'string' &&
    isLogo(value['logo']) &&
    isStringArray(value['methods'])
  );
}

const isString = (value: unknown): value is string => typeof value === 'string';

/**
 * The payment methods answer in `value`, read member by member: members of the wrong type are left out (an
 * empty list or map in their place). Undefined when `value` is not an object with
 * `available_payment_methods` as a list of names, which every answer has.
 */
export function readPaymentMethods(value: unknown): PaymentMethods | undefined {
  if (!isPlainObject(value) || !isStringArray(value['available_payment_methods'])) return undefined;
  const groups = value['payment_method_groups'];
  return {
    available_payment_methods: value['available_payment_methods'],
    by_country: recordOf(value['by_country'], isStringArray),
    country_names: recordOf(value['country_names'], isString),
    names: recordOf(value['names'], isString),
    logos: recordOf(value['logos'], isLogo),
    card_methods: isStringArray(value['card_methods']) ? value['card_methods'] : [],
    payment_method_groups: Array.isArray(groups) ? groups.filter(isGroup) : [],
  };
}

/**
 * A logo path made absolute on the gateway host (`gateway`, an origin or any URL on it). Only a URL on the
 * gateway's own origin is kept: one that resolves elsewhere (`//host/x.svg`, `/\host/x.svg`, an absolute
 * URL on another host, scheme or port), another scheme, or text that is no URL gives undefined, so the
 * answer can make the page load nothing from a third party.
 */
export function resolveLogo(path: string, gateway: string): string | undefined {
  try {
    const base = new URL(gateway);
    const url = new URL(path, base);
    const http = url.protocol === 'https:' || url.protocol === 'http:';
    return http && url.origin === base.origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function resolveLogos(logo: MethodLogo | undefined, gateway: string): string[] {
  const paths = logo === undefined ? [] : typeof logo === 'string' ? [logo] : logo;
  return paths.flatMap((path) => resolveLogo(path, gateway) ?? []);
}

/** The group's shape before its kind is decided. */
interface GroupDraft {
  name: string;
  label: string | undefined;
  logos: string[];
  methods: string[];
}

/**
 * The picker's groups for a payment methods answer, in the answer's order. Only methods in
 * `available_payment_methods` are shown, each once (in the first group that lists it). Available methods
 * in no group are not lost: card methods among them form a card group, the others a group of their own,
 * both without a label (the picker names them).
 */
export function methodGroups(methods: PaymentMethods, gateway: string): MethodGroupView[] {
  const available = new Set(methods.available_payment_methods);
  const cards = new Set(methods.card_methods);
  const placed = new Set<string>();
  const take = (names: readonly string[]): string[] =>
    names.filter((name) => {
      if (!available.has(name) || placed.has(name)) return false;
      placed.add(name);
      return true;
    });
  const drafts: GroupDraft[] = methods.payment_method_groups.map((group) => ({
    name: group.name,
    label: group.label,
    logos: resolveLogos(group.logo, gateway),
    methods: take(group.methods),
  }));
  const rest = take(methods.available_payment_methods);
  const restCards = rest.filter((name) => cards.has(name));
  const restOthers = rest.filter((name) => !cards.has(name));
  if (restCards.length > 0) drafts.push({ name: 'card', label: undefined, logos: [], methods: restCards });
  if (restOthers.length > 0) drafts.push({ name: 'other', label: undefined, logos: [], methods: restOthers });

  const choice = (method: string): MethodChoice => ({
    method,
    name: methods.names[method] || method,
    logos: resolveLogos(methods.logos[method], gateway),
  });
  const views: MethodGroupView[] = [];
  for (const { name, label, logos, methods: members } of drafts) {
    if (members.length === 0) continue;
    const base = { name, label, logos };
    if (members.every((method) => cards.has(method))) {
      const choices = members.map(choice);
      // A card group without a logo of its own shows its schemes'.
      views.push({
        ...base,
        kind: 'card',
        logos: logos.length > 0 ? logos : choices.flatMap((entry) => entry.logos),
        methods: choices,
      });
      continue;
    }
    const countries = countryChoices(members, methods, choice);
    views.push(
      countries
        ? { ...base, kind: 'byCountry', countries }
        : { ...base, kind: 'list', methods: members.map(choice) },
    );
  }
  return views;
}

/**
 * The group's methods per country, or undefined when none of them belongs to a particular country. A method
 * listed under no country counts as one of every country.
 */
function countryChoices(
  members: readonly string[],
  methods: PaymentMethods,
  choice: (method: string) => MethodChoice,
): CountryChoices[] | undefined {
  const own = new Map<string, string[]>();
  const anywhere = new Set(members);
  for (const [code, listed] of Object.entries(methods.by_country)) {
    if (code === ANY_COUNTRY) continue;
    const inCountry = members.filter((method) => listed.includes(method));
    if (inCountry.length === 0) continue;
    own.set(code.toLowerCase(), inCountry);
    for (const method of inCountry) anywhere.delete(method);
  }
  if (own.size === 0) return undefined;
  // Listed under `any` and under a country too, a method is of every country.
  for (const method of methods.by_country[ANY_COUNTRY] ?? [])
    if (members.includes(method)) anywhere.add(method);
  const everywhere = members.filter((method) => anywhere.has(method));
  const countries: CountryChoices[] = [...own].map(([code, inCountry]) => ({
    code,
    name: methods.country_names[code] ?? methods.country_names[code.toUpperCase()] ?? code.toUpperCase(),
    methods: [...inCountry, ...everywhere.filter((method) => !inCountry.includes(method))].map(choice),
  }));
  if (everywhere.length > 0) {
    countries.push({
      code: ANY_COUNTRY,
      name: methods.country_names[ANY_COUNTRY],
      methods: everywhere.map(choice),
    });
  }
  return countries;
}

/**
 * The country to show first: the first of `wanted` (codes in any case, such as the customer's country, then
 * the browser's regions) that has methods; else Other when offered; else the first country. When `method`
 * (a preselected method) is not among that country's methods, the first country that has it.
 */
export function chooseCountry(
  countries: readonly CountryChoices[],
  wanted: readonly (string | undefined)[],
  method?: string,
): string | undefined {
  const codes = countries.map((country) => country.code);
  const first =
    wanted.map((code) => code?.toLowerCase()).find((code) => code !== undefined && codes.includes(code)) ??
    (codes.includes(ANY_COUNTRY) ? ANY_COUNTRY : codes[0]);
  const has = (code: string | undefined) =>
    countries.find((country) => country.code === code)?.methods.some((entry) => entry.method === method);
  if (method === undefined || has(first)) return first;
  return codes.find(has) ?? first;
}

/** The methods the customer can choose in a group. */
export function groupMethods(group: MethodGroupView): readonly MethodChoice[] {
  return group.kind === 'byCountry' ? group.countries.flatMap((country) => country.methods) : group.methods;
}

/**
 * The checkout URL with `preferred=<method>` set: added to the query it has (replacing an earlier
 * `preferred`), every other parameter and the fragment kept.
 * @throws TypeError when `checkoutUrl` is not an absolute URL.
 */
export function checkoutUrlWithMethod(checkoutUrl: string, method: string): string {
  const url = new URL(checkoutUrl);
  url.searchParams.set('preferred', method);
  return url.href;
}

/** The region of a language tag (`lv-LV` gives `lv`, `en` gives undefined), lower case. */
export function regionOf(tag: string): string | undefined {
  const region = tag.split(/[-_]/).find((part, index) => index > 0 && /^[A-Za-z]{2}$/.test(part));
  return region?.toLowerCase();
}
