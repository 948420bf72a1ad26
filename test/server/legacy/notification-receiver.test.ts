/**
 * createNotificationReceiver against the real sandbox: orders signed and paid over the widget API (as the
 * frame does), notifications signed and delivered by the sandbox to the receiver, mounted every way a merchant
 * mounts it. Issue 22: a page that re-splits the signed fields (`Tea` count 2 as `Tea2.000`) pays half under a
 * valid signature and gets a genuine PAID notification; the receiver must not let it reach `onPaid`.
 */
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import {
  createEventDeduplicator,
  createNotificationReceiver,
  type NotificationReceiverOptions,
  type OrderInput,
  orderSignatureInput,
  type ReceiverLogger,
  type RefusedPaidOrder,
  signOrder,
  toNodeHandler,
  type VerifiedPaidOrder,
} from '../../../src/server/index.js';
import {
  call,
  type FakeMerchant,
  merchantKeys,
  startTestSandbox,
  until,
  WIDGETS,
} from '../../sandbox/support.js';
import { listen } from '../support.js';

const DEFAULTS = { currency: 'EUR', taxRate: '21' };
const VISA = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' };

let front: Awaited<ReturnType<typeof listen>>;
let sandbox: Sandbox;
/** Where the sandbox's deliveries go now: the mount under test. */
let mounted: RequestListener = (_req, res) => res.writeHead(503).end();
/** The shop's records: orders signed, by merchant order id. */
const signed = new Map<string, OrderInput>();
let paid: VerifiedPaidOrder[];
let refused: RefusedPaidOrder[];
let lines: Array<{ level: keyof ReceiverLogger; line: string }>;
let sequence = 0;

const logger: ReceiverLogger = {
  info: (line) => lines.push({ level: 'info', line }),
  warn: (line) => lines.push({ level: 'warn', line }),
  error: (line) => lines.push({ level: 'error', line }),
};

before(async () => {
  front = await listen((req, res) => mounted(req, res));
  // The sandbox's merchant posts its notifications to `${front.url}/notify`; no other callback is used here.
  sandbox = await startTestSandbox({ url: front.url } as FakeMerchant);
});
after(async () => {
  await sandbox.close();
  await front.close();
});
beforeEach(() => {
  paid = [];
  refused = [];
  lines = [];
});

function receiver(overrides: Partial<NotificationReceiverOptions> = {}) {
  return createNotificationReceiver({
    servicePublicKeyPem: sandbox.serviceCertificatePem,
    findSignedOrder: (orderId) => signed.get(orderId),
    defaults: DEFAULTS,
    onPaid: (order) => {
      paid.push(order);
    },
    onRefused: (refusal) => {
      refused.push(refusal);
    },
    logger,
    ...overrides,
  });
}

/** Signs `order` as the shop (keeping it under its id unless `keep` is false), and creates it as the page sent `sent`. */
async function createOrder(order: OrderInput, sent: OrderInput = order, keep = true): Promise<string> {
  if (keep) signed.set(order.orderId!, order);
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order: sent,
    signature: signOrder(order, merchantKeys.main.privateKeyPem),
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body['id'] as string;
}

async function pay(id: string): Promise<void> {
  sequence += 1;
  const answer = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: `receiver-${sequence}`,
    card: VISA,
  });
  assert.equal(answer.body['state'], 'PAID', JSON.stringify(answer.body));
}

function tea(orderId: string): OrderInput {
  return { widgetId: WIDGETS.checkout, orderId, items: [{ amount: '12.50', label: 'Tea', count: 2 }] };
}

const paidFor = (orderId: string) => paid.filter((order) => order.orderId === orderId);

/** Pays a fresh Tea order and waits for onPaid. */
async function payAndReceive(orderId: string): Promise<VerifiedPaidOrder> {
  await pay(await createOrder(tea(orderId)));
  await until(
    () => paidFor(orderId).length > 0,
    () => `onPaid was not called for ${orderId}; log: ${JSON.stringify(lines)}`,
  );
  return paidFor(orderId)[0]!;
}

/** The deliveries a fetch mount saw, as bytes and headers, to send again by hand. */
function recording(handler: (request: Request) => Promise<Response>) {
  const deliveries: Array<{ body: string; headers: Headers }> = [];
  const listener = toNodeHandler(async (request) => {
    deliveries.push({ body: await request.clone().text(), headers: request.headers });
    return handler(request);
  });
  return { deliveries, listener };
}

describe('createNotificationReceiver', () => {
  test('a genuine PAID notification reaches onPaid verified and typed', async () => {
    mounted = receiver().node;
    const order = await payAndReceive('RCV-PAID-1');
    assert.equal(order.totalAmount, '25.00');
    assert.equal(order.currency, 'EUR');
    assert.equal(order.shippingOptionId, null);
    assert.equal(order.notification.status, 'PAID');
    assert.equal(order.notification.total_amount, 25);
    assert.deepEqual(order.order, tea('RCV-PAID-1'));
    assert.equal(order.gatewayOrderId, order.notification.id);
    assert.deepEqual(lines, [], 'a plain success logs nothing');
  });

  test('the re-split order (Tea count 2 paid as Tea2.000 at 12.50) never reaches onPaid, and is logged', async () => {
    const { deliveries, listener } = recording(receiver().fetch);
    mounted = listener;
    const shop = tea('RCV-RESPLIT-1');
    const page: OrderInput = { ...shop, items: [{ amount: '12.50', label: 'Tea2.000' }] };
    assert.equal(orderSignatureInput(page), orderSignatureInput(shop), 'the same signed text');
    await pay(await createOrder(shop, page));
    await until(
      () => refused.length > 0,
      () => `onRefused was not called; log: ${JSON.stringify(lines)}`,
    );
    assert.deepEqual(paidFor('RCV-RESPLIT-1'), []);
    assert.equal(refused[0]!.code, 'total_mismatch');
    assert.equal(refused[0]!.field, 'total_amount');
    assert.equal(refused[0]!.notification.total_amount, 12.5);
    const errors = lines.filter((entry) => entry.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(lines));
    assert.match(
      errors[0]!.line,
      /order_mismatch \(answered 200\).*NOT FULFILLED: total_mismatch at total_amount/,
    );
    assert.ok(!errors[0]!.line.includes('\n'), 'one line');
    // Answered 200: the gateway does not send the same bytes again.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(deliveries.length, 1);

    // An onRefused that throws (the alert did not go out) is answered 500, so the gateway tries again.
    lines = [];
    const alerting = receiver({
      onRefused: () => {
        throw new Error('pager down');
      },
    });
    const answer = await alerting.handle({ rawBody: deliveries[0]!.body, headers: deliveries[0]!.headers });
    assert.deepEqual([answer.status, answer.outcome], [500, 'handler_failed']);
    assert.deepEqual(paidFor('RCV-RESPLIT-1'), []);
    assert.match(
      lines.map((entry) => entry.line).join('\n'),
      /order_mismatch \(answered 500\).*total_mismatch/,
    );
  });

  test('a missing or wrong signature is answered 401 and logged; nothing is handled', async () => {
    const { deliveries, listener } = recording(receiver().fetch);
    mounted = listener;
    await payAndReceive('RCV-SIG-1');
    const genuine = deliveries[0]!;
    for (const [signature, code] of [
      [undefined, 'signature_missing'],
      ['AAAA', 'signature_invalid'],
    ] as const) {
      const answer = await fetch(`${front.url}/notify`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', ...(signature && { 'x-svc-signature': signature }) },
        body: genuine.body.replace('"RCV-SIG-1"', '"RCV-SIG-2"'),
      });
      assert.equal(answer.status, 401);
      assert.equal(((await answer.json()) as { error: string }).error, code);
    }
    assert.equal(paid.length, 1);
    assert.deepEqual(
      lines.map((entry) => [
        entry.level,
        /^svc-checkout notification receiver: (\w+) \(answered 401\)/.exec(entry.line)?.[1],
      ]),
      [
        ['warn', 'signature_missing'],
        ['warn', 'signature_invalid'],
      ],
    );
  });

  test('an order the shop cannot find yet is answered 503, and the retry reaches onPaid', async () => {
    mounted = receiver().node;
    const order = tea('RCV-LATE-1');
    await pay(await createOrder(order, order, false));
    await until(
      () => lines.some((entry) => entry.line.includes('unknown_order (answered 503)')),
      () => `no unknown_order line: ${JSON.stringify(lines)}`,
    );
    assert.deepEqual(paidFor('RCV-LATE-1'), []);
    signed.set('RCV-LATE-1', order);
    await until(
      () => paidFor('RCV-LATE-1').length === 1,
      () => `the retry did not reach onPaid: ${JSON.stringify(lines)}`,
    );
  });

  test('a handler that throws is answered 500 and handled again on the retry; a repeat of the same bytes is not', async () => {
    let failures = 1;
    const { deliveries, listener } = recording(
      receiver({
        onPaid: (order) => {
          if (failures-- > 0) throw new Error('database down');
          paid.push(order);
        },
      }).fetch,
    );
    mounted = listener;
    await payAndReceive('RCV-THROW-1');
    assert.equal(deliveries.length, 2, 'delivered again after the 500');
    assert.match(
      lines.find((entry) => entry.level === 'error')!.line,
      /handler_failed \(answered 500\): onPaid threw for the PAID notification of order RCV-THROW-1 .*database down/,
    );
    // The gateway repeats a delivery whose 200 got lost: the same bytes are answered 200, not handled again.
    const again = await fetch(`${front.url}/notify`, {
      method: 'PUT',
      headers: deliveries[1]!.headers,
      body: deliveries[1]!.body,
    });
    assert.equal(again.status, 200);
    assert.equal(((await again.json()) as { outcome: string }).outcome, 'duplicate');
    assert.equal(paidFor('RCV-THROW-1').length, 1);
  });

  test('repeats are handled again with the deduplicator turned off (deduplicator: false)', async () => {
    const { deliveries, listener } = recording(receiver({ deduplicator: false }).fetch);
    mounted = listener;
    await payAndReceive('RCV-NODEDUP-1');
    const again = await fetch(`${front.url}/notify`, {
      method: 'PUT',
      headers: deliveries[0]!.headers,
      body: deliveries[0]!.body,
    });
    assert.equal(again.status, 200);
    assert.equal(paidFor('RCV-NODEDUP-1').length, 2);
  });

  test('refuses options that cannot work, naming them', () => {
    assert.throws(
      () => receiver({ findSignedOrder: undefined as never }),
      /createNotificationReceiver.*findSignedOrder/,
    );
    assert.throws(() => receiver({ deduplicator: {} as never }), /deduplicator/);
    assert.throws(() => receiver({ servicePublicKeyPem: 'not a key' }));
    receiver({ deduplicator: createEventDeduplicator() });
  });
});

describe('the receiver mounted every way, the raw body handled', () => {
  test('Express, with no body parser, after express.raw(), and after express.json() (refused, naming the fix)', async () => {
    const plain = express();
    plain.put('/notify', receiver().node);
    mounted = plain;
    await payAndReceive('RCV-EXPRESS-1');

    const raw = express();
    raw.use(express.raw({ type: '*/*' }));
    raw.put('/notify', receiver().node);
    mounted = raw;
    await payAndReceive('RCV-EXPRESS-2');

    // A delivery captured on the way, sent again to an app that parses JSON first.
    const { deliveries, listener } = recording(receiver().fetch);
    mounted = listener;
    await payAndReceive('RCV-EXPRESS-3');
    const parsed = express();
    parsed.use(express.json());
    parsed.put('/notify', receiver().node);
    mounted = parsed;
    lines = [];
    const answer = await fetch(`${front.url}/notify`, {
      method: 'PUT',
      headers: deliveries[0]!.headers,
      body: deliveries[0]!.body,
    });
    assert.equal(answer.status, 500);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.match(lines[0]!.line, /body_unavailable \(answered 500\).*express\.json\(\).*express\.raw/);
  });

  test('Fastify, in an app that parses JSON elsewhere', async () => {
    let fastifyHandler: RequestListener | undefined;
    const app = Fastify({
      serverFactory: (handler) => {
        fastifyHandler = handler;
        return createServer(handler);
      },
    });
    app.post('/elsewhere', async (request) => ({ echoed: request.body }));
    await app.register(receiver().fastify, { path: '/notify' });
    await app.ready();
    mounted = (req, res) => fastifyHandler!(req, res);
    await payAndReceive('RCV-FASTIFY-1');
    // The plugin's raw parser stays in its own context: the app's other routes still get JSON.
    const elsewhere = await app.inject({ method: 'POST', url: '/elsewhere', payload: { a: 1 } });
    assert.deepEqual(elsewhere.json(), { echoed: { a: 1 } });
    await app.close();
  });

  test('Hono and other fetch-style routers, through receiver.fetch', async () => {
    const notifications = receiver();
    const app = new Hono();
    app.put('/notify', (c) => notifications.fetch(c.req.raw));
    mounted = toNodeHandler(async (request) => app.fetch(request));
    await payAndReceive('RCV-HONO-1');
  });

  test('node:http, and a method other than PUT or POST answered 405', async () => {
    mounted = receiver().node;
    await payAndReceive('RCV-NODE-1');
    const wrong = await fetch(`${front.url}/notify`);
    assert.equal(wrong.status, 405);
    assert.equal(wrong.headers.get('allow'), 'PUT, POST');
  });
});
