// Helpers of the v1 mode tests: a real Purchase from the sandbox (created with the demo merchant's secret key
// by the test server, as the merchant's server would), the real payment-methods endpoint on this page's
// origin (test/support/wtr-gateway-plugin.mjs), and ways to read and drive the picker as a customer does.
import { waitUntil } from '@open-wc/testing';
import type { Purchase } from '../../src/core/v1-types.js';
import type { NavigateToCheckoutEvent } from '../../src/element/navigate-to-checkout-event.js';
import type { SvcCheckout } from '../../src/element/svc-checkout.js';
import { shadow } from './helpers.js';

export { type GatewayInfo, gatewayInfo, shadow } from './helpers.js';

/** The demo merchant's payment-methods endpoint on this page's origin (currency EUR unless the query names one). */
export const PAYMENT_METHODS_URL = '/__payment-methods';

/** A new Purchase of the demo merchant on the sandbox (`POST /__purchase`). */
export async function createPurchase(request: object = {}): Promise<Purchase> {
  const response = await fetch('/__purchase', { method: 'POST', body: JSON.stringify(request) });
  if (!response.ok) throw new Error(`POST /__purchase answered ${response.status}`);
  return (await response.json()) as Purchase;
}

/** Waits until the picker shows its form: the methods, or the way on without them. */
export async function pickerShown(element: SvcCheckout): Promise<void> {
  await waitUntil(
    () => element.state === 'form' && shadow(element).querySelector('[part~="confirm-button"]'),
    `the picker shows no form (state ${element.state})`,
    { timeout: 8000 },
  );
  await element.updateComplete;
}

/** The radio buttons shown, in order. */
export function radios(element: SvcCheckout): HTMLInputElement[] {
  return [...shadow(element).querySelectorAll<HTMLInputElement>('input[type="radio"]')];
}

/** The radio button of a method (the card choice has the value of its first, or chosen, scheme). */
export function radio(element: SvcCheckout, method: string): HTMLInputElement {
  const found = radios(element).find((input) => input.value === method);
  if (!found) throw new Error(`no radio button for ${method}`);
  return found;
}

/** The visible name of each radio button's row, in order. */
export function choiceNames(element: SvcCheckout): string[] {
  return radios(element).map((input) => input.closest('label')!.querySelector('.name')!.textContent!.trim());
}

export function countrySelect(element: SvcCheckout): HTMLSelectElement {
  const select = shadow(element).querySelector<HTMLSelectElement>('select');
  if (!select) throw new Error('no country select');
  return select;
}

/** Chooses an option of a select as a customer does: the value changes, then `change` fires. */
export async function selectCountry(element: SvcCheckout, code: string): Promise<void> {
  const select = countrySelect(element);
  select.value = code;
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await element.updateComplete;
}

export function confirmButton(element: SvcCheckout): HTMLButtonElement {
  return shadow(element).querySelector<HTMLButtonElement>('[part~="confirm-button"]')!;
}

/** Presses confirm and returns the `navigateToCheckout` it fires, cancelled so that the page stays. */
export function confirmAndCatch(element: SvcCheckout): NavigateToCheckoutEvent {
  const caught: NavigateToCheckoutEvent[] = [];
  const listener = (event: NavigateToCheckoutEvent) => {
    event.preventDefault();
    caught.push(event);
  };
  element.addEventListener('navigateToCheckout', listener);
  try {
    confirmButton(element).click();
  } finally {
    element.removeEventListener('navigateToCheckout', listener);
  }
  if (caught.length !== 1) throw new Error(`confirm fired navigateToCheckout ${caught.length} times`);
  return caught[0]!;
}

/** How many requests this page made for a URL (resource timing; requests answered by the HTTP cache count). */
export function requestsFor(url: string): number {
  return performance.getEntriesByType('resource').filter((entry) => entry.name === url).length;
}
