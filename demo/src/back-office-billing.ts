/**
 * The back office's subscriptions, outbox and balance: the Tea club's subscribers with pause, resume and
 * cancel (`POST /api/v1/back-office/subscription-status`), the invoices and receipts in the sandbox's outbox,
 * and the company balance, all read from the gateway through the shop's back end. Read when the page opens,
 * again whenever a v1 event arrives (a subscription's charge brings `purchase.paid`) and on the refresh
 * button. What an action did is said in the page's one live region (`#outcome`).
 */
import type { CompanyBalance, OutboxMessage } from 'svc-checkout/server';
import { money } from '../merchant/v1-cart.js';
import type {
  Subscription,
  SubscriptionChanged,
  V1_SUBSCRIPTION_PATHS,
} from '../merchant/v1-subscriptions.js';
import { oneAtATime, post, say } from './back-office-actions.js';
import { cell } from './display.js';

const PATHS: Pick<
  typeof V1_SUBSCRIPTION_PATHS,
  'subscriptions' | 'subscriptionStatus' | 'outbox' | 'balance'
> = {
  subscriptions: '/api/v1/back-office/subscriptions',
  subscriptionStatus: '/api/v1/back-office/subscription-status',
  outbox: '/api/v1/back-office/outbox',
  balance: '/api/v1/back-office/balance',
};

type SettableStatus = 'active' | 'paused' | 'cancelled';

const heading = document.querySelector<HTMLElement>('#subscriptions-title')!;
const subscriptionsTable = document.querySelector<HTMLTableElement>('#subscriptions')!;
const subscriptionsEmpty = document.querySelector<HTMLElement>('#subscriptions-empty')!;
const outboxTable = document.querySelector<HTMLTableElement>('#outbox')!;
const outboxEmpty = document.querySelector<HTMLElement>('#outbox-empty')!;
const balanceView = document.querySelector<HTMLElement>('#balance')!;
const refreshButton = document.querySelector<HTMLButtonElement>('#billing-refresh')!;

/** The actions each status allows. */
const ACTIONS: Readonly<
  Record<Subscription['status'], ReadonlyArray<{ status: SettableStatus; button: string }>>
> = {
  pending: [{ status: 'cancelled', button: 'Cancel' }],
  active: [
    { status: 'paused', button: 'Pause' },
    { status: 'cancelled', button: 'Cancel' },
  ],
  paused: [
    { status: 'active', button: 'Resume' },
    { status: 'cancelled', button: 'Cancel' },
  ],
  cancelled: [],
};

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

async function read<T>(path: string): Promise<T> {
  const response = await fetch(path);
  const body = (await response.json().catch(() => ({}))) as T & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `${path} answered HTTP ${response.status}`);
  return body;
}

let busy = false;

async function setStatus(subscription: Subscription, status: SettableStatus): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    const payload = { plan: subscription.plan, clientId: subscription.clientId, status };
    const done = await post<SubscriptionChanged>(
      PATHS.subscriptionStatus,
      payload,
      (answer) => answer.subscription !== undefined,
    );
    if (done) await refreshBilling();
  } finally {
    busy = false;
  }
}

function subscriptionRow(subscription: Subscription): HTMLTableRowElement {
  const row = document.createElement('tr');
  const key = `${subscription.plan}-${subscription.clientId}`;
  row.dataset['subscription'] = key;
  row.dataset['status'] = subscription.status;
  const actions = document.createElement('td');
  for (const action of ACTIONS[subscription.status]) {
    const button = document.createElement('button');
    button.type = 'button';
    button.id = `subscription-${key}-${action.status}`;
    // Every row has the same buttons: the hidden words tell them apart for screen readers.
    const which = document.createElement('span');
    which.className = 'visually-hidden';
    which.textContent = ` the ${subscription.planTitle} subscription of ${subscription.email ?? subscription.clientId}`;
    button.append(action.button, which);
    button.addEventListener('click', () => void setStatus(subscription, action.status));
    actions.append(button, ' ');
  }
  if (actions.childElementCount === 0) actions.textContent = '–';
  row.append(
    cell(subscription.email ?? subscription.clientId, true),
    cell(subscription.planTitle),
    cell(subscription.status),
    cell(subscription.nextBillingOn ? dateTime(subscription.nextBillingOn) : '–'),
    actions,
  );
  return row;
}

function showSubscriptions(subscriptions: Subscription[]): void {
  const focused = subscriptionsTable.contains(document.activeElement)
    ? document.activeElement?.id
    : undefined;
  subscriptionsTable.tBodies[0]!.replaceChildren(...subscriptions.map(subscriptionRow));
  subscriptionsTable.hidden = subscriptions.length === 0;
  subscriptionsEmpty.hidden = subscriptions.length > 0;
  if (focused !== undefined) {
    // The same control when it is still there (pause → resume is another one), else the section's heading.
    (document.getElementById(focused) ?? heading).focus();
  }
}

function showOutbox(messages: OutboxMessage[]): void {
  outboxTable.tBodies[0]!.replaceChildren(
    ...messages.map((message) => {
      const row = document.createElement('tr');
      row.dataset['kind'] = message.kind;
      row.dataset['purchaseId'] = message.purchase_id;
      const page = document.createElement('td');
      if (message.checkout_url) {
        const link = document.createElement('a');
        link.href = message.checkout_url;
        link.textContent = 'Pay the invoice';
        const which = document.createElement('span');
        which.className = 'visually-hidden';
        which.textContent = ` sent to ${message.to ?? 'the customer'} on ${dateTime(new Date(message.created_on * 1000).toISOString())}`;
        link.append(which);
        page.append(link);
      } else page.textContent = '–';
      row.append(
        cell(dateTime(new Date(message.created_on * 1000).toISOString()), true),
        cell(message.kind),
        cell(message.to ?? '–'),
        cell(message.subject),
        cell(money(message.amount, message.currency)),
        page,
      );
      return row;
    }),
  );
  outboxTable.hidden = messages.length === 0;
  outboxEmpty.hidden = messages.length > 0;
}

function showBalance(balance: CompanyBalance): void {
  const lines = (['e_commerce', 'bank'] as const).flatMap((account) =>
    Object.entries(balance[account]).map(([currency, amounts]) => {
      const line = document.createElement('li');
      line.dataset['account'] = account;
      line.dataset['currency'] = currency;
      line.textContent = `${account === 'e_commerce' ? 'E-commerce' : 'Bank'}: ${money(amounts.available, currency)} available (paid ${money(amounts.paid, currency)}, refunded ${money(amounts.refunded, currency)}, held ${money(amounts.held, currency)})`;
      return line;
    }),
  );
  if (lines.length === 0) {
    const none = document.createElement('p');
    none.textContent = 'No money has moved yet.';
    balanceView.replaceChildren(none);
    return;
  }
  const list = document.createElement('ul');
  list.setAttribute('aria-label', 'Balance per account and currency');
  list.append(...lines);
  balanceView.replaceChildren(list);
}

/** Reads the subscribers, the outbox and the balance again: one read at a time, one more if asked meanwhile. */
export const refreshBilling = oneAtATime(async () => {
  try {
    const [subscriptions, outbox, balance] = await Promise.all([
      read<{ subscriptions: Subscription[] }>(PATHS.subscriptions),
      read<{ messages: OutboxMessage[] }>(PATHS.outbox),
      read<CompanyBalance>(PATHS.balance),
    ]);
    showSubscriptions(subscriptions.subscriptions);
    showOutbox(outbox.messages);
    showBalance(balance);
  } catch (error) {
    subscriptionsEmpty.hidden = false;
    subscriptionsEmpty.textContent = `The subscriptions could not be read: ${error instanceof Error ? error.message : String(error)}`;
  }
});

refreshButton.addEventListener('click', () => {
  void refreshBilling().then(() => say('Subscriptions, outbox and balance read again.', 'done'));
});
