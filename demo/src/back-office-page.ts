/**
 * The back office page: the shop's v1 orders as its back end knows them, each with the actions its status
 * allows (capture in full or in part, release, refund in full or in part, charge the saved card again, mark
 * as paid), the shop's Clients with their saved cards (charge one, remove one), and every success callback
 * and webhook the back end verified. Kept live through the shop's server-sent events
 * (GET /api/notifications/events), the Clients read again (GET /api/v1/back-office/clients) whenever an order
 * changes, and the subscriptions, outbox and balance (back-office-billing.ts) whenever an event arrives;
 * actions are JSON posts to /api/v1/back-office/*, and what they did, or why the gateway refused, is said in
 * one live region.
 *
 * Keyboard first: every action is a native form (Enter submits), an order's controls are rebuilt only when
 * its actions change, and when the focused control goes away the order's heading takes the focus.
 */
import type {
  BackOfficeDone,
  BackOfficeOperation,
  CardRemoved,
  ClientCardOperation,
  V1_BACK_OFFICE_CLIENT_PATHS,
  V1_BACK_OFFICE_PATHS,
} from '../merchant/v1-back-office.js';
import { money } from '../merchant/v1-cart.js';
import type { SavedCard, ShopClient } from '../merchant/v1-customers.js';
import type { V1LogEvent, V1Order, V1OrderMode, V1ReceivedEvent } from '../merchant/v1-event-log.js';
import { oneAtATime, post, say } from './back-office-actions.js';
import { refreshBilling } from './back-office-billing.js';
import { cell, V1_SOURCE_NAMES } from './display.js';

/** The back end's routes; typed by its own table, so a path that differs does not compile. */
const PATHS: Omit<typeof V1_BACK_OFFICE_PATHS, 'purchases'> = {
  capture: '/api/v1/back-office/capture',
  release: '/api/v1/back-office/release',
  refund: '/api/v1/back-office/refund',
  charge: '/api/v1/back-office/charge',
  markAsPaid: '/api/v1/back-office/mark-as-paid',
};

const CLIENT_PATHS: typeof V1_BACK_OFFICE_CLIENT_PATHS = {
  clients: '/api/v1/back-office/clients',
  removeCard: '/api/v1/back-office/remove-card',
  chargeCard: '/api/v1/back-office/charge-card',
};

const ordersList = document.querySelector<HTMLElement>('#orders')!;
const ordersEmpty = document.querySelector<HTMLElement>('#orders-empty')!;
const receivedBody = document.querySelector<HTMLTableSectionElement>('#received tbody')!;
const receivedEmpty = document.querySelector<HTMLElement>('#received-empty')!;
const live = document.querySelector<HTMLElement>('#live-status')!;
const clientsList = document.querySelector<HTMLElement>('#clients')!;
const clientsEmpty = document.querySelector<HTMLElement>('#clients-empty')!;

const MODE_NAMES: Record<Exclude<V1OrderMode, 'charge'>, string> = {
  pay: 'Paid at once',
  reserve: 'Reservation (skip_capture)',
  save_card: 'Paid at once, card saved (force_recurring)',
};

function modeName(order: V1Order): string {
  return order.mode === 'charge'
    ? `Charge of the card saved with order ${order.chargedWith ?? '?'}`
    : MODE_NAMES[order.mode];
}

/** What the staff can do to an order in its status; the gateway still has the last word. */
function actionsFor(order: V1Order): BackOfficeOperation[] {
  switch (order.status) {
    case 'hold':
      return ['capture', 'release'];
    case 'paid':
      return [
        ...(order.refundableAmount > 0 ? (['refund'] as const) : []),
        ...(order.isRecurringToken ? (['charge'] as const) : []),
      ];
    case 'created':
    case 'error':
      return ['markAsPaid'];
    default:
      return [];
  }
}

interface ActionText {
  button: string;
  /** The amount field's label, for actions that take an amount. */
  amountLabel?: string;
  hint(order: V1Order): string;
}

const ACTIONS: Record<BackOfficeOperation, ActionText> = {
  capture: {
    button: 'Capture',
    amountLabel: 'Amount to capture',
    hint: (order) =>
      `Empty: all ${money(order.total, order.currency)} held. Less captures part of it and releases the rest.`,
  },
  release: {
    button: 'Release the hold',
    hint: (order) => `Gives the ${money(order.total, order.currency)} held back to the customer's card.`,
  },
  refund: {
    button: 'Refund',
    amountLabel: 'Amount to refund',
    hint: (order) =>
      `Empty: all ${money(order.refundableAmount, order.currency)} that can still be refunded.`,
  },
  charge: {
    button: 'Charge the saved card',
    hint: (order) =>
      `A new order of the same cart (${money(order.total, order.currency)}), paid with this order's card without the customer.`,
  },
  markAsPaid: {
    button: 'Mark as paid',
    hint: () => 'The customer paid outside the gateway, such as by bank transfer.',
  },
};

/**
 * An amount in euros as the staff type it (`17.45`, `17,45`, `17`) in cents; undefined when empty.
 * Parsed as text, never through a float.
 */
function readAmount(text: string, currency: string): { cents: number | undefined } | { error: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { cents: undefined };
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(trimmed);
  const cents = match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : 0;
  if (cents === 0) {
    return {
      error: `Write the amount in ${currency} above zero with at most 2 decimals, such as 17.45, or leave it empty for all of it.`,
    };
  }
  return { cents };
}

/** One order on the page, updated in place so that focus and typed amounts survive live updates. */
class OrderView {
  readonly element: HTMLElement;
  private readonly heading: HTMLHeadingElement;
  private readonly actions: HTMLElement;
  private readonly fields: Record<'status' | 'amount' | 'refundable' | 'token' | 'mode', HTMLElement>;
  private shownActions = '';

  constructor(private order: V1Order) {
    const id = `order-${order.purchaseId}`;
    this.element = document.createElement('article');
    this.element.className = 'panel order';
    this.element.id = id;
    this.element.setAttribute('aria-labelledby', `${id}-title`);
    this.element.dataset['reference'] = order.reference;
    this.heading = document.createElement('h3');
    this.heading.id = `${id}-title`;
    // Where focus goes when the control that had it is gone (the action was done).
    this.heading.tabIndex = -1;
    this.heading.textContent = `Order ${order.reference}`;
    const facts = document.createElement('dl');
    facts.className = 'facts';
    const fact = (term: string) => {
      const group = document.createElement('div');
      const name = document.createElement('dt');
      name.textContent = term;
      const value = document.createElement('dd');
      group.append(name, value);
      facts.append(group);
      return value;
    };
    this.fields = {
      status: fact('Status'),
      amount: fact('Amount'),
      refundable: fact('Refundable'),
      token: fact('Saved card (recurring token)'),
      mode: fact('How'),
    };
    this.actions = document.createElement('div');
    this.actions.className = 'actions';
    this.element.append(this.heading, facts, this.actions);
    this.show(order);
  }

  show(order: V1Order): void {
    this.order = order;
    this.element.dataset['status'] = order.status;
    this.fields.status.textContent = order.markedAsPaid ? `${order.status} (marked as paid)` : order.status;
    this.fields.amount.textContent = money(order.total, order.currency);
    this.fields.refundable.textContent = money(order.refundableAmount, order.currency);
    this.fields.token.textContent = order.isRecurringToken ? 'yes' : 'no';
    this.fields.mode.textContent = modeName(order);
    const actions = actionsFor(order);
    if (actions.join() === this.shownActions) {
      // The same controls: only their amounts may have changed.
      for (const form of this.actions.querySelectorAll<HTMLFormElement>('form[data-action]')) {
        const hint = form.querySelector('.hint');
        if (hint) hint.textContent = ACTIONS[form.dataset['action'] as BackOfficeOperation].hint(order);
      }
      return;
    }
    const hadFocus = this.actions.contains(document.activeElement);
    this.shownActions = actions.join();
    this.actions.replaceChildren(
      ...(actions.length > 0 ? actions.map((action) => this.form(action)) : [this.nothingToDo()]),
    );
    if (hadFocus) this.heading.focus();
  }

  private nothingToDo(): HTMLElement {
    const note = document.createElement('p');
    note.className = 'hint';
    note.textContent = this.order.status.startsWith('pending_')
      ? 'Waiting for the acquirer to answer.'
      : 'Nothing to do now.';
    return note;
  }

  private form(action: BackOfficeOperation): HTMLFormElement {
    const text = ACTIONS[action];
    const id = `${this.element.id}-${action}`;
    const form = document.createElement('form');
    form.className = 'action';
    form.dataset['action'] = action;
    form.noValidate = true;
    const hint = document.createElement('p');
    hint.className = 'hint';
    hint.id = `${id}-hint`;
    hint.textContent = text.hint(this.order);
    let input: HTMLInputElement | undefined;
    if (text.amountLabel) {
      const label = document.createElement('label');
      label.htmlFor = `${id}-amount`;
      label.textContent = `${text.amountLabel} (${this.order.currency})`;
      input = document.createElement('input');
      input.id = `${id}-amount`;
      input.name = 'amount';
      input.inputMode = 'decimal';
      input.autocomplete = 'off';
      input.setAttribute('aria-describedby', hint.id);
      form.append(label, input);
    }
    const button = document.createElement('button');
    button.type = 'submit';
    // Every order has the same buttons: the hidden words tell them apart for screen readers.
    const which = document.createElement('span');
    which.className = 'visually-hidden';
    which.textContent = ` order ${this.order.reference}`;
    button.append(text.button, which);
    if (!input) button.setAttribute('aria-describedby', hint.id);
    form.append(button, hint);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(action, input);
    });
    return form;
  }

  private async run(action: BackOfficeOperation, input: HTMLInputElement | undefined): Promise<void> {
    // Pressing Enter twice is one action: a second capture would be refused, a second charge would not.
    if (this.element.hasAttribute('aria-busy')) return;
    let amount: number | undefined;
    if (input) {
      const read = readAmount(input.value, this.order.currency);
      if ('error' in read) {
        input.setAttribute('aria-invalid', 'true');
        say(read.error, 'error');
        return;
      }
      input.removeAttribute('aria-invalid');
      amount = read.cents;
    }
    this.element.setAttribute('aria-busy', 'true');
    try {
      const payload = { reference: this.order.reference, ...(amount !== undefined && { amount }) };
      await post<BackOfficeDone>(PATHS[action], payload, ({ order }) => {
        if (!order) return false;
        if (input) input.value = '';
        // Shown at once; the live stream brings the same snapshot (and the events) a moment later.
        showOrder(order);
        return true;
      });
    } finally {
      this.element.removeAttribute('aria-busy');
    }
  }
}

const views = new Map<string, OrderView>();

/** Shows an order: updates its view, or puts a new one first (newest first). */
function showOrder(order: V1Order): void {
  const known = views.get(order.purchaseId);
  if (known) {
    known.show(order);
    return;
  }
  const view = new OrderView(order);
  views.set(order.purchaseId, view);
  ordersList.prepend(view.element);
  ordersEmpty.hidden = true;
}

/** The staff's actions on a Client's saved card. */
const CARD_ACTIONS: Record<ClientCardOperation, { button: string; hint: string }> = {
  chargeCard: {
    button: 'Charge this card',
    hint: 'A new order of the cart, paid with this card without the customer.',
  },
  removeCard: { button: 'Remove card', hint: 'No longer offered at checkout, and it cannot be charged.' },
};

/** When a card was saved, as the staff read it. */
function savedOn(card: SavedCard): string {
  return `Saved on ${new Date(card.savedOn).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}`;
}

/** One Client on the page, updated in place; its cards are rebuilt only when they change. */
class ClientView {
  readonly element: HTMLElement;
  private readonly heading: HTMLHeadingElement;
  private readonly cards: HTMLElement;
  private shownCards: string | undefined;

  constructor(private client: ShopClient) {
    const id = `client-${client.id}`;
    this.element = document.createElement('article');
    this.element.className = 'panel client';
    this.element.id = id;
    this.element.setAttribute('aria-labelledby', `${id}-title`);
    this.element.dataset['clientId'] = client.id;
    this.heading = document.createElement('h3');
    this.heading.id = `${id}-title`;
    // Where focus goes when the card whose control had it is gone (removed).
    this.heading.tabIndex = -1;
    this.heading.textContent = `Client ${client.email}`;
    const since = document.createElement('p');
    since.className = 'hint';
    since.textContent = `${client.fullName ? `${client.fullName}, ` : ''}a client since ${new Date(client.createdOn).toLocaleDateString('en-GB', { dateStyle: 'medium' })} (id ${client.id})`;
    this.cards = document.createElement('div');
    this.element.append(this.heading, since, this.cards);
    this.show(client);
  }

  show(client: ShopClient): void {
    this.client = client;
    const cards = client.cards.map((card) => card.id).join();
    if (cards === this.shownCards) return;
    const hadFocus = this.cards.contains(document.activeElement);
    this.shownCards = cards;
    if (client.cards.length === 0) {
      const none = document.createElement('p');
      none.className = 'no-cards';
      none.textContent = 'No saved cards.';
      this.cards.replaceChildren(none);
    } else {
      const list = document.createElement('ul');
      list.className = 'cards';
      list.setAttribute('aria-label', `Saved cards of ${client.email}`);
      list.append(...client.cards.map((card) => this.card(card)));
      this.cards.replaceChildren(list);
    }
    if (hadFocus) this.heading.focus();
  }

  private card(card: SavedCard): HTMLLIElement {
    const item = document.createElement('li');
    item.dataset['cardId'] = card.id;
    const name = document.createElement('strong');
    name.className = 'description';
    name.textContent = card.description;
    const when = document.createElement('span');
    when.className = 'saved-on';
    when.textContent = savedOn(card);
    item.append(name, when);
    for (const action of ['chargeCard', 'removeCard'] as const) {
      // Charged through the order that saved it: a card the shop did not save has none.
      if (action === 'chargeCard' && card.reference === null) continue;
      item.append(this.form(action, card));
    }
    return item;
  }

  private form(action: ClientCardOperation, card: SavedCard): HTMLFormElement {
    const text = CARD_ACTIONS[action];
    const form = document.createElement('form');
    form.className = 'action';
    form.dataset['action'] = action;
    const hint = document.createElement('span');
    hint.className = 'visually-hidden';
    hint.id = `client-${this.client.id}-${card.id}-${action}-hint`;
    hint.textContent = text.hint;
    const button = document.createElement('button');
    button.type = 'submit';
    // Every card has the same buttons: the hidden words tell them apart for screen readers.
    const which = document.createElement('span');
    which.className = 'visually-hidden';
    which.textContent = ` ${card.description} of ${this.client.email}`;
    button.append(text.button, which);
    button.setAttribute('aria-describedby', hint.id);
    form.append(button, hint);
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.run(action, card);
    });
    return form;
  }

  private async run(action: ClientCardOperation, card: SavedCard): Promise<void> {
    if (this.element.hasAttribute('aria-busy')) return;
    this.element.setAttribute('aria-busy', 'true');
    try {
      const payload = { clientId: this.client.id, cardId: card.id };
      await post<BackOfficeDone & CardRemoved>(CLIENT_PATHS[action], payload, ({ order, client }) => {
        if (order) showOrder(order);
        if (client) showClient(client);
        return order !== undefined || client !== undefined;
      });
    } finally {
      this.element.removeAttribute('aria-busy');
    }
  }
}

const clientViews = new Map<string, ClientView>();

/** Shows a Client: updates its view, or puts a new one first (newest first). */
function showClient(client: ShopClient): void {
  const known = clientViews.get(client.id);
  if (known) {
    known.show(client);
    return;
  }
  const view = new ClientView(client);
  clientViews.set(client.id, view);
  clientsList.prepend(view.element);
  clientsEmpty.hidden = true;
}

/**
 * Reads the Clients again. Orders change when a card is saved or removed, and the gateway is the record of
 * Clients: one request at a time, and one more after it when something changed meanwhile.
 */
const refreshClients = oneAtATime(async () => {
  try {
    const response = await fetch(CLIENT_PATHS.clients);
    const body = (await response.json().catch(() => ({}))) as { clients?: ShopClient[]; message?: string };
    if (!response.ok || !body.clients) {
      clientsEmpty.textContent = body.message ?? `The clients could not be read (HTTP ${response.status}).`;
      clientsEmpty.hidden = false;
      return;
    }
    // Oldest first, each new one on top; a Client deleted on the gateway goes.
    for (const client of [...body.clients].reverse()) showClient(client);
    const listed = new Set(body.clients.map((client) => client.id));
    for (const [id, view] of clientViews) {
      if (listed.has(id)) continue;
      view.element.remove();
      clientViews.delete(id);
    }
    clientsEmpty.hidden = clientViews.size > 0;
  } catch {
    // The stream's reconnection brings a snapshot, which reads them again.
  }
});

const rows = new Map<number, HTMLTableRowElement>();

/** Oldest first, as they arrived: the order of events is part of what the page shows. */
function showEvent(event: V1ReceivedEvent): void {
  const row = document.createElement('tr');
  row.dataset['source'] = event.source;
  row.dataset['event'] = event.eventType;
  row.dataset['reference'] = event.reference ?? '';
  row.append(
    cell(String(event.sequence), true),
    cell(new Date(event.receivedAt).toLocaleTimeString()),
    cell(V1_SOURCE_NAMES[event.source]),
    cell(event.eventType),
    cell(event.reference ?? '–'),
    cell(event.status ?? '–'),
    cell(String(event.deliveries)),
  );
  const known = rows.get(event.sequence);
  if (known) known.replaceWith(row);
  else receivedBody.append(row);
  rows.set(event.sequence, row);
  receivedEmpty.hidden = true;
}

const source = new EventSource('/api/notifications/events');
source.addEventListener('snapshot', (event) => {
  const snapshot = JSON.parse((event as MessageEvent<string>).data) as {
    v1?: { events: V1ReceivedEvent[]; orders: V1Order[] };
  };
  // Sent on every (re)connection: what it holds replaces what the page showed. Newest first: shown oldest
  // first, each new one on top.
  for (const order of [...(snapshot.v1?.orders ?? [])].reverse()) showOrder(order);
  for (const received of snapshot.v1?.events ?? []) showEvent(received);
  void refreshClients();
  void refreshBilling();
  live.textContent = 'Live: orders and events update here as the gateway reports them.';
});
for (const type of ['v1-event', 'v1-order'] as const) {
  source.addEventListener(type, (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as V1LogEvent;
    if (data.type === 'v1-event') {
      showEvent(data.event);
      // A subscription's charge is no order of the shop's: its events are what says it happened.
      void refreshBilling();
    } else if (data.type === 'v1-order') {
      showOrder(data.order);
      void refreshClients();
    }
  });
}
source.addEventListener('error', () => {
  live.textContent = 'Disconnected from the shop; reconnecting…';
});
