/**
 * Turns the element's attributes into the order the merchant signed, naming attributes (not model paths)
 * in every problem so the console message points at what to change in the page.
 */
import type { Result } from './errors.js';
import { type OrderInput, type OrderIssue, OrderValidationError, parseOrder } from './order.js';

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
}

const ATTRIBUTE_NAMES: Record<string, string> = {
  widgetId: 'widget-id',
  language: 'language',
  orderId: 'order-id',
  backToMerchantUrl: 'back-to-merchant-url',
  amount: 'amount',
  currency: 'currency',
  label: 'label',
  taxRate: 'tax-rate',
  count: 'count',
  unit: 'unit',
};

const JSON_MEMBERS = new Set(['items', 'shippingOptions', 'constraints']);

const SINGLE_ITEM_ATTRIBUTES = ['amount', 'currency', 'label', 'taxRate', 'count', 'unit'] as const;

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

function attributePath(path: string, singleItem: boolean): string {
  const field = /^items\[0\]\.(\w+)$/.exec(path)?.[1];
  if (singleItem && field && ATTRIBUTE_NAMES[field]) return ATTRIBUTE_NAMES[field];
  if (ATTRIBUTE_NAMES[path]) return ATTRIBUTE_NAMES[path];
  return path === 'order' || path === 'currency' ? path : `order.${path}`;
}

/**
 * Builds the order from the element's attributes: the single-item form (`amount`, `label`, ...) or the
 * `order` JSON, never both. Only what the merchant gave is kept, because only that is signed.
 */
export function orderFromAttributes(attributes: OrderAttributes): Result<OrderInput, OrderValidationError> {
  const singleItem = SINGLE_ITEM_ATTRIBUTES.some((name) => present(attributes[name]));
  const hasOrder = attributes.order !== undefined && attributes.order !== null && attributes.order !== '';
  if (singleItem && hasOrder) {
    const given = SINGLE_ITEM_ATTRIBUTES.filter((name) => present(attributes[name])).map(
      (name) => ATTRIBUTE_NAMES[name],
    );
    return {
      error: new OrderValidationError([
        {
          path: 'order',
          code: 'unknown_member',
          message: `order: give either the order attribute or the single-item attributes (${given.join(', ')}), not both`,
        },
      ]),
    };
  }

  let json: Record<string, unknown> = {};
  if (hasOrder) {
    const parsed =
      typeof attributes.order === 'string'
        ? parseOrderJsonText(attributes.order)
        : { value: attributes.order };
    if (parsed.error) return { error: new OrderValidationError([parsed.error]) };
    if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
      return {
        error: new OrderValidationError([
          { path: 'order', code: 'wrong_type', message: 'order: must be a JSON object with items' },
        ]),
      };
    }
    json = { ...(parsed.value as Record<string, unknown>) };
  } else if (singleItem) {
    const item: Record<string, string> = {};
    for (const name of SINGLE_ITEM_ATTRIBUTES) {
      const value = attributes[name];
      if (present(value)) item[name] = value;
    }
    json = { items: [item] };
  }

  // The element-level fields are attributes of their own; the JSON carries only the order's contents.
  const input: Record<string, unknown> = { items: [] };
  const jsonIssues: OrderIssue[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (JSON_MEMBERS.has(key)) input[key] = value;
    else
      jsonIssues.push({
        path: `order.${key}`,
        code: 'unknown_member',
        message: `order.${key}: is not a member of the order JSON; use items, shippingOptions, constraints`,
      });
  }
  for (const name of ['widgetId', 'language', 'backToMerchantUrl', 'orderId'] as const) {
    const value = attributes[name];
    if (present(value)) input[name] = value;
  }

  const { value, error } = parseOrder(input);
  if (error || jsonIssues.length > 0) {
    const issues = (error?.issues ?? []).map((issue) => {
      const path = attributePath(issue.path, singleItem);
      return { ...issue, path, message: issue.message.replace(issue.path, path) };
    });
    return { error: new OrderValidationError([...jsonIssues, ...issues]) };
  }
  return { value: value.input };
}
