/**
 * Checks what merchants send to the Webhooks endpoints: the Webhook body of `POST` / `PUT` (whole) and
 * `PATCH` (any part, laid over the current webhook), and the query of `GET /webhooks/deliveries/`. Every
 * problem is reported at once, keyed by its field, as the document's 400 shape wants. Read-only members
 * (`id`, `public_key`, timestamps) in a body are ignored, as they are in answers echoed back.
 */
import type { WebhookEventType, WebhookSourceType } from '../../core/v1-types.js';
import { BodyReader, stringThat } from '../body-reader.js';
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
  'purchase.preauthorized': true,
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
  const reader = new BodyReader();
  const whole = current === undefined;
  // No member of a webhook can be null: one given must be a value, even where it may be left out.
  const given = (key: string) => body[key] !== undefined;

  const title = reader.string(body, 'title', 'title', whole || given('title')) ?? current?.title;
  const callback =
    reader.where(
      body,
      'callback',
      'callback',
      stringThat(isHttpUrl),
      'callback must be an absolute http(s) URL',
      whole || given('callback'),
    ) ?? current?.callback;
  const allEvents =
    reader.boolean(body, 'all_events', 'all_events', given('all_events')) ?? current?.all_events ?? false;

  let events = current?.events ?? [];
  const issuesBefore = reader.issues.length;
  const list = reader.where(
    body,
    'events',
    'events',
    (value): value is unknown[] => Array.isArray(value),
    'events must be an array of event names',
    given('events'),
  );
  if (list) {
    const chosen: WebhookEventType[] = [];
    list.forEach((name, index) => {
      if (typeof name === 'string' && isWebhookEventType(name)) {
        if (!chosen.includes(name)) chosen.push(name);
      } else {
        reader.add(
          `events[${index}]`,
          'invalid',
          `${JSON.stringify(name)} is not an event name; use one of ${Object.keys(EVENT_NAMES).join(', ')}`,
        );
      }
    });
    events = chosen;
  }
  // Empty is told only of a list that is otherwise right: a wrong name dropped is not an empty choice.
  if (reader.issues.length === issuesBefore && !allEvents && events.length === 0) {
    reader.add('events', 'empty', 'events may not be empty unless all_events is true');
  }

  const { issues } = reader;
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
