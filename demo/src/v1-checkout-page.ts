/**
 * The v1 checkout page: shows the shop's cart, asks the back end for a Purchase of it, then puts
 * `<svc-checkout>` in v1 mode on the page with the Purchase's checkout URL. The element lists the payment
 * methods (through the shop's cached endpoint) and, on confirmation, goes to the gateway's payment page with
 * the chosen method preselected. The page never sees a price it could change, nor the secret key.
 *
 * With the customer's e-mail the back end finds or creates their v1 Client; when the Client has a saved card,
 * the page also links to the hosted page as it is (no `?preferred=`), where that card is offered checked.
 */
import 'svc-checkout';
import { isV1PaymentMode, money, V1_PAYMENT_MODES, type V1CartView } from '../merchant/v1-cart.js';
import type { CreatedPurchase } from '../merchant/v1-shop.js';

/** The endpoint the element asks for the payment methods: the shop's own, never the gateway's. */
const PAYMENT_METHODS_URL = '/api/v1/payment-methods';
/** The customer's country as the shop knows it (say, from the delivery address): Latvian banks first. */
const CUSTOMER_COUNTRY = 'lv';

const lines = document.querySelector<HTMLUListElement>('#cart-lines')!;
const total = document.querySelector<HTMLElement>('#cart-total')!;
const start = document.querySelector<HTMLButtonElement>('#start-checkout')!;
const error = document.querySelector<HTMLElement>('#cart-error')!;
const payment = document.querySelector<HTMLElement>('#payment')!;
const note = document.querySelector<HTMLElement>('#purchase-note')!;
const modes = document.querySelector<HTMLFieldSetElement>('#payment-mode')!;
const email = document.querySelector<HTMLInputElement>('#customer-email')!;
const savedCard = document.querySelector<HTMLElement>('#saved-card')!;
const paySaved = document.querySelector<HTMLAnchorElement>('#pay-saved')!;

/** A refusal of the back end, with its code (such as `invalid_email`). */
class ShopRefusal extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

async function readJson<T>(response: Response, what: string): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as T & { message?: string; error?: string };
  if (!response.ok) {
    throw new ShopRefusal(body.message ?? `${what} failed (HTTP ${response.status})`, body.error);
  }
  return body;
}

async function showCart(): Promise<void> {
  const cart = await readJson<V1CartView>(await fetch('/api/v1/cart'), 'Loading the cart');
  lines.replaceChildren(
    ...cart.lines.map((line) => {
      const item = document.createElement('li');
      item.className = 'product';
      const name = document.createElement('span');
      name.textContent = `${line.name} × ${line.quantity}`;
      const amount = document.createElement('span');
      amount.textContent = money(line.price * line.quantity, cart.currency);
      item.append(name, amount);
      return item;
    }),
  );
  total.textContent = money(cart.total, cart.currency);
  start.disabled = false;
}

/** The element in v1 mode, created once its checkout URL is known: the mode is fixed when it starts. */
function showPicker(purchase: CreatedPurchase): void {
  const checkout = document.createElement('svc-checkout');
  checkout.setAttribute('checkout-url', purchase.checkoutUrl);
  // Only the methods that can pay this Purchase: a reservation or a saved card needs a card.
  const filter = V1_PAYMENT_MODES[purchase.mode].methodsFilter;
  checkout.setAttribute(
    'payment-methods-url',
    filter ? `${PAYMENT_METHODS_URL}?${filter}` : PAYMENT_METHODS_URL,
  );
  checkout.setAttribute('country', CUSTOMER_COUNTRY);
  const amount = money(purchase.total, purchase.currency);
  const what =
    purchase.mode === 'reserve'
      ? `${amount}, reserved on your card until the order ships`
      : purchase.mode === 'save_card'
        ? `${amount}, and your card saved for the next orders`
        : amount;
  note.textContent = `Order ${purchase.reference}, ${what}. Choose how to pay; the gateway's payment page opens with your choice.`;
  if (purchase.savedCard) {
    // Without `?preferred=` the hosted page checks the saved card: paid in one click there.
    paySaved.href = purchase.checkoutUrl;
    savedCard.hidden = false;
  }
  payment.hidden = false;
  payment.append(checkout);
  // The button that was pressed is disabled now: keyboard and screen reader users go on from here.
  document.querySelector<HTMLElement>('#payment-title')!.focus();
}

start.addEventListener('click', async () => {
  error.textContent = '';
  start.disabled = true;
  const chosen = modes.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value;
  const mode = isV1PaymentMode(chosen) ? chosen : 'pay';
  const customer = email.value.trim();
  modes.disabled = true;
  email.disabled = true;
  email.removeAttribute('aria-invalid');
  email.setAttribute('aria-describedby', 'customer-email-hint');
  try {
    const purchase = await readJson<CreatedPurchase>(
      await fetch('/api/v1/purchase', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ mode, ...(customer !== '' && { email: customer }) }),
      }),
      'Creating the order',
    );
    // One Purchase per visit: the button and the choice stay disabled, the cart is on its way to payment.
    showPicker(purchase);
  } catch (cause) {
    error.textContent = cause instanceof Error ? cause.message : String(cause);
    start.disabled = false;
    modes.disabled = false;
    email.disabled = false;
    if (cause instanceof ShopRefusal && cause.code === 'invalid_email') {
      email.setAttribute('aria-invalid', 'true');
      email.setAttribute('aria-describedby', 'customer-email-hint cart-error');
      email.focus();
    }
  }
});

const cancelled = new URLSearchParams(location.search).get('cancelled');
if (cancelled) {
  document.querySelector('#cancelled')!.textContent =
    `You left the payment page: order ${cancelled} is not paid. You can start again below.`;
}

showCart().catch((cause: unknown) => {
  error.textContent = cause instanceof Error ? cause.message : String(cause);
});
