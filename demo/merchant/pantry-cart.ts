/**
 * The lazy page's cart, priced on the server: the page says only which products and how many, and the back
 * end builds the order from its own prices before it signs it, as a shop must (whatever a browser sends,
 * its user can change).
 */
import type { OrderInput } from 'svc-checkout/server';
import { DEMO_SHIPPING_LABELS, DEMO_SHIPPING_METHODS } from './shipping-prices.js';

type Item = OrderInput['items'][number];
type ShippingOption = NonNullable<OrderInput['shippingOptions']>[number];

/** The demo merchant's plain checkout widget (the sandbox's `DEMO_WIDGET_IDS.checkout`), used by the lazy page. */
export const PANTRY_WIDGET_ID = 'de300000-0000-4000-8000-000000000002';

/** The lazy page's products by id, prices with tax included, in euros. */
export const PANTRY_PRODUCTS: Readonly<Record<string, Omit<Item, 'count'>>> = {
  tea: { amount: '6.40', label: 'Tea, 100 g', orderItemId: 'tea' },
  honey: { amount: '8.90', label: 'Honey, 0.5 kg', orderItemId: 'honey', unit: 'PIECE' },
};

/** The lazy page's shipping options by id, priced in the order: the plain checkout widget asks no address. */
export const PANTRY_SHIPPING: Readonly<Record<string, ShippingOption>> = {
  [DEMO_SHIPPING_METHODS.post]: {
    id: DEMO_SHIPPING_METHODS.post,
    amount: '2.80',
    label: DEMO_SHIPPING_LABELS[DEMO_SHIPPING_METHODS.post]!,
  },
};

/** The most of one product a cart takes; the page's quantity fields stop there too. */
export const PANTRY_MAX_COUNT = 20;

/** What the lazy page posts: product ids with counts, and the shipping option chosen, if any. */
export interface CartRequest {
  items: Array<{ id: string; count: number }>;
  shippingOptionId?: string;
}

/** Where the order goes besides its contents: its merchant order id, and the shop for the way back. */
export interface CartContext {
  orderId: string;
  /** The shop's origin; the order leads back to its cart page. Without it the order has no way back. */
  shopUrl?: string;
}

export type CartOrder = { order: OrderInput; error?: undefined } | { order?: undefined; error: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The members of `value` other than `allowed`, named for a message. */
function strayMembers(value: Record<string, unknown>, allowed: readonly string[]): string[] {
  return Object.keys(value).filter((key) => !allowed.includes(key));
}

/**
 * The order of a cart (`CartRequest`), priced from {@link PANTRY_PRODUCTS} and {@link PANTRY_SHIPPING}; or
 * what is wrong with the cart. A cart that names a price, or anything but ids and counts, is refused.
 */
export function pantryOrder(body: unknown, context: CartContext): CartOrder {
  if (!isRecord(body))
    return { error: 'The cart must be a JSON object: {items: [{id, count}], shippingOptionId?}' };
  const stray = strayMembers(body, ['items', 'shippingOptionId']);
  if (stray.length > 0)
    return { error: `${stray.join(', ')}: the cart takes only items and shippingOptionId` };
  const { items, shippingOptionId } = body;
  if (!Array.isArray(items) || items.length === 0) {
    return { error: 'items: must list at least one product as {id, count}' };
  }
  const lines: Item[] = [];
  const seen = new Set<string>();
  for (const [index, line] of items.entries()) {
    const at = `items[${index}]`;
    if (!isRecord(line)) return { error: `${at}: must be {id, count}` };
    const extra = strayMembers(line, ['id', 'count']);
    if (extra.length > 0) {
      return { error: `${at}.${extra[0]}: a cart line has only id and count; the shop sets the prices` };
    }
    const { id, count } = line;
    if (typeof id !== 'string' || !Object.hasOwn(PANTRY_PRODUCTS, id)) {
      return { error: `${at}.id: is none of the products (${Object.keys(PANTRY_PRODUCTS).join(', ')})` };
    }
    if (seen.has(id)) return { error: `${at}.id: ${id} is in the cart twice; give its count once` };
    seen.add(id);
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > PANTRY_MAX_COUNT) {
      return { error: `${at}.count: must be a whole number from 1 to ${PANTRY_MAX_COUNT}` };
    }
    lines.push({ ...PANTRY_PRODUCTS[id]!, count });
  }
  let shipping: ShippingOption | undefined;
  if (shippingOptionId !== undefined) {
    if (typeof shippingOptionId !== 'string' || !Object.hasOwn(PANTRY_SHIPPING, shippingOptionId)) {
      return {
        error: `shippingOptionId: is none of the shipping options (${Object.keys(PANTRY_SHIPPING).join(', ')})`,
      };
    }
    shipping = PANTRY_SHIPPING[shippingOptionId];
  }
  return {
    order: {
      widgetId: PANTRY_WIDGET_ID,
      orderId: context.orderId,
      ...(context.shopUrl !== undefined && { backToMerchantUrl: `${context.shopUrl}/cart.html` }),
      items: lines,
      ...(shipping && { shippingOptions: [{ ...shipping }] }),
    },
  };
}
