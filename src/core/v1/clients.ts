/**
 * A Purchase's customer as the platform writes it (ClientDetails), and the Clients a merchant keeps.
 * Wire types of v1: the conventions are in ../v1-types.ts, which re-exports this module.
 */

/** The text members of {@link ClientDetails}: `""` on the wire where nothing was given. */
export type ClientDetailsText =
  | 'email'
  | 'phone'
  | 'full_name'
  /** Personal identification code; also the debtor identification value of a variable-creditor payment. */
  | 'personal_code'
  | 'street_address'
  | 'country'
  | 'city'
  | 'zip_code'
  | 'state'
  | 'shipping_street_address'
  | 'shipping_country'
  | 'shipping_city'
  | 'shipping_zip_code'
  | 'shipping_state'
  | 'legal_name'
  | 'brand_name'
  | 'registration_number'
  | 'tax_number'
  | 'bank_account'
  | 'bank_code';

/**
 * The customer of a Purchase as the platform sends it (its ClientDetails): every member always, `""` for a
 * text nobody gave, `[]` for no copies.
 */
export type ClientDetails = Record<ClientDetailsText, string> & {
  /** Addresses that get a copy of the invoice and receipt. */
  cc: string[];
  bcc: string[];
  /** The platform's kind of customer; null when not set (the sandbox never sets it). */
  client_type: 'personal' | 'business' | null;
  /** How invoices reach the customer: the sandbox's are always `[{method: 'email', options: {}}]`. */
  delivery_methods: Array<{ method: string; options: Record<string, unknown> }>;
};

// ---------------------------------------------------------------------------------------------------------
// Clients

/**
 * The members of a Client that a merchant sets: every member of {@link ClientDetails} but the platform's own
 * `client_type` and `delivery_methods`. The document names `email`, `full_name` and `personal_code`. `null`
 * clears a member (`""`, or `[]` for `cc` and `bcc`).
 */
export type ClientRequest = {
  /** Required when creating or replacing a Client. */
  email?: string;
} & {
  /** `country` and `shipping_country`: ISO 3166-1 alpha-2, such as `LV`. */
  [Member in Exclude<ClientDetailsText, 'email'>]?: string | null;
} & {
  /** Addresses that get a copy of the invoice and receipt. */
  cc?: string[] | null;
  bcc?: string[] | null;
};

/** A Client as the gateway answers it: the platform's ClientDetails (every member, `""` where unset) and its id. */
export type Client = ClientDetails & {
  /** UUID; a Purchase's `client_id`. */
  id: string;
  /** Unix timestamp (seconds). */
  created_on: number;
  /** Unix timestamp (seconds). */
  updated_on: number;
};

/**
 * A saved card of a Client: a paid Purchase of the Client made with `force_recurring`. Its `id` is that
 * Purchase's id, which `POST /purchases/{id}/charge/` takes as `recurring_token`. The document shows no
 * other field; these are the sandbox's.
 */
export interface ClientRecurringToken {
  /** The token Purchase's id. */
  id: string;
  /** The method it pays with, such as `visa`. */
  payment_method: string;
  /** For people: `Visa •••• 1111`. */
  description: string;
  /** The card's brand and last four digits, when it is a card. */
  card: { brand: string; last4: string } | null;
  /** Unix timestamp (seconds): when the card was saved. */
  created_on: number;
}
