/**
 * `<svc-payment-frame>`: the payment page inside the iframe of `<svc-checkout>`, served by the gateway.
 * It takes the order from the element and has the gateway check and store it (order-intake.ts), loads its
 * texts, takes the card, the shipping choice when the order offers options (and, for the full checkout, the
 * customer's contact and delivery data), and shows the payment as its `PaymentFlow` (payment-flow.ts) runs
 * it, through 3-D Secure to how it ended. It tells the element its state, its height and the documented
 * events over a `ParentChannel`; card data never goes into that channel.
 */
import { html, isServer, type LitElement, nothing, type TemplateResult } from 'lit';
import {
  type CardFormSettings,
  type CustomerPrefill,
  createFrameTranslator,
  DEFAULT_CARD_SETTINGS,
  type ElementToFrameMessage,
  type FrameMessageKey,
  type FrameMessages,
  type FrameTranslate,
  formatMoney,
  type Language,
  localeFor,
  type MinorUnits,
  normalizeLanguage,
  type WidgetState,
} from '../core/index.js';
import type { ApiError, FrameBootstrap, OrderView, WidgetConfigView } from '../core/widget-api.js';
import type { AnnounceEvent } from './announce.js';
import { gatewayConstraintError, schemeNotAcceptedError } from './card-checks.js';
import { SvcCardFields } from './card-fields.js';
import type { ShippingChangeEvent } from './delivery-fields.js';
import { adoptFirstViewStyles } from './first-view-styles.js';
import type { FieldError } from './form-fields.js';
import { loadFormParts } from './form-parts.js';
import { loadTexts } from './frame-texts.js';
import type { IntakeError } from './intake-errors.js';
import { LazyPart } from './lazy-part.js';
import { type Init, takeOrder } from './order-intake.js';
import { type ChosenShipping, orderTotal, renderOrderSummary } from './order-summary.js';
import type { ParentChannel } from './parent-channel.js';
import { type CardField, type Collected, type Notice, PaymentFlow, type Phase } from './payment-flow.js';
import { ServerRenderedElement } from './server-markup.js';
import type { StatusActions } from './status-screen.js';
import { WidgetApiClient } from './widget-api-client.js';

/** The error of a card field refused by the gateway with a code we have no text for. */
const REFUSED_FIELD: Readonly<Record<CardField, FrameMessageKey>> = {
  number: 'card.number.error.luhn_failed',
  expiry: 'card.expiry.error.malformed',
  cvc: 'card.cvc.error.not_digits',
};

/** The card constraints of no order: the card fields' before the order comes. */
const NO_CONSTRAINTS = {};

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
export class SvcPaymentFrame extends ServerRenderedElement {
  static override properties = {
    widgetId: { attribute: false },
    pageOrigin: { attribute: false },
    apiBase: { attribute: false },
    channel: { attribute: false },
    t: { state: true },
    language: { state: true },
    config: { state: true },
    prefill: { state: true },
    shipping: { state: true },
    termsAgreed: { state: true },
    termsError: { state: true },
    announcement: { state: true },
  };

  /**
   * The card form's element, defined by its own module. Named here as a value: the package declares no side
   * effects, so a bundler would otherwise drop a module imported only for its definition. The customer's
   * and the delivery fields are imported when an order shows them (form-parts.ts).
   */
  static readonly parts = [SvcCardFields] as const;

  /** The widget this frame was opened for (from its URL). */
  widgetId = '';
  /** The exact origin of the merchant's page, which the gateway checks against the widget's allowed origins. */
  pageOrigin = '';
  /** Prefix of `/widget-api/v1/...`; `''` on the gateway, where the frame is served. */
  apiBase = '';
  /** The channel to the element on the merchant's page. */
  channel?: ParentChannel;
  /** The card fields' layout and whether they ask for the holder's name (from its URL), fixed for its load. */
  cardSettings: CardFormSettings = DEFAULT_CARD_SETTINGS;
  /**
   * What the gateway's page gave the frame to start with: the widget's configuration, and the texts of the
   * page's language (the one the element asked for in the frame's URL, else the merchant's), so that the card
   * form shows in its first render while the order is on its way. `init` may still name another language.
   * The frame starts once it has this and its channel.
   */
  bootstrap?: FrameBootstrap;

  /** Texts in the frame's language; none until the frame starts (from its page's bootstrap). */
  private t?: FrameTranslate;
  private language: Language = 'en';
  private config?: WidgetConfigView;
  private prefill: CustomerPrefill = {};
  private shipping?: ChosenShipping;
  private termsAgreed = false;
  private termsError = false;
  private announcement = '';

  /** The payment of the order: the phase shown and the order as the gateway last described it. */
  readonly #flow = new PaymentFlow({
    api: () => this.#api,
    requestUpdate: () => this.requestUpdate(),
    phaseSet: (phase) => this.#phaseSet(phase),
    ended: (order, succeeded) => this.#ended(order, succeeded),
    money: (minor) => this.#money(minor),
    collect: () => this.#collect(),
    showInvalid: () => this.#showInvalid(),
    showCardRefusal: (field, error, number) => this.#showCardRefusal(field, error, number),
    clearCard: () => this.#clearCard(),
  });

  /** The 3-D Secure step: a chunk of its own, imported when a payment meets a challenge. */
  readonly #challengeStep = new LazyPart(() => import('./challenge-step.js'));
  /** The screens that end a payment: a chunk of their own, imported when a payment is sent or found ended. */
  readonly #statusScreen = new LazyPart(() => import('./status-screen.js'));

  #catalog?: FrameMessages;
  #overrides: Record<string, string> = {};
  #requestedLanguage: string | undefined;
  #languageRequests = 0;
  #started = false;
  #initialised = false;
  /** The element was told that the card form shows (`shown`). */
  #shown = false;
  #stopListening?: () => void;
  #resizeObserver?: ResizeObserver;
  #reportedState?: WidgetState;
  #reportedHeight?: number;
  #focusTarget?: string;
  /** The appearance last applied, once applied: the next waits for it. */
  #appearanceApplied: Promise<void> = Promise.resolve();
  /** The `--svc-*` values already warned about, so that each is named once however often it is sent. */
  readonly #warnedAppearance = new Set<string>();

  /** The gateway's first view (first-view.ts) was written for the card settings that this load has. */
  protected override serverMarkupFits(): boolean {
    const { layout, holder } = this.cardSettings;
    return this.getAttribute('card-layout') === layout && this.getAttribute('cardholder-name') === holder;
  }

  /** The terms box ticked before the code came. */
  protected override takeInput(input: HTMLInputElement): void {
    if (input.id === 'svc-terms') this.termsAgreed = input.checked;
  }

  get #api(): WidgetApiClient {
    return new WidgetApiClient(this.apiBase);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void adoptFirstViewStyles(this.ownerDocument);
    if (this.#started) this.#listen();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#stopListening?.();
    this.#stopListening = undefined;
    this.#resizeObserver?.disconnect();
  }

  protected override willUpdate(): void {
    // Before the render, so that the first one shows the card form.
    if (!this.#started && this.channel && this.bootstrap && this.isConnected) this.#start();
  }

  protected override updated(): void {
    if (!this.#shown && this.querySelector('svc-card-fields')) {
      this.#shown = true;
      this.channel?.post({ type: 'shown' });
    }
    if (this.#focusTarget) {
      this.querySelector<HTMLElement>(this.#focusTarget)?.focus();
      this.#focusTarget = undefined;
    }
  }

  /**
   * Takes the widget's configuration and the texts from the page's bootstrap, listens to the element and
   * says `ready`. The card form shows at once (fields first), while the element sends the order and the
   * gateway takes it; the pay button waits for the order.
   */
  #start(): void {
    this.#started = true;
    const { config } = this.bootstrap!;
    // A full checkout's fields load as soon as the widget says it is one, beside the order's intake.
    if (config.collectCustomerData) void loadFormParts({ customer: true, delivery: true });
    this.#takeBootstrap();
    this.#listen();
    this.channel!.post({ type: 'ready' });
  }

  /** The configuration and the texts of the page's bootstrap, taken at once: the first render shows the form. */
  #takeBootstrap(): void {
    const { config, language } = this.bootstrap!;
    this.config = config;
    this.#requestedLanguage = language;
    void this.#showLanguage();
  }

  /**
   * The frame's first view, as the gateway writes it into the frame's page (first-view.ts): what the first
   * render in the browser shows, from the same bootstrap and card settings, which then takes it over.
   */
  firstView(): TemplateResult {
    this.#takeBootstrap();
    return this.render();
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
    if (message.type === 'replay') {
      // The element came after this frame's announcements (the page's HTML declared the frame): again.
      this.channel!.post({ type: 'ready' });
      if (this.#shown) this.channel!.post({ type: 'shown' });
      if (this.#reportedHeight !== undefined)
        this.channel!.post({ type: 'resize', height: this.#reportedHeight });
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
    this.#flow.setPhase({ kind: 'loading' });
    const intake = await takeOrder(message, {
      api: this.#api,
      widgetId: this.widgetId,
      pageOrigin: this.pageOrigin,
      showLanguage: () => this.#showLanguage(),
      catalog: () => this.#catalog!,
    });
    if (intake.kind === 'error') return this.#fail(intake.error);
    if (intake.kind === 'rejected') {
      this.channel?.post(intake.message);
      return this.#flow.setPhase(intake.phase);
    }
    // An order that had ended before this load shows how it ended, without `paymentCompleted`: the event
    // tells of a payment that ends while the form is open, and none ended in this load.
    if ('receipt' in intake.order) this.#flow.showReceipt(intake.order);
    else this.#flow.showOrder(intake.order, { news: false });
  }

  /**
   * Shows the texts of init's (or the latest update's) language when we speak it, else of the merchant's
   * default, else English: the bootstrap's when it is that language, else loaded. The latest request's
   * texts win; until they come, the ones shown stay (when a language's chunk fails, English shows).
   */
  async #showLanguage(): Promise<void> {
    const request = ++this.#languageRequests;
    const language =
      normalizeLanguage(this.#requestedLanguage) ?? normalizeLanguage(this.config!.defaults.language) ?? 'en';
    const { bootstrap } = this;
    const texts =
      language === bootstrap!.language ? { language, catalog: bootstrap!.texts } : await loadTexts(language);
    if (texts && request === this.#languageRequests) {
      this.language = texts.language;
      this.#catalog = texts.catalog;
      this.t = createFrameTranslator(texts.catalog, this.#overrides);
      // The gateway's page names its language itself.
      if (!isServer) this.ownerDocument.documentElement.lang = texts.language;
    }
  }

  /**
   * Applies the element's appearance again checked here: the frame trusts no value it did not check itself.
   * The checks (core's colour names and value grammars) load with the first appearance that has a value, so a
   * page that keeps the defaults never downloads them; appearances apply in the order they came. Each value
   * left out is named once in the console, which the page's developer tools show, in words loaded then
   * (appearance-messages.ts), which a page that sets its tokens right never downloads.
   */
  #applyAppearance(raw: Record<string, string>): void {
    this.#appearanceApplied = this.#appearanceApplied.then(() => this.#applyAppearanceNow(raw));
  }

  async #applyAppearanceNow(raw: Record<string, string>): Promise<void> {
    const given = typeof raw === 'object' && raw !== null && Object.keys(raw).length > 0;
    let checks: typeof import('../core/appearance.js') | undefined;
    try {
      if (given) checks = await import('../core/appearance.js');
    } catch {
      // Without its checks no value is used: the defaults stay.
    }
    const { appearance, rejected } = checks?.screenAppearance(raw) ?? { appearance: {}, rejected: [] };
    for (const { name, code } of rejected) {
      const value = `${name}: ${raw[name]}`;
      if (this.#warnedAppearance.has(value)) continue;
      this.#warnedAppearance.add(value);
      // Where the words cannot load, the code says why.
      import('../core/appearance-messages.js').then(
        ({ rejectionMessage }) =>
          console.warn(`<svc-checkout> ${value} is not used: ${rejectionMessage(name, code)}`),
        () => console.warn(`<svc-checkout> ${value} is not used: ${code}`),
      );
    }
    const style = this.ownerDocument.documentElement.style;
    for (const name of [...style]) if (name.startsWith('--svc-')) style.removeProperty(name);
    for (const [name, value] of checks?.appearanceEntries(appearance) ?? []) style.setProperty(name, value);
  }

  /** Tells the element why the widget cannot take a payment; the element shows it and removes the frame. */
  #fail(error: IntakeError): void {
    this.channel?.post({ type: 'error', ...error });
    this.#flow.setPhase({ kind: 'error' });
  }

  /** The flow's phase changed: tells the element when its state changes, and says the change for screen readers. */
  #phaseSet(phase: Phase): void {
    const state = phase.kind === 'rejected' ? 'failed' : phase.kind;
    if (state !== this.#reportedState) {
      this.#reportedState = state;
      this.channel?.post({ type: 'state', state });
    }
    if (phase.kind === 'challenge') this.#showChallengeStep(phase);
    if (
      phase.kind === 'paid' ||
      phase.kind === 'failed' ||
      phase.kind === 'cancelled' ||
      phase.kind === 'rejected'
    )
      this.#showStatus(phase);
    const t = this.t;
    if (!t) return;
    let text: string | undefined;
    switch (phase.kind) {
      case 'processing':
        text = t(phase.checking ? 'status.checking' : 'pay.processing');
        break;
      case 'challenge':
        // Otherwise the step's heading takes the focus and says its title (#showChallengeStep).
        if (phase.networkError) text = t('status.networkError');
        else if (phase.busy) text = t('threeDs.waiting');
        break;
      case 'form':
        if (phase.notice) text = this.#noticeText(phase.notice, t);
        if (phase.notice?.kind === 'network') this.#focusTarget = '#svc-retry';
        break;
    }
    if (text) this.#announce(text);
  }

  /** Imports the 3-D Secure step on the first challenge; its heading takes the focus once it shows. */
  #showChallengeStep(phase: Extract<Phase, { kind: 'challenge' }>): void {
    void this.#challengeStep.load().then((step) => {
      if (step && !phase.busy && !phase.networkError && this.#flow.phase === phase) {
        this.#focusTarget = `#${step.CHALLENGE_HEADING_ID}`;
      }
      this.requestUpdate();
    });
  }

  /**
   * Imports the status screens on the first end; then the screen's heading takes the focus, which says the
   * outcome (and its sentence, the heading's description), so the live region does not say it again. A
   * rejection is the exception: it shows as the frame loads, while the shopper's focus is still on the shop's
   * page, where a heading focused in the frame is not heard.
   */
  #showStatus(phase: Extract<Phase, { kind: 'paid' | 'failed' | 'cancelled' | 'rejected' }>): void {
    void this.#statusScreen.load().then((screens) => {
      if (screens && this.#flow.phase === phase) {
        this.#focusTarget = `#${screens.STATUS_HEADING_ID}`;
        if (phase.kind === 'rejected' && this.t) {
          const status = screens.statusTexts(phase, this.t);
          this.#announce(`${status.title}. ${status.text}`);
        }
      }
      this.requestUpdate();
    });
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
    this.shipping = event.shipping;
  };

  #noticeText(notice: Notice, t: FrameTranslate): string {
    return t(notice.kind === 'text' ? notice.key : 'status.networkError');
  }

  /** The payment ended in this load of the frame: the element fires `paymentCompleted`. */
  #ended(order: OrderView, succeeded: boolean): void {
    this.channel?.post({
      type: 'paymentCompleted',
      orderId: order.id,
      ...(order.orderId !== null && { merchantOrderId: order.orderId }),
      paymentSucceeded: succeeded,
    });
  }

  #money(minor: MinorUnits): string {
    return formatMoney(minor, this.#flow.order!.currency, localeFor(this.language));
  }

  /** The full checkout's fields show from the start, as the widget's configuration says, before the order. */
  get #fullCheckout(): boolean {
    return this.#flow.order?.collectCustomerData ?? this.config?.collectCustomerData ?? false;
  }

  /** The order has shipping options, and none is chosen or the chosen one has no price yet. */
  get #shippingPending(): boolean {
    return (this.#flow.order?.shippingOptions.length ?? 0) > 0 && !this.shipping?.price;
  }

  /**
   * The pay button's words: the amount, or what is missing before there is one (the button then looks
   * unavailable, yet takes the focus and, pressed, shows what to do), as a shop's own checkout would.
   */
  #payText(t: FrameTranslate): string {
    const { order } = this.#flow;
    if (this.#shippingPending) return t(this.shipping ? 'pay.priceShipping' : 'pay.chooseShipping');
    return t('pay.button', { amount: order ? this.#money(orderTotal(order, this.shipping)) : '…' });
  }

  readonly #onSubmit = (event: SubmitEvent) => {
    event.preventDefault();
    // Every payment sent ends on a status screen: its chunk loads beside the payment.
    void this.#statusScreen.load();
    this.#flow.submit();
  };

  /**
   * Checks every part of the form; what to send when all is in order. Nothing while the pay button named no
   * amount (the shipping was unchosen or unpriced): the check prices it, and the customer sees the total
   * before anything is charged.
   */
  async #collect(): Promise<Collected | undefined> {
    const pending = this.#shippingPending;
    const customerFields = this.querySelector('svc-customer-fields');
    const deliveryFields = this.querySelector('svc-delivery-fields');
    const card = this.querySelector('svc-card-fields')?.check();
    const customer = customerFields?.check();
    this.termsError = this.#fullCheckout && !this.termsAgreed;
    const shipping = await deliveryFields?.check();
    if (
      pending ||
      !card ||
      this.termsError ||
      (customerFields && !customer) ||
      (deliveryFields && !shipping)
    ) {
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

  /**
   * Moves the focus to the first field with an error and reads out what is wrong; with nothing wrong (the
   * check priced the shipping), what the pay button says now.
   */
  async #showInvalid(): Promise<void> {
    // Waits until this element and the parts of its form have rendered their errors.
    await this.updateComplete;
    const parts = this.querySelectorAll<LitElement>(
      'svc-card-fields, svc-customer-fields, svc-delivery-fields',
    );
    await Promise.all([...parts].map((part) => part.updateComplete));
    const errors = [...this.querySelectorAll('.svc-error')].map((node) => node.textContent?.trim());
    this.#announce(errors.filter(Boolean).join(' ') || this.#payText(this.t!));
    this.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }

  /** Shows the gateway's refusal of a card field; false when the form has no card fields. */
  #showCardRefusal(field: CardField, error: ApiError, number: string): boolean {
    const cardFields = this.querySelector('svc-card-fields');
    if (!cardFields) return false;
    cardFields.showError(field, this.#cardFieldError(field, error, number));
    return true;
  }

  #cardFieldError(field: CardField, error: ApiError, number: string): FieldError {
    // Only the sandbox refuses a number for being no test card; its words name the cards to use.
    if (error.code === 'unknown_test_card') return { text: error.message };
    if (error.code === 'card_scheme_not_accepted') {
      return schemeNotAcceptedError(this.config!.cardSchemes, this.t!, this.language);
    }
    const byConstraint =
      error.code === 'card_not_accepted' &&
      gatewayConstraintError(number, this.#flow.order!.constraints, this.t!);
    if (byConstraint) return byConstraint;
    const key = `card.${field}.error.${error.code.replace(/^(card|expiry|cvc)_/, '')}`;
    return { key: Object.hasOwn(this.#catalog!, key) ? (key as FrameMessageKey) : REFUSED_FIELD[field] };
  }

  readonly #backToMerchant = () => {
    this.channel?.post({ type: 'navigateBackToCart' });
  };

  readonly #statusActions: StatusActions = {
    back: () => this.#backToMerchant(),
    tryAnotherCard: () => this.#flow.tryAnotherCard(),
  };

  /** Another card after a failure: the card fields start empty, and the card number takes the focus. */
  #clearCard(): void {
    this.querySelector('svc-card-fields')?.clear();
    this.#focusTarget = '#svc-card-number';
  }

  protected override render() {
    return html`<div class="svc-frame" @svc-announce=${this.#onAnnounce} @svc-shipping-change=${this.#onShippingChange}>
      <div class="svc-visually-hidden" role="status" aria-live="polite" aria-atomic="true">${this.announcement}</div>
      ${
        // Outside the phases, so it stays through every screen and is read once, before them; none in place
        // of a frame that failed, which the element removes.
        this.bootstrap?.testMode && this.#flow.phase.kind !== 'error'
          ? html`<p class="svc-test-mode">${this.bootstrap.testMode[this.language]}</p>`
          : nothing
      }
      ${this.#renderPhase()}
    </div>`;
  }

  #renderPhase(): TemplateResult | typeof nothing {
    const { t } = this;
    const flow = this.#flow;
    const { phase } = flow;
    switch (phase.kind) {
      case 'error':
        // The element shows the error in its own texts, in place of the frame.
        return nothing;
      case 'paid':
      case 'cancelled':
      case 'rejected':
      case 'failed': {
        const screens = this.#statusScreen.module;
        const screen = screens
          ? screens.renderStatus(phase, t!, this.#statusActions)
          : this.#renderLoadingPart(this.#statusScreen, () => this.#showStatus(phase), t!);
        return phase.kind === 'failed' ? this.#inFrontOfForm(screen, t!) : screen;
      }
      case 'challenge': {
        const step = this.#challengeStep.module;
        return this.#inFrontOfForm(
          step
            ? step.renderChallenge(
                phase,
                t!,
                {
                  answer: (approve) => void flow.answerChallenge(approve),
                  retry: () => void flow.retryChallenge(),
                },
                this.config!.merchant.name,
              )
            : this.#renderLoadingPart(this.#challengeStep, () => this.#showChallengeStep(phase), t!),
          t!,
        );
      }
      case 'form':
      case 'processing':
        return this.#withForm(nothing, phase, t!);
      case 'loading':
        // Fields first: the card form shows from the start (the page's bootstrap), the order's summary and
        // the pay button once the gateway has taken the order. A frame not started yet shows progress alone,
        // hidden behind the element's own loading text.
        return t && this.config ? this.#withForm(nothing, phase, t) : html`<p class="svc-progress"></p>`;
    }
  }

  /** In place of a part whose chunk has not come: progress, or when it did not load, the way to try again. */
  #renderLoadingPart(part: LazyPart<unknown>, retry: () => void, t: FrameTranslate): TemplateResult {
    if (!part.failed) return html`<p class="svc-progress"></p>`;
    return html`<div class="svc-notice svc-notice--error">
      <p>${t('pay.error')}</p>
      <button type="button" class="svc-button svc-button--primary" @click=${retry}>${t('status.retry')}</button>
    </div>`;
  }

  /**
   * A step that may lead back to the form (3-D Secure, the failed screen), with the form hidden behind it:
   * "Try another card" then shows the form with the contact and delivery data as the customer left them.
   */
  #inFrontOfForm(step: TemplateResult, t: FrameTranslate): TemplateResult {
    return this.#withForm(step, { kind: 'form' }, t);
  }

  /**
   * The form, and a step in front of it that hides it. One template for both, so that Lit keeps the form's
   * elements, and what their fields hold, while the step shows.
   */
  #withForm(
    step: TemplateResult | typeof nothing,
    phase: Extract<Phase, { kind: 'form' | 'processing' | 'loading' }>,
    t: FrameTranslate,
  ): TemplateResult {
    return html`${step}<div ?hidden=${step !== nothing}>${this.#renderForm(phase, t)}</div>`;
  }

  /** The form; while `loading`, the card fields alone, with the pay button waiting for the order. */
  #renderForm(
    phase: Extract<Phase, { kind: 'form' | 'processing' | 'loading' }>,
    t: FrameTranslate,
  ): TemplateResult {
    const { language } = this;
    const flow = this.#flow;
    const { order } = flow;
    // No order, no payment: the buttons say so, and the flow takes no submission before the form phase.
    const busy = flow.busy || !order;
    const notice = phase.kind === 'form' ? phase.notice : undefined;
    const full = this.#fullCheckout;
    return html`${
      order
        ? renderOrderSummary(order, this.shipping, t, language)
        : html`<p class="svc-summary svc-progress">${t('summary.loading')}</p>`
    }
      <form class="svc-form" novalidate aria-busy=${flow.working} @submit=${this.#onSubmit}>
        ${full ? html`<svc-customer-fields .t=${t} .prefill=${this.prefill} ?readonly=${flow.busy}></svc-customer-fields>` : nothing}
        ${
          // Shipping options count on every widget; only the full checkout asks where to deliver.
          order && order.shippingOptions.length > 0
            ? html`<svc-delivery-fields
                .t=${t}
                .language=${language}
                .currency=${order.currency}
                .options=${order.shippingOptions}
                .collectAddress=${full}
                .pickupPoints=${this.config?.pickupPoints ?? []}
                .quote=${flow.quoteShipping}
                ?readonly=${busy}
              ></svc-delivery-fields>`
            : nothing
        }
        <svc-card-fields
          .t=${t}
          .language=${language}
          .constraints=${order?.constraints ?? NO_CONSTRAINTS}
          .schemes=${this.config!.cardSchemes}
          .settings=${this.cardSettings}
          ?readonly=${flow.busy}
        ></svc-card-fields>
        ${this.#renderTerms(t, full)}
        ${phase.kind === 'processing' ? html`<p class="svc-progress">${t(phase.checking ? 'status.checking' : 'pay.processing')}</p>` : nothing}
        ${
          notice
            ? html`<div class="svc-notice svc-notice--error">
                <p>${this.#noticeText(notice, t)}</p>
                ${
                  notice.kind === 'network'
                    ? html`<button type="button" id="svc-retry" class="svc-button svc-button--primary" @click=${flow.retryUnknown}>
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
              : html`<button
                  type="submit"
                  class="svc-button svc-button--primary svc-pay"
                  aria-disabled=${busy || this.#shippingPending}
                  ?disabled=${this.beforeCode}
                >
                  ${flow.busy && !this.#shippingPending ? t('pay.processing') : this.#payText(t)}
                </button>`
          }
          <button
            type="button"
            class="svc-button svc-button--link svc-cancel"
            aria-disabled=${busy}
            @click=${flow.cancel}
          >
            ${t('pay.cancel')}
          </button>
        </div>
        <p class="svc-secure-note">${t('pay.secureNote')}</p>
      </form>`;
  }

  /**
   * The link to the merchant's terms, on every widget kind; the full checkout also asks the customer to
   * agree to them. The link opens a new tab, which screen readers hear from its hidden words.
   */
  #renderTerms(t: FrameTranslate, full: boolean): TemplateResult | typeof nothing {
    const url = safeLink(this.config?.merchant.termsUrl);
    const link = url
      ? html`<p class="svc-terms-link"><a href=${url} target="_blank" rel="noopener noreferrer" class="svc-link"
            >${t('terms.link')}<span class="svc-visually-hidden"> ${t('terms.newTab')}</span></a
          ></p>`
      : nothing;
    if (!full) return link;
    const invalid = this.termsError;
    return html`<div class="svc-field svc-terms">
      ${link}
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
