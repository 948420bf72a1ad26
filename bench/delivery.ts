/**
 * Throughput of the sandbox's delivery queue: deliveries per second to a merchant endpoint on 127.0.0.1 that
 * answers 200 at once, running in its own process as a merchant's server would. Measured with the queue's
 * node:http sender and with `fetch`, with the store in memory and on disk (journal written per change).
 *
 * Then the same beside a merchant that takes 2 s to answer each delivery: how many deliveries a second the
 * healthy merchant still gets while the slow one's are in flight.
 *
 * Run alone: `node --import tsx bench/delivery.ts`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createDeliveryQueue,
  createHttpSend,
  type Delivery,
  type SendResult,
} from '../src/sandbox/delivery-queue.js';
import { openStore } from '../src/sandbox/store.js';

/** One measured run. */
export interface DeliveryBenchResult {
  label: string;
  deliveries: number;
  keys: number;
  ms: number;
  perSecond: number;
}

/** A merchant's server answering 200 after `DELAY_MS` (0: at once). */
const MERCHANT_SERVER = `
const http = require('node:http');
const delay = Number(process.env.DELAY_MS || 0);
const answer = (res) => res.writeHead(200).end();
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => (delay ? setTimeout(answer, delay, res) : answer(res)));
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startMerchantProcess(delayMs = 0): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', MERCHANT_SERVER], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DELAY_MS: String(delayMs) },
  });
  let text = '';
  for await (const chunk of child.stdout!) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return { url: `http://127.0.0.1:${text.trim()}/notify`, child };
}

function fetchSend(delivery: Delivery): Promise<SendResult> {
  return fetch(delivery.url, { method: delivery.method, headers: delivery.headers, body: delivery.body })
    .then(async (response) => {
      await response.arrayBuffer();
      return { status: response.status };
    })
    .catch((error: unknown) => ({ error: (error as Error).message }));
}

async function run(
  label: string,
  url: string,
  options: {
    deliveries: number;
    keys: number;
    onDisk: boolean;
    sender: 'node:http' | 'fetch';
    /** A slow merchant's URL, sent every `slowEvery`-th delivery; only the others are counted. */
    slowUrl?: string;
    slowEvery?: number;
  },
): Promise<DeliveryBenchResult> {
  const dataDir = options.onDisk ? mkdtempSync(join(tmpdir(), 'svc-bench-delivery-')) : undefined;
  const store = openStore(dataDir ? { dataDir } : {});
  const httpSend = createHttpSend();
  const queue = createDeliveryQueue({
    store,
    send: options.sender === 'fetch' ? fetchSend : httpSend,
    retryBaseMs: 1_000,
    maxFinished: options.deliveries,
    onDelivered: (delivery) => {
      if (delivery.url === url && ++healthyDone === healthy) allHealthyDone();
    },
  });
  // A notification body of the size the sandbox sends (about 1 kB).
  const body = JSON.stringify({
    id: '00000000-0000-4000-8000-000000000000',
    status: 'PAID',
    pad: 'x'.repeat(900),
  });
  let healthy = 0;
  let healthyDone = 0;
  let allHealthyDone: () => void = () => {};
  const healthyDelivered = new Promise<void>((resolve) => {
    allHealthyDone = resolve;
  });
  const started = performance.now();
  for (let index = 0; index < options.deliveries; index++) {
    const slow = options.slowUrl !== undefined && index % (options.slowEvery ?? 10) === 0;
    if (!slow) healthy++;
    queue.enqueue({
      key: `${slow ? 'slow' : 'order'}-${index % options.keys}`,
      url: slow ? options.slowUrl! : url,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-svc-signature': 'c2lnbmF0dXJl' },
      body,
      acceptStatus: 'exactly-200',
    });
  }
  const ms = await (async () => {
    if (options.slowUrl === undefined) {
      await queue.idle();
      return performance.now() - started;
    }
    await healthyDelivered;
    const healthyMs = performance.now() - started;
    await queue.idle();
    return healthyMs;
  })();
  await queue.close();
  await store.close();
  httpSend.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  return {
    label,
    deliveries: healthy,
    keys: options.keys,
    ms,
    perSecond: (healthy / ms) * 1000,
  };
}

/** Measures and prints deliveries per second; returns the figures. */
export async function benchDelivery(
  options: { deliveries?: number; keys?: number } = {},
): Promise<DeliveryBenchResult[]> {
  const deliveries = options.deliveries ?? 5_000;
  const keys = options.keys ?? 500;
  const merchant = await startMerchantProcess();
  const results: DeliveryBenchResult[] = [];
  try {
    // One short warm-up so that the figures below do not include JIT compilation and connection setup.
    await run('warm-up', merchant.url, { deliveries: 500, keys: 50, onDisk: false, sender: 'node:http' });
    const runs = [
      { label: 'node:http sender, store in memory', onDisk: false, sender: 'node:http' },
      { label: 'node:http sender, store on disk', onDisk: true, sender: 'node:http' },
      { label: 'fetch sender, store on disk', onDisk: true, sender: 'fetch' },
    ] as const;
    for (const { label, onDisk, sender } of runs) {
      const result = await run(label, merchant.url, { deliveries, keys, onDisk, sender });
      results.push(result);
      console.log(
        `delivery queue: ${result.deliveries} deliveries over ${result.keys} keys in ${result.ms.toFixed(0)} ms = ` +
          `${result.perSecond.toFixed(0)} deliveries/s (${label})`,
      );
    }
    const slowMerchant = await startMerchantProcess(2_000);
    try {
      const label = 'beside a merchant answering in 2 s (every 10th delivery), healthy deliveries only';
      const result = await run(label, merchant.url, {
        deliveries,
        keys,
        onDisk: true,
        sender: 'node:http',
        slowUrl: slowMerchant.url,
        slowEvery: 10,
      });
      results.push(result);
      console.log(
        `delivery queue: ${result.deliveries} deliveries in ${result.ms.toFixed(0)} ms = ` +
          `${result.perSecond.toFixed(0)} deliveries/s (${label})`,
      );
    } finally {
      slowMerchant.child.kill();
    }
  } finally {
    merchant.child.kill();
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchDelivery();
}
