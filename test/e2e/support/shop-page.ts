/**
 * Page objects for the demo shop: a shop page with its `<svc-checkout>`, and the payment frame inside it,
 * driven the way a customer does (by labels and roles, in English), across the frame's origin.
 */
import type { Browser, FrameLocator, Locator, Page } from 'playwright-core';

/** The sandbox's test cards. */
export const CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  threeDSecure: '4000000000003220',
  processingError: '4000000000000119',
} as const;

export interface Card {
  number: string;
  /** MM/YY; default 12/34. */
  expiry?: string;
  /** Default 123. */
  cvc?: string;
  /** Default "Test Buyer". */
  holder?: string;
}

/** The status screens' titles (English catalog). */
export type StatusTitle = 'Payment successful' | 'Payment failed' | 'Payment cancelled';

/** The details the demo's event log shows for each event. */
export interface PaymentCompletedDetail {
  orderId: string;
  merchantOrderId: string | null;
  paymentSucceeded: boolean;
}
export interface CheckoutErrorDetail {
  code: string;
  message: string;
  attribute?: string;
}
type EventName = 'paymentCompleted' | 'navigateBackToCart' | 'checkoutError';

const DEFAULT_TIMEOUT = 15_000;

/** A page in a fresh context (no storage shared with other tests), with the tests' default timeout. */
export async function freshPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.setDefaultTimeout(DEFAULT_TIMEOUT);
  return page;
}

/** Polls `check` until it returns a value other than undefined, or fails naming `what`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = DEFAULT_TIMEOUT,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The payment frame inside `<svc-checkout>`. */
export class PaymentFrame {
  /** @param diagnose says what the page knows when the frame does not show what a step waits for. */
  constructor(
    readonly frame: FrameLocator,
    private readonly diagnose: () => Promise<string> = async () => '',
  ) {}

  get cardNumber(): Locator {
    return this.frame.getByLabel('Card number');
  }

  payButton(): Locator {
    return this.frame.getByRole('button', { name: /^Pay\b/ });
  }

  /**
   * Resolves once the form is on screen with its order: the card fields show first, while the gateway takes
   * the order, and the pay button takes a payment once it has (its `aria-disabled` turns false), or, for an
   * order whose shipping is still to choose or price, says so.
   */
  async waitForForm(): Promise<void> {
    try {
      await this.cardNumber.waitFor({ state: 'visible' });
      await this.frame
        .locator('button.svc-pay[aria-disabled="false"]')
        .or(this.frame.getByRole('button', { name: /^(Choose a shipping method|Pay once delivery)/ }))
        .waitFor({ state: 'visible' });
    } catch (error) {
      throw new Error(`The card form did not show. ${await this.diagnose()}`, { cause: error });
    }
  }

  async fillCard(card: Card): Promise<void> {
    await this.waitForForm();
    await this.cardNumber.fill(card.number);
    await this.frame.getByLabel('Expiry date').fill(card.expiry ?? '12/34');
    await this.frame.getByLabel('Security code (CVC)').fill(card.cvc ?? '123');
    await this.frame.getByLabel('Name on card').fill(card.holder ?? 'Test Buyer');
  }

  /** Ticks the terms checkbox when the frame asks for it. */
  async agreeToTerms(): Promise<void> {
    const box = this.frame.getByLabel('I agree to the terms and conditions');
    if ((await box.count()) > 0 && !(await box.isChecked())) await box.check();
  }

  /** Fills the card, agrees to the terms and presses Pay. */
  async payWith(card: Card): Promise<void> {
    await this.fillCard(card);
    await this.agreeToTerms();
    await this.payButton().click();
  }

  /** Resolves once the status screen with this title shows. */
  async waitForStatus(title: StatusTitle): Promise<void> {
    await this.frame.getByRole('heading', { name: title }).waitFor({ state: 'visible' });
  }

  async approveChallenge(): Promise<void> {
    await this.frame.getByRole('button', { name: 'Approve payment' }).click();
  }

  async denyChallenge(): Promise<void> {
    await this.frame.getByRole('button', { name: 'Deny payment' }).click();
  }

  async waitForChallenge(): Promise<void> {
    await this.frame.getByRole('heading', { name: '3-D Secure verification' }).waitFor({ state: 'visible' });
  }

  /** The status screen's paragraph that contains `text` (the reason of a failure, for example). */
  statusText(text: string): Locator {
    return this.frame.locator('p', { hasText: text });
  }

  /** The failed screen's "Try another card": resolves once the form is back. */
  async tryAnotherCard(): Promise<void> {
    await this.frame.getByRole('button', { name: 'Try another card' }).click();
    await this.waitForForm();
  }

  async backToShop(): Promise<void> {
    await this.frame.getByRole('button', { name: 'Back to the shop' }).click();
  }

  async cancel(): Promise<void> {
    await this.frame.getByRole('button', { name: 'Cancel payment' }).click();
  }

  /** The radio button of a shipping method, by the name the frame shows for it (its label, else its id). */
  shippingOption(name: string): Locator {
    return this.frame.getByRole('radio', { name: new RegExp(`^${name}\\b`) });
  }

  /** Picks a shipping method by the name the frame shows for it. */
  async chooseShipping(name: string): Promise<void> {
    await this.shippingOption(name).check();
  }

  /** Resolves once the pay button asks for this amount (major units, `43.30`), shipping included. */
  async waitForPayAmount(amount: string): Promise<void> {
    const name = new RegExp(`^Pay\\b.*\\b${amount.replace('.', '\\.')}$`);
    try {
      await this.frame.getByRole('button', { name }).waitFor();
    } catch (error) {
      const shown = await this.payButton()
        .textContent({ timeout: 1000 })
        .catch(() => null);
      throw new Error(`The pay button does not ask for ${amount}: ${shown?.trim()}`, { cause: error });
    }
  }

  async fillDeliveryAddress(address: { street: string; city: string; postalCode: string }): Promise<void> {
    await this.frame.getByLabel('Street address').fill(address.street);
    const city = this.frame.getByLabel('City');
    await city.fill(address.city);
    await this.frame.getByLabel('Postal code').fill(address.postalCode);
    // Quotes are asked for on change: leave the last field so it fires.
    await city.focus();
  }

  /** The pickup point select, which a pickup-point shipping method asks for. */
  get pickupPoint(): Locator {
    return this.frame.getByLabel('Pickup point', { exact: true });
  }

  async choosePickupPoint(externalId: string): Promise<void> {
    await this.pickupPoint.selectOption(externalId);
  }

  /** The VAT the summary says the total includes, as shown (`€8.23`). */
  async taxIncluded(): Promise<string> {
    const text = (await this.frame.locator('.svc-summary-tax').textContent()) ?? '';
    return text.replace(/^Including VAT\s*/, '').trim();
  }

  /** Fills a contact field when it is empty (prefilled ones are left as the shop gave them). */
  async fillContactIfEmpty(
    label: 'First name' | 'Last name' | 'Email' | 'Phone',
    value: string,
  ): Promise<void> {
    // Optional fields carry "(optional)" in their label.
    const field = this.frame.getByLabel(new RegExp(`^${label}( \\(optional\\))?$`));
    if ((await field.inputValue()) === '') await field.fill(value);
  }
}

/** A page of the demo shop. */
export class ShopPage {
  readonly frame: PaymentFrame;

  private constructor(
    readonly page: Page,
    readonly shopUrl: string,
  ) {
    this.frame = new PaymentFrame(page.frameLocator('svc-checkout iframe'), () => this.diagnose());
  }

  /** The element's state and the errors it reported, for failure messages. */
  async diagnose(): Promise<string> {
    const state = await this.element.getAttribute('state', { timeout: 1000 }).catch(() => 'unknown');
    const errors = await this.events('checkoutError').catch(() => []);
    return `Page ${this.page.url()}, <svc-checkout state="${state}">, checkoutError events: ${JSON.stringify(errors)}`;
  }

  /** Opens `path` of the shop in a fresh context (no storage shared with other tests). */
  static async open(browser: Browser, shopUrl: string, path: string): Promise<ShopPage> {
    const shop = new ShopPage(await freshPage(browser), shopUrl);
    await shop.goto(path);
    return shop;
  }

  async goto(path: string): Promise<void> {
    await this.page.goto(`${this.shopUrl}${path}`);
  }

  get element(): Locator {
    return this.page.locator('svc-checkout');
  }

  /** The details of the events of this name in the page's event log, oldest first. */
  async events<T = unknown>(name: EventName): Promise<T[]> {
    const texts = await this.page
      .locator(`#event-log li[data-event="${name}"]`)
      .evaluateAll((items) => items.map((item) => item.querySelector('code')?.textContent ?? ''));
    return texts.map((text) => (text === '' ? undefined : JSON.parse(text)) as T);
  }

  /** Resolves with the `count`-th event of this name, waiting for it. */
  async waitForEvent<T = unknown>(name: EventName, count = 1): Promise<T> {
    // Wrapped: an event without detail (navigateBackToCart) is logged as undefined, which still counts.
    const found = await waitUntil(`${count} ${name} event(s) in the page's log`, async () => {
      const events = await this.events<T>(name);
      return events.length >= count ? { detail: events[count - 1] as T } : undefined;
    });
    return found.detail;
  }

  async paymentCompleted(count = 1): Promise<PaymentCompletedDetail> {
    return this.waitForEvent<PaymentCompletedDetail>('paymentCompleted', count);
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}
