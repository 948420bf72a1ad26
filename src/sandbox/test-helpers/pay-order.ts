/**
 * Pays a legacy widget order headlessly, as the payment frame would: the widget API's order intake (the
 * signature check with the named or any active certificate, the once-per-order-id rule, a CALLBACK widget's
 * verification), a shipping quote where the option has no price yet, the payment machine with a test card,
 * and the 3-D Secure test challenge answered. The signed notification then goes out through the delivery
 * queue as for any payment, and by default the helper waits for its first attempt, so the test can assert its
 * fulfilment right after.
 *
 * The order comes exactly as the page carries it: the element's attributes (`widget-id`, `order` or the
 * single-item attributes, `certificate-name`, `signature`, ...), so a merchant's test passes what its server
 * rendered. A server caller has no page origin, so none is checked unless `pageOrigin` is given (then the
 * merchant's `allowedOrigins` rule applies as for a page); over HTTP the merchant's API key stands in for it.
 */
import { randomUUID } from 'node:crypto';
import {
  ORDER_ATTRIBUTE_NAMES,
  type OrderAttributes,
  orderInputFromAttributes,
} from '../../core/order-input-from-attributes.js';
import { isPlainObject } from '../../core/plain-object.js';
import type { GatewayFailure, OrderView, PaymentResult } from '../../core/widget-api.js';
import type { MerchantConfig } from '../config.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { HttpError } from '../http.js';
import type { CustomerData, LegacyParts, PaymentIntake } from '../legacy/api.js';
import {
  type Members,
  membersOf,
  optionalBoolean,
  optionalChoice,
  optionalString,
  requiredString,
} from './helper-input.js';
import { cardFieldsOf, checkThreeDSecureAnswer, type TestCardChoice } from './test-card-choice.js';
import { invalidInput, TestHelperError } from './test-helper-error.js';

/** The attributes of `<svc-checkout>` that carry the order, by property name or by HTML attribute name. */
export type RenderedOrderAttributes = {
  [Property in keyof OrderAttributes]?: OrderAttributes[Property];
} & {
  [Attribute in (typeof ORDER_ATTRIBUTE_NAMES)[keyof typeof ORDER_ATTRIBUTE_NAMES]]?: string | null;
} & { signature?: string | null };

/** The answers to a 3-D Secure (or bank, or wallet) test step, as the customer gives them. */
export const STEP_ANSWERS = ['approve', 'deny'] as const;

export type StepAnswer = (typeof STEP_ANSWERS)[number];

export interface PayOrderInput {
  /** What the page carries, as the merchant's server rendered it; `signature` for a SIGNATURE widget. */
  attributes: RenderedOrderAttributes;
  /** The card: a test card's name (`visa`, `declined`, `threeDSecure`, ...) or number. Default `visa`. */
  card?: TestCardChoice;
  /** The answer to the 3-D Secure challenge of `threeDSecure` (4000 0000 0000 3220). Default `approve`. */
  threeDSecure?: StepAnswer;
  /** The customer's details (a full-checkout widget requires names and email; test values fill them in). */
  customer?: { firstName?: string; lastName?: string; email?: string; phone?: string };
  /** The shipping option to choose, when the order has shipping options. */
  shipping?: {
    optionId: string;
    address?: { address: string; city: string; postalCode: string; country?: string };
    pickupPointId?: string;
    contactPhone?: string;
  };
  /** Checked against the merchant's `allowedOrigins` when given, as the page's origin is. */
  pageOrigin?: string;
  /** Wait for the notification's first attempt (default true). */
  waitForNotification?: boolean;
}

/** How the notification this payment sent fared. */
export interface NotificationOutcome {
  /** The merchant's notification URL. */
  url: string;
  /**
   * `delivered`: the receiver answered 200. `retrying`: the first attempt failed; retries follow on the
   * sandbox clock. `failed`: given up. `queued`: not waited for (`waitForNotification: false`).
   */
  state: 'delivered' | 'retrying' | 'failed' | 'queued';
  /** The receiver's status at the first attempt, when it answered. */
  status: number | null;
  /** Why the first attempt got no answer (refused connection, timeout). */
  error: string | null;
}

interface PayOrderOutcome {
  /** The gateway's order id: the notification's `id`. */
  orderId: string;
  /** The merchant's own order id (`order-id`), if the page gave one. */
  merchantOrderId: string | null;
  order: OrderView;
  /** The notification this call caused; null when it caused none (a retryable error, an order already final). */
  notification: NotificationOutcome | null;
}

export type PayOrderResult =
  | (PayOrderOutcome & { status: 'PAID' })
  | (PayOrderOutcome & { status: 'FAILED'; error: GatewayFailure })
  | (PayOrderOutcome & { status: 'RETRY'; error: GatewayFailure })
  | (PayOrderOutcome & { status: 'CANCELLED' });

export interface PayOrderDeps {
  legacy: LegacyParts;
  queue: DeliveryQueue;
  /** The sandbox clock: card expiries are checked against it. */
  now: () => Date;
  /** How long a notification attempt may take (the config's `notifications.timeoutMs`). */
  notificationTimeoutMs: number;
}

const INPUT_MEMBERS = [
  'attributes',
  'card',
  'threeDSecure',
  'customer',
  'shipping',
  'pageOrigin',
  'waitForNotification',
];
const ATTRIBUTE_OF_NAME = new Map<string, keyof OrderAttributes>(
  Object.entries(ORDER_ATTRIBUTE_NAMES).map(([property, attribute]) => [
    attribute,
    property as keyof OrderAttributes,
  ]),
);
const ORDER_PROPERTIES = new Set<string>(['order', ...Object.keys(ORDER_ATTRIBUTE_NAMES)]);
const TEST_CUSTOMER = { firstName: 'Test', lastName: 'Customer', email: 'customer@example.com' };

/**
 * @param authorize called with the widget's merchant before anything is stored (the HTTP route checks the
 *   merchant's API key there).
 * @throws TestHelperError naming what to fix: `invalid_input`, `not_found` (unknown widget),
 *   `refused_by_gateway` (the gateway's code in `gatewayCode`, such as `signature_invalid`).
 */
export async function payOrder(
  deps: PayOrderDeps,
  given: unknown,
  authorize: (merchant: MerchantConfig) => void = () => {},
): Promise<PayOrderResult> {
  const input = membersOf(given, '', INPUT_MEMBERS);
  const { attributes, signature } = readAttributes(input['attributes']);
  const card = cardFieldsOf(input['card'], deps.now());
  const threeDSecure = optionalChoice(input, 'threeDSecure', '', STEP_ANSWERS);
  checkThreeDSecureAnswer(threeDSecure, card.number);
  const pageOrigin = optionalString(input, 'pageOrigin', '');
  const wait = optionalBoolean(input, 'waitForNotification', '') ?? true;
  const customer = readCustomer(input['customer']);
  const shipping = readShipping(input['shipping']);

  const orderInput = orderInputFromAttributes(attributes);
  if (orderInput.error) {
    const issue = orderInput.error[0]!;
    throw invalidInput(`attributes.${issue.path}`, issue.message);
  }
  const widgetId = orderInput.value.widgetId;
  if (widgetId === undefined)
    throw invalidInput('attributes.widgetId', 'attributes.widgetId (widget-id) is required');
  const { merchant, widget } = gateway(() => deps.legacy.directory.widget(widgetId), 'attributes.widgetId');
  authorize(merchant);

  const taken = await gatewayAsync(() =>
    deps.legacy.intake.create({
      order: orderInput.value,
      ...(signature !== undefined && { signature }),
      ...(pageOrigin !== undefined && { pageOrigin }),
      ...(customer && { customer }),
    }),
  );
  if ('receipt' in taken) {
    throw new TestHelperError(
      'not_applicable',
      `Order id ${taken.orderId} is paid already on widget ${widget.id} with this order; give another order-id to pay again`,
      { field: 'attributes.orderId' },
    );
  }
  const id = taken.id;
  if (shipping) await quoteWhenUnpriced(deps.legacy, id, shipping);
  const deliveriesBefore = deps.queue.deliveries(id).length;
  const request: PaymentIntake = {
    idempotencyKey: randomUUID(),
    card,
    ...(widget.collectCustomerData && { customer: { ...TEST_CUSTOMER, ...customer } }),
    ...(shipping && {
      shipping: {
        optionId: shipping.optionId,
        address: shipping.address,
        pickupPointId: shipping.pickupPointId,
        contactPhone: shipping.contactPhone,
      },
    }),
  };
  let result: PaymentResult = gateway(() => deps.legacy.payments.pay(id, request));
  if (result.state === 'CHALLENGE') {
    const { challengeId } = result;
    result = gateway(() => deps.legacy.payments.completeChallenge(id, challengeId, threeDSecure !== 'deny'));
  }
  const sent = deps.queue.deliveries(id).slice(deliveriesBefore).at(-1);
  const notification = sent ? await notificationOutcome(deps, sent.id, wait) : null;
  const outcome = {
    orderId: id,
    merchantOrderId: result.order.orderId,
    order: result.order,
    notification,
  };
  switch (result.state) {
    case 'PAID':
    case 'CANCELLED':
      return { ...outcome, status: result.state };
    case 'FAILED':
    case 'RETRY':
      return { ...outcome, status: result.state, error: result.error };
    case 'CHALLENGE':
      // completeChallenge ends the challenge it was given; a second one is the machine's fault, not the test's.
      throw new Error(`Order ${id} is still in a 3-D Secure challenge after its answer`);
  }
}

function readAttributes(value: unknown): { attributes: OrderAttributes; signature?: string } {
  if (!isPlainObject(value))
    throw invalidInput(
      'attributes',
      'attributes must be an object: the attributes of <svc-checkout> as your server rendered them, such as {"widget-id": …, "amount": "12.50", "label": "Tea", "signature": …}',
    );
  const attributes: Record<string, unknown> = {};
  let signature: string | undefined;
  for (const [name, raw] of Object.entries(value)) {
    if (name === 'signature') {
      if (raw === null || raw === undefined) continue;
      if (typeof raw !== 'string')
        throw invalidInput('attributes.signature', 'attributes.signature must be a string');
      signature = raw;
      continue;
    }
    const property = ATTRIBUTE_OF_NAME.get(name) ?? name;
    if (!ORDER_PROPERTIES.has(property)) {
      throw invalidInput(
        `attributes.${name}`,
        `attributes.${name} is no order attribute of <svc-checkout>; use signature, order, ${Object.values(ORDER_ATTRIBUTE_NAMES).join(', ')} (or their property names, such as widgetId)`,
      );
    }
    const ok =
      raw === null ||
      raw === undefined ||
      typeof raw === 'string' ||
      (property === 'order' && typeof raw === 'object');
    if (!ok)
      throw invalidInput(`attributes.${name}`, `attributes.${name} must be a string, as an attribute is`);
    if (raw !== null && raw !== undefined) attributes[property] = raw;
  }
  return { attributes: attributes as OrderAttributes, ...(signature !== undefined && { signature }) };
}

function readCustomer(value: unknown): Partial<CustomerData> | undefined {
  if (value === undefined) return undefined;
  const members = membersOf(value, 'customer', ['firstName', 'lastName', 'email', 'phone']);
  const customer: Partial<CustomerData> = {};
  for (const key of ['firstName', 'lastName', 'email', 'phone'] as const) {
    const text = optionalString(members, key, 'customer');
    if (text !== undefined) customer[key] = text;
  }
  return customer;
}

function readShipping(value: unknown): PayOrderInput['shipping'] {
  if (value === undefined) return undefined;
  const members = membersOf(value, 'shipping', ['optionId', 'address', 'pickupPointId', 'contactPhone']);
  const address = members['address'];
  let readAddress: NonNullable<PayOrderInput['shipping']>['address'];
  if (address !== undefined) {
    const fields: Members = membersOf(address, 'shipping.address', [
      'address',
      'city',
      'postalCode',
      'country',
    ]);
    const country = optionalString(fields, 'country', 'shipping.address');
    readAddress = {
      address: requiredString(fields, 'address', 'shipping.address'),
      city: requiredString(fields, 'city', 'shipping.address'),
      postalCode: requiredString(fields, 'postalCode', 'shipping.address'),
      ...(country !== undefined && { country }),
    };
  }
  const pickupPointId = optionalString(members, 'pickupPointId', 'shipping');
  const contactPhone = optionalString(members, 'contactPhone', 'shipping');
  return {
    optionId: requiredString(members, 'optionId', 'shipping'),
    ...(readAddress && { address: readAddress }),
    ...(pickupPointId !== undefined && { pickupPointId }),
    ...(contactPhone !== undefined && { contactPhone }),
  };
}

/** As the frame does: an option priced later by the merchant's shipping cost URL is quoted before paying. */
async function quoteWhenUnpriced(
  { views, book, shipping: quotes }: LegacyParts,
  id: string,
  shipping: NonNullable<PayOrderInput['shipping']>,
): Promise<void> {
  const option = views
    .view(book.get(id))
    .shippingOptions.find((candidate) => candidate.id === shipping.optionId);
  if (option === undefined || option.amount !== null) return;
  await gatewayAsync(() =>
    quotes.quote(id, {
      optionId: shipping.optionId,
      ...(shipping.address && { address: shipping.address }),
      ...(shipping.pickupPointId !== undefined && { pickupPointId: shipping.pickupPointId }),
    }),
  );
}

/** Waits (unless told not to) for the delivery's first attempt, then says how it went. */
async function notificationOutcome(
  deps: PayOrderDeps,
  deliveryId: string,
  wait: boolean,
): Promise<NotificationOutcome> {
  // An attempt takes at most the timeout; the margin covers a delivery waiting for a slot or the store.
  const deadline = Date.now() + deps.notificationTimeoutMs + 2_000;
  let delivery = deps.queue.get(deliveryId)!;
  while (wait && delivery.state === 'pending' && delivery.attempts.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    delivery = deps.queue.get(deliveryId) ?? delivery;
  }
  const first = delivery.attempts[0];
  return {
    url: delivery.url,
    state:
      delivery.state === 'delivered'
        ? 'delivered'
        : delivery.state === 'failed'
          ? 'failed'
          : first
            ? 'retrying'
            : 'queued',
    status: first?.status ?? null,
    error: first?.error ?? null,
  };
}

/** Runs a gateway step; its refusal becomes the helper's, with the gateway's code kept. */
function gateway<T>(step: () => T, field?: string): T {
  try {
    return step();
  } catch (error) {
    throw refusal(error, field);
  }
}

async function gatewayAsync<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw refusal(error);
  }
}

function refusal(error: unknown, field?: string): unknown {
  if (!(error instanceof HttpError)) return error;
  const at = inputField(error.field) ?? field;
  // A signature refusal says what the sandbox found (the page's field that was not signed) and the text it
  // checked, as its log does: the test's failure then shows what to compare with what the server signed.
  const message = error.details
    ? `${error.message}. The sandbox found: ${error.details.finding}. The text checked: ${JSON.stringify(error.details.signedText)}`
    : error.message;
  return new TestHelperError(error.status === 404 ? 'not_found' : 'refused_by_gateway', message, {
    gatewayCode: error.code,
    status: error.status,
    ...(at !== undefined && { field: at }),
  });
}

/** The helper's input member that a gateway field came from (`order.items` from `attributes`). */
function inputField(field: string | undefined): string | undefined {
  if (field === undefined) return undefined;
  if (field === 'signature' || ORDER_PROPERTIES.has(field)) return `attributes.${field}`;
  if (field.startsWith('order.')) return `attributes.${field.slice('order.'.length)}`;
  if (field === 'order') return 'attributes';
  if (field.startsWith('card.')) return 'card';
  return field;
}
