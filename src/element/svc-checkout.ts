import { type PropertyValues, ReactiveElement } from '@lit/reactive-element';
import type { CardholderNameSetting, CardLayout, WidgetState } from '../core/frame-channel.js';
import { firstViewHeight } from '../core/frame-url.js';
import {
  createElementTranslator,
  type ElementMessageKey,
  type Language,
  type MessageOverrides,
  type Translate,
  widgetErrorKey,
} from '../core/i18n.js';
import type { OrderItemInput, OrderJson, ShippingOptionInput } from '../core/order.js';
import type { PickerMessageKey } from '../core/picker-messages.js';
import { isPlainObject } from '../core/plain-object.js';
import { type CheckoutFailure, isRetryable, logFailure } from './checkout-failure.js';
import { CheckoutStateError } from './checkout-state-error.js';
import { elementLanguage } from './element-language.js';
import { CheckoutErrorEvent, type NavigateBackToCartEvent, type PaymentCompletedEvent } from './events.js';
import { createFrameSession, type SessionControls } from './frame-session.js';
import type { NavigateToCheckoutEvent } from './navigate-to-checkout-event.js';
import type { PaymentMethodPicker, PickerControls } from './payment-method-picker.js';
import { svcCheckoutStyles } from './svc-checkout.styles.js';

/** What the element shows when the frame session shows no frame (see `FrameSession.frame`). */
type View =
  | { kind: 'idle' }
  | { kind: 'picker'; picker: PaymentMethodPicker }
  | { kind: 'error'; failure: CheckoutFailure };

/** How long a new status region stays empty, so that screen readers take it in before its text comes. */
const LIVE_REGION_DELAY_MS = 100;

/** The language the element's own texts fall back to when neither the element nor the page names one. */
const FALLBACK_LANGUAGE: Language = 'en';

/** `lazy="true"` (or a bare `lazy`) delays the start until `init()`; `lazy="false"` does not. */
const lazyConverter = {
  fromAttribute: (value: string | null): boolean => value !== null && value.trim().toLowerCase() !== 'false',
};

/** `texts` as JSON of per-key overrides; anything else is left out with a warning, and our texts stay. */
const textsConverter = {
  fromAttribute: (value: string | null): MessageOverrides | undefined => {
    if (!value?.trim()) return undefined;
    try {
      const parsed: unknown = JSON.parse(value);
      if (isPlainObject(parsed)) return parsed;
    } catch {}
    console.warn(
      '<svc-checkout> texts: is not a JSON object of texts by key, such as {"loading.text": "One moment…"}; our texts are used.',
    );
    return undefined;
  },
};

/** A new element with these attributes. */
function make(tag: string, attributes: Record<string, string>): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/**
 * The payment widget: the merchant page's part of a card payment through the svc gateway. It loads the
 * payment form from the gateway in an iframe, so card data never reaches the page, and sends it the order
 * given by the attributes (and by `addOrderItem` / `addShippingOption`), signed by the merchant. The gateway
 * checks the order; the element checks only what it needs to start (`widget-id`, `gateway`, and that the
 * `order` JSON reads), and says what to fix when the gateway refuses the order.
 *
 * Without `lazy="true"` it starts once connected, after the current task (after the document is parsed,
 * when it is in the HTML), so attributes set and items added right after creating it are included.
 * With `lazy="true"` it waits for `init()`.
 *
 * After the start, a change of what the order is made of (`order`, `signature`, `certificate-name`,
 * `order-id`, the single-item attributes, `back-to-merchant-url`, `success-redirect-url`, `widget-id`,
 * `gateway`, the prefill attributes) replaces the order, after the task that made it: the frame loads again
 * with the new order, once for all the changes of the task, and not at all when the order is equal to the
 * one it has. An error box starts again the same way, so a page that fixes its order gets the form. Once the
 * frame has reported a payment attempt (any state past `loading` and `form`), a change is refused: the form
 * keeps its order, and the element logs it and fires `checkoutError` with code `order_locked`. `language`
 * changes the texts at any time.
 *
 * With `checkout-url` (a v1 Purchase's `checkout_url`) it is a payment method picker instead (v1 mode, which
 * needs neither `widget-id` nor a signed order): it looks up the methods at the merchant's own endpoint
 * (`payment-methods-url`, never the gateway with a secret key), shows them as the gateway groups them (cards
 * as one choice, bank methods by country with the customer's country first), and goes to the checkout URL
 * with `?preferred=<method>` when the customer confirms. A lookup is reused in the tab for a minute. When the
 * lookup fails, or finds nothing, the customer can still go on to the payment page and choose there. The
 * picker's code loads on demand, so pages in legacy mode never download it. The mode is fixed at the start.
 *
 * @tagname svc-checkout
 *
 * @attr {WidgetState} state - Read-only: the element writes it (the `state` property's value, for styling such as `svc-checkout[state='paid']`) and never reads it; a page that sets it changes nothing.
 *
 * @fires {PaymentCompletedEvent} paymentCompleted - A payment attempt succeeded or failed, just before the status screen: once for each attempt that ends while the form is open (a declined card fires it with `paymentSucceeded: false`, and the order stays payable with another card; a form that opens on an order that had already ended shows its status without the event). For the page's interface only, never proof of payment: verify the signed notification on the server. `detail`: `{orderId, merchantOrderId, paymentSucceeded}`. Cancelable: after a successful payment the element goes to `success-redirect-url`, when set, once the listeners have run, unless one called `preventDefault()`.
 * @fires {NavigateBackToCartEvent} navigateBackToCart - The customer pressed back-to-merchant on the failed or cancelled screen. `detail`: `{backToMerchantUrl}` (the order's `back-to-merchant-url`, or `null`). Cancelable: otherwise the element goes to `detail.backToMerchantUrl` when it is not `null`.
 * @fires {CheckoutErrorEvent} checkoutError - The widget cannot take a payment (set up wrong, refused, or unreachable), or, with code `order_locked`, the page changed the order after a payment attempt began and the change was refused (the form stays, on its order). `detail`: `{code, message, attribute?}`.
 * @fires {NavigateToCheckoutEvent} navigateToCheckout - v1 mode: the customer confirmed a payment method, or went on without one. Cancelable: otherwise the element goes to `detail.url`. `detail`: `{method, url}` (`method` is `null` without one; `url` is `checkout-url` with `preferred` set in its query).
 *
 * @csspart frame - The payment form's iframe.
 * @csspart loading - The text shown before the form's frame is opened (in v1 mode, until the picker shows); the frame itself shows from the start, with the form the gateway writes into its page.
 * @csspart error - The box shown instead of the form when the widget cannot take a payment.
 * @csspart retry-button - The error box's retry button (when the gateway could not be reached or did not answer).
 * @csspart status - v1 mode: the line that says the methods are loading, or that there are none.
 * @csspart picker - v1 mode: the form with the methods and the confirm button.
 * @csspart group - v1 mode: the box of a group of methods (bank payments, wallets), with its legend.
 * @csspart method - v1 mode: one method's row: its radio button, logos and name.
 * @csspart country-select - v1 mode: the country select of bank methods.
 * @csspart confirm-button - v1 mode: the button that goes on to the payment page.
 *
 * @cssproperty --svc-color-primary - Pay button, selected options and links. Default `#1a56db`.
 * @cssproperty --svc-color-primary-contrast - Text and icons on the primary colour. Default `#ffffff`.
 * @cssproperty --svc-color-text - Body text and input text. Default `#1f2937`.
 * @cssproperty --svc-color-muted - Hints, placeholders and secondary text. Default `#4b5563`.
 * @cssproperty --svc-color-background - Background of the payment form. Default `#ffffff`.
 * @cssproperty --svc-color-surface - Background of inputs, the order summary and panels. Default `#f9fafb`.
 * @cssproperty --svc-color-border - Borders of inputs and panels. Default `#6b7280`.
 * @cssproperty --svc-color-error - Error messages and the borders of invalid inputs. Default `#b91c1c`.
 * @cssproperty --svc-color-success - The paid status screen. Default `#047857`.
 * @cssproperty --svc-color-focus - Focus ring of inputs and buttons. Default `#2563eb`.
 * @cssproperty --svc-font-family - Font of all text; only fonts installed on the device or loaded by the frame apply. Default `system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`.
 * @cssproperty --svc-font-size - Base font size (10px to 32px, or 62.5% to 200%). Default `16px`.
 * @cssproperty --svc-border-radius - Corner radius of inputs, buttons and panels (0 to 32px, or up to 50%). Default `6px`.
 * @cssproperty --svc-spacing - Base gap between fields and sections (0 to 48px). Default `12px`.
 * @cssproperty --svc-input-height - Height of inputs and buttons (24px to 96px; 44px or more suits touch screens). Default `44px`.
 * @cssproperty --svc-frame-radius - Corner radius of the payment form's iframe on the page (the form's background follows it). Default `12px`.
 * @cssproperty --svc-frame-border - Border of the payment form's iframe, a CSS `border` value (forced colours paint it: the frame's edge there, unless `none`). Default `1px solid #d1d5db`.
 * @cssproperty --svc-frame-shadow - Shadow of the payment form's iframe, a CSS `box-shadow` value. Default `0 1px 4px #00000024`.
 */
export class SvcCheckout extends ReactiveElement {
  // Lit's ReactiveElement without lit-html's templates: the element shows three small views, which it
  // builds itself (`update`), and the templates would cost the script-tag file about 3 KB gzip of its 12 KB.
  static override styles = svcCheckoutStyles;

  // Declared here rather than with decorators, which would cost the script-tag file their helpers.
  static override properties = {
    widgetId: { attribute: 'widget-id' },
    language: {},
    amount: {},
    currency: {},
    label: {},
    taxRate: { attribute: 'tax-rate' },
    count: {},
    unit: {},
    orderId: { attribute: 'order-id' },
    order: {},
    backToMerchantUrl: { attribute: 'back-to-merchant-url' },
    successRedirectUrl: { attribute: 'success-redirect-url' },
    signature: {},
    certificateName: { attribute: 'certificate-name' },
    lazy: { converter: lazyConverter },
    email: {},
    phone: {},
    firstName: { attribute: 'first-name' },
    lastName: { attribute: 'last-name' },
    gateway: {},
    texts: { converter: textsConverter },
    checkoutUrl: { attribute: 'checkout-url' },
    paymentMethodsUrl: { attribute: 'payment-methods-url' },
    country: {},
    method: {},
    cardLayout: { attribute: 'card-layout' },
    cardholderName: { attribute: 'cardholder-name' },
  };

  /**
   * The gateway origin used when the element has no `gateway` attribute. The gateway's own script
   * (`/widget/svc-checkout.js`) sets it to the origin it was loaded from.
   */
  static defaultGateway?: string;

  /** How long the frame may take to say it is ready, in milliseconds, before the element gives up. */
  static frameReadyTimeout = 15_000;

  /** The widget id (a uuid) from the merchant console. Required. */
  declare widgetId?: string;

  /**
   * `lv`, `en` or `ru`. Part of the signed order when given. Without it the page's `<html lang>` is used,
   * then the merchant's default language.
   */
  declare language?: string;

  /** Single-item order: price per unit with tax included, such as `12.50`. */
  declare amount?: string;

  /** Single-item order: ISO 4217 currency; the merchant's default when absent. */
  declare currency?: string;

  /** Single-item order: the item's name. */
  declare label?: string;

  /** Single-item order: tax rate as `0.21` or `21`; the merchant's default when absent. */
  declare taxRate?: string;

  /** Single-item order: quantity; 1 when absent. */
  declare count?: string;

  /** Single-item order: `PIECE`, `KILOGRAM`, `METER`, `LITRE` or `HOUR`; `PIECE` when absent. */
  declare unit?: string;

  /** The merchant's order id. */
  declare orderId?: string;

  /**
   * The order as JSON with `items`, `shippingOptions` and `constraints`, HTML-escaped in the attribute (or
   * not); the property also takes the object itself. Not together with the single-item attributes.
   */
  declare order?: string | OrderJson;

  /**
   * Where the customer goes back to from the failed or cancelled screen. Part of the signed order when
   * given.
   */
  declare backToMerchantUrl?: string;

  /**
   * Where the customer goes after paying (an absolute http(s) URL): the element goes there once the
   * `paymentCompleted` listeners of a successful payment have run, unless one called `preventDefault()`.
   * Part of the signed order when given.
   */
  declare successRedirectUrl?: string;

  /** The order's signature: Base64 SHA256withRSA by the merchant's key. */
  declare signature?: string;

  /**
   * The name of the merchant certificate whose key signed the order. Optional, and part of the signed order
   * when given: without it, any active certificate of the merchant may verify the signature.
   */
  declare certificateName?: string;

  /** `true` delays the start until `init()` is called. */
  lazy = false;

  /** Prefills the customer's email. */
  declare email?: string;

  /** Prefills the customer's phone. */
  declare phone?: string;

  /** Prefills the customer's first name. */
  declare firstName?: string;

  /** Prefills the customer's last name. */
  declare lastName?: string;

  /** The gateway's origin, such as `https://pay.example`; `SvcCheckout.defaultGateway` when absent. */
  declare gateway?: string;

  /**
   * The merchant's texts in place of ours, by key (`{"loading.text": "…"}`): JSON in the attribute, an
   * object as the property. Keys of the frame's texts are passed on to the frame; in v1 mode the picker's
   * (`picker.*`) apply.
   */
  declare texts?: MessageOverrides & Partial<Record<PickerMessageKey, string>>;

  /**
   * v1 mode: the Purchase's `checkout_url`, where the customer pays. Setting it switches the element to the
   * payment method picker. The gateway's host (its origin) is where method logos come from.
   */
  declare checkoutUrl?: string;

  /**
   * v1 mode: the merchant's own payment-methods endpoint (`createPaymentMethodsHandler` of
   * `svc-checkout/server`), absolute or relative to the page, with the query it needs (such as
   * `?currency=EUR`); the element adds `language`. Never the gateway's lookup, which takes the secret key.
   */
  declare paymentMethodsUrl?: string;

  /**
   * v1 mode: the customer's country (ISO 3166-1 alpha-2), whose bank methods show first (the customer can
   * change it); when it has none, methods of every country (Other), else the first country. Without it, the
   * region of the browser's language is tried.
   */
  declare country?: string;

  /** v1 mode: the method chosen at first, by its name (such as `visa` or `swedbank_lv_pis`). */
  declare method?: string;

  /**
   * The card fields' layout: `stacked` (the default: number, then expiry date and CVC, then the name, each
   * with its label above it) or `compact` (number, expiry date and CVC on one line, as a card element, with
   * their labels for screen readers only; where the form is narrower than about 26em, expiry date and CVC go
   * to a second line). A change reloads the form, as a change of the order does. A value the form does not
   * know is named in the console, and `stacked` applies.
   */
  declare cardLayout?: CardLayout;

  /**
   * Whether the form asks for the cardholder's name: `required` (the default), `optional`, or `hidden` (no
   * name field; the payment goes without a name, which the legacy document does not require). A change
   * reloads the form, as a change of the order does. A value the form does not know is named in the console,
   * and `required` applies.
   */
  declare cardholderName?: CardholderNameSetting;

  #view: View = { kind: 'idle' };
  #state: WidgetState | undefined;
  #started = false;
  /** Started in v1 mode (the mode is fixed at the start). */
  #v1 = false;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  #textLanguage = FALLBACK_LANGUAGE;
  #translate = createElementTranslator(FALLBACK_LANGUAGE);
  #loading: HTMLElement | undefined;
  #error: { failure: CheckoutFailure; box: HTMLElement } | undefined;
  /** What the frame session and the picker (Lit controllers of the element) may do with it. */
  readonly #controls: SessionControls & PickerControls = {
    // One place that dispatches, so the manifest takes the events from the class's @fires tags alone.
    emit: (event) => this.dispatchEvent(event),
    setState: (state) => this.#setState(state),
    fail: (failure) => this.#fail(failure),
    elementClass: SvcCheckout,
  };
  /** Legacy mode's frame and order (see frame-session.ts). */
  readonly #session = createFrameSession(this, this.#controls);

  /**
   * The widget's state as the frame reports it (`loading`, `form`, `processing`, `challenge`, `paid`,
   * `failed`, `cancelled`) or `error`; undefined until the element opens its frame (as it connects, when it
   * starts by itself) or starts. In v1 mode: `loading` while the methods
   * are looked up, then `form` (the methods, or the way on without them), or `error` for an unusable
   * `checkout-url`. Read-only; reflected to the `state` attribute for styling (`svc-checkout[state='paid']`).
   */
  get state(): WidgetState | undefined {
    return this.#state;
  }

  /**
   * Adds an item to the order (lazy use: before `init()`). A copy is kept, so later changes to the object
   * do not count. The gateway checks it with the whole order: when it refuses it, `checkoutError` names
   * `addOrderItem` and the item's number.
   * @throws {TypeError} when the item is not an object.
   * @throws {CheckoutStateError} `order_already_sent` once the element has started.
   */
  addOrderItem(item: OrderItemInput): void {
    this.#session.items.push(this.#copy('addOrderItem', item, '{amount: "9.99", label: "Tea"}'));
  }

  /**
   * Adds a shipping option to the order (lazy use: before `init()`). A copy is kept, so later changes to the
   * object do not count. The gateway checks it with the whole order: when it refuses it, `checkoutError`
   * names `addShippingOption` and the option's number.
   * @throws {TypeError} when the option is not an object.
   * @throws {CheckoutStateError} `order_already_sent` once the element has started.
   */
  addShippingOption(option: ShippingOptionInput): void {
    this.#session.shippingOptions.push(
      this.#copy('addShippingOption', option, '{id: "courier", amount: "4.99"}'),
    );
  }

  /**
   * Starts the widget: sends the order and loads the payment form. Needed with `lazy="true"`; without it
   * the element starts by itself, and `init()` only starts it sooner.
   * @throws {CheckoutStateError} `already_initialized` when it has started already.
   */
  init(): void {
    if (this.#started) {
      throw new CheckoutStateError(
        'already_initialized',
        '<svc-checkout> init(): the widget has already started; init() runs once (without lazy="true" the element starts by itself).',
      );
    }
    this.#start();
  }

  /** Reads the `--svc-*` custom properties again and sends them to the form, after the page changed them. */
  refreshAppearance(): void {
    this.#session.refreshAppearance();
  }

  override connectedCallback(): void {
    // The session loads its frame again when the element was moved (see frame-session.ts).
    super.connectedCallback();
    if (!this.#started) {
      this.#session.open();
      this.#scheduleStart();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#startTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('language') || changed.has('texts') || !this.hasUpdated) {
      this.#textLanguage = elementLanguage(this) ?? FALLBACK_LANGUAGE;
      this.#translate = createElementTranslator(this.#textLanguage, this.texts);
    }
  }

  /** Renders the view; what the views do runs in the session and the picker (Lit controllers). */
  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const view = this.#view;
    const t = this.#translate;
    // `lang`, so that screen readers speak our texts in their language when it is not the page's.
    this.#loading ??= make('p', { class: 'loading', part: 'loading', role: 'status', tabindex: '-1' });
    const loading = this.#loading;
    loading.lang = this.#textLanguage;
    const frame = this.#session.frame;
    let nodes: Node[];
    if (frame) {
      const { iframe } = frame.host;
      iframe.setAttribute('part', 'frame');
      iframe.title = t('frame.title');
      iframe.style.height = `${frame.height ?? firstViewHeight(this.cardLayout)}px`;
      nodes = [iframe];
    } else if (view.kind === 'idle') {
      nodes = this.lazy ? [] : [loading];
    } else if (view.kind === 'picker') {
      nodes = [view.picker.render()];
    } else {
      nodes = [this.#errorBox(view.failure, t)];
    }
    if (nodes.includes(loading) && loading.parentNode !== this.renderRoot) {
      // A status region is announced when its text changes, not with the text it is inserted with: it goes
      // in empty, and the next update, once screen readers know the region, gives it its text.
      loading.textContent = '';
      setTimeout(() => this.requestUpdate(), LIVE_REGION_DELAY_MS);
    } else {
      loading.textContent = t('loading.text');
    }
    this.#place(nodes);
  }

  protected override updated(changed: PropertyValues<this>): void {
    this.#session.changed(changed);
  }

  /** The error box of a failure: built once (so the retry button keeps its focus), its texts kept current. */
  #errorBox(failure: CheckoutFailure, t: Translate<ElementMessageKey>): HTMLElement {
    const { code } = failure;
    const retryable = isRetryable(code);
    if (this.#error?.failure !== failure) {
      const box = make('div', { class: 'error', part: 'error', role: 'alert' });
      box.append(make('h2', {}), make('p', {}));
      if (retryable) {
        const retry = make('button', { type: 'button', part: 'retry-button' });
        retry.addEventListener('click', this.#retry);
        box.append(retry);
      }
      this.#error = { failure, box };
    }
    const { box } = this.#error;
    const [title, text, retry] = box.children;
    box.lang = this.#textLanguage;
    // Shopper words only: what the merchant must fix is on the console (logFailure) and in the event.
    title!.textContent = t('error.title');
    text!.textContent = t(widgetErrorKey(code));
    if (retry) retry.textContent = t('error.retry');
    return box;
  }

  /**
   * Shows these nodes and no other, appending those not shown yet; a node that stays is not touched, since an
   * iframe that is moved, even in place, loads again.
   */
  #place(nodes: Node[]): void {
    const root = this.renderRoot;
    for (const child of [...root.childNodes]) {
      // Styles are children of the root where the browser cannot adopt style sheets.
      if (!nodes.includes(child) && !(child instanceof HTMLStyleElement)) child.remove();
    }
    for (const node of nodes) if (node.parentNode !== root) root.append(node);
  }

  #scheduleStart(): void {
    clearTimeout(this.#startTimer);
    const start = () => {
      this.#startTimer = setTimeout(() => {
        if (!this.#started && !this.lazy && this.isConnected) this.#start();
      });
    };
    // In the HTML, wait for the parser: the scripts after the element may still add items and listeners.
    if (document.readyState === 'loading')
      document.addEventListener('DOMContentLoaded', start, { once: true });
    else start();
  }

  /** A copy of what the page passes to `call`, which only takes an object, and only before the start. */
  #copy<T extends object>(call: string, value: T, example: string): T {
    if (this.#started) {
      throw new CheckoutStateError(
        'order_already_sent',
        `<svc-checkout> ${call}(): the order was already sent when the widget started, so it cannot change; call ${call}() before init() on an element with lazy="true".`,
      );
    }
    if (!isPlainObject(value)) {
      throw new TypeError(`<svc-checkout> ${call}(): takes an object, such as ${example}.`);
    }
    return { ...value };
  }

  #start(): void {
    this.#started = true;
    clearTimeout(this.#startTimer);
    this.#v1 = !!this.checkoutUrl;
    if (this.#v1) {
      this.#session.stop();
      this.#startPicker();
    } else this.#session.start();
  }

  /** v1 mode: loads the picker's code (see svc-checkout-v1.ts), then shows the picker. */
  #startPicker(): void {
    this.#show({ kind: 'idle' });
    this.#setState('loading');
    // The module as a whole, not destructured: Vite would wrap a destructuring import in a function.
    import('./svc-checkout-v1.js').then(
      (v1) => this.#show({ kind: 'picker', picker: new v1.PaymentMethodPicker(this, this.#controls) }),
      (error: Error) =>
        this.#fail({
          code: 'gateway_unreachable',
          message: `The payment method picker could not be loaded (${error.message}).`,
        }),
    );
  }

  #fail(failure: CheckoutFailure): void {
    this.#show({ kind: 'error', failure });
    this.#setState('error');
    logFailure(failure);
    this.#controls.emit(new CheckoutErrorEvent(failure));
  }

  readonly #retry = (): void => {
    const hadFocus = (this.renderRoot as ShadowRoot).activeElement !== null;
    if (this.#v1) this.#startPicker();
    else this.#session.load();
    // The retry button goes away; keep keyboard users where they were: in the new frame, whose form shows
    // from the start, else (v1 mode) on the loading text.
    if (hadFocus) {
      void this.updateComplete.then(() => (this.#session.frame?.host.iframe ?? this.#loading)?.focus());
    }
  };

  #show(view: View): void {
    this.#view = view;
    this.requestUpdate();
  }

  #setState(next: WidgetState): void {
    this.#state = next;
    this.setAttribute('state', next);
  }
}

/** The element's events by name. They bubble and are composed: the document and the window hear them too. */
interface SvcCheckoutEventMap {
  paymentCompleted: PaymentCompletedEvent;
  navigateBackToCart: NavigateBackToCartEvent;
  checkoutError: CheckoutErrorEvent;
  navigateToCheckout: NavigateToCheckoutEvent;
}

declare global {
  interface HTMLElementTagNameMap {
    'svc-checkout': SvcCheckout;
  }
  interface HTMLElementEventMap extends SvcCheckoutEventMap {}
  interface DocumentEventMap extends SvcCheckoutEventMap {}
  interface WindowEventMap extends SvcCheckoutEventMap {}
}
