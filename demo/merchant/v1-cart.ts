/**
 * The v1 checkout page's cart, kept by the shop: the page shows it and asks for a Purchase, and the back end
 * builds the Purchase's products from this list. Nothing the browser sends is a price, so the amount the
 * customer pays is the shop's.
 */
import type { CreatePurchaseRequest } from 'svc-checkout/server';

type PurchaseProduct = CreatePurchaseRequest['purchase']['products'][number];

/** One line of the cart; prices in minor units (cents), as the v1 interface takes them. */
export interface V1CartLine {
  id: string;
  name: string;
  /** Unit price in cents, VAT included. */
  price: number;
  quantity: number;
}

/** The cart as the page shows it. */
export interface V1CartView {
  currency: string;
  lines: readonly V1CartLine[];
  /** In cents. */
  total: number;
}

/** The currency of every v1 Purchase the demo makes: bank payments in the Baltics are in euros. */
export const V1_CURRENCY = 'EUR';

/** The cart: two tea towels at 12.50 and a mug at 9.90, 34.90 EUR in all. */
export const V1_CART: readonly V1CartLine[] = [
  { id: 'linen-towel', name: 'Linen tea towel', price: 1250, quantity: 2 },
  { id: 'stoneware-mug', name: 'Stoneware mug', price: 990, quantity: 1 },
];

/** The cart with its total. */
export function v1CartView(): V1CartView {
  return {
    currency: V1_CURRENCY,
    lines: V1_CART,
    total: V1_CART.reduce((sum, line) => sum + line.price * line.quantity, 0),
  };
}

/** The Purchase's `purchase.products` for the cart. */
export function v1PurchaseProducts(): PurchaseProduct[] {
  return V1_CART.map(({ name, price, quantity }) => ({ name, price, quantity }));
}
