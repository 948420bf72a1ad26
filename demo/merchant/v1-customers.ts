/**
 * The demo shop's customers as v1 Clients: one Client per e-mail address, found or created when a customer
 * checks out with their e-mail, so that their Purchases carry `client_id` and the hosted page offers the cards
 * they saved. The back end keeps e-mail → client id; on a miss it looks through the account's Clients first,
 * so a restart on a kept sandbox finds the Clients it made before instead of making a second one.
 *
 * The demo takes the typed e-mail on trust. A real shop finds the Client of the customer who signed in: with
 * an e-mail alone, anyone who knows it would be offered that customer's saved card.
 */
import type { Client, ClientRecurringToken, V1Client } from 'svc-checkout/server';
import type { V1Order } from './v1-event-log.js';

/** The gateway's own limit on a Client's text members. */
const MAX_EMAIL_LENGTH = 254;
/** As loose as the gateway's check: something, `@`, something with a dot. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The e-mail a customer typed, as the shop keys its Clients by (trimmed, lower case), or why it is none.
 * Lower case, since `Anna@Example.com` and `anna@example.com` reach the same person.
 */
export function readEmail(value: unknown): { email: string } | { error: string } {
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (!EMAIL.test(email) || email.length > MAX_EMAIL_LENGTH) {
    return {
      error: `email must be an e-mail address such as anna@example.com, not ${JSON.stringify(value)}; leave it out to check out as a guest`,
    };
  }
  return { email };
}

/** A saved card of a Client, as the back office shows it. */
export interface SavedCard {
  /** The token's id: the id of the Purchase that saved it. */
  id: string;
  /** For people: `Visa •••• 1111`. */
  description: string;
  /** When it was saved (ISO 8601). */
  savedOn: string;
  /** The shop's reference of the order that saved it; null when the shop did not make that Purchase. */
  reference: string | null;
}

/** A Client of the shop with its saved cards. */
export interface ShopClient {
  id: string;
  email: string;
  fullName: string | null;
  /** ISO 8601. */
  createdOn: string;
  /** Oldest first, as the gateway lists them. */
  cards: SavedCard[];
}

const isoOf = (seconds: number) => new Date(seconds * 1000).toISOString();

export class V1Customers {
  private readonly ids = new Map<string, string>();
  /** Creations under way: two checkouts with a new e-mail at once make one Client. */
  private readonly finding = new Map<string, Promise<string>>();

  constructor(
    private readonly client: V1Client,
    /** The shop's order of a Purchase, to name the order that saved a card. */
    private readonly orderOfPurchase: (purchaseId: string) => V1Order | undefined,
  ) {}

  /** The id of the Client for `email` (as {@link readEmail} gives it): the one known, or a new one. */
  clientIdFor(email: string): Promise<string> {
    const known = this.ids.get(email);
    if (known !== undefined) return Promise.resolve(known);
    let finding = this.finding.get(email);
    if (!finding) {
      finding = this.findOrCreate(email).finally(() => this.finding.delete(email));
      this.finding.set(email, finding);
    }
    return finding;
  }

  /** The id of the Client for `email`, or undefined when the account has none: nothing is created. */
  async findClientId(email: string): Promise<string | undefined> {
    const known = this.ids.get(email);
    if (known !== undefined) return known;
    for await (const candidate of this.client.clients.list()) {
      if (candidate.email.toLowerCase() === email) {
        this.ids.set(email, candidate.id);
        return candidate.id;
      }
    }
    return undefined;
  }

  private async findOrCreate(email: string): Promise<string> {
    const id = (await this.findClientId(email)) ?? (await this.client.clients.create({ email })).id;
    this.ids.set(email, id);
    return id;
  }

  /** Whether the Client has a saved card, which its Purchases' hosted page offers first. */
  async hasSavedCard(clientId: string): Promise<boolean> {
    for await (const _ of this.client.clients.recurringTokens(clientId)) return true;
    return false;
  }

  /**
   * Every customer (Client with an e-mail) of the shop's account, newest first, each with its saved cards. The
   * Clients the gateway makes for guests' Purchases have no e-mail, and are no customers of the shop's.
   */
  async list(): Promise<ShopClient[]> {
    const clients = (await this.client.clients.list().toArray()).filter((client) => client.email !== '');
    const shown = await Promise.all(clients.map((client) => this.view(client)));
    return shown.reverse();
  }

  /**
   * One Client with its cards.
   * @throws V1ApiError `not_found` for a Client the account does not have.
   */
  async get(clientId: string): Promise<ShopClient> {
    return this.view(await this.client.clients.get(clientId));
  }

  /** The saved card `cardId` of the Client, or undefined when it has none such (or no longer). */
  async card(clientId: string, cardId: string): Promise<SavedCard | undefined> {
    const cards = await this.client.clients.recurringTokens(clientId).toArray();
    const token = cards.find((candidate) => candidate.id === cardId);
    return token && this.cardOf(token);
  }

  private async view(client: Client): Promise<ShopClient> {
    const tokens = await this.client.clients.recurringTokens(client.id).toArray();
    return {
      id: client.id,
      email: client.email,
      fullName: client.full_name,
      createdOn: isoOf(client.created_on),
      cards: tokens.map((token) => this.cardOf(token)),
    };
  }

  private cardOf(token: ClientRecurringToken): SavedCard {
    return {
      id: token.id,
      description: token.description,
      savedOn: isoOf(token.created_on),
      reference: this.orderOfPurchase(token.id)?.reference ?? null,
    };
  }
}
