/**
 * An order's shipping options: the price of an option priced later, asked from the merchant's shipping cost
 * URL and kept as a quote, and the customer's choice of option and destination (an address, or one of the
 * widget's pickup points) as a payment keeps it.
 */
import type { ShippingCostRequest, ShippingCostResponse } from '../../core/legacy-callbacks.js';
import { formatMinorUnits, type MinorUnits, parseMinorUnits } from '../../core/money.js';
import { type Order, parseTaxRate, type TaxRate } from '../../core/order.js';
import { shippingTaxRate } from '../../core/totals.js';
import type { PaymentRequest, ShippingQuote, ShippingQuoteRequest } from '../../core/widget-api.js';
import type { PickupPoint, WidgetConfig } from '../config.js';
import { HttpError } from '../http.js';
import { type MerchantDirectory, orderDefaults } from './merchant-directory.js';
import type { OrderBook } from './order-book.js';
import { type CallMerchant, FINAL, type OrderRecord, quoteOf, type ShippingChoice } from './order-records.js';
import { quantity, type Written, writeJson } from './wire-json.js';

export interface ShippingQuotesDeps {
  directory: MerchantDirectory;
  book: OrderBook;
  callMerchant: CallMerchant;
}

export class ShippingQuotes {
  constructor(private readonly deps: ShippingQuotesDeps) {}

  /**
   * Asks the merchant's shipping cost URL for the price of an option priced later, and keeps the quote. An
   * ADDRESS option is priced for the customer's address; a PICKUP_POINT option for the chosen point, whose
   * configured address (else empty strings) the request carries as its `address`. A widget that is no full
   * checkout collects no address: its ADDRESS option is priced for the items alone, `address` empty strings.
   */
  async quote(id: string, request: ShippingQuoteRequest): Promise<ShippingQuote> {
    const record = this.deps.book.get(id);
    assertPayable(record);
    const merchant = this.deps.directory.merchant(record.merchantId);
    const { widget } = this.deps.directory.widget(record.widgetId);
    const order = this.deps.book.order(record);
    const option = findShippingOption(order, request.optionId, 'optionId');
    const pickup = destinationPoint(widget, option, request, '');
    if (option.type === 'ADDRESS' && request.address === undefined && widget.collectCustomerData) {
      throw new HttpError(
        400,
        'address_required',
        `Shipping option ${option.id} delivers to an address; give address {address, city, postalCode} to price it`,
        'address',
      );
    }
    const currency = order.currency ?? merchant.defaults.currency;
    const defaultRate = orderDefaults(merchant).taxRate;
    if (option.amount !== undefined) {
      const taxRate = shippingTaxRate(option, defaultRate).text;
      return { amount: formatMinorUnits(option.amount), currency, taxRate };
    }
    const url = merchant.callbacks.shippingCostUrl;
    if (!url)
      throw new HttpError(
        409,
        'no_shipping_cost_url',
        'The merchant has no shipping cost URL to price this option',
      );
    const address = pickup ? pickup.address : request.address;
    const costRequest: Written<ShippingCostRequest> = {
      order_id: record.id,
      // In the order's item order, so an item without an orderItemId (reference null) is told by its place.
      order_items: order.items.map((item) => ({
        reference: item.orderItemId ?? null,
        quantity: quantity(item.count),
      })),
      shipping_method_id: option.id,
      // Present in every case, as the document says: a pickup point's own address when the config gives one,
      // empty strings where nothing is known.
      address: {
        city: address?.city ?? '',
        address: address?.address ?? '',
        postal_code: address?.postalCode ?? '',
      },
      ...(pickup && {
        pickup_point: {
          external_id: pickup.externalId,
          name: pickup.name,
          comments: pickup.comments ?? null,
          service_hours: pickup.serviceHours ?? null,
        },
      }),
    };
    const body = writeJson(costRequest);
    let answer: { status: number; body: string };
    try {
      answer = await this.deps.callMerchant(url, body, 'application/json');
    } catch (error) {
      throw new HttpError(
        502,
        'shipping_cost_unreachable',
        `The merchant's shipping cost URL did not answer: ${(error as Error).message}`,
      );
    }
    if (answer.status !== 200)
      throw new HttpError(
        502,
        'shipping_cost_refused',
        `The merchant's shipping cost URL answered ${answer.status}`,
      );
    let quote: ShippingCostResponse;
    let amount: MinorUnits;
    let quotedRate: TaxRate | undefined;
    try {
      quote = JSON.parse(answer.body) as ShippingCostResponse;
      amount = parseMinorUnits(quote.amount);
      if (amount < 0) throw new Error('negative amount');
      // Read now, so that a rate the order cannot be priced with is the merchant's error, not a later 500.
      quotedRate = quote.taxRate === undefined ? undefined : parseTaxRate(quote.taxRate, 'taxRate');
    } catch (error) {
      throw new HttpError(
        502,
        'shipping_cost_malformed',
        `The merchant's shipping cost answer is not {amount, taxRate?}: ${(error as Error).message}`,
      );
    }
    if (quote.currency !== undefined && quote.currency !== currency) {
      throw new HttpError(
        502,
        'shipping_cost_malformed',
        `The merchant quoted ${quote.currency} for an order in ${currency}`,
      );
    }
    this.deps.book.records.update(id, (current) => ({
      ...current,
      quotes: {
        ...current.quotes,
        [option.id]: {
          amount,
          ...(quotedRate !== undefined && { taxRate: quotedRate.text }),
          ...(pickup && { pickupPointId: pickup.externalId }),
        },
      },
    }));
    const taxRate = shippingTaxRate(option, defaultRate, quotedRate).text;
    return { amount: formatMinorUnits(amount), currency, taxRate };
  }
}

function assertPayable(record: OrderRecord): void {
  if (FINAL.has(record.state)) {
    throw new HttpError(409, 'order_final', `The order is already ${record.state}`);
  }
}

/**
 * The customer's shipping choice as a payment keeps it: the option asked for, at its price (given, or quoted
 * for the destination), to the customer's address or the chosen pickup point's. Without a choice in the
 * request, the one kept before.
 */
export function shippingChoice(
  record: OrderRecord,
  order: Order,
  widget: WidgetConfig,
  request: PaymentRequest['shipping'],
): ShippingChoice | null {
  if (!request) return record.shipping;
  const option = findShippingOption(order, request.optionId, 'shipping.optionId');
  const pickup = destinationPoint(widget, option, request, 'shipping.');
  const quote = quoteOf(record, option.id);
  // A point's price is the one quoted for that point: the customer may have asked for others since.
  const quoted = quote && quote.pickupPointId === pickup?.externalId ? quote.amount : undefined;
  const amount = option.amount ?? quoted;
  if (amount === undefined) {
    throw new HttpError(
      409,
      'shipping_not_priced',
      `Shipping option ${option.id} has no price yet${pickup ? ` for pickup point ${pickup.externalId}` : ''}; ask for a quote first`,
      'shipping.optionId',
    );
  }
  // A pickup point's delivery goes to the point's address (when the config gives one), never the customer's.
  const address = pickup ? pickup.address : request.address;
  return {
    optionId: option.id,
    label: option.title ?? option.id,
    amount,
    type: option.type,
    address: address
      ? {
          city: address.city,
          address: address.address,
          postalCode: address.postalCode,
          country: address.country ?? null,
          // Only a pickup point's configured address has coordinates; a customer types no coordinates.
          ...(pickup?.address?.latitude !== undefined && { latitude: pickup.address.latitude }),
          ...(pickup?.address?.longitude !== undefined && { longitude: pickup.address.longitude }),
        }
      : null,
    pickupPoint: pickup
      ? {
          externalId: pickup.externalId,
          name: pickup.name,
          comments: pickup.comments ?? null,
          serviceHours: pickup.serviceHours ?? null,
        }
      : null,
    contactPhone: request.contactPhone ?? null,
  };
}

function findShippingOption(order: Order, id: string, field: string): Order['shippingOptions'][number] {
  const option = order.shippingOptions.find((candidate) => candidate.id === id);
  if (!option)
    throw new HttpError(400, 'unknown_shipping_option', `No shipping option ${JSON.stringify(id)}`, field);
  return option;
}

/**
 * The pickup point a delivery goes to, checked against the option's type: an ADDRESS option takes no point;
 * a PICKUP_POINT option needs one of the widget's points, and no address (the point is where it goes).
 * `prefix` is the request's path to the fields (`shipping.` in a payment).
 */
function destinationPoint(
  widget: WidgetConfig,
  option: Order['shippingOptions'][number],
  request: { address?: unknown; pickupPointId?: string | undefined },
  prefix: string,
): PickupPoint | undefined {
  if (option.type === 'ADDRESS') {
    if (request.pickupPointId === undefined) return undefined;
    throw new HttpError(
      400,
      'pickup_point_not_allowed',
      `Shipping option ${option.id} delivers to an address, not a pickup point; send no pickupPointId (or give the option type PICKUP_POINT)`,
      `${prefix}pickupPointId`,
    );
  }
  if (request.pickupPointId === undefined) {
    throw new HttpError(
      400,
      'pickup_point_required',
      `Shipping option ${option.id} delivers to a pickup point; choose one in pickupPointId`,
      `${prefix}pickupPointId`,
    );
  }
  if (request.address !== undefined) {
    throw new HttpError(
      400,
      'address_not_allowed',
      `Shipping option ${option.id} delivers to a pickup point; send pickupPointId and no address`,
      `${prefix}address`,
    );
  }
  return findPickupPoint(widget, request.pickupPointId, `${prefix}pickupPointId`);
}

function findPickupPoint(
  widget: WidgetConfig,
  id: string | undefined,
  field: string,
): PickupPoint | undefined {
  if (id === undefined) return undefined;
  const point = widget.pickupPoints.find((candidate) => candidate.externalId === id);
  if (!point)
    throw new HttpError(400, 'unknown_pickup_point', `No pickup point ${JSON.stringify(id)}`, field);
  return point;
}
