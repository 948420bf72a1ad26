/**
 * The order summary above the payment form: the order's lines as the gateway priced them, the chosen
 * shipping, the tax contained in the total, and the total. Amounts are the gateway's (decimal strings),
 * formatted for the frame's language; the frame adds only the shipping price chosen in the form.
 */
import { html, nothing, type TemplateResult } from 'lit';
import {
  type FrameTranslate,
  formatMoney,
  type Language,
  localeFor,
  type MinorUnits,
  parseMinorUnits,
  UNITS,
  type Unit,
  unitKey,
} from '../core/index.js';
import type { OrderView } from './widget-api-types.js';

/** The shipping chosen in the form: its price, once known. */
export interface ChosenShipping {
  optionId: string;
  amount: MinorUnits | undefined;
}

/**
 * The amount to pay: the items with the chosen shipping, or the gateway's total while no priced shipping is
 * chosen (a total that may already hold a shipping line from an earlier attempt).
 */
export function orderTotal(order: OrderView, shipping: ChosenShipping | undefined): MinorUnits {
  if (shipping?.amount === undefined) return parseMinorUnits(order.total);
  const items = order.lines
    .filter((line) => line.type === 'ITEM')
    .reduce((sum, line) => sum + parseMinorUnits(line.total), 0);
  return items + shipping.amount;
}

function quantityText(count: string, unit: string, t: FrameTranslate, language: Language): string {
  const known: Unit = (UNITS as readonly string[]).includes(unit) ? (unit as Unit) : 'PIECE';
  const number = Number(count);
  const formatted = Number.isFinite(number)
    ? new Intl.NumberFormat(localeFor(language), { maximumFractionDigits: 3 }).format(number)
    : count;
  return t(unitKey(known), { count: formatted });
}

/** The summary of `order` with the shipping chosen in the form. */
export function renderOrderSummary(
  order: OrderView,
  shipping: ChosenShipping | undefined,
  t: FrameTranslate,
  language: Language,
): TemplateResult {
  const money = (minor: MinorUnits) => formatMoney(minor, order.currency, localeFor(language));
  const items = order.lines.filter((line) => line.type === 'ITEM');
  const shippingLine = order.lines.find((line) => line.type === 'SHIPPING');
  let shippingText: string | undefined;
  if (shipping) {
    shippingText =
      shipping.amount === undefined
        ? t('delivery.priceOnRequest')
        : shipping.amount === 0
          ? t('delivery.free')
          : money(shipping.amount);
  } else if (shippingLine) shippingText = money(parseMinorUnits(shippingLine.total));
  return html`<section class="svc-summary" aria-labelledby="svc-summary-title">
    <h2 id="svc-summary-title">${t('summary.title')}</h2>
    ${order.orderId ? html`<p class="svc-summary-order">${t('summary.orderId', { orderId: order.orderId })}</p>` : nothing}
    <ul class="svc-summary-lines" aria-label=${t('summary.items')}>
      ${items.map(
        (line) => html`<li>
          <span class="svc-line-label">${line.label}</span>
          <span class="svc-line-quantity">${quantityText(line.count, line.unit, t, language)}</span>
          <span class="svc-line-total">${money(parseMinorUnits(line.total))}</span>
        </li>`,
      )}
    </ul>
    <dl class="svc-summary-totals">
      ${
        shippingText === undefined
          ? nothing
          : html`<div><dt>${t('summary.shipping')}</dt><dd>${shippingText}</dd></div>`
      }
      <div class="svc-summary-total">
        <dt>${t('summary.total')}</dt>
        <dd>${money(orderTotal(order, shipping))}</dd>
      </div>
    </dl>
    <p class="svc-summary-tax">${t('summary.taxIncluded', { tax: money(parseMinorUnits(order.tax)) })}</p>
  </section>`;
}
