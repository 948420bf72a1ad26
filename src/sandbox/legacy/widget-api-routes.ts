/**
 * The widget API (ours; the documents do not show it): what the payment frame asks of the gateway, the shapes
 * of src/core/widget-api.ts.
 * All under `/widget-api/v1/`. The frame is served from the gateway's origin, so these routes answer
 * same-origin requests and send no CORS headers: a merchant page cannot call them directly.
 */
import type { IncomingMessage } from 'node:http';
import { CERTIFICATE_NAME_MAX_LENGTH, certificateNameProblem } from '../../core/order.js';
import type { FixedOrderSummary, WidgetConfigView } from '../../core/widget-api.js';
import { BodyReader, type Json } from '../body-reader.js';
import { type RequestContext, type Router, sendJson } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';
import type { MerchantDirectory } from './merchant-directory.js';
import type { OrderBook } from './order-book.js';
import type { OrderIntake } from './order-intake.js';
import type { CustomerData, PaymentIntake } from './order-records.js';
import type { OrderViews } from './order-views.js';
import type { PaymentMachine } from './payment-machine.js';
import type { ShippingQuotes } from './shipping-options.js';

function customerFrom(reader: BodyReader, body: Json, path: string): Partial<CustomerData> {
  return {
    firstName: reader.text(body, 'firstName', `${path}.firstName`) ?? null,
    lastName: reader.text(body, 'lastName', `${path}.lastName`) ?? null,
    email: reader.text(body, 'email', `${path}.email`) ?? null,
    phone: reader.text(body, 'phone', `${path}.phone`) ?? null,
  };
}

function addressFrom(reader: BodyReader, body: Json, path: string) {
  return {
    city: reader.string(body, 'city', `${path}.city`, true) ?? '',
    address: reader.string(body, 'address', `${path}.address`, true) ?? '',
    postalCode: reader.string(body, 'postalCode', `${path}.postalCode`, true) ?? '',
    country: reader.text(body, 'country', `${path}.country`),
  };
}

/** The page's certificate name when sent beside the order: the order's own `certificateName` rule holds. */
function certificateNameFrom(reader: BodyReader, body: Json): string | undefined {
  const name = reader.text(body, 'certificateName', 'certificateName');
  if (name === undefined) return undefined;
  const problem = certificateNameProblem(name);
  if (problem === 'blank') reader.add('certificateName', 'blank', 'certificateName is blank');
  if (problem === 'too_long') {
    const message = `certificateName is ${name.length} characters long; at most ${CERTIFICATE_NAME_MAX_LENGTH}`;
    reader.add('certificateName', 'max_length', message);
  }
  return problem === undefined ? name : undefined;
}

/**
 * A widget's configuration as the frame reads it: the answer to `GET /widgets/:id`, and what the frame's page
 * carries (widget-pages.ts).
 */
export function widgetConfigView(
  directory: MerchantDirectory,
  { merchant, widget }: ReturnType<MerchantDirectory['widget']>,
): WidgetConfigView {
  const fixed: FixedOrderSummary | null =
    widget.type === 'INSTANT' ? directory.fixedOrderSummary(widget.id) : null;
  return {
    id: widget.id,
    type: widget.type,
    validation: widget.validation,
    collectCustomerData: widget.collectCustomerData,
    merchant: { name: merchant.name, termsUrl: merchant.callbacks.termsUrl },
    defaults: merchant.defaults,
    allowedOrigins: merchant.allowedOrigins,
    pickupPoints: widget.pickupPoints,
    cardSchemes: widget.cardSchemes,
    fixedOrder: fixed,
  };
}

/** The legacy orders' parts the widget API's routes use. */
export interface WidgetApiDeps {
  directory: MerchantDirectory;
  book: OrderBook;
  intake: OrderIntake;
  views: OrderViews;
  shipping: ShippingQuotes;
  payments: PaymentMachine;
}

export function mountWidgetApi(router: Router, deps: WidgetApiDeps): void {
  const { directory, book, intake, views, shipping, payments } = deps;
  /** Notes the merchant of the order a route acts on (`:id`, the gateway id), for its request's log line. */
  const noteOrderMerchant = (req: IncomingMessage, id: string) => {
    const merchantId = book.merchantOf(id);
    if (merchantId !== undefined) noteMerchant(req, merchantId);
  };

  router.on('GET', '/widget-api/v1/widgets/:widgetId', ({ req, res, params }) => {
    const found = directory.widget(params['widgetId']!);
    noteMerchant(req, found.merchant.id);
    sendJson(res, 200, widgetConfigView(directory, found));
  });

  router.on('POST', '/widget-api/v1/orders', async (context: RequestContext) => {
    const body = await context.json();
    const reader = new BodyReader();
    const customerObject = reader.object(body, 'customer', 'customer', body['customer'] !== undefined);
    const customer = customerObject ? customerFrom(reader, customerObject, 'customer') : {};
    const request = {
      order: reader.object(body, 'order', 'order', true) ?? {},
      signature: reader.text(body, 'signature', 'signature'),
      certificateName: certificateNameFrom(reader, body),
      pageOrigin: reader.text(body, 'pageOrigin', 'pageOrigin'),
      customer,
    };
    reader.throwFirst();
    const taken = await intake.create(request);
    if ('merchantId' in taken) noteMerchant(context.req, taken.merchantId);
    // A receipt (an unsigned reload of an order id already paid) creates nothing: 200 with the paid status alone.
    if ('receipt' in taken) sendJson(context.res, 200, taken);
    else sendJson(context.res, 201, views.view(taken));
  });

  router.on('GET', '/widget-api/v1/orders/:id', ({ req, res, params }) => {
    noteOrderMerchant(req, params['id']!);
    sendJson(res, 200, views.view(book.get(params['id']!)));
  });

  router.on('POST', '/widget-api/v1/orders/:id/shipping-quotes', async (context) => {
    noteOrderMerchant(context.req, context.params['id']!);
    const body = await context.json();
    const reader = new BodyReader();
    const optionId = reader.string(body, 'optionId', 'optionId', true) ?? '';
    const address = reader.object(body, 'address', 'address', body['address'] !== undefined);
    // An ADDRESS option is priced for `address`, a PICKUP_POINT option for `pickupPointId` alone.
    const request = {
      optionId,
      address: address && addressFrom(reader, address, 'address'),
      pickupPointId: reader.text(body, 'pickupPointId', 'pickupPointId'),
    };
    reader.throwFirst();
    const quote = await shipping.quote(context.params['id']!, request);
    sendJson(context.res, 200, quote);
  });

  router.on('POST', '/widget-api/v1/orders/:id/payments', async (context) => {
    noteOrderMerchant(context.req, context.params['id']!);
    const body = await context.json();
    const reader = new BodyReader();
    const card = reader.object(body, 'card', 'card', true);
    const idempotencyKey = reader.string(body, 'idempotencyKey', 'idempotencyKey', true) ?? '';
    const request: PaymentIntake = {
      idempotencyKey,
      card: {
        number: (card && reader.string(card, 'number', 'card.number', true)) ?? '',
        expiry: (card && reader.string(card, 'expiry', 'card.expiry', true)) ?? '',
        cvc: (card && reader.string(card, 'cvc', 'card.cvc', true)) ?? '',
        holder: (card && reader.text(card, 'holder', 'card.holder')) ?? '',
      },
    };
    const customer = reader.object(body, 'customer', 'customer', body['customer'] !== undefined);
    if (customer) request.customer = customerFrom(reader, customer, 'customer');
    const chosen = reader.object(body, 'shipping', 'shipping', body['shipping'] !== undefined);
    if (chosen) {
      const optionId = reader.string(chosen, 'optionId', 'shipping.optionId', true) ?? '';
      const given = chosen['address'] !== undefined;
      const address = reader.object(chosen, 'address', 'shipping.address', given);
      request.shipping = {
        optionId,
        address: address && addressFrom(reader, address, 'shipping.address'),
        pickupPointId: reader.text(chosen, 'pickupPointId', 'shipping.pickupPointId'),
        contactPhone: reader.text(chosen, 'contactPhone', 'shipping.contactPhone'),
      };
    }
    reader.throwFirst();
    const result = payments.pay(context.params['id']!, request);
    sendJson(context.res, 200, result);
  });

  router.on('POST', '/widget-api/v1/orders/:id/challenges/:challengeId', async (context) => {
    noteOrderMerchant(context.req, context.params['id']!);
    const reader = new BodyReader();
    const approve = reader.boolean(await context.json(), 'approve', 'approve', true);
    reader.throwFirst();
    sendJson(
      context.res,
      200,
      payments.completeChallenge(context.params['id']!, context.params['challengeId']!, approve === true),
    );
  });

  router.on('POST', '/widget-api/v1/orders/:id/cancel', ({ req, res, params }) => {
    noteOrderMerchant(req, params['id']!);
    sendJson(res, 200, payments.cancel(params['id']!));
  });
}
