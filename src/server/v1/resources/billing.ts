/** `POST /billing/`: one-off invoices, one Purchase per Client. */
import type { BillingRequest } from '../../../core/v1-types.js';
import { requireObject, type V1Core, type V1RequestOptions } from '../client-core.js';
import { V1ApiError } from '../errors.js';

/** `POST /billing/`: one-off invoices. */
export interface V1Billing {
  /**
   * `POST /billing/`: one Purchase per Client, each sent as an invoice (its `checkout_url`); no template is
   * stored. Resolves the Purchase ids, in the order of `clients`.
   * @throws V1ApiError `bad_request` naming each refused field (`clients[0].client_id`, `purchase.products`, ...).
   */
  create(body: BillingRequest, options?: V1RequestOptions): Promise<string[]>;
}

export function billingResource({ send, urlOf }: V1Core): V1Billing {
  return {
    async create(body, callOptions) {
      requireObject(body, 'The billing body must be an object');
      const answer = await send('POST', urlOf('/billing/'), body, callOptions);
      if (!Array.isArray(answer) || !answer.every((id) => typeof id === 'string')) {
        throw new V1ApiError('invalid_response', 'POST /billing/ did not answer an array of Purchase ids', {
          body: answer,
        });
      }
      return answer as string[];
    },
  };
}
