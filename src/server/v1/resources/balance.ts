/** `GET /balance/`: the merchant's money per account and currency. */
import { isPlainObject } from '../../../core/plain-object.js';
import type { CompanyBalance } from '../../../core/v1-types.js';
import { expect, type V1Core, type V1RequestOptions } from '../client-core.js';

export function balanceCall({ send, urlOf }: V1Core) {
  return async function balance(callOptions?: V1RequestOptions): Promise<CompanyBalance> {
    const answer = await send('GET', urlOf('/balance/'), undefined, callOptions);
    return expect<CompanyBalance>(answer, 'balance', (record) => isPlainObject(record['e_commerce']));
  };
}
