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
    this.#showOrder(created.value);
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

  /** Applies the element's appearance again checked here: the frame trusts no value it did not check itself. */
  #applyAppearance(raw: Record<string, string>): void {
    const style = this.ownerDocument.documentElement.style;
    for (const name of TOKEN_NAMES) style.removeProperty(name);
    for (const [name, value] of appearanceEntries(raw)) style.setProperty(name, value);
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
   * answer gives its own failure and challenge; a reloaded frame finds them in the order.
   */
  #showOrder(order: OrderView, failure = order.lastError, challengeId = order.challengeId): void {
    this.order = order;
    const { state } = order;
    if (state === 'CHALLENGE' && challengeId) {
      this.#setPhase({ kind: 'challenge', challengeId, busy: false, networkError: false });
    } else if (state === 'CANCELLED') {
      this.#setPhase({ kind: 'cancelled' });
    } else if (state === 'FAILED' || PAID_STATES.has(state)) {
      // `paymentCompleted` first, then the status screen, as the documented event promises.
      const paid = state !== 'FAILED';
      this.#attempts.settle(order.id);
      this.channel?.post({
        type: 'paymentCompleted',
        orderId: order.id,
        ...(order.orderId !== null && { merchantOrderId: order.orderId }),
        paymentSucceeded: paid,
      });
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
      this.#showOrder(
        result.order,
        result.state === 'FAILED' ? result.error : undefined,
        result.state === 'CHALLENGE' ? result.challengeId : undefined,
      );
    }
  }

  #money(minor: number): string {
    return formatMoney(minor, this.order!.currency, localeFor(this.language));
  }

  get #busy(): boolean {
    return this.submitting || this.phase.kind === 'processing';
  }

  get #fullCheckout(): boolean {
    return this.order?.collectCustomerData ?? false;
  }

  readonly #onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    // One attempt at a time: a second click or Enter while one is checked or sent does nothing.
    if (this.phase.kind !== 'form' || this.phase.notice?.kind === 'network' || this.submitting) return;
    this.submitting = true;
    try {
      await this.#submit();
    } finally {
      this.submitting = false;
    }
  };

  /** Pays with what the form holds when all of it is in order, else shows what is wrong. */
  async #submit(): Promise<void> {
    const collected = await this.#collect();
    if (collected) return this.#sendPayment(collected);
    // The form takes input again first: a shipping option disabled while busy could not take the focus.
    this.submitting = false;
    await this.#showInvalid();
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
    else await this.#showRefusal(result.status, result.error);
  }

  /** The gateway turned the payment request down: an error on the card field it names, or a notice. */
  async #showRefusal(status: number, error: ApiErrorBody): Promise<void> {
    if (status === 409 && error.code === 'order_final') return this.#refreshOrder();
    const field = /^card\.(number|expiry|cvc)$/.exec(error.field ?? '')?.[1] as CardField | undefined;
    const cardFields = this.querySelector('svc-card-fields');
    if (field && cardFields) {
      cardFields.showError(field, this.#cardFieldError(field, error));
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

  #cardFieldError(field: CardField, error: ApiErrorBody): FieldError {
    // Only the sandbox refuses a number for being no test card; its words name the cards to use.
    if (error.code === 'unknown_test_card') return { text: error.message };
    const number = this.querySelector<HTMLInputElement>('#svc-card-number')?.value ?? '';
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
  readonly #retryUnknown = async () => {
    const { phase } = this;
    if (phase.kind !== 'form' || phase.notice?.kind !== 'network') return;
    const { notice } = phase;
    this.#setPhase({ kind: 'processing', checking: true });
    const current = await this.#api.order(this.order!.id);
    if (outcomeUnknown(current)) return this.#setPhase({ kind: 'form', notice });
    if (current.kind !== 'ok') return this.#setPhase({ kind: 'form', notice: ERROR_NOTICE });
    const view = current.value;
    if (view.state !== 'CREATED' && (view.state !== 'CHALLENGE' || view.challengeId)) {
      this.#attempts.settle(view.id);
      return this.#showOrder(view);
    }
    this.order = view;
    if (notice.action === 'cancel') return this.#cancelOrder();
    // The fields still hold what was sent; they are checked again since the customer may have typed since.
    this.#setPhase({ kind: 'form' });
    await this.#submit();
  };

  readonly #onCancel = () => {
    if (this.#busy || this.phase.kind !== 'form' || this.phase.notice?.kind === 'network') return;
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
      <form class="svc-form" novalidate aria-busy=${busy} @submit=${this.#onSubmit}>
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
            aria-disabled=${busy || notice?.kind === 'network'}
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
