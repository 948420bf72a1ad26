/**
 * The merchants and widgets of the sandbox config, as the legacy widget's parts find them: by widget id (the
 * page's `widget-id`) or merchant id, with the errors that name the attribute to fix, and the fixed order of
 * an INSTANT widget.
 */
import { formatMinorUnits } from '../../core/money.js';
import { parseTaxRate } from '../../core/order.js';
import { type OrderDefaults, priceOrder } from '../../core/totals.js';
import type { FixedOrderSummary } from '../../core/widget-api.js';
import type { MerchantConfig, SandboxConfig, WidgetConfig } from '../config.js';
import { HttpError } from '../http.js';
import { orderOf } from './order-records.js';

export class MerchantDirectory {
  constructor(private readonly config: SandboxConfig) {}

  /** The widget of this id (the page's `widget-id`) with its merchant. */
  widget(widgetId: string): { merchant: MerchantConfig; widget: WidgetConfig } {
    for (const merchant of this.config.merchants) {
      const widget = merchant.widgets.find((candidate) => candidate.id === widgetId);
      if (widget) return { merchant, widget };
    }
    throw new HttpError(
      404,
      'unknown_widget',
      `No widget ${JSON.stringify(widgetId)}; check the widget-id attribute`,
      'widgetId',
    );
  }

  /** The merchant of this id. */
  merchant(merchantId: string): MerchantConfig {
    const merchant = this.config.merchants.find((candidate) => candidate.id === merchantId);
    if (!merchant) throw new HttpError(404, 'unknown_merchant', `No merchant ${JSON.stringify(merchantId)}`);
    return merchant;
  }

  /** The priced fixed order of an INSTANT widget, for the frame to show before an order exists. */
  fixedOrderSummary(widgetId: string): FixedOrderSummary {
    const { merchant, widget } = this.widget(widgetId);
    if (widget.type !== 'INSTANT')
      throw new HttpError(400, 'not_fixed_price', 'Only fixed-price widgets have a fixed order');
    const priced = priceOrder(orderOf({ widgetId, ...widget.order }), orderDefaults(merchant));
    return {
      currency: priced.currency,
      total: formatMinorUnits(priced.total),
      tax: formatMinorUnits(priced.tax),
      lines: priced.lines.map((line) => ({ label: line.label, total: formatMinorUnits(line.total) })),
    };
  }
}

/** What the merchant's orders leave out: their currency and tax rate, from the merchant's defaults. */
export function orderDefaults(merchant: MerchantConfig): OrderDefaults {
  return {
    currency: merchant.defaults.currency,
    taxRate: parseTaxRate(merchant.defaults.taxRate, 'defaults.taxRate'),
  };
}
