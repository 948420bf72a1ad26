/**
 * The hosted checkout page's script (built as dist/browser/checkout/checkout-card-<hash>.js; the sandbox's
 * page names it, src/sandbox/v1/checkout-card-fields.ts). A plain enhancer of the server's inputs, without
 * Lit, so that it stays small: the frame's `<svc-card-fields>` renders its own inputs, and the page must work
 * without any script. It shares the frame's card form code: the formats while typing (card-formats.ts, with
 * the caret kept by caret.ts), the scheme's mark (core/scheme-marks.ts; the server writes the marks of the
 * schemes taken, which the typed number's scheme replaces) and the checks before sending (card-checks.ts).
 * A card that fails them is not sent: its errors show as the gateway shows them and what was typed stays.
 * Card data goes nowhere but the form's own post to the gateway.
 */
import { type CardScheme, cardSchemeOf } from '../core/card.js';
import {
  HOSTED_CARD_FORM_DATA_ID,
  HOSTED_DUE_ATTRIBUTE,
  type HostedCardFormData,
} from '../core/hosted-card-form.js';
import { formatMessage, type MessageParams, schemeNameKey } from '../core/i18n.js';
import { SCHEME_MARKS } from '../core/scheme-marks.js';
import { type CardValues, cardErrors, schemeError } from './card-checks.js';
import { CARD_FORMATS } from './card-formats.js';
import { reformat } from './caret.js';
import type { KeyedError } from './form-fields.js';
import { currentAlert, removeAlert, showAlert } from './hosted-alert.js';
import { watchDeadline } from './hosted-deadline.js';

type Field = keyof CardValues;
/** The page's texts by key (the data block's), which the frame's card checks take as their translator. */
type PageTexts = (key: string, params?: MessageParams) => string;
const FIELDS: readonly Field[] = ['number', 'expiry', 'cvc', 'holder'];
/** Each field's name and id in the gateway's form. */
const NAMES: Readonly<Record<Field, string>> = {
  number: 'card_number',
  expiry: 'card_expiry',
  cvc: 'card_cvc',
  holder: 'card_holder',
};

/** The card part of the form: checks its fields; undefined when the page has no card fields. */
function enhanceCardFields(
  form: HTMLFormElement,
  data: HostedCardFormData,
  t: PageTexts,
  now: () => number,
): (() => boolean) | undefined {
  const inputs = {} as Record<Field, HTMLInputElement>;
  for (const field of FIELDS) {
    const input = form.elements.namedItem(NAMES[field]);
    if (!(input instanceof HTMLInputElement)) return undefined;
    inputs[field] = input;
  }
  const errorsOf = () =>
    cardErrors(
      {
        number: inputs.number.value,
        expiry: inputs.expiry.value,
        cvc: inputs.cvc.value,
        holder: inputs.holder.value,
      },
      {},
      data.schemes,
      t,
      data.language,
      new Date(now()),
    );
  // The fields that show an error (the gateway's, on a page it answered with errors): checked at each
  // keystroke, so that an error goes as soon as it is fixed.
  const shown = new Set(FIELDS.filter((field) => inputs[field].getAttribute('aria-invalid') === 'true'));

  /** Shows (or, without `error`, removes) a field's error as the gateway renders it. */
  const showError = (field: Field, error: KeyedError | undefined) => {
    const input = inputs[field];
    const id = `${NAMES[field]}-error`;
    const describedBy = (input.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((x) => x && x !== id);
    let paragraph = document.getElementById(id);
    if (error) {
      if (!paragraph) {
        paragraph = document.createElement('p');
        paragraph.className = 'field-error';
        paragraph.id = id;
        input.closest('.field')?.append(paragraph);
      }
      paragraph.textContent = t(error.key, error.params);
      describedBy.push(id);
      input.setAttribute('aria-invalid', 'true');
      shown.add(field);
    } else {
      paragraph?.remove();
      input.removeAttribute('aria-invalid');
      shown.delete(field);
      // A fixed field leaves the alert's list; the alert goes with its last entry.
      const alert = currentAlert();
      alert?.querySelector(`a[href="#${NAMES[field]}"]`)?.parentElement?.remove();
      if (alert?.querySelector('ul:empty')) removeAlert();
    }
    if (describedBy.length > 0) input.setAttribute('aria-describedby', describedBy.join(' '));
    else input.removeAttribute('aria-describedby');
  };

  // The typed number's scheme, named, in place of the marks of the schemes taken (the server's, hidden from
  // assistive technology), and a line that reads the scheme out once it is known.
  const accepted = inputs.number.parentElement?.querySelector<HTMLElement>('.scheme-marks');
  const mark = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  for (const [name, value] of Object.entries({
    viewBox: '0 0 32 20',
    width: '32',
    height: '20',
    focusable: 'false',
    role: 'img',
  }))
    mark.setAttribute(name, value);
  const announcer = document.createElement('p');
  announcer.className = 'visually-hidden';
  announcer.setAttribute('role', 'status');
  inputs.number.closest('fieldset')?.append(announcer);
  let scheme: CardScheme = 'UNKNOWN';
  const showScheme = (refusal: KeyedError | undefined, announce = true) => {
    const next = cardSchemeOf(inputs.number.value);
    if (next === scheme) return;
    scheme = next;
    if (accepted) accepted.hidden = next !== 'UNKNOWN';
    if (next === 'UNKNOWN') {
      mark.remove();
      return;
    }
    const name = t(schemeNameKey(next));
    mark.innerHTML = SCHEME_MARKS[next];
    mark.setAttribute('aria-label', name);
    inputs.number.after(mark);
    if (!announce) return;
    const detected = t('card.scheme.detected', { scheme: name });
    announcer.textContent = refusal ? `${detected}. ${t(refusal.key, refusal.params)}` : detected;
  };
  // A number the browser kept (back, reload) shows its scheme without being read out.
  showScheme(undefined, false);

  let pressing = false;
  addEventListener('pointerdown', () => (pressing = true), true);
  for (const type of ['pointerup', 'pointercancel']) addEventListener(type, () => (pressing = false), true);
  for (const field of FIELDS) {
    const input = inputs[field];
    input.addEventListener('input', () => {
      reformat(input, CARD_FORMATS[field](input.value));
      // A scheme the Purchase does not take shows from the number's first digits, as in the frame.
      const byScheme =
        field === 'number' ? schemeError(input.value, {}, data.schemes, t, data.language) : undefined;
      if (byScheme || shown.has(field)) showError(field, byScheme ?? errorsOf()[field]);
      if (field !== 'number') return;
      // The CVC's length depends on the scheme.
      if (shown.has('cvc')) showError('cvc', errorsOf().cvc);
      showScheme(byScheme);
    });
    // Leaving a field the customer filled in shows what is wrong with it. During a press (mouse, touch,
    // pen) it shows once the press ends: shown at once, it would push what is pressed (Pay) away between
    // press and release, and the click would be lost.
    input.addEventListener('change', () => {
      const show = () => {
        if (input.value.trim() !== '') showError(field, errorsOf()[field]);
      };
      if (pressing) addEventListener('pointerup', () => setTimeout(show), { once: true });
      else show();
    });
  }

  return () => {
    const errors = errorsOf();
    for (const field of FIELDS) showError(field, errors[field]);
    const wrong = FIELDS.filter((field) => errors[field]);
    const [first] = wrong;
    if (!first) return true;
    const list = document.createElement('ul');
    for (const field of wrong) {
      const link = document.createElement('a');
      link.href = `#${NAMES[field]}`;
      const error = errors[field]!;
      link.textContent = t(error.key, error.params);
      const item = document.createElement('li');
      item.append(link);
      list.append(item);
    }
    showAlert(t('errors.title'), list);
    inputs[first].focus();
    return false;
  };
}

function start(form: HTMLFormElement, data: HostedCardFormData): void {
  // The gateway's clock, as it stood when it wrote the page, moved on by the browser's.
  const offset = data.now - Date.now();
  const now = () => Date.now() + offset;
  const t: PageTexts = (key, params) => formatMessage(data.texts[key] ?? key, params);
  const due = Number(form.getAttribute(HOSTED_DUE_ATTRIBUTE) ?? Number.NaN);
  const deadline = Number.isFinite(due) ? watchDeadline(form, due * 1000, data.language, t, now) : undefined;
  const checkCard = enhanceCardFields(form, data, t, now);
  form.addEventListener('submit', (event) => {
    if (deadline?.passed()) {
      event.preventDefault();
      deadline.showExpired();
    } else if (checkCard && new FormData(form, event.submitter).get('method') === 'card' && !checkCard()) {
      event.preventDefault();
    }
  });
}

const block = document.getElementById(HOSTED_CARD_FORM_DATA_ID);
const form = block?.closest('form');
if (block && form) start(form, JSON.parse(block.textContent ?? '') as HostedCardFormData);
