import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { FakeMerchant, type ReceivedRequest, tempDir } from '../support.js';
import { cardForm, OTHER, postForm, purchaseBody, signedBy, startV1Sandbox, v1 } from './support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A receiver (the fake merchant's node:http server), and a sandbox whose merchant `m1` has webhooks. */
async function setUp(options: { dataDir?: string; retryBaseMs?: number } = {}) {
  const receiver = await FakeMerchant.start();
  return { receiver, sandbox: await startV1Sandbox(receiver, options) };
}

async function createWebhook(sandbox: Sandbox, body: Record<string, unknown>) {
  const created = await v1(sandbox, 'POST', '/webhooks/', { body: { title: 'Shop', ...body } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as { id: string; public_key: string; [member: string]: unknown };
}

async function createPurchase(sandbox: Sandbox, overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await v1(sandbox, 'POST', '/purchases/', {
    body: purchaseBody({
      purchase: { products: [{ name: 'Tea', price: 1250 }], language: 'en' },
      ...overrides,
    }),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

/** Pays on the hosted page by posting its form, as the customer's browser does. */
async function pay(sandbox: Sandbox, id: string, form: Record<string, string>): Promise<void> {
  const { status } = await postForm(sandbox, `/checkout/${id}/pay`, form);
  assert.ok(status < 500, `the hosted page answered ${status}`);
}

const eventOf = (request: ReceivedRequest) => {
  const payload = JSON.parse(request.body);
  return { id: payload.id as string, event: payload.event_type as string, status: payload.status as string };
};

/** Every delivery of the purchase, following `next` page by page. */
async function deliveriesOf(sandbox: Sandbox, purchaseId: string, perPage = 100) {
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
  const all: any[] = [];
  let url: string | null =
    `${sandbox.url}/api/v1/webhooks/deliveries/?id=${purchaseId}&source_type=purchase&per_page=${perPage}`;
  while (url !== null) {
    const answer = await v1(sandbox, 'GET', url.slice(`${sandbox.url}/api/v1`.length));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    all.push(...answer.body.results);
    url = answer.body.next;
  }
  return all;
}

/** Waits until the purchase has `count` deliveries and none is pending. */
async function settled(sandbox: Sandbox, purchaseId: string, count: number, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const list = await deliveriesOf(sandbox, purchaseId);
    if (list.length >= count && list.every((delivery) => delivery.status !== 'pending')) return list;
    if (Date.now() > deadline) {
      throw new Error(`deliveries of ${purchaseId} did not settle: ${JSON.stringify(list, null, 1)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('sandbox v1 webhooks', () => {
  test('create, list, get, update and delete, with the documented error shapes', async () => {
    const { receiver, sandbox } = await setUp();
    try {
      const unauthenticated = await v1(sandbox, 'POST', '/webhooks/', { key: null, body: {} });
      assert.equal(unauthenticated.status, 401);
      assert.equal(unauthenticated.body.__all__.code, 'not_authenticated');

      const empty = await v1(sandbox, 'POST', '/webhooks/', { body: {} });
      assert.equal(empty.status, 400);
      assert.deepEqual(
        Object.fromEntries(
          Object.entries(empty.body).map(([field, detail]) => [field, (detail as { code: string }).code]),
        ),
        { title: 'required', callback: 'required', events: 'empty' },
      );
      const wrong = await v1(sandbox, 'POST', '/webhooks/', {
        body: {
          title: ' ',
          callback: 'ftp://shop.example/hook',
          all_events: 'yes',
          events: ['purchase.paid', 'nope'],
        },
      });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.title.code, 'blank');
      assert.equal(wrong.body.callback.code, 'invalid');
      assert.equal(wrong.body.all_events.code, 'invalid');
      assert.equal(wrong.body['events[1]'].code, 'invalid');
      assert.match(wrong.body['events[1]'].message, /"nope" is not an event name/);
      assert.equal(wrong.body['events[0]'], undefined);
      const malformed = await v1(sandbox, 'POST', '/webhooks/', { body: '{"title":' });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.__all__.code, 'parse_error');

      const created = await v1(sandbox, 'POST', '/webhooks/', {
        body: {
          title: 'Orders',
          callback: `${receiver.url}/hooks/orders`,
          events: ['purchase.paid', 'purchase.payment_failure', 'purchase.paid'],
        },
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const webhook = created.body;
      assert.match(webhook.id, UUID);
      assert.equal(webhook.title, 'Orders');
      assert.equal(webhook.callback, `${receiver.url}/hooks/orders`);
      assert.equal(webhook.all_events, false);
      assert.deepEqual(webhook.events, ['purchase.paid', 'purchase.payment_failure']);
      const key = createPublicKey(webhook.public_key);
      assert.equal(key.asymmetricKeyType, 'rsa');
      assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
      assert.doesNotMatch(JSON.stringify(webhook), /PRIVATE KEY/);

      const read = await v1(sandbox, 'GET', `/webhooks/${webhook.id}/`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, webhook);
      assert.equal(
        (await v1(sandbox, 'GET', `/webhooks/${webhook.id}`)).status,
        200,
        'trailing slash optional',
      );

      const foreign = await v1(sandbox, 'GET', `/webhooks/${webhook.id}/`, { key: OTHER.secretKey });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.__all__.code, 'not_found');
      assert.deepEqual((await v1(sandbox, 'GET', '/webhooks/', { key: OTHER.secretKey })).body.results, []);
      assert.equal((await v1(sandbox, 'GET', '/webhooks/not-a-uuid/')).status, 404);

      const patched = await v1(sandbox, 'PATCH', `/webhooks/${webhook.id}/`, {
        body: { events: ['purchase.cancelled'], public_key: 'ignored' },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.events, ['purchase.cancelled']);
      assert.equal(patched.body.title, 'Orders', 'PATCH keeps what it does not name');
      assert.equal(patched.body.public_key, webhook.public_key, 'the key pair stays');
      const emptied = await v1(sandbox, 'PATCH', `/webhooks/${webhook.id}/`, { body: { events: [] } });
      assert.equal(emptied.status, 400);
      assert.equal(emptied.body.events.code, 'empty');
      const nulled = await v1(sandbox, 'PATCH', `/webhooks/${webhook.id}/`, { body: { title: null } });
      assert.equal(nulled.status, 400);
      assert.equal(nulled.body.title.code, 'null');

      const incomplete = await v1(sandbox, 'PUT', `/webhooks/${webhook.id}/`, {
        body: { title: 'Only a title' },
      });
      assert.equal(incomplete.status, 400);
      assert.equal(incomplete.body.callback.code, 'required');
      const replaced = await v1(sandbox, 'PUT', `/webhooks/${webhook.id}/`, {
        body: { title: 'Everything', callback: `${receiver.url}/hooks/all`, all_events: true },
      });
      assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
      assert.equal(replaced.body.title, 'Everything');
      assert.equal(replaced.body.all_events, true);
      assert.deepEqual(replaced.body.events, [], 'PUT replaces the whole webhook');
      assert.equal(replaced.body.public_key, webhook.public_key);
      assert.equal((await v1(sandbox, 'PUT', `/webhooks/${crypto.randomUUID()}/`, { body: {} })).status, 404);

      const second = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/2`, all_events: true });
      const third = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/3`, all_events: true });
      assert.notEqual(second.public_key, third.public_key, 'each webhook has its own key pair');
      const firstPage = await v1(sandbox, 'GET', '/webhooks/?per_page=2');
      assert.equal(firstPage.status, 200);
      assert.deepEqual(
        firstPage.body.results.map((item: { id: string }) => item.id),
        [webhook.id, second.id],
      );
      assert.equal(firstPage.body.previous, null);
      assert.equal(firstPage.body.next, `${sandbox.url}/api/v1/webhooks/?per_page=2&page=2`);
      const secondPage = await v1(sandbox, 'GET', firstPage.body.next.slice(`${sandbox.url}/api/v1`.length));
      assert.deepEqual(
        secondPage.body.results.map((item: { id: string }) => item.id),
        [third.id],
      );
      assert.equal(secondPage.body.next, null);
      assert.equal(secondPage.body.previous, `${sandbox.url}/api/v1/webhooks/?per_page=2&page=1`);
      const badPage = await v1(sandbox, 'GET', '/webhooks/?page=0&per_page=1000');
      assert.equal(badPage.status, 400);
      assert.equal(badPage.body.page.code, 'min_value');
      assert.equal(badPage.body.per_page.code, 'max_value');

      const deleted = await fetch(`${sandbox.url}/api/v1/webhooks/${second.id}/`, {
        method: 'DELETE',
        headers: { authorization: `Bearer test-v1-secret-key` },
      });
      assert.equal(deleted.status, 204);
      assert.equal(await deleted.text(), '');
      assert.equal((await v1(sandbox, 'GET', `/webhooks/${second.id}/`)).status, 404);
      assert.equal((await v1(sandbox, 'DELETE', `/webhooks/${second.id}/`)).status, 404);
      assert.deepEqual(
        (await v1(sandbox, 'GET', '/webhooks/')).body.results.map((item: { id: string }) => item.id),
        [webhook.id, third.id],
      );

      const notAllowed = await v1(sandbox, 'POST', '/webhooks/deliveries/', { body: {} });
      assert.equal(notAllowed.status, 405);
      assert.equal(notAllowed.headers.get('allow'), 'GET');
      const noQuery = await v1(sandbox, 'GET', '/webhooks/deliveries/');
      assert.equal(noQuery.status, 400);
      assert.equal(noQuery.body.id.code, 'required');
      assert.equal(noQuery.body.source_type.code, 'required');
      const badQuery = await v1(sandbox, 'GET', '/webhooks/deliveries/?id=42&source_type=order');
      assert.equal(badQuery.status, 400);
      assert.equal(badQuery.body.id.code, 'invalid');
      assert.equal(badQuery.body.source_type.code, 'invalid');
      const purchaseId = await createPurchase(sandbox);
      const unknown = await v1(
        sandbox,
        'GET',
        `/webhooks/deliveries/?id=${crypto.randomUUID()}&source_type=purchase`,
      );
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.__all__.code, 'not_found');
      const foreignPurchase = await v1(
        sandbox,
        'GET',
        `/webhooks/deliveries/?id=${purchaseId}&source_type=purchase`,
        { key: OTHER.secretKey },
      );
      assert.equal(foreignPurchase.status, 404);
      const payment = await v1(sandbox, 'GET', `/webhooks/deliveries/?id=${purchaseId}&source_type=payment`);
      assert.equal(payment.status, 404, 'the sandbox has no payments');
      const payout = await v1(sandbox, 'GET', `/webhooks/deliveries/?id=${purchaseId}&source_type=payout`);
      assert.equal(payout.status, 404);
      assert.match(payout.body.__all__.message, /the sandbox makes no payouts/);
      const subscriber = await v1(
        sandbox,
        'GET',
        `/webhooks/deliveries/?id=${purchaseId}&source_type=billing_template_client`,
      );
      assert.equal(subscriber.status, 404, 'a Purchase id names no subscriber');
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('each subscriber gets every event once, in order per purchase, signed with its key', async () => {
    const { receiver, sandbox } = await setUp();
    try {
      const all = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/all`, all_events: true });
      const paidOnly = await createWebhook(sandbox, {
        callback: `${receiver.url}/hooks/paid`,
        events: ['purchase.paid'],
      });
      const companyKey = (await v1(sandbox, 'GET', '/public_key/')).body as string;

      // The all-events receiver refuses the first purchase's `created` until the test has paid it, so its
      // later events are queued behind a delivery that is still being retried.
      let first = '';
      let releaseFirst = false;
      const answered = new Map<ReceivedRequest, number>();
      receiver.respond('/hooks/all', (request) => {
        const { id, event } = eventOf(request);
        const status = id === first && event === 'purchase.created' && !releaseFirst ? 503 : 204;
        answered.set(request, status);
        return { status };
      });
      first = await createPurchase(sandbox);
      await pay(sandbox, first, cardForm('4000000000000002'));
      await pay(sandbox, first, cardForm('4111111111111111'));
      const cancelled = await createPurchase(sandbox);
      assert.equal((await v1(sandbox, 'POST', `/purchases/${cancelled}/cancel/`)).status, 200);
      const held = await createPurchase(sandbox, { skip_capture: true });
      await pay(sandbox, held, cardForm('5555555555554444'));

      // The paid-only webhook has its own queue per purchase: it is not held up by the other's refusals.
      await receiver.waitFor('/hooks/paid', 1);
      const refusedSoFar = receiver.requests('/hooks/all').filter((request) => eventOf(request).id === first);
      assert.ok(refusedSoFar.length >= 1);
      assert.ok(
        refusedSoFar.every((request) => eventOf(request).event === 'purchase.created'),
        'nothing later of the purchase is sent while its first event is refused',
      );
      releaseFirst = true;

      await settled(sandbox, first, 4);
      await settled(sandbox, cancelled, 2);
      await settled(sandbox, held, 2);

      // What the receiver accepted, in the order it arrived.
      const sequence = (id: string) =>
        receiver
          .requests('/hooks/all')
          .filter((request) => answered.get(request) === 204 && eventOf(request).id === id)
          .map((request) => `${eventOf(request).event}:${eventOf(request).status}`);
      assert.deepEqual(sequence(first), [
        'purchase.created:created',
        'purchase.payment_failure:error',
        'purchase.paid:paid',
      ]);
      assert.deepEqual(sequence(cancelled), ['purchase.created:created', 'purchase.cancelled:cancelled']);
      assert.deepEqual(sequence(held), ['purchase.created:created', 'purchase.hold:hold']);
      assert.deepEqual(
        receiver.requests('/hooks/paid').map((request) => `${eventOf(request).id}:${eventOf(request).event}`),
        [`${first}:purchase.paid`],
      );

      for (const request of receiver.requests('/hooks/all')) {
        assert.equal(request.method, 'POST');
        assert.match(String(request.headers['content-type']), /^application\/json/);
        assert.ok(signedBy(request, all.public_key), 'signed with the webhook key');
        assert.ok(!signedBy(request, paidOnly.public_key), "not with another webhook's key");
        assert.ok(!signedBy(request, companyKey), 'not with the company key of success callbacks');
      }
      const [paidDelivery] = receiver.requests('/hooks/paid');
      assert.ok(signedBy(paidDelivery!, paidOnly.public_key));
      const payload = JSON.parse(paidDelivery!.body);
      assert.equal(payload.checkout_url, `${sandbox.url}/checkout/${first}/`);
      assert.equal(payload.transaction_data.attempts.length, 2);
      assert.deepEqual(payload, {
        ...(await v1(sandbox, 'GET', `/purchases/${first}/`)).body,
        event_type: 'purchase.paid',
      });

      // The history of the first purchase, two to a page.
      const history = await deliveriesOf(sandbox, first, 2);
      assert.deepEqual(
        history.map((delivery) => [delivery.webhook_id, delivery.event, delivery.url]),
        [
          [all.id, 'purchase.created', `${receiver.url}/hooks/all`],
          [all.id, 'purchase.payment_failure', `${receiver.url}/hooks/all`],
          [all.id, 'purchase.paid', `${receiver.url}/hooks/all`],
          [paidOnly.id, 'purchase.paid', `${receiver.url}/hooks/paid`],
        ],
      );
      const [created] = history;
      const refusals = refusedSoFar.length;
      assert.ok(created.attempts >= refusals + 1);
      assert.deepEqual(
        created.delivery_attempts.map((attempt: { status_code: number }) => attempt.status_code).slice(-1),
        [204],
      );
      assert.ok(
        created.delivery_attempts
          .slice(0, -1)
          .every((attempt: { status_code: number }) => attempt.status_code === 503),
      );
      assert.equal(created.payload.event_type, 'purchase.created');
      for (const delivery of history) {
        assert.equal(delivery.status, 'delivered');
        assert.ok(Date.parse(delivery.delivered_on) >= Date.parse(delivery.created_on));
      }
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('a receiver that answers 500 twice and then 200 gets three attempts, all listed', async () => {
    const { receiver, sandbox } = await setUp();
    try {
      const webhook = await createWebhook(sandbox, {
        callback: `${receiver.url}/hooks/flaky`,
        events: ['purchase.created'],
      });
      let calls = 0;
      receiver.respond('/hooks/flaky', () => ({ status: [500, 500][calls++] ?? 200 }));
      const id = await createPurchase(sandbox);
      const [delivery] = await settled(sandbox, id, 1);

      const received = receiver.requests('/hooks/flaky');
      assert.equal(received.length, 3);
      assert.ok(
        received.every((request) => request.body === received[0]!.body),
        'the same bytes each time',
      );
      assert.ok(received.every((request) => signedBy(request, webhook.public_key)));
      assert.equal(delivery.status, 'delivered');
      assert.equal(delivery.attempts, 3);
      assert.deepEqual(
        delivery.delivery_attempts.map(
          (attempt: { status_code: number; successful: boolean; error: null }) => [
            attempt.status_code,
            attempt.successful,
            attempt.error,
          ],
        ),
        [
          [500, false, null],
          [500, false, null],
          [200, true, null],
        ],
      );
      const times = delivery.delivery_attempts.map((attempt: { attempted_on: string }) =>
        Date.parse(attempt.attempted_on),
      );
      assert.ok(times[0] < times[1] && times[1] < times[2], `attempts in time order: ${times}`);
      assert.ok(Date.parse(delivery.delivered_on) >= times[2]);
      assert.equal(delivery.next_attempt_on, null);
      assert.deepEqual(delivery.payload, JSON.parse(received[0]!.body));

      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(receiver.requests('/hooks/flaky').length, 3, 'nothing more after the 200');
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('a deleted webhook gets nothing more; its past deliveries stay listed', async () => {
    const { receiver, sandbox } = await setUp();
    try {
      const gone = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/gone`, all_events: true });
      const kept = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/kept`, all_events: true });
      const first = await createPurchase(sandbox);
      await settled(sandbox, first, 2);
      assert.equal((await v1(sandbox, 'DELETE', `/webhooks/${gone.id}/`)).status, 204);

      await pay(sandbox, first, cardForm('4111111111111111'));
      const second = await createPurchase(sandbox);
      // The kept webhook hearing of both events means the gone one would have been sent them by now.
      const history = await settled(sandbox, first, 3);
      await settled(sandbox, second, 1);
      assert.deepEqual(
        receiver.requests('/hooks/kept').map((request) => `${eventOf(request).id}:${eventOf(request).event}`),
        [`${first}:purchase.created`, `${first}:purchase.paid`, `${second}:purchase.created`],
      );
      assert.deepEqual(
        receiver.requests('/hooks/gone').map((request) => `${eventOf(request).id}:${eventOf(request).event}`),
        [`${first}:purchase.created`],
      );
      assert.deepEqual(
        history.map((delivery) => [delivery.webhook_id, delivery.event]),
        [
          [gone.id, 'purchase.created'],
          [kept.id, 'purchase.created'],
          [kept.id, 'purchase.paid'],
        ],
      );
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('deleting a webhook stops its queued retries; the delivery is listed as given up', async () => {
    const { receiver, sandbox } = await setUp({ retryBaseMs: 50 });
    try {
      receiver.respond('/hooks/down', () => ({ status: 503 }));
      const down = await createWebhook(sandbox, { callback: `${receiver.url}/hooks/down`, all_events: true });
      const id = await createPurchase(sandbox);
      await receiver.waitFor('/hooks/down', 2);
      assert.equal((await v1(sandbox, 'DELETE', `/webhooks/${down.id}/`)).status, 204);
      const [delivery] = await settled(sandbox, id, 1);
      assert.equal(delivery.status, 'failed');
      const attempts = receiver.requests('/hooks/down').length;
      // Eight further attempts at 50 ms doubling would take 25 s; none may come now.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(receiver.requests('/hooks/down').length, attempts, 'no attempt after the delete');
    } finally {
      await sandbox.close();
      await receiver.close();
    }
  });

  test('webhooks, their keys and pending deliveries survive a restart', async () => {
    const dataDir = await tempDir();
    const { receiver, sandbox: first } = await setUp({ dataDir, retryBaseMs: 200 });
    let firstOpen = true;
    let second: Sandbox | undefined;
    try {
      receiver.respond('/hooks/down', () => ({ status: 503 }));
      const webhook = await createWebhook(first, {
        callback: `${receiver.url}/hooks/down`,
        all_events: true,
      });
      const id = await createPurchase(first);
      await receiver.waitFor('/hooks/down', 1);
      firstOpen = false;
      await first.close();

      receiver.respond('/hooks/down', () => ({ status: 200 }));
      const refused = receiver.requests('/hooks/down').length;
      second = await startSandbox({ port: 0, config: first.config, dataDir });
      const after = await v1(second, 'GET', `/webhooks/${webhook.id}/`);
      assert.equal(after.status, 200);
      assert.equal(after.body.public_key, webhook.public_key);
      const [delivery] = await settled(second, id, 1);
      const received = receiver.requests('/hooks/down');
      assert.equal(received.length, refused + 1, 'the pending delivery went out again after the restart');
      assert.ok(signedBy(received.at(-1)!, after.body.public_key));
      assert.equal(eventOf(received.at(-1)!).event, 'purchase.created');
      assert.deepEqual(
        delivery.delivery_attempts.map((attempt: { status_code: number }) => attempt.status_code),
        [...Array(refused).fill(503), 200],
      );
    } finally {
      if (firstOpen) await first.close();
      await second?.close();
      await receiver.close();
    }
  });
});
