import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import {
  createDeliveryQueue,
  createHttpSend,
  type Delivery,
  type DeliveryQueueOptions,
  retryDelay,
} from '../../src/sandbox/delivery-queue.js';
import { openStore, type Store } from '../../src/sandbox/store.js';

const tmp = mkdtempSync(join(tmpdir(), 'svc-delivery-test-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Whatever a test opened is closed after it, even when an assertion failed half-way. */
const openThings: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of openThings.splice(0).reverse()) await close().catch(() => {});
});
function closeOnce(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const once = () => {
    closing ??= close();
    return closing;
  };
  openThings.push(once);
  return once;
}

interface Received {
  at: number;
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A merchant endpoint on 127.0.0.1 that records every request and answers with `answer(request)`. */
async function startMerchant(answer: (request: Received, received: Received[]) => number) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const request = { at: Date.now(), method: req.method!, path: req.url!, headers: req.headers, body };
      received.push(request);
      res.writeHead(answer(request, received)).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    close: closeOnce(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    }),
  };
}

/** A queue over a real HTTP sender; closing it closes the store and the sender's connections too. */
function startQueue(options: Partial<DeliveryQueueOptions> & { store?: Store } = {}) {
  const store = options.store ?? openStore();
  const send = createHttpSend({ timeoutMs: 2_000 });
  const queue = createDeliveryQueue({ send, retryBaseMs: 20, ...options, store });
  return {
    queue,
    store,
    close: closeOnce(async () => {
      await queue.close();
      await store.close();
      send.close();
    }),
  };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const json = (value: unknown) => JSON.stringify(value);

describe('retryDelay', () => {
  /** The times of the further attempts when every attempt takes no time. */
  function schedule(deadline: number, base: number, further: number): number[] {
    const times: number[] = [];
    let at = 0;
    for (let done = 0; done < further; done++) {
      at += retryDelay(at, deadline, base, done, further);
      times.push(at);
    }
    return times;
  }

  test('doubles the interval from the base', () => {
    assert.deepEqual(schedule(36 * 3600_000, 20, 4), [20, 60, 140, 300]);
  });

  test('shrinks a base too large for the window so the last attempt still falls in it', () => {
    const hour = 3600_000;
    const times = schedule(36 * hour, hour, 8);
    assert.equal(times.length, 8);
    assert.ok(times.at(-1)! <= 36 * hour, `last attempt at ${times.at(-1)! / hour} h`);
    assert.ok(times.at(-1)! > 35.9 * hour, 'the window is used, not squeezed to nothing');
    const gaps = times.map((time, index) => time - (index === 0 ? 0 : times[index - 1]!));
    for (let index = 1; index < gaps.length; index++)
      assert.ok(Math.abs(gaps[index]! - 2 * gaps[index - 1]!) <= 2);
  });

  test('fits the attempts left into the time left after a slow answer', () => {
    // 6 of 8 done, 100 ms left for intervals of 2^6 and 2^7 x base: base = 100 / (2^8 - 2^6).
    assert.equal(retryDelay(0, 100, 1_000, 6, 8), Math.floor((100 / 192) * 64));
    assert.equal(retryDelay(0, 100, 1_000, 7, 8), 100);
    assert.equal(retryDelay(200, 100, 1_000, 7, 8), 0);
  });
});

describe('delivery queue', () => {
  test('retries a failing merchant at growing intervals until it answers 200', async () => {
    const merchant = await startMerchant((_request, received) => (received.length <= 3 ? 500 : 200));
    const delivered: Delivery[] = [];
    const { queue, close } = startQueue({
      retryBaseMs: 20,
      onDelivered: (delivery) => delivered.push(delivery),
    });
    const body = json({ id: 'order-1', status: 'PAID' });
    const id = queue.enqueue({
      key: 'order-1',
      url: `${merchant.url}/notify`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-svc-signature': 'c2ln' },
      body,
      acceptStatus: 'exactly-200',
    });
    await queue.idle();

    const delivery = queue.get(id)!;
    assert.equal(delivery.state, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((attempt) => [attempt.status, attempt.accepted]),
      [
        [500, false],
        [500, false],
        [500, false],
        [200, true],
      ],
    );
    assert.deepEqual(
      delivered.map((entry) => entry.id),
      [id],
    );
    assert.equal(merchant.received.length, 4);
    for (const request of merchant.received) {
      assert.equal(request.method, 'PUT');
      assert.equal(request.path, '/notify');
      assert.equal(request.body, body);
      assert.equal(request.headers['x-svc-signature'], 'c2ln');
    }
    // Timers never fire early, so each wait after a failed attempt is at least its interval (a lower bound
    // that a loaded machine cannot break): 20, 40, 80 ms.
    const { attempts } = delivery;
    [20, 40, 80].forEach((expected, index) => {
      const waited = attempts[index + 1]!.at - (attempts[index]!.at + attempts[index]!.durationMs);
      assert.ok(waited >= expected - 2, `wait ${index} was ${waited} ms, expected at least ${expected}`);
    });
    await close();
    await merchant.close();
  });

  test('signs a delivery signed on sending as it goes out: off the event loop, the same bytes every attempt and after a restart, nothing stored', async () => {
    const merchant = await startMerchant((_request, received) => (received.length === 1 ? 500 : 200));
    const dataDir = join(tmp, 'signed-on-sending');
    const signed: Array<'now' | 'later'> = [];
    const signer = {
      now: (body: string) => {
        signed.push('now');
        return `sig(${body.length})`;
      },
      later: async (body: string) => {
        signed.push('later');
        return `sig(${body.length})`;
      },
    };
    const first = startQueue({ store: openStore({ dataDir }), signer });
    const body = json({ id: 'order-s', status: 'PAID' });
    const request = {
      key: 'order-s',
      url: `${merchant.url}/notify`,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body,
      acceptStatus: 'exactly-200' as const,
      signatureHeader: 'x-svc-signature',
    };
    const id = first.store.transaction(() => first.queue.enqueue(request));
    // Stored without the signature: the transaction did no RSA work.
    assert.equal(first.queue.get(id)!.headers['x-svc-signature'], undefined);
    assert.equal(first.queue.get(id)!.signatureHeader, 'x-svc-signature');
    assert.deepEqual(signed, []);
    await waitFor(() => first.queue.get(id)!.attempts.length === 1, 'the failed first attempt');
    // Signed off the event loop for sending; a view after it takes the signature made then.
    assert.deepEqual(signed, ['later']);
    assert.equal(first.queue.headersOf(first.queue.get(id)!)['x-svc-signature'], `sig(${body.length})`);
    assert.deepEqual(signed, ['later']);
    await first.close();

    // After a restart, the retry is signed again, to the same bytes.
    const second = startQueue({ store: openStore({ dataDir }), signer });
    await second.queue.idle();
    assert.equal(second.queue.get(id)!.state, 'delivered');
    assert.deepEqual(
      merchant.received.map((received) => received.headers['x-svc-signature']),
      [`sig(${body.length})`, `sig(${body.length})`],
    );
    assert.deepEqual(signed, ['later', 'later']);
    await second.close();
    await merchant.close();
  });

  test('fails the attempt of a delivery signed on sending when the queue has no signer', async () => {
    const merchant = await startMerchant(() => 200);
    const { queue, close } = startQueue({ maxFurtherAttempts: 0 });
    const id = queue.enqueue({
      key: 'order-u',
      url: `${merchant.url}/notify`,
      method: 'PUT',
      headers: {},
      body: '{}',
      signatureHeader: 'x-svc-signature',
    });
    await queue.idle();
    assert.equal(queue.get(id)!.state, 'failed');
    assert.match(queue.get(id)!.attempts[0]!.error!, /no signer/);
    assert.equal(merchant.received.length, 0);
    await close();
    await merchant.close();
  });

  test('takes any 2xx for v1 deliveries but only 200 for legacy notifications', async () => {
    const merchant = await startMerchant((request, received) =>
      received.filter((other) => other.path === request.path).length === 1 ? 204 : 200,
    );
    const { queue, close } = startQueue({ retryBaseMs: 5 });
    const legacy = queue.enqueue({
      key: 'a',
      url: `${merchant.url}/legacy`,
      method: 'PUT',
      headers: {},
      body: '{}',
      acceptStatus: 'exactly-200',
    });
    const v1 = queue.enqueue({
      key: 'b',
      url: `${merchant.url}/v1`,
      method: 'POST',
      headers: {},
      body: '{}',
    });
    await queue.idle();
    assert.deepEqual(
      queue.get(legacy)!.attempts.map((attempt) => attempt.status),
      [204, 200],
    );
    assert.deepEqual(
      queue.get(v1)!.attempts.map((attempt) => attempt.status),
      [204],
    );
    await close();
    await merchant.close();
  });

  test('delivers strictly in order per key, other keys meanwhile', async () => {
    let firstAccepted = false;
    const merchant = await startMerchant((request, received) => {
      if (request.path !== '/k/1') return 200;
      firstAccepted = received.filter((other) => other.path === '/k/1').length > 4;
      return firstAccepted ? 200 : 500;
    });
    const { queue, close } = startQueue({ retryBaseMs: 10 });
    const send = (key: string, path: string) =>
      queue.enqueue({ key, url: `${merchant.url}${path}`, method: 'POST', headers: {}, body: path });
    send('order-k', '/k/1');
    send('order-k', '/k/2');
    send('order-k', '/k/3');
    send('order-l', '/l/1');
    await queue.idle();

    const paths = merchant.received.map((request) => request.path);
    const firstSuccess = paths.lastIndexOf('/k/1');
    assert.equal(paths.filter((path) => path === '/k/1').length, 5);
    assert.ok(paths.indexOf('/k/2') > firstSuccess, `k/2 waited for k/1: ${paths.join(' ')}`);
    assert.ok(paths.indexOf('/k/3') > paths.indexOf('/k/2'));
    assert.ok(paths.indexOf('/l/1') < firstSuccess, `another key was not held up: ${paths.join(' ')}`);
    assert.deepEqual(
      queue
        .deliveries('order-k')
        .map((delivery) => [delivery.body, delivery.state, delivery.attempts.length]),
      [
        ['/k/1', 'delivered', 5],
        ['/k/2', 'delivered', 1],
        ['/k/3', 'delivered', 1],
      ],
    );
    await close();
    await merchant.close();
  });

  test('gives up after 8 further attempts, then lets the next delivery of the key go', async () => {
    const merchant = await startMerchant((request) => (request.path === '/down' ? 503 : 200));
    const gaveUp: Delivery[] = [];
    const { queue, close } = startQueue({ retryBaseMs: 2, onGaveUp: (delivery) => gaveUp.push(delivery) });
    const failing = queue.enqueue({
      key: 'k',
      url: `${merchant.url}/down`,
      method: 'PUT',
      headers: {},
      body: '1',
    });
    const next = queue.enqueue({
      key: 'k',
      url: `${merchant.url}/up`,
      method: 'PUT',
      headers: {},
      body: '2',
    });
    await queue.idle();
    const failed = queue.get(failing)!;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.failure, 'attempts_exhausted');
    assert.equal(failed.attempts.length, 9);
    assert.equal(merchant.received.filter((request) => request.path === '/down').length, 9);
    assert.deepEqual(
      gaveUp.map((delivery) => delivery.id),
      [failing],
    );
    assert.equal(queue.get(next)!.state, 'delivered');
    await close();
    await merchant.close();
  });

  test('fits all further attempts in the time window when the base is too large for it', async () => {
    const merchant = await startMerchant(() => 500);
    // 8 s: the queue plans 2% ahead of the deadline (160 ms here), slack enough for a loaded machine's timers.
    const { queue, close } = startQueue({ retryBaseMs: 60_000, maxAgeMs: 8_000 });
    const id = queue.enqueue({ key: 'k', url: merchant.url, method: 'PUT', headers: {}, body: '' });
    await queue.idle();
    const delivery = queue.get(id)!;
    assert.equal(delivery.attempts.length, 9);
    const last = delivery.attempts.at(-1)!;
    assert.ok(
      last.at <= delivery.createdAt + 8_000,
      `last attempt ${last.at - delivery.createdAt} ms after the event`,
    );
    assert.ok(last.at > delivery.createdAt + 5_000, 'the window is used');
    await close();
    await merchant.close();
  });

  test('attempts a delivery that comes due past its window, and gives it up only after a failed attempt', async () => {
    let shift = 0;
    const merchant = await startMerchant((request) => {
      shift = 60_000;
      return request.body === 'third' ? 503 : 200;
    });
    const { queue, close } = startQueue({ maxAgeMs: 30_000, now: () => Date.now() + shift });
    const slow = queue.enqueue({ key: 'k', url: merchant.url, method: 'PUT', headers: {}, body: 'first' });
    const late = queue.enqueue({ key: 'k', url: merchant.url, method: 'PUT', headers: {}, body: 'second' });
    const failing = queue.enqueue({ key: 'k', url: merchant.url, method: 'PUT', headers: {}, body: 'third' });
    await queue.idle();
    // The clock jumps 60 s while the first is answered: the others come due past their 30 s window.
    assert.equal(queue.get(slow)!.state, 'delivered');
    assert.equal(queue.get(late)!.state, 'delivered', 'a delivery never tried is not given up');
    const expired = queue.get(failing)!;
    assert.equal(expired.state, 'failed');
    assert.equal(expired.failure, 'expired');
    assert.equal(expired.attempts.length, 1, 'given up after its attempt, with no retry past the window');
    assert.deepEqual(
      merchant.received.map((request) => request.body),
      ['first', 'second', 'third'],
    );
    await close();
    await merchant.close();
  });

  test('records why there was no answer', async () => {
    const merchant = await startMerchant(() => 200);
    const deadUrl = merchant.url;
    await merchant.close();
    const { queue, close } = startQueue({
      retryBaseMs: 1,
      maxFurtherAttempts: 1,
      send: async () => {
        throw new Error('signing failed');
      },
    });
    const thrown = queue.enqueue({ key: 'a', url: deadUrl, method: 'PUT', headers: {}, body: '' });
    await queue.idle();
    assert.deepEqual(
      queue.get(thrown)!.attempts.map((attempt) => attempt.error),
      ['signing failed', 'signing failed'],
    );
    await close();

    const refused = startQueue({ retryBaseMs: 1, maxFurtherAttempts: 0 });
    const id = refused.queue.enqueue({ key: 'a', url: deadUrl, method: 'PUT', headers: {}, body: '' });
    await refused.queue.idle();
    const [attempt] = refused.queue.get(id)!.attempts;
    assert.equal(attempt!.status, undefined);
    assert.match(attempt!.error!, /ECONNREFUSED/);
    await refused.close();
  });

  test('sends a delivery enqueued in a transaction only if the transaction commits', async () => {
    const merchant = await startMerchant(() => 200);
    const { queue, store, close } = startQueue();
    const orders = store.collection<string>('orders');
    assert.throws(() =>
      store.transaction(() => {
        orders.put('o1', 'PAID');
        queue.enqueue({ key: 'o1', url: merchant.url, method: 'PUT', headers: {}, body: 'rolled back' });
        throw new Error('declined after all');
      }),
    );
    store.transaction(() => {
      orders.put('o2', 'PAID');
      queue.enqueue({ key: 'o2', url: merchant.url, method: 'PUT', headers: {}, body: 'committed' });
    });
    await queue.idle();
    assert.deepEqual(
      merchant.received.map((request) => request.body),
      ['committed'],
    );
    assert.deepEqual(queue.deliveries('o1'), []);
    assert.equal(store.collection('deliveries').size, 1);
    await close();
    await merchant.close();
  });

  test('resumes an undelivered delivery after a restart with the same data dir', async () => {
    let up = false;
    const merchant = await startMerchant(() => (up ? 200 : 500));
    const dataDir = join(tmp, 'restart');
    const first = startQueue({ store: openStore({ dataDir }), retryBaseMs: 50 });
    const id = first.queue.enqueue({
      key: 'order-9',
      url: merchant.url,
      method: 'PUT',
      headers: { 'x-a': '1' },
      body: 'payload',
    });
    await waitFor(() => first.queue.get(id)!.attempts.length === 1, 'the first attempt');
    await first.close();

    up = true;
    const second = startQueue({ store: openStore({ dataDir }), retryBaseMs: 50 });
    assert.equal(second.queue.pendingCount, 1);
    await second.queue.idle();
    const delivery = second.queue.get(id)!;
    assert.equal(delivery.state, 'delivered');
    assert.deepEqual(
      delivery.attempts.map((attempt) => attempt.status),
      [500, 200],
    );
    assert.equal(merchant.received.at(-1)!.body, 'payload');
    assert.equal(merchant.received.at(-1)!.headers['x-a'], '1');
    assert.deepEqual(
      second.queue.deliveries('order-9').map((entry) => entry.id),
      [id],
    );
    await second.close();
    await merchant.close();
  });

  test('delivers 1,000 deliveries over many keys exactly once, each key in order', async () => {
    const merchant = await startMerchant(() => 200);
    const { queue, close } = startQueue({ store: openStore({ dataDir: join(tmp, 'thousand') }) });
    for (let index = 0; index < 1000; index++) {
      queue.enqueue({
        key: `k${index % 97}`,
        url: merchant.url,
        method: 'POST',
        headers: {},
        body: json({ index }),
      });
    }
    await queue.idle();
    const indexes = merchant.received.map((request) => (JSON.parse(request.body) as { index: number }).index);
    assert.equal(indexes.length, 1000);
    assert.equal(new Set(indexes).size, 1000);
    const lastPerKey = new Map<number, number>();
    for (const index of indexes) {
      const key = index % 97;
      assert.ok(
        (lastPerKey.get(key) ?? -1) < index,
        `key ${key}: ${index} came after ${lastPerKey.get(key)}`,
      );
      lastPerKey.set(key, index);
    }
    await close();
    await merchant.close();
  });

  test('keeps at most maxFinished finished deliveries, dropping the oldest', async () => {
    const merchant = await startMerchant(() => 200);
    const { queue, store, close } = startQueue({ maxFinished: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) =>
      queue.enqueue({ key: 'k', url: merchant.url, method: 'POST', headers: {}, body: `${n}` }),
    );
    await queue.idle();
    assert.deepEqual(
      queue.deliveries('k').map((delivery) => delivery.id),
      ids.slice(2),
    );
    assert.equal(store.collection('deliveries').size, 3);
    await close();
    await merchant.close();
  });
  test('one merchant that does not answer holds a bounded share of the slots; the others are served meanwhile', async () => {
    // The slow merchant takes requests and answers none until released: a merchant stuck at the timeout.
    const held: Array<() => void> = [];
    let heldMax = 0;
    const slowServer = createServer((req, res) => {
      req.resume();
      held.push(() => res.writeHead(200).end());
      heldMax = Math.max(heldMax, held.length);
    });
    slowServer.listen(0, '127.0.0.1');
    await once(slowServer, 'listening');
    const closeSlow = closeOnce(() => {
      slowServer.closeAllConnections();
      return new Promise<void>((resolve) => slowServer.close(() => resolve()));
    });
    const slowUrl = `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}`;
    const fast = await startMerchant(() => 200);
    const { queue, close } = startQueue({ concurrency: 16, perOwnerConcurrency: 4 });
    for (let index = 0; index < 40; index++)
      queue.enqueue({ key: `slow-${index}`, url: `${slowUrl}/n`, method: 'PUT', headers: {}, body: '{}' });
    for (let index = 0; index < 40; index++)
      queue.enqueue({ key: `fast-${index}`, url: `${fast.url}/n`, method: 'PUT', headers: {}, body: '{}' });
    await waitFor(() => fast.received.length === 40, 'every delivery to the healthy merchant');
    assert.equal(heldMax, 4, 'the stuck merchant holds no more than its share of the slots');
    for (const release of held.splice(0)) release();
    await waitFor(() => {
      for (const release of held.splice(0)) release();
      return queue.pendingCount === 0;
    }, 'the stuck merchant to be served once it answers');
    await close();
    await fast.close();
    await closeSlow();
  });
  test("a merchant whose receivers on 5 origins never answer does not hold another merchant's deliveries", async () => {
    // Sockets that accept and never answer, on 5 origins: merchant A's receivers.
    const silent = await Promise.all(
      [1, 2, 3, 4, 5].map(async () => {
        const sockets = new Set<Socket>();
        const server = createNetServer((socket) => {
          sockets.add(socket);
          socket.on('error', () => {});
        });
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        closeOnce(() => {
          for (const socket of sockets) socket.destroy();
          return new Promise<void>((resolve) => server.close(() => resolve()));
        });
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      }),
    );
    const prompt = await startMerchant(() => 200);
    const store = openStore();
    // A timeout far longer than the test: B must not wait for any of A's attempts to end.
    const send = createHttpSend({ timeoutMs: 120_000 });
    const queue = createDeliveryQueue({ store, send, retryBaseMs: 20 });
    closeOnce(async () => {
      send.close();
      await queue.close();
      await store.close();
    });
    const merchantA = Array.from({ length: 60 }, (_, index) =>
      queue.enqueue({
        key: `a-${index}`,
        owner: 'merchant-a',
        url: `${silent[index % 5]}/hook`,
        method: 'POST',
        headers: {},
        body: '{}',
      }),
    );
    const merchantB = queue.enqueue({
      key: 'b-1',
      owner: 'merchant-b',
      url: `${prompt.url}/hook`,
      method: 'POST',
      headers: {},
      body: '{}',
    });
    await waitFor(() => queue.get(merchantB)?.state === 'delivered', "merchant B's delivery");
    assert.ok(
      merchantA.every((id) => queue.get(id)?.attempts.length === 0),
      "B's delivery came before any of A's attempts ended",
    );
  });
  test('cancel gives up the pending deliveries of matching keys, one in flight included, and spares the rest', async () => {
    let calls = 0;
    const merchant = await startMerchant(() => {
      calls++;
      return 503;
    });
    const { queue, close } = startQueue({ retryBaseMs: 30 });
    const send = (key: string) =>
      queue.enqueue({ key, url: `${merchant.url}/hook`, method: 'POST', headers: {}, body: key });
    const gone = [send('hook-a:order-1'), send('hook-a:order-1'), send('hook-a:order-2')];
    const kept = send('hook-b:order-1');
    await waitFor(() => calls >= 3, 'the first attempts');
    assert.equal(queue.cancel('hook-a:'), 3);
    await waitFor(
      () => gone.every((id) => queue.get(id)?.state === 'failed'),
      'the cancelled deliveries to end',
    );
    for (const id of gone) assert.equal(queue.get(id)?.failure, 'cancelled');
    assert.equal(queue.get(gone[1]!)?.attempts.length, 0, 'the second of a key never went');
    const before = merchant.received.filter((request) => request.body.startsWith('hook-a')).length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(merchant.received.filter((request) => request.body.startsWith('hook-a')).length, before);
    assert.equal(queue.get(kept)?.state, 'pending', 'another key keeps being retried');
    assert.ok(merchant.received.filter((request) => request.body === 'hook-b:order-1').length >= 2);
    await close();
    await merchant.close();
  });
});
