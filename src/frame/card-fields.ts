/**
 * `<svc-card-fields>`: card number, expiry date, security code and the holder's name, formatted while they
 * are typed, stacked or (`compact`) with number, expiry and CVC on one line; the holder's name required,
 * optional or not asked. The card data lives only here, in the frame, until the frame sends it to the gateway.
 */
import { html, nothing } from 'lit';
import {
  type CardFormSettings,
  type CardScheme,
  cardSchemeOf,
  DEFAULT_CARD_SETTINGS,
  type FrameTranslate,
  type Language,
  normalizeCardNumber,
  type OrderConstraints,
  schemeNameKey,
} from '../core/index.js';
import { AnnounceEvent } from './announce.js';
import {
  acceptedSchemes,
  type CardErrors,
  type CardValues,
  cardErrors,
  schemeError,
  schemeNames,
} from './card-checks.js';
import { CARD_FORMATS } from './card-formats.js';
import { reformat } from './caret.js';
import { type FieldError, type TextFieldOptions, textField } from './form-fields.js';
import { acceptedLogos, type KnownScheme, schemeLogo } from './scheme-logos.js';
import { ServerRenderedElement } from './server-markup.js';

type CardField = keyof CardValues;

const CARD_FIELDS: readonly CardField[] = ['number', 'expiry', 'cvc', 'holder'];

/**
 * The card fields of the payment form. Rendered into the light DOM so that the browser's card autofill,
 * which does not reach into shadow roots, fills all four fields.
 *
 * @fires svc-announce - When the scheme of the typed number becomes known, to be read out (with its
 *   refusal when the widget or the order does not take it).
 */
export class SvcCardFields extends ServerRenderedElement {
  static override properties = {
    t: { attribute: false },
    language: { attribute: false },
    constraints: { attribute: false },
    schemes: { attribute: false },
    settings: { attribute: false },
    readonly: { type: Boolean },
    values: { state: true },
    errors: { state: true },
  };

  /** Texts in the frame's language. */
  t!: FrameTranslate;
  /** The frame's language, for lists in texts. */
  language: Language = 'en';
  /** The order's card constraints; a scheme constraint is checked as the number is typed. */
  constraints: OrderConstraints = {};
  /** The card schemes the widget takes (its `cardSchemes`); others are refused from the first digits. */
  schemes: readonly KnownScheme[] = ['VISA', 'MASTERCARD'];
  /** The layout, and whether the holder's name is asked for (the element's `card-layout`, `cardholder-name`). */
  settings: CardFormSettings = DEFAULT_CARD_SETTINGS;
  /** While a payment runs the fields keep their values and focus but take no typing. */
  readonly = false;

  private values: CardValues = { number: '', expiry: '', cvc: '', holder: '' };
  private errors: CardErrors = {};
  #announcedScheme: CardScheme = 'UNKNOWN';

  /** Text typed before the code came is formatted as if typed now. */
  protected override takeInput(input: HTMLInputElement): void {
    const field = CARD_FIELDS.find((name) => input.id === `svc-card-${name}`);
    if (field) this.#onInput(field, input);
  }

  /** Checks every field and shows what is wrong; the card when it can be sent. */
  check(now: Date = new Date()): CardValues | undefined {
    this.errors = cardErrors(
      this.values,
      this.constraints,
      this.schemes,
      this.t,
      this.language,
      now,
      this.settings.holder,
    );
    if (Object.keys(this.errors).length > 0) return undefined;
    return {
      ...this.values,
      number: normalizeCardNumber(this.values.number),
      holder: this.values.holder.trim(),
    };
  }

  /** Empties every field and its error, for another card after a failed payment. */
  clear(): void {
    this.values = { number: '', expiry: '', cvc: '', holder: '' };
    this.errors = {};
    this.#announcedScheme = 'UNKNOWN';
  }

  /** Shows an error that the gateway found in one field. */
  showError(field: CardField, error: FieldError): void {
    this.errors = { ...this.errors, [field]: error };
  }

  /** Why the field's text (with the other fields as they are) cannot be sent, if it cannot. */
  #check(field: CardField, value: string): FieldError | undefined {
    return cardErrors(
      { ...this.values, [field]: value },
      this.constraints,
      this.schemes,
      this.t,
      this.language,
      new Date(),
      this.settings.holder,
    )[field];
  }

  #set(field: CardField, value: string, error: FieldError | undefined): void {
    this.values = { ...this.values, [field]: value };
    const errors = { ...this.errors };
    if (error) errors[field] = error;
    else delete errors[field];
    this.errors = errors;
  }

  /**
   * Formats the field as it is typed. A field that shows an error is checked at each keystroke, so the
   * error goes as soon as it is fixed; a scheme the widget or the order excludes shows from the number's
   * first digits, and is read out with the scheme.
   */
  #onInput(field: CardField, input: HTMLInputElement): void {
    const value = CARD_FORMATS[field](input.value);
    reformat(input, value);
    const { t } = this;
    const byScheme =
      field === 'number' && schemeError(value, this.constraints, this.schemes, t, this.language);
    this.#set(field, value, byScheme || (this.errors[field] ? this.#check(field, value) : undefined));
    if (field !== 'number') return;
    // The CVC's length depends on the scheme.
    if (this.errors.cvc) this.#set('cvc', this.values.cvc, this.#check('cvc', this.values.cvc));
    const scheme = cardSchemeOf(value);
    if (scheme !== this.#announcedScheme) {
      this.#announcedScheme = scheme;
      if (scheme !== 'UNKNOWN') {
        const detected = t('card.scheme.detected', { scheme: t(schemeNameKey(scheme)) });
        this.dispatchEvent(
          new AnnounceEvent(byScheme ? `${detected}. ${t(byScheme.key, byScheme.params)}` : detected),
        );
      }
    }
  }

  /** Leaving a field the customer filled in shows what is wrong with it. */
  #onChange(field: CardField): void {
    const value = this.values[field];
    if (value.trim() !== '') this.#set(field, value, this.#check(field, value));
  }

  protected override render() {
    const { t, settings } = this;
    const scheme = cardSchemeOf(this.values.number);
    const accepted = acceptedSchemes(this.schemes, this.constraints);
    const compact = settings.layout === 'compact';
    const field = (
      field: CardField,
      name: string,
      autocomplete: string,
      maxlength: number,
      more: Partial<TextFieldOptions> = {},
    ) =>
      textField({
        id: `svc-card-${field}`,
        name,
        label: t(`card.${field}.label`),
        value: this.values[field],
        autocomplete,
        placeholder: t(`card.${field}.placeholder`),
        maxlength,
        error: this.errors[field],
        readonly: this.readonly,
        t,
        onInput: (event) => this.#onInput(field, event.target as HTMLInputElement),
        onChange: () => this.#onChange(field),
        ...(field !== 'holder' && { inputmode: 'numeric' }),
        ...more,
      });
    // Until the number shows its scheme, the marks of those it may be of; their names are the number's
    // hint, hidden from sight (the marks say it there) and read once, as the field takes the focus.
    const number = field('number', 'cardnumber', 'cc-number', 23, {
      adornment:
        scheme === 'UNKNOWN' ? acceptedLogos(accepted) : schemeLogo(scheme, t(schemeNameKey(scheme))),
      ...(accepted.length > 0 && {
        hint: t('card.number.accepted', { accepted: schemeNames(accepted, t, this.language) }),
        hiddenHint: true,
      }),
    });
    // One markup for both layouts: compact's styles put number, expiry and CVC on one line, their labels
    // and hints out of sight (still their names and descriptions) and their errors below the line.
    return html`<fieldset class="svc-card-fields${compact ? ' svc-card-fields--compact' : ''}">
      <legend>${t('card.title')}</legend>
      <div class="svc-card-line">
        ${number}
        <div class="svc-card-row">
          ${field('expiry', 'exp-date', 'cc-exp', 7, { hint: t('card.expiry.hint') })}
          ${field('cvc', 'cvc', 'cc-csc', 4, {
            hint: t('card.cvc.hint'),
            ...(compact && { placeholder: t('card.cvc.compactPlaceholder') }),
          })}
        </div>
      </div>
      ${
        settings.holder === 'hidden'
          ? nothing
          : field('holder', 'ccname', 'cc-name', 100, { optional: settings.holder === 'optional' })
      }
    </fieldset>`;
  }
}

customElements.define('svc-card-fields', SvcCardFields);

declare global {
  interface HTMLElementTagNameMap {
    'svc-card-fields': SvcCardFields;
  }
}
