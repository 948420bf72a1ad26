/**
 * The pages the gateway's payment page sends the customer back to (`success_redirect`, `failure_redirect`):
 * the order as the shop's back end knows it, and the success callback and webhook deliveries it verified
 * for it, in the order they came. A redirect is only the customer's browser talking; the callback is the
 * gateway's word, so the page waits for it and updates live (server-sent events).
 */
import { money } from '../merchant/v1-cart.js';
import type { V1Order, V1ReceivedEvent } from '../merchant/v1-event-log.js';
import { cell, V1_SOURCE_NAMES } from './display.js';

const reference = new URLSearchParams(location.search).get('reference') ?? '';
const outcome = document.body.dataset['outcome'] === 'failure' ? 'failure' : 'success';
const status = document.querySelector<HTMLElement>('#order-status')!;
const actions = document.querySelector<HTMLElement>('#order-actions')!;
const body = document.querySelector<HTMLTableSectionElement>('#received tbody')!;
const empty = document.querySelector<HTMLElement>('#received-empty')!;

function statusText(order: V1Order, events: readonly V1ReceivedEvent[]): string {
  const amount = money(order.total, order.currency);
  const confirmed = events.some((event) => event.source === 'success_callback');
  if (order.status === 'paid') {
    const saved = order.isRecurringToken ? ' Your card is saved for your next orders.' : '';
    return confirmed
      ? `Order ${order.reference} (${amount}) is paid: the gateway's success callback confirmed it.${saved}`
      : `Order ${order.reference} (${amount}) is paid, as the gateway's webhook says.${saved}`;
  }
  if (order.status === 'hold') {
    // No success callback for a hold: the webhook's purchase.hold says so, and the capture brings the callback.
    return `Order ${order.reference} (${amount}) is reserved: the amount is held on your card, and the shop takes it when your order ships.`;
  }
  if (outcome === 'success') {
    return `Order ${order.reference} (${amount}): waiting for the gateway to confirm the payment…`;
  }
  return `Order ${order.reference} (${amount}) is not paid (status ${order.status}).`;
}

function show(order: V1Order, events: readonly V1ReceivedEvent[]): void {
  const text = statusText(order, events);
  // Written only when it changes, so screen readers announce each change once.
  if (status.textContent !== text) status.textContent = text;
  status.dataset['status'] = order.status;
  if (outcome === 'failure' && order.status !== 'paid' && actions.childElementCount === 0) {
    const retry = document.createElement('a');
    retry.href = order.checkoutUrl;
    retry.textContent = 'Try to pay again';
    actions.append(retry);
  }
  body.replaceChildren(
    ...events.map((event) => {
      const row = document.createElement('tr');
      row.dataset['source'] = event.source;
      row.dataset['event'] = event.eventType;
      row.append(
        cell(String(event.sequence), true),
        cell(new Date(event.receivedAt).toLocaleTimeString()),
        cell(V1_SOURCE_NAMES[event.source]),
        cell(event.eventType),
        cell(event.status ?? '–'),
        cell(event.paymentMethod ?? '–'),
        cell(String(event.deliveries)),
      );
      return row;
    }),
  );
  empty.hidden = events.length > 0;
}

async function refresh(): Promise<void> {
  const response = await fetch(`/api/v1/order?${new URLSearchParams({ reference })}`);
  if (response.status === 404) {
    status.textContent = `The shop has no order ${reference || '(none named)'}.`;
    return;
  }
  if (!response.ok) throw new Error(`The shop answered HTTP ${response.status}`);
  const { order, events } = (await response.json()) as { order: V1Order; events: V1ReceivedEvent[] };
  show(order, events);
}

function fail(cause: unknown): void {
  status.textContent = `The order could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`;
}

// Each event the back end keeps or counts, and each order change, may be this order's: look again.
const source = new EventSource('/api/notifications/events');
for (const type of ['snapshot', 'v1-event', 'v1-order'] as const) {
  source.addEventListener(type, () => {
    refresh().catch(fail);
  });
}
