/**
 * The hosted checkout page at a Purchase's `checkout_url` (`/checkout/<id>/`): `?preferred=<method>`
 * preselects a method; the form posts to `/checkout/<id>/pay`; bank, wallet and 3-D Secure confirmations
 * are test steps at `/checkout/<id>/steps/<step>`. After the payment the customer is sent (303) to
 * `success_redirect` or `failure_redirect` when the Purchase has them, else shown the outcome here; the
 * "back to the shop" link is `cancel_redirect`.
 *
 * Served with a Content-Security-Policy that allows only the page's own stylesheets and logos (and the origin
 * of a merchant's brand logo URL), form posts to itself and to the Purchase's redirect origins (a form's
 * redirect counts as its action), and no framing. The payment form's one script, its card form
 * (src/frame/hosted-card-form.ts, built by vite.config.ts and served at `/checkout/scripts/<built name>`), is
 * allowed by its exact address: nothing inline, no other file of the gateway's. The form works without it,
 * and is sent without it when the build lacks it.
 */
import type { ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { BuiltFiles } from '../built-files.js';
import type { SandboxConfig } from '../config.js';
import { HttpError, type RequestContext, type Router } from '../http.js';
import { noteMerchant } from '../sandbox-log.js';
import { brandImageOrigin, mountBrandAssets } from './checkout-brand.js';
import { CARD_FIELDS_CSS } from './checkout-card-fields.styles.js';
import { type FormPageOptions, formPage } from './checkout-form-page.js';
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
  /** The browser build (dist/browser), whose `checkout/checkout-card.js` the payment form loads. */
  browserRoot: string;
  /** A merchant's clock, which the form's script counts a `due_strict` deadline on. */
  now: (merchantId: string) => Date;
}

/** Where the built card form script is served: `/checkout/scripts/<its built name>`. */
const SCRIPTS_PATH = '/checkout/scripts/';
/** The script's role in the build's served-files.json (vite.config.ts). */
const CARD_SCRIPT_ROLE = 'checkout/checkout-card.js';
/** A Host header as browsers send it: a name or an IP literal, and a port. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * `logoOrigin`: where the brand's logo comes from. `script`: the page's script by its absolute URL; a source
 * with a path allows that file alone, which `'self'` (an origin) cannot say.
 */
function securityHeaders(
  record: PurchaseRecord | undefined,
  logoOrigin?: string,
  script?: string,
): Record<string, string> {
  const origins = new Set<string>();
  for (const url of [record?.purchase.success_redirect, record?.purchase.failure_redirect]) {
    if (url) origins.add(new URL(url).origin);
  }
  return {
    'content-security-policy': [
      "default-src 'none'",
      ...(script ? [`script-src ${script}`] : []),
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
  script?: string,
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    ...securityHeaders(record, logoOrigin, script),
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
  const sendPage = (
    res: ServerResponse,
    status: number,
    html: string,
    record: PurchaseRecord,
    script?: string,
  ) => sendHtml(res, status, html, record, brandImageOrigin(merchantOf(record)?.brand), script);
  const load = (context: RequestContext): PurchaseRecord | undefined => {
    const record = deps.purchases.find(context.params['id'] ?? '');
    if (!record) sendHtml(context.res, 404, notFoundPage(pageTranslator('en')));
    else noteMerchant(context.req, record.merchantId);
    return record;
  };

  mountBrandAssets(router, deps.config);
  const stylesheet = `${CHECKOUT_CSS}${CARD_FIELDS_CSS}`;
  router.on('GET', CHECKOUT_CSS_PATH, ({ res }) => {
    res.writeHead(200, {
      'content-type': 'text/css; charset=utf-8',
      'content-length': Buffer.byteLength(stylesheet),
      'cache-control': 'public, max-age=3600',
    });
    res.end(stylesheet);
  });

  const built = new BuiltFiles(deps.browserRoot);
  router.on('GET', `${SCRIPTS_PATH}:file`, async (context) => {
    const path = `checkout/${context.params['file'] ?? ''}`;
    const cacheControl =
      (await built.resolve(CARD_SCRIPT_ROLE)) === path.replace(/\.map$/, '')
        ? await built.cachePolicy(path, () => false)
        : undefined;
    if (!cacheControl) throw new HttpError(404, 'not_found', `No checkout script ${context.params['file']}`);
    await built.send(context, path, cacheControl);
  });

  /**
   * Sends the payment form with its card form script, when the build has it: the script's address, allowed
   * by the page's policy alone, and the merchant's clock.
   */
  const sendForm = async (
    context: RequestContext,
    status: number,
    record: PurchaseRecord,
    options: FormPageOptions,
  ): Promise<void> => {
    const page = contextOf(record);
    const file = await built.resolve(CARD_SCRIPT_ROLE);
    const host = context.req.headers.host ?? '';
    if (!(await built.cachePolicy(file, () => false)) || !HOST.test(host)) {
      sendPage(context.res, status, formPage(page, options), record);
      return;
    }
    const src = `${SCRIPTS_PATH}${file.slice('checkout/'.length)}`;
    const origin = `${(context.req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${host}`;
    const script = { src, now: deps.now(record.merchantId).getTime() };
    sendPage(context.res, status, formPage(page, { ...options, script }), record, `${origin}${src}`);
  };

  const showPage = async (context: RequestContext) => {
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
    await sendForm(context, 200, record, {
      methods,
      savedCards: deps.savedCards(record),
      selected,
      alone: selected !== undefined,
      errors: [],
    });
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
    await answer(context, outcome, {
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
    await answer(context, outcome, { method: record.step?.method ?? '' });
  });

  /** Sends the customer where the outcome leads. */
  async function answer(
    context: RequestContext,
    outcome: CheckoutOutcome,
    form: { method: string; values?: { card_expiry: string; card_holder: string } },
  ): Promise<void> {
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
        await sendForm(context, 200, record, {
          methods: methodsFor(record),
          savedCards: deps.savedCards(record),
          selected,
          errors: [],
          failure: outcome.reason,
        });
        return;
      case 'invalid':
        await sendForm(context, 400, record, {
          methods: methodsFor(record),
          savedCards: deps.savedCards(record),
          selected,
          errors: outcome.errors,
          ...(form.values && { values: form.values }),
        });
        return;
    }
  }
}
