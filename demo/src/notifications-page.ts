/**
 * The notifications page: the merchant back end's verified notifications, loaded once and then kept live
 * through server-sent events (GET /api/notifications/events).
 */
import type { RefusedNotification, VerifiedNotification } from '../merchant/notification-log.js';

const body = document.querySelector<HTMLTableSectionElement>('#notifications tbody')!;
const empty = document.querySelector<HTMLElement>('#notifications-empty')!;
const refusedList = document.querySelector<HTMLOListElement>('#refused')!;
const live = document.querySelector<HTMLElement>('#live-status')!;

const rows = new Map<string, HTMLTableRowElement>();

function cell(text: string, header = false): HTMLTableCellElement {
  const element = document.createElement(header ? 'th' : 'td');
  if (header) element.setAttribute('scope', 'row');
  element.textContent = text;
  return element;
}

function show(entry: VerifiedNotification): void {
  const { notification } = entry;
  const row = document.createElement('tr');
  row.dataset.key = entry.key;
  row.dataset.status = notification.status;
  row.append(
    cell(new Date(entry.receivedAt).toLocaleString(), true),
    cell(notification.order_id ?? '–'),
    cell(notification.status),
    cell(`${notification.total_amount} ${notification.currency}`),
    cell(String(entry.deliveries)),
    cell(notification.id),
  );
  const known = rows.get(entry.key);
  if (known) known.replaceWith(row);
  else body.prepend(row);
  rows.set(entry.key, row);
  empty.hidden = true;
}

function showRefused(refused: RefusedNotification): void {
  const item = document.createElement('li');
  item.textContent = `${new Date(refused.receivedAt).toLocaleString()}: ${refused.status} ${refused.code} – ${refused.message}`;
  refusedList.append(item);
}

type StreamEvent =
  | { type: 'notification'; notification: VerifiedNotification }
  | { type: 'refused'; refused: RefusedNotification };

const source = new EventSource('/api/notifications/events');
source.addEventListener('snapshot', (event) => {
  const snapshot = JSON.parse((event as MessageEvent<string>).data) as {
    notifications: VerifiedNotification[];
    refused: RefusedNotification[];
  };
  // Sent on every (re)connection: it replaces what the page showed.
  for (const entry of snapshot.notifications) show(entry);
  refusedList.replaceChildren();
  for (const refused of snapshot.refused) showRefused(refused);
  live.textContent = 'Live: new notifications appear here as the gateway sends them.';
});
for (const type of ['notification', 'refused'] as const) {
  source.addEventListener(type, (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as StreamEvent;
    if (data.type === 'notification') show(data.notification);
    else showRefused(data.refused);
  });
}
source.addEventListener('error', () => {
  live.textContent = 'Disconnected from the shop; reconnecting…';
});
