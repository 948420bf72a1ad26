/**
 * `<svc-payment-frame>`: the payment page inside the iframe of `<svc-checkout>`, served by the gateway.
 * It takes the order from the element, has the gateway check and store it, takes the card, the shipping
 * choice when the order offers options (and, for the full checkout, the customer's contact and delivery
 * data), pays, walks through 3-D Secure, and shows how
 * the payment ended. It tells the element its state, its height and the documented events over a
 * `ParentChannel`; card data never goes into that channel.
 */
import { html, LitElement, nothing, type TemplateResult } from 'lit';
import {
  appearanceEntries,
  type CustomerPrefill,
  checkAppearance,
  createFrameTranslator,
  type ElementToFrameMessage,
  type FrameMessageKey,
  type FrameMessages,
  type FrameTranslate,
  failureReasonKey,
  formatMoney,
  type Language,
  localeFor,
  normalizeLanguage,
  parseMinorUnits,
  TOKEN_NAMES,
  type WidgetState,
} from '../core/index.js';
import type { AnnounceEvent } from './announce.js';
import { createAttemptKeys, sessionStorageOrUndefined } from './attempt-keys.js';
import { type CardValues, gatewayConstraintError } from './card-checks.js';
import { SvcCardFields } from './card-fields.js';
import { CHALLENGE_HEADING_ID, renderChallenge } from './challenge-step.js';
import { SvcCustomerFields } from './customer-fields.js';
import { type QuoteShipping, type ShippingChangeEvent, SvcDeliveryFields } from './delivery-fields.js';
import { adoptDocumentStyles } from './document-styles.js';
import type { FieldError } from './form-fields.js';
import { loadTexts } from './frame-texts.js';
import { type IntakeError, intakeErrorOf } from './intake-errors.js';
import { type ChosenShipping, orderTotal, renderOrderSummary } from './order-summary.js';
import type { ParentChannel } from './parent-channel.js';
import { paymentFrameStyles } from './payment-frame.styles.js';
import { renderStatus, STATUS_HEADING_ID, statusTexts } from './status-screen.js';
import { type ApiResult, outcomeUnknown, WidgetApiClient } from './widget-api-client.js';
import type {
  ApiErrorBody,
  CustomerInput,
  OrderView,
  PaymentResult,
  ShippingInput,
  WidgetConfigView,
} from './widget-api-types.js';

/** A message shown above the form's buttons. */
type Notice =
  /** The gateway refused the payment, or could not process it this time; the customer may pay again. */
  | { kind: 'text'; key: FrameMessageKey }
  /** No answer came: whether it went through is not known until the gateway is asked. */
  | { kind: 'network'; action: 'pay' | 'cancel' };

/** What the frame shows; each maps to one `WidgetState` that the element is told. */
type Phase =
  | { kind: 'loading' }
  | { kind: 'form'; notice?: Notice }
  | { kind: 'processing'; checking?: boolean }
  | { kind: 'challenge'; challengeId: string; busy: boolean; networkError: boolean }
  | { kind: 'paid'; amount: string }
  | { kind: 'failed'; reason: FrameMessageKey }
  | { kind: 'cancelled' }
  | { kind: 'error' };

type Init = Extract<ElementToFrameMessage, { type: 'init' }>;

/** How `#showOrder` reads an order: a payment answer's own failure and challenge, and whether its end is news. */
interface ShownOrder {
  failure?: { code: string } | null | undefined;
  challengeId?: string | null | undefined;
  news?: boolean;
}

/** What the form gives for one payment request. */
interface Collected {
  card: CardValues;
  customer?: CustomerInput;
  shipping?: ShippingInput;
}

type CardField = 'number' | 'expiry' | 'cvc';

const PAID_STATES: ReadonlySet<OrderView['state']> = new Set(['PAID', 'REFUNDED', 'PARTIALLY_REFUNDED']);

/** The error of a card field refused by the gateway with a code we have no text for. */
const REFUSED_FIELD: Readonly<Record<CardField, FrameMessageKey>> = {
  number: 'card.number.error.luhn_failed',
  expiry: 'card.expiry.error.malformed',
  cvc: 'card.cvc.error.not_digits',
};

const ERROR_NOTICE: Notice = { kind: 'text', key: 'pay.error' };

/** Only http(s) links to the merchant's terms: a `javascript:` URL in a config must not become a link. */
function safeLink(url: string | undefined): string | undefined {
  try {
    const parsed = new URL(url ?? '');
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The payment frame. Rendered into the light DOM, with its styles adopted by the document: browsers fill
 * card and address fields from their autofill only in the document's own tree, and the frame is a document
 * of its own, so a shadow root would isolate nothing worth the loss.
 *
 * @cssproperty --svc-color-primary - Pay button, selected options and links (all `--svc-*` tokens of
 *   `DESIGN_TOKENS` apply; the element sends them as `appearance`).
 */
export class SvcPaymentFrame extends LitElement {
  static override properties = {
    widgetId: { attribute: false },
    pageOrigin: { attribute: false },
    apiBase: { attribute: false },
    channel: { attribute: false },
    phase: { state: true },
    t: { state: true },
    language: { state: true },
    order: { state: true },
    config: { state: true },
    prefill: { state: true },
    shipping: { state: true },
    termsAgreed: { state: true },
    termsError: { state: true },
    announcement: { state: true },
    submitting: { state: true },
  };

  /**
   * The elements of the form, each defined by its own module. Named here as values: the package declares
   * no side effects, so a bundler would otherwise drop modules imported only for their definitions.
   */
  static readonly parts = [SvcCardFields, SvcCustomerFields, SvcDeliveryFields] as const;

  /** The widget this frame was opened for (from its URL). */
  widgetId = '';
  /** The exact origin of the merchant's page, which the gateway checks against the widget's allowed origins. */
  pageOrigin = '';
  /** Prefix of `/widget-api/v1/...`; `''` on the gateway, where the frame is served. */
  apiBase = '';
  /** The channel to the element on the merchant's page. */
  channel?: ParentChannel;

  private phase: Phase = { kind: 'loading' };
  /** Texts in the frame's language; none until its catalog has loaded. */
  private t?: FrameTranslate;
  private language: Language = 'en';
  private order?: OrderView;
  private config?: WidgetConfigView;
  private prefill: CustomerPrefill = {};
  private shipping?: ChosenShipping;
  private termsAgreed = false;
  private termsError = false;
  private announcement = '';
  /** A submit is being checked (a shipping quote may be awaited) or sent. */
  private submitting = false;

  readonly #attempts = createAttemptKeys(sessionStorageOrUndefined());
  /** The widget's configuration, asked for as the frame starts (before any message can arrive). */
  #configRequest!: Promise<ApiResult<WidgetConfigView>>;
  #catalog?: FrameMessages;
  #overrides: Record<string, string> = {};
  #requestedLanguage: string | undefined;
  #languageRequests = 0;
  #started = false;
  #initialised = false;
  #stopListening?: () => void;
  #resizeObserver?: ResizeObserver;
  #reportedState?: WidgetState;
  #reportedHeight?: number;
  #focusTarget?: string;
  /** The `--svc-*` values already warned about, so that each is named once however often it is sent. */
  readonly #warnedAppearance = new Set<string>();

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  get #api(): WidgetApiClient {
    return new WidgetApiClient(this.apiBase);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    adoptDocumentStyles(this.ownerDocument, [paymentFrameStyles]);
    if (this.#started) this.#listen();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopListening?.();
    this.#stopListening = undefined;
    this.#resizeObserver?.disconnect();
  }

  protected override updated(): void {
    if (!this.#started && this.channel && this.isConnected) this.#start();
    if (this.#focusTarget) {
      this.querySelector<HTMLElement>(this.#focusTarget)?.focus();
      this.#focusTarget = undefined;
    }
  }

  /** Fetches the widget's configuration, and meanwhile listens to the element and says `ready`. */
  #start(): void {
    this.#started = true;
    this.#configRequest = this.#api.widget(this.widgetId);
    this.#listen();
    this.channel!.post({ type: 'ready' });
  }

  #listen(): void {
    this.#stopListening ??= this.channel!.onMessage((message) => this.#onElementMessage(message));
    this.#resizeObserver ??= new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.borderBoxSize[0];
      this.#reportHeight(box ? box.blockSize : this.getBoundingClientRect().height);
    });
    this.#resizeObserver.observe(this);
  }

  #reportHeight(height: number): void {
    const rounded = Math.ceil(height);
    if (rounded === this.#reportedHeight) return;
    this.#reportedHeight = rounded;
    this.channel?.post({ type: 'resize', height: rounded });
  }

  #onElementMessage(message: ElementToFrameMessage): void {
    if (message.type === 'init') {
      void this.#onInit(message);
      return;
    }
    if (message.appearance) this.#applyAppearance(message.appearance);
    if (message.language !== undefined) {
      this.#requestedLanguage = message.language;
      void this.#showLanguage();
    }
  }

  async #onInit(message: Init): Promise<void> {
    // One order per frame load: the element opens a new frame (and channel) for another order.
    if (this.#initialised) return;
    this.#initialised = true;
    this.#overrides = message.texts;
    this.#requestedLanguage = message.language;
    this.prefill = message.customer;
    this.#applyAppearance(message.appearance);
    this.#setPhase({ kind: 'loading' });
    if (message.order.widgetId !== this.widgetId) {
      this.#fail({
        code: 'invalid_order',
        message: `order.widgetId ${JSON.stringify(message.order.widgetId)} is not this frame's widget ${JSON.stringify(this.widgetId)}`,
        field: 'order.widgetId',
      });
      return;
    }
    // The texts load while the gateway takes the order, so they add no wait of their own.
    const [config, created, texts] = await Promise.all([
      this.#configRequest,
      this.#api.createOrder({
        order: message.order,
        ...(message.signature !== undefined && { signature: message.signature }),
        ...(message.certificateName !== undefined && { certificateName: message.certificateName }),
        pageOrigin: this.pageOrigin,
        customer: message.customer,
      }),
      this.#showLanguage(),
    ]);
    if (created.kind !== 'ok') return this.#fail(intakeErrorOf(created));
    if (config.kind !== 'ok') return this.#fail(intakeErrorOf(config));
    if (!texts) {
      return this.#fail({
        code: 'gateway_unreachable',
        message: 'The payment form could not load its texts',
      });
    }
    this.config = config.value;
    // An order that had ended before this load shows how it ended, without `paymentCompleted`: the event
    // tells of a payment that ends while the form is open, and none ended in this load.
    this.#showOrder(created.value, { news: false });
  }

  /**
   * Loads and shows the texts of init's (or the latest update's) language when we speak it, else of the
   * merchant's default, else English. The latest request's texts win; until they come, the first to arrive
   * show. True once the frame has texts to show.
   */
  async #showLanguage(): Promise<boolean> {
    const request = ++this.#languageRequests;
    const texts = await loadTexts(
      normalizeLanguage(this.#requestedLanguage) ?? (await this.#defaultLanguage()),
    );
    if (texts && (request === this.#languageRequests || !this.t)) {
      this.language = texts.language;
      this.#catalog = texts.catalog;
      this.t = createFrameTranslator(texts.catalog, this.#overrides);
      this.ownerDocument.documentElement.lang = texts.language;
    }
    return this.t !== undefined;
  }

  async #defaultLanguage(): Promise<Language> {
    const config = await this.#configRequest;
    return (config.kind === 'ok' && normalizeLanguage(config.value.defaults.language)) || 'en';
  }

  /**
   * Applies the element's appearance again checked here: the frame trusts no value it did not check itself.
   * Each value left out is named once in the console, which the page's developer tools show.
   */
  #applyAppearance(raw: Record<string, string>): void {
    const { appearance, rejected } = checkAppearance(raw);
    for (const { name, message } of rejected) {
      const value = `${name}: ${raw[name]}`;
      if (this.#warnedAppearance.has(value)) continue;
      this.#warnedAppearance.add(value);
      console.warn(`<svc-checkout> ${value} is not used: ${message}`);
    }
    const style = this.ownerDocument.documentElement.style;
    for (const name of TOKEN_NAMES) style.removeProperty(name);
    for (const [name, value] of appearanceEntries(appearance)) style.setProperty(name, value);
  }

  /** Tells the element why the widget cannot take a payment; the element shows it and removes the frame. */
  #fail(error: IntakeError): void {
    this.channel?.post({ type: 'error', ...error });
    this.#setPhase({ kind: 'error' });
  }

  /** Shows the phase, tells the element when its state changes, and says the change for screen readers. */
  #setPhase(phase: Phase): void {
    this.phase = phase;
    if (phase.kind !== this.#reportedState) {
      this.#reportedState = phase.kind;
      this.channel?.post({ type: 'state', state: phase.kind });
    }
    const t = this.t;
    if (!t) return;
    let text: string | undefined;
    switch (phase.kind) {
      case 'processing':
        text = t(phase.checking ? 'status.checking' : 'pay.processing');
        break;
      case 'challenge':
        if (!phase.busy && !phase.networkError) this.#focusTarget = `#${CHALLENGE_HEADING_ID}`;
        text = t(
          phase.networkError ? 'status.networkError' : phase.busy ? 'threeDs.waiting' : 'threeDs.title',
        );
        break;
      case 'paid':
      case 'failed':
      case 'cancelled': {
        this.#focusTarget = `#${STATUS_HEADING_ID}`;
        const status = statusTexts(phase, t);
        text = `${status.title}. ${status.text}`;
        break;
      }
      case 'form':
        if (phase.notice) text = this.#noticeText(phase.notice, t);
        if (phase.notice?.kind === 'network') this.#focusTarget = '#svc-retry';
        break;
    }
    if (text) this.#announce(text);
  }

  #announce(text: string): void {
    // The same text twice is no change to a live region; a no-break space makes it one.
    this.announcement = text === this.announcement ? `${text}\u00a0` : text;
  }

  readonly #onAnnounce = (event: AnnounceEvent) => {
    event.stopPropagation();
    this.#announce(event.message);
  };

  readonly #onShippingChange = (event: ShippingChangeEvent) => {
    event.stopPropagation();
    this.shipping =
      event.optionId === undefined ? undefined : { optionId: event.optionId, amount: event.amount };
  };

  #noticeText(notice: Notice, t: FrameTranslate): string {
    return t(notice.kind === 'text' ? notice.key : 'status.networkError');
  }

  /**
   * The order's state as the screen to show: the form while it can be paid, else how it ended. A payment
   * answer gives its own failure and challenge; a reloaded frame finds them in the order. `news` is false
   * for the order as intake found it, whose end (if it had ended) happened before this load of the frame.
   */
  #showOrder(
    order: OrderView,
    { failure = order.lastError, challengeId = order.challengeId, news = true }: ShownOrder = {},
  ): void {
    this.order = order;
    const { state } = order;
    if (state === 'CHALLENGE' && challengeId) {
      this.#setPhase({ kind: 'challenge', challengeId, busy: false, networkError: false });
    } else if (state === 'CANCELLED') {
      this.#setPhase({ kind: 'cancelled' });
    } else if (state === 'FAILED' || PAID_STATES.has(state)) {
      const paid = state !== 'FAILED';
      this.#attempts.settle(order.id);
      // `paymentCompleted` first, then the status screen, as the documented event promises; once, in the
      // load of the frame in which the payment ended.
      if (news) {
        this.channel?.post({
          type: 'paymentCompleted',
          orderId: order.id,
          ...(order.orderId !== null && { merchantOrderId: order.orderId }),
          paymentSucceeded: paid,
        });
      }
      this.#setPhase(
        paid
          ? { kind: 'paid', amount: this.#money(parseMinorUnits(order.total)) }
          : { kind: 'failed', reason: failureReasonKey(failure?.code) },
      );
    } else this.#setPhase({ kind: 'form' });
  }

  #showResult(result: PaymentResult): void {
    if (result.state === 'RETRY') {
      this.order = result.order;
      this.#setPhase({ kind: 'form', notice: { kind: 'text', key: failureReasonKey(result.error.code) } });
    } else {
      this.#showOrder(result.order, {
        failure: result.state === 'FAILED' ? result.error : undefined,
        challengeId: result.state === 'CHALLENGE' ? result.challengeId : undefined,
      });
    }
  }

  #money(minor: number): string {
    return formatMoney(minor, this.order!.currency, localeFor(this.language));
  }

  /** A payment is checked or sent, or one is in doubt: the form then takes no changes. */
  get #busy(): boolean {
    return this.#working || this.#inDoubt;
  }

  /** A submit is being checked or sent. */
  get #working(): boolean {
    return this.submitting || this.phase.kind === 'processing';
  }

  /**
   * No answer came to what was sent: its retry sends the same idempotency key, so it must send the same
   * data, and the fields keep what they hold until then.
   */
  get #inDoubt(): boolean {
    return this.phase.kind === 'form' && this.phase.notice?.kind === 'network';
  }

  get #fullCheckout(): boolean {
    return this.order?.collectCustomerData ?? false;
  }

  readonly #onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    if (this.phase.kind !== 'form' || this.#inDoubt) return;
    void this.#attempt(() => this.#submit());
  };

  /**
   * Runs one attempt at paying (a submit, or the retry after a lost answer): while it runs, a second click,
   * Enter or retry does nothing, and the form takes no changes.
   */
  async #attempt(run: () => Promise<boolean>): Promise<void> {
    if (this.submitting) return;
    this.submitting = true;
    let invalid = false;
    try {
      invalid = !(await run());
    } finally {
      this.submitting = false;
    }
    // Once the form takes input again: a shipping option disabled while busy could not take the focus.
    if (invalid) await this.#showInvalid();
  }

  /** Pays with what the form holds when all of it is in order; false when something in it is wrong. */
  async #submit(): Promise<boolean> {
    const collected = await this.#collect();
    if (!collected) return false;
    await this.#sendPayment(collected);
    return true;
  }

  /** Checks every part of the form; what to send when all is in order. */
  async #collect(): Promise<Collected | undefined> {
    const customerFields = this.querySelector('svc-customer-fields');
    const deliveryFields = this.querySelector('svc-delivery-fields');
    const card = this.querySelector('svc-card-fields')?.check();
    const customer = customerFields?.check();
    this.termsError = this.#fullCheckout && !this.termsAgreed;
    const shipping = await deliveryFields?.check();
    if (!card || this.termsError || (customerFields && !customer) || (deliveryFields && !shipping)) {
      return undefined;
    }
    return {
      card,
      ...(customer && { customer }),
      ...(shipping && {
        shipping: { ...shipping, ...(customer?.phone && { contactPhone: customer.phone }) },
      }),
    };
  }

  /** Moves the focus to the first field with an error and reads out what is wrong. */
  async #showInvalid(): Promise<void> {
    // Waits until this element and the parts of its form have rendered their errors.
    await this.updateComplete;
    const parts = this.querySelectorAll<LitElement>(
      'svc-card-fields, svc-customer-fields, svc-delivery-fields',
    );
    await Promise.all([...parts].map((part) => part.updateComplete));
    const errors = [...this.querySelectorAll('.svc-error')].map((node) => node.textContent?.trim());
    this.#announce(errors.filter(Boolean).join(' '));
    this.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  /**
   * Sends one payment attempt. Its idempotency key is the unanswered attempt's when there is one (a lost
   * answer, a reload), so repeating never charges twice; it is dropped once the gateway has answered.
   */
  async #sendPayment(collected: Collected): Promise<void> {
    const { id } = this.order!;
    const idempotencyKey = this.#attempts.begin(id);
    this.#setPhase({ kind: 'processing' });
    const result = await this.#api.pay(id, { idempotencyKey, ...collected });
    if (result.kind === 'network-error' || outcomeUnknown(result)) {
      this.#setPhase({ kind: 'form', notice: { kind: 'network', action: 'pay' } });
      return;
    }
    this.#attempts.settle(id);
    if (result.kind === 'ok') this.#showResult(result.value);
    else await this.#showRefusal(result.status, result.error, collected.card.number);
  }

  /**
   * The gateway turned the payment request down: an error on the card field it names, or a notice.
   * `number` is the card number that was sent.
   */
  async #showRefusal(status: number, error: ApiErrorBody, number: string): Promise<void> {
    if (status === 409 && error.code === 'order_final') return this.#refreshOrder();
    const field = /^card\.(number|expiry|cvc)$/.exec(error.field ?? '')?.[1] as CardField | undefined;
    const cardFields = this.querySelector('svc-card-fields');
    if (field && cardFields) {
      cardFields.showError(field, this.#cardFieldError(field, error, number));
      this.#setPhase({ kind: 'form' });
      await this.#showInvalid();
    } else {
      const key =
        error.code === 'shipping_required'
          ? 'delivery.chooseOption'
          : error.field?.startsWith('shipping.')
            ? 'delivery.quoteFailed'
            : 'pay.error';
      this.#setPhase({ kind: 'form', notice: { kind: 'text', key } });
    }
  }

  #cardFieldError(field: CardField, error: ApiErrorBody, number: string): FieldError {
    // Only the sandbox refuses a number for being no test card; its words name the cards to use.
    if (error.code === 'unknown_test_card') return { text: error.message };
    const byConstraint =
      error.code === 'card_not_accepted' && gatewayConstraintError(number, this.order!.constraints, this.t!);
    if (byConstraint) return byConstraint;
    const key = `card.${field}.error.${error.code.replace(/^(card|expiry|cvc)_/, '')}`;
    return { key: Object.hasOwn(this.#catalog!, key) ? (key as FrameMessageKey) : REFUSED_FIELD[field] };
  }

  /** Asks the gateway for the order's state and shows it; `lost` runs when no answer came. */
  async #refreshOrder(lost?: () => void): Promise<void> {
    const current = await this.#api.order(this.order!.id);
    if (lost && outcomeUnknown(current)) lost();
    else if (current.kind === 'ok') this.#showOrder(current.value);
    else this.#setPhase({ kind: 'form', notice: ERROR_NOTICE });
  }

  /** Shows the answer to a cancellation or a challenge; `lost` runs when none came. */
  async #showAnswer(result: ApiResult<PaymentResult>, lost: () => void): Promise<void> {
    if (outcomeUnknown(result)) lost();
    else if (result.kind === 'ok') this.#showResult(result.value);
    else await this.#refreshOrder();
  }

  /**
   * After a lost answer: asks the gateway what became of the order first. An order that ended shows how;
   * one still open gets the same request again, with the same idempotency key.
   */
  readonly #retryUnknown = () => {
    const { phase } = this;
    if (phase.kind !== 'form' || phase.notice?.kind !== 'network') return;
    const { notice } = phase;
    void this.#attempt(async () => {
      this.#setPhase({ kind: 'processing', checking: true });
      const current = await this.#api.order(this.order!.id);
      if (outcomeUnknown(current)) {
        this.#setPhase({ kind: 'form', notice });
        return true;
      }
      if (current.kind !== 'ok') {
        this.#setPhase({ kind: 'form', notice: ERROR_NOTICE });
        return true;
      }
      const view = current.value;
      if (view.state !== 'CREATED' && (view.state !== 'CHALLENGE' || view.challengeId)) {
        this.#attempts.settle(view.id);
        this.#showOrder(view);
        return true;
      }
      this.order = view;
      if (notice.action === 'cancel') {
        await this.#cancelOrder();
        return true;
      }
      // The fields hold what was sent (they took no changes since); they are read again, as sent then.
      this.#setPhase({ kind: 'form' });
      return this.#submit();
    });
  };

  readonly #onCancel = () => {
    if (this.#busy || this.phase.kind !== 'form') return;
    void this.#cancelOrder();
  };

  async #cancelOrder(): Promise<void> {
    this.#setPhase({ kind: 'processing' });
    await this.#showAnswer(await this.#api.cancel(this.order!.id), () =>
      this.#setPhase({ kind: 'form', notice: { kind: 'network', action: 'cancel' } }),
    );
  }

  async #answerChallenge(approve: boolean): Promise<void> {
    const { phase } = this;
    if (phase.kind !== 'challenge' || phase.busy || phase.networkError) return;
    this.#setPhase({ ...phase, busy: true });
    await this.#showAnswer(await this.#api.answerChallenge(this.order!.id, phase.challengeId, approve), () =>
      this.#setPhase({ ...phase, networkError: true }),
    );
  }

  /** After a lost challenge answer: the order's state tells whether the answer arrived. */
  async #retryChallenge(): Promise<void> {
    const { phase } = this;
    if (phase.kind !== 'challenge' || !phase.networkError) return;
    this.#setPhase({ ...phase, busy: true, networkError: false });
    await this.#refreshOrder(() => this.#setPhase(phase));
  }

  readonly #quoteShipping: QuoteShipping = async (request) => {
    const order = this.order!;
    const result = await this.#api.quoteShipping(order.id, request);
    if (result.kind !== 'ok' || result.value.currency !== order.currency) return { kind: 'failed' };
    try {
      return { kind: 'priced', amount: parseMinorUnits(result.value.amount) };
    } catch {
      return { kind: 'failed' };
    }
  };

  readonly #backToMerchant = () => {
    this.channel?.post({ type: 'navigateBackToCart' });
  };

  protected override render() {
    return html`<div class="svc-frame" @svc-announce=${this.#onAnnounce} @svc-shipping-change=${this.#onShippingChange}>
      <div class="svc-visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      ${this.#renderPhase()}
    </div>`;
  }

  #renderPhase(): TemplateResult | typeof nothing {
    const { phase, t } = this;
    switch (phase.kind) {
      case 'error':
        // The element shows the error in its own texts, in place of the frame.
        return nothing;
      case 'paid':
      case 'failed':
      case 'cancelled':
        return renderStatus(phase, t!, this.#backToMerchant);
      case 'challenge':
        return renderChallenge(phase, t!, {
          answer: (approve) => void this.#answerChallenge(approve),
          retry: () => void this.#retryChallenge(),
        });
      case 'form':
      case 'processing':
        return this.#renderForm(phase, t!);
      case 'loading':
        // While the element shows its own loading text: the frame is hidden until it has its texts and order.
        return html`<p class="svc-progress"></p>`;
    }
  }

  #renderForm(phase: Extract<Phase, { kind: 'form' | 'processing' }>, t: FrameTranslate): TemplateResult {
    const { language } = this;
    const busy = this.#busy;
    const order = this.order!;
    const notice = phase.kind === 'form' ? phase.notice : undefined;
    const full = this.#fullCheckout;
    return html`${renderOrderSummary(order, this.shipping, t, language)}
      <form class="svc-form" novalidate aria-busy=${this.#working} @submit=${this.#onSubmit}>
        ${full ? html`<svc-customer-fields .t=${t} .prefill=${this.prefill} ?readonly=${busy}></svc-customer-fields>` : nothing}
        ${
          // Shipping options count on every widget; only the full checkout asks where to deliver.
          order.shippingOptions.length > 0
            ? html`<svc-delivery-fields
                .t=${t}
                .language=${language}
                .currency=${order.currency}
                .options=${order.shippingOptions}
                .collectAddress=${full}
                .pickupPoints=${this.config?.pickupPoints ?? []}
                .quote=${this.#quoteShipping}
                ?readonly=${busy}
              ></svc-delivery-fields>`
            : nothing
        }
        <svc-card-fields .t=${t} .language=${language} .constraints=${order.constraints} ?readonly=${busy}></svc-card-fields>
        ${full ? this.#renderTerms(t) : nothing}
        ${phase.kind === 'processing' ? html`<p class="svc-progress">${t(phase.checking ? 'status.checking' : 'pay.processing')}</p>` : nothing}
        ${
          notice
            ? html`<div class="svc-notice svc-notice--error">
                <p>${this.#noticeText(notice, t)}</p>
                ${
                  notice.kind === 'network'
                    ? html`<button type="button" id="svc-retry" class="svc-button svc-button--primary" @click=${this.#retryUnknown}>
                        ${t('status.retry')}
                      </button>`
                    : nothing
                }
              </div>`
            : nothing
        }
        <div class="svc-actions">
          ${
            notice?.kind === 'network'
              ? nothing
              : html`<button type="submit" class="svc-button svc-button--primary svc-pay" aria-disabled=${busy}>
                  ${busy ? t('pay.processing') : t('pay.button', { amount: this.#money(orderTotal(order, this.shipping)) })}
                </button>`
          }
          <button
            type="button"
            class="svc-button svc-button--link svc-cancel"
            aria-disabled=${busy}
            @click=${this.#onCancel}
          >
            ${t('pay.cancel')}
          </button>
        </div>
        <p class="svc-secure-note">${t('pay.secureNote')}</p>
      </form>`;
  }

  #renderTerms(t: FrameTranslate): TemplateResult {
    const link = safeLink(this.config?.merchant.termsUrl);
    const invalid = this.termsError;
    return html`<div class="svc-field svc-terms">
      ${link ? html`<p><a href=${link} target="_blank" rel="noopener noreferrer" class="svc-link">${t('terms.link')}</a></p>` : nothing}
      <div class="svc-checkbox">
        <input
          type="checkbox"
          id="svc-terms"
          name="terms"
          required
          .checked=${this.termsAgreed}
          aria-invalid=${invalid}
          aria-describedby=${invalid ? 'svc-terms-error' : nothing}
          @change=${(event: Event) => {
            this.termsAgreed = (event.target as HTMLInputElement).checked;
            if (this.termsAgreed) this.termsError = false;
          }}
        />
        <label for="svc-terms">${t('terms.agree')}</label>
      </div>
      ${invalid ? html`<p id="svc-terms-error" class="svc-error">${t('terms.required')}</p>` : nothing}
    </div>`;
  }
}

customElements.define('svc-payment-frame', SvcPaymentFrame);

declare global {
  interface HTMLElementTagNameMap {
    'svc-payment-frame': SvcPaymentFrame;
  }
}
