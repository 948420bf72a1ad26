/**
 * Deliveries to a merchant who answers after the timeout (issue 9: 2.5% of events were acknowledged twice
 * when the merchant took as long as the 10 s timeout). A timed-out request stays open until its retry is due:
 * a 2xx that comes first delivers the delivery and no retry is made; a retry that comes first closes it and
 * repeats the delivery byte for byte. Against a real HTTP server that holds its answers until the test lets
 * them go; the retry's due time is reached with the queue's clock, never by waiting for it.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, test } from 'node:test';
import {
  createDeliveryQueue,
  createHttpSend,
  type Delivery,
  type DeliveryQueueOptions,
  type HttpSendOptions,
} from '../../src/sandbox/delivery-queue.js';
import { openStore } from '../../src/sandbox/store.js';

const MINUTE = 60_000;
/** Short, so the tests need not wait; an answer the server holds always takes longer. */
const TIMEOUT_MS = 100;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
});

interface HeldRequest {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
  socket: Socket;
  /** Answers now (a no-op once the connection is gone). */
  answer(status: number): void;
}

/**
 * A merchant that takes every request and answers as `policy` says: a status at once, or `hold` to answer
 * only when the test calls `answer`. It counts its connections, open and closed.
 */
async function startMerchant(policy: (request: HeldRequest, index: number) => number | 'hold') {
  const requests: HeldRequest[] = [];
  const sockets = new Set<Socket>();
  let closedSockets = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: HeldRequest = {
        method: req.method!,
        url: req.url!,
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
        socket: req.socket,
        answer: (status) => {
          if (!res.destroyed) res.writeHead(status).end();
        },
      };
      requests.push(request);
      const decision = policy(request, requests.length - 1);
      if (decision !== 'hold') request.answer(decision);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closedSockets++;
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get openSockets() {
      return sockets.size;
    },
    get closedSockets() {
      return closedSockets;
    },
  };
}

/** A queue over a real HTTP sender with a clock the test moves (`advance`). */
function startQueue({
  sendOptions,
  ...options
}: Partial<Omit<DeliveryQueueOptions, 'send'>> & { sendOptions?: HttpSendOptions } = {}) {
  let shift = 0;
  const store = openStore();
  const send = createHttpSend({ timeoutMs: TIMEOUT_MS, ...sendOptions });
  const delivered: Delivery[] = [];
  const queue = createDeliveryQueue({
    store,
    send,
    retryBaseMs: MINUTE,
    now: () => Date.now() + shift,
    onDelivered: (delivery) => delivered.push(delivery),
    ...options,
  });
  const close = async () => {
    await queue.close();
    send.close();
    await store.close();
  };
  cleanups.push(close);
  return {
    queue,
    delivered,
    close,
    /** Moves the queue's clock on by `ms`. */
    advance(ms: number) {
      shift += ms;
    },
  };
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const notification = (url: string, key = 'order-1', body = '{"id":"order-1","status":"PAID"}') => ({
  key,
  url: `${url}/notify`,
  method: 'PUT',
  headers: { 'content-type': 'application/json', 'x-svc-signature': 'c2lnbmF0dXJl' },
  body,
  acceptStatus: 'exactly-200' as const,
});

// Bounded: a queue that missed a late answer would wait for its retry a minute later, on the real clock.
describe('a merchant who answers after the timeout', { timeout: 60_000 }, () => {
  test('a 200 that comes before the retry is due delivers it: the attempt is marked answered late, no retry follows', async () => {
    const merchant = await startMerchant((request) => (request.url === '/notify' ? 'hold' : 200));
    const { queue, delivered, advance } = startQueue();
    const id = queue.enqueue(notification(merchant.url));
    await waitFor(() => queue.get(id)!.attempts.length === 1, 'the attempt to time out');
    const timedOut = queue.get(id)!;
    assert.equal(timedOut.state, 'pending');
    assert.match(timedOut.attempts[0]!.error!, /no answer within 100 ms/);
    assert.equal(timedOut.attempts[0]!.status, undefined);
    assert.ok(timedOut.nextAttemptAt !== null, 'a retry is planned');

    merchant.requests[0]!.answer(200);
    await waitFor(() => queue.get(id)!.state !== 'pending', 'the late answer to end the delivery');
    const done = queue.get(id)!;
    assert.equal(done.state, 'delivered');
    assert.equal(done.nextAttemptAt, null);
    assert.equal(done.attempts.length, 1);
    const [attempt] = done.attempts;
    assert.equal(attempt!.status, 200);
    assert.equal(attempt!.accepted, true);
    assert.match(attempt!.error!, /no answer within/, 'the attempt still says it timed out');
    assert.equal(typeof attempt!.answeredLateAt, 'number');
    assert.deepEqual(
      delivered.map((delivery) => delivery.id),
      [id],
    );

    // The time the retry was planned for comes (another delivery makes the queue look at its schedule then).
    advance(2 * MINUTE);
    const other = queue.enqueue({ ...notification(merchant.url, 'order-2'), url: `${merchant.url}/other` });
    await queue.idle();
    assert.equal(queue.get(other)!.state, 'delivered');
    assert.deepEqual(
      merchant.requests.map((request) => request.url),
      ['/notify', '/other'],
      'no retry of the delivery answered late',
    );
  });

  test('a late answer that refuses is recorded, and the retry still comes', async () => {
    const merchant = await startMerchant((_request, index) => (index === 0 ? 'hold' : 200));
    const { queue, advance } = startQueue();
    const id = queue.enqueue(notification(merchant.url));
    await waitFor(() => queue.get(id)!.attempts.length === 1, 'the attempt to time out');
    merchant.requests[0]!.answer(503);
    await waitFor(() => queue.get(id)!.attempts[0]!.status === 503, 'the late 503 to be recorded');
    assert.equal(queue.get(id)!.attempts[0]!.accepted, false);
    assert.equal(queue.get(id)!.state, 'pending');

    advance(2 * MINUTE);
    queue.enqueue({ ...notification(merchant.url, 'order-2'), url: `${merchant.url}/other` });
    await queue.idle();
    const done = queue.get(id)!;
    assert.equal(done.state, 'delivered');
    assert.deepEqual(
      done.attempts.map((attempt) => [
        attempt.status,
        attempt.accepted,
        attempt.answeredLateAt !== undefined,
      ]),
      [
        [503, false, true],
        [200, true, false],
      ],
    );
  });

  test('a retry that comes first closes the timed-out request and repeats the delivery byte for byte', async () => {
    // The first request is never answered; the retry is.
    const merchant = await startMerchant((_request, index) => (index === 0 ? 'hold' : 200));
    const { queue } = startQueue({ retryBaseMs: 20 });
    const body = JSON.stringify({ id: 'order-1', status: 'PAID', label: 'Tēja ☕', amount: 12.5 });
    const id = queue.enqueue(notification(merchant.url, 'order-1', body));
    await queue.idle();

    const done = queue.get(id)!;
    assert.equal(done.state, 'delivered');
    assert.equal(done.attempts.length, 2);
    assert.equal(done.attempts[0]!.status, undefined, 'the first attempt was never answered');
    assert.equal(done.attempts[0]!.answeredLateAt, undefined);
    assert.equal(done.attempts[1]!.accepted, true);

    const [first, retry] = merchant.requests;
    assert.ok(first && retry);
    await waitFor(() => first.socket.destroyed, 'the timed-out request to be closed');
    assert.notEqual(first.socket, retry.socket, 'the retry went on a connection of its own');
    assert.equal(retry.method, first.method);
    assert.equal(retry.url, first.url);
    assert.deepEqual(retry.rawHeaders, first.rawHeaders);
    assert.ok(retry.body.equals(first.body), 'the same bytes');
    assert.ok(first.body.equals(Buffer.from(body)), 'as stored');
    first.answer(200);
    assert.equal(queue.get(id)!.attempts.length, 2, 'nothing heard from the closed request');
  });

  test('closing the queue and the sender leaves no connection open, one kept for a late answer included', async () => {
    const merchant = await startMerchant(() => 'hold');
    const { queue, close } = startQueue();
    const id = queue.enqueue(notification(merchant.url));
    await waitFor(() => queue.get(id)!.attempts.length === 1, 'the attempt to time out');
    assert.equal(merchant.openSockets, 1, 'kept open for the answer');
    await close();
    await waitFor(() => merchant.openSockets === 0, 'every connection to close');
  });

  test('late answers wait on at most maxLateAnswers connections per host; other timed-out requests close at once', async () => {
    const merchant = await startMerchant(() => 'hold');
    const { queue } = startQueue({ sendOptions: { maxLateAnswers: 1 } });
    const ids = ['order-1', 'order-2', 'order-3'].map((key) =>
      queue.enqueue(notification(merchant.url, key)),
    );
    await waitFor(() => ids.every((id) => queue.get(id)!.attempts.length === 1), 'every attempt to time out');
    await waitFor(() => merchant.closedSockets === 2, 'two timed-out requests to close');
    assert.equal(merchant.openSockets, 1, 'one kept for its answer');
  });
});
