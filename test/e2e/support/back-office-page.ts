/**
 * The demo shop's back office (`/back-office.html`) as its staff use it, by keyboard only: Tab to a control,
 * type, Enter. A control that Tab does not reach cannot be used, and the page object fails saying so.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import type { BackOfficeOperation, ClientCardOperation } from '../../../demo/merchant/v1-back-office.js';
import { freshPage, waitUntil } from './shop-page.js';

/** The button of each action, as the page writes it (its hidden words name the order). */
const BUTTONS: Record<BackOfficeOperation, string> = {
  capture: 'Capture',
  release: 'Release the hold',
  refund: 'Refund',
  charge: 'Charge the saved card',
  markAsPaid: 'Mark as paid',
};

/** The button of each action on a Client's saved card. */
const CARD_BUTTONS: Record<ClientCardOperation, string> = {
  chargeCard: 'Charge this card',
  removeCard: 'Remove card',
};

/** A saved card as the Clients section shows it. */
export interface ShownCard {
  description: string;
  /** `Saved on 24 Nov 2026, 16:50`. */
  savedOn: string;
  /** The actions it offers: `chargeCard`, `removeCard`. */
  actions: string[];
}

/**
 * Presses Tab until `target` has the focus, from wherever the focus is (the page wraps around).
 * @throws Error when `maxPresses` presses do not reach it: the control is out of keyboard reach.
 */
export async function tabTo(page: Page, target: Locator, maxPresses = 300): Promise<void> {
  await target.waitFor();
  for (let press = 0; press < maxPresses; press += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} was not reached with ${maxPresses} presses of Tab`);
}

/** A row of the page's table of what the back end received. */
export interface BackOfficeRow {
  source: string;
  event: string;
  reference: string;
  /** `#`, received, from, event, order, status, deliveries. */
  cells: string[];
}

export class BackOfficePage {
  private constructor(readonly page: Page) {}

  /**
   * Opens the page in a fresh context and logs in with `password`; resolves once its live stream has
   * delivered the snapshot.
   */
  static async open(browser: Browser, shopUrl: string, password: string): Promise<BackOfficePage> {
    const page = await freshPage(browser);
    await page.goto(`${shopUrl}/back-office.html`);
    await page.getByLabel('Back office password').fill(password);
    await page.getByLabel('Back office password').press('Enter');
    await page
      .locator('#live-status')
      .filter({ hasText: /^Live:/ })
      .waitFor();
    return new BackOfficePage(page);
  }

  /** An order's panel, by the shop's reference. */
  order(reference: string): Locator {
    return this.page.getByRole('article', { name: `Order ${reference}`, exact: true });
  }

  /** Resolves once the order shows `status`; fails naming the status it shows instead. */
  async waitForStatus(reference: string, status: string): Promise<void> {
    const order = this.order(reference);
    try {
      await order.and(this.page.locator(`[data-status="${status}"]`)).waitFor();
    } catch (error) {
      const shown = await order.getAttribute('data-status', { timeout: 1000 }).catch(() => null);
      throw new Error(`Order ${reference} does not show ${status} but ${shown}`, { cause: error });
    }
  }

  /** The order's facts: term → value, as the page lists them. */
  async facts(reference: string): Promise<Record<string, string>> {
    return this.order(reference)
      .locator('dl.facts > div')
      .evaluateAll((groups) =>
        Object.fromEntries(
          groups.map((group) => [
            group.querySelector('dt')?.textContent ?? '',
            group.querySelector('dd')?.textContent ?? '',
          ]),
        ),
      );
  }

  /** The actions the order offers now. */
  async actions(reference: string): Promise<string[]> {
    return this.order(reference)
      .locator('form[data-action]')
      .evaluateAll((forms) => forms.map((form) => (form as HTMLElement).dataset['action'] ?? ''));
  }

  /** The live region that says what an action did, or why it was refused. */
  get outcome(): Locator {
    return this.page.locator('#outcome');
  }

  /** Resolves once the live region says `text` (as a result, or as an error); fails naming what it says. */
  async waitForOutcome(text: RegExp, kind: 'done' | 'error'): Promise<string> {
    const region = this.page.getByRole('status').and(this.outcome);
    try {
      await region
        .and(this.page.locator(`[data-kind="${kind}"]`))
        .filter({ hasText: text })
        .waitFor();
    } catch (error) {
      const said = await this.outcome.textContent({ timeout: 1000 }).catch(() => null);
      throw new Error(`The outcome does not say ${text} (${kind}): ${JSON.stringify(said)}`, {
        cause: error,
      });
    }
    return (await this.outcome.textContent()) ?? '';
  }

  /** Whether `target` has the focus, or gets it within 5 s. */
  async focused(target: Locator): Promise<boolean> {
    // The page moves the focus as it renders the outcome, which may come a frame after the status shows.
    for (const deadline = Date.now() + 5_000; Date.now() < deadline; await delay(50)) {
      if (await target.evaluate((element) => element === document.activeElement)) return true;
    }
    return false;
  }

  /** A Client's panel, by its e-mail. */
  client(email: string): Locator {
    return this.page.getByRole('article', { name: `Client ${email}`, exact: true });
  }

  /** The Client's saved cards as shown, oldest first; empty when it says it has none. */
  async savedCards(email: string): Promise<ShownCard[]> {
    return this.client(email)
      .locator('ul.cards > li')
      .evaluateAll((items) =>
        items.map((item) => ({
          description: item.querySelector('.description')?.textContent ?? '',
          savedOn: item.querySelector('.saved-on')?.textContent ?? '',
          actions: [...item.querySelectorAll<HTMLElement>('form[data-action]')].map(
            (form) => form.dataset['action'] ?? '',
          ),
        })),
      );
  }

  /**
   * Resolves once the Client shows exactly these cards, by description, oldest first (none: it says "No saved
   * cards."); fails naming what it shows.
   */
  async waitForCards(email: string, descriptions: string[]): Promise<ShownCard[]> {
    const client = this.client(email);
    let shown: ShownCard[] | null = null;
    try {
      return await waitUntil(
        `client ${email} to show the cards ${JSON.stringify(descriptions)}`,
        async () => {
          if ((await client.count()) === 0) return undefined;
          shown = await this.savedCards(email);
          const none = await client.locator('.no-cards').count();
          const same = shown.map((card) => card.description).join('\n') === descriptions.join('\n');
          return same && (descriptions.length > 0 || none === 1) ? shown : undefined;
        },
      );
    } catch (error) {
      throw new Error(`Client ${email} shows the cards ${JSON.stringify(shown)}`, { cause: error });
    }
  }

  /** Does `action` to the Client's card by keyboard: Tab to its button, Enter. */
  async actOnCard(email: string, description: string, action: ClientCardOperation): Promise<void> {
    const button = this.client(email).getByRole('button', {
      name: `${CARD_BUTTONS[action]} ${description} of ${email}`,
      exact: true,
    });
    await tabTo(this.page, button);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Does `action` to the order by keyboard: Tab to its amount field (when it has one), type `amount` (euros,
   * as the staff write it; nothing for all of it), Enter; or Tab to its button, Enter.
   */
  async act(reference: string, action: BackOfficeOperation, amount?: string): Promise<void> {
    const form = this.order(reference).locator(`form[data-action="${action}"]`);
    const field = form.getByRole('textbox');
    if ((await field.count()) > 0) {
      await tabTo(this.page, field);
      await this.page.keyboard.press('ControlOrMeta+A');
      await this.page.keyboard.press('Delete');
      if (amount !== undefined) await this.page.keyboard.type(amount);
    } else {
      if (amount !== undefined) throw new Error(`${action} takes no amount`);
      await tabTo(this.page, form.getByRole('button', { name: new RegExp(`^${BUTTONS[action]}\\b`) }));
    }
    await this.page.keyboard.press('Enter');
  }

  /** The rows of what the back end received, in the order shown (the order they arrived). */
  async received(): Promise<BackOfficeRow[]> {
    return this.page.locator('#received tbody tr').evaluateAll((rows) =>
      rows.map((row) => ({
        source: (row as HTMLElement).dataset['source'] ?? '',
        event: (row as HTMLElement).dataset['event'] ?? '',
        reference: (row as HTMLElement).dataset['reference'] ?? '',
        cells: [...row.children].map((cell) => cell.textContent ?? ''),
      })),
    );
  }

  /** Resolves once the table shows `count` rows of the order. */
  async waitForRows(reference: string, count: number): Promise<void> {
    await this.page
      .locator(`#received tbody tr[data-reference="${reference}"]`)
      .nth(count - 1)
      .waitFor();
  }

  async close(): Promise<void> {
    await this.page.context().close();
  }
}
