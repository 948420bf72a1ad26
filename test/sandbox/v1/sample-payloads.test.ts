/**
 * The sandbox's v1 Purchases and refund Payment against the platform's own: each of the 17 real webhook payloads
 * (test/fixtures/v1-samples) is set beside the payload the sandbox sends for the same state, and every member path
 * of the real one must be in ours with the same JSON type (recursively; an array by its first element). The same
 * for the members of the two SDKs' models.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { openStore } from '../../../src/sandbox/store.js';
import { FakeMerchant, tempDir } from '../support.js';
import { cardForm, postForm, purchaseBody, startV1Sandbox, V1, v1, withV1Sandbox } from './support.js';

const FIXTURES = new URL('../../fixtures/v1-samples/', import.meta.url);

type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

/** Every member path of `value` and its JSON type: `a.b`, `a.list[]` for an array's first element. */
export function memberTypes(
  value: unknown,
  path = '',
  into = new Map<string, JsonType>(),
): Map<string, JsonType> {
  if (path !== '') into.set(path, jsonType(value));
  if (Array.isArray(value)) {
    if (value.length > 0) memberTypes(value[0], `${path}[]`, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value))
      memberTypes(member, path === '' ? key : `${path}.${key}`, into);
  }
  return into;
}

/**
 * What ours lacks of the sample's members, or has with another type. A `null` in the sample says nothing of the
 * type (ours may have a value there); a value in the sample must be a value of the same type in ours.
 */
function differences(sample: unknown, ours: unknown, ignored: readonly RegExp[] = []): string[] {
  const theirs = memberTypes(sample);
  const mine = memberTypes(ours);
  const problems: string[] = [];
  for (const [path, type] of theirs) {
    if (ignored.some((pattern) => pattern.test(path))) continue;
    const found = mine.get(path);
    if (found === undefined) problems.push(`${path}: missing (a ${type} in the sample)`);
    else if (type !== 'null' && found !== type) problems.push(`${path}: ${found}, the sample's is a ${type}`);
  }
  return problems;
}

function sample(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
}

/**
 * Members of the settled FPX sample (07) that belong to FPX, a bank method the sandbox does not have, and to its
 * settlement, which the sandbox does not do.
 */
const FPX_AND_SETTLEMENT = [
  /^transaction_data\.extra\.(settlement|user_web_browser_data|webhook_payload)\b/,
  /^transaction_data\.attempts\[\]\.extra\.(user_web_browser_data|webhook_payload)\b/,
  /^transaction_data\.(acquirer|processing_tx_id|terminal_id|terminal_uid)$/,
  /^transaction_data\.attempts\[\]\.(acquirer|processing_tx_id|terminal_id|terminal_uid|is_internal|markup_amount|pricing_calculated|pricing_details|processing_fee|processing_status|related_payment_id)$/,
];

/**
 * The payload the sandbox sent for each sample, by file name: the webhook delivery of the sample's event, or,
 * for the states the sandbox does not reach as such, the Purchase (`GET /purchases/{id}/`) in the nearest state.
 */
const ours = new Map<string, Record<string, unknown>>();
/** The Client the sandbox made for the captured Purchase, as the Clients API answers it. */
let madeClient: Record<string, unknown>;

/**
 * Samples whose state the sandbox does not reach, and what they are compared with instead (no `event_type`:
 * the sandbox sends no such event).
 */
const NOT_REACHED: Readonly<Record<string, string>> = {
  '03-event-Purchase-viewed.json': 'a created Purchase whose hosted page was opened (no `viewed` status)',
  '05-event-Purchase-pending-execute.json':
    'a Purchase waiting for its 3-D Secure step (no `pending_execute` status)',
  '07-event-Purchase-settled.json': 'a paid Purchase (no settlement, no FPX)',
};

describe('v1 payloads beside the platform samples', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;

  const create = async (overrides: Record<string, unknown> = {}): Promise<string> => {
    const answer = await v1(sandbox, 'POST', '/purchases/', {
      body: purchaseBody({ client: { email: 'test@example.com', full_name: 'Wan Tester' }, ...overrides }),
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body.id;
  };
  /** Opens the hosted page and pays on it, as the customer's browser does. */
  const pay = async (id: string, number = '4111111111111111'): Promise<void> => {
    await fetch(`${sandbox.url}/checkout/${id}/`).then((page) => page.text());
    const { status } = await postForm(sandbox, `/checkout/${id}/pay`, cardForm(number));
    assert.ok(status < 500, `the hosted page answered ${status}`);
  };
  const operate = async (id: string, operation: string, slow = false, body?: unknown) => {
    const answer = await v1(sandbox, 'POST', `/purchases/${id}/${operation}/`, {
      ...(slow && { headers: { 'x-sandbox-acquirer': 'slow' } }),
      ...(body !== undefined && { body }),
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  };
  const get = async (id: string) => (await v1(sandbox, 'GET', `/purchases/${id}/`)).body;
  /** The payload of the webhook delivery of `event` about object `id`. */
  const delivered = async (id: string, event: string, sourceType = 'purchase') => {
    const answer = await v1(sandbox, 'GET', `/webhooks/deliveries/?id=${id}&source_type=${sourceType}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const delivery = answer.body.results.find((candidate: { event: string }) => candidate.event === event);
    assert.ok(delivery, `a delivery of ${event} about ${id}`);
    return delivery.payload;
  };

  before(async () => {
    ({ merchant, sandbox } = fixture);
    const webhook = await v1(sandbox, 'POST', '/webhooks/', {
      body: { title: 'all', callback: `${merchant.url}/v1-webhook`, all_events: true },
    });
    assert.equal(webhook.status, 201, JSON.stringify(webhook.body));

    const paid = await create({ success_callback: `${merchant.url}/v1-callback` });
    await pay(paid);
    ours.set('01-event-Purchase-paid.json', await delivered(paid, 'purchase.paid'));
    ours.set('07-event-Purchase-settled.json', await get(paid));

    const created = await create();
    ours.set('02-event-Purchase-created.json', await delivered(created, 'purchase.created'));
    await fetch(`${sandbox.url}/checkout/${created}/`).then((page) => page.text());
    ours.set('03-event-Purchase-viewed.json', await get(created));

    const failed = await create();
    await pay(failed, '4000000000000002');
    ours.set('04-event-Purchase-failed.json', await delivered(failed, 'purchase.payment_failure'));

    const challenged = await create();
    await pay(challenged, '4000000000003220');
    ours.set('05-event-Purchase-pending-execute.json', await get(challenged));

    // The card saved without a charge, as the samples' recurring-token Purchases were.
    const cardCheck = { products: [{ name: 'Card check', price: 0 }] };
    const saving = { skip_capture: true, force_recurring: true, purchase: cardCheck };
    const saved = await create(saving);
    await pay(saved);
    ours.set('06-event-Purchase-preauthorized.json', await delivered(saved, 'purchase.preauthorized'));

    const held = await create({ skip_capture: true });
    await pay(held);
    ours.set('08-event-Purchase-hold.json', await delivered(held, 'purchase.hold'));
    await operate(held, 'capture', true);
    ours.set('09-event-Purchase-pending-capture.json', await delivered(held, 'purchase.pending_capture'));

    const captured = await create({ skip_capture: true });
    await pay(captured);
    await operate(captured, 'capture');
    ours.set('10-event-Purchase-captured.json', await delivered(captured, 'purchase.captured'));
    await operate(captured, 'refund', true, { amount: 500 });
    ours.set('11-event-Purchase-pending-refund.json', await delivered(captured, 'purchase.pending_refund'));

    const refunded = await create();
    await pay(refunded);
    const payment = await operate(refunded, 'refund');
    ours.set('12-event-Purchase-refunded.json', await delivered(payment.id, 'payment.refunded', 'payment'));

    const whitelist = { payment_method_whitelist: ['mastercard', 'visa'] };
    const token = await create({ ...saving, ...whitelist });
    await pay(token);
    await operate(token, 'delete_recurring_token', true);
    ours.set(
      '13-event-Purchase-pending-recurring-token-delete.json',
      await delivered(token, 'purchase.pending_recurring_token_delete'),
    );
    const deleted = await create({ ...saving, ...whitelist });
    await pay(deleted);
    await operate(deleted, 'delete_recurring_token');
    ours.set(
      '14-event-Purchase-recurring-token-deleted.json',
      await delivered(deleted, 'purchase.recurring_token_deleted'),
    );

    const releasing = await create({ skip_capture: true });
    await pay(releasing);
    await operate(releasing, 'release', true);
    ours.set(
      '15-event-Purchase-pending-release.json',
      await delivered(releasing, 'purchase.pending_release'),
    );
    const released = await create({ skip_capture: true });
    await pay(released);
    await operate(released, 'release');
    ours.set('16-event-Purchase-released.json', await delivered(released, 'purchase.released'));

    const cancelled = await create();
    await operate(cancelled, 'cancel');
    ours.set('17-event-Purchase-cancelled.json', await delivered(cancelled, 'purchase.cancelled'));

    const { client_id } = ours.get('10-event-Purchase-captured.json')!;
    madeClient = (await v1(sandbox, 'GET', `/clients/${client_id}/`)).body;
  });

  const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.json') && /^\d\d-/.test(name));

  test('the fixtures are the 17 samples', () => {
    assert.equal(files.length, 17);
  });

  for (const file of files) {
    test(`${file}: every member, typed alike${NOT_REACHED[file] ? ` (compared with ${NOT_REACHED[file]})` : ''}`, () => {
      const payload = ours.get(file);
      assert.ok(payload, `the sandbox's payload for ${file}`);
      const ignored = [...FPX_AND_SETTLEMENT, ...(NOT_REACHED[file] ? [/^event_type$/] : [])];
      assert.deepEqual(differences(sample(file), payload, ignored), []);
    });
  }

  test("every member of both SDKs' models, typed alike where the samples agree with the model", () => {
    const models: Record<'node' | 'php', Record<string, Record<string, JsonType>>> = JSON.parse(
      readFileSync(new URL('sdk-models.json', FIXTURES), 'utf8'),
    );
    const purchase = ours.get('10-event-Purchase-captured.json')!;
    const where: Record<string, unknown> = {
      Purchase: purchase,
      PurchaseDetails: purchase['purchase'],
      Product: (purchase['purchase'] as { products: unknown[] }).products[0],
      ClientDetails: purchase['client'],
      PaymentDetails: purchase['payment'],
      IssuerDetails: purchase['issuer_details'],
      BankAccount: (purchase['issuer_details'] as { bank_accounts: unknown[] }).bank_accounts[0],
    };
    // Where a model's declared type is not what the platform sends, the real payloads win: `issued` is a date
    // string, quantities and tax rates decimal strings, `status_history` an array (the models convert them).
    const samplesWin = new Set([
      'php.Purchase.issued',
      'php.Purchase.status_history',
      'node.Product.quantity',
      'node.Product.tax_percent',
      'php.Product.quantity',
      'php.Product.tax_percent',
    ]);
    const problems: string[] = [];
    const check = (sdk: string, model: string, object: Record<string, unknown>, client = false) => {
      for (const [member, type] of Object.entries(models[sdk as 'node' | 'php'][model]!)) {
        // The PHP ClientDetails also models the Clients API's Client, whose `id` a Purchase's client has not.
        if (model === 'ClientDetails' && member === 'id' && !client) continue;
        if (!(member in object)) problems.push(`${sdk}.${model}.${member}: missing`);
        else if (samplesWin.has(`${sdk}.${model}.${member}`)) continue;
        else if (object[member] !== null && jsonType(object[member]) !== type) {
          problems.push(`${sdk}.${model}.${member}: ${jsonType(object[member])}, the model's is a ${type}`);
        }
      }
    };
    for (const [sdk, byModel] of Object.entries(models)) {
      for (const model of Object.keys(byModel)) check(sdk, model, where[model] as Record<string, unknown>);
      // The Clients API's Client is a ClientDetails too.
      check(sdk, 'ClientDetails', madeClient, true);
    }
    assert.deepEqual(problems, []);
  });
});

describe('a Purchase stored by an earlier version of the sandbox', () => {
  test('is sent with every member of the platform sample, its attempt error as {code, message}', async () => {
    const merchant = await FakeMerchant.start();
    const dataDir = await tempDir();
    // What an earlier version kept: the document's members only, attempts with error.description.
    const id = randomUUID();
    const store = openStore({ dataDir });
    store.transaction(() => {
      store.collection('v1-purchases').put(id, {
        merchantId: 'm1',
        purchase: {
          id,
          brand_id: V1.brandId,
          client: { email: 'earlier@example.com' },
          client_id: null,
          purchase: {
            products: [{ name: 'Tea', price: 1250, quantity: 1 }],
            currency: 'EUR',
            language: 'en',
            due_strict: false,
            total_override: null,
            payment_method_details: {},
            total: 1250,
          },
          reference: null,
          success_callback: null,
          success_redirect: null,
          failure_redirect: null,
          cancel_redirect: null,
          skip_capture: false,
          force_recurring: false,
          payment_method_whitelist: null,
          due: null,
          status: 'error',
          is_recurring_token: false,
          marked_as_paid: false,
          refundable_amount: 0,
          refund_availability: 'none',
          transaction_data: {
            attempts: [
              {
                type: 'payment',
                successful: false,
                payment_method: 'visa',
                created_on: 1_800_000_100,
                error: { code: 'card_declined', description: 'The card was declined' },
              },
            ],
          },
          created_on: 1_800_000_000,
          updated_on: 1_800_000_100,
        },
      });
    });
    await store.close();
    const sandbox = await startV1Sandbox(merchant, { dataDir });
    try {
      const read = await v1(sandbox, 'GET', `/purchases/${id}/`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const { event_type: _, ...failed } = sample('04-event-Purchase-failed.json');
      // Its client_id is "" (no Client was made then), a string still; nobody's visit was recorded then.
      assert.deepEqual(differences(failed, read.body, [/^viewed_on$/]), []);
      assert.equal(read.body.viewed_on, null);
      assert.deepEqual(read.body.transaction_data.attempts[0].error, {
        code: 'card_declined',
        message: 'The card was declined',
      });
      assert.deepEqual(read.body.status_history, [
        { status: 'created', timestamp: 1_800_000_000 },
        { status: 'error', timestamp: 1_800_000_100 },
      ]);
      assert.equal(read.body.due, 1_800_000_000 + 3600);
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });
});
