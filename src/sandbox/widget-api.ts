/**
 * The widget API (ours; the documents do not show it): what the payment frame asks of the gateway, the shapes
 * of src/core/widget-api.ts.
 * All under `/widget-api/v1/`. The frame is served from the gateway's origin, so these routes answer
 * same-origin requests and send no CORS headers: a merchant page cannot call them directly.
 */
import type { FixedOrderSummary, WidgetConfigView } from '../core/widget-api.js';
import {
  HttpError,
  optionalString,
  type RequestContext,
  type Router,
  requireObject,
  requireString,
  sendJson,
} from './http.js';
import type { CustomerData, LegacyOrders, PaymentIntake } from './legacy-orders.js';

function customerFrom(body: Record<string, unknown>, path: string): Partial<CustomerData> {
  return {
    firstName: optionalString(body, 'firstName', `${path}.firstName`) ?? null,
    lastName: optionalString(body, 'lastName', `${path}.lastName`) ?? null,
    email: optionalString(body, 'email', `${path}.email`) ?? null,
    phone: optionalString(body, 'phone', `${path}.phone`) ?? null,
  };
}

function addressFrom(body: Record<string, unknown>, path: string) {
  return {
    city: requireString(body, 'city', `${path}.city`),
    address: requireString(body, 'address', `${path}.address`),
    postalCode: requireString(body, 'postalCode', `${path}.postalCode`),
    country: optionalString(body, 'country', `${path}.country`),
  };
}

/**
 * The page's certificate name when sent beside the order: held to the rules of the order's own
 * `certificateName` (core/order.ts), so that neither form takes a name the other refuses.
 */
function certificateNameFrom(body: Record<string, unknown>): string | undefined {
  const name = optionalString(body, 'certificateName');
  if (name === undefined) return undefined;
  const refuse = (problem: string) =>
    new HttpError(400, 'invalid_request', `certificateName ${problem}`, 'certificateName');
  if (name.trim() === '') throw refuse('is blank');
  if (name.length > 255) throw refuse(`is ${name.length} characters long; at most 255`);
  return name;
}

export function mountWidgetApi(router: Router, orders: LegacyOrders): void {
  router.on('GET', '/widget-api/v1/widgets/:widgetId', ({ res, params }) => {
    const { merchant, widget } = orders.widget(params['widgetId']!);
    const fixed: FixedOrderSummary | null =
      widget.type === 'INSTANT' ? orders.fixedOrderSummary(widget.id) : null;
    const view: WidgetConfigView = {
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
    sendJson(res, 200, view);
  });

  router.on('POST', '/widget-api/v1/orders', async (context: RequestContext) => {
    const body = await context.json();
    const customer =
      body['customer'] === undefined ? {} : customerFrom(requireObject(body, 'customer'), 'customer');
    const taken = await orders.create({
      order: requireObject(body, 'order'),
      signature: optionalString(body, 'signature'),
      certificateName: certificateNameFrom(body),
      pageOrigin: optionalString(body, 'pageOrigin'),
      customer,
    });
    // A receipt (an unsigned reload of an order id already paid) creates nothing: 200 with the paid status alone.
    if ('receipt' in taken) sendJson(context.res, 200, taken);
    else sendJson(context.res, 201, orders.view(taken));
  });

  router.on('GET', '/widget-api/v1/orders/:id', ({ res, params }) => {
    sendJson(res, 200, orders.view(orders.get(params['id']!)));
  });

  router.on('POST', '/widget-api/v1/orders/:id/shipping-quotes', async (context) => {
    const body = await context.json();
    // An ADDRESS option is priced for `address`, a PICKUP_POINT option for `pickupPointId` alone.
    const quote = await orders.quoteShipping(context.params['id']!, {
      optionId: requireString(body, 'optionId'),
      address:
        body['address'] === undefined ? undefined : addressFrom(requireObject(body, 'address'), 'address'),
      pickupPointId: optionalString(body, 'pickupPointId'),
    });
    sendJson(context.res, 200, quote);
  });

  router.on('POST', '/widget-api/v1/orders/:id/payments', async (context) => {
    const body = await context.json();
    const card = requireObject(body, 'card');
    const request: PaymentIntake = {
      idempotencyKey: requireString(body, 'idempotencyKey'),
      card: {
        number: requireString(card, 'number', 'card.number'),
        expiry: requireString(card, 'expiry', 'card.expiry'),
        cvc: requireString(card, 'cvc', 'card.cvc'),
        holder: optionalString(card, 'holder', 'card.holder') ?? '',
      },
    };
    if (body['customer'] !== undefined)
      request.customer = customerFrom(requireObject(body, 'customer'), 'customer');
    if (body['shipping'] !== undefined) {
      const shipping = requireObject(body, 'shipping');
      request.shipping = {
        optionId: requireString(shipping, 'optionId', 'shipping.optionId'),
        address:
          shipping['address'] === undefined
            ? undefined
            : addressFrom(requireObject(shipping, 'address', 'shipping.address'), 'shipping.address'),
        pickupPointId: optionalString(shipping, 'pickupPointId', 'shipping.pickupPointId'),
        contactPhone: optionalString(shipping, 'contactPhone', 'shipping.contactPhone'),
      };
    }
    const result = orders.pay(context.params['id']!, request);
    sendJson(context.res, 200, result);
  });

  router.on('POST', '/widget-api/v1/orders/:id/challenges/:challengeId', async (context) => {
    const body = await context.json();
    if (typeof body['approve'] !== 'boolean') {
      throw new HttpError(400, 'invalid_request', 'approve is required and must be true or false', 'approve');
    }
    sendJson(
      context.res,
      200,
      orders.completeChallenge(context.params['id']!, context.params['challengeId']!, body['approve']),
    );
  });

  router.on('POST', '/widget-api/v1/orders/:id/cancel', ({ res, params }) => {
    sendJson(res, 200, orders.cancel(params['id']!));
  });
}
