/**
 * `<svc-checkout>`'s order preparation: what the element fixes when it starts (the gateway, and what the
 * frame's `init` carries besides the looks and texts), made of its attributes and the items and shipping
 * options added by script, or why the widget cannot start. Plain functions of the element's properties: no
 * DOM, no state.
 */
import type { CustomerPrefill } from '../core/frame-channel.js';
import { cardSettings, gatewayOrigin } from '../core/frame-url.js';
import type { OrderItemInput, ShippingOptionInput } from '../core/order.js';
import {
  givesSingleItem,
  type OrderAttributes,
  orderInputFromAttributes,
  type UncheckedOrderInput,
} from '../core/order-input-from-attributes.js';
import type { CheckoutFailure, OrderLayout } from './checkout-failure.js';

/** What the element fixed when it started: the gateway, and what `init` carries besides the looks and texts. */
export interface Prepared extends OrderLayout {
  gateway: string;
  widgetId: string;
  init: {
    order: UncheckedOrderInput;
    customer: CustomerPrefill;
    signature?: string;
  };
  /**
   * The card form's settings as the frame's URL carries them (`&card-layout=…&cardholder-name=…`), as the
   * page gave them: the frame checks them.
   */
  card: string;
}

/**
 * A copy of the page's order data: plain objects and arrays of strings, numbers, booleans, null and undefined,
 * read through a framework's reactive proxy of them (Vue's `ref` and `reactive`, which `structuredClone`
 * cannot copy). Anything else (a function, a date, a class's instance, a cycle) throws.
 */
function dataCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw value;
    return value;
  }
  if (Array.isArray(value)) return value.map(dataCopy);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) throw value;
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, dataCopy(member)]));
}

/** What the order is made of: the element's attributes (as properties). */
export interface OrderSource extends OrderAttributes {
  widgetId?: string | undefined;
  gateway?: string | undefined;
  signature?: string | undefined;
  email?: string | undefined;
  phone?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  /** Not the order's, but fixed with it for a load of the frame: the card form's settings. */
  cardLayout?: string | undefined;
  cardholderName?: string | undefined;
}

/**
 * What the element made of its attributes (the prepared order, or why there is none) as text, to tell a
 * changed order from an equal one: a re-render that sets a new but equal object changes nothing, whatever
 * the order of its members (an order read back from a server or a database may list them in another order;
 * the signature does not depend on it), so each plain object's members are written sorted (the order is a
 * structured clone, of plain objects; entries sort by their keys, which differ). The order's language
 * is left out: a change of `language` alone is a live update, and the order the frame has (signed with the
 * language it had) stays.
 */
export const orderKey = (made: Prepared | CheckoutFailure): string =>
  JSON.stringify(made, (key, value) =>
    key === 'language'
      ? undefined
      : value?.constructor === Object
        ? Object.fromEntries(Object.entries(value).sort())
        : value,
  );

/**
 * The items (or shipping options) the attributes gave with those added by script after them. A value that
 * is not a list goes as given, for the gateway to refuse.
 */
function appended(given: unknown, added: readonly object[]): unknown {
  return added.length > 0 && (given === undefined || Array.isArray(given))
    ? [...((given as unknown[] | undefined) ?? []), ...added]
    : given;
}

/**
 * What the start fixes, or why the widget cannot start: the order the attributes give with the items and
 * shipping options added by script after theirs, and the gateway (`defaultGateway` when `gateway` is
 * absent). The order goes as given: the gateway checks it.
 */
export function prepareOrder(
  source: OrderSource,
  addedItems: readonly OrderItemInput[],
  addedOptions: readonly ShippingOptionInput[],
  defaultGateway: string | undefined,
): Prepared | CheckoutFailure {
  const { widgetId } = source;
  if (!widgetId?.trim()) {
    return {
      code: 'missing_widget_id',
      message: 'The widget-id attribute is missing.',
      attribute: 'widget-id',
    };
  }
  // Not trimmed here: the widget id is signed as the page writes it.
  if (widgetId !== widgetId.trim()) {
    return {
      code: 'invalid_order',
      message: `widget-id: ${JSON.stringify(widgetId)} has white space around it; write the widget id alone.`,
      attribute: 'widget-id',
    };
  }
  const given = source.gateway || defaultGateway;
  const gateway = given && gatewayOrigin(given);
  if (!gateway) {
    return {
      code: 'missing_gateway',
      message: given
        ? `gateway: ${JSON.stringify(given)} is not an http(s) URL.`
        : 'The gateway attribute is missing and no gateway script set SvcCheckout.defaultGateway.',
      attribute: 'gateway',
    };
  }
  const { value: assembled, error } = orderInputFromAttributes(source);
  if (error) {
    return {
      code: 'invalid_order',
      message: error.map((issue) => issue.message).join('; '),
      attribute: 'order',
    };
  }
  const layout: OrderLayout = {
    singleItem: givesSingleItem(source),
    items: Array.isArray(assembled.items) ? assembled.items.length : 0,
    options: Array.isArray(assembled.shippingOptions) ? assembled.shippingOptions.length : 0,
  };
  const items = appended(assembled.items, addedItems);
  const options = appended(assembled.shippingOptions, addedOptions);
  if (items) assembled.items = items;
  if (options) assembled.shippingOptions = options;
  let order: UncheckedOrderInput;
  try {
    // A copy of the page's objects: changing them after the start must not change what a retry sends.
    order = dataCopy(assembled) as UncheckedOrderInput;
  } catch {
    return {
      code: 'invalid_order',
      message: 'order: holds a value that cannot be sent, such as a function; give strings and numbers.',
      attribute: 'order',
    };
  }
  const customer: CustomerPrefill = {};
  for (const key of ['email', 'phone', 'firstName', 'lastName'] as const) {
    if (source[key]) customer[key] = source[key];
  }
  const { signature } = source;
  // `certificate-name` goes in the order: it is signed (see core's signature-input.ts).
  const card = cardSettings(source.cardLayout, source.cardholderName);
  return { ...layout, gateway, widgetId, init: { order, customer, ...(signature && { signature }) }, card };
}
