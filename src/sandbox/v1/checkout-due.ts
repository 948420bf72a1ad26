/**
 * The deadline of a `due_strict` Purchase on the hosted page (WCAG 2.2.1): the form states it in its own HTML,
 * the clock time and the time left in the page's language, so it reads without script. For the page's card
 * script, the form carries the deadline as `data-due` (Unix seconds, as the Purchase's `due`) and the
 * sentence is `<p id="due-note">`, which the script may rewrite as the time runs out.
 */
import { HOSTED_DUE_ATTRIBUTE, HOSTED_DUE_NOTE_ID } from '../../core/hosted-card-form.js';
import { localeFor } from '../../core/i18n.js';
import { escapeHtml } from '../http.js';
import type { PageContext } from './checkout-page.js';

/** The Purchase's strict deadline in Unix seconds, or undefined when it has none. */
export function strictDue(context: PageContext): number | undefined {
  const { purchase } = context.record;
  return purchase.purchase.due_strict && purchase.due !== null ? purchase.due : undefined;
}

/**
 * The deadline's clock time in the page's language. The server cannot know the customer's time zone, so it
 * writes the sandbox's own and names it; a deadline more than 12 hours away (ahead, or past) also gets its
 * date.
 */
export function dueClockTime(context: PageContext, due: number): string {
  const far = Math.abs(due - context.nowSeconds) > 12 * 3600;
  return new Intl.DateTimeFormat(localeFor(context.language), {
    ...(far && { day: 'numeric', month: 'long' }),
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(due * 1000));
}

/** The time left, as "in 14 minutes" in the page's language; rounded down, so it never promises more. */
function timeLeft(context: PageContext, due: number): string {
  const seconds = Math.max(0, due - context.nowSeconds);
  const format = new Intl.RelativeTimeFormat(localeFor(context.language), { numeric: 'always' });
  if (seconds < 60) return format.format(seconds, 'second');
  if (seconds < 120 * 60) return format.format(Math.floor(seconds / 60), 'minute');
  if (seconds < 48 * 3600) return format.format(Math.floor(seconds / 3600), 'hour');
  return format.format(Math.floor(seconds / 86_400), 'day');
}

/** The form's attribute that carries the deadline, with its leading space; empty without a deadline. */
export function dueAttribute(context: PageContext): string {
  const due = strictDue(context);
  return due === undefined ? '' : ` ${HOSTED_DUE_ATTRIBUTE}="${due}"`;
}

/** The sentence that states the deadline; empty without one. */
export function dueNote(context: PageContext): string {
  const due = strictDue(context);
  if (due === undefined) return '';
  const sentence = context.t('due.note', { time: dueClockTime(context, due), left: timeLeft(context, due) });
  return `<p class="due" id="${HOSTED_DUE_NOTE_ID}">${escapeHtml(sentence)}</p>`;
}
