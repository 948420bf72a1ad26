/**
 * `payInCheckout`: pays in a page's `<svc-checkout>` as a customer does, for merchants' own Playwright tests.
 * It reaches the payment frame (a cross-origin iframe in the element's shadow root, wherever the element
 * sits), fills the card form by its labels, answers the 3-D Secure step, and returns what the gateway
 * answered: the frame's own call to the gateway is the outcome, read as the frame reads it.
 */
import type { FrameMessageKey, PaymentFailureReason } from '../core/i18n.js';
import { TEST_CARD_NUMBERS } from '../core/test-card-numbers.js';
import type { PaymentResult } from '../core/widget-api.js';
import { FrameLabels } from './frame-labels.js';
import type { FrameShape, LocatorShape, ResponseShape, RootShape } from './playwright-shapes.js';

/** The card to type; each member has a default that the sandbox approves. */
export interface TestCard {
  /** Default the approved Visa, `4111111111111111`. */
  number?: string;
  /** `MM/YY`; default `12/34`. */
  expiry?: string;
  /** Default `123`. */
  cvc?: string;
  /** Default `Test Buyer`. */
  holder?: string;
}

/** The full checkout's contact fields to fill; a field the frame does not show is left out. */
export interface TestCustomer {
  firstName?: string;
  lastName?: string;
  email?: string;
  phone?: string;
}

/** The full checkout's shipping to choose and fill. */
export interface TestDelivery {
  /** The shipping method, by the name the frame shows for it (its label). */
  option?: string;
  /** The delivery address, for a method that delivers to one. */
  address?: { street: string; city: string; postalCode: string; country?: string };
  /** The pickup point, by its id (`externalId`), for a method with pickup points. */
  pickupPoint?: string;
}

export interface PayInCheckoutOptions {
  /**
   * Which `<svc-checkout>`, when the page has more than one: a selector (`#cart svc-checkout`) or a
   * Locator. By default the page's only `<svc-checkout>`, found at any depth, open shadow roots included.
   */
  element?: string | LocatorShape;
  /** The card; by default the approved test card. */
  card?: TestCard;
  /** Fills these contact fields when the frame shows them (the full checkout); fields left out stay as they are. */
  customer?: TestCustomer;
  /** Chooses the shipping method and fills its address or pickup point (the full checkout). */
  delivery?: TestDelivery;
  /** The answer to the 3-D Secure step, when the card asks for one. Default `approve`. */
  threeDSecure?: 'approve' | 'deny';
  /** Ticks "I agree to the terms" when the frame asks for it. Default true. */
  acceptTerms?: boolean;
  /** The page's `texts` overrides, when they rename a label the helper looks for. */
  texts?: Readonly<Record<string, string>>;
  /** How long each wait may take, in milliseconds. Default 15000. */
  timeout?: number;
}

/** A failure code of the gateway: one the frame has a text for, or another the gateway gives. */
export type PaymentFailureCode = Exclude<PaymentFailureReason, 'unknown'> | (string & Record<never, never>);

/** How the payment ended, as the gateway answered the frame. */
export type CheckoutOutcome =
  | { outcome: 'paid'; orderId: string; merchantOrderId: string | null }
  | {
      outcome: 'failed';
      /** The gateway's code, such as `card_declined` or `insufficient_funds`. */
      code: PaymentFailureCode;
      message: string;
      /**
       * False: the attempt failed and the order stays payable with another card (the frame shows "Try another
       * card"). True: the processor failed and the form takes the same card again.
       */
      retryable: boolean;
      orderId: string;
      merchantOrderId: string | null;
    }
  | { outcome: 'threeDSecureDenied'; orderId: string; merchantOrderId: string | null };

/** The helper could not pay: what it waited for, and what the page showed instead. */
export class CheckoutTestError extends Error {
  override readonly name = 'CheckoutTestError';
}

const DEFAULT_TIMEOUT = 15_000;
const POLL_MS = 100;
const PAYMENT_CALL = /\/widget-api\/v1\/orders\/[^/]+\/(payments|challenges\/[^/]+)$/;

/**
 * Pays in the `<svc-checkout>` of `page` (a Playwright `Page` or `Frame`) with a test card, and returns how
 * the payment ended. A failed screen left by an earlier call is passed with "Try another card".
 *
 * @throws CheckoutTestError when there is no such element, or several and no `element` option, when the
 *   element shows an error instead of the form (see the page's console), when the form refuses what was typed
 *   (the message names the fields), or when the gateway does not answer in time.
 */
export async function payInCheckout(
  page: RootShape,
  options: PayInCheckoutOptions = {},
): Promise<CheckoutOutcome> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  const labels = new FrameLabels(options.texts);
  const element = await findCheckout(page, options.element, timeout);
  const frame = await frameOf(element, timeout);
  const form = new CheckoutForm(frame, labels, timeout);
  await form.open(element);
  await form.fillCard(options.card ?? {});
  if (options.customer) await form.fillCustomer(options.customer);
  if (options.delivery) await form.fillDelivery(options.delivery);
  if (options.acceptTerms ?? true) await form.acceptTerms();

  const answer = options.threeDSecure ?? 'approve';
  const paid = await form.answered('payments', () => form.pay());
  if (paid.state !== 'CHALLENGE') return outcomeOf(paid, false);
  const answered = await form.answered('challenges', () => form.answerChallenge(answer));
  return outcomeOf(answered, answer === 'deny');
}

/** The one `<svc-checkout>` meant, once it is in the page. */
async function findCheckout(
  page: RootShape,
  given: string | LocatorShape | undefined,
  timeout: number,
): Promise<LocatorShape> {
  // Playwright's CSS selectors pierce open shadow roots: this finds the element at any depth.
  const candidates =
    given === undefined || typeof given === 'string' ? page.locator(given ?? 'svc-checkout') : given;
  await candidates
    .first()
    .waitFor({ state: 'attached', timeout })
    .catch((cause: unknown) => {
      throw new CheckoutTestError(
        `No <svc-checkout> ${given === undefined ? 'in the page' : 'matches the element option'} after ${timeout} ms.`,
        { cause },
      );
    });
  const count = await candidates.count();
  if (count > 1) {
    throw new CheckoutTestError(
      `${count} <svc-checkout> elements match${given === undefined ? ' in the page' : ' the element option'}; name the one to pay with the element option (a selector or a Locator).`,
    );
  }
  return candidates;
}

/** The payment frame inside the element's shadow root, once it is there. */
async function frameOf(element: LocatorShape, timeout: number): Promise<FrameShape> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const state = await element.getAttribute('state', { timeout });
    if (state === 'error') throw setupError();
    const iframe = element.locator('iframe');
    if ((await iframe.count()) > 0) {
      const frame = await (await iframe.elementHandle({ timeout })).contentFrame();
      if (frame) return frame;
    }
    if (Date.now() > deadline) {
      throw new CheckoutTestError(
        `<svc-checkout state="${state}"> shows no payment frame after ${timeout} ms: a v1 element (checkout-url) has none, and a lazy one waits for init().`,
      );
    }
    await sleep(POLL_MS);
  }
}

function setupError(): CheckoutTestError {
  return new CheckoutTestError(
    '<svc-checkout> shows an error instead of the payment form (state="error"): its console.error and checkoutError event say what to fix.',
  );
}

/** The frame's card form, driven by its labels. */
class CheckoutForm {
  constructor(
    private readonly frame: FrameShape,
    private readonly labels: FrameLabels,
    private readonly timeout: number,
  ) {}

  #field(key: FrameMessageKey): LocatorShape {
    return this.frame.getByLabel(this.labels.name(key));
  }

  #button(key: FrameMessageKey): LocatorShape {
    return this.frame.getByRole('button', { name: this.labels.name(key) });
  }

  /**
   * Resolves once the form takes a payment: the card fields show, and the pay button is enabled once the
   * gateway has taken the order (or, for an order whose shipping is still to choose or price, says so). A
   * failed screen of an earlier attempt is left with "Try another card".
   */
  async open(element: LocatorShape): Promise<void> {
    const deadline = Date.now() + this.timeout;
    const tryAnother = this.#button('status.tryAnotherCard');
    const pay = this.#button('pay.button');
    const shippingFirst = [this.#button('pay.chooseShipping'), this.#button('pay.priceShipping')];
    for (;;) {
      if ((await element.getAttribute('state')) === 'error') throw setupError();
      if (await tryAnother.isVisible()) await tryAnother.click({ timeout: this.timeout });
      else if ((await pay.isVisible()) && (await pay.getAttribute('aria-disabled')) === 'false') return;
      else if ((await shippingFirst[0]!.isVisible()) || (await shippingFirst[1]!.isVisible())) return;
      if (Date.now() > deadline) {
        const state = await element.getAttribute('state');
        throw new CheckoutTestError(
          `The card form did not take payments within ${this.timeout} ms (<svc-checkout state="${state}">): the order may have been paid or cancelled already.`,
        );
      }
      await sleep(POLL_MS);
    }
  }

  async fillCard(card: TestCard): Promise<void> {
    const { timeout } = this;
    await this.#field('card.number.label').fill(card.number ?? TEST_CARD_NUMBERS.approved, { timeout });
    await this.#field('card.expiry.label').fill(card.expiry ?? '12/34', { timeout });
    await this.#field('card.cvc.label').fill(card.cvc ?? '123', { timeout });
    await this.#field('card.holder.label').fill(card.holder ?? 'Test Buyer', { timeout });
  }

  async fillCustomer(customer: TestCustomer): Promise<void> {
    for (const [member, value] of Object.entries(customer) as Array<
      [keyof TestCustomer, string | undefined]
    >) {
      if (value === undefined) continue;
      const field = this.#field(`customer.${member}`);
      if ((await field.count()) > 0) await field.fill(value, { timeout: this.timeout });
    }
  }

  async fillDelivery(delivery: TestDelivery): Promise<void> {
    const { timeout } = this;
    if (delivery.option !== undefined) {
      const name = new RegExp(`^\\s*${delivery.option.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s|$)`);
      await this.frame.getByRole('radio', { name }).check({ timeout });
    }
    const { address, pickupPoint } = delivery;
    if (address) {
      await this.#field('delivery.address').fill(address.street, { timeout });
      await this.#field('delivery.postalCode').fill(address.postalCode, { timeout });
      if (address.country !== undefined)
        await this.#field('delivery.country').fill(address.country, { timeout });
      // Filled last, then left: the frame asks for a shipping quote when a field changes.
      const city = this.#field('delivery.city');
      await city.fill(address.city, { timeout });
      await this.#field('delivery.address').click({ timeout });
    }
    if (pickupPoint !== undefined) {
      await this.#field('delivery.pickupPoint').selectOption(pickupPoint, { timeout });
    }
  }

  async acceptTerms(): Promise<void> {
    const box = this.#field('terms.agree');
    if ((await box.count()) > 0 && !(await box.isChecked())) await box.check({ timeout: this.timeout });
  }

  async pay(): Promise<void> {
    await this.#button('pay.button').click({ timeout: this.timeout });
  }

  async answerChallenge(answer: 'approve' | 'deny'): Promise<void> {
    await this.#button(answer === 'approve' ? 'threeDs.approve' : 'threeDs.deny').click({
      timeout: this.timeout,
    });
  }

  /**
   * What the gateway answered the frame's call of `kind` that `act` makes. A submit the form refuses (a field
   * error) sends nothing: that ends the wait as soon as it shows, rather than at the timeout.
   */
  async answered(kind: 'payments' | 'challenges', act: () => Promise<void>): Promise<PaymentResult> {
    const what = kind === 'payments' ? 'payment' : '3-D Secure answer';
    const call = (response: ResponseShape): boolean =>
      response.frame() === this.frame &&
      response.request().method() === 'POST' &&
      new URL(response.url()).pathname.match(PAYMENT_CALL)?.[1]?.startsWith(kind) === true;
    let answer: ResponseShape | undefined;
    let failure: unknown;
    const response = this.frame
      .page()
      .waitForResponse(call, { timeout: this.timeout })
      .then(
        (value) => {
          answer = value;
        },
        (cause: unknown) => {
          failure = cause;
        },
      );
    await act();
    for (let refusedBefore = false; answer === undefined && failure === undefined; ) {
      await Promise.race([response, sleep(POLL_MS * 3)]);
      if (answer !== undefined || failure !== undefined) break;
      // Twice in a row: the first look may still see the marks of the fields before the submit.
      const refused = await this.#refusals();
      if (refused && refusedBefore)
        throw new CheckoutTestError(`The form did not send the ${what}. ${refused}`);
      refusedBefore = refused !== '';
    }
    if (answer === undefined) {
      throw new CheckoutTestError(
        `The frame did not send the ${what} within ${this.timeout} ms. ${await this.#refusals()}`,
        {
          cause: failure,
        },
      );
    }
    const body = (await answer.json()) as PaymentResult | { error?: { code?: string; message?: string } };
    if (answer.status() >= 400 || !('state' in body)) {
      const error = 'error' in body ? body.error : undefined;
      throw new CheckoutTestError(
        `The gateway refused the ${what} (HTTP ${answer.status()}): ${error?.code}: ${error?.message}`,
      );
    }
    return body;
  }

  /** The form's field errors, for a submit the form refused. */
  async #refusals(): Promise<string> {
    const texts = await this.frame
      .locator('.svc-field:has([aria-invalid="true"])')
      .allTextContents()
      .catch(() => []);
    const shown = texts.map((text) => text.replace(/\s+/g, ' ').trim()).filter(Boolean);
    return shown.length === 0 ? '' : `The form refused: ${shown.join('; ')}`;
  }
}

/** `denied`: the helper answered a 3-D Secure step with deny. */
function outcomeOf(result: PaymentResult, denied: boolean): CheckoutOutcome {
  const orderId = result.order.id;
  const merchantOrderId = result.order.orderId;
  switch (result.state) {
    case 'PAID':
      return { outcome: 'paid', orderId, merchantOrderId };
    case 'FAILED':
    case 'RETRY': {
      const { code, message } = result.error;
      if (denied && code === 'authentication_failed') {
        return { outcome: 'threeDSecureDenied', orderId, merchantOrderId };
      }
      return {
        outcome: 'failed',
        code,
        message,
        retryable: result.state === 'RETRY',
        orderId,
        merchantOrderId,
      };
    }
    case 'CANCELLED':
    case 'CHALLENGE':
      throw new CheckoutTestError(`The gateway answered ${result.state} to the helper's payment.`);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
