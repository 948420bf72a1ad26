/**
 * The demo shop's subscription plan, "Tea club", on the v1 billing templates: the back end makes the plan's
 * two templates (monthly, with a first month free and without) on first use, reusing those an earlier run
 * left on the same account. A customer joins with their e-mail (their Client, as at the v1 checkout): with
 * the free month they are `active` at once; without it they are `pending` until they pay the first month at
 * the Purchase's `checkout_url`, which saves their card for the months after. The sandbox charges it on its
 * clock.
 *
 * For the staff: the subscribers (pause, resume, cancel), what the gateway would have mailed to customers
 * (the sandbox's outbox: a sandbox feature, not the gateway's), the balance, and a statement download.
 *
 * Routes:
 *   GET  /api/v1/plans                               the plans, as the shop page shows them
 *   POST /api/v1/subscribe                           {plan, email} → Subscription (201)
 *   GET  /api/v1/subscription?plan=&email=           one customer's Subscription
 *   GET  /api/v1/back-office/subscriptions           {subscriptions}
 *   POST /api/v1/back-office/subscription-status     {plan, clientId, status} → {subscription, message}
 *   GET  /api/v1/back-office/outbox                  {messages}: the sandbox's outbox, newest first
 *   GET  /api/v1/back-office/balance                 the company balance (`GET /balance/`)
 *   GET  /api/v1/back-office/statement.csv           a statement of every Purchase, as an attachment
 */
import {
  type BillingTemplate,
  type BillingTemplateClient,
  type BillingTemplateClientPatch,
  type CompanyBalance,
  type FetchHandler,
  type OutboxMessage,
  type Purchase,
  paginate,
  V1ApiError,
  type V1Client,
  type V1Page,
} from 'svc-checkout/server';
import { json, methodNotAllowed } from './json-answers.js';
import { Refusal, readBody, refusal } from './json-requests.js';
import { V1_CURRENCY } from './v1-cart.js';
import { readEmail, type V1Customers } from './v1-customers.js';

/** The shop's routes of its subscription plan. */
export const V1_SUBSCRIPTION_PATHS = {
  plans: '/api/v1/plans',
  subscribe: '/api/v1/subscribe',
  subscription: '/api/v1/subscription',
  subscriptions: '/api/v1/back-office/subscriptions',
  subscriptionStatus: '/api/v1/back-office/subscription-status',
  outbox: '/api/v1/back-office/outbox',
  balance: '/api/v1/back-office/balance',
  statement: '/api/v1/back-office/statement.csv',
} as const;

/** The plan's variants: with a first month free, and without. */
export type PlanId = 'trial' | 'monthly';

/** The monthly price of the Tea club, in cents. */
const PLAN_PRICE = 990;

const PLANS: Readonly<Record<PlanId, { title: string; trialMonths: number }>> = {
  trial: { title: 'Tea club, first month free', trialMonths: 1 },
  monthly: { title: 'Tea club', trialMonths: 0 },
};

/** A plan as the shop page shows it. */
export interface Plan {
  id: PlanId;
  title: string;
  /** Cents a month. */
  price: number;
  currency: string;
  /** Free months before the first charge. */
  trialMonths: number;
}

/** A subscriber as the shop and its staff see it. */
export interface Subscription {
  plan: PlanId;
  planTitle: string;
  clientId: string;
  email: string | null;
  status: BillingTemplateClient['status'];
  /** ISO 8601 of the next charge; null while pending, and once cancelled. */
  nextBillingOn: string | null;
  /** The first month's payment page while `pending`; null otherwise. */
  checkoutUrl: string | null;
}

/** What a change of status answers. */
export interface SubscriptionChanged {
  subscription: Subscription;
  message: string;
}

/** The statuses the staff can set. */
const STATUS_VERBS: Readonly<Record<NonNullable<BillingTemplateClientPatch['status']>, string>> = {
  active: 'Resumed',
  paused: 'Paused',
  cancelled: 'Cancelled',
};

export interface V1SubscriptionsDeps {
  client: V1Client;
  customers: V1Customers;
  brandId: string;
  /** The gateway's base URL: the outbox is the sandbox's, beside `/api/v1`. */
  gatewayUrl: string;
  /** Read by the outbox, which takes the merchant's bearer key as the API does. */
  secretKey: string;
}

const isPlanId = (value: unknown): value is PlanId => value === 'trial' || value === 'monthly';
const isoOf = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

/** Creates the routes of the subscription plan. Nothing is asked of the gateway before a request. */
export function createV1Subscriptions(deps: V1SubscriptionsDeps): ReadonlyMap<string, FetchHandler> {
  const { client } = deps;

  let templates: Promise<Record<PlanId, BillingTemplate>> | undefined;
  /** The plan's templates: made once, or found on the account (a restart on a kept `.sandbox`). */
  const planTemplates = (): Promise<Record<PlanId, BillingTemplate>> => {
    if (!templates) {
      const attempt = (async () => {
        const existing = await client.billingTemplates.list().toArray();
        const made = {} as Record<PlanId, BillingTemplate>;
        for (const id of Object.keys(PLANS) as PlanId[]) {
          const { title, trialMonths } = PLANS[id];
          made[id] =
            existing.find((template) => template.is_subscription && template.title === title) ??
            (await client.billingTemplates.create({
              brand_id: deps.brandId,
              title,
              is_subscription: true,
              subscription_period: 1,
              subscription_period_units: 'months',
              subscription_trial_periods: trialMonths,
              purchase: {
                currency: V1_CURRENCY,
                language: 'en',
                products: [{ name: 'Tea club: a month of tea', price: PLAN_PRICE, quantity: 1 }],
              },
            }));
        }
        return made;
      })();
      templates = attempt;
      attempt.catch(() => {
        if (templates === attempt) templates = undefined;
      });
    }
    return templates;
  };

  /** `purchase`: the subscriber's first Purchase when the caller has it already (`add_subscriber`'s answer). */
  async function view(
    plan: PlanId,
    subscriber: BillingTemplateClient,
    purchase?: Purchase | null,
  ): Promise<Subscription> {
    const checkoutUrl =
      subscriber.status === 'pending' && subscriber.purchase_id !== null
        ? (purchase ?? (await client.purchases.get(subscriber.purchase_id))).checkout_url
        : null;
    return {
      plan,
      planTitle: PLANS[plan].title,
      clientId: subscriber.client_id,
      email: subscriber.client?.email ?? null,
      status: subscriber.status,
      nextBillingOn: isoOf(subscriber.next_billing_on),
      checkoutUrl,
    };
  }

  /** The customer's subscription to the plan, or undefined when they have none. */
  async function find(plan: PlanId, clientId: string): Promise<BillingTemplateClient | undefined> {
    const template = (await planTemplates())[plan];
    return client.billingTemplates.clients.get(template.id, clientId).catch((error: unknown) => {
      if (error instanceof V1ApiError && error.code === 'not_found') return undefined;
      throw error;
    });
  }

  /** Reads `plan` and `email`, from a JSON body or a query. */
  function readCustomer(values: Record<string, unknown>): { plan: PlanId; email: string } {
    const { plan, email } = values;
    if (!isPlanId(plan)) {
      throw refusal(
        400,
        'invalid_plan',
        `plan must be one of ${Object.keys(PLANS).join(', ')}, not ${JSON.stringify(plan)}`,
      );
    }
    const read = readEmail(email);
    if ('error' in read) throw refusal(400, 'invalid_email', read.error);
    return { plan, email: read.email };
  }

  /** Runs a route, answering refusals with their status and the gateway's silence with 502. */
  const guarded =
    (method: 'GET' | 'POST', what: string, handle: (request: Request) => Promise<Response>): FetchHandler =>
    async (request) => {
      if (request.method !== method) return methodNotAllowed(method);
      try {
        return await handle(request);
      } catch (error) {
        if (error instanceof Refusal) return json(error.status, error.body);
        // The gateway's own words go to the server log; the page gets what to do.
        console.error(`demo shop: ${what} failed:`, error);
        return json(502, {
          error: 'gateway_error',
          message: `The gateway did not answer (${what}); try again`,
        });
      }
    };

  const plans = guarded('GET', 'listing the plans', async () => {
    const listed: Plan[] = (Object.keys(PLANS) as PlanId[]).map((id) => ({
      id,
      title: PLANS[id].title,
      price: PLAN_PRICE,
      currency: V1_CURRENCY,
      trialMonths: PLANS[id].trialMonths,
    }));
    return json(200, { plans: listed });
  });

  const subscribe = guarded('POST', 'joining the plan', async (request) => {
    const { plan, email } = readCustomer(await readBody(request, ['plan', 'email']));
    const clientId = await deps.customers.clientIdFor(email);
    // Joining twice is the same subscription: a pending one is paid at the same page.
    const known = await find(plan, clientId);
    if (known) return json(200, await view(plan, known));
    const template = (await planTemplates())[plan];
    let added: Awaited<ReturnType<V1Client['billingTemplates']['addSubscriber']>>;
    try {
      added = await client.billingTemplates.addSubscriber(template.id, { client_id: clientId });
    } catch (error) {
      // A join at the same moment added the Client first: this one is the same subscription.
      const joined =
        error instanceof V1ApiError && error.code === 'bad_request' && (await find(plan, clientId));
      if (!joined) throw error;
      return json(200, await view(plan, joined));
    }
    return json(201, await view(plan, added.billing_template_client, added.purchase));
  });

  const subscription = guarded('GET', 'reading a subscription', async (request) => {
    const query = new URL(request.url).searchParams;
    const { plan, email } = readCustomer({ plan: query.get('plan'), email: query.get('email') });
    // A look-up: an e-mail the shop does not know makes no Client.
    const clientId = await deps.customers.findClientId(email);
    const found = clientId === undefined ? undefined : await find(plan, clientId);
    if (!found) throw refusal(404, 'not_subscribed', `${email} has not joined the ${PLANS[plan].title}`);
    return json(200, await view(plan, found));
  });

  const subscriptions = guarded('GET', 'listing the subscriptions', async () => {
    const made = await planTemplates();
    const all: Subscription[] = [];
    for (const plan of Object.keys(PLANS) as PlanId[]) {
      for await (const subscriber of client.billingTemplates.clients.list(made[plan].id)) {
        all.push(await view(plan, subscriber));
      }
    }
    return json(200, { subscriptions: all });
  });

  const subscriptionStatus = guarded('POST', 'changing a subscription', async (request) => {
    const { plan, clientId, status } = await readBody(request, ['plan', 'clientId', 'status']);
    if (!isPlanId(plan))
      throw refusal(400, 'invalid_plan', `plan must be trial or monthly, not ${JSON.stringify(plan)}`);
    if (typeof clientId !== 'string' || clientId === '') {
      throw refusal(400, 'invalid_request', "clientId is required: the subscriber's Client id");
    }
    if (status !== 'active' && status !== 'paused' && status !== 'cancelled') {
      throw refusal(
        400,
        'invalid_status',
        `status must be active, paused or cancelled, not ${JSON.stringify(status)}`,
      );
    }
    const template = (await planTemplates())[plan];
    let changed: BillingTemplateClient;
    try {
      changed = await client.billingTemplates.clients.patch(template.id, clientId, { status });
    } catch (error) {
      if (!(error instanceof V1ApiError)) throw error;
      if (error.code === 'not_found') {
        throw refusal(
          404,
          'unknown_subscription',
          `Client ${clientId} has not joined the ${PLANS[plan].title}`,
        );
      }
      if (error.code !== 'bad_request') throw error;
      throw refusal(
        422,
        'refused',
        `The gateway refused to set the subscription to ${status}: ${error.message}`,
      );
    }
    const shown = await view(plan, changed);
    const done: SubscriptionChanged = {
      subscription: shown,
      message: `${STATUS_VERBS[status]} the ${shown.planTitle} subscription of ${shown.email ?? clientId}${
        shown.nextBillingOn ? `; next billing ${shown.nextBillingOn.slice(0, 10)}` : ''
      }.`,
    };
    return json(200, done);
  });

  const outbox = guarded('GET', 'reading the outbox', async () => {
    // Walked along `next` as the API's lists are, on the gateway's origin only: the pages carry the key.
    const outboxPages = paginate<OutboxMessage>(
      `${deps.gatewayUrl}/sandbox/v1/outbox/?per_page=100`,
      async (url) => {
        const answer = await fetch(url, { headers: { authorization: `Bearer ${deps.secretKey}` } });
        if (!answer.ok) throw new Error(`GET ${url} answered ${answer.status}: ${await answer.text()}`);
        return (await answer.json()) as V1Page<OutboxMessage>;
      },
    );
    const messages = await outboxPages.toArray();
    messages.sort((a, b) => b.created_on - a.created_on);
    return json(200, { messages });
  });

  const balance = guarded('GET', 'reading the balance', async () => {
    const read: CompanyBalance = await client.balance();
    return json(200, read);
  });

  const statement = guarded('GET', 'making a statement', async () => {
    const made = await client.statements.create({ format: 'csv', timezone: 'UTC' });
    const file = await client.statements.download(made.id, { waitMs: 30_000 });
    return new Response(file.body, {
      status: 200,
      headers: {
        'content-type': file.contentType,
        'content-disposition': `attachment; filename="statement-${made.id}.csv"`,
        'cache-control': 'no-store',
      },
    });
  });

  return new Map<string, FetchHandler>([
    [V1_SUBSCRIPTION_PATHS.plans, plans],
    [V1_SUBSCRIPTION_PATHS.subscribe, subscribe],
    [V1_SUBSCRIPTION_PATHS.subscription, subscription],
    [V1_SUBSCRIPTION_PATHS.subscriptions, subscriptions],
    [V1_SUBSCRIPTION_PATHS.subscriptionStatus, subscriptionStatus],
    [V1_SUBSCRIPTION_PATHS.outbox, outbox],
    [V1_SUBSCRIPTION_PATHS.balance, balance],
    [V1_SUBSCRIPTION_PATHS.statement, statement],
  ]);
}
