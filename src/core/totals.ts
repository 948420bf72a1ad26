/**
 * Tax and totals (ARCHITECTURE.md, "Money and tax"): unit prices are gross; line total =
 * round(amount x count); line tax = round(total x rate / (1 + rate)); half up to the cent; totals are sums
 * of lines.
 */
import { divideRoundHalfUp } from './decimal.js';
import { SvcError } from './errors.js';
import type { MinorUnits } from './money.js';
import type { Order, Quantity, ShippingOption, TaxRate, Unit } from './order.js';

/** The merchant's defaults, filled in where the order names no currency or tax rate. */
export interface OrderDefaults {
  currency: string;
  taxRate: TaxRate;
}

/** The shipping option the customer chose, with its price when the order itself does not carry one. */
export interface ChosenShipping {
  id: string;
  /** What the line says; the option's title, else its id, when not given. */
  label?: string;
  /** The price quoted through the merchant's shipping cost URL, for options without an amount. */
  amount?: MinorUnits;
  /** The tax rate quoted with that price; the option's own rate comes first. */
  taxRate?: TaxRate;
}

export interface PricedLine {
  type: 'ITEM' | 'SHIPPING';
  label: string;
  orderItemId?: string;
  unitAmount: MinorUnits;
  count: Quantity;
  unit: Unit;
  taxRate: TaxRate;
  total: MinorUnits;
  tax: MinorUnits;
}

export interface PricedOrder {
  currency: string;
  lines: PricedLine[];
  total: MinorUnits;
  tax: MinorUnits;
}

export type PricingErrorCode = 'unknown_shipping_option' | 'shipping_not_priced';

/** A shipping choice that cannot be priced. */
export class PricingError extends SvcError<PricingErrorCode> {}

const ONE = { thousandths: 1000, text: '1' } as const;

/** The total and tax of one line: `amount` per unit (gross) times `count`, at `rate`. */
export function lineAmounts(
  amount: MinorUnits,
  count: Quantity,
  rate: TaxRate,
): { total: MinorUnits; tax: MinorUnits } {
  const total = divideRoundHalfUp(BigInt(amount) * BigInt(count.thousandths), 1000n);
  const tax = divideRoundHalfUp(total * BigInt(rate.ppm), 1_000_000n + BigInt(rate.ppm));
  return { total: Number(total), tax: Number(tax) };
}

/**
 * The tax rate of a shipping line: the option's own, else the one quoted with its price by the merchant's
 * shipping cost URL, else the merchant's default. The gateway's totals and the frame's VAT line both use it.
 */
export function shippingTaxRate(option: ShippingOption, defaultRate: TaxRate, quoted?: TaxRate): TaxRate {
  return option.taxRate ?? quoted ?? defaultRate;
}

/**
 * The total and tax of a shipping line: one piece at `amount` (gross). The one computation behind the
 * notification's shipping line and the frame's VAT line.
 */
export function shippingLineAmounts(
  amount: MinorUnits,
  rate: TaxRate,
): { total: MinorUnits; tax: MinorUnits } {
  return lineAmounts(amount, ONE, rate);
}

/**
 * Prices an order with the merchant's defaults and, when given, the chosen shipping option: its line, unless
 * the option is free and `excludeFromOrderIfFree`.
 * @throws PricingError when the shipping option is not in the order or has no price yet.
 */
/**
 * Whether the option, chosen at `amount`, adds a shipping line to the order: all do but a free one that the
 * order marks `excludeFromOrderIfFree` (the official client's member).
 */
export function addsShippingLine(
  option: Pick<ShippingOption, 'excludeFromOrderIfFree'>,
  amount: MinorUnits,
): boolean {
  return amount !== 0 || !option.excludeFromOrderIfFree;
}

export function priceOrder(order: Order, defaults: OrderDefaults, shipping?: ChosenShipping): PricedOrder {
  const lines: PricedLine[] = order.items.map((item) => {
    const taxRate = item.taxRate ?? defaults.taxRate;
    return {
      type: 'ITEM',
      label: item.label,
      ...(item.orderItemId !== undefined && { orderItemId: item.orderItemId }),
      unitAmount: item.amount,
      count: item.count,
      unit: item.unit,
      taxRate,
      ...lineAmounts(item.amount, item.count, taxRate),
    };
  });
  if (shipping) {
    const option = order.shippingOptions.find((candidate) => candidate.id === shipping.id);
    if (!option) {
      throw new PricingError(
        'unknown_shipping_option',
        `Shipping option ${JSON.stringify(shipping.id)} is not in the order`,
      );
    }
    const amount = option.amount ?? shipping.amount;
    if (amount === undefined) {
      throw new PricingError(
        'shipping_not_priced',
        `Shipping option ${JSON.stringify(shipping.id)} has no price yet`,
      );
    }
    if (addsShippingLine(option, amount)) {
      const taxRate = shippingTaxRate(option, defaults.taxRate, shipping.taxRate);
      lines.push({
        type: 'SHIPPING',
        label: shipping.label ?? option.title ?? option.id,
        unitAmount: amount,
        count: ONE,
        unit: 'PIECE',
        taxRate,
        ...shippingLineAmounts(amount, taxRate),
      });
    }
  }
  return {
    currency: order.currency ?? defaults.currency,
    lines,
    total: lines.reduce((sum, line) => sum + line.total, 0),
    tax: lines.reduce((sum, line) => sum + line.tax, 0),
  };
}
