/**
 * What the shop's pages share in writing out what its back end knows: table cells, and where a v1 event came
 * from. Amounts in cents are written by `money` of demo/merchant/v1-cart.ts, which the back end's messages use too.
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
