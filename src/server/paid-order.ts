/**
 * What a merchant checks before fulfilling a paid order. A purchase notification whose signature verified is
 * the gateway's word on what was paid, but not proof that it was the order the merchant signed: the order
 * signature joins its fields with no separator (as the real service defines it, so it cannot change on the
 * wire), and a page can re-split them. Label `Tea` with count `2` and label `Tea2` with no count sign the same
 * text, and the second costs half. {@link verifyPaidOrder} prices the order the merchant signed with core's
 * `priceOrder`, the same computation the gateway uses, and compares the notification with it line by line.
 */
import { divideRoundHalfUp, parseDecimal } from '../core/decimal.js';
import type { PurchaseNotification } from '../core/legacy-callbacks.js';
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../core/money.js';
import {
  type DecimalInput,
  type Order,
  type OrderInput,
  parseOrder,
  parseTaxRate,
  type TaxRate,
} from '../core/order.js';
import { type ChosenShipping, type PricedLine, priceOrder } from '../core/totals.js';
import { checkOptions, isText, type OptionRules, required } from './options.js';

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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A member as the message shows it. */
function shown(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value);
}

/**
 * The notification's values read exactly, whichever way the format writes them: amounts and quantities as
 * JSON numbers or decimal strings, a tax rate as a fraction or a percentage (`0.21`, `"21"`). Each reader
 * returns the value, or the mismatch that says the member is unreadable.
 */
const read = {
  money(value: unknown, field: string): MinorUnits | Mismatch {
    try {
      return parseMinorUnits(value);
    } catch {
      return mismatch(
        'malformed_notification',
        field,
        `${shown(value)} is not an amount with at most 2 decimals`,
      );
    }
  },
  quantity(value: unknown, field: string): number | Mismatch {
    const decimal = parseDecimal(value);
    if (!decimal || decimal.scale > 3 || decimal.units <= 0n) {
      return mismatch('malformed_notification', field, `${shown(value)} is not a quantity above 0`);
    }
    return Number(decimal.units * 10n ** BigInt(3 - decimal.scale));
  },
  taxRate(value: unknown, field: string): TaxRate | Mismatch {
    try {
      return parseTaxRate(value, field);
    } catch {
      return mismatch('malformed_notification', field, `${shown(value)} is not a tax rate`);
    }
  },
};

function failed<T>(value: T | Mismatch): value is Mismatch {
  return isRecord(value) && value['ok'] === false;
}

/**
 * The item's unit `amount` agrees with the line: today's notifications write the gross unit price as the
 * order gave it; the real service's client reads the net unit price, `(total_amount - tax_amount) / quantity`.
 * Either agrees with a line whose total, tax and quantity were checked already, so either is taken: the
 * money is pinned by those, and a change of the format's convention does not refuse every paid order.
 */
function unitAmountAgrees(amount: MinorUnits, line: PricedLine): boolean {
  if (amount === line.unitAmount) return true;
  const net = divideRoundHalfUp(BigInt(line.total - line.tax) * 1000n, BigInt(line.count.thousandths));
  return BigInt(amount) === net;
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
    return differs('amount', raw['amount'], formatMinorUnits(line.unitAmount));
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
  const [line] = lines;
  if (!line) {
    // The gateway takes no payment without a shipping choice when the order offers any.
    if (offered.length > 0) {
      return mismatch(
        'shipping_mismatch',
        'items',
        `no SHIPPING line, but the signed order offers ${offered.join(', ')}`,
      );
    }
    return { shipping: undefined };
  }
  const path = `items[${line.index}]`;
  const method = isRecord(body['shipping']) ? body['shipping']['method'] : undefined;
  const id = isRecord(method) ? method['id'] : undefined;
  if (typeof id !== 'string') {
    return mismatch(
      'malformed_notification',
      'shipping.method.id',
      'a SHIPPING line needs the chosen option in shipping.method',
    );
  }
  const option = order.shippingOptions.find((candidate) => candidate.id === id);
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
 * `order_id`, in the currency, with the total and tax, and with every item (label, quantity, unit, unit amount,
 * total, tax, tax rate, item id) and the shipping line (one of the signed options, at its signed price when the
 * order gave one) that the order prices to with `priceOrder`, the gateway's own computation. Fulfil only on
 * `ok: true`.
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
  if (!isRecord(body)) return mismatch('malformed_notification', 'notification', 'is not an object');
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
    if (!isRecord(raw)) return mismatch('malformed_notification', `items[${index}]`, 'is not an object');
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
  if (pricedShipping && shippingLines[0]) {
    const problem = compareLine(shippingLines[0].raw, pricedShipping, `items[${shippingLines[0].index}]`);
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
