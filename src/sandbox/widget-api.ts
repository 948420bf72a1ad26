/**
 * The widget API (ours; the documents do not show it): what the payment frame asks of the gateway.
 * All under `/widget-api/v1/`. The frame is served from the gateway's origin, so these routes answer
 * same-origin requests and send no CORS headers: a merchant page cannot call them directly.
 */
import { HttpError, type RequestContext, type Router, requireString, sendJson } from './http.js';
import type { CustomerData, LegacyOrders, PaymentRequest } from './legacy-orders.js';

function optionalString(body: Record<string, unknown>, field: string, path: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new HttpError(400, 'invalid_request', `${path} must be a string`, path);
  return value;
}

function object(body: Record<string, unknown>, field: string, path = field): Record<string, unknown> {
  const value = body[field];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'invalid_request', `${path} is required and must be an object`, path);
  }
  return value as Record<string, unknown>;
}

function customerFrom(body: Record<string, unknown>, path: string): Partial<CustomerData> {
  return {
    firstName: optionalString(body, 'firstName', `${path}.firstName`) ?? null,
    lastName: optionalString(body, 'lastName', `${path}.lastName`) ?? null,
    email: optionalString(body, 'email', `${path}.email`) ?? null,
    phone: optionalString(body, 'phone', `${path}.phone`) ?? null,
  };
}

function addressFrom(body: Record<string, unknown>, path: string) {
  const country = optionalString(body, 'country', `${path}.country`);
  return {
    city: requireString(body, 'city', `${path}.city`),
    address: requireString(body, 'address', `${path}.address`),
    postalCode: requireString(body, 'postalCode', `${path}.postalCode`),
    ...(country !== undefined && { country }),
  };
}

export function mountWidgetApi(router: Router, orders: LegacyOrders): void {
  router.on('GET', '/widget-api/v1/widgets/:widgetId', ({ res, params }) => {
    const { merchant, widget } = orders.widget(params['widgetId']!);
    const fixed = widget.type === 'INSTANT' ? orders.fixedOrderSummary(widget.id) : null;
    sendJson(res, 200, {
      id: widget.id,
      type: widget.type,
      validation: widget.validation,
      collectCustomerData: widget.collectCustomerData,
      merchant: { name: merchant.name, termsUrl: merchant.callbacks.termsUrl },
      defaults: merchant.defaults,
      allowedOrigins: merchant.allowedOrigins,
      pickupPoints: widget.pickupPoints,
      fixedOrder: fixed,
    });
  });

  router.on('POST', '/widget-api/v1/orders', async (context: RequestContext) => {
    const body = await context.json();
    const customer = body['customer'] === undefined ? {} : customerFrom(object(body, 'customer'), 'customer');
    const record = await orders.create({
      order: object(body, 'order'),
      ...(optionalString(body, 'signature', 'signature') !== undefined && {
        signature: body['signature'] as string,
      }),
      ...(optionalString(body, 'certificateName', 'certificateName') !== undefined && {
        certificateName: body['certificateName'] as string,
      }),
      ...(optionalString(body, 'pageOrigin', 'pageOrigin') !== undefined && {
        pageOrigin: body['pageOrigin'] as string,
      }),
      customer,
    });
    sendJson(context.res, 201, orders.view(record));
  });

  router.on('GET', '/widget-api/v1/orders/:id', ({ res, params }) => {
    sendJson(res, 200, orders.view(orders.get(params['id']!)));
  });

  router.on('POST', '/widget-api/v1/orders/:id/shipping-quotes', async (context) => {
    const body = await context.json();
    const quote = await orders.quoteShipping(context.params['id']!, {
      optionId: requireString(body, 'optionId'),
      address: addressFrom(object(body, 'address'), 'address'),
      ...(optionalString(body, 'pickupPointId', 'pickupPointId') !== undefined && {
        pickupPointId: body['pickupPointId'] as string,
      }),
    });
    sendJson(context.res, 200, quote);
  });

  router.on('POST', '/widget-api/v1/orders/:id/payments', async (context) => {
    const body = await context.json();
    const card = object(body, 'card');
    const request: PaymentRequest = {
      idempotencyKey: requireString(body, 'idempotencyKey'),
      card: {
        number: requireString(card, 'number', 'card.number'),
        expiry: requireString(card, 'expiry', 'card.expiry'),
        cvc: requireString(card, 'cvc', 'card.cvc'),
        holder: optionalString(card, 'holder', 'card.holder') ?? '',
      },
    };
    if (body['customer'] !== undefined) request.customer = customerFrom(object(body, 'customer'), 'customer');
    if (body['shipping'] !== undefined) {
      const shipping = object(body, 'shipping');
      const pickupPointId = optionalString(shipping, 'pickupPointId', 'shipping.pickupPointId');
      const contactPhone = optionalString(shipping, 'contactPhone', 'shipping.contactPhone');
      request.shipping = {
        optionId: requireString(shipping, 'optionId', 'shipping.optionId'),
        ...(shipping['address'] !== undefined && {
          address: addressFrom(object(shipping, 'address', 'shipping.address'), 'shipping.address'),
        }),
        ...(pickupPointId !== undefined && { pickupPointId }),
        ...(contactPhone !== undefined && { contactPhone }),
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
