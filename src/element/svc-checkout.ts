import { type PropertyValues, ReactiveElement } from '@lit/reactive-element';
import { DESIGN_TOKEN_NAMES } from '../core/design-token-names.js';
import type {
  CustomerPrefill,
  FrameToElementMessage,
  WidgetErrorCode,
  WidgetState,
} from '../core/frame-channel.js';
import {
  createElementTranslator,
  type ElementMessageKey,
  type Language,
  type MessageOverrides,
  normalizeLanguage,
  type Translate,
  widgetErrorKey,
} from '../core/i18n.js';
import type { OrderItemInput, OrderJson, ShippingOptionInput } from '../core/order.js';
import {
  givesSingleItem,
  orderInputFromAttributes,
  type UncheckedOrderInput,
} from '../core/order-input-from-attributes.js';
import type { PickerMessageKey } from '../core/picker-messages.js';
import {
  blame,
  type CheckoutFailure,
  consoleMessage,
  isRetryable,
  type OrderLayout,
} from './checkout-failure.js';
import { CheckoutStateError } from './checkout-state-error.js';
import {
  type CheckoutAttribute,
  CheckoutErrorEvent,
  NavigateBackToCartEvent,
  PaymentCompletedEvent,
} from './events.js';
import { FrameHost, gatewayOrigin } from './frame-host.js';
import type { NavigateToCheckoutEvent } from './navigate-to-checkout-event.js';
import type { PaymentMethodPicker } from './payment-method-picker.js';
import { svcCheckoutStyles } from './svc-checkout.styles.js';

/** What the element shows. */
type View =
  | { kind: 'idle' }
  | { kind: 'frame'; host: FrameHost; revealed: boolean; height?: number }
  | { kind: 'picker'; picker: PaymentMethodPicker }
  | {
      kind: 'error';
      failure: CheckoutFailure;
      /** The script call to blame (`addShippingOption() (option 1)`), which the customer's text names. */
      call?: string | undefined;
    };

/** What the element fixed when it started: the gateway, and what `init` carries besides the looks and texts. */
interface Prepared extends OrderLayout {
  gateway: string;
  widgetId: string;
  init: {
    order: UncheckedOrderInput;
    customer: CustomerPrefill;
    signature?: string;
    certificateName?: string;
  };
}

/** How long a new status region stays empty, so that screen readers take it in before its text comes. */
const LIVE_REGION_DELAY_MS = 100;

/** The language the element's own texts fall back to when neither the element nor the page names one. */
const FALLBACK_LANGUAGE: Language = 'en';

/**
 * The properties whose change leaves the order as it is: `language` is a live update of the form, `texts`
 * and `lazy` matter at the start only, and the rest are v1 mode's. A change of any other property may change
 * the order (see `updated`).
 */
const NOT_ORDER = ['language', 'texts', 'lazy', 'checkoutUrl', 'paymentMethodsUrl', 'country', 'method'];

/**
 * What the element made of its attributes (the prepared order, or why there is none) as text, to tell a
 * changed order from an equal one: a re-render that sets a new but equal object changes nothing. The
 * order's language is left out: a change of `language` alone is a live update, and the order the frame has
 * (signed with the language it had) stays.
 */
const orderKey = (made: Prepared | CheckoutFailure): string =>
  JSON.stringify(made, (key, value) => (key === 'language' ? undefined : value));

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
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed;
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
 * The items (or shipping options) the attributes gave with those added by script after them. A value that
 * is not a list goes as given, for the gateway to refuse.
 */
function appended(given: unknown, added: readonly object[]): unknown {
  return added.length > 0 && (given === undefined || Array.isArray(given))
    ? [...((given as unknown[] | undefined) ?? []), ...added]
    : given;
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
 * `order-id`, the single-item attributes, `back-to-merchant-url`, `widget-id`, `gateway`, the prefill
 * attributes) replaces the order, after the task that made it: the frame loads again with the new order,
 * once for all the changes of the task, and not at all when the order is equal to the one it has. An error
 * box starts again the same way, so a page that fixes its order gets the form. Once the frame has reported
 * a payment attempt (any state past `loading` and `form`), a change is refused: the form keeps its order,
 * and the element logs it and fires `checkoutError` with code `order_locked`. `language` changes the texts
 * at any time.
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
 * @fires {PaymentCompletedEvent} paymentCompleted - A payment attempt succeeded or failed, just before the status screen: once for each attempt that ends while the form is open (a declined card fires it with `paymentSucceeded: false`, and the order stays payable with another card; a form that opens on an order that had already ended shows its status without the event). For the page's interface only, never proof of payment: verify the signed notification on the server. `detail`: `{orderId, merchantOrderId, paymentSucceeded}`.
 * @fires {NavigateBackToCartEvent} navigateBackToCart - The customer pressed back-to-merchant on the failed or cancelled screen. `detail`: `{backToMerchantUrl}` (the order's `back-to-merchant-url`, or `null`). Cancelable: otherwise the element goes to `detail.backToMerchantUrl` when it is not `null`.
 * @fires {CheckoutErrorEvent} checkoutError - The widget cannot take a payment (set up wrong, refused, or unreachable), or, with code `order_locked`, the page changed the order after a payment attempt began and the change was refused (the form stays, on its order). `detail`: `{code, message, attribute?}`.
 * @fires {NavigateToCheckoutEvent} navigateToCheckout - v1 mode: the customer confirmed a payment method, or went on without one. Cancelable: otherwise the element goes to `detail.url`. `detail`: `{method, url}` (`method` is `null` without one; `url` is `checkout-url` with `preferred` set in its query).
 *
 * @csspart frame - The payment form's iframe.
 * @csspart loading - The text shown while the form loads.
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

  /** Where the customer goes back to from the failed or cancelled screen. */
  declare backToMerchantUrl?: string;

  /** The order's signature: Base64 SHA256withRSA by the merchant's key. */
  declare signature?: string;

  /** The name of the merchant certificate whose key signed the order. */
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

  #view: View = { kind: 'idle' };
  #state: WidgetState | undefined;
  #started = false;
  /** Started in v1 mode (the mode is fixed at the start). */
  #v1 = false;
  #reloadOnConnect = false;
  #startTimer: ReturnType<typeof setTimeout> | undefined;
  /** The order the frame has (or had, when it failed); undefined when the attributes gave none. */
  #prepared: Prepared | undefined;
  /** The `orderKey` of what the element shows: the frame's order, or the failure of the attributes. */
  #shown: string | undefined;
  /** The `orderKey` of the last change looked at, so that a refused change repeated is not refused again. */
  #seen: string | undefined;
  /** The frame has reported a payment attempt in its current load: the order is locked. */
  #attempted = false;
  /** The properties changed since the last look at them, which the next task takes together. */
  readonly #changed = new Set<PropertyKey>();
  #changeTimer: ReturnType<typeof setTimeout> | undefined;
  #textLanguage = FALLBACK_LANGUAGE;
  #translate = createElementTranslator(FALLBACK_LANGUAGE);
  #loading: HTMLElement | undefined;
  #error: { failure: CheckoutFailure; box: HTMLElement } | undefined;
  readonly #items: OrderItemInput[] = [];
  readonly #shippingOptions: ShippingOptionInput[] = [];

  /**
   * The widget's state as the frame reports it (`loading`, `form`, `processing`, `challenge`, `paid`,
   * `failed`, `cancelled`) or `error`; undefined before the start. In v1 mode: `loading` while the methods
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
    this.#items.push(this.#copy('addOrderItem', item, '{amount: "9.99", label: "Tea"}'));
  }

  /**
   * Adds a shipping option to the order (lazy use: before `init()`). A copy is kept, so later changes to the
   * object do not count. The gateway checks it with the whole order: when it refuses it, `checkoutError`
   * names `addShippingOption` and the option's number.
   * @throws {TypeError} when the option is not an object.
   * @throws {CheckoutStateError} `order_already_sent` once the element has started.
   */
  addShippingOption(option: ShippingOptionInput): void {
    this.#shippingOptions.push(this.#copy('addShippingOption', option, '{id: "courier", amount: "4.99"}'));
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
    if (this.#view.kind === 'frame') this.#view.host.post({ type: 'update', appearance: this.#appearance() });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.#reloadOnConnect) {
      this.#reloadOnConnect = false;
      this.#loadFrame();
    } else if (!this.#started) {
      this.#scheduleStart();
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#startTimer);
    // A moved iframe reloads, so the frame starts over: listen to its new load on a new channel.
    if (this.#view.kind === 'frame') {
      this.#view.host.dispose();
      this.#reloadOnConnect = true;
    }
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('language') || changed.has('texts') || !this.hasUpdated) {
      this.#textLanguage = this.#language() ?? FALLBACK_LANGUAGE;
      this.#translate = createElementTranslator(this.#textLanguage, this.texts);
    }
  }

  protected override update(changed: PropertyValues<this>): void {
    super.update(changed);
    const view = this.#view;
    const t = this.#translate;
    // `lang`, so that screen readers speak our texts in their language when it is not the page's.
    this.#loading ??= make('p', { class: 'loading', part: 'loading', role: 'status', tabindex: '-1' });
    const loading = this.#loading;
    loading.lang = this.#textLanguage;
    let nodes: Node[];
    if (view.kind === 'idle') {
      nodes = this.lazy ? [] : [loading];
    } else if (view.kind === 'picker') {
      nodes = [view.picker.render()];
    } else if (view.kind === 'frame') {
      const { iframe } = view.host;
      iframe.setAttribute('part', 'frame');
      iframe.title = t('frame.title');
      iframe.className = view.revealed ? '' : 'pending';
      // Out of sight and out of reach while loading, yet rendered: a hidden frame would not lay out its form
      // (nor report its height) until revealed.
      iframe.inert = !view.revealed;
      iframe.style.height = view.revealed && view.height !== undefined ? `${view.height}px` : '';
      nodes = view.revealed ? [iframe] : [loading, iframe];
    } else {
      nodes = [this.#errorBox(view.failure, view.call, t)];
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
    if (this.#started && !this.#v1) {
      for (const key of changed.keys()) if (!NOT_ORDER.includes(key as string)) this.#changed.add(key);
      // After the task: the page may still be setting the signature that goes with a new order.
      if (this.#changed.size > 0) {
        clearTimeout(this.#changeTimer);
        this.#changeTimer = setTimeout(() => this.#takeChanges());
      }
    }
    const language = this.#language();
    // Before `ready`, `post` does nothing: `init` carries the language then.
    if (changed.has('language') && language && this.#view.kind === 'frame')
      this.#view.host.post({ type: 'update', language });
  }

  /** The error box of a failure: built once (so the retry button keeps its focus), its texts kept current. */
  #errorBox(
    failure: CheckoutFailure,
    call: string | undefined,
    t: Translate<ElementMessageKey>,
  ): HTMLElement {
    const { code, attribute } = failure;
    const retryable = isRetryable(code);
    if (this.#error?.failure !== failure) {
      const box = make('div', { class: 'error', part: 'error', role: 'alert' });
      let last = make('p', {});
      if (retryable) {
        last = make('button', { type: 'button', part: 'retry-button' });
        last.addEventListener('click', this.#retry);
      }
      box.append(make('h2', {}), make('p', {}), last);
      this.#error = { failure, box };
    }
    const { box } = this.#error;
    const [title, text, last] = box.children;
    box.lang = this.#textLanguage;
    title!.textContent = t('error.title');
    const key = widgetErrorKey(code);
    // A script call to blame is no attribute: the text names the call, as the console does.
    text!.textContent =
      call && key === 'error.invalidOrder'
        ? t('error.invalidCall', { call })
        : t(key, { attribute: attribute ?? 'order', origin: window.origin });
    last!.textContent = t(retryable ? 'error.retry' : 'error.contactMerchant');
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
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new TypeError(`<svc-checkout> ${call}(): takes an object, such as ${example}.`);
    }
    return { ...value };
  }

  #language(): Language | undefined {
    return normalizeLanguage(this.language) ?? normalizeLanguage(document.documentElement.lang);
  }

  #start(): void {
    this.#started = true;
    clearTimeout(this.#startTimer);
    this.#v1 = !!this.checkoutUrl;
    if (this.#v1) this.#startPicker();
    else this.#begin(this.#prepare(), true);
  }

  /**
   * Shows what the attributes make: the frame with the prepared order, or the failure. `load` false (a
   * disconnected element) leaves the load of the frame to the next connection.
   */
  #begin(made: Prepared | CheckoutFailure, load: boolean): void {
    this.#shown = this.#seen = orderKey(made);
    if ('code' in made) {
      this.#prepared = undefined;
      this.#fail(made);
    } else {
      this.#prepared = made;
      if (load) this.#loadFrame();
      else this.#reloadOnConnect = true;
    }
  }

  /**
   * Takes the changes of the last task (see the class's description): the new order replaces the frame's,
   * unless it is equal, or a payment attempt has begun in the frame, which refuses it.
   */
  #takeChanges(): void {
    const properties = SvcCheckout.properties as Record<PropertyKey, { attribute?: string }>;
    const names = [...this.#changed].map((key) => properties[key]?.attribute ?? String(key));
    this.#changed.clear();
    const made = this.#prepare();
    const key = orderKey(made);
    const seen = key === this.#seen;
    this.#seen = key;
    if (key === this.#shown || seen) return;
    if (this.#attempted && this.#view.kind === 'frame') {
      const failure = {
        code: 'order_locked',
        message: `${names.join(', ')}: changed after a payment attempt began`,
        attribute: names[0] as CheckoutAttribute,
      } as const;
      console.error(consoleMessage(failure, window.origin));
      this.#emit(new CheckoutErrorEvent(failure));
      return;
    }
    this.#begin(made, this.isConnected);
  }

  /** What the start fixes, or why the widget cannot start. The order goes as given: the gateway checks it. */
  #prepare(): Prepared | CheckoutFailure {
    const { widgetId } = this;
    if (!widgetId?.trim()) {
      return {
        code: 'missing_widget_id',
        message: 'The widget-id attribute is missing.',
        attribute: 'widget-id',
      };
    }
    // Not trimmed here: the widget id is signed as the page writes it.
    if (widgetId !== widgetId.trim()) {
      return {
        code: 'invalid_order',
        message: `widget-id: ${JSON.stringify(widgetId)} has white space around it; write the widget id alone.`,
        attribute: 'widget-id',
      };
    }
    // The class registered for the tag: the gateway's script sets the default on it, which may be another
    // copy of this class (the npm package defined the tag first) or a subclass.
    const given = this.gateway || (this.constructor as typeof SvcCheckout).defaultGateway;
    const gateway = given && gatewayOrigin(given);
    if (!gateway) {
      return {
        code: 'missing_gateway',
        message: given
          ? `gateway: ${JSON.stringify(given)} is not an http(s) URL.`
          : 'The gateway attribute is missing and no gateway script set SvcCheckout.defaultGateway.',
        attribute: 'gateway',
      };
    }
    const { value: assembled, error } = orderInputFromAttributes(this);
    if (error) {
      return {
        code: 'invalid_order',
        message: error.map((issue) => issue.message).join('; '),
        attribute: 'order',
      };
    }
    const layout: OrderLayout = {
      singleItem: givesSingleItem(this),
      items: Array.isArray(assembled.items) ? assembled.items.length : 0,
      options: Array.isArray(assembled.shippingOptions) ? assembled.shippingOptions.length : 0,
    };
    const items = appended(assembled.items, this.#items);
    const options = appended(assembled.shippingOptions, this.#shippingOptions);
    if (items) assembled.items = items;
    if (options) assembled.shippingOptions = options;
    let order: UncheckedOrderInput;
    try {
      // A copy of the page's objects: changing them after the start must not change what a retry sends.
      order = structuredClone(assembled);
    } catch {
      return {
        code: 'invalid_order',
        message: 'order: holds a value that cannot be sent, such as a function; give strings and numbers.',
        attribute: 'order',
      };
    }
    const customer: CustomerPrefill = {};
    for (const key of ['email', 'phone', 'firstName', 'lastName'] as const) {
      if (this[key]) customer[key] = this[key];
    }
    const { signature, certificateName } = this;
    return {
      ...layout,
      gateway,
      widgetId,
      init: { order, customer, ...(signature && { signature }), ...(certificateName && { certificateName }) },
    };
  }

  /** v1 mode: loads the picker's code (see svc-checkout-v1.ts), then shows the picker. */
  #startPicker(): void {
    this.#show({ kind: 'idle' });
    this.#setState('loading');
    import('./svc-checkout-v1.js').then(
      ({ PaymentMethodPicker }) =>
        this.#show({
          kind: 'picker',
          picker: new PaymentMethodPicker(this, {
            emit: (event) => this.#emit(event),
            setState: (state) => this.#setState(state),
          }),
        }),
      (error: Error) =>
        this.#fail({
          code: 'gateway_unreachable',
          message: `The payment method picker could not be loaded (${error.message}).`,
        }),
    );
  }

  /** Loads the frame with a new channel (the first time, on retry, and after the element was moved). */
  #loadFrame(): void {
    const prepared = this.#prepared;
    if (!prepared) return;
    if (this.#view.kind === 'frame') this.#view.host.dispose();
    this.#attempted = false;
    const host: FrameHost = new FrameHost(
      {
        gateway: prepared.gateway,
        widgetId: prepared.widgetId,
        // The document's origin, which the frame sees as `event.origin` (`location.origin` is "null" in an
        // about:srcdoc page that inherits its parent's origin).
        pageOrigin: window.origin,
        readyTimeout: SvcCheckout.frameReadyTimeout,
      },
      {
        message: (message) => this.#onFrameMessage(host, message),
        failed: ({ code, message }) => this.#frameFailed(code, message),
      },
    );
    this.#show({ kind: 'frame', host, revealed: false });
    this.#setState('loading');
  }

  #onFrameMessage(host: FrameHost, message: FrameToElementMessage): void {
    const view = this.#view;
    if (view.kind !== 'frame' || view.host !== host) return;
    switch (message.type) {
      case 'ready': {
        const language = this.#language();
        const texts: Record<string, string> = {};
        for (const [key, value] of Object.entries(this.texts ?? {})) {
          if (typeof value === 'string') texts[key] = value;
        }
        const { order, ...init } = this.#prepared!.init;
        host.post({
          type: 'init',
          ...init,
          order,
          appearance: this.#appearance(),
          texts,
          ...(language && { language }),
        });
        return;
      }
      case 'resize':
        this.#show({ ...view, height: message.height });
        return;
      case 'state':
        if (message.state === 'error') {
          // The frame sends `error` first; a bare `error` state still must not leave a blank box.
          this.#frameFailed('internal_error', 'The payment frame reported an error.');
          return;
        }
        this.#setState(message.state);
        if (message.state !== 'loading' && message.state !== 'form') this.#attempted = true;
        if (message.state !== 'loading' && !view.revealed) this.#reveal(view);
        return;
      case 'paymentCompleted':
        this.#emit(
          new PaymentCompletedEvent({
            orderId: message.orderId,
            merchantOrderId: message.merchantOrderId ?? null,
            paymentSucceeded: message.paymentSucceeded,
          }),
        );
        return;
      case 'navigateBackToCart': {
        const url = this.#prepared?.init.order.backToMerchantUrl ?? null;
        if (this.#emit(new NavigateBackToCartEvent({ backToMerchantUrl: url })) && url) location.assign(url);
        return;
      }
      case 'error':
        this.#frameFailed(message.code, message.message, message.field);
        return;
    }
  }

  // The values go as the page computes them: the frame holds them to core's allow-list (it must not trust
  // any message) and warns in its console, which the page's developer tools show, about each value it
  // leaves out. Checking here as well would cost the script-tag file about 1.6 KB gzip (core's colour
  // names and value grammars).
  #appearance(): Record<string, string> {
    const style = getComputedStyle(this);
    const appearance: Record<string, string> = {};
    for (const name of DESIGN_TOKEN_NAMES) {
      const value = style.getPropertyValue(name).trim();
      if (value) appearance[name] = value;
    }
    return appearance;
  }

  #reveal(view: Extract<View, { kind: 'frame' }>): void {
    const hadFocus = (this.renderRoot as ShadowRoot).activeElement === this.#loading;
    this.#show({ ...view, revealed: true });
    // After a retry from the keyboard, focus went to the loading text; carry it on into the form.
    if (hadFocus) void this.updateComplete.then(() => view.host.iframe.focus());
  }

  /** A failure the frame or its load reports, blamed on what the page gave (an attribute or a script call). */
  #frameFailed(code: WidgetErrorCode, message: string, field?: string): void {
    const { attribute, call } = blame(field, code, this.#prepared!);
    this.#fail(
      { code, message: call ? `${call}: ${message}` : message, ...(attribute && { attribute }) },
      call,
    );
  }

  #fail(failure: CheckoutFailure, call?: string): void {
    if (this.#view.kind === 'frame') this.#view.host.dispose();
    this.#show({ kind: 'error', failure, call });
    this.#setState('error');
    console.error(consoleMessage(failure, window.origin));
    this.#emit(new CheckoutErrorEvent(failure));
  }

  readonly #retry = (): void => {
    const hadFocus = (this.renderRoot as ShadowRoot).activeElement !== null;
    if (this.#v1) this.#startPicker();
    else this.#loadFrame();
    // The retry button goes away; keep keyboard users where they were, on the loading text.
    if (hadFocus) {
      void this.updateComplete.then(() => this.#loading?.focus());
    }
  };

  // One place that dispatches, so the manifest takes the events from the class's @fires tags alone.
  #emit(event: Event): boolean {
    return this.dispatchEvent(event);
  }

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
