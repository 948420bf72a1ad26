/**
 * The notifications page: the merchant back end's verified notifications (legacy), and its v1 success
 * callbacks and webhook deliveries, loaded once and then kept live through server-sent events
 * (GET /api/notifications/events).
 */
import type { RefusedNotification, VerifiedNotification } from '../merchant/notification-log.js';
import type { V1LogEvent, V1ReceivedEvent, V1RefusedDelivery } from '../merchant/v1-event-log.js';
import { cell, V1_SOURCE_NAMES } from './display.js';

const body = document.querySelector<HTMLTableSectionElement>('#notifications tbody')!;
const empty = document.querySelector<HTMLElement>('#notifications-empty')!;
const refusedList = document.querySelector<HTMLOListElement>('#refused')!;
const live = document.querySelector<HTMLElement>('#live-status')!;
const v1Body = document.querySelector<HTMLTableSectionElement>('#v1-events tbody')!;
const v1Empty = document.querySelector<HTMLElement>('#v1-empty')!;
const v1RefusedList = document.querySelector<HTMLOListElement>('#v1-refused')!;

const rows = new Map<string, HTMLTableRowElement>();
const v1Rows = new Map<number, HTMLTableRowElement>();

function show(entry: VerifiedNotification): void {
  const { notification } = entry;
  const row = document.createElement('tr');
  row.dataset.key = entry.key;
  row.dataset.status = notification.status;
  row.append(
    cell(new Date(entry.receivedAt).toLocaleString(), true),
    cell(notification.order_id ?? '–'),
    cell(notification.status),
    // A JSON number: 20 reads as 20.00 here.
    cell(`${notification.total_amount.toFixed(2)} ${notification.currency}`),
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

/** Oldest first, as they arrived: the order of events is part of what the page shows. */
function showV1(event: V1ReceivedEvent): void {
  const row = document.createElement('tr');
  row.dataset.source = event.source;
  row.dataset.event = event.eventType;
  row.append(
    cell(String(event.sequence), true),
    cell(new Date(event.receivedAt).toLocaleString()),
    cell(V1_SOURCE_NAMES[event.source]),
    cell(event.eventType),
    cell(event.reference ?? '–'),
    cell(event.status ?? '–'),
    cell(String(event.deliveries)),
    cell(event.objectId),
  );
  const known = v1Rows.get(event.sequence);
  if (known) known.replaceWith(row);
  else v1Body.append(row);
  v1Rows.set(event.sequence, row);
  v1Empty.hidden = true;
}

function showV1Refused(refused: V1RefusedDelivery): void {
  const item = document.createElement('li');
  item.textContent = `${new Date(refused.receivedAt).toLocaleString()}: ${V1_SOURCE_NAMES[refused.source]}, ${refused.status} ${refused.code} – ${refused.message}`;
  v1RefusedList.append(item);
}

type StreamEvent =
  | { type: 'notification'; notification: VerifiedNotification }
  | { type: 'refused'; refused: RefusedNotification };

const source = new EventSource('/api/notifications/events');
source.addEventListener('snapshot', (event) => {
  const snapshot = JSON.parse((event as MessageEvent<string>).data) as {
    notifications: VerifiedNotification[];
    refused: RefusedNotification[];
    v1?: { events: V1ReceivedEvent[]; refused: V1RefusedDelivery[] };
  };
  // Sent on every (re)connection: it replaces what the page showed.
  for (const entry of snapshot.notifications) show(entry);
  refusedList.replaceChildren();
  for (const refused of snapshot.refused) showRefused(refused);
  for (const event of snapshot.v1?.events ?? []) showV1(event);
  v1RefusedList.replaceChildren();
  for (const refused of snapshot.v1?.refused ?? []) showV1Refused(refused);
  live.textContent = 'Live: new notifications appear here as the gateway sends them.';
});
for (const type of ['notification', 'refused'] as const) {
  source.addEventListener(type, (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as StreamEvent;
    if (data.type === 'notification') show(data.notification);
    else showRefused(data.refused);
  });
}
for (const type of ['v1-event', 'v1-refused'] as const) {
  source.addEventListener(type, (event) => {
    const data = JSON.parse((event as MessageEvent<string>).data) as V1LogEvent;
    if (data.type === 'v1-event') showV1(data.event);
    else if (data.type === 'v1-refused') showV1Refused(data.refused);
  });
}
source.addEventListener('error', () => {
  live.textContent = 'Disconnected from the shop; reconnecting…';
});
