/**
 * Sandbox payments per second, counted end to end: from the first payment request to the last signed
 * notification received (and verified) by a merchant endpoint. The sandbox runs in a child process with a
 * data dir, as `npm start` runs it; orders are created beforehand so that only payments are timed.
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SandboxConfigFile } from '../src/sandbox/config.js';
import { signOrder, verifySignature } from '../src/server/index.js';

const WIDGET = '00000000-0000-4000-8000-0000000000be';

export async function benchSandboxPayments(
  count = 3000,
  concurrency = 64,
): Promise<{ paymentsPerSecond: number; count: number }> {
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
      if (verified === count) resolveAll();
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
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-bench-'));
  const child = fork(
    new URL('./sandbox-child.ts', import.meta.url).pathname,
    [JSON.stringify(config), dataDir],
    {
      execArgv: ['--import', 'tsx'],
    },
  );
  const started = await new Promise<{ url: string; certificatePem: string }>((resolve) =>
    child.once('message', resolve as never),
  );
  certificatePem = started.certificatePem;
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const sandboxUrl = new URL(started.url);
  const post = (path: string, body: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const text = JSON.stringify(body);
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
          res.on('end', () =>
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>),
          );
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  const pool = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < items.length) await work(items[next++]!);
      }),
    );
  };

  const ids: string[] = [];
  await pool(
    Array.from({ length: count }, (_, i) => i),
    async (i) => {
      const order = {
        widgetId: WIDGET,
        orderId: `B-${i}`,
        items: [{ amount: '9.99', label: 'Bench item', count: 2 }],
      };
      const created = await post('/widget-api/v1/orders', {
        order,
        signature: signOrder(order, privateKeyPem),
        certificateName: 'k',
      });
      ids.push(created['id'] as string);
    },
  );

  const start = performance.now();
  await pool(ids, async (id) => {
    const paid = await post(`/widget-api/v1/orders/${id}/payments`, {
      idempotencyKey: id,
      card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'Bench' },
    });
    if (paid['state'] !== 'PAID') throw new Error(`payment failed: ${JSON.stringify(paid)}`);
  });
  await allDelivered;
  const seconds = (performance.now() - start) / 1000;

  child.send('stop');
  await new Promise((resolve) => child.once('exit', resolve));
  agent.destroy();
  merchant.close();
  merchant.closeAllConnections();
  await rm(dataDir, { recursive: true, force: true });
  if (badSignatures > 0) throw new Error(`${badSignatures} notifications failed verification`);
  return { paymentsPerSecond: count / seconds, count };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchSandboxPayments();
  console.log(
    `sandbox payments with verified notifications: ${result.paymentsPerSecond.toFixed(0)}/s (${result.count} payments)`,
  );
}
