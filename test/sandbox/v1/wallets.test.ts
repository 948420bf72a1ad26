/**
 * Wallet payments server to server (`POST {base_url}/p/{purchase_id}/`) end to end: the toolkit's typed
 * client against the sandbox over HTTP for every test outcome of both wallets, the Purchase and the webhook
 * events after each (read from a real receiver, checked against the webhook's key), wallet B's 3-D Secure page
 * answered by a form post as the customer's browser would; then posts no client would send, by hand.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Purchase } from '../../../src/core/v1-types.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import { V1ApiError, type V1Client } from '../../../src/server/index.js';
import type { FakeMerchant } from '../support.js';
import {
  expectWebhookEvents,
  OTHER,
  postForm,
  purchaseBody,
  signedBy,
  subscribeToEveryEvent,
  V1,
  v1,
  withV1Sandbox,
} from './support.js';

const WEBHOOK_PATH = '/v1/webhook';
const CALLBACK_PATH = '/v1/success';
const REDIRECTS = {
  success_redirect: 'https://shop.example/paid',
  failure_redirect: 'https://shop.example/failed',
} as const;

/** Wallet A's `paymentData` as the wallet's JavaScript API gives it; the sandbox reads only `outcome`. */
const WALLET_A_DATA = { version: 'EC_v1', data: 'ZW5jcnlwdGVk', signature: 'c2ln', header: { keyId: 'k1' } };
/** Wallet B's whole payload. */
const WALLET_B_PAYLOAD = {
  apiVersion: 2,
  paymentMethodData: { description: 'Visa •••• 1111', type: 'CARD' },
};

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

describe('v1 wallet payments server to server', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  let client: V1Client;
  let webhookKey: string;
  let companyKey: string;

  before(async () => {
    ({ merchant, sandbox, client } = fixture);
    webhookKey = await subscribeToEveryEvent(fixture, WEBHOOK_PATH);
    companyKey = await client.publicKey();
  });

  /** A purchase of 25.00 that takes both wallets (and Visa), with a success callback. */
  async function create(overrides: Record<string, unknown> = {}): Promise<Purchase> {
    return client.purchases.create(
      purchaseBody({
        client: { email: 'anna@example.com', full_name: 'Anna Tester' },
        success_callback: `${merchant.url}${CALLBACK_PATH}`,
        payment_method_whitelist: ['visa', 'svc_wallet_a', 'svc_wallet_b'],
        ...overrides,
      }) as unknown as Parameters<V1Client['purchases']['create']>[0],
    );
  }

  /** Resolves once the webhook events of `id` are exactly `expected`, each checked against the webhook's key. */
  const expectEvents = (id: string, expected: string[]) =>
    expectWebhookEvents(merchant, WEBHOOK_PATH, id, expected, webhookKey);

  /** The events the sandbox queued for purchase `id`, in order: known at once, delivered or not. */
  async function queuedEvents(id: string): Promise<string[]> {
    const events: string[] = [];
    for await (const delivery of client.webhooks.deliveries({ id, source_type: 'purchase' })) {
      events.push(delivery.event);
    }
    return events;
  }

  async function callbacksOf(id: string, count: number): Promise<Array<{ status: string }>> {
    const deadline = Date.now() + 5000;
    const of = () =>
      merchant
        .requests(CALLBACK_PATH)
        .filter((request) => (JSON.parse(request.body) as { id: string }).id === id);
    while (of().length < count && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return of().map((request) => {
      assert.ok(signedBy(request, companyKey), 'the success callback verifies with the company key');
      return JSON.parse(request.body) as { status: string };
    });
  }

  describe('through the typed client', () => {
    test('wallet A approved: accepted, the Purchase paid with its callback, refundable from the ledger', async () => {
      const purchase = await create();
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_a',
        paymentData: WALLET_A_DATA,
      });
      assert.equal(result.kind, 'accepted');
      assert.match(result.kind === 'accepted' ? result.status : '', /webhook/);

      const paid = await client.purchases.get(purchase.id);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.refundable_amount, 2500);
      assert.equal(paid.refund_availability, 'all');
      assert.deepEqual(
        paid.transaction_data.attempts.map(({ payment_method, successful }) => ({
          payment_method,
          successful,
        })),
        [{ payment_method: 'svc_wallet_a', successful: true }],
      );
      await expectEvents(purchase.id, ['purchase.created', 'purchase.paid']);
      assert.deepEqual(
        (await callbacksOf(purchase.id, 1)).map(({ status }) => status),
        ['paid'],
      );
      // The acquirer holds the payment as any other: a part of it can be refunded.
      const refund = await client.purchases.refund(purchase.id, { amount: 500 });
      assert.equal(refund.payment.amount, 500);
      assert.equal((await client.purchases.get(purchase.id)).refundable_amount, 2000);
    });

    test('wallet A with skip_capture: held, then captured', async () => {
      const purchase = await create({ skip_capture: true });
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_a',
        paymentData: { ...WALLET_A_DATA, outcome: 'approved' },
      });
      assert.equal(result.kind, 'accepted');
      const held = await client.purchases.get(purchase.id);
      assert.equal(held.status, 'hold');
      assert.equal(held.refundable_amount, 0);
      const captured = await client.purchases.capture(purchase.id, { amount: 1000 });
      assert.equal(captured.status, 'paid');
      assert.equal(captured.refundable_amount, 1000);
      await expectEvents(purchase.id, ['purchase.created', 'purchase.hold', 'purchase.captured']);
    });

    test('wallet A declined, then paid on a second post: the failure answer, then accepted', async () => {
      const purchase = await create();
      const declined = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_a',
        paymentData: { ...WALLET_A_DATA, outcome: 'declined' },
      });
      assert.deepEqual(declined, {
        kind: 'declined',
        gatewayCode: 'DECLINED',
        answer: {
          error_response: {
            response: { gatewayCode: 'DECLINED', threeDsRedirectUrl: null },
            result: 'FAILURE',
          },
        },
      });
      const failed = await client.purchases.get(purchase.id);
      assert.equal(failed.status, 'error');
      assert.equal(failed.refundable_amount, 0);
      assert.deepEqual(await client.purchases.failureCause(purchase.id), {
        code: 'card_declined',
        description: "The wallet's card was declined",
        attempt: failed.transaction_data.attempts[0],
      });
      await expectEvents(purchase.id, ['purchase.created', 'purchase.payment_failure']);

      // A Purchase in `error` can still be paid.
      const again = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_a',
        paymentData: WALLET_A_DATA,
      });
      assert.equal(again.kind, 'accepted');
      assert.equal((await client.purchases.get(purchase.id)).status, 'paid');
      await expectEvents(purchase.id, ['purchase.created', 'purchase.payment_failure', 'purchase.paid']);
    });

    test('wallet A, insufficient funds', async () => {
      const purchase = await create();
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_a',
        paymentData: { outcome: 'insufficient_funds' },
      });
      assert.equal(result.kind === 'declined' && result.gatewayCode, 'INSUFFICIENT_FUNDS');
      const failed = await client.purchases.get(purchase.id);
      assert.equal(failed.status, 'error');
      assert.equal(failed.transaction_data.attempts[0]?.error?.code, 'insufficient_funds');
      assert.equal(failed.transaction_data.attempts[0]?.payment_method, 'svc_wallet_a');
      await expectEvents(purchase.id, ['purchase.created', 'purchase.payment_failure']);
    });

    test('wallet B approved without 3-D Secure', async () => {
      const purchase = await create();
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_b',
        payload: WALLET_B_PAYLOAD,
      });
      assert.equal(result.kind, 'accepted');
      const paid = await client.purchases.get(purchase.id);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.transaction_data.attempts[0]?.payment_method, 'svc_wallet_b');
      await expectEvents(purchase.id, ['purchase.created', 'purchase.paid']);
    });

    test('wallet B declined and with insufficient funds', async () => {
      for (const [outcome, gatewayCode] of [
        ['declined', 'DECLINED'],
        ['insufficient_funds', 'INSUFFICIENT_FUNDS'],
      ] as const) {
        const purchase = await create();
        const result = await client.wallets.pay(purchase.id, {
          method: 'svc_wallet_b',
          payload: { ...WALLET_B_PAYLOAD, outcome },
        });
        assert.equal(result.kind === 'declined' && result.gatewayCode, gatewayCode, outcome);
        assert.equal((await client.purchases.get(purchase.id)).status, 'error');
        await expectEvents(purchase.id, ['purchase.created', 'purchase.payment_failure']);
      }
    });

    test('wallet B with 3-D Secure, approved by the customer on the sandbox page', async () => {
      const purchase = await create(REDIRECTS);
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_b',
        payload: { ...WALLET_B_PAYLOAD, outcome: 'three_ds' },
      });
      assert.equal(result.kind, 'three_ds');
      if (result.kind !== 'three_ds') return;
      const stepUrl = new URL(result.redirectUrl);
      assert.equal(stepUrl.origin, new URL(sandbox.url).origin);
      assert.match(stepUrl.pathname, new RegExp(`^/checkout/${purchase.id}/steps/[0-9a-f-]{36}$`));
      const { answer } = result;
      assert.equal(answer.merchant, 'm1');
      assert.equal(answer.result, 'SUCCESS');
      assert.deepEqual(answer.response, { gatewayCode: 'PENDING', threeDsRedirectUrl: result.redirectUrl });
      assert.deepEqual(
        { ...answer.order, creationTime: undefined, lastUpdatedTime: undefined },
        {
          amount: 25,
          creationTime: undefined,
          currency: 'EUR',
          id: purchase.id,
          lastUpdatedTime: undefined,
          totalRefundedAmount: 0,
          totalAuthorizedAmount: 0,
          totalCapturedAmount: 0,
          totalDisbursedAmount: 0,
          merchantCurrency: 'EUR',
        },
      );
      assert.equal(answer.order.creationTime, new Date(purchase.created_on! * 1000).toISOString());
      assert.ok(!Number.isNaN(Date.parse(answer.order.lastUpdatedTime)));
      assert.equal(answer.transaction.amount, 25);
      assert.equal(answer.transaction.currency, 'EUR');
      assert.equal(answer.transaction.type, 'AUTHENTICATION');
      assert.match(answer.transaction.retRefNr, /^\d{12}$/);
      assert.ok(stepUrl.pathname.endsWith(`/${answer.transaction.id}`), 'the transaction is the step');
      // Nothing is taken before the customer answers.
      assert.equal((await client.purchases.get(purchase.id)).status, 'created');
      assert.deepEqual(await queuedEvents(purchase.id), ['purchase.created']);

      // The customer's browser opens the page, then posts the form's answer.
      const page = await fetch(result.redirectUrl);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.match(html, /<h1>3-D Secure [^<]+<\/h1>/);
      assert.match(html, new RegExp(`<form method="post" action="${stepUrl.pathname}">`));
      const approved = await postForm(sandbox, stepUrl.pathname, { decision: 'approve' });
      assert.equal(approved.status, 303);
      assert.equal(approved.location, REDIRECTS.success_redirect);

      const paid = await client.purchases.get(purchase.id);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.refundable_amount, 2500);
      assert.equal(paid.transaction_data.attempts[0]?.payment_method, 'svc_wallet_b');
      await expectEvents(purchase.id, ['purchase.created', 'purchase.paid']);
      assert.deepEqual(
        (await callbacksOf(purchase.id, 1)).map(({ status }) => status),
        ['paid'],
      );
      // The answered step is closed: its address leads to the Purchase's page.
      const closed = await fetch(result.redirectUrl, { redirect: 'manual' });
      assert.equal(closed.status, 303);
    });

    test('wallet B with 3-D Secure, declined by the customer: the Purchase fails', async () => {
      const purchase = await create(REDIRECTS);
      const result = await client.wallets.pay(purchase.id, {
        method: 'svc_wallet_b',
        payload: { ...WALLET_B_PAYLOAD, outcome: 'three_ds' },
      });
      assert.equal(result.kind, 'three_ds');
      const stepPath = new URL(result.kind === 'three_ds' ? result.redirectUrl : '').pathname;
      const declined = await postForm(sandbox, stepPath, { decision: 'decline' });
      assert.equal(declined.status, 303);
      assert.equal(declined.location, REDIRECTS.failure_redirect);
      const failed = await client.purchases.get(purchase.id);
      assert.equal(failed.status, 'error');
      assert.equal(failed.transaction_data.attempts[0]?.error?.code, 'authentication_failed');
      assert.equal(failed.transaction_data.attempts[0]?.payment_method, 'svc_wallet_b');
      await expectEvents(purchase.id, ['purchase.created', 'purchase.payment_failure']);
    });

    test('a paid Purchase posted again is refused and charged once', async () => {
      const purchase = await create();
      await client.wallets.pay(purchase.id, { method: 'svc_wallet_b', payload: WALLET_B_PAYLOAD });
      const first = await client.purchases.get(purchase.id);
      for (const payment of [
        { method: 'svc_wallet_b', payload: WALLET_B_PAYLOAD },
        { method: 'svc_wallet_a', paymentData: WALLET_A_DATA },
      ] as const) {
        const error = await client.wallets.pay(purchase.id, payment).then(
          () => assert.fail('a paid purchase must not be paid again'),
          (error: unknown) => error,
        );
        assert.ok(error instanceof V1ApiError, String(error));
        assert.equal(error.code, 'bad_request');
        assert.deepEqual(
          error.errors.map(({ field, code }) => ({ field, code })),
          [{ field: '__all__', code: 'invalid' }],
        );
        assert.match(
          error.message,
          /The purchase is paid: it can no longer be paid, and nothing was charged/,
        );
      }
      const after = await client.purchases.get(purchase.id);
      assert.deepEqual(after.transaction_data, first.transaction_data);
      assert.equal(after.refundable_amount, 2500);
      assert.deepEqual(await queuedEvents(purchase.id), ['purchase.created', 'purchase.paid']);
      assert.equal((await callbacksOf(purchase.id, 1)).length, 1);
    });

    test('two posts at once for one Purchase: one is taken, the other refused', async () => {
      const purchase = await create();
      const results = await Promise.allSettled([
        client.wallets.pay(purchase.id, { method: 'svc_wallet_a', paymentData: WALLET_A_DATA }),
        client.wallets.pay(purchase.id, { method: 'svc_wallet_b', payload: WALLET_B_PAYLOAD }),
      ]);
      const taken = results.filter((result) => result.status === 'fulfilled');
      const refused = results.filter((result) => result.status === 'rejected');
      assert.equal(taken.length, 1);
      assert.equal(refused.length, 1);
      assert.equal((refused[0]!.reason as V1ApiError).code, 'bad_request');
      const paid = await client.purchases.get(purchase.id);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.transaction_data.attempts.length, 1);
      assert.deepEqual(await queuedEvents(purchase.id), ['purchase.created', 'purchase.paid']);
    });

    test('a method the Purchase does not whitelist is refused, naming pm', async () => {
      const purchase = await create({ payment_method_whitelist: ['visa', 'svc_wallet_b'] });
      const error = await client.wallets
        .pay(purchase.id, { method: 'svc_wallet_a', paymentData: WALLET_A_DATA })
        .then(
          () => assert.fail('svc_wallet_a is not whitelisted'),
          (error: unknown) => error,
        );
      assert.ok(error instanceof V1ApiError, String(error));
      assert.equal(error.code, 'bad_request');
      assert.deepEqual(error.errors, [
        {
          field: 'pm',
          code: 'invalid',
          message: "svc_wallet_a is not in the purchase's payment_method_whitelist (visa, svc_wallet_b)",
        },
      ]);
      assert.equal((await client.purchases.get(purchase.id)).status, 'created');
    });
  });

  describe('posts by hand', () => {
    let purchase: Purchase;
    before(async () => {
      purchase = await create();
    });

    /** A post to `/p/<id>/`; `fields` is the form (or a raw body), sent with the key of `m1` unless given. */
    async function walletPost(
      id: string,
      fields: Array<[string, string]> | string,
      options: { key?: string | null; contentType?: string; path?: string } = {},
    ) {
      const headers: Record<string, string> = {
        'content-type': options.contentType ?? 'application/x-www-form-urlencoded',
      };
      const key = options.key === undefined ? V1.secretKey : options.key;
      if (key !== null) headers['authorization'] = `Bearer ${key}`;
      const response = await fetch(`${sandbox.url}${options.path ?? `/p/${id}/`}`, {
        method: 'POST',
        headers,
        body: typeof fields === 'string' ? fields : new URLSearchParams(fields).toString(),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
        body: JSON.parse(text) as any,
      };
    }

    const walletA = (token: string): Array<[string, string]> => [
      ['pm', 'svc_wallet_a'],
      ['s2s', 'true'],
      ['token', token],
    ];

    /** Asserts a 400 in the v1 shape whose fields are exactly `fields`, each with `code` (and a message). */
    function assertFields(
      answer: { status: number; body: Record<string, unknown> },
      expected: Record<string, { code: string; message?: RegExp }>,
    ): void {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.deepEqual(
        Object.keys(answer.body).sort(),
        Object.keys(expected).sort(),
        JSON.stringify(answer.body),
      );
      for (const [field, { code, message }] of Object.entries(expected)) {
        const detail = answer.body[field] as { code: string; message: string };
        assert.equal(detail.code, code, `${field}: ${JSON.stringify(detail)}`);
        assert.equal(typeof detail.message, 'string');
        if (message) assert.match(detail.message, message);
      }
    }

    test('without the trailing slash it is the same endpoint; other methods are 405', async () => {
      const other = await create();
      const answer = await walletPost(other.id, walletA(base64Json(WALLET_A_DATA)), {
        path: `/p/${other.id}`,
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(typeof answer.body.status, 'string');
      const get = await fetch(`${sandbox.url}/p/${other.id}/`, {
        headers: { authorization: `Bearer ${V1.secretKey}` },
      });
      assert.equal(get.status, 405);
      assert.equal(get.headers.get('allow'), 'POST');
      assert.equal(((await get.json()) as { __all__: { code: string } }).__all__.code, 'method_not_allowed');
    });

    test('no key, a wrong key: 401; another merchant’s purchase or none: 404', async () => {
      const none = await walletPost(purchase.id, walletA(base64Json(WALLET_A_DATA)), { key: null });
      assert.equal(none.status, 401);
      assert.equal(none.body.__all__.code, 'not_authenticated');
      assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer/);
      const wrong = await walletPost(purchase.id, walletA(base64Json(WALLET_A_DATA)), { key: 'nope' });
      assert.equal(wrong.status, 401);
      assert.equal(wrong.body.__all__.code, 'authentication_failed');

      const theirs = await v1(sandbox, 'POST', '/purchases/', {
        key: OTHER.secretKey,
        body: purchaseBody({ brand_id: OTHER.brandId, payment_method_whitelist: ['svc_wallet_a'] }),
      });
      assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
      const foreign = await walletPost(theirs.body.id, walletA(base64Json(WALLET_A_DATA)));
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.__all__.code, 'not_found');
      const after = await v1(sandbox, 'GET', `/purchases/${theirs.body.id}/`, { key: OTHER.secretKey });
      assert.equal(after.body.status, 'created', 'the other merchant’s purchase is untouched');
      const missing = await walletPost(
        '0c000000-0000-4000-8000-000000000000',
        walletA(base64Json(WALLET_A_DATA)),
      );
      assert.equal(missing.status, 404);
      assert.equal((await walletPost('not-a-uuid', walletA(base64Json(WALLET_A_DATA)))).status, 404);
    });

    test('missing, duplicate and wrong fields: 400 naming each field', async () => {
      const data = base64Json(WALLET_B_PAYLOAD);
      const cases: Array<[Array<[string, string]>, Record<string, { code: string; message?: RegExp }>]> = [
        [[], { pm: { code: 'required' }, s2s: { code: 'required' } }],
        [[['s2s', 'true']], { pm: { code: 'required', message: /svc_wallet_a or svc_wallet_b/ } }],
        [
          [
            ['pm', 'svc_wallet_a'],
            ['s2s', 'true'],
          ],
          { token: { code: 'required', message: /Base64 of wallet A's paymentData/ } },
        ],
        [
          [
            ['pm', 'svc_wallet_b'],
            ['s2s', 'true'],
          ],
          { data: { code: 'required' } },
        ],
        [
          [
            ['pm', 'svc_wallet_a'],
            ['pm', 'svc_wallet_a'],
            ['s2s', 'true'],
            ['token', data],
          ],
          { pm: { code: 'invalid', message: /^pm was sent 2 times; send it once$/ } },
        ],
        [
          [
            ['pm', 'svc_wallet_a'],
            ['s2s', 'true'],
            ['s2s', 'true'],
            ['token', data],
            ['token', data],
          ],
          {
            s2s: { code: 'invalid', message: /sent 2 times/ },
            token: { code: 'invalid', message: /sent 2 times/ },
          },
        ],
        [
          [
            ['pm', 'svc_wallet_c'],
            ['s2s', 'true'],
            ['token', data],
          ],
          { pm: { code: 'invalid', message: /not "svc_wallet_c"/ } },
        ],
        // The wrong payload field for the wallet.
        [
          [
            ['pm', 'svc_wallet_a'],
            ['s2s', 'true'],
            ['data', data],
          ],
          {
            data: { code: 'invalid', message: /wallet B's field; svc_wallet_a sends its payload as token/ },
            token: { code: 'required' },
          },
        ],
        [
          [
            ['pm', 'svc_wallet_b'],
            ['s2s', 'true'],
            ['token', data],
            ['data', data],
          ],
          { token: { code: 'invalid', message: /wallet A's field/ } },
        ],
      ];
      for (const [fields, expected] of cases) assertFields(await walletPost(purchase.id, fields), expected);
      for (const s2s of ['false', 'TRUE', '', '1']) {
        assertFields(
          await walletPost(purchase.id, [
            ['pm', 'svc_wallet_b'],
            ['s2s', s2s],
            ['data', data],
          ]),
          { s2s: { code: 'invalid', message: /s2s must be the text true/ } },
        );
      }
      const current = await client.purchases.get(purchase.id);
      assert.equal(current.status, 'created');
      assert.deepEqual(current.transaction_data.attempts, []);
    });

    test('a payload that is no Base64 of a JSON object: 400 naming the field', async () => {
      const raw = (bytes: Buffer | string) => Buffer.from(bytes).toString('base64');
      const cases: Array<[string, { code: string; message: RegExp }]> = [
        ['', { code: 'blank', message: /token is empty/ }],
        ['not_base64!', { code: 'invalid', message: /token is not Base64; send/ }],
        ['abcde', { code: 'invalid', message: /not Base64/ }],
        ['ab=c', { code: 'invalid', message: /not Base64/ }],
        // A "+" sent without percent-encoding reads as a space.
        [`${raw('{"a":"~~~>"}').replace('+', ' ')}`, { code: 'invalid', message: /\+ as %2B/ }],
        [raw('hello'), { code: 'invalid', message: /no JSON text in UTF-8/ }],
        [raw(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), { code: 'invalid', message: /no JSON text in UTF-8/ }],
        [raw('[1,2]'), { code: 'invalid', message: /a JSON object .*not of an array/ }],
        [raw('"text"'), { code: 'invalid', message: /not of a string/ }],
        [raw('null'), { code: 'invalid', message: /not of null/ }],
        [raw('42'), { code: 'invalid', message: /not of a number/ }],
        [
          base64Json({ outcome: 'maybe' }),
          {
            code: 'invalid',
            message:
              /^The payload's outcome \(the sandbox's test member\) must be approved, declined, insufficient_funds for svc_wallet_a, or be left out for approved; not "maybe"$/,
          },
        ],
        [base64Json({ outcome: 7 }), { code: 'invalid', message: /not 7$/ }],
        [base64Json({ outcome: null }), { code: 'invalid', message: /not null$/ }],
        // Wallet A has no 3-D Secure step.
        [
          base64Json({ outcome: 'three_ds' }),
          { code: 'invalid', message: /insufficient_funds for svc_wallet_a, .*not "three_ds"/ },
        ],
      ];
      assert.ok(raw('{"a":"~~~>"}').includes('+'), 'the case needs a "+" in its Base64');
      for (const [token, expected] of cases) {
        assertFields(await walletPost(purchase.id, walletA(token)), { token: expected });
      }
      // URL-safe Base64, and Base64 without its padding, are read as well.
      const urlSafe = Buffer.from(JSON.stringify({ outcome: 'declined', k: '~~~>' })).toString('base64url');
      assert.match(urlSafe, /[-_]/);
      const declined = await walletPost(purchase.id, walletA(urlSafe));
      assert.equal(declined.status, 400);
      assert.equal(declined.body.error_response.response.gatewayCode, 'DECLINED');
    });

    test('a field past the body limit: 413 in the v1 shape', async () => {
      const huge = 'A'.repeat(2 * 1024 * 1024);
      const answer = await walletPost(purchase.id, walletA(huge));
      assert.equal(answer.status, 413);
      assert.equal(answer.body.__all__.code, 'body_too_large');
    });

    test('a body that is not form fields: 400', async () => {
      const answer = await walletPost(
        purchase.id,
        JSON.stringify({ pm: 'svc_wallet_a', s2s: 'true', token: base64Json(WALLET_A_DATA) }),
        { contentType: 'application/json' },
      );
      assert.equal(answer.status, 400);
      assert.equal(answer.body.__all__.code, 'parse_error');
      assert.match(
        answer.body.__all__.message,
        /application\/x-www-form-urlencoded, not "application\/json"/,
      );
    });

    test('the method must be in payment_method_whitelist and able to pay the purchase', async () => {
      const token = base64Json(WALLET_A_DATA);
      const open = await create({ payment_method_whitelist: undefined });
      assertFields(await walletPost(open.id, walletA(token)), {
        pm: {
          code: 'invalid',
          message: /no payment_method_whitelist; create it with payment_method_whitelist: \["svc_wallet_a"\]/,
        },
      });
      // Whitelisted, but the wallets take no SEK.
      const sek = await create({
        purchase: { currency: 'SEK', products: [{ name: 'Tea', price: 1250, quantity: 2 }] },
      });
      assertFields(await walletPost(sek.id, walletA(token)), {
        pm: {
          code: 'invalid',
          message: /^svc_wallet_a cannot pay this purchase; the methods that can: visa$/,
        },
      });
      for (const id of [open.id, sek.id]) assert.equal((await client.purchases.get(id)).status, 'created');
    });

    test('a cancelled purchase cannot be paid', async () => {
      const cancelled = await create();
      await client.purchases.cancel(cancelled.id);
      const answer = await walletPost(cancelled.id, walletA(base64Json(WALLET_A_DATA)));
      assert.equal(answer.status, 400);
      assert.deepEqual(answer.body, {
        __all__: {
          code: 'invalid',
          message: 'The purchase is cancelled: it can no longer be paid, and nothing was charged',
        },
      });
      assert.deepEqual(await queuedEvents(cancelled.id), ['purchase.created', 'purchase.cancelled']);
    });
  });
});
