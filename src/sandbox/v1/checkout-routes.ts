/**
 * The hosted checkout page at a Purchase's `checkout_url` (`/checkout/<id>/`): `?preferred=<method>`
 * preselects a method; the form posts to `/checkout/<id>/pay`; bank, wallet and 3-D Secure confirmations
 * are test steps at `/checkout/<id>/steps/<step>`. After the payment the customer is sent (303) to
 * `success_redirect` or `failure_redirect` when the Purchase has them, else shown the outcome here; the
 * "back to the shop" link is `cancel_redirect`.
 *
 * Served with a Content-Security-Policy that allows only the page's own stylesheets and logos (and the origin
 * of a merchant's brand logo URL), form posts to itself and to the Purchase's redirect origins (a form's
 * redirect counts as its action), and no framing.
 */
import type { ServerResponse } from 'node:http';
import type { SandboxConfig } from '../config.js';
import type { RequestContext, Router } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';
import { brandImageOrigin, mountBrandAssets } from './checkout-brand.js';
import { formPage } from './checkout-form-page.js';
import { CHECKOUT_CSS_PATH, notFoundPage, type PageContext } from './checkout-page.js';
import { CHECKOUT_CSS } from './checkout-page.styles.js';
import { type CheckoutOutcome, type CheckoutPayments, methodsFor } from './checkout-payments.js';
import { statusPage, stepPage } from './checkout-step-page.js';
import { pageLanguage, pageTranslator } from './checkout-texts.js';
import { findPaymentMethod, localize } from './method-catalogue.js';
import { checkoutPath, PAYABLE, type PurchaseRecord, type V1Purchases } from './purchases.js';
import { clientIpOf } from './request-context.js';

export interface CheckoutPageDeps {
  config: SandboxConfig;
  purchases: V1Purchases;
  payments: CheckoutPayments;
  /** The saved cards of the Purchase's Client (none without `client_id`), as the form offers them. */
  savedCards: (record: PurchaseRecord) => ReadonlyArray<{ id: string; description: string }>;
}

function securityHeaders(record: PurchaseRecord | undefined, logoOrigin?: string): Record<string, string> {
  const origins = new Set<string>();
  for (const url of [record?.purchase.success_redirect, record?.purchase.failure_redirect]) {
    if (url) origins.add(new URL(url).origin);
  }
  return {
    'content-security-policy': [
      "default-src 'none'",
      "style-src 'self'",
      `img-src 'self'${logoOrigin ? ` ${logoOrigin}` : ''}`,
      `form-action 'self'${[...origins].map((origin) => ` ${origin}`).join('')}`,
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  record?: PurchaseRecord,
  logoOrigin?: string,
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    ...securityHeaders(record, logoOrigin),
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

/** The form's choice for a method name: `card` for every card scheme (one choice), else the name itself. */
function choiceOf(methodName: string): string | undefined {
  return findPaymentMethod(methodName)?.group === 'card' ? 'card' : methodName || undefined;
}

export function mountCheckoutPage(router: Router, deps: CheckoutPageDeps): void {
  const merchantOf = (record: PurchaseRecord) =>
    deps.config.merchants.find((candidate) => candidate.id === record.merchantId);
  const contextOf = (record: PurchaseRecord): PageContext => {
    const language = pageLanguage(record.purchase.purchase.language);
    const merchant = merchantOf(record);
    return {
      record,
      merchantName: merchant?.brand?.name ?? merchant?.name ?? 'Merchant',
      ...(merchant?.brand && { brand: merchant.brand }),
      language,
      t: pageTranslator(language),
      nowSeconds: deps.purchases.nowSeconds(record.merchantId),
    };
  };
  /** A page of the Purchase, whose policy lets its brand's logo in. */
  const sendPage = (res: ServerResponse, status: number, html: string, record: PurchaseRecord) =>
    sendHtml(res, status, html, record, brandImageOrigin(merchantOf(record)?.brand));
  const load = (context: RequestContext): PurchaseRecord | undefined => {
    const record = deps.purchases.find(context.params['id'] ?? '');
    if (!record) sendHtml(context.res, 404, notFoundPage(pageTranslator('en')));
    else noteMerchant(context.req, record.merchantId);
    return record;
  };

  mountBrandAssets(router, deps.config);
  router.on('GET', CHECKOUT_CSS_PATH, ({ res }) => {
    res.writeHead(200, {
      'content-type': 'text/css; charset=utf-8',
      'content-length': Buffer.byteLength(CHECKOUT_CSS),
      'cache-control': 'public, max-age=3600',
    });
    res.end(CHECKOUT_CSS);
  });

  const showPage = (context: RequestContext) => {
    const record = load(context);
    if (!record) return;
    const page = contextOf(record);
    if (!PAYABLE.has(record.purchase.status)) {
      const gone = record.purchase.status === 'cancelled' || record.purchase.status === 'expired';
      sendPage(context.res, gone ? 410 : 200, statusPage(page), record);
      return;
    }
    deps.purchases.viewed(record);
    const methods = methodsFor(record);
    const preferred = context.url.searchParams.get('preferred') ?? '';
    const selected = methods.some((method) => method.name === preferred) ? choiceOf(preferred) : undefined;
    sendPage(
      context.res,
      200,
      formPage(page, {
        methods,
        savedCards: deps.savedCards(record),
        selected,
        alone: selected !== undefined,
        errors: [],
      }),
      record,
    );
  };
  router.on('GET', '/checkout/:id/', showPage);
  router.on('GET', '/checkout/:id', showPage);

  router.on('POST', '/checkout/:id/pay', async (context) => {
    // The body first, then the purchase: what was read before an await may be stale after it, and a double
    // submit must find the purchase already paid.
    const form = new URLSearchParams((await context.rawBody()).toString('utf8'));
    const record = load(context);
    if (!record) return;
    const field = (name: string) => form.get(name) ?? '';
    const submission = {
      method: field('method'),
      card: {
        number: field('card_number'),
        expiry: field('card_expiry'),
        cvc: field('card_cvc'),
        holder: field('card_holder'),
      },
    };
    // The customer's address, as the platform records it on their payment attempt (`client_ip`).
    const payerIp = clientIpOf(context.req);
    const outcome = deps.payments.submit({ ...record, payerIp }, submission);
    answer(context, outcome, {
      method: submission.method,
      values: { card_expiry: submission.card.expiry, card_holder: submission.card.holder },
    });
  });

  router.on('GET', '/checkout/:id/steps/:stepId', (context) => {
    const record = load(context);
    if (!record) return;
    const step = record.step;
    if (!step || step.id !== context.params['stepId'] || !PAYABLE.has(record.purchase.status)) {
      redirect(context.res, checkoutPath(record.purchase.id));
      return;
    }
    const page = contextOf(record);
    const method = findPaymentMethod(step.method);
    sendPage(
      context.res,
      200,
      stepPage(page, step, method ? localize(method.displayName, page.language) : step.method),
      record,
    );
  });

  router.on('POST', '/checkout/:id/steps/:stepId', async (context) => {
    const form = new URLSearchParams((await context.rawBody()).toString('utf8'));
    const record = load(context);
    if (!record) return;
    const approve = form.get('decision') === 'approve';
    const outcome = deps.payments.answerStep(record, context.params['stepId'] ?? '', approve);
    if (outcome.kind === 'invalid') {
      redirect(context.res, checkoutPath(record.purchase.id));
      return;
    }
    answer(context, outcome, { method: record.step?.method ?? '' });
  });

  /** Sends the customer where the outcome leads. */
  function answer(
    context: RequestContext,
    outcome: CheckoutOutcome,
    form: { method: string; values?: { card_expiry: string; card_holder: string } },
  ): void {
    const { record } = outcome;
    const { purchase } = record;
    const page = contextOf(record);
    const selected = choiceOf(form.method);
    switch (outcome.kind) {
      case 'paid':
        if (purchase.success_redirect !== null) redirect(context.res, purchase.success_redirect);
        else sendPage(context.res, 200, statusPage(page), record);
        return;
      case 'closed':
        // Past a strict deadline the form comes back as it was sent, but for the card number and CVC, so what
        // the customer typed is not lost with the time (WCAG 2.2.1); it can no longer be sent.
        if (purchase.status === 'expired' && form.values) {
          sendPage(
            context.res,
            410,
            formPage(page, {
              methods: methodsFor(record),
              savedCards: deps.savedCards(record),
              selected,
              errors: [],
              expired: true,
              values: form.values,
            }),
            record,
          );
          return;
        }
        if (
          (purchase.status === 'paid' || purchase.status === 'hold' || purchase.status === 'preauthorized') &&
          purchase.success_redirect !== null
        ) {
          redirect(context.res, purchase.success_redirect);
        } else redirect(context.res, checkoutPath(purchase.id));
        return;
      case 'step':
        redirect(context.res, `${checkoutPath(purchase.id)}steps/${outcome.step.id}`);
        return;
      case 'failed':
      case 'retry':
        // A retryable error keeps the customer on the page even when the purchase has a failure redirect.
        if (outcome.kind === 'failed' && purchase.failure_redirect !== null) {
          redirect(context.res, purchase.failure_redirect);
          return;
        }
        sendPage(
          context.res,
          200,
          formPage(page, {
            methods: methodsFor(record),
            savedCards: deps.savedCards(record),
            selected,
            errors: [],
            failure: outcome.reason,
          }),
          record,
        );
        return;
      case 'invalid':
        sendPage(
          context.res,
          400,
          formPage(page, {
            methods: methodsFor(record),
            savedCards: deps.savedCards(record),
            selected,
            errors: outcome.errors,
            ...(form.values && { values: form.values }),
          }),
          record,
        );
        return;
    }
  }
}
