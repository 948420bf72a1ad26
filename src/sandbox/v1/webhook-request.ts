/**
 * Checks what merchants send to the Webhooks endpoints: the Webhook body of `POST` / `PUT` (whole) and
 * `PATCH` (any part, laid over the current webhook), and the query of `GET /webhooks/deliveries/`. Every
 * problem is reported at once, keyed by its field, as the document's 400 shape wants. Read-only members
 * (`id`, `public_key`, timestamps) in a body are ignored, as they are in answers echoed back.
 */
import type { WebhookEventType, WebhookSourceType } from '../../core/v1-types.js';
import { isHttpUrl, UUID } from '../formats.js';
import type { V1Issue } from './errors.js';

/** The members of a webhook that a merchant sets. */
export interface WebhookDraft {
  title: string;
  callback: string;
  all_events: boolean;
  events: WebhookEventType[];
}

/** Every event a webhook can subscribe to; a record so that a name added to the type must be added here. */
const EVENT_NAMES: Readonly<Record<WebhookEventType, true>> = {
  'purchase.created': true,
  'purchase.paid': true,
  'purchase.payment_failure': true,
  'purchase.hold': true,
  'purchase.pending_charge': true,
  'purchase.pending_capture': true,
  'purchase.captured': true,
  'purchase.pending_release': true,
  'purchase.released': true,
  'purchase.pending_refund': true,
  'purchase.pending_recurring_token_delete': true,
  'purchase.recurring_token_deleted': true,
  'purchase.subscription_charge_failure': true,
  'payment.refunded': true,
  'purchase.cancelled': true,
};

const SOURCE_TYPES: Readonly<Record<WebhookSourceType, true>> = {
  purchase: true,
  payment: true,
  payout: true,
  billing_template_client: true,
};

function isWebhookEventType(name: string): name is WebhookEventType {
  return Object.hasOwn(EVENT_NAMES, name);
}

/**
 * Checks a Webhook body. Without `current` it is a whole webhook (`POST`, `PUT`): `title` and `callback` are
 * required. With `current` (`PATCH`), members left out keep their current values.
 * @returns the webhook as it would be, or every problem found (never both).
 */
export function readWebhookBody(
  body: Record<string, unknown>,
  current?: WebhookDraft,
): { draft: WebhookDraft } | { issues: V1Issue[] } {
  const issues: V1Issue[] = [];
  const problem = (field: string, code: V1Issue['code'], message: string) =>
    issues.push({ field, code, message });
  /** The member, or undefined when absent or null (null is a problem: no member of a webhook can be null). */
  const member = (key: string, required: boolean): unknown => {
    const value = body[key];
    if (value === undefined && required) problem(key, 'required', `${key} is required`);
    if (value === null) problem(key, 'null', `${key} may not be null`);
    return value ?? undefined;
  };
  const whole = current === undefined;

  let title = current?.title;
  const titleValue = member('title', whole);
  if (titleValue !== undefined) {
    if (typeof titleValue !== 'string') problem('title', 'invalid', 'title must be a string');
    else if (titleValue.trim() === '') problem('title', 'blank', 'title may not be blank');
    else title = titleValue;
  }

  let callback = current?.callback;
  const callbackValue = member('callback', whole);
  if (callbackValue !== undefined) {
    if (typeof callbackValue !== 'string' || !isHttpUrl(callbackValue)) {
      problem('callback', 'invalid', 'callback must be an absolute http(s) URL');
    } else callback = callbackValue;
  }

  let allEvents = current?.all_events ?? false;
  const allEventsValue = member('all_events', false);
  if (allEventsValue !== undefined) {
    if (typeof allEventsValue !== 'boolean')
      problem('all_events', 'invalid', 'all_events must be true or false');
    else allEvents = allEventsValue;
  }

  let events = current?.events ?? [];
  let eventsValid = body['events'] !== null;
  const eventsValue = member('events', false);
  if (eventsValue !== undefined) {
    if (!Array.isArray(eventsValue)) {
      problem('events', 'invalid', 'events must be an array of event names');
      eventsValid = false;
    } else {
      const chosen: WebhookEventType[] = [];
      eventsValue.forEach((name: unknown, index) => {
        if (typeof name === 'string' && isWebhookEventType(name)) {
          if (!chosen.includes(name)) chosen.push(name);
        } else {
          eventsValid = false;
          problem(
            `events[${index}]`,
            'invalid',
            `${JSON.stringify(name)} is not an event name; use one of ${Object.keys(EVENT_NAMES).join(', ')}`,
          );
        }
      });
      events = chosen;
    }
  }
  if (eventsValid && !allEvents && events.length === 0) {
    problem('events', 'empty', 'events may not be empty unless all_events is true');
  }

  if (issues.length > 0 || title === undefined || callback === undefined) return { issues };
  return { draft: { title, callback, all_events: allEvents, events } };
}

/** The object whose deliveries `GET /webhooks/deliveries/` asks for. */
export interface DeliverySource {
  type: WebhookSourceType;
  /** Lower case UUID. */
  id: string;
}

/** Checks the query of `GET /webhooks/deliveries/`: `id` (a UUID) and `source_type`, both required. */
export function readDeliveriesQuery(
  query: URLSearchParams,
): { source: DeliverySource } | { issues: V1Issue[] } {
  const issues: V1Issue[] = [];
  const id = query.get('id');
  if (id === null || id.trim() === '') {
    issues.push({ field: 'id', code: 'required', message: 'id (the UUID of the object) is required' });
  } else if (!UUID.test(id)) {
    issues.push({ field: 'id', code: 'invalid', message: 'id must be a UUID' });
  }
  const type = query.get('source_type');
  if (type === null || type.trim() === '') {
    issues.push({ field: 'source_type', code: 'required', message: 'source_type is required' });
  } else if (!Object.hasOwn(SOURCE_TYPES, type)) {
    issues.push({
      field: 'source_type',
      code: 'invalid',
      message: `source_type must be one of ${Object.keys(SOURCE_TYPES).join(', ')}`,
    });
  }
  if (issues.length > 0 || id === null || type === null) return { issues };
  return { source: { type: type as WebhookSourceType, id: id.toLowerCase() } };
}
