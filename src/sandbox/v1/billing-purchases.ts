/**
 * The Purchases v1 billing makes (an invoice, a subscriber's first Purchase, each period's billing), made as
 * `POST /purchases/` would make them: the template's request checked by `readCreatePurchase` against its
 * merchant's agreement, the Client's details filled in, the billing template named on the Purchase.
 */
import type {
  BillingTemplate,
  BillingTemplateClientSettings,
  CreatePurchaseRequest,
} from '../../core/v1-types.js';
import type { SandboxClocks } from '../clock.js';
import type { MerchantConfig } from '../config.js';
import { periodOf, periodStart, type TemplateFields } from './billing-request.js';
import type { V1Clients } from './clients.js';
import { V1HttpError } from './errors.js';
import { readCreatePurchase, requestContextOf } from './purchase-request.js';
import type { PurchaseRecord, V1Purchases } from './purchases.js';
import type { V1Merchant } from './request-context.js';

/** The members a template adds to the Purchase create requests it makes. */
export type PurchaseOptions = Pick<
  CreatePurchaseRequest,
  'force_recurring' | 'skip_capture' | 'due' | 'payment_method_whitelist'
>;

/** The Purchases of a one-time template (and of `POST /billing/`): its `invoice_*` members. */
export function invoiceOptions(template: TemplateFields): PurchaseOptions {
  return {
    force_recurring: template.force_recurring,
    skip_capture: template.invoice_skip_capture,
    ...(template.invoice_due !== null && { due: template.invoice_due }),
  };
}

export class BillingPurchaseMaker {
  constructor(
    private readonly deps: {
      clocks: SandboxClocks;
      purchases: V1Purchases;
      clients: V1Clients;
      merchants: readonly MerchantConfig[];
    },
  ) {}

  /** What a subscription adds to its Purchases: the card saved, due after the template's due period. */
  options(
    merchantId: string,
    template: TemplateFields,
    settings: BillingTemplateClientSettings,
  ): PurchaseOptions {
    const { subscription_due_period: due, subscription_due_period_units: units } = template;
    return {
      force_recurring: true,
      ...(due !== null &&
        units !== null && {
          due: Math.floor(
            periodStart(this.deps.clocks.for(merchantId).nowMs(), periodOf(due, units), 1) / 1000,
          ),
        }),
      ...(settings.payment_method_whitelist && {
        payment_method_whitelist: settings.payment_method_whitelist,
      }),
    };
  }

  /**
   * The Purchase create request of the template for the Client, checked as `POST /purchases/` checks it.
   * @throws V1HttpError 400 with its issues.
   */
  request(
    merchantId: string,
    template: Pick<BillingTemplate, 'brand_id' | 'purchase'>,
    clientId: string,
    options: PurchaseOptions,
  ) {
    const merchant = this.deps.merchants.find((candidate) => candidate.id === merchantId);
    const context = merchant?.v1 ? requestContextOf(merchant as V1Merchant) : undefined;
    const read = context
      ? readCreatePurchase(
          { brand_id: template.brand_id, purchase: template.purchase, client_id: clientId, ...options },
          context,
        )
      : { issues: [{ field: '__all__', code: 'invalid' as const, message: `No v1 merchant ${merchantId}` }] };
    if ('issues' in read) throw V1HttpError.invalid(read.issues);
    return read.draft;
  }

  /** A Purchase of the template for the Client, made as `POST /purchases/` would make it. */
  make(
    merchantId: string,
    template: Pick<BillingTemplate, 'brand_id' | 'purchase'> & { id?: string },
    clientId: string,
    options: PurchaseOptions,
    baseUrl: string,
  ): PurchaseRecord {
    const draft = this.request(merchantId, template, clientId, options);
    const client = this.deps.clients.purchaseClient(merchantId, clientId);
    return this.deps.purchases.create(
      merchantId,
      { ...draft, client },
      {
        baseUrl,
        ...(template.id !== undefined && { billingTemplateId: template.id }),
      },
    );
  }
}
