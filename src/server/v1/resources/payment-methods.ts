/** `GET /payment_methods/` and `GET /payout_methods/`: what a brand may take and pay out, per currency. */
import type {
  PaymentMethods,
  PaymentMethodsQuery,
  PayoutMethods,
  PayoutMethodsQuery,
} from '../../../core/v1-types.js';
import {
  expect,
  requireObject,
  requireQueryText,
  type V1Core,
  type V1RequestOptions,
} from '../client-core.js';

export function paymentMethodsCall({ send, urlOf }: V1Core) {
  return async function paymentMethods(
    query: PaymentMethodsQuery,
    callOptions?: V1RequestOptions,
  ): Promise<PaymentMethods> {
    requireObject(query, 'The query must be an object');
    requireQueryText(query, 'brand_id');
    requireQueryText(query, 'currency');
    const { brand_id, currency, country, recurring, skip_capture, preauthorization, language } = query;
    const url = urlOf('/payment_methods/', {
      brand_id,
      currency,
      country,
      recurring,
      skip_capture,
      preauthorization,
      language,
    });
    const answer = await send('GET', url, undefined, callOptions);
    return expect<PaymentMethods>(answer, 'payment methods', (record) =>
      Array.isArray(record['available_payment_methods']),
    );
  };
}

export function payoutMethodsCall({ send, urlOf }: V1Core) {
  return async function payoutMethods(
    query: PayoutMethodsQuery,
    callOptions?: V1RequestOptions,
  ): Promise<PayoutMethods> {
    requireObject(query, 'The query must be an object');
    requireQueryText(query, 'brand_id');
    requireQueryText(query, 'currency');
    const { brand_id, currency, language } = query;
    const answer = await send(
      'GET',
      urlOf('/payout_methods/', { brand_id, currency, language }),
      undefined,
      callOptions,
    );
    return expect<PayoutMethods>(answer, 'payout methods', (record) =>
      Array.isArray(record['available_payout_methods']),
    );
  };
}
