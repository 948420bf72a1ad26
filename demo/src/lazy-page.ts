/**
 * The lazy page: the customer fills the cart in the page; the shop's back end prices it from its own
 * product list, builds the order and signs it (the key and the prices stay on the server; the page says
 * only which products and how many). The page hands that order to the element with its script API.
 */
// Defines the element, and tells the customer how the payment went, as on the other pages.
import './checkout.js';
import type { OrderInput } from 'svc-checkout';

/** The one shipping option of the cart; its price is the back end's. */
const SHIPPING_OPTION_ID = 'latvian-post';

/** What the back end answers: the order it built, and its signature. */
interface SignedCart {
  order: Omit<OrderInput, 'constraints'>;
  signature: string;
  certificateName: string;
}

const form = document.querySelector<HTMLFormElement>('#cart')!;
const error = document.querySelector<HTMLElement>('#cart-error')!;
const checkout = document.querySelector('svc-checkout')!;

/** The cart as the back end takes it: product ids (the quantity fields' names) and counts. */
function cartLines(): Array<{ id: string; count: number }> {
  return [...form.querySelectorAll<HTMLInputElement>('input[type="number"]')].flatMap((input) => {
    const count = Number(input.value);
    return Number.isInteger(count) && count > 0 ? [{ id: input.name, count }] : [];
  });
}

async function orderFor(items: Array<{ id: string; count: number }>): Promise<SignedCart> {
  const response = await fetch('/api/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items, shippingOptionId: SHIPPING_OPTION_ID }),
  });
  const body = (await response.json()) as Partial<SignedCart> & { message?: string };
  if (!response.ok || !body.order || !body.signature || !body.certificateName) {
    throw new Error(body.message ?? `The shop could not prepare the order (HTTP ${response.status})`);
  }
  return body as SignedCart;
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const lines = cartLines();
  if (lines.length === 0) {
    error.textContent = 'Your cart is empty: add at least one product.';
    return;
  }
  const button = form.querySelector('button')!;
  button.disabled = true;
  try {
    await customElements.whenDefined('svc-checkout');
    const { order, signature, certificateName } = await orderFor(lines);
    // Exactly the order that was signed: its fields as the element's properties, then its items and
    // shipping options by script.
    const { items, shippingOptions = [], ...fields } = order;
    Object.assign(checkout, fields, { signature, certificateName });
    for (const item of items) checkout.addOrderItem(item);
    for (const option of shippingOptions) checkout.addShippingOption(option);
    checkout.init();
    // The order is signed as it is: the cart is closed from here on.
    for (const input of form.querySelectorAll('input')) input.disabled = true;
  } catch (cause) {
    error.textContent = cause instanceof Error ? cause.message : String(cause);
    button.disabled = false;
  }
});
