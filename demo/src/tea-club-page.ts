/**
 * The Tea club page: a customer joins the shop's subscription plan with their e-mail
 * (`POST /api/v1/subscribe`). With the free month they are active at once, and the page says when the first
 * charge is; without it the page sends them to the first month's payment page (the Purchase's
 * `checkout_url`, which saves the card). That Purchase has no redirects (the gateway makes it), so before
 * leaving the page puts the plan and e-mail in its own address: Back from the payment page reads the
 * subscription again (`GET /api/v1/subscription`) and shows it active.
 */
import { money } from '../merchant/v1-cart.js';
import type { Plan, PlanId, Subscription, V1_SUBSCRIPTION_PATHS } from '../merchant/v1-subscriptions.js';

const PATHS: Pick<typeof V1_SUBSCRIPTION_PATHS, 'plans' | 'subscribe' | 'subscription'> = {
  plans: '/api/v1/plans',
  subscribe: '/api/v1/subscribe',
  subscription: '/api/v1/subscription',
};

const form = document.querySelector<HTMLFormElement>('#join')!;
const plansField = document.querySelector<HTMLFieldSetElement>('#plans')!;
const emailField = document.querySelector<HTMLInputElement>('#customer-email')!;
const joinButton = document.querySelector<HTMLButtonElement>('#join-button')!;
const error = document.querySelector<HTMLElement>('#join-error')!;
const status = document.querySelector<HTMLElement>('#subscription-status')!;

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** What the customer reads of their subscription. */
function describe(subscription: Subscription): string {
  const plan = subscription.planTitle;
  switch (subscription.status) {
    case 'active':
      return subscription.nextBillingOn
        ? `You are in the ${plan}: active. The next charge is on ${dateOf(subscription.nextBillingOn)}.`
        : `You are in the ${plan}: active.`;
    case 'pending':
      return `Your ${plan} subscription waits for the first month's payment.`;
    case 'paused':
      return `Your ${plan} subscription is paused: nothing is charged until the shop resumes it.`;
    case 'cancelled':
      return `Your ${plan} subscription is cancelled.`;
  }
}

function show(subscription: Subscription, more = ''): void {
  status.dataset['status'] = subscription.status;
  status.textContent = `${describe(subscription)}${more}`;
}

async function loadPlans(): Promise<void> {
  const response = await fetch(PATHS.plans);
  const body = (await response.json().catch(() => ({}))) as { plans?: Plan[]; message?: string };
  if (!response.ok || !body.plans) {
    error.textContent = body.message ?? `The plans could not be read (HTTP ${response.status}).`;
    return;
  }
  const chosen = new URLSearchParams(location.search).get('plan');
  plansField.append(
    ...body.plans.map((plan, index) => {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = 'plan';
      input.value = plan.id;
      input.checked = chosen === null ? index === 0 : chosen === plan.id;
      const text = document.createElement('span');
      const free = plan.trialMonths === 1 ? 'month' : `${plan.trialMonths} months`;
      text.textContent = `${plan.title}: ${money(plan.price, plan.currency)} a month, ${
        plan.trialMonths > 0 ? `the first ${free} free` : 'the first month paid today'
      }`;
      label.append(input, ' ', text);
      return label;
    }),
  );
  joinButton.disabled = false;
}

/** The subscription named in the page's address (back from the payment page), read again. */
async function showReturning(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const plan = query.get('plan');
  const email = query.get('email');
  if (!plan || !email) return;
  emailField.value = email;
  const response = await fetch(`${PATHS.subscription}?${new URLSearchParams({ plan, email })}`);
  const body = (await response.json().catch(() => ({}))) as Partial<Subscription> & { message?: string };
  if (response.ok && body.status) show(body as Subscription);
  else error.textContent = body.message ?? `The subscription could not be read (HTTP ${response.status}).`;
}

async function join(): Promise<void> {
  error.textContent = '';
  emailField.removeAttribute('aria-invalid');
  const plan = form.querySelector<HTMLInputElement>('input[name="plan"]:checked')?.value as
    | PlanId
    | undefined;
  joinButton.disabled = true;
  try {
    const response = await fetch(PATHS.subscribe, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ plan, email: emailField.value }),
    });
    const body = (await response.json().catch(() => ({}))) as Partial<Subscription> & {
      error?: string;
      message?: string;
    };
    if (!response.ok || !body.status) {
      if (body.error === 'invalid_email') {
        emailField.setAttribute('aria-invalid', 'true');
        emailField.focus();
      }
      error.textContent = body.message ?? `The shop answered HTTP ${response.status}.`;
      return;
    }
    const joined = body as Subscription;
    if (joined.status === 'pending' && joined.checkoutUrl) {
      show(joined, ' Taking you to the payment page…');
      // Back from the payment page lands on this address, which reads the subscription again.
      history.replaceState(
        null,
        '',
        `?${new URLSearchParams({ plan: joined.plan, email: joined.email ?? '' })}`,
      );
      location.assign(joined.checkoutUrl);
      return;
    }
    if (joined.status === 'active' && joined.plan === 'trial' && joined.nextBillingOn) {
      // Just joined in the free month: the next charge is the first.
      status.dataset['status'] = joined.status;
      status.textContent = `You are in the ${joined.planTitle}: active. Nothing is charged today; the first charge is on ${dateOf(joined.nextBillingOn)}.`;
      return;
    }
    show(joined);
  } catch (failure) {
    error.textContent = `The shop could not be reached: ${failure instanceof Error ? failure.message : String(failure)}`;
  } finally {
    joinButton.disabled = false;
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  void join();
});
// Also when the page comes back from the back-forward cache, where its old words would stay.
window.addEventListener('pageshow', () => void showReturning());
void loadPlans();
