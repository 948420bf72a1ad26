/**
 * The demo shop's merchant order ids: a prefix naming the page, then the time and a counter, so each page
 * view and each cart is an order of its own.
 */

let counter = 0;

/** A fresh merchant order id with this prefix, such as `PANTRY-M0X1A2B301`. */
export function newOrderId(prefix: string): string {
  counter = (counter + 1) % 1296;
  return `${prefix}-${Date.now().toString(36).toUpperCase()}${counter.toString(36).toUpperCase().padStart(2, '0')}`;
}
