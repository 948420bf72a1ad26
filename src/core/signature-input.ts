/**
 * The canonical input of the widget order signature, one implementation for the element, the server
 * toolkit and the sandbox (ARCHITECTURE.md, "Order signature"). It is the real service's, as its official
 * PHP client (klix-app/merchant-api-php, `Klix\Widget\*::toSignatureSource`) and its documentation's worked
 * examples compute it.
 */
import { parseDecimal, toScale } from './decimal.js';
import { formatMinorUnits, parseMinorUnits } from './money.js';
import { type OrderInput, parseOrder } from './order.js';

export interface SignatureInputOptions {
  /**
   * How counts are written: `three-decimals` (`2.000`, the official client's `%.3f` and the documentation's
   * prose; the default) or `as-given` (`2`, as the documentation's worked example writes it, whose published
   * signature verifies only so). The sandbox and `verifyOrderSignature` accept either.
   */
  countForm?: 'three-decimals' | 'as-given';
  /**
   * The order of an item's fields after its label: `client` (count, unit, tax rate, item id: the official
   * client's, and the default) or `document` (tax rate, item id, count, unit: the legacy documentation's
   * multi-item order). They differ only for an item with both a count or unit and a tax rate or item id. The
   * sandbox and `verifyOrderSignature` accept either.
   */
  itemFieldOrder?: 'client' | 'document';
}

/** A field's text, or nothing when the merchant gave no value: absent fields are left out, not written empty. */
function given(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}

/** `%.2f` of an amount: amounts have at most 2 places, so this is exact. */
function amount(value: unknown): string {
  return value === undefined || value === null || value === ''
    ? ''
    : formatMinorUnits(parseMinorUnits(value));
}

/**
 * A count as given, or `%.3f` of its number: exactly 3 places (counts have at most 3, so nothing is rounded) and
 * no leading zeros, as PHP writes `sprintf('%.3f', '02')`: `2.000`.
 */
function count(value: unknown, form: 'three-decimals' | 'as-given'): string {
  const decimal = value === undefined || value === null || value === '' ? undefined : parseDecimal(value);
  if (!decimal) return '';
  if (form === 'as-given') return decimal.text;
  const thousandths = toScale(decimal, 3);
  return `${thousandths / 1000n}.${String(thousandths % 1000n).padStart(3, '0')}`;
}

/**
 * `%.2f` of a tax rate as given (`0.21` → `0.21`, `21` → `21.00`). A rate with more than 2 places is written
 * as the official client writes it, PHP's `sprintf('%.2f', $rate)` of a float: the binary double nearest to
 * the rate, rounded to the nearest hundredth, an exact tie to the even digit. So `0.055` gives `0.06` (its
 * double is just above 0.055) but `0.075` gives `0.07` (its double is just below), and `0.125` (exact in
 * binary) gives `0.12`. Exact decimal rounding would give `0.08` for `0.075`, which the client never signs.
 */
function taxRate(value: unknown): string {
  const rate = value === undefined || value === null || value === '' ? undefined : parseDecimal(value);
  if (!rate) return '';
  if (rate.scale <= 2) return formatMinorUnits(Number(rate.units * 10n ** BigInt(2 - rate.scale)));
  // The double's exact value is mantissa / 2^shift. Rates are at most 100, far below 2^52, so shift > 0.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Number(rate.text));
  const bits = view.getBigUint64(0);
  const exponent = Number(bits >> 52n); // the sign bit is 0: a rate is never negative
  const mantissa = (bits & (2n ** 52n - 1n)) | (exponent > 0 ? 2n ** 52n : 0n);
  const divisor = 2n ** BigInt(1075 - Math.max(exponent, 1));
  const scaled = mantissa * 100n;
  const rest = 2n * (scaled % divisor);
  const hundredths = scaled / divisor;
  const up = rest > divisor || (rest === divisor && hundredths % 2n === 1n);
  return formatMinorUnits(Number(up ? hundredths + 1n : hundredths));
}

/**
 * The string the merchant signs, the given fields joined with no separator, in this order: widget id,
 * language, certificate name, success redirect URL, back-to-merchant URL, order id; then per item amount,
 * currency, label, count, unit, tax rate, item id (or tax rate, item id, count, unit, see
 * {@link SignatureInputOptions}); then per shipping option id, amount, currency; then the constraints payment
 * scheme, issuer, brand. Amounts `%.2f`, counts `%.3f` (or as given), tax rates `%.2f` of the value as given.
 * A shipping option's tax rate, and our unsigned extension's `label` and `type`, are not part of it. Only what
 * the merchant gave is written: defaults filled in later are not part of it.
 * @throws OrderValidationError when the order is invalid, so nobody signs an order the gateway would refuse.
 */
export function orderSignatureInput(order: OrderInput, options: SignatureInputOptions = {}): string {
  const { error } = parseOrder(order);
  if (error) throw error;
  return signatureText(order, options);
}

/**
 * Every text a signature of `order` may be over, with counts in each of `countForms` and each item's fields
 * in each of `itemFieldOrders` ({@link orderSignatureInput}), each text once (most orders write the same text
 * in several forms). The order is checked once.
 * @throws OrderValidationError when the order is invalid.
 */
export function orderSignatureInputs(
  order: OrderInput,
  countForms: ReadonlyArray<SignatureInputOptions['countForm']>,
  itemFieldOrders: ReadonlyArray<SignatureInputOptions['itemFieldOrder']>,
): Set<string> {
  const { error } = parseOrder(order);
  if (error) throw error;
  const texts = new Set<string>();
  for (const itemFieldOrder of itemFieldOrders)
    for (const countForm of countForms) texts.add(signatureText(order, { countForm, itemFieldOrder }));
  return texts;
}

/** {@link orderSignatureInput} of an order already checked. */
function signatureText(order: OrderInput, options: SignatureInputOptions): string {
  const countForm = options.countForm ?? 'three-decimals';
  const documentOrder = options.itemFieldOrder === 'document';
  const parts = [
    given(order.widgetId),
    given(order.language),
    given(order.certificateName),
    given(order.successRedirectUrl),
    given(order.backToMerchantUrl),
    given(order.orderId),
  ];
  for (const item of order.items ?? []) {
    const quantity = [count(item.count, countForm), given(item.unit)];
    const tax = [taxRate(item.taxRate), given(item.orderItemId)];
    parts.push(
      amount(item.amount),
      given(item.currency),
      given(item.label),
      ...(documentOrder ? [...tax, ...quantity] : [...quantity, ...tax]),
    );
  }
  for (const option of order.shippingOptions ?? []) {
    parts.push(given(option.id), amount(option.amount), given(option.currency));
  }
  const { paymentScheme, issuer, brand } = order.constraints ?? {};
  parts.push(given(paymentScheme), given(issuer), given(brand));
  return parts.join('');
}
