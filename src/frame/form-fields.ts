/**
 * The markup of one labelled input, shared by the card, customer and delivery fields so that every field
 * is built the same accessible way: a real `<label>`, the hint and the error tied to the input by
 * `aria-describedby`, and `aria-invalid` while an error shows.
 */
import { html, isServer, nothing, type TemplateResult } from 'lit';
import { ifDefined } from 'lit/directives/if-defined.js';
import type { FrameMessageKey, FrameTranslate, MessageParams } from '../core/index.js';

/** An error as the key of its text, kept as a key so that a change of language translates it again. */
export interface KeyedError {
  key: FrameMessageKey;
  params?: MessageParams;
}

/**
 * An error to show: keyed, or in the gateway's own words where we have no text (the sandbox's refusal of a
 * number that is no test card).
 */
export type FieldError = KeyedError | { text: string };

/** The ids that describe an input: its hint and its error, when shown. */
export function describedBy(id: string, hasHint: boolean, hasError: boolean): string | undefined {
  const ids = [hasHint ? `${id}-hint` : '', hasError ? `${id}-error` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/** The error line under a field or group (`${id}-error`), or nothing. */
export function errorText(
  id: string,
  error: FieldError | undefined,
  t: FrameTranslate,
): TemplateResult | typeof nothing {
  if (!error) return nothing;
  return html`<p id="${id}-error" class="svc-error">${'key' in error ? t(error.key, error.params) : error.text}</p>`;
}

let pressing = false;
// Not on a server, which renders the frame's first view (first-view.ts) and has no pointer.
if (!isServer) {
  for (const type of ['pointerdown', 'pointerup', 'pointercancel']) {
    addEventListener(type, () => (pressing = type === 'pointerdown'), true);
  }
}

/**
 * Runs `then` now, or once the press (mouse, touch, pen) under way has ended and its click has landed: what
 * leaving a field shows (its error) would otherwise push what is pressed (Pay) away between press and
 * release, and the click would be lost.
 */
const whenNotPressing = (then: () => void) =>
  pressing ? addEventListener('pointerup', () => setTimeout(then), { once: true }) : then();

/** What `textField` renders. */
export interface TextFieldOptions {
  id: string;
  name: string;
  label: string;
  value: string;
  autocomplete: string;
  t: FrameTranslate;
  type?: 'text' | 'email' | 'tel';
  inputmode?: 'numeric' | 'email' | 'tel' | 'text';
  placeholder?: string;
  hint?: string;
  /** The hint is for assistive technology alone: what it says shows already (the card schemes' marks). */
  hiddenHint?: boolean;
  error?: FieldError | undefined;
  /** Marks the label "(optional)"; fields are required otherwise. */
  optional?: boolean;
  readonly?: boolean;
  maxlength?: number;
  /** Shown inside the input's box, after the text (the card scheme's mark). */
  adornment?: TemplateResult;
  onInput(event: InputEvent): void;
  onChange?(event: Event): void;
}

/**
 * One labelled text input with its hint and error. The value is bound without Lit's `live`: each input
 * event puts the field's text into its element's state (a field that reformats writes the new text into the
 * input as well), so the input never holds other text than was last rendered.
 */
export function textField(o: TextFieldOptions): TemplateResult {
  const invalid = o.error !== undefined;
  return html`<div class="svc-field">
    <label for=${o.id}
      >${o.label}${o.optional ? html` <span class="svc-optional">(${o.t('field.optional')})</span>` : nothing}</label
    >
    <div class="svc-input${o.adornment ? ' svc-input--adorned' : ''}">
      <input
        id=${o.id}
        name=${o.name}
        type=${o.type ?? 'text'}
        autocomplete=${o.autocomplete}
        inputmode=${ifDefined(o.inputmode)}
        placeholder=${ifDefined(o.placeholder)}
        maxlength=${ifDefined(o.maxlength)}
        spellcheck="false"
        ?required=${!o.optional}
        ?readonly=${o.readonly ?? false}
        aria-invalid=${invalid ? 'true' : 'false'}
        aria-describedby=${ifDefined(describedBy(o.id, o.hint !== undefined, invalid))}
        .value=${o.value}
        @input=${o.onInput}
        @change=${(event: Event) => whenNotPressing(() => o.onChange?.(event))}
      />${o.adornment ?? nothing}
    </div>
    ${o.hint === undefined ? nothing : html`<p id="${o.id}-hint" class="svc-hint${o.hiddenHint ? ' svc-visually-hidden' : ''}">${o.hint}</p>`}
    ${errorText(o.id, o.error, o.t)}
  </div>`;
}
