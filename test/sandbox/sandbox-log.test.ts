import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { before, describe, test } from 'node:test';
import type { Delivery } from '../../src/sandbox/delivery-queue.js';
import type { LegacyNotificationView } from '../../src/sandbox/legacy/notification-routes.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import {
  deliveryEntry,
  deliveryKindOf,
  formatLogEntry,
  type SandboxLogEntry,
} from '../../src/sandbox/sandbox-log.js';
import { signOrder } from '../../src/server/index.js';
import {
  API_KEY,
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  paidOrder,
  startTestSandbox,
  until,
  WIDGETS,
  withLegacySandbox,
} from './support.js';
import { cardForm, OTHER, postForm, purchaseBody, startV1Sandbox, V1, v1 } from './v1/support.js';

/** The entries of `kind` heard so far. */
function ofKind<K extends SandboxLogEntry['kind']>(entries: SandboxLogEntry[], kind: K) {
  return entries.filter((entry): entry is Extract<SandboxLogEntry, { kind: K }> => entry.kind === kind);
}

describe('the sandbox log', () => {
  const legacy = withLegacySandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  const entries: SandboxLogEntry[] = [];
  before(async () => {
    ({ merchant, sandbox } = legacy);
    sandbox.log.subscribe((entry) => entries.push(entry));
  });

  test('one request entry per answer: method, path without query, status, time, merchant; no body', async () => {
    entries.length = 0;
    await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.checkout}?secret=s3cr3t`);
    const input = { widgetId: WIDGETS.checkout, items: [{ amount: '20.00', label: 'Lamp' }] };
    await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: input,
      signature: signOrder(input, merchantKeys.main.privateKeyPem),
      pageOrigin: PAGE_ORIGIN,
    });
    await until(() => ofKind(entries, 'request').length >= 2, 'two request entries');
    const [widget, order] = ofKind(entries, 'request');
    assert.equal(widget!.method, 'GET');
    assert.equal(widget!.path, `/widget-api/v1/widgets/${WIDGETS.checkout}`);
    assert.equal(widget!.status, 200);
    assert.equal(widget!.merchantId, 'm1');
    assert.ok(widget!.durationMs >= 0);
    assert.equal(order!.status, 201);
    assert.equal(order!.merchantId, 'm1');
    const printed = entries.map(formatLogEntry).join('\n');
    assert.doesNotMatch(printed, /s3cr3t|Lamp|20\.00/);
    assert.match(
      formatLogEntry(widget!),
      /^\d\d:\d\d:\d\d GET \/widget-api\/v1\/widgets\/\S+ 200 \d+ ms m1$/,
    );
  });

  test('a notification answered 500 logs its retry with the next attempt time, then its delivery', async () => {
    entries.length = 0;
    let calls = 0;
    merchant.respond('/notify', () => ({ status: ++calls === 1 ? 500 : 200 }));
    await paidOrder(sandbox, 'log-retry');
    await until(() => ofKind(entries, 'delivery').length >= 2, 'two delivery entries');
    const [failed, delivered] = ofKind(entries, 'delivery');
    assert.equal(failed!.delivery, 'notification');
    assert.equal(failed!.event, 'PAID');
    assert.equal(failed!.url, `${merchant.url}/notify`);
    assert.equal(failed!.status, 500);
    assert.equal(failed!.attempt, 1);
    assert.equal(failed!.outcome, 'retrying');
    assert.equal(failed!.merchantId, 'm1');
    // The test config's retryBaseMs is 20.
    assert.ok(failed!.nextAttemptInMs! <= 20, String(failed!.nextAttemptInMs));
    assert.equal(Date.parse(failed!.nextAttemptAt!) - Date.parse(failed!.at), failed!.nextAttemptInMs);
    assert.match(
      formatLogEntry(failed!),
      /^\d\d:\d\d:\d\d notification PAID PUT http:\S+\/notify answered 500 after \d+ ms; attempt 1; next attempt at \d\d:\d\d:\d\d \(in \d+ ms\) m1$/,
    );
    assert.equal(delivered!.attempt, 2);
    assert.equal(delivered!.outcome, 'delivered');
    assert.match(formatLogEntry(delivered!), /answered 200 after \d+ ms; attempt 2; delivered m1$/);
    merchant.respond('/notify', () => ({ status: 200 }));
  });

  test('entries() is an async iterable that ends at break', async () => {
    const iterator = sandbox.log.entries();
    const first = iterator.next();
    await call(sandbox, 'GET', '/sandbox/health');
    const { value } = await first;
    assert.equal(value?.kind, 'request');
    await iterator.return();
    assert.equal(sandbox.log.active, true, 'the test file’s own listener stays');
  });

  test('a signature the page changed answers signature_invalid with the text checked and the field', async () => {
    entries.length = 0;
    const signed = {
      widgetId: WIDGETS.checkout,
      orderId: 'lang-1',
      items: [{ amount: '12.50', label: 'Tea' }],
    };
    const signature = signOrder(signed, merchantKeys.main.privateKeyPem);
    // A React `language` prop the server did not sign.
    const answer = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: { ...signed, language: 'lv' },
      signature,
      pageOrigin: PAGE_ORIGIN,
    });
    assert.equal(answer.status, 401);
    const error = answer.body['error'];
    assert.equal(error.code, 'signature_invalid');
    assert.equal(error.details.field, 'language');
    assert.equal(error.details.signedText, `${WIDGETS.checkout}lvlang-112.50Tea`);
    assert.match(
      error.details.finding,
      /verifies without `language`: the page added language="lv" that was not signed/,
    );
    // The shopper-facing message is the production-like one: the diagnosis is only in details.
    assert.doesNotMatch(error.message, /language/);
    await until(() => ofKind(entries, 'signature_mismatch').length === 1, 'the mismatch entry');
    const [mismatch] = ofKind(entries, 'signature_mismatch');
    assert.equal(mismatch!.merchantId, 'm1');
    assert.equal(mismatch!.diagnosis.field, 'language');
    assert.match(
      formatLogEntry(mismatch!),
      /signature_invalid for widget .*language.*the text checked was "/,
    );
  });

  test('a changed item count is named; a changed price is not a field the page added', async () => {
    const signed = { widgetId: WIDGETS.checkout, items: [{ amount: '12.50', label: 'Tea' }] };
    const signature = signOrder(signed, merchantKeys.main.privateKeyPem);
    const counted = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: { ...signed, items: [{ amount: '12.50', label: 'Tea', count: '2' }] },
      signature,
    });
    assert.equal(counted.body['error'].details.field, 'items[0].count');
    const repriced = await call(sandbox, 'POST', '/widget-api/v1/orders', {
      order: { ...signed, items: [{ amount: '6.25', label: 'Tea' }] },
      signature,
    });
    assert.equal(repriced.body['error'].code, 'signature_invalid');
    assert.equal(repriced.body['error'].details.field, undefined);
    assert.match(repriced.body['error'].details.finding, /no single field/);
  });

  test('legacy notifications are listed with their attempts, bytes and signature, and resent as they were', async () => {
    const orderId = await paidOrder(sandbox, 'resend-1');
    await merchant.waitFor('/notify', 1);
    const headers = { 'x-svc-api-key': API_KEY };
    await until(
      () => merchant.requests('/notify').some((request) => request.body.includes(orderId)),
      'the notification',
    );
    const listed = await fetch(`${sandbox.url}/sandbox/legacy/notifications?order_id=resend-1`, { headers });
    assert.equal(listed.status, 200);
    const { notifications } = (await listed.json()) as { notifications: LegacyNotificationView[] };
    assert.equal(notifications.length, 1);
    const [notification] = notifications;
    assert.equal(notification!.orderId, orderId);
    assert.equal(notification!.status, 'PAID');
    assert.equal(notification!.state, 'delivered');
    assert.equal(notification!.attempts[0]!.status, 200);
    const sent = merchant.requests('/notify').find((request) => request.body.includes(orderId))!;
    assert.equal(notification!.body, sent.body);
    assert.equal(notification!.signature, sent.headers['x-svc-signature']);

    const all = await fetch(`${sandbox.url}/sandbox/legacy/notifications`, { headers });
    const newest = ((await all.json()) as { notifications: Array<{ id: string }> }).notifications[0];
    assert.equal(newest!.id, notification!.id);

    const before = merchant.requests('/notify').length;
    const resent = await fetch(`${sandbox.url}/sandbox/legacy/notifications/${notification!.id}/resend`, {
      method: 'POST',
      headers,
    });
    assert.equal(resent.status, 201);
    const copy = (await resent.json()) as { id: string; resendOf: string; body: string };
    assert.notEqual(copy.id, notification!.id);
    assert.equal(copy.resendOf, notification!.id);
    const [, again] = (await merchant.waitFor('/notify', before + 1)).slice(before - 1);
    assert.equal(again!.body, sent.body);
    assert.equal(again!.headers['x-svc-signature'], sent.headers['x-svc-signature']);
    assert.equal(again!.method, 'PUT');
  });

  test('the notification routes want the merchant’s API key, and name an unknown notification', async () => {
    const none = await fetch(`${sandbox.url}/sandbox/legacy/notifications`);
    assert.equal(none.status, 401);
    assert.equal(((await none.json()) as { error: { code: string } }).error.code, 'api_key_missing');
    const wrong = await fetch(`${sandbox.url}/sandbox/legacy/notifications`, {
      headers: { 'x-svc-api-key': 'nope' },
    });
    assert.equal(wrong.status, 401);
    const unknown = await fetch(`${sandbox.url}/sandbox/legacy/notifications/nope/resend`, {
      method: 'POST',
      headers: { 'x-svc-api-key': API_KEY },
    });
    assert.equal(unknown.status, 404);
  });
});

describe('the sandbox log stream over HTTP', () => {
  test('GET /sandbox/logs and /sandbox/forwarding send server-sent events of the merchant', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startTestSandbox(merchant);
    try {
      const controller = new AbortController();
      const open = (path: string) =>
        fetch(`${sandbox.url}${path}`, { headers: { 'x-svc-api-key': API_KEY }, signal: controller.signal });
      const logs = await open('/sandbox/logs');
      const forwarding = await open('/sandbox/forwarding');
      assert.equal(logs.headers.get('content-type'), 'text/event-stream; charset=utf-8');
      /** Reads the stream until its text so far matches `until`. */
      const reader = (response: Response) => {
        const chunks = response.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        return async (until: RegExp) => {
          while (!until.test(text)) {
            const { value, done } = await chunks.read();
            if (done) break;
            text += value;
          }
          return text;
        };
      };
      const readLogs = reader(logs);
      const readForwarding = reader(forwarding);
      assert.equal(await readLogs(/: ready\n\n/), ': ready\n\n');
      await readForwarding(/: ready\n\n/);
      const id = await paidOrder(sandbox, 'stream-1');
      const logged = await readLogs(/event: log\ndata: .*"kind":"delivery"/);
      assert.match(logged, /"path":"\/widget-api\/v1\/orders"/);
      const forwarded = await readForwarding(/event: delivery\ndata: .*\n\n/);
      const data = JSON.parse(/data: (.*)\n/.exec(forwarded)![1]!) as {
        delivery: string;
        event: string;
        method: string;
        headers: Record<string, string>;
        body: string;
      };
      assert.equal(data.delivery, 'notification');
      assert.equal(data.event, 'PAID');
      assert.equal(data.method, 'PUT');
      const [sent] = await merchant.waitFor('/notify', 1);
      assert.ok(sent!.body.includes(id));
      assert.equal(data.body, sent!.body);
      assert.equal(data.headers['x-svc-signature'], sent!.headers['x-svc-signature']);
      controller.abort();
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });
});

describe('a log stream whose client does not read', () => {
  test('is closed once it holds more than its bound unsent, and the sandbox goes on', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startTestSandbox(merchant);
    const { hostname, port } = new URL(sandbox.url);
    const socket = connect(Number(port), hostname);
    try {
      await once(socket, 'connect');
      socket.write(`GET /sandbox/logs HTTP/1.1\r\nHost: x\r\nX-Svc-Api-Key: ${API_KEY}\r\n\r\n`);
      await once(socket, 'data'); // the head and ": ready"
      socket.pause(); // a reader that stops reading
      const closed = once(socket, 'close');
      // Each request logs a line of about 14 KB for the merchant (its path), 14 MB in all: more than the
      // sockets' buffers and the stream's bound together.
      const long = 'x'.repeat(14_000);
      for (let round = 0; round < 20; round += 1) {
        await Promise.all(
          Array.from({ length: 50 }, () =>
            fetch(`${sandbox.url}/sandbox/legacy/notifications/${long}/resend`, {
              method: 'POST',
              headers: { 'x-svc-api-key': API_KEY },
            }).then((response) => response.arrayBuffer()),
          ),
        );
      }
      socket.resume(); // read what was sent: the stream ends instead of streaming on
      const waited = AbortSignal.timeout(10_000);
      await Promise.race([closed, once(waited, 'abort').then(() => assert.fail('the stream is still open'))]);
      const health = await fetch(`${sandbox.url}/sandbox/health`);
      assert.equal(health.status, 200);
    } finally {
      socket.destroy();
      await sandbox.close();
      await merchant.close();
    }
  });
});

describe('delivery entries', () => {
  const delivery = (overrides: Partial<Delivery>): Delivery => ({
    id: 'd1',
    key: 'order-1',
    seq: 1,
    url: 'http://localhost:3000/notify',
    method: 'PUT',
    headers: {},
    body: '{"status":"PAID"}',
    acceptStatus: 'exactly-200',
    createdAt: 0,
    state: 'pending',
    attempts: [],
    nextAttemptAt: null,
    finishedAt: null,
    ...overrides,
  });

  test('name what was delivered by the key its maker gave it', () => {
    assert.equal(deliveryKindOf(delivery({})), 'notification');
    assert.equal(deliveryKindOf(delivery({ key: 'v1-purchase:p1' })), 'success_callback');
    assert.equal(deliveryKindOf(delivery({ key: 'v1-webhook:w1:purchase:p1' })), 'webhook');
  });

  test('a timed-out attempt says why, and when the retry comes', () => {
    const at = Date.parse('2026-11-27T15:31:02Z');
    const attempt = { at, durationMs: 10_003, error: 'no answer within 10000 ms', accepted: false };
    const entry = deliveryEntry(
      delivery({ attempts: [attempt], nextAttemptAt: at + 60_000 }),
      attempt,
      1,
      at,
    );
    assert.equal(entry.event, 'PAID');
    assert.equal(entry.outcome, 'retrying');
    assert.equal(entry.nextAttemptInMs, 60_000);
    assert.match(
      formatLogEntry(entry),
      /notification PAID PUT http:\/\/localhost:3000\/notify no answer after 10003 ms \(no answer within 10000 ms\); attempt 1; next attempt at \d\d:\d\d:\d\d \(in 60 s\)$/,
    );
  });

  test('a webhook given up says so, with its event', () => {
    const attempt = { at: 0, durationMs: 4, status: 500, accepted: false };
    const entry = deliveryEntry(
      delivery({
        key: 'v1-webhook:w1:purchase:p1',
        event: 'purchase.paid',
        method: 'POST',
        owner: 'm1',
        state: 'failed',
        failure: 'attempts_exhausted',
        attempts: [attempt],
        finishedAt: 5,
      }),
      attempt,
      9,
      5,
    );
    assert.equal(entry.outcome, 'gave_up');
    assert.match(
      formatLogEntry(entry),
      /webhook purchase\.paid POST \S+ answered 500 after 4 ms; attempt 9; given up: every allowed attempt failed m1$/,
    );
  });
});

describe('v1 deliveries in the log and the forwarding stream', () => {
  test('a paid Purchase logs its success callback and webhook, and streams them to a bearer key', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startV1Sandbox(merchant);
    const entries: SandboxLogEntry[] = [];
    sandbox.log.subscribe((entry) => entries.push(entry));
    const controller = new AbortController();
    try {
      const webhook = await v1(sandbox, 'POST', '/webhooks/', {
        body: { title: 'Shop', callback: `${merchant.url}/hook`, events: ['purchase.paid'] },
      });
      assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
      const forwarding = await fetch(`${sandbox.url}/sandbox/forwarding`, {
        headers: { authorization: `Bearer ${V1.secretKey}` },
        signal: controller.signal,
      });
      assert.equal(forwarding.status, 200);
      const created = await v1(sandbox, 'POST', '/purchases/', {
        body: purchaseBody({ success_callback: `${merchant.url}/paid` }),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const paid = await postForm(sandbox, `/checkout/${created.body.id}/pay`, cardForm('4111111111111111'));
      assert.equal(paid.status, 200, paid.html);
      await until(() => ofKind(entries, 'delivery').length >= 2, 'two v1 delivery entries');
      const kinds = ofKind(entries, 'delivery')
        .map((entry) => `${entry.delivery} ${entry.event} ${entry.outcome} ${entry.merchantId}`)
        .sort();
      assert.deepEqual(kinds, [
        'success_callback purchase.paid delivered m1',
        'webhook purchase.paid delivered m1',
      ]);
      const request = ofKind(entries, 'request').find((entry) => entry.path === '/api/v1/purchases/');
      assert.equal(request?.merchantId, 'm1');

      const chunks = forwarding.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while ((text.match(/event: delivery\n/g) ?? []).length < 2) text += (await chunks.read()).value;
      const forwarded = [...text.matchAll(/^data: (.*)$/gm)]
        .map((match) => JSON.parse(match[1]!) as { delivery: string; url: string })
        .map((delivery) => `${delivery.delivery} ${delivery.url}`)
        .sort();
      assert.deepEqual(forwarded, [`success_callback ${merchant.url}/paid`, `webhook ${merchant.url}/hook`]);
    } finally {
      controller.abort();
      await sandbox.close();
      await merchant.close();
    }
  });
});

describe('each merchant streams only its own log', () => {
  test("another merchant's widget-API order lines, checkout pages and unattributed requests never reach it", async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startV1Sandbox(merchant);
    const entries: SandboxLogEntry[] = [];
    sandbox.log.subscribe((entry) => entries.push(entry));
    const controller = new AbortController();
    const open = async (apiKey: string) => {
      const response = await fetch(`${sandbox.url}/sandbox/logs`, {
        headers: { 'x-svc-api-key': apiKey },
        signal: controller.signal,
      });
      const chunks = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      return async (until: RegExp) => {
        while (!until.test(text)) text += (await chunks.read()).value;
        return text;
      };
    };
    try {
      const readM1 = await open(API_KEY);
      const readM2 = await open('m2-api-key');
      await readM1(/: ready\n\n/);
      await readM2(/: ready\n\n/);

      const orderId = await paidOrder(sandbox, 'private-1');
      const purchase = await v1(sandbox, 'POST', '/purchases/', { body: purchaseBody() });
      assert.equal(purchase.status, 201, JSON.stringify(purchase.body));
      const paid = await postForm(sandbox, `/checkout/${purchase.body.id}/pay`, cardForm('4111111111111111'));
      assert.equal(paid.status, 200, paid.html);
      assert.equal((await fetch(`${sandbox.url}/nowhere`)).status, 404);
      // m2's own request, last: once its line arrives, every line before it was sent or withheld.
      await v1(sandbox, 'GET', '/purchases/marker-m2/', { key: OTHER.secretKey });

      const m2Text = await readM2(/marker-m2/);
      const m2Entries = [...m2Text.matchAll(/^data: (.*)$/gm)].map(
        (match) => JSON.parse(match[1]!) as SandboxLogEntry,
      );
      assert.deepEqual(
        m2Entries.filter((entry) => entry.merchantId !== 'm2'),
        [],
        'm2 hears only entries of m2',
      );
      assert.ok(!m2Text.includes(orderId), "m1's gateway order id never reaches m2");
      assert.ok(!m2Text.includes(purchase.body.id), "m1's Purchase id never reaches m2");

      const m1Text = await readM1(new RegExp(`/checkout/${purchase.body.id}/pay`));
      const m1Paths = [...m1Text.matchAll(/^data: (.*)$/gm)]
        .map((match) => JSON.parse(match[1]!) as SandboxLogEntry)
        .filter((entry) => entry.kind === 'request')
        .map((entry) => `${entry.path} ${entry.merchantId}`);
      assert.ok(m1Paths.includes(`/widget-api/v1/orders/${orderId}/payments m1`), m1Paths.join('\n'));
      assert.ok(m1Paths.includes(`/checkout/${purchase.body.id}/pay m1`), m1Paths.join('\n'));
      assert.ok(!m1Text.includes('/nowhere'), 'a request of no merchant goes to no merchant');
      // In process (the CLI's own output), every request is heard, of no merchant too.
      const nowhere = ofKind(entries, 'request').find((entry) => entry.path === '/nowhere');
      assert.equal(nowhere?.merchantId, undefined);
    } finally {
      controller.abort();
      await sandbox.close();
      await merchant.close();
    }
  });
});

describe('the sandbox’s own endpoints name the merchant of their key', () => {
  test('a clock step and a v1 test helper request are logged as the key’s merchant', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startV1Sandbox(merchant);
    const entries: SandboxLogEntry[] = [];
    sandbox.log.subscribe((entry) => entries.push(entry));
    try {
      const step = await fetch(`${sandbox.url}/sandbox/v1/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-api-key': 'm2-api-key' },
        body: JSON.stringify({ advance_ms: 1000 }),
      });
      assert.equal(step.status, 200);
      const helper = await fetch(`${sandbox.url}/sandbox/test-helpers/v1/trigger`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${OTHER.secretKey}` },
        body: JSON.stringify({}),
      });
      assert.equal(helper.status, 400);
      await until(() => ofKind(entries, 'request').length >= 2, 'two request entries');
      assert.deepEqual(
        ofKind(entries, 'request').map((entry) => `${entry.path} ${entry.merchantId}`),
        ['/sandbox/v1/clock m2', '/sandbox/test-helpers/v1/trigger m2'],
      );
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });
});
