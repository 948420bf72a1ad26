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

/**
 * How the customer pays for the cart: at once; a reservation (`skip_capture`: the card is authorised and the
 * shop's staff capture the money when the order ships, or release it); or at once with the card saved
 * (`force_recurring`: the Purchase becomes a recurring token the back office can charge again).
 */
export type V1PaymentMode = 'pay' | 'reserve' | 'save_card';

/** What each way of paying asks of the Purchase, and of the payment methods the picker offers. */
export interface V1PaymentModeRules {
  /** The Purchase's flags. */
  purchase: Pick<CreatePurchaseRequest, 'skip_capture' | 'force_recurring'>;
  /**
   * The filter of the payment-methods lookup (`payment-methods-url`'s query): only methods that can hold
   * money, or save a card, are offered for it (banks can do neither).
   */
  methodsFilter: string;
}

/** The ways of paying, as the back end creates their Purchases and the page lists their methods. */
export const V1_PAYMENT_MODES: Readonly<Record<V1PaymentMode, V1PaymentModeRules>> = {
  pay: { purchase: {}, methodsFilter: '' },
  reserve: { purchase: { skip_capture: true }, methodsFilter: 'skip_capture=true' },
  save_card: { purchase: { force_recurring: true }, methodsFilter: 'recurring=true' },
};

/** Whether `value` names a way of paying. */
export function isV1PaymentMode(value: unknown): value is V1PaymentMode {
  return typeof value === 'string' && Object.hasOwn(V1_PAYMENT_MODES, value);
}

/** An amount in cents as the shop writes it, such as `34.90 EUR`. */
export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
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
