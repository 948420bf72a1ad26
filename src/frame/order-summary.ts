/**
 * The order summary above the payment form: the order's lines as the gateway priced them, the chosen
 * shipping, the tax contained in the total, and the total. Amounts are the gateway's (decimal strings),
 * formatted for the frame's language; the frame adds only the shipping line chosen in the form, priced by
 * core's `shippingLineAmounts` at the tax rate the gateway gave, as the gateway prices it for the notification.
 */
import { html, nothing, type TemplateResult } from 'lit';
import {
  type FrameMessageKey,
  type FrameTranslate,
  formatMoney,
  type Language,
  localeFor,
  type MinorUnits,
  parseMinorUnits,
  parseTaxRate,
  shippingLineAmounts,
  UNITS,
  type Unit,
  unitKey,
} from '../core/index.js';
import type { OrderView, ShippingOptionView } from '../core/widget-api.js';

/** The shipping chosen in the form: its price and the tax rate of its line, once known. */
export interface ChosenShipping {
  optionId: string;
  price: { amount: MinorUnits; taxRate: string } | undefined;
}

/** The chosen shipping line's total and tax, computed as the gateway computes them; none while unpriced. */
function shippingAmounts(
  shipping: ChosenShipping | undefined,
): { total: MinorUnits; tax: MinorUnits } | undefined {
  if (!shipping?.price) return undefined;
  return shippingLineAmounts(shipping.price.amount, parseTaxRate(shipping.price.taxRate));
}

/**
 * The order's total or tax: its items' with the chosen shipping line, or the gateway's own while no priced
 * shipping is chosen (which may already hold a shipping line from an earlier attempt).
 */
function orderAmount(
  order: OrderView,
  shipping: ChosenShipping | undefined,
  of: 'total' | 'tax',
): MinorUnits {
  const line = shippingAmounts(shipping);
  if (!line) return parseMinorUnits(order[of]);
  const items = order.lines
    .filter((line) => line.type === 'ITEM')
    .reduce((sum, line) => sum + parseMinorUnits(line[of]), 0);
  return items + line[of];
}

/** The amount to pay, with the chosen shipping. */
export function orderTotal(order: OrderView, shipping: ChosenShipping | undefined): MinorUnits {
  return orderAmount(order, shipping, 'total');
}

/** The VAT the amount to pay includes, the chosen shipping line's too: the notification's `tax_amount`. */
export function orderTax(order: OrderView, shipping: ChosenShipping | undefined): MinorUnits {
  return orderAmount(order, shipping, 'tax');
}

/**
 * What an option without a known price says: when it will have one. A form that asks no address prices an
 * option as soon as it is chosen.
 */
export function priceLaterKey(
  option: Pick<ShippingOptionView, 'type'> | undefined,
  asksAddress: boolean,
): FrameMessageKey {
  if (option?.type === 'PICKUP_POINT') return 'delivery.priceOnPickupPoint';
  return asksAddress ? 'delivery.priceOnRequest' : 'delivery.priceOnChoice';
}

/** A line's quantity: a count of pieces as a bare number, since "× {price}" follows it; others with their unit. */
function quantityText(count: string, unit: string, t: FrameTranslate, counts: Intl.NumberFormat): string {
  const number = Number(count);
  const formatted = Number.isFinite(number) ? counts.format(number) : count;
  return (UNITS as readonly string[]).includes(unit) && unit !== 'PIECE'
    ? t(unitKey(unit as Unit), { count: formatted })
    : formatted;
}

/** The item lines last built for an order, kept while its texts and language stay the same. */
const builtLines = new WeakMap<
  OrderView,
  { t: FrameTranslate; language: Language; list: HTMLUListElement }
>();

/**
 * The order's item lines, each a clone of one row with its texts set, rather than a Lit template per line:
 * a 1,000-item order renders in about two thirds of the time (`npm run bench`). The list is built once per
 * order, texts and language, so that the frame's other updates (an announcement, a field's error) reuse it;
 * Lit keeps a node it is given again where it is. Texts go in as `textContent`, never parsed as HTML.
 * A line shows its quantity at its unit price ("2 × €12.50") beside its total, so that neither amount is
 * taken for the other; screen readers hear "2 at €12.50 each" (`summary.line`) before the total instead. A
 * single piece shows its total alone.
 */
function itemList(order: OrderView, t: FrameTranslate, language: Language): HTMLUListElement {
  const built = builtLines.get(order);
  if (built?.t === t && built.language === language) return built.list;
  const locale = localeFor(language);
  // One formatter for every line: making one costs more than formatting with it. Lines share their
  // quantities (most are "1 pc."), so each unit and count is worded once.
  const counts = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
  const quantities = new Map<string, string>();
  const money = (amount: string) => formatMoney(parseMinorUnits(amount), order.currency, locale);
  const list = document.createElement('ul');
  list.className = 'svc-summary-lines';
  list.setAttribute('aria-label', t('summary.items'));
  const row = document.createElement('li');
  // Static markup of ours: no text of the order goes in here.
  row.innerHTML =
    '<span class="svc-line-label"></span><span class="svc-line-quantity" aria-hidden="true"></span><span class="svc-visually-hidden"></span><span class="svc-line-total"></span>';
  for (const line of order.lines) {
    if (line.type !== 'ITEM') continue;
    const item = row.cloneNode(true) as HTMLLIElement;
    const [label, quantity, spoken, total] = item.children;
    label!.textContent = line.label;
    const key = `${line.unit} ${line.count}`;
    let worded = quantities.get(key);
    if (worded === undefined) {
      worded = quantityText(line.count, line.unit, t, counts);
      quantities.set(key, worded);
    }
    total!.textContent = money(line.total);
    // One piece: its price is the line's total, which "1 × €8.00 €8.00" would only say twice.
    if (line.unit !== 'PIECE' || Number(line.count) !== 1) {
      const price = money(line.unitAmount);
      quantity!.textContent = `${worded} × ${price}`;
      spoken!.textContent = t('summary.line', { quantity: worded, price });
    }
    list.append(item);
  }
  builtLines.set(order, { t, language, list });
  return list;
}

/** The summary of `order` with the shipping chosen in the form. */
export function renderOrderSummary(
  order: OrderView,
  shipping: ChosenShipping | undefined,
  t: FrameTranslate,
  language: Language,
): TemplateResult {
  const money = (minor: MinorUnits) => formatMoney(minor, order.currency, localeFor(language));
  const shippingLine = order.lines.find((line) => line.type === 'SHIPPING');
  let shippingRow: { method: string; text: string } | undefined;
  if (shipping) {
    const option = order.shippingOptions.find((candidate) => candidate.id === shipping.optionId);
    const amount = shipping.price?.amount;
    shippingRow = {
      method: option?.label ?? shipping.optionId,
      text:
        amount === undefined
          ? t(priceLaterKey(option, order.collectCustomerData))
          : amount === 0
            ? t('delivery.free')
            : money(amount),
    };
  } else if (shippingLine) {
    shippingRow = { method: shippingLine.label, text: money(parseMinorUnits(shippingLine.total)) };
  }
  return html`<section class="svc-summary" aria-labelledby="svc-summary-title">
    <h2 id="svc-summary-title">${t('summary.title')}</h2>
    ${order.orderId ? html`<p class="svc-summary-order">${t('summary.orderId', { orderId: order.orderId })}</p>` : nothing}
    ${itemList(order, t, language)}
    <dl class="svc-summary-totals">
      ${
        shippingRow === undefined
          ? nothing
          : html`<div class="svc-summary-shipping">
              <dt>${t('summary.shipping')}</dt>
              <dd><span class="svc-summary-method">${shippingRow.method}</span> · ${shippingRow.text}</dd>
            </div>`
      }
      <div class="svc-summary-total">
        <dt>${t('summary.total')}</dt>
        <dd>${money(orderTotal(order, shipping))}</dd>
      </div>
    </dl>
    <p class="svc-summary-tax">${t('summary.taxIncluded', { tax: money(orderTax(order, shipping)) })}</p>
  </section>`;
}
