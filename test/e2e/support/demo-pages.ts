/**
 * The demo shop's pages as the tests know them: where each is, what a customer does on it before the card
 * (cart, delivery), and what the order then costs, so each payment can be checked against the notification.
 */
import type { PaymentFrame, ShopPage } from './shop-page.js';

export interface DemoPage {
  path: string;
  /** What the customer does before the card form can be paid. */
  prepare(shop: ShopPage, variant: number): Promise<void>;
  /** The order's total as the notification states it, for the given variant. */
  total(variant: number): string;
}

async function noPreparation(): Promise<void> {}

/** Where the full checkout delivers: to an address in a city, or to a pickup point (with no street address). */
export type Delivery =
  | { option: string; city: string; price: string }
  | { option: string; pickupPointId: string; price: string };

/** What the full checkout widget asks before the card: contact details (those not prefilled) and delivery. */
export async function fillContactAndDelivery(frame: PaymentFrame, delivery: Delivery): Promise<void> {
  await frame.waitForForm();
  await frame.fillContactIfEmpty('First name', 'Anna');
  await frame.fillContactIfEmpty('Last name', 'Bērziņa');
  await frame.fillContactIfEmpty('Email', 'anna@example.com');
  await frame.fillContactIfEmpty('Phone', '+37120000000');
  await frame.chooseShipping(delivery.option);
  if ('pickupPointId' in delivery) await frame.choosePickupPoint(delivery.pickupPointId);
  else
    await frame.fillDeliveryAddress({
      street: 'Brīvības iela 1',
      city: delivery.city,
      postalCode: 'LV-1010',
    });
  // The price the option shows once known (fixed, or quoted by the shop's shipping cost URL).
  await frame.frame
    .getByRole('radio', {
      name: new RegExp(`^${delivery.option}\\b.*${delivery.price.replace('.', '\\.')}`),
    })
    .waitFor();
}

export const DEMO_PAGES: readonly DemoPage[] = [
  { path: '/instant.html', prepare: noPreparation, total: () => '15.00' },
  { path: '/single-item.html', prepare: noPreparation, total: () => '49.80' },
  {
    path: '/order-json.html',
    async prepare(shop, variant) {
      // The plain checkout widget: a choice among fixed prices, no address or contact fields.
      await shop.frame.waitForForm();
      await shop.frame.chooseShipping(variant === 0 ? 'Latvian Post' : 'Express courier');
      await shop.frame.waitForPayAmount(variant === 0 ? '43.30' : '47.40');
    },
    // 3 notebooks at 12.00, a pen set at 4.50; Latvian Post 2.80 or express 6.90.
    total: (variant) => (variant === 0 ? '43.30' : '47.40'),
  },
  {
    path: '/lazy.html',
    async prepare(shop) {
      await shop.page.getByRole('button', { name: 'Go to payment' }).click();
      await shop.frame.waitForForm();
      // The order's only shipping option comes chosen, and counted in the amount to pay.
      await shop.frame.waitForPayAmount('24.50');
      if (!(await shop.frame.shippingOption('Latvian Post').isChecked())) {
        throw new Error('The only shipping option of /lazy.html is not preselected');
      }
    },
    // 2 teas at 6.40, one honey at 8.90, Latvian Post 2.80.
    total: () => '24.50',
  },
  {
    path: '/full-checkout.html',
    async prepare(shop, variant) {
      await fillContactAndDelivery(
        shop.frame,
        variant === 0
          ? { option: 'Courier', city: 'Rīga', price: '3.50' }
          : { option: 'Pickup point', pickupPointId: 'riga-centre', price: '1.99' },
      );
    },
    // Lamp 39.00 and two bulbs at 3.50; courier to Riga 3.50, or the Riga Centre locker 1.99.
    total: (variant) => (variant === 0 ? '49.50' : '47.99'),
  },
  { path: '/script-tag.html', prepare: noPreparation, total: () => '9.90' },
  { path: '/script-tag-classic.html', prepare: noPreparation, total: () => '15.00' },
  { path: '/strict-csp.html', prepare: noPreparation, total: () => '18.00' },
];
