/**
 * `<svc-delivery-fields>`: the shipping method of an order that offers shipping options. On the full
 * checkout also where it goes, as the chosen option's type asks: the delivery address for an ADDRESS option,
 * one of the widget's pickup points (required, and no street address) for a PICKUP_POINT option. Options the
 * order prices itself show their price; the others are priced by the merchant's shipping cost URL once the
 * address is known or the point chosen, through the `quote` function the frame gives. On any other widget
 * only the choice of option, an unpriced one priced as soon as it is chosen (with no address: the form asks
 * none).
 */
import { html, LitElement, nothing } from 'lit';
import {
  type FrameMessageKey,
  type FrameTranslate,
  formatMoney,
  type Language,
  localeFor,
  type MinorUnits,
  parseMinorUnits,
} from '../core/index.js';
import type {
  AddressInput,
  PickupPointView,
  ShippingInput,
  ShippingOptionView,
  ShippingQuoteRequest,
} from '../core/widget-api.js';
import { AnnounceEvent } from './announce.js';
import { deliveryFieldsStyles } from './delivery-fields.styles.js';
import { adoptDocumentStyles } from './document-styles.js';
import { describedBy, errorText, type FieldError, textField } from './form-fields.js';
import { type ChosenShipping, priceLaterKey } from './order-summary.js';

/** What the merchant's shipping cost URL said, through the gateway: the price and its line's tax rate. */
export type QuoteAnswer = { kind: 'priced'; amount: MinorUnits; taxRate: string } | { kind: 'failed' };

/** Asks the gateway to price an option for an address or a pickup point. */
export type QuoteShipping = (request: ShippingQuoteRequest) => Promise<QuoteAnswer>;

/** Fired when the chosen option or its price changes, so the summary and the pay button show the total. */
export class ShippingChangeEvent extends Event {
  static readonly type = 'svc-shipping-change';

  constructor(
    /** The chosen option with its price once known; undefined while none is chosen. */
    readonly shipping: ChosenShipping | undefined,
  ) {
    super(ShippingChangeEvent.type, { bubbles: true });
  }
}

declare global {
  interface HTMLElementEventMap {
    'svc-shipping-change': ShippingChangeEvent;
  }
  interface HTMLElementTagNameMap {
    'svc-delivery-fields': SvcDeliveryFields;
  }
}

type AddressField = keyof Required<AddressInput>;
type DeliveryField = 'option' | 'pickupPoint' | AddressField;

interface QuoteState {
  key: string;
  status: 'pending' | 'priced' | 'failed';
  price?: { amount: MinorUnits; taxRate: string };
  done: Promise<void>;
}

const ADDRESS_FIELDS: ReadonlyArray<{ field: AddressField; label: FrameMessageKey; autocomplete: string }> = [
  { field: 'address', label: 'delivery.address', autocomplete: 'street-address' },
  { field: 'city', label: 'delivery.city', autocomplete: 'address-level2' },
  { field: 'postalCode', label: 'delivery.postalCode', autocomplete: 'postal-code' },
  { field: 'country', label: 'delivery.country', autocomplete: 'country-name' },
];

/**
 * The shipping choice, with the delivery address on the full checkout.
 *
 * @fires svc-shipping-change - When the chosen option or its price changes.
 * @fires svc-announce - When a price could not be calculated, to be read out.
 */
export class SvcDeliveryFields extends LitElement {
  static override properties = {
    t: { attribute: false },
    language: { attribute: false },
    currency: { attribute: false },
    options: { attribute: false },
    pickupPoints: { attribute: false },
    quote: { attribute: false },
    collectAddress: { attribute: false },
    readonly: { type: Boolean },
    optionId: { state: true },
    address: { state: true },
    pickupPointId: { state: true },
    quotes: { state: true },
    errors: { state: true },
  };

  /** Texts in the frame's language. */
  t!: FrameTranslate;
  /** The frame's language, for amounts. */
  language: Language = 'en';
  /** The order's currency. */
  currency = 'EUR';
  /** The order's shipping options. */
  options: readonly ShippingOptionView[] = [];
  /** The widget's pickup points, offered once a PICKUP_POINT option is chosen. */
  pickupPoints: readonly PickupPointView[] = [];
  /** Prices an option without an amount. */
  quote?: QuoteShipping;
  /**
   * Whether the address (and pickup point) is asked for: only the full checkout collects delivery data.
   * Without it the fields are the choice among fixed-price options, the only one preselected.
   */
  collectAddress = true;
  /** While a payment runs the fields keep their values but take no changes. */
  readonly = false;

  private optionId = '';
  private address: Required<AddressInput> = { address: '', city: '', postalCode: '', country: '' };
  private pickupPointId = '';
  private quotes: Readonly<Record<string, QuoteState>> = {};
  private errors: Partial<Record<DeliveryField, FieldError>> = {};
  #reported: string | undefined;

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    adoptDocumentStyles(this.ownerDocument, [deliveryFieldsStyles]);
  }

  /**
   * Checks the choice and where it goes, waits for the price of an option priced by the merchant, and shows
   * what is wrong; the delivery data when it can be sent.
   */
  async check(): Promise<ShippingInput | undefined> {
    const errors: Partial<Record<DeliveryField, FieldError>> = {};
    const option = this.#selected;
    if (!option) errors.option = { key: 'delivery.chooseOption' };
    for (const { field } of this.#asksAddress ? ADDRESS_FIELDS : []) {
      if (field !== 'country' && this.address[field].trim() === '') errors[field] = { key: 'field.required' };
    }
    if (this.#asksPickupPoint && this.pickupPointId === '')
      errors.pickupPoint = { key: 'delivery.choosePickupPoint' };
    if (option && Object.keys(errors).length === 0 && option.amount === null) {
      await this.#requestQuote();
      if (this.quotes[option.id]?.status !== 'priced') errors.option = { key: 'delivery.quoteFailed' };
    }
    this.errors = errors;
    if (!option || Object.keys(errors).length > 0) return undefined;
    if (!this.collectAddress) return { optionId: option.id };
    return option.type === 'PICKUP_POINT'
      ? { optionId: option.id, pickupPointId: this.pickupPointId }
      : { optionId: option.id, address: this.#addressInput() };
  }

  get #selected(): ShippingOptionView | undefined {
    return this.options.find((option) => option.id === this.optionId);
  }

  /**
   * Whether the address fields are asked: for an option that delivers to an address, and before any choice
   * while the order has such an option (an order of address deliveries only looks as it always did).
   */
  get #asksAddress(): boolean {
    if (!this.collectAddress) return false;
    const option = this.#selected;
    return option
      ? option.type === 'ADDRESS'
      : this.options.some((candidate) => candidate.type === 'ADDRESS');
  }

  /** Whether a pickup point must be chosen: the chosen option delivers to one. */
  get #asksPickupPoint(): boolean {
    return this.collectAddress && this.#selected?.type === 'PICKUP_POINT';
  }

  /** The price of an option and the tax rate of its line, when known. */
  #priceOf(option: ShippingOptionView): ChosenShipping['price'] {
    if (option.amount !== null) return { amount: parseMinorUnits(option.amount), taxRate: option.taxRate };
    const quote = this.quotes[option.id];
    return quote?.status === 'priced' ? quote.price : undefined;
  }

  #addressInput(): AddressInput {
    const { address, city, postalCode, country } = this.address;
    return {
      address: address.trim(),
      city: city.trim(),
      postalCode: postalCode.trim(),
      ...(country.trim() !== '' && { country: country.trim() }),
    };
  }

  /**
   * What prices the chosen option: its pickup point, or the complete address; nothing while either is
   * missing. A form that asks no address prices the option alone.
   */
  #quoteRequest(option: ShippingOptionView): ShippingQuoteRequest | undefined {
    if (!this.collectAddress) return { optionId: option.id };
    if (option.type === 'PICKUP_POINT') {
      return this.pickupPointId === ''
        ? undefined
        : { optionId: option.id, pickupPointId: this.pickupPointId };
    }
    const address = this.#addressInput();
    if (address.address === '' || address.city === '' || address.postalCode === '') return undefined;
    return { optionId: option.id, address };
  }

  /**
   * Asks for the chosen option's price when it needs one and its address or pickup point is known; its
   * answer when asked.
   */
  #requestQuote(): Promise<void> | undefined {
    const option = this.#selected;
    if (!option || option.amount !== null || !this.quote) return undefined;
    const request = this.#quoteRequest(option);
    if (!request) return undefined;
    const key = JSON.stringify(request);
    const current = this.quotes[option.id];
    if (current?.key === key && current.status !== 'failed') return current.done;
    const done = this.quote(request).then((answer) => {
      // An answer for an address changed meanwhile is dropped; the newer request's answer counts.
      if (this.quotes[option.id]?.key !== key) return;
      const settled: QuoteState =
        answer.kind === 'priced'
          ? { key, status: 'priced', price: { amount: answer.amount, taxRate: answer.taxRate }, done }
          : { key, status: 'failed', done };
      this.quotes = { ...this.quotes, [option.id]: settled };
      if (option.id !== this.optionId) return;
      const errors = { ...this.errors };
      if (answer.kind === 'failed') {
        errors.option = { key: 'delivery.quoteFailed' };
        this.dispatchEvent(new AnnounceEvent(this.t('delivery.quoteFailed')));
      } else delete errors.option;
      this.errors = errors;
    });
    this.quotes = { ...this.quotes, [option.id]: { key, status: 'pending', done } };
    return done;
  }

  #choose(optionId: string): void {
    this.optionId = optionId;
    this.#clearError('option');
    void this.#requestQuote();
  }

  #choosePoint(externalId: string): void {
    this.pickupPointId = externalId;
    // Prices of pickup-point options were for the point chosen before.
    this.quotes = Object.fromEntries(
      Object.entries(this.quotes).filter(
        ([optionId]) => this.options.find((option) => option.id === optionId)?.type !== 'PICKUP_POINT',
      ),
    );
    if (externalId !== '') this.#clearError('pickupPoint');
    void this.#requestQuote();
  }

  #setAddress(field: AddressField, value: string): void {
    this.address = { ...this.address, [field]: value };
    if (value.trim() !== '') this.#clearError(field);
  }

  /** Drops the error a field showed, once the customer changed it. */
  #clearError(field: DeliveryField): void {
    if (!this.errors[field]) return;
    const { [field]: _cleared, ...errors } = this.errors;
    this.errors = errors;
  }

  protected override willUpdate(): void {
    // A single option is no choice to make (an unpriced one is priced at once); the full checkout still asks
    // for it, as it always did.
    const only = this.options.length === 1 ? this.options[0] : undefined;
    if (!this.collectAddress && only && this.optionId === '') this.#choose(only.id);
  }

  protected override updated(): void {
    const option = this.#selected;
    const shipping: ChosenShipping | undefined = option && {
      optionId: option.id,
      price: this.#priceOf(option),
    };
    const report = JSON.stringify(shipping ?? null);
    if (report === this.#reported) return;
    this.#reported = report;
    this.dispatchEvent(new ShippingChangeEvent(shipping));
  }

  #priceText(option: ShippingOptionView): string {
    const amount = this.#priceOf(option)?.amount;
    if (amount !== undefined) {
      return amount === 0
        ? this.t('delivery.free')
        : formatMoney(amount, this.currency, localeFor(this.language));
    }
    return this.quotes[option.id]?.status === 'pending' && option.id === this.optionId
      ? this.t('delivery.calculating')
      : this.t(priceLaterKey(option, this.collectAddress));
  }

  /** The options as a radio group, with the error of the choice. */
  #renderOptions() {
    const { t, errors } = this;
    return html`<fieldset class="svc-shipping-options" aria-describedby=${errors.option ? 'svc-shipping-option-error' : nothing}>
        <legend>${t('delivery.method')}</legend>
        ${this.options.map(
          (option, index) => html`<div class="svc-shipping-option">
            <input
              type="radio"
              id="svc-shipping-option-${index}"
              name="svc-shipping-option"
              .value=${option.id}
              .checked=${option.id === this.optionId}
              ?disabled=${this.readonly && option.id !== this.optionId}
              aria-invalid=${errors.option ? 'true' : 'false'}
              @change=${() => this.#choose(option.id)}
            />
            <label for="svc-shipping-option-${index}"
              ><span class="svc-shipping-name">${option.label}</span>
              <span class="svc-shipping-price">${this.#priceText(option)}</span></label
            >
          </div>`,
        )}
        ${errorText('svc-shipping-option', errors.option, t)}
      </fieldset>`;
  }

  protected override render() {
    const { t } = this;
    if (!this.collectAddress) return this.#renderOptions();
    return html`<fieldset class="svc-delivery-fields">
      <legend>${t('delivery.title')}</legend>
      ${this.#renderOptions()}
      ${this.#asksAddress ? this.#renderAddress() : nothing}
      ${this.#asksPickupPoint ? this.#renderPickupPoint() : nothing}
    </fieldset>`;
  }

  #renderAddress() {
    const { t, errors } = this;
    return ADDRESS_FIELDS.map(({ field, label, autocomplete }) =>
      textField({
        id: `svc-delivery-${field}`,
        name: field === 'address' ? 'street-address' : field,
        label: t(label),
        value: this.address[field],
        autocomplete,
        optional: field === 'country',
        maxlength: field === 'address' ? 200 : 100,
        error: errors[field],
        readonly: this.readonly,
        t,
        onInput: (event) => this.#setAddress(field, (event.target as HTMLInputElement).value),
        onChange: () => void this.#requestQuote(),
      }),
    );
  }

  /** The pickup point select of a PICKUP_POINT option: required, with where the point is and when it is open. */
  #renderPickupPoint() {
    const { t, errors } = this;
    const point = this.pickupPoints.find((candidate) => candidate.externalId === this.pickupPointId);
    const where = point?.address;
    const hint = point
      ? [
          where && `${where.address}, ${where.city}, ${where.postalCode}`,
          point.comments,
          point.serviceHours && t('delivery.serviceHours', { hours: point.serviceHours }),
        ]
          .filter(Boolean)
          .join(' · ')
      : '';
    const id = 'svc-delivery-pickup';
    return html`<div class="svc-field">
      <label for=${id}>${t('delivery.pickupPoint')}</label>
      <select
        id=${id}
        name="pickup-point"
        required
        ?disabled=${this.readonly}
        aria-invalid=${errors.pickupPoint ? 'true' : 'false'}
        aria-describedby=${describedBy(id, hint !== '', errors.pickupPoint !== undefined) ?? nothing}
        @change=${(event: Event) => this.#choosePoint((event.target as HTMLSelectElement).value)}
      >
        <option value="" ?selected=${this.pickupPointId === ''}>${t('delivery.choosePickupPoint')}</option>
        ${this.pickupPoints.map(
          (candidate) =>
            html`<option value=${candidate.externalId} ?selected=${candidate.externalId === this.pickupPointId}>
              ${candidate.name}
            </option>`,
        )}
      </select>
      ${hint === '' ? nothing : html`<p id="${id}-hint" class="svc-hint">${hint}</p>`}
      ${errorText(id, errors.pickupPoint, t)}
    </div>`;
  }
}

customElements.define('svc-delivery-fields', SvcDeliveryFields);
