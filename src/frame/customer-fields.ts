/**
 * `<svc-customer-fields>`: the customer's name, email and phone, for widgets that collect them (the full
 * checkout). Prefilled from what the merchant's page gave.
 */
import { html, type PropertyValues } from 'lit';
import { isEmailAddress } from '../core/email-address.js';
import type { CustomerPrefill, FrameMessageKey, FrameTranslate } from '../core/index.js';
import type { CustomerInput } from '../core/widget-api.js';
import { type FieldError, textField } from './form-fields.js';
import { ServerRenderedElement } from './server-markup.js';

type CustomerField = 'firstName' | 'lastName' | 'email' | 'phone';

const PHONE = /^\+?[0-9 ()-]{5,20}$/;

/** Why a customer field cannot be sent, if it cannot. The phone is optional; the rest are required. */
export function customerFieldError(field: CustomerField, value: string): FieldError | undefined {
  const text = value.trim();
  if (text === '') return field === 'phone' ? undefined : { key: 'field.required' };
  if (field === 'email' && !isEmailAddress(text)) return { key: 'customer.email.invalid' };
  if (field === 'phone' && !PHONE.test(text)) return { key: 'customer.phone.invalid' };
  return undefined;
}

const FIELDS: ReadonlyArray<{
  field: CustomerField;
  label: FrameMessageKey;
  autocomplete: string;
  type: 'text' | 'email' | 'tel';
}> = [
  { field: 'firstName', label: 'customer.firstName', autocomplete: 'given-name', type: 'text' },
  { field: 'lastName', label: 'customer.lastName', autocomplete: 'family-name', type: 'text' },
  { field: 'email', label: 'customer.email', autocomplete: 'email', type: 'email' },
  { field: 'phone', label: 'customer.phone', autocomplete: 'tel', type: 'tel' },
];

/** The contact fields of the full checkout, in the light DOM like the rest of the form (for autofill). */
export class SvcCustomerFields extends ServerRenderedElement {
  static override properties = {
    t: { attribute: false },
    readonly: { type: Boolean },
    values: { state: true },
    errors: { state: true },
    prefill: { attribute: false },
  };

  /** Texts in the frame's language. */
  t!: FrameTranslate;
  /** While a payment runs the fields keep their values but take no typing. */
  readonly = false;

  private values: Record<CustomerField, string> = {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
  };
  private errors: Partial<Record<CustomerField, FieldError>> = {};

  protected override takeInput(input: HTMLInputElement): void {
    const field = FIELDS.find(({ field }) => input.id === `svc-customer-${field}`)?.field;
    if (field) this.#setField(field, input.value, false);
  }

  /** What the merchant's page knew of the customer; it fills the fields the customer has not typed in. */
  prefill: CustomerPrefill = {};

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('prefill')) return;
    const values = { ...this.values };
    for (const { field } of FIELDS) {
      const given = this.prefill[field];
      if (values[field] === '' && given) values[field] = given;
    }
    this.values = values;
  }

  /** Checks every field and shows what is wrong; the customer data when it can be sent. */
  check(): CustomerInput | undefined {
    const errors: Partial<Record<CustomerField, FieldError>> = {};
    for (const { field } of FIELDS) {
      const error = customerFieldError(field, this.values[field]);
      if (error) errors[field] = error;
    }
    this.errors = errors;
    if (Object.keys(errors).length > 0) return undefined;
    const customer: CustomerInput = {};
    for (const { field } of FIELDS) {
      const value = this.values[field].trim();
      if (value !== '') customer[field] = value;
    }
    return customer;
  }

  #setField(field: CustomerField, value: string, checkNow: boolean): void {
    this.values = { ...this.values, [field]: value };
    // Errors show on leaving a field; once shown, each keystroke checks again so a fixed field clears at once.
    if (!checkNow && !this.errors[field]) return;
    const errors = { ...this.errors };
    const error = customerFieldError(field, value);
    if (error) errors[field] = error;
    else delete errors[field];
    this.errors = errors;
  }

  protected override render() {
    const { t } = this;
    return html`<fieldset class="svc-customer-fields">
      <legend>${t('customer.title')}</legend>
      ${FIELDS.map(({ field, label, autocomplete, type }) =>
        textField({
          id: `svc-customer-${field}`,
          name: field,
          label: t(label),
          value: this.values[field],
          autocomplete,
          type,
          ...(type !== 'text' && { inputmode: type }),
          optional: field === 'phone',
          maxlength: field === 'email' ? 254 : 100,
          error: this.errors[field],
          readonly: this.readonly,
          t,
          onInput: (event) => this.#setField(field, (event.target as HTMLInputElement).value, false),
          onChange: (event) => {
            const value = (event.target as HTMLInputElement).value;
            if (value.trim() !== '') this.#setField(field, value, true);
          },
        }),
      )}
    </fieldset>`;
  }
}

customElements.define('svc-customer-fields', SvcCustomerFields);

declare global {
  interface HTMLElementTagNameMap {
    'svc-customer-fields': SvcCustomerFields;
  }
}
