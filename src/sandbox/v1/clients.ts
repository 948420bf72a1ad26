/**
 * v1 Clients in the sandbox store: a merchant's customers, and their saved cards. A saved card (a
 * ClientRecurringToken) is not kept apart: it is a Purchase of the Client paid with `force_recurring` or
 * `preauthorized` (its card saved without a charge) whose `is_recurring_token` is still true, and its id is
 * that Purchase's id, the one `charge` takes as `recurring_token`. Deleting it deletes the Purchase's token,
 * so it is hidden at checkout, refused by `charge`, and `is_recurring_token` turns false, as the document's
 * Clients rules say.
 *
 * The document names only `email`, `full_name` and `personal_code`; a Client has every member of the
 * platform's ClientDetails, as a Purchase's `client` has, `""` where unset.
 */
import { randomUUID } from 'node:crypto';
import { isEmailAddress } from '../../core/email-address.js';
import type {
  Client,
  ClientDetailsText,
  ClientRecurringToken,
  ClientRequest,
  PurchaseClient,
} from '../../core/v1-types.js';
import type { TestAcquirer } from '../acquirer.js';
import { BodyReader, type Json } from '../body-reader.js';
import { UUID } from '../formats.js';
import type { Collection, Store } from '../store.js';
import { V1HttpError, type V1Issue } from './errors.js';
import { findPaymentMethod, localize } from './method-catalogue.js';
import { readEmails } from './purchase-request.js';
import { CLIENT_DETAILS_TEXTS, clientDetails } from './purchase-view.js';
import type { PurchaseRecord, V1Purchases } from './purchases.js';

/**
 * A Client as stored: its id, timestamps and the members given. Clients stored by earlier versions have
 * `null` for members unset; {@link clientView} writes both as the platform does.
 */
interface ClientRecord {
  merchantId: string;
  /** Creation order, which lists keep. */
  seq: number;
  client: StoredClient;
}

type StoredClient = { id: string; email: string; created_on: number; updated_on: number } & {
  [Member in Exclude<ClientDetailsText, 'email'>]?: string | null;
} & { cc?: string[] | null; bcc?: string[] | null };

/** The text members a merchant sets besides `email`. */
const TEXT_FIELDS = CLIENT_DETAILS_TEXTS.filter(
  (field): field is Exclude<ClientDetailsText, 'email'> => field !== 'email',
);

/** Members the platform writes and a merchant does not set: taken back unchanged in a body, and ignored. */
const READ_ONLY = ['id', 'created_on', 'updated_on', 'client_type', 'delivery_methods'];

/** Countries are ISO 3166-1 alpha-2 codes. */
const COUNTRY_FIELDS = ['country', 'shipping_country'] as const;

const MAX_TEXT = 256;

export class V1Clients {
  private readonly records: Collection<ClientRecord>;
  private seq = 0;

  constructor(
    store: Store,
    private readonly purchases: V1Purchases,
    private readonly acquirer: TestAcquirer,
    /** Now on the merchant's clock. */
    private readonly now: (merchantId: string) => Date,
  ) {
    this.records = store.collection<ClientRecord>('v1-clients');
    for (const record of this.records.values()) this.seq = Math.max(this.seq, record.seq);
  }

  create(merchantId: string, request: ClientRequest & { email: string }): Client {
    const now = this.seconds(merchantId);
    const client: StoredClient = { id: randomUUID(), ...request, created_on: now, updated_on: now };
    this.records.put(client.id, { merchantId, seq: ++this.seq, client });
    return clientView(client);
  }

  /** The merchant's Clients, oldest first. */
  list(merchantId: string): Client[] {
    return [...this.records.values()]
      .filter((record) => record.merchantId === merchantId)
      .sort((a, b) => a.seq - b.seq)
      .map((record) => clientView(record.client));
  }

  /**
   * The merchant's Client `id`.
   * @throws V1HttpError 404 when there is none (or it is another merchant's).
   */
  get(merchantId: string, id: string): Client {
    return clientView(this.record(merchantId, id).client);
  }

  /**
   * What a Purchase for the merchant's Client `id` carries of it: its email and each member it has.
   * @throws V1HttpError 404.
   */
  purchaseClient(merchantId: string, id: string): PurchaseClient {
    const stored = this.get(merchantId, id);
    const given: PurchaseClient = Object.fromEntries(
      CLIENT_DETAILS_TEXTS.flatMap((field) => (stored[field] === '' ? [] : [[field, stored[field]]])),
    );
    if (stored.cc.length > 0) given.cc = stored.cc;
    if (stored.bcc.length > 0) given.bcc = stored.bcc;
    return given;
  }

  /**
   * The Client of a Purchase whose merchant named none, as the platform finds or makes it: the merchant's
   * Client with the Purchase's email, else a new Client with the Purchase's details.
   */
  clientForPurchase(merchantId: string, details: PurchaseClient): string {
    const email = details.email?.toLowerCase();
    const known = email
      ? this.list(merchantId).find((client) => client.email.toLowerCase() === email)
      : undefined;
    if (known) return known.id;
    // A country the Clients API would refuse is left out, so that the Client can be sent back as read.
    const made: PurchaseClient = { ...details };
    for (const field of COUNTRY_FIELDS) if (!isCountry(made[field] ?? '')) delete made[field];
    return this.create(merchantId, { ...made, email: details.email ?? '' }).id;
  }

  /** Whether the merchant has a Client `id` (for a Purchase's `client_id`). */
  has(merchantId: string, id: string): boolean {
    const record = UUID.test(id) ? this.records.get(id.toLowerCase()) : undefined;
    return record?.merchantId === merchantId;
  }

  /**
   * Replaces (`PUT`) or changes (`PATCH`) the members a merchant sets.
   * @throws V1HttpError 404.
   */
  update(merchantId: string, id: string, request: ClientRequest, partial: boolean): Client {
    const record = this.record(merchantId, id);
    const { id: own, email, created_on } = record.client;
    const base: StoredClient = partial ? record.client : { id: own, email, created_on, updated_on: 0 };
    const client: StoredClient = { ...base, ...request, updated_on: this.seconds(merchantId) };
    this.records.put(client.id, { ...record, client });
    return clientView(client);
  }

  /**
   * Removes the Client. Its saved cards go with it (each token is deleted as `delete_recurring_token` would),
   * so that no charge can use a card of a customer who is gone. Its Purchases stay.
   * @throws V1HttpError 404.
   */
  delete(merchantId: string, id: string, deleteToken: (purchaseId: string) => void): void {
    const record = this.record(merchantId, id);
    for (const token of this.tokenPurchases(merchantId, record.client.id)) deleteToken(token.purchase.id);
    this.records.delete(record.client.id);
  }

  /** The Client's saved cards, oldest first. */
  tokens(merchantId: string, clientId: string): ClientRecurringToken[] {
    const { id } = this.get(merchantId, clientId);
    return this.tokenPurchases(merchantId, id).map((record) => this.tokenView(record));
  }

  /**
   * The Client's saved card `tokenId`.
   * @throws V1HttpError 404 when the Client has no such token (a deleted one included).
   */
  token(merchantId: string, clientId: string, tokenId: string): ClientRecurringToken {
    const { id } = this.get(merchantId, clientId);
    const found = this.purchases.find(tokenId);
    if (!found || !isTokenOf(found, merchantId, id))
      throw V1HttpError.nonField(404, 'not_found', `The client has no recurring token ${tokenId}`);
    return this.tokenView(found);
  }

  /** The Client's token Purchases: paid with `force_recurring` (or preauthorized) and still a token. */
  tokenPurchases(merchantId: string, clientId: string): PurchaseRecord[] {
    return [...this.purchases.all()]
      .filter((record) => isTokenOf(record, merchantId, clientId))
      .sort((a, b) => (a.purchase.updated_on ?? 0) - (b.purchase.updated_on ?? 0));
  }

  /** A saved card as the Clients endpoints answer it: `Visa •••• 1111`. */
  tokenView(record: PurchaseRecord): ClientRecurringToken {
    const { purchase } = record;
    const attempt = purchase.transaction_data.attempts.find((candidate) => candidate.successful);
    const method = attempt?.payment_method ?? 'card';
    const entry = findPaymentMethod(method);
    const name = entry ? localize(entry.displayName, 'en') : method;
    const instrument = record.authorisationId
      ? this.acquirer.get(record.authorisationId)?.instrument
      : undefined;
    const card =
      instrument?.kind === 'card' ? { brand: instrument.card.brand, last4: instrument.card.last4 } : null;
    return {
      id: purchase.id,
      payment_method: method,
      description: card ? `${name} •••• ${card.last4}` : name,
      card,
      created_on: purchase.updated_on ?? purchase.created_on ?? 0,
    };
  }

  private record(merchantId: string, id: string): ClientRecord {
    const record = UUID.test(id) ? this.records.get(id.toLowerCase()) : undefined;
    if (!record || record.merchantId !== merchantId) {
      throw V1HttpError.nonField(404, 'not_found', `No client ${id}`);
    }
    return record;
  }

  private seconds(merchantId: string): number {
    return Math.floor(this.now(merchantId).getTime() / 1000);
  }
}

/** Whether the Purchase is a saved card of the merchant's Client (still a token). */
function isTokenOf(record: PurchaseRecord, merchantId: string, clientId: string): boolean {
  return (
    record.merchantId === merchantId &&
    record.purchase.client_id === clientId &&
    record.purchase.is_recurring_token
  );
}

/** An ISO 3166-1 alpha-2 code such as `LV`, or `""` (none). */
function isCountry(value: string): boolean {
  return value === '' || /^[A-Z]{2}$/.test(value);
}

/** The Client as the platform writes it: every member of ClientDetails, `""` or `[]` where unset. */
function clientView(stored: StoredClient): Client {
  const { id, created_on, updated_on, ...members } = stored;
  const given = Object.fromEntries(Object.entries(members).filter(([, value]) => value !== null));
  return { id, ...clientDetails(given), created_on, updated_on };
}

/**
 * Checks a Client body: `email` is required for a whole Client (`POST`, `PUT`), optional in a `PATCH`.
 * Read-only members (`id`, timestamps, `client_type`, `delivery_methods`) are ignored; unknown members are
 * refused, naming them.
 * @returns the members given, or every problem found.
 */
export function readClientBody(
  body: Json,
  partial: boolean,
): { client: ClientRequest } | { issues: V1Issue[] } {
  const reader = new BodyReader();
  const known = new Set<string>(['email', ...TEXT_FIELDS, 'cc', 'bcc', ...READ_ONLY]);
  for (const key of Object.keys(body)) {
    if (!known.has(key)) reader.add(key, 'invalid', `${key} is not a field of a Client`);
  }
  const client: ClientRequest = {};
  // A Client always has an email: a PATCH may change it, never clear it.
  const email = reader.string(body, 'email', 'email', !partial || body['email'] !== undefined);
  if (email !== undefined) {
    if (isEmailAddress(email) && email.length <= MAX_TEXT) client.email = email;
    else reader.add('email', 'invalid', 'email must be an email address');
  }
  for (const field of TEXT_FIELDS) {
    if (body[field] === null) {
      client[field] = null;
      continue;
    }
    const value = reader.string(body, field, field);
    if (value === undefined) continue;
    if (value.length > MAX_TEXT)
      reader.add(field, 'max_length', `${field} has at most ${MAX_TEXT} characters`);
    else if ((COUNTRY_FIELDS as readonly string[]).includes(field) && !isCountry(value)) {
      reader.add(field, 'invalid', `${field} must be an ISO 3166-1 alpha-2 code such as LV`);
    } else client[field] = value;
  }
  for (const field of ['cc', 'bcc'] as const) {
    if (body[field] === null) {
      client[field] = null;
      continue;
    }
    const emails = readEmails(reader, body, field, field);
    if (emails) client[field] = emails;
  }
  return reader.issues.length > 0 ? { issues: reader.issues } : { client };
}
