/**
 * Paid orders per second through the sandbox's CLI, as merchants run it (`svc-sandbox --config … --data-dir …`,
 * state journalled on disk), with 50 customers at once. Each customer places a signed order through the widget
 * API and pays it; an order counts once its signed notification has reached a merchant endpoint and verified.
 * Also the widget API's latency per request (order intake and payment), median and 99th percentile.
 *
 * Run alone: `node --import tsx bench/sandbox-payments.ts`. The CLI runs from the sources through tsx: the
 * loader costs only at start (the built `dist/sandbox/cli.js`, which merchants run, measured the same in turn
 * with it). `BENCH_CLI=dist/sandbox/cli.js` runs a built CLI instead (after `npm run build`), and
 * `BENCH_CLI_FLAGS` passes Node flags to it, such as `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SandboxConfigFile } from '../src/sandbox/config.js';
import { signOrder, verifySignature } from '../src/server/index.js';

const WIDGET = '00000000-0000-4000-8000-0000000000be';
const CLI = resolve(
  process.env.BENCH_CLI ?? fileURLToPath(new URL('../src/sandbox/cli.ts', import.meta.url)),
);
const CLI_NODE_FLAGS = [
  ...(CLI.endsWith('.ts') ? ['--import', 'tsx'] : []),
  ...(process.env.BENCH_CLI_FLAGS?.split(' ').filter(Boolean) ?? []),
];

/** What one run measured. */
export interface SandboxPaymentsResult {
  orders: number;
  customers: number;
  paidOrdersPerSecond: number;
  /** Widget API request latency in milliseconds (intake and payment requests alike). */
  latencyP50Ms: number;
  latencyP99Ms: number;
  /**
   * CPU time per paid order during the load, in milliseconds (user + system): the sandbox's process (all its
   * threads), its main thread alone (the event loop, which bounds the rate; the thread pool's RSA work and
   * fsyncs are not on it), and this process's (the customers and the merchant, on the same cores). Undefined
   * where /proc is not there. Less at the mercy of a noisy machine than the rate.
   */
  cpuMsPerOrder: { sandbox: number; sandboxMainThread: number; bench: number } | undefined;
}

/**
 * User + system CPU time so far of a process and of its main thread, in milliseconds, from /proc (Linux);
 * undefined elsewhere.
 */
async function cpuTimeMs(
  pid: number | undefined,
): Promise<{ process: number; mainThread: number } | undefined> {
  const read = async (path: string) => {
    const stat = await readFile(path, 'utf8');
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th of them.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  };
  try {
    return {
      process: await read(`/proc/${pid}/stat`),
      mainThread: await read(`/proc/${pid}/task/${pid}/stat`),
    };
  } catch {
    return undefined;
  }
}
/** The kernel's USER_HZ, 100 on every Linux that Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** Starts the CLI and resolves its URL once it says it listens; its further output is read and dropped. */
async function startCli(configFile: string, dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [...CLI_NODE_FLAGS, CLI, '--port', '0', '--config', configFile, '--data-dir', dataDir],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  // Reading on after the URL: a pipe closed early would end the CLI with EPIPE at its next line.
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8');
    const read = (chunk: string) => {
      text += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (found) {
        // From here on only drained: the log lines of thousands of requests are no work of the load's.
        child.stdout!.off('data', read).on('data', () => {});
        resolve(found);
      }
    };
    child.stdout!.on('data', read);
    child.once('exit', () => reject(new Error(`svc-sandbox exited before it listened: ${text}`)));
  });
  return { url, child };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export async function benchSandboxPayments(orders = 3000, customers = 50): Promise<SandboxPaymentsResult> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  let certificatePem = '';
  let verified = 0;
  let badSignatures = 0;
  let resolveAll: () => void = () => {};
  const allDelivered = new Promise<void>((resolve) => {
    resolveAll = resolve;
  });
  const merchant = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (verifySignature(body, String(req.headers['x-svc-signature']), certificatePem)) verified++;
      else badSignatures++;
      res.writeHead(200).end();
      if (verified === orders) resolveAll();
    });
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  const merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
  const config: SandboxConfigFile = {
    merchants: [
      {
        id: 'bench',
        name: 'Bench',
        apiKey: 'bench',
        allowedOrigins: ['https://shop.example'],
        callbacks: { notificationUrl: `${merchantUrl}/notify`, termsUrl: `${merchantUrl}/terms` },
        certificates: [{ name: 'k', pem: publicKey.export({ type: 'spki', format: 'pem' }).toString() }],
        widgets: [{ id: WIDGET, type: 'CHECKOUT', validation: 'SIGNATURE' }],
      },
    ],
    notifications: { retryBaseMs: 50 },
  };
  const dir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const configFile = join(dir, 'sandbox.json');
  await writeFile(configFile, JSON.stringify(config));
  const sandbox = await startCli(configFile, join(dir, 'data'));
  certificatePem = await (await fetch(`${sandbox.url}/sandbox/service-certificate.pem`)).text();

  const agent = new Agent({ keepAlive: true, maxSockets: customers });
  const sandboxUrl = new URL(sandbox.url);
  const latencies: number[] = [];
  const post = (path: string, body: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const text = JSON.stringify(body);
      const sent = performance.now();
      const req = request(
        {
          agent,
          host: sandboxUrl.hostname,
          port: sandboxUrl.port,
          path,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            latencies.push(performance.now() - sent);
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
          });
        },
      );
      req.on('error', reject);
      req.end(text);
    });

  // Signed beforehand: the merchant's back end signs, not the gateway, so signing is not the gateway's time.
  const signed = Array.from({ length: orders }, (_, i) => {
    const order = {
      widgetId: WIDGET,
      orderId: `B-${i}`,
      items: [{ amount: '9.99', label: 'Bench item', count: 2 }],
    };
    return {
      order,
      signature: signOrder(order, privateKeyPem),
      pageOrigin: 'https://shop.example',
    };
  });
  let next = 0;
  const cpuBefore = await cpuTimeMs(sandbox.child.pid);
  const benchCpuBefore = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: customers }, async () => {
      while (next < signed.length) {
        const created = await post('/widget-api/v1/orders', signed[next++]);
        const id = created['id'] as string;
        const paid = await post(`/widget-api/v1/orders/${id}/payments`, {
          idempotencyKey: id,
          card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Bench' },
        });
        if (paid['state'] !== 'PAID') throw new Error(`payment failed: ${JSON.stringify(paid)}`);
      }
    }),
  );
  await allDelivered;
  const seconds = (performance.now() - start) / 1000;
  const cpuAfter = await cpuTimeMs(sandbox.child.pid);
  const benchCpu = process.cpuUsage(benchCpuBefore);

  sandbox.child.kill('SIGTERM');
  await new Promise((resolve) => sandbox.child.once('exit', resolve));
  agent.destroy();
  merchant.close();
  merchant.closeAllConnections();
  await rm(dir, { recursive: true, force: true });
  if (badSignatures > 0) throw new Error(`${badSignatures} notifications failed verification`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    orders,
    customers,
    paidOrdersPerSecond: orders / seconds,
    latencyP50Ms: percentile(sorted, 50),
    latencyP99Ms: percentile(sorted, 99),
    cpuMsPerOrder:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : {
            sandbox: (cpuAfter.process - cpuBefore.process) / orders,
            sandboxMainThread: (cpuAfter.mainThread - cpuBefore.mainThread) / orders,
            bench: (benchCpu.user + benchCpu.system) / 1000 / orders,
          },
  };
}

/** The figure as `npm run bench` prints it. */
export function describeSandboxPayments(result: SandboxPaymentsResult): string {
  return (
    `sandbox through the CLI with --data-dir, ${result.customers} customers at once: ${result.paidOrdersPerSecond.toFixed(0)} paid orders/s ` +
    `(${result.orders} orders placed and paid, each notification delivered and verified); widget API latency ` +
    `p50 ${result.latencyP50Ms.toFixed(1)} ms, p99 ${result.latencyP99Ms.toFixed(1)} ms` +
    (result.cpuMsPerOrder === undefined
      ? ''
      : `; CPU time per paid order: the sandbox ${result.cpuMsPerOrder.sandbox.toFixed(2)} ms, ` +
        `${result.cpuMsPerOrder.sandboxMainThread.toFixed(2)} ms of it on its main thread; the customers and ` +
        `the merchant ${result.cpuMsPerOrder.bench.toFixed(2)} ms`)
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(describeSandboxPayments(await benchSandboxPayments()));
}
