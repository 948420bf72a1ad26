/**
 * A `due_strict` Purchase's deadline on the hosted checkout page (WCAG 2.2.1): the time left, shown as it
 * runs; a warning in a polite live region at 2 minutes and at 30 seconds before the end; once it has passed,
 * the page says so and sends nothing, and the form keeps what was typed.
 */
import { HOSTED_DUE_NOTE_ID } from '../core/hosted-card-form.js';
import type { Language, MessageParams } from '../core/i18n.js';
import { showAlert } from './hosted-alert.js';

/** Seconds before the deadline at which the customer is warned. */
const WARNINGS = [120, 30] as const;

export interface Deadline {
  /** Whether the deadline has passed: the gateway would refuse the payment. */
  passed(): boolean;
  /** Says in the page's alert that the time ran out and what the customer can do. */
  showExpired(): void;
}

/** `90` as `1:30`, `3725` as `1:02:05`. */
function clockText(seconds: number): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const minutes = Math.floor(seconds / 60);
  return minutes >= 60
    ? `${Math.floor(minutes / 60)}:${pad(minutes % 60)}:${pad(seconds % 60)}`
    : `${minutes}:${pad(seconds % 60)}`;
}

/** `120` as "2 minutes", `30` as "30 seconds", in the page's language. */
function durationText(seconds: number, language: string): string {
  const [value, unit] = seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/**
 * Shows the time left to `due` (Unix ms) above the form's submit button and warns as it runs out. `now`: the
 * gateway's clock, in Unix ms.
 */
export function watchDeadline(
  form: HTMLFormElement,
  due: number,
  language: Language,
  text: (key: string, params?: MessageParams) => string,
  now: () => number,
): Deadline {
  const left = document.createElement('p');
  left.className = 'note';
  left.id = 'due-left';
  const warning = document.createElement('p');
  warning.className = 'due-warning';
  warning.setAttribute('role', 'status');
  // Beside the gateway's sentence that states the deadline, else above the submit button.
  const note = document.getElementById(HOSTED_DUE_NOTE_ID);
  if (note) note.after(left, warning);
  else (form.querySelector('[type="submit"]') ?? form.lastChild)?.before(left, warning);

  const secondsLeft = () => Math.max(0, Math.ceil((due - now()) / 1000));
  // A warning whose moment passed before the page opened is not given late: the page's statement says the time.
  const pending: number[] = WARNINGS.filter((at) => at < secondsLeft());
  const tick = () => {
    const seconds = secondsLeft();
    left.textContent = text('due.left', { time: clockText(seconds) });
    if (seconds === 0) {
      clearInterval(timer);
      warning.textContent = `${text('due.expired.title')}. ${text('due.expired.text')}`;
      return;
    }
    const reached = pending.filter((at) => seconds <= at);
    if (reached.length === 0) return;
    pending.splice(0, reached.length);
    warning.textContent = text('due.warning', { time: durationText(Math.min(...reached), language) });
  };
  const timer = setInterval(tick, 1000);
  tick();

  return {
    passed: () => now() > due,
    showExpired() {
      const body = document.createElement('p');
      body.textContent = text('due.expired.text');
      const back = document.querySelector<HTMLAnchorElement>('a.back');
      const content = document.createDocumentFragment();
      content.append(body);
      if (back) {
        const link = back.cloneNode(true) as HTMLAnchorElement;
        const line = document.createElement('p');
        line.append(link);
        content.append(line);
      }
      showAlert(text('due.expired.title'), content);
    },
  };
}
