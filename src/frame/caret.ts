/**
 * Where the caret belongs after a field reformats its text while the customer types: after the same number
 * of digits as before, so inserting or deleting inside a card number does not throw the caret to the end.
 */

/** The position just after the `digits`-th digit of `text` (0 gives the start). */
export function caretAfterDigits(text: string, digits: number): number {
  if (digits <= 0) return 0;
  let seen = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57 && ++seen === digits) return index + 1;
  }
  return text.length;
}

/** The number of digits before `position` in `text`. */
export function digitsBefore(text: string, position: number): number {
  return text.slice(0, position).replace(/\D/g, '').length;
}

/**
 * Writes `formatted` into `input` and puts the caret after as many digits as were before it. Only when the
 * caret was not at the end: typing at the end, the usual case, leaves the browser's caret alone.
 */
export function reformat(input: HTMLInputElement, formatted: string): void {
  const raw = input.value;
  if (raw === formatted) return;
  const position = input.selectionStart ?? raw.length;
  const atEnd = position >= raw.length;
  input.value = formatted;
  if (!atEnd && document.activeElement === input) {
    const caret = caretAfterDigits(formatted, digitsBefore(raw, position));
    input.setSelectionRange(caret, caret);
  }
}
