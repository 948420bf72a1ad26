/**
 * Page objects of the v1 path: the shop's v1 checkout page with `<svc-checkout>` in v1 mode (the payment
 * method picker), the gateway's hosted checkout page (plain HTML, driven by its ids), and the shop's pages
 * the gateway sends the customer back to. Driven as a customer does, by roles and labels where the page
 * has them, in English.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import type { CreatedPurchase } from '../../../demo/merchant/v1-shop.js';
import { type Card, freshPage } from './shop-page.js';

/** `navigateToCheckout`'s detail, as the demo's event log writes it to the console. */
export interface NavigateToCheckoutDetail {
  method: string | null;
  url: string;
}

/** The shop's `/v1-checkout.html`, then wherever the customer goes from it in the same tab. */
export class V1CheckoutPage {
  /** `navigateToCheckout` details, oldest first, from the console lines of the demo's event log. */
  readonly navigations: NavigateToCheckoutDetail[] = [];

  private constructor(
    readonly page: Page,
    readonly shopUrl: string,
  ) {
    page.on('console', (message) => {
      const text = message.text();
      const prefix = '[svc-demo] navigateToCheckout ';
      if (text.startsWith(prefix)) {
        this.navigations.push(JSON.parse(text.slice(prefix.length)) as NavigateToCheckoutDetail);
      }
    });
  }

  /** Opens the page in a fresh context (no storage shared with other tests, so no kept lookup either). */
  static async open(browser: Browser, shopUrl: string): Promise<V1CheckoutPage> {
    const page = await freshPage(browser);
    const checkout = new V1CheckoutPage(page, shopUrl);
    await page.goto(`${shopUrl}/v1-checkout.html`);
    return checkout;
  }

  get element(): Locator {
    return this.page.locator('svc-checkout');
  }

  /** The customer's e-mail, by which the shop finds their Client. */
  get emailField(): Locator {
    return this.page.getByRole('textbox', { name: 'Your e-mail' });
  }

  /** For a customer with a saved card: the link to the hosted page as it is, the saved card checked. */
  get savedCardLink(): Locator {
    return this.page.getByRole('link', { name: 'Pay with my saved card' });
  }

  /** Presses the cart's button; resolves with the Purchase the back end created once the picker shows. */
  async startCheckout(): Promise<CreatedPurchase> {
    const answer = this.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/v1/purchase',
    );
    await this.page.getByRole('button', { name: 'Choose how to pay' }).click();
    const response = await answer;
    if (response.status() !== 201) {
      throw new Error(`POST /api/v1/purchase answered ${response.status()}: ${await response.text()}`);
    }
    const purchase = (await response.json()) as CreatedPurchase;
    await this.confirmButton.waitFor({ state: 'visible' });
    return purchase;
  }

  /** The picker's group of bank methods (one country shown at a time). */
  get bankGroup(): Locator {
    return this.element.getByRole('group', { name: /^Bank payment/ });
  }

  /** The country select of the bank methods. */
  get countrySelect(): Locator {
    return this.bankGroup.getByRole('combobox', { name: 'Country' });
  }

  /** A method's radio button by the name the gateway gives it (such as `Swedbank`). */
  method(name: string): Locator {
    return this.element.getByRole('radio', { name, exact: true });
  }

  /** The one card choice, whose label names the schemes. */
  get cardChoice(): Locator {
    return this.element.getByRole('radio', { name: /^Card\b/ });
  }

  get confirmButton(): Locator {
    return this.element.getByRole('button', { name: 'Continue to payment' });
  }

  /** Confirms the choice; resolves on the gateway's hosted page. */
  async confirm(): Promise<HostedCheckoutPage> {
    await this.confirmButton.click();
    await this.page.waitForURL(/\/checkout\/[0-9a-f-]+\//);
    return new HostedCheckoutPage(this.page);
  }
}

/** The gateway's hosted checkout page at the Purchase's `checkout_url` (see src/sandbox/v1/checkout-form-page.ts). */
export class HostedCheckoutPage {
  constructor(readonly page: Page) {}

  /** `?preferred=` of the page's URL. */
  preferred(): string | null {
    return new URL(this.page.url()).searchParams.get('preferred');
  }

  /** The radio button of a choice: `card`, or a bank or wallet method's name. */
  choice(value: string): Locator {
    return this.page.locator(`#method-${value}`);
  }

  /** A saved card's radio button, by its description (`Visa •••• 1111`). */
  savedCard(description: string): Locator {
    return this.page.getByRole('radio', { name: description, exact: true });
  }

  /** Every saved card the page offers. */
  get savedCards(): Locator {
    return this.page.locator('input[name="method"][value^="saved:"]');
  }

  get payButton(): Locator {
    return this.page.locator('button.pay');
  }

  /** The card fields, then Pay. */
  async payWithCard(card: Card): Promise<void> {
    await this.page.locator('#card_number').fill(card.number);
    await this.page.locator('#card_expiry').fill(card.expiry ?? '12/34');
    await this.page.locator('#card_cvc').fill(card.cvc ?? '123');
    await this.page.locator('#card_holder').fill(card.holder ?? 'Test Buyer');
    await this.pay();
  }

  /**
   * Pay, with the choice as it is: the one submit button shown, "Pay" for a card, "Continue to <bank>" for a
   * bank or wallet (the page shows the chosen method's own button).
   */
  async pay(): Promise<void> {
    await this.page.locator('form button[type="submit"]:visible').click();
  }

  /** The test bank's (or wallet's, or 3-D Secure) confirmation step: approve. */
  async approveStep(): Promise<void> {
    await this.page.locator('button.approve').click();
  }
}

/** A row of the result page's table: what the back end received. */
export interface ReceivedRow {
  source: string;
  event: string;
  cells: string[];
}

/** The shop's `/v1-success.html` or `/v1-failure.html`. */
export class V1ResultPage {
  constructor(readonly page: Page) {}

  get status(): Locator {
    return this.page.locator('#order-status');
  }

  /** Resolves once the order status says `text`. */
  async waitForStatus(text: RegExp): Promise<void> {
    try {
      await this.page.getByRole('status').filter({ hasText: text }).waitFor({ state: 'visible' });
    } catch (error) {
      const shown = await this.status.textContent({ timeout: 1000 }).catch(() => null);
      throw new Error(`The order status does not say ${text}: ${JSON.stringify(shown)}`, { cause: error });
    }
  }

  /** The rows of what the back end received, in the order shown (the order they arrived). */
  async received(): Promise<ReceivedRow[]> {
    return this.page.locator('#received tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        source: (row as HTMLElement).dataset['source'] ?? '',
        event: (row as HTMLElement).dataset['event'] ?? '',
        cells: [...row.children].map((cell) => cell.textContent ?? ''),
      })),
    );
  }
}
