/**
 * The order as `<svc-checkout>`'s attributes give it, assembled exactly as given: the `order` JSON (as
 * written or HTML-escaped) or the single-item attributes as one item, with the element-level attributes
 * beside it. Only the attributes' shape is checked here (the JSON parses to an object of order members, and
 * not both forms at once); the order's values are checked by the gateway at intake and by
 * `orderFromAttributes` (order-attributes.ts) for servers and tools. Apart from the order model, so that the
 * element's script-tag file carries none of it.
 */
import type { Result } from './errors.js';
import type { OrderIssue } from './order.js';
import { isPlainObject } from './plain-object.js';

/** The order-related attributes of `<svc-checkout>`, as strings (or absent). */
export interface OrderAttributes {
  widgetId?: string | null;
  language?: string | null;
  amount?: string | null;
  currency?: string | null;
  label?: string | null;
  taxRate?: string | null;
  count?: string | null;
  unit?: string | null;
  orderId?: string | null;
  /** The `order` attribute's JSON text (HTML-escaped or not), or an order object set as a property. */
  order?: string | object | null;
  backToMerchantUrl?: string | null;
  successRedirectUrl?: string | null;
  certificateName?: string | null;
}

/**
 * The attribute of each order-related property of `<svc-checkout>` (`taxRate` is `tax-rate`): the one map
 * that turns an order field into the attribute a merchant writes, for the checks' messages and the
 * element's errors.
 */
export const ORDER_ATTRIBUTE_NAMES = {
  widgetId: 'widget-id',
  language: 'language',
  orderId: 'order-id',
  backToMerchantUrl: 'back-to-merchant-url',
  successRedirectUrl: 'success-redirect-url',
  certificateName: 'certificate-name',
  amount: 'amount',
  currency: 'currency',
  label: 'label',
  taxRate: 'tax-rate',
  count: 'count',
  unit: 'unit',
} as const satisfies Record<Exclude<keyof OrderAttributes, 'order'>, string>;

/** A property of `<svc-checkout>` that is part of the order, other than `order` itself. */
export type OrderAttributeProperty = keyof typeof ORDER_ATTRIBUTE_NAMES;

/** The attribute that gives an order field (`widgetId`, or an item's `taxRate`), when one does. */
export function orderAttributeOf(
  field: string | undefined,
): (typeof ORDER_ATTRIBUTE_NAMES)[OrderAttributeProperty] | undefined {
  return field !== undefined && Object.hasOwn(ORDER_ATTRIBUTE_NAMES, field)
    ? ORDER_ATTRIBUTE_NAMES[field as OrderAttributeProperty]
    : undefined;
}

/** The single-item attributes, by property name: when any is given, the order is one item made of them. */
const SINGLE_ITEM_ATTRIBUTES = ['amount', 'currency', 'label', 'taxRate', 'count', 'unit'] as const;

/**
 * The attributes that sit beside the order's contents, whichever form those take, in the order of the
 * signature's input.
 */
export const ELEMENT_LEVEL_ATTRIBUTES = [
  'widgetId',
  'language',
  'certificateName',
  'successRedirectUrl',
  'backToMerchantUrl',
  'orderId',
] as const;

/**
 * An order as the attributes give it, before any check of its values: the element-level attributes as
 * strings, and the order's contents exactly as the `order` JSON (or object) held them, of any type. The
 * gateway checks it at intake; `orderFromAttributes` checks it into an `OrderInput`.
 */
export interface UncheckedOrderInput {
  widgetId?: string;
  language?: string;
  /** The `order-id` attribute, or the order JSON's `orderId` as written (the gateway checks it). */
  orderId?: unknown;
  backToMerchantUrl?: string;
  successRedirectUrl?: string;
  certificateName?: string;
  /**
   * The single item of the attributes, the JSON's `items` as written (of any type: the gateway refuses
   * what is not a list of items), or `[]` when neither gives any.
   */
  items: unknown;
  shippingOptions?: unknown;
  constraints?: unknown;
}

/**
 * What the `order` JSON may hold: the order's contents, and the order id (as the official PHP client prints
 * it, the `order-id` attribute's alternative); the other element-level fields are attributes.
 */
const JSON_MEMBERS = new Set(['orderId', 'items', 'shippingOptions', 'constraints']);

const NAMED_ENTITIES: Record<string, string> = {
  quot: '"',
  amp: '&',
  lt: '<',
  gt: '>',
  apos: "'",
  '#39': "'",
};

/** Decodes HTML character references, for `order` JSON that arrives still escaped. */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

/**
 * Reads the `order` attribute: JSON as written, or JSON that is still HTML-escaped (`&quot;items&quot;`),
 * which the document asks merchants to write and some templates escape twice.
 */
export function parseOrderJsonText(text: string): Result<unknown, OrderIssue> {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    if (/&(#x?[0-9a-f]+|[a-z]+);/i.test(text)) {
      try {
        return { value: JSON.parse(decodeHtmlEntities(text)) };
      } catch {}
    }
    const reason = error instanceof Error ? error.message : String(error);
    return {
      error: {
        path: 'order',
        code: 'invalid_json',
        message: `order: is not valid JSON (${reason}); write {"items":[{"amount":"9.99","label":"..."}]}, HTML-escaped in the attribute`,
      },
    };
  }
}

function present(value: string | null | undefined): value is string {
  return value !== undefined && value !== null && value !== '';
}

/** Whether the attributes give the order in the single-item form (`amount`, `label`, ...). */
export function givesSingleItem(attributes: OrderAttributes): boolean {
  return SINGLE_ITEM_ATTRIBUTES.some((name) => present(attributes[name]));
}

/**
 * The attributes' order input and the problems of their shape. `input` is absent when the order cannot be
 * assembled at all (the JSON does not parse, is not an object, or comes with the single-item attributes);
 * members of the JSON that are not order contents are left out of `input` and named in `issues`.
 */
export interface AssembledOrderInput {
  input?: UncheckedOrderInput;
  issues: OrderIssue[];
}

/**
 * Assembles the order input from the attributes, for `orderInputFromAttributes` and `orderFromAttributes`
 * (which reports the shape's issues together with the values' ones). Nothing is filled in.
 */
export function assembleOrderInput(attributes: OrderAttributes): AssembledOrderInput {
  const singleItem = givesSingleItem(attributes);
  const { order } = attributes;
  const hasOrder = order !== undefined && order !== null && order !== '';
  const problem = (code: OrderIssue['code'], message: string): AssembledOrderInput => ({
    issues: [{ path: 'order', code, message: `order: ${message}` }],
  });
  if (singleItem && hasOrder) {
    const given = SINGLE_ITEM_ATTRIBUTES.filter((name) => present(attributes[name])).map(
      (name) => ORDER_ATTRIBUTE_NAMES[name],
    );
    return problem(
      'unknown_member',
      `give either the order attribute or the single-item attributes (${given.join(', ')}), not both`,
    );
  }

  const input: UncheckedOrderInput & Record<string, unknown> = { items: [] };
  const issues: OrderIssue[] = [];
  if (hasOrder) {
    const parsed = typeof order === 'string' ? parseOrderJsonText(order) : { value: order };
    if (parsed.error) return { issues: [parsed.error] };
    if (!isPlainObject(parsed.value)) {
      return problem('wrong_type', 'must be a JSON object with items');
    }
    for (const [key, value] of Object.entries(parsed.value)) {
      if (JSON_MEMBERS.has(key)) input[key] = value;
      else
        issues.push({
          path: `order.${key}`,
          code: 'unknown_member',
          message: `order.${key}: is not a member of the order JSON; use ${[...JSON_MEMBERS].join(', ')}`,
        });
    }
  } else if (singleItem) {
    const item: Record<string, string> = {};
    for (const name of SINGLE_ITEM_ATTRIBUTES) {
      const value = attributes[name];
      if (present(value)) item[name] = value;
    }
    input['items'] = [item];
  }
  const { orderId } = attributes;
  // `null` is "not given": the official client writes `"orderId":null` for an order without an id.
  if (present(orderId) && input.orderId != null && `${input.orderId}` !== orderId) {
    return problem('conflicting_values', `orderId "${input.orderId}" is not order-id "${orderId}"`);
  }
  for (const name of ELEMENT_LEVEL_ATTRIBUTES) {
    const value = attributes[name];
    if (present(value)) input[name] = value;
  }
  return { input, issues };
}

/**
 * The order input the attributes give, exactly as given, or the problems of the attributes' shape, each
 * naming the attribute (the `order` JSON does not parse, is not an object, holds members other than
 * `orderId`, `items`, `shippingOptions` and `constraints`, or comes with the single-item attributes; its
 * `orderId` differs from `order-id`). The values are not checked: see `orderFromAttributes`.
 */
export function orderInputFromAttributes(
  attributes: OrderAttributes,
): Result<UncheckedOrderInput, OrderIssue[]> {
  const { input, issues } = assembleOrderInput(attributes);
  return input && issues.length === 0 ? { value: input } : { error: issues };
}
