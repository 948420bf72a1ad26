/**
 * The demo shop's delivery prices, quoted to the gateway through the shipping cost URL. Deterministic, so
 * the demo README and the end-to-end tests can state the exact amount a customer sees.
 */
import type { ShippingCostRequest, ShippingCostResponse } from 'svc-checkout/server';

/** The shipping options the demo pages offer; only the priced-later ones reach {@link quoteShipping}. */
export const DEMO_SHIPPING_METHODS = {
  /** Fixed price, written in the order: never asks the shipping cost URL. */
  post: 'latvian-post',
  /** Priced by the customer's city (type ADDRESS). */
  courier: 'courier',
  /** Priced by the chosen pickup point (type PICKUP_POINT: the pages give it that type). */
  pickup: 'pickup-point',
} as const;

/** The labels the demo pages give the options: what the customer reads and the notification's method name. */
export const DEMO_SHIPPING_LABELS: Readonly<Record<string, string>> = {
  [DEMO_SHIPPING_METHODS.post]: 'Latvian Post',
  [DEMO_SHIPPING_METHODS.courier]: 'Courier',
  [DEMO_SHIPPING_METHODS.pickup]: 'Pickup point',
  express: 'Express courier',
};

/** Courier prices by city, tax included, in euros. Keys are cities lower-cased with diacritics removed. */
export const COURIER_PRICES: Readonly<Record<string, string>> = {
  riga: '3.50',
  jurmala: '4.50',
  daugavpils: '5.90',
  liepaja: '5.90',
};

/** Any other city in reach of the courier. */
export const COURIER_OTHER_CITY_PRICE = '7.90';

/** Pickup point prices, tax included, in euros, by the widget's pickup point external id. */
export const PICKUP_POINT_PRICES: Readonly<Record<string, string>> = {
  'riga-centre': '1.99',
  'riga-old-town': '2.49',
};

/** Cities the courier does not serve: the quote is refused, so the customer sees that delivery is not possible there. */
export const COURIER_UNSERVED_CITIES: ReadonlySet<string> = new Set(['nowhere']);

/** `Rīga ` → `riga`: the key a city is priced under. */
export function cityKey(city: string): string {
  return city
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .trim()
    .toLowerCase();
}

/**
 * The price of a delivery, or null when the method cannot deliver there (the handler answers 422).
 * Currency is left out: the gateway uses the order's.
 */
export function quoteShipping(request: ShippingCostRequest): ShippingCostResponse | null {
  switch (request.shipping_method_id) {
    case DEMO_SHIPPING_METHODS.courier: {
      // The courier goes to the customer's address, never to a pickup point. A widget that asks no address
      // sends an empty one: the price of any other city.
      if (request.pickup_point !== undefined) return null;
      const city = cityKey(request.address.city);
      if (COURIER_UNSERVED_CITIES.has(city)) return null;
      return { amount: COURIER_PRICES[city] ?? COURIER_OTHER_CITY_PRICE };
    }
    case DEMO_SHIPPING_METHODS.pickup: {
      // Priced by the point alone; `address` is the point's own (or empty), not the customer's.
      const point = request.pickup_point?.external_id;
      const amount = point === undefined ? undefined : PICKUP_POINT_PRICES[point];
      return amount === undefined ? null : { amount };
    }
    default:
      return null;
  }
}
