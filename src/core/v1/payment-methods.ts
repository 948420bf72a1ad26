/**
 * The payment and payout methods a brand offers: `GET /payment_methods/` and `GET /payout_methods/`.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

/** The query of `GET /payment_methods/`. Booleans travel as `true` / `false`. */
export interface PaymentMethodsQuery {
  brand_id: string;
  /** ISO 4217. */
  currency: string;
  /** ISO 3166-1 alpha-2. */
  country?: string;
  /** `true` leaves out methods without recurring charges. */
  recurring?: boolean;
  /** `true` leaves out methods without `skip_capture`. */
  skip_capture?: boolean;
  /** `true` leaves out methods without preauthorization. */
  preauthorization?: boolean;
  /** ISO 639-1: the language of `names`, `country_names` and group labels. */
  language?: string;
}

/** A logo: a path (or several) relative to the API host, such as `/sandbox/v1/logos/visa.svg`. */
export type MethodLogo = string | string[];

/** A group of methods shown as one choice, such as every card method under `card`. */
export interface PaymentMethodGroup {
  name: string;
  logo: MethodLogo;
  label: string;
  methods: string[];
}

/** The answer of `GET /payment_methods/`. */
export interface PaymentMethods {
  /** Usable in `payment_method_whitelist` and in `?preferred=`. */
  available_payment_methods: string[];
  /** Country code (lower case) to method names; `any` lists the methods of all countries. */
  by_country: Record<string, string[]>;
  /** Country code to its name; `any` is `Other` (in the requested language). */
  country_names: Record<string, string>;
  /** Method to display name. */
  names: Record<string, string>;
  /** Method to logo path(s), relative to the API host. */
  logos: Record<string, MethodLogo>;
  /** The card methods, which are shown grouped under `card`. */
  card_methods: string[];
  payment_method_groups: PaymentMethodGroup[];
}

/** The query of `GET /payout_methods/`. */
export interface PayoutMethodsQuery {
  brand_id: string;
  /** ISO 4217. */
  currency: string;
  /** ISO 639-1. */
  language?: string;
}

/** The answer of `GET /payout_methods/`. */
export interface PayoutMethods {
  /** Usable in `payout_method_whitelist`. */
  available_payout_methods: string[];
  names: Record<string, string>;
  logos: Record<string, MethodLogo>;
  card_methods: string[];
}
