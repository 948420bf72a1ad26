/**
 * The sandbox's test helpers for v1: a Purchase paid by card (approved, declined, 3-D Secure approved and
 * denied) and by a bank method (approved, denied) through the hosted page's code, in process and over HTTP
 * with the bearer secret key; and each event `trigger` fires, done by the action that causes it, with its
 * webhook delivered, and refused where it does not apply.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { TestHelperError } from '../../../src/sandbox/test-helpers/test-helper-error.js';
import type { FakeMerchant } from '../support.js';
import { expectWebhookEvents, OTHER, purchaseBody, V1, v1, withV1Sandbox } from '../v1/support.js';

const WEBHOOK_PATH = '/v1/webhook';
const CALLBACK_PATH = '/v1/callback';

describe('test helpers: v1', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let webhookKey: string;

  before(async () => {
    ({ merchant, sandbox } = fixture);
    const webhook = await v1(sandbox, 'POST', '/webhooks/', {
      body: { title: 'all', callback: `${merchant.url}${WEBHOOK_PATH}`, all_events: true },
    });
    webhookKey = webhook.body.public_key;
  });

  async function createPurchase(overrides: Record<string, unknown> = {}): Promise<string> {
    const created = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ success_callback: `${merchant.url}${CALLBACK_PATH}`, ...overrides }),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  }

  async function refusal(call: Promise<unknown>) {
    const error = await call.then(
      () => assert.fail('not refused'),
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof TestHelperError, String(error));
    return { code: error.code, field: error.field, message: error.message };
  }

  const helperPost = (path: string, body: unknown, key: string | null = V1.secretKey) =>
    fetch(`${sandbox.url}/sandbox/test-helpers/v1/${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key !== null && { authorization: `Bearer ${key}` }),
      },
      body: JSON.stringify(body),
    });

  it('pays by card in process: the success callback and purchase.paid go out', async () => {
    const id = await createPurchase();
    const paid = await sandbox.testHelpers.payPurchase({ purchaseId: id, card: 'visa' });
    assert.equal(paid.outcome, 'paid');
    assert.equal(paid.purchase.status, 'paid');
    assert.equal(paid.purchase.transaction_data.attempts[0]?.payment_method, 'visa');
    await expectWebhookEvents(merchant, WEBHOOK_PATH, id, ['purchase.created', 'purchase.paid'], webhookKey);
    await merchant.waitFor(CALLBACK_PATH, 1);
    assert.ok(merchant.requests(CALLBACK_PATH).some((request) => JSON.parse(request.body).id === id));
  });

  it('a declined card and a denied 3-D Secure fail the attempt; an approved 3-D Secure pays', async () => {
    const declinedId = await createPurchase();
    const declined = await sandbox.testHelpers.payPurchase({
      purchaseId: declinedId,
      card: 'insufficientFunds',
    });
    assert.equal(declined.outcome, 'failed');
    assert.equal(declined.outcome === 'failed' && declined.error.code, 'insufficient_funds');
    assert.equal(declined.purchase.status, 'error');
    await expectWebhookEvents(merchant, WEBHOOK_PATH, declinedId, [
      'purchase.created',
      'purchase.payment_failure',
    ]);

    const deniedId = await createPurchase();
    const denied = await sandbox.testHelpers.payPurchase({
      purchaseId: deniedId,
      card: 'threeDSecure',
      threeDSecure: 'deny',
    });
    assert.equal(denied.outcome === 'failed' && denied.error.code, 'authentication_failed');
    const approved = await sandbox.testHelpers.payPurchase({
      purchaseId: deniedId,
      card: 'threeDSecure',
      threeDSecure: 'approve',
    });
    assert.equal(approved.outcome, 'paid');
  });

  it('pays by a bank method of the checkout page, its test step approved or denied', async () => {
    const approvedId = await createPurchase();
    const paid = await sandbox.testHelpers.payPurchase({ purchaseId: approvedId, method: 'swedbank_lv_pis' });
    assert.equal(paid.outcome, 'paid');
    assert.equal(paid.purchase.refund_availability, 'pis_all');
    const deniedId = await createPurchase();
    const denied = await sandbox.testHelpers.payPurchase({
      purchaseId: deniedId,
      method: 'seb_lv_pis',
      confirmation: 'deny',
    });
    assert.equal(denied.outcome === 'failed' && denied.error.code, 'bank_declined');
    const unknown = await refusal(
      sandbox.testHelpers.payPurchase({ purchaseId: deniedId, method: 'bank_of_mars' }),
    );
    assert.equal(unknown.field, 'method');
    assert.match(unknown.message, /offers no method bank_of_mars; use card or one of .*swedbank_lv_pis/);
    const mixed = await refusal(
      sandbox.testHelpers.payPurchase({
        purchaseId: deniedId,
        method: 'seb_lv_pis',
        threeDSecure: 'approve',
      }),
    );
    assert.equal(mixed.field, 'threeDSecure');
  });

  it('over HTTP with the bearer secret key: POST /sandbox/test-helpers/v1/pay-purchase', async () => {
    const id = await createPurchase();
    const answer = await helperPost('pay-purchase', { purchaseId: id, card: '4111 1111 1111 1111' });
    assert.equal(answer.status, 200);
    const body = await answer.json();
    assert.equal(body.outcome, 'paid');
    assert.equal(body.purchase.checkout_url, `${sandbox.url}/checkout/${id}/`);

    const again = await helperPost('pay-purchase', { purchaseId: id });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error.code, 'not_applicable');
    const otherMerchant = await helperPost('pay-purchase', { purchaseId: id }, OTHER.secretKey);
    assert.equal(otherMerchant.status, 404);
    const anonymous = await helperPost('pay-purchase', { purchaseId: id }, null);
    assert.equal(anonymous.status, 401);
    assert.equal((await anonymous.json()).error.code, 'not_authenticated');
  });

  it('trigger purchase.paid, purchase.payment_failure and purchase.cancelled, by paying and cancelling', async () => {
    const paidId = await createPurchase();
    const paid = await sandbox.testHelpers.trigger({ event: 'purchase.paid', purchaseId: paidId });
    assert.equal(paid.purchase.status, 'paid');
    const failedId = await createPurchase();
    const failed = await sandbox.testHelpers.trigger({
      event: 'purchase.payment_failure',
      purchaseId: failedId,
    });
    assert.equal(failed.purchase.status, 'error');
    const cancelled = await sandbox.testHelpers.trigger({
      event: 'purchase.cancelled',
      purchaseId: failedId,
    });
    assert.equal(cancelled.purchase.status, 'cancelled');
    await expectWebhookEvents(merchant, WEBHOOK_PATH, failedId, [
      'purchase.created',
      'purchase.payment_failure',
      'purchase.cancelled',
    ]);

    const again = await refusal(sandbox.testHelpers.trigger({ event: 'purchase.paid', purchaseId: paidId }));
    assert.deepEqual(again, {
      code: 'not_applicable',
      field: 'purchaseId',
      message: `Purchase ${paidId} is paid; only a Purchase that can still be paid (created or error) can be paid`,
    });
    const wrongCard = await refusal(
      sandbox.testHelpers.trigger({
        event: 'purchase.paid',
        purchaseId: await createPurchase(),
        card: 'declined',
      }),
    );
    assert.equal(wrongCard.field, 'card');
  });

  it('trigger payment.refunded refunds (part, then the rest) and refuses an unpaid Purchase', async () => {
    const id = await createPurchase();
    await sandbox.testHelpers.payPurchase({ purchaseId: id });
    const part = await sandbox.testHelpers.trigger({
      event: 'payment.refunded',
      purchaseId: id,
      amount: 500,
    });
    assert.equal(part.event === 'payment.refunded' && part.payment.payment.amount, 500);
    assert.equal(part.purchase.refundable_amount, 2000);
    const tooMuch = await refusal(
      sandbox.testHelpers.trigger({ event: 'payment.refunded', purchaseId: id, amount: 2001 }),
    );
    assert.deepEqual([tooMuch.code, tooMuch.field], ['invalid_input', 'amount']);
    const rest = await sandbox.testHelpers.trigger({ event: 'payment.refunded', purchaseId: id });
    assert.equal(rest.purchase.refundable_amount, 0);
    const webhookRefunds = () =>
      merchant
        .requests(WEBHOOK_PATH)
        .map((request) => JSON.parse(request.body))
        .filter((body) => body.event_type === 'payment.refunded' && body.related_to?.id === id);
    const deadline = Date.now() + 5000;
    while (webhookRefunds().length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(
      webhookRefunds().map((body) => body.payment.amount),
      [500, 2000],
    );

    const unpaid = await createPurchase();
    const refused = await helperPost('trigger', { event: 'payment.refunded', purchaseId: unpaid });
    assert.equal(refused.status, 409);
    assert.deepEqual(await refused.json(), {
      error: {
        code: 'not_applicable',
        message: `Purchase ${unpaid} is created; only a paid Purchase with money left to refund can be refunded`,
        field: 'purchaseId',
      },
    });
    const none = await refusal(sandbox.testHelpers.trigger({ event: 'payment.refunded', purchaseId: id }));
    assert.match(none.message, /refunded in full/);
  });

  it('trigger purchase.subscription_charge_failure bills the next period now, its charge failing', async () => {
    const client = await v1(sandbox, 'POST', '/clients/', { body: { email: 'subscriber@example.com' } });
    const template = await v1(sandbox, 'POST', '/billing_templates/', {
      body: {
        brand_id: V1.brandId,
        title: 'Tea club',
        is_subscription: true,
        subscription_period: 1,
        subscription_period_units: 'months',
        purchase: { products: [{ name: 'Tea club', price: 990, quantity: 1 }] },
      },
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));
    const added = await v1(sandbox, 'POST', `/billing_templates/${template.body.id}/add_subscriber/`, {
      body: { client_id: client.body.id },
    });
    const subscriberId: string = added.body.billing_template_client.id;
    const input = {
      event: 'purchase.subscription_charge_failure',
      billingTemplateId: template.body.id,
      subscriberId,
    } as const;
    const pending = await refusal(sandbox.testHelpers.trigger(input));
    assert.equal(pending.code, 'not_applicable');
    assert.match(
      pending.message,
      /The subscriber is pending; only an active subscriber is billed \(pay its first Purchase first\)/,
    );

    const noTemplate = await refusal(
      sandbox.testHelpers.trigger({ ...input, billingTemplateId: '00000000-0000-4000-8000-000000000000' }),
    );
    assert.deepEqual([noTemplate.code, noTemplate.field], ['not_found', 'billingTemplateId']);
    const noSubscriber = await refusal(
      sandbox.testHelpers.trigger({ ...input, subscriberId: '00000000-0000-4000-8000-000000000000' }),
    );
    assert.deepEqual([noSubscriber.code, noSubscriber.field], ['not_found', 'subscriberId']);

    await sandbox.testHelpers.payPurchase({ purchaseId: added.body.purchase.id });
    const answer = await helperPost('trigger', input);
    assert.equal(answer.status, 200);
    const failed = await answer.json();
    assert.equal(failed.purchase.status, 'error', 'the period is unpaid, payable, invoiced');
    assert.equal(failed.subscriber.status, 'active');
    await expectWebhookEvents(merchant, WEBHOOK_PATH, failed.purchase.id, [
      'purchase.created',
      'purchase.payment_failure',
      'purchase.subscription_charge_failure',
    ]);
    const outbox = await fetch(`${sandbox.url}/sandbox/v1/outbox/`, {
      headers: { authorization: `Bearer ${V1.secretKey}` },
    }).then((response) => response.json());
    assert.ok(
      JSON.stringify(outbox).includes(failed.purchase.id),
      'the failed period is mailed as an invoice',
    );
  });

  it('refuses an unknown event, naming the ones it fires', async () => {
    const answer = await helperPost('trigger', { event: 'purchase.exploded', purchaseId: 'x' });
    assert.equal(answer.status, 400);
    const { error } = await answer.json();
    assert.equal(error.field, 'event');
    assert.equal(
      error.message,
      'event must be one of purchase.paid, purchase.payment_failure, purchase.cancelled, payment.refunded, purchase.subscription_charge_failure; "purchase.exploded" is not fired by the sandbox\'s test helpers',
    );
  });
});
