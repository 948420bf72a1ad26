/**
 * What a merchant checks before fulfilling a paid order. A purchase notification whose signature verified is
 * the gateway's word on what was paid, but not proof that it was the order the merchant signed: the order
 * signature joins its fields with no separator (as the real service defines it, so it cannot change on the
 * wire), and a page can re-split them. Label `Tea` with count `2` and label `Tea2` with no count sign the same
 * text, and the second costs half. {@link verifyPaidOrder} prices the order the merchant signed with core's
 * `priceOrder`, the same computation the gateway uses, and compares the notification with it line by line.
 *
 * The notification is read as the real service's order model writes it: money, quantities and tax rates are
 * JSON numbers (a tax rate a fraction, `0.21`), and an item's `amount` is its net unit price.
 */
import { divideRoundHalfUp, parseDecimal } from '../../core/decimal.js';
import type { PurchaseNotification } from '../../core/legacy-callbacks.js';
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../../core/money.js';
import {
  type DecimalInput,
  type Order,
  type OrderInput,
  parseOrder,
  parseTaxRate,
  type TaxRate,
} from '../../core/order.js';
import { isPlainObject } from '../../core/plain-object.js';
import { addsShippingLine, type ChosenShipping, type PricedLine, priceOrder } from '../../core/totals.js';
import { checkOptions, isText, type OptionRules, required } from '../options.js';
import { isNotificationNumber } from './notifications.js';

/** The merchant's defaults from the widget configuration, as the gateway fills them into an order. */
export interface PaidOrderDefaults {
  /** Used where no item or shipping option names a currency: `EUR`. */
  currency: string;
  /** Used where an item (or shipping option) names no tax rate: `0.21` or `21`. */
  taxRate: DecimalInput;
}

/** The order as the merchant signed it, and what the gateway adds to price it. */
export interface ExpectedPaidOrder {
  /** The order exactly as it was given to `signOrder` (or, for a fixed-price widget, its fixed order). */
  order: OrderInput;
  defaults: PaidOrderDefaults;
}

/** Why a notification does not show the order the merchant signed, paid. */
export type PaidOrderMismatchCode =
  /** `status` is not `PAID`: nothing was paid (yet). */
  | 'not_paid'
  /** `order_id` is not the signed order's `orderId`: the notification is about another order. */
  | 'order_id_mismatch'
  | 'currency_mismatch'
  /** `total_amount` differs: the customer paid another amount. */
  | 'total_mismatch'
  /** `tax_amount` differs (a shipping option's tax rate is not signed, so a page can change it). */
  | 'tax_mismatch'
  /** The notification has more or fewer item lines than the signed order. */
  | 'item_count_mismatch'
  /** One item line differs: label, quantity, unit, amounts, tax rate or item id. */
  | 'item_mismatch'
  /** The shipping line is missing, extra, not one of the signed options, or priced otherwise. */
  | 'shipping_mismatch'
  /** A member the check reads is missing or not what the notification format says. */
  | 'malformed_notification';

/** The outcome of {@link verifyPaidOrder}. */
export type PaidOrderVerification =
  | {
      ok: true;
      /** The merchant's order id (`order_id`), as signed. */
      orderId: string | null;
      /** The gateway's order id (`id`). */
      gatewayOrderId: string;
      currency: string;
      /** What was paid, with 2 decimals: `25.00`. */
      totalAmount: string;
      /** The chosen shipping option's id, or null for an order without shipping. */
      shippingOptionId: string | null;
    }
  | {
      ok: false;
      code: PaidOrderMismatchCode;
      /** What differs, with both values: for the merchant's log and whoever looks into it. */
      message: string;
      /** The notification's member at fault, as a path: `total_amount`, `items[0].label`, `shipping.method.id`. */
      field: string;
    };

type Mismatch = Extract<PaidOrderVerification, { ok: false }>;

const EXPECTED_RULES: OptionRules<ExpectedPaidOrder> = {
  order: required(
    'the order object given to signOrder',
    (value) => typeof value === 'object' && value !== null,
  ),
  defaults: required(
    "the widget configuration's defaults, { currency, taxRate }",
    (value) => typeof value === 'object' && value !== null,
  ),
};

const DEFAULTS_RULES: OptionRules<PaidOrderDefaults> = {
  currency: required(
    'an ISO 4217 code such as EUR',
    (value) => isText(value) && /^[A-Z]{3}$/.test(String(value)),
  ),
  taxRate: required(
    'a tax rate such as 0.21 or 21',
    (value) => typeof value === 'number' || typeof value === 'string',
  ),
};

const OWNER = 'verifyPaidOrder';

function mismatch(code: PaidOrderMismatchCode, field: string, message: string): Mismatch {
  return { ok: false, code, field, message: `${field}: ${message}` };
}

/** A member as the message shows it. */
function shown(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * A notification number (the rule of `isNotificationNumber`) read exactly by its decimal text (`72.73`, never
 * a float sum), or undefined.
 */
function decimalNumber(value: unknown): ReturnType<typeof parseDecimal> {
  return isNotificationNumber(value) ? parseDecimal(value) : undefined;
}

/**
 * The notification's values read exactly as the format writes them: amounts and quantities as JSON numbers
 * (`88`, `72.73`, `1`), a tax rate as a fraction (`0.21`). A decimal string is not the format, so it is
 * refused. Each reader returns the value, or the mismatch that says the member is unreadable.
 */
const read = {
  money(value: unknown, field: string): MinorUnits | Mismatch {
    const decimal = decimalNumber(value);
    if (!decimal || decimal.scale > 2) {
      return mismatch(
        'malformed_notification',
        field,
        `${shown(value)} is not an amount: a JSON number with at most 2 decimals`,
      );
    }
    return parseMinorUnits(decimal.text);
  },
  quantity(value: unknown, field: string): number | Mismatch {
    const decimal = decimalNumber(value);
    if (!decimal || decimal.scale > 3 || decimal.units <= 0n) {
      return mismatch(
        'malformed_notification',
        field,
        `${shown(value)} is not a quantity: a JSON number above 0 with at most 3 decimals`,
      );
    }
    return Number(decimal.units * 10n ** BigInt(3 - decimal.scale));
  },
  taxRate(value: unknown, field: string): TaxRate | Mismatch {
    const decimal = decimalNumber(value);
    // A fraction: 21% is 0.21. A number above 1 would read as a percentage elsewhere, so it is refused.
    if (!decimal || decimal.units < 0n || decimal.units > 10n ** BigInt(decimal.scale)) {
      return mismatch(
        'malformed_notification',
        field,
        `${shown(value)} is not a tax rate: a JSON number from 0 to 1, such as 0.21`,
      );
    }
    try {
      return parseTaxRate(value, field);
    } catch {
      return mismatch('malformed_notification', field, `${shown(value)} has more than 6 decimals`);
    }
  },
};

function failed<T>(value: T | Mismatch): value is Mismatch {
  return isPlainObject(value) && value['ok'] === false;
}

/**
 * The item's `amount` agrees with the line: it is the net unit price, `(total_amount - tax_amount) /
 * quantity`, derived from members already compared with the signed order, so it pins no money of its own.
 * It is taken rounded to the cent either way (the gateway rounds half up; 72.73 for a gross 88.00 at 0.21),
 * so that another rounding of the same price is not a refused payment, while any other amount is.
 */
function unitAmountAgrees(amount: MinorUnits, line: PricedLine): boolean {
  const count = BigInt(line.count.thousandths);
  // |amount - (total - tax) / quantity| < 1 cent, multiplied through by the count in thousandths.
  const gap = BigInt(amount) * count - BigInt(line.total - line.tax) * 1000n;
  return gap < count && -gap < count;
}

/** Compares one notified line with the line the signed order prices to; undefined when they agree. */
function compareLine(raw: Record<string, unknown>, line: PricedLine, path: string): Mismatch | undefined {
  const code = line.type === 'SHIPPING' ? 'shipping_mismatch' : 'item_mismatch';
  const differs = (member: string, notified: unknown, signed: unknown) =>
    mismatch(
      code,
      `${path}.${member}`,
      `the notification says ${shown(notified)}, the signed order ${shown(signed)}`,
    );

  // A shipping option's label is our unsigned extension; its id is compared through shipping.method.id.
  if (line.type === 'ITEM' && raw['label'] !== line.label) return differs('label', raw['label'], line.label);
  const quantity = read.quantity(raw['quantity'], `${path}.quantity`);
  if (failed(quantity)) return quantity;
  if (quantity !== line.count.thousandths) return differs('quantity', raw['quantity'], line.count.text);
  if (raw['unit'] !== undefined && raw['unit'] !== line.unit) return differs('unit', raw['unit'], line.unit);
  const rate = read.taxRate(raw['tax_rate'], `${path}.tax_rate`);
  if (failed(rate)) return rate;
  if (rate.ppm !== line.taxRate.ppm) return differs('tax_rate', raw['tax_rate'], line.taxRate.text);
  for (const [member, expected] of [
    ['total_amount', line.total],
    ['tax_amount', line.tax],
  ] as const) {
    const amount = read.money(raw[member], `${path}.${member}`);
    if (failed(amount)) return amount;
    if (amount !== expected) return differs(member, raw[member], formatMinorUnits(expected));
  }
  const unitAmount = read.money(raw['amount'], `${path}.amount`);
  if (failed(unitAmount)) return unitAmount;
  if (!unitAmountAgrees(unitAmount, line)) {
    const net = divideRoundHalfUp(BigInt(line.total - line.tax) * 1000n, BigInt(line.count.thousandths));
    return differs('amount', raw['amount'], `${formatMinorUnits(Number(net))} net per unit`);
  }
  if (line.type === 'ITEM') {
    const itemId = raw['order_item_id'] ?? null;
    if (itemId !== (line.orderItemId ?? null))
      return differs('order_item_id', itemId, line.orderItemId ?? null);
  }
  return undefined;
}

/** The shipping the notification names, checked against the signed order's options; or why not. */
function chosenShipping(
  body: Record<string, unknown>,
  order: Order,
  lines: ReadonlyArray<{ raw: Record<string, unknown>; index: number }>,
): { shipping: ChosenShipping | undefined } | Mismatch {
  const offered = order.shippingOptions.map((option) => option.id);
  if (lines.length > 1) {
    return mismatch(
      'shipping_mismatch',
      `items[${lines[1]!.index}].type`,
      'the notification has more than one SHIPPING line',
    );
  }
  const method = isPlainObject(body['shipping']) ? body['shipping']['method'] : undefined;
  const id = isPlainObject(method) ? method['id'] : undefined;
  const option = order.shippingOptions.find((candidate) => candidate.id === id);
  const [line] = lines;
  if (!line) {
    if (offered.length === 0) return { shipping: undefined };
    // Chosen, an option that adds no line when free was free (priced later, its price is not in the order).
    if (option && !addsShippingLine(option, option.amount ?? 0)) {
      return { shipping: { id: option.id, amount: 0 } };
    }
    // The gateway takes no payment without a shipping choice when the order offers any.
    return mismatch(
      'shipping_mismatch',
      'items',
      `no SHIPPING line, but the signed order offers ${offered.join(', ')} (none of them free and excludeFromOrderIfFree as chosen)`,
    );
  }
  const path = `items[${line.index}]`;
  if (typeof id !== 'string') {
    return mismatch(
      'malformed_notification',
      'shipping.method.id',
      'a SHIPPING line needs the chosen option in shipping.method',
    );
  }
  if (!option) {
    const choices = offered.length > 0 ? `offers only ${offered.join(', ')}` : 'offers no shipping';
    return mismatch(
      'shipping_mismatch',
      'shipping.method.id',
      `${shown(id)} is not a shipping option of the signed order, which ${choices}`,
    );
  }
  if (option.amount !== undefined) return { shipping: { id } };
  // Priced later by the merchant's shipping cost URL: the notified price is the quote, taken as it is.
  const amount = read.money(line.raw['total_amount'], `${path}.total_amount`);
  if (failed(amount)) return amount;
  const taxRate = read.taxRate(line.raw['tax_rate'], `${path}.tax_rate`);
  if (failed(taxRate)) return taxRate;
  return { shipping: { id, amount, taxRate } };
}

/**
 * Checks a verified purchase notification against the order the merchant signed: that it is `PAID`, for this
 * `order_id`, in the currency, with the total and tax, and with every item (label, quantity, unit, total, tax,
 * tax rate, item id) and the shipping line (one of the signed options, at its signed price when the order gave
 * one; none for a free option marked `excludeFromOrderIfFree`, named in `shipping.method`) that the order prices
 * to with `priceOrder`, the gateway's own computation. Fulfil only on `ok: true`.
 *
 * Lines are compared by their totals, tax, quantities and rates, which pin the money. An item's `amount` is the
 * net unit price derived from them (`(total_amount - tax_amount) / quantity`); it is checked to agree with
 * them to the cent, however it was rounded, not compared with the signed gross unit price. `amount` and
 * `effective_amount` of the order are derived too and not compared. Money, quantities and tax rates must be
 * JSON numbers, the tax rate a fraction (`0.21`): anything else is `malformed_notification`.
 *
 * Run it after `constructPurchaseNotification`: the signature says the gateway sent this; this check says it is
 * what you sold. A shipping option without an amount is priced by your shipping cost URL, so its notified price
 * is taken as quoted (check it against your quote if you keep one). Legacy notifications carry no timestamp, so
 * a repeated delivery verifies again: the order's state in your records (paid once) is the defence.
 *
 * @example
 * ```ts
 * const defaults = { currency: 'EUR', taxRate: 0.21 }; // your widget configuration's
 * const result = verifyPaidOrder(notification, { order: signedOrder, defaults });
 * if (result.ok) await markPaid(result.orderId, result.totalAmount);
 * else log.warn(`not fulfilled: ${result.code} ${result.message}`);
 * ```
 * @throws TypeError naming the member when `expected` is not `{ order, defaults: { currency, taxRate } }`.
 * @throws OrderValidationError when the expected order or the default tax rate is not valid: it was never
 *   signable, so the mistake is in the caller's records.
 */
export function verifyPaidOrder(
  notification: PurchaseNotification,
  expected: ExpectedPaidOrder,
): PaidOrderVerification {
  checkOptions(OWNER, expected, EXPECTED_RULES);
  checkOptions(`${OWNER}: defaults`, expected.defaults, DEFAULTS_RULES);
  const { value: order, error } = parseOrder(expected.order);
  if (error) throw error;
  const defaults = {
    currency: expected.defaults.currency,
    taxRate: parseTaxRate(expected.defaults.taxRate, 'defaults.taxRate'),
  };
  // Read as the JSON it came as: the format's types are what the gateway promises, not what arrived.
  const body: unknown = notification;
  if (!isPlainObject(body)) return mismatch('malformed_notification', 'notification', 'is not an object');
  const gatewayOrderId = body['id'];
  if (typeof gatewayOrderId !== 'string') {
    return mismatch('malformed_notification', 'id', "is not the gateway's order id");
  }

  if (body['status'] !== 'PAID') {
    return mismatch('not_paid', 'status', `is ${shown(body['status'])}, not PAID: nothing was paid`);
  }
  const orderId = order.input.orderId ?? null;
  if ((body['order_id'] ?? null) !== orderId) {
    return mismatch(
      'order_id_mismatch',
      'order_id',
      `the notification is for ${shown(body['order_id'])}, the signed order is ${shown(orderId)}`,
    );
  }
  const items = body['items'];
  if (!Array.isArray(items)) return mismatch('malformed_notification', 'items', 'is not a list of lines');
  const notified: Array<{ raw: Record<string, unknown>; index: number }> = [];
  for (const [index, raw] of items.entries()) {
    if (!isPlainObject(raw)) return mismatch('malformed_notification', `items[${index}]`, 'is not an object');
    notified.push({ raw, index });
  }
  const shippingLines = notified.filter((line) => line.raw['type'] === 'SHIPPING');
  const itemLines = notified.filter((line) => line.raw['type'] !== 'SHIPPING');

  const choice = chosenShipping(body, order, shippingLines);
  if (failed(choice)) return choice;
  const priced = priceOrder(order, defaults, choice.shipping);

  if (body['currency'] !== priced.currency) {
    return mismatch(
      'currency_mismatch',
      'currency',
      `the notification says ${shown(body['currency'])}, the signed order ${priced.currency}`,
    );
  }
  const total = read.money(body['total_amount'], 'total_amount');
  if (failed(total)) return total;
  if (total !== priced.total) {
    return mismatch(
      'total_mismatch',
      'total_amount',
      `${formatMinorUnits(total)} was paid, but the signed order comes to ${formatMinorUnits(priced.total)}: the order was altered before payment; do not fulfil it`,
    );
  }
  const tax = read.money(body['tax_amount'], 'tax_amount');
  if (failed(tax)) return tax;
  if (tax !== priced.tax) {
    return mismatch(
      'tax_mismatch',
      'tax_amount',
      `the notification says ${formatMinorUnits(tax)}, the signed order ${formatMinorUnits(priced.tax)}`,
    );
  }

  const pricedItems = priced.lines.filter((line) => line.type === 'ITEM');
  if (itemLines.length !== pricedItems.length) {
    return mismatch(
      'item_count_mismatch',
      'items',
      `the notification has ${itemLines.length} item lines, the signed order ${pricedItems.length}`,
    );
  }
  for (const [position, line] of itemLines.entries()) {
    const problem = compareLine(line.raw, pricedItems[position]!, `items[${line.index}]`);
    if (problem) return problem;
  }
  const pricedShipping = priced.lines.find((line) => line.type === 'SHIPPING');
  const [shippingLine] = shippingLines;
  if (shippingLine && !pricedShipping) {
    return mismatch(
      'shipping_mismatch',
      `items[${shippingLine.index}]`,
      `a SHIPPING line for ${shown(choice.shipping?.id)}, which the signed order marks excludeFromOrderIfFree and prices at 0`,
    );
  }
  if (pricedShipping && shippingLine) {
    const problem = compareLine(shippingLine.raw, pricedShipping, `items[${shippingLine.index}]`);
    if (problem) return problem;
  }
  return {
    ok: true,
    orderId,
    gatewayOrderId,
    currency: priced.currency,
    totalAmount: formatMinorUnits(priced.total),
    shippingOptionId: choice.shipping?.id ?? null,
  };
}
