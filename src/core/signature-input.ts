/**
 * The canonical input of the widget order signature, one implementation for the element, the server
 * toolkit and the sandbox (ARCHITECTURE.md, "Order signature").
 */
import { decimalText } from './decimal.js';
import { formatMinorUnits, parseMinorUnits } from './money.js';
import { type OrderInput, parseOrder } from './order.js';

export interface SignatureInputOptions {
  /**
   * How counts are written: `as-given` (the document's examples, our default) or `three-decimals` (the
   * document's prose: `2.000`). The sandbox accepts either so merchants who followed the prose still pass.
   */
  countForm?: 'as-given' | 'three-decimals';
}

/** A field's text, or nothing when the merchant gave no value: absent fields are left out, not written empty. */
function given(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

function amount(value: unknown): string {
  return value === undefined || value === null || value === ''
    ? ''
    : formatMinorUnits(parseMinorUnits(value));
}

function decimal(value: unknown): string {
  return value === undefined || value === null || value === '' ? '' : (decimalText(value) ?? '');
}

function count(value: unknown, form: 'as-given' | 'three-decimals'): string {
  const text = decimal(value);
  if (text === '' || form === 'as-given') return text;
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(3, '0')}`;
}

/**
 * The string the merchant signs: widget id, language, back-to-merchant URL, order id; then per item amount,
 * currency, label, tax rate, item id, count, unit; then per shipping option id, amount, currency (a shipping
 * option's tax rate, and our unsigned extension's `label` and `type`, are not part of it). Only what the
 * merchant gave is written: defaults filled in later are not part of it.
 * @throws OrderValidationError when the order is invalid, so nobody signs an order the gateway would refuse.
 */
export function orderSignatureInput(order: OrderInput, options: SignatureInputOptions = {}): string {
  const { error } = parseOrder(order);
  if (error) throw error;
  const countForm = options.countForm ?? 'as-given';
  const parts = [
    given(order.widgetId),
    given(order.language),
    given(order.backToMerchantUrl),
    given(order.orderId),
  ];
  for (const item of order.items ?? []) {
    parts.push(
      amount(item.amount),
      given(item.currency),
      given(item.label),
      decimal(item.taxRate),
      given(item.orderItemId),
      count(item.count, countForm),
      given(item.unit),
    );
  }
  for (const option of order.shippingOptions ?? []) {
    parts.push(given(option.id), amount(option.amount), given(option.currency));
  }
  return parts.join('');
}
