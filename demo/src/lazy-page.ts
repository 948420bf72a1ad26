/**
 * The lazy page: the cart is built in the page, signed by the shop's back end, and handed to the element
 * with its script API. The key stays on the server; the page only asks it to sign.
 */
import 'svc-checkout';
import type { OrderInput, OrderItemInput, ShippingOptionInput } from 'svc-checkout';

const PRODUCTS: Record<string, Omit<OrderItemInput, 'count'>> = {
  tea: { amount: '6.40', label: 'Tea, 100 g', orderItemId: 'tea' },
  honey: { amount: '8.90', label: 'Honey, 0.5 kg', orderItemId: 'honey', unit: 'PIECE' },
};
const SHIPPING: ShippingOptionInput[] = [{ id: 'latvian-post', amount: '2.80' }];

const form = document.querySelector<HTMLFormElement>('#cart')!;
const error = document.querySelector<HTMLElement>('#cart-error')!;
const checkout = document.querySelector('svc-checkout')!;

function cartItems(): OrderItemInput[] {
  const data = new FormData(form);
  return Object.entries(PRODUCTS).flatMap(([name, product]) => {
    const count = Number(data.get(name));
    return Number.isInteger(count) && count > 0 ? [{ ...product, count }] : [];
  });
}

/** The order exactly as the element will send it: its attributes, then the items and options added. */
function orderToSign(items: OrderItemInput[]): OrderInput {
  const attribute = (name: string) => checkout.getAttribute(name) ?? undefined;
  const order: OrderInput = { widgetId: attribute('widget-id') ?? '', items, shippingOptions: SHIPPING };
  const orderId = attribute('order-id');
  const backToMerchantUrl = attribute('back-to-merchant-url');
  const language = attribute('language');
  if (orderId !== undefined) order.orderId = orderId;
  if (backToMerchantUrl !== undefined) order.backToMerchantUrl = backToMerchantUrl;
  if (language !== undefined) order.language = language;
  return order;
}

async function sign(order: OrderInput): Promise<{ signature: string; certificateName: string }> {
  const response = await fetch('/api/sign', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(order),
  });
  const body = (await response.json()) as { signature?: string; certificateName?: string; message?: string };
  if (!response.ok || !body.signature || !body.certificateName) {
    throw new Error(body.message ?? `The shop could not sign the order (HTTP ${response.status})`);
  }
  return { signature: body.signature, certificateName: body.certificateName };
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const items = cartItems();
  if (items.length === 0) {
    error.textContent = 'Your cart is empty: add at least one product.';
    return;
  }
  const button = form.querySelector('button')!;
  button.disabled = true;
  try {
    await customElements.whenDefined('svc-checkout');
    const { signature, certificateName } = await sign(orderToSign(items));
    checkout.signature = signature;
    checkout.certificateName = certificateName;
    for (const item of items) checkout.addOrderItem(item);
    for (const option of SHIPPING) checkout.addShippingOption(option);
    checkout.init();
    // The order is signed as it is: the cart is closed from here on.
    for (const input of form.querySelectorAll('input')) input.disabled = true;
  } catch (cause) {
    error.textContent = cause instanceof Error ? cause.message : String(cause);
    button.disabled = false;
  }
});

checkout.addEventListener('paymentCompleted', (event) => {
  document.querySelector('#shop-status')!.textContent = event.detail.paymentSucceeded
    ? 'Thank you! Your order is paid; the shop has been notified.'
    : 'The payment did not go through. You can try another card.';
});
