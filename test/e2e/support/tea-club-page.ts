/**
 * Page objects of the Tea club: the shop's `/tea-club.html`, where a customer joins the subscription plan,
 * and the back office's subscriptions, outbox, balance and statement download, driven by keyboard only.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import type { PlanId } from '../../../demo/merchant/v1-subscriptions.js';
import { tabTo } from './back-office-page.js';
import { freshPage, waitUntil } from './shop-page.js';

/** The plans' radio buttons, by the start of their labels. */
const PLAN_LABELS: Record<PlanId, RegExp> = {
  monthly: /^Tea club: /,
  trial: /^Tea club, first month free: /,
};

/** The shop's `/tea-club.html`, then wherever the customer goes from it in the same tab. */
export class TeaClubPage {
  private constructor(readonly page: Page) {}

  static async open(browser: Browser, shopUrl: string): Promise<TeaClubPage> {
    const page = await freshPage(browser);
    await page.goto(`${shopUrl}/tea-club.html`);
    return new TeaClubPage(page);
  }

  /** The live region that says the subscription's status. */
  get status(): Locator {
    return this.page.locator('#subscription-status');
  }

  /**
   * Picks the plan, types the e-mail and presses Join, by keyboard: Tab reaches the group's checked radio,
   * the arrow keys move the choice, Enter in the form joins.
   */
  async join(plan: PlanId, email: string): Promise<void> {
    const wanted = this.page.getByRole('radio', { name: PLAN_LABELS[plan] });
    await tabTo(this.page, this.page.locator('input[name="plan"]:checked'));
    for (let press = 0; press < 5 && !(await wanted.isChecked()); press += 1) {
      await this.page.keyboard.press('ArrowDown');
    }
    if (!(await wanted.isChecked())) throw new Error(`The arrow keys do not reach the plan ${plan}`);
    await tabTo(this.page, this.page.getByRole('textbox', { name: 'Your e-mail' }));
    await this.page.keyboard.type(email);
    await this.page.keyboard.press('Enter');
  }

  /** Resolves once the status region shows `status` and says `text`; fails naming what it says. */
  async waitForStatus(status: string, text: RegExp): Promise<string> {
    try {
      await this.page
        .getByRole('status')
        .and(this.page.locator(`#subscription-status[data-status="${status}"]`))
        .filter({ hasText: text })
        .waitFor();
    } catch (error) {
      const said = await this.status.textContent({ timeout: 1000 }).catch(() => null);
      throw new Error(`The subscription status does not say ${text} (${status}): ${JSON.stringify(said)}`, {
        cause: error,
      });
    }
    return (await this.status.textContent()) ?? '';
  }
}

/** A subscriber as the back office's table shows it. */
export interface ShownSubscription {
  client: string;
  plan: string;
  status: string;
  nextBilling: string;
  /** The buttons' visible words: `Pause`, `Resume`, `Cancel`. */
  actions: string[];
}

/** A message of the outbox as the back office's table shows it. */
export interface ShownMessage {
  kind: string;
  purchaseId: string;
  to: string;
  amount: string;
}

/** The back office's subscriptions, outbox, balance and statement. */
export class BackOfficeBilling {
  constructor(readonly page: Page) {}

  async subscriptions(): Promise<ShownSubscription[]> {
    return this.page.locator('#subscriptions tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.children].map((cell) => cell.textContent ?? '');
        return {
          client: cells[0] ?? '',
          plan: cells[1] ?? '',
          status: cells[2] ?? '',
          nextBilling: cells[3] ?? '',
          actions: [...row.querySelectorAll('button')].map((button) => button.firstChild?.textContent ?? ''),
        };
      }),
    );
  }

  async outbox(): Promise<ShownMessage[]> {
    return this.page.locator('#outbox tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.children].map((cell) => cell.textContent ?? '');
        return {
          kind: (row as HTMLElement).dataset['kind'] ?? '',
          purchaseId: (row as HTMLElement).dataset['purchaseId'] ?? '',
          to: cells[2] ?? '',
          amount: cells[4] ?? '',
        };
      }),
    );
  }

  /**
   * Presses the refresh button by keyboard until `check` of what the page shows holds; fails naming `what`.
   * (The page also reads again on every event; the button makes the wait not depend on a webhook's timing.)
   */
  async refreshUntil<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
    const button = this.page.getByRole('button', { name: 'Read subscriptions, outbox and balance again' });
    return waitUntil(what, async () => {
      const seen = await check();
      if (seen !== undefined) return seen;
      await tabTo(this.page, button);
      await this.page.keyboard.press('Enter');
      return undefined;
    });
  }

  /**
   * The subscriber `email` once it shows `status`. With `refresh: false` it only waits for the page's own
   * update (an action's): pressing the refresh button would take the focus the test wants to check.
   */
  async waitForSubscription(
    email: string,
    status: string,
    { refresh = true }: { refresh?: boolean } = {},
  ): Promise<ShownSubscription> {
    let shown: ShownSubscription[] = [];
    const what = `the subscription of ${email} to be ${status}`;
    const check = async (): Promise<ShownSubscription | undefined> => {
      shown = await this.subscriptions();
      return shown.find((row) => row.client === email && row.status === status);
    };
    try {
      return await (refresh ? this.refreshUntil(what, check) : waitUntil(what, check));
    } catch (error) {
      throw new Error(`The subscriptions shown are ${JSON.stringify(shown)}`, { cause: error });
    }
  }

  /** Presses a subscriber's button (`Pause`, `Resume`, `Cancel`) by keyboard. */
  async act(email: string, planTitle: string, button: 'Pause' | 'Resume' | 'Cancel'): Promise<void> {
    await tabTo(
      this.page,
      this.page.getByRole('button', {
        name: `${button} the ${planTitle} subscription of ${email}`,
        exact: true,
      }),
    );
    await this.page.keyboard.press('Enter');
  }

  /** The balance's lines as the page shows them. */
  async balance(): Promise<string[]> {
    return this.page.locator('#balance li').allTextContents();
  }

  /** Downloads the statement by keyboard (Tab to the link, Enter); resolves with the file's text. */
  async downloadStatement(): Promise<{ name: string; text: string }> {
    const link = this.page.getByRole('link', { name: 'Download statement (CSV)' });
    const download = this.page.waitForEvent('download');
    await tabTo(this.page, link);
    await this.page.keyboard.press('Enter');
    const file = await download;
    const stream = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return { name: file.suggestedFilename(), text: Buffer.concat(chunks).toString('utf8') };
  }
}
