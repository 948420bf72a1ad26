/**
 * Deliveries and the sandbox clock, through the sandbox's HTTP interface:
 * - the webhooks delivered when the clock is stepped a day at a time for 30 days with 5 daily subscriptions,
 *   to a receiver that answers 200 at once (every one of them is the aim);
 * - another merchant's webhook latency (from sending its create request to the webhook's arrival)
 *   while one merchant's receivers on 5 origins accept connections and never answer.
 *
 * Run alone: `node --import tsx bench/clock-deliveries.ts`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseConfig } from '../src/sandbox/config.js';
import { startSandbox } from '../src/sandbox/sandbox.js';
import { createV1Client } from '../src/server/index.js';
import { advanceClock, cardForm, OTHER, postForm, V1, v1ConfigFile } from '../test/sandbox/v1/support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ClockDeliveriesBench {
  billings: number;
  billingsDelivered: number;
  webhooksReceived: number;
  silentDeliveries: number;
  latenciesMs: number[];
}

export async function benchClockDeliveries(): Promise<ClockDeliveriesBench> {
  const received: Array<{ at: number; id: string; event_type: string }> = [];
  const receiver = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/webhook') received.push({ at: performance.now(), ...JSON.parse(body) });
      res.writeHead(200).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await new Promise((resolveListen) => receiver.once('listening', resolveListen));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const sockets = new Set<Socket>();
  const silent = await Promise.all(
    [1, 2, 3, 4, 5].map(async () => {
      const server = createNetServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      server.listen(0, '127.0.0.1');
      await new Promise((resolveListen) => server.once('listening', resolveListen));
      return server;
    }),
  );
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-clock-'));
  const sandbox = await startSandbox({ port: 0, config: parseConfig(v1ConfigFile(receiverUrl)), dataDir });
  const prompt = createV1Client({ baseUrl: sandbox.url, secretKey: V1.secretKey });
  const stuck = createV1Client({ baseUrl: sandbox.url, secretKey: OTHER.secretKey });
  const step = (ms: number) => advanceClock(sandbox, ms);
  try {
    await prompt.webhooks.create({ title: 'all', callback: `${receiverUrl}/webhook`, all_events: true });
    const plan = await prompt.billingTemplates.create({
      brand_id: V1.brandId,
      title: 'daily',
      is_subscription: true,
      subscription_period: { unit: 'day', count: 1 },
      purchase: { products: [{ name: 'daily', price: 100, quantity: 1 }] },
    });
    for (let index = 0; index < 5; index++) {
      const customer = await prompt.clients.create({ email: `daily-${index}@example.com` });
      const joined = await prompt.billingTemplates.addSubscriber(plan.id, { client_id: customer.id });
      await postForm(sandbox, `/checkout/${joined.purchase!.id}/pay`, cardForm('4111111111111111'));
    }
    await step(0);
    const paidBefore = new Set(
      received.filter((event) => event.event_type === 'purchase.paid').map((e) => e.id),
    );
    for (let day = 0; day < 30; day++) await step(DAY_MS);
    const billed = received.filter(
      (event) => event.event_type === 'purchase.paid' && !paidBefore.has(event.id),
    );
    const billingsDelivered = new Set(billed.map((event) => event.id)).size;
    const webhooksReceived = received.length;
    await prompt.billingTemplates.delete(plan.id);

    // One merchant's receivers on 5 origins never answer; the other's answers at once.
    for (const server of silent) {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await stuck.webhooks.create({ title: 'silent', callback: url, all_events: true });
    }
    const purchase = {
      brand_id: OTHER.brandId,
      client: { email: 'a@example.com' },
      purchase: { products: [{ name: 'x', price: 100 }] },
    };
    for (let index = 0; index < 20; index++) await stuck.purchases.create(purchase);
    const latenciesMs: number[] = [];
    for (let index = 0; index < 5; index++) {
      const sentAt = performance.now();
      const created = await prompt.purchases.create({ ...purchase, brand_id: V1.brandId });
      for (;;) {
        const arrived = received.find((event) => event.id === created.id);
        if (arrived) {
          latenciesMs.push(arrived.at - sentAt);
          break;
        }
        await new Promise((resolveWait) => setTimeout(resolveWait, 1));
      }
    }
    return { billings: 150, billingsDelivered, webhooksReceived, silentDeliveries: 20 * 5, latenciesMs };
  } finally {
    for (const socket of sockets) socket.destroy();
    for (const server of silent) server.close();
    receiver.closeAllConnections();
    receiver.close();
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function describeClockDeliveries(bench: ClockDeliveriesBench): string {
  const sorted = [...bench.latenciesMs].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  const max = sorted.at(-1) ?? 0;
  return [
    `webhooks delivered, clock stepped a day at a time for 30 days, 5 daily subscriptions: ${bench.billingsDelivered} of ${bench.billings} billings' purchase.paid (${bench.webhooksReceived} webhooks in all, each step answered after its deliveries)`,
    `another merchant's webhook latency while one merchant's ${bench.silentDeliveries} webhooks to 5 origins never answer: ${median.toFixed(1)} ms median, ${max.toFixed(1)} ms max of ${sorted.length} (from sending the Purchase)`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(describeClockDeliveries(await benchClockDeliveries()));
}
