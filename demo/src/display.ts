/**
 * What the shop's pages share in writing out what its back end knows: table cells, amounts in cents, and
 * where a v1 event came from.
 */
import type { V1ReceivedEvent } from '../merchant/v1-event-log.js';

/** Where a v1 event came from, as the tables name it. */
export const V1_SOURCE_NAMES: Record<V1ReceivedEvent['source'], string> = {
  success_callback: 'Success callback',
  webhook: 'Webhook',
};

/** A table cell; a header cell labels its row. */
export function cell(text: string, header = false): HTMLTableCellElement {
  const element = document.createElement(header ? 'th' : 'td');
  if (header) element.setAttribute('scope', 'row');
  element.textContent = text;
  return element;
}

/** An amount in cents, such as `34.90 EUR`. */
export function money(cents: number, currency: string): string {
  return `${(cents / 100).toFixed(2)} ${currency}`;
}
