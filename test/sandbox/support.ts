/**
 * Test fixtures for the sandbox: a merchant back end on a real loopback HTTP server that records what the
 * gateway sends, and a sandbox configured to call it.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createSign, generateKeyPairSync } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type SandboxConfigFile } from '../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { createSelfSignedCertificate, signOrder } from '../../src/server/index.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Responder = (request: ReceivedRequest) => {
  status: number;
  body?: string;
  headers?: Record<string, string>;
};

/** A merchant back end: records every request and answers per path (200 `{}` by default). */
export class FakeMerchant {
  readonly received: ReceivedRequest[] = [];
  private readonly responders = new Map<string, Responder>();
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakeMerchant> {
    let merchant: FakeMerchant | undefined;
    const server = createServer((req, res) => merchant!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    merchant = new FakeMerchant(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return merchant;
  }

  respond(path: string, responder: Responder): void {
    this.responders.set(path, responder);
  }

  requests(path: string): ReceivedRequest[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Resolves once `count` requests to `path` have arrived (or rejects after `ms`). */
  async waitFor(path: string, count: number, ms = 5000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + ms;
    while (this.requests(path).length < count) {
      if (Date.now() > deadline)
        throw new Error(`expected ${count} requests to ${path}, got ${this.requests(path).length}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return this.requests(path);
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      this.received.push(request);
      const answer = this.responders.get(request.path)?.(request) ?? { status: 200, body: '{}' };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body ?? '');
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

export const WIDGETS = {
  instant: '00000000-0000-4000-8000-000000000001',
  checkout: '00000000-0000-4000-8000-000000000002',
  full: '00000000-0000-4000-8000-000000000003',
  callback: '00000000-0000-4000-8000-000000000004',
} as const;

export const PAGE_ORIGIN = 'https://shop.example';
export const API_KEY = 'test-api-key';

function rsaPair() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

/** Merchant keys made once per test file: `main` (SPKI), `cert` (X.509), `old` (revoked). */
export const merchantKeys = (() => {
  const main = rsaPair();
  const cert = rsaPair();
  const old = rsaPair();
  const certificatePem = createSelfSignedCertificate({ ...cert, subject: 'cert' });
  return { main, cert: { ...cert, certificatePem }, old };
})();

export function testConfigFile(merchantUrl: string): SandboxConfigFile {
  return {
    merchants: [
      {
        id: 'm1',
        name: 'Test Merchant',
        apiKey: API_KEY,
        defaults: { currency: 'EUR', taxRate: '21', language: 'lv' },
        allowedOrigins: [PAGE_ORIGIN],
        callbacks: {
          notificationUrl: `${merchantUrl}/notify`,
          termsUrl: `${merchantUrl}/terms`,
          shippingCostUrl: `${merchantUrl}/shipping-cost`,
          orderVerificationUrl: `${merchantUrl}/verify-order`,
          connectionTestUrl: `${merchantUrl}/connection`,
        },
        certificates: [
          { name: 'main', pem: merchantKeys.main.publicKeyPem },
          { name: 'cert', pem: merchantKeys.cert.certificatePem },
          { name: 'old', pem: merchantKeys.old.publicKeyPem, revoked: true },
        ],
        widgets: [
          {
            id: WIDGETS.instant,
            type: 'INSTANT',
            order: { items: [{ amount: '15.00', label: 'Fixed T-shirt' }] },
          },
          { id: WIDGETS.checkout, type: 'CHECKOUT', validation: 'SIGNATURE' },
          {
            id: WIDGETS.full,
            type: 'CHECKOUT',
            validation: 'SIGNATURE',
            collectCustomerData: true,
            pickupPoints: [
              { externalId: 'p1', name: 'Locker 1', serviceHours: '24/7' },
              {
                externalId: 'p2',
                name: 'Old Town shop',
                address: { address: 'Audeju iela 16', city: 'Riga', postalCode: 'LV-1050', country: 'LV' },
              },
            ],
          },
          { id: WIDGETS.callback, type: 'CHECKOUT', validation: 'CALLBACK' },
        ],
      },
    ],
    notifications: { retryBaseMs: 20 },
  };
}

/**
 * Polls `check` every 10 ms until it holds, or fails after `ms` naming `what` (a function, for a message that
 * describes the state at that moment).
 */
export async function until(check: () => boolean, what: string | (() => string), ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline)
      assert.fail(`waited ${ms} ms in vain for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'svc-sandbox-test-'));
}

export async function startTestSandbox(merchant: FakeMerchant, dataDir?: string): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    config: parseConfig(testConfigFile(merchant.url)),
    dataDir: dataDir ?? (await tempDir()),
  });
}

/** A JSON request to the sandbox, as the frame would make it. */
export async function call(sandbox: Sandbox, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sandbox.url}${path}`, {
    method,
    ...(body !== undefined && {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely and assert on them
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

/**
 * A signed order of one 20.00 item under the merchant order id `orderId`, taken and paid with the approving
 * Visa through the widget API; its gateway id.
 */
export async function paidOrder(sandbox: Sandbox, orderId: string): Promise<string> {
  const input = { widgetId: WIDGETS.checkout, orderId, items: [{ amount: '20.00', label: 'Lamp' }] };
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order: input,
    signature: signOrder(input, merchantKeys.main.privateKeyPem),
  });
  const id: string = created.body['id'];
  const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
    idempotencyKey: `paid-${orderId}`,
    card: { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' },
  });
  if (paid.body['state'] !== 'PAID')
    throw new Error(`order ${orderId} was not paid: ${JSON.stringify(paid.body)}`);
  return id;
}

/** How {@link handSignedV2Request} signs. */
export interface HandSignedV2Options {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** The `Date` header; now by default. */
  date?: string;
  /** What the `Digest` is computed over, when not the body (to tamper with it). */
  digestOf?: string;
  /** Headers of ours to sign and send, such as `x-svc-request-id`. */
  signed?: Record<string, string>;
  /** Headers to send without signing them. */
  unsigned?: Record<string, string>;
  /** Changes the Base64 signature before it is sent (another spelling of it, say). */
  respell?: (signature: string) => string;
}

/**
 * A merchant API v2 request of the test merchant `m1`, signed by hand with node:crypto under its `main`
 * certificate (independently of the toolkit's signer): a function that sends the same bytes each call.
 */
export function handSignedV2Request(sandbox: Sandbox, options: HandSignedV2Options): () => Promise<Response> {
  const { method, path, body = '', signed = {} } = options;
  const date = options.date ?? new Date().toUTCString();
  const digest = `SHA-256=${createHash('sha256')
    .update(options.digestOf ?? body)
    .digest('base64')}`;
  const covered: Array<[string, string]> = [
    ['(request-target)', `${method.toLowerCase()} ${path}`],
    ['date', date],
    ...(body
      ? ([
          ['digest', digest],
          ['content-type', 'application/json'],
        ] as Array<[string, string]>)
      : []),
    ...Object.entries(signed),
  ];
  const signingString = covered.map(([name, value]) => `${name}: ${value}`).join('\n');
  const signature = createSign('RSA-SHA256')
    .update(signingString)
    .sign(merchantKeys.main.privateKeyPem, 'base64');
  const names = covered.map(([name]) => name).join(' ');
  const headers: Record<string, string> = {
    date,
    'x-svc-api-key': API_KEY,
    'x-svc-key-id': 'main',
    ...(body && { digest, 'content-type': 'application/json' }),
    ...signed,
    ...options.unsigned,
    authorization: `Signature keyId="main",algorithm="rsa-sha256",headers="${names}",signature="${(options.respell ?? String)(signature)}"`,
  };
  return () => fetch(`${sandbox.url}${path}`, { method, headers, ...(body && { body }) });
}

/**
 * `svc-sandbox` as merchants run it, with a config file and a data dir; resolves once it listens, with its
 * URL and port. It reads the CLI's output to the end, not only to the line with the URL: a pipe closed early
 * would have the CLI meet EPIPE. Stop it with `cli.kill(...)` and `once(cli, 'exit')`.
 */
export async function startCli(
  configPath: string,
  dataDir: string,
): Promise<{ cli: ChildProcess; url: string; port: number }> {
  const cli = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sandbox/cli.ts', '--port', '0', '--config', configPath, '--data-dir', dataDir],
    { cwd: join(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let text = '';
  cli.stdout!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    cli.stdout!.on('data', (chunk: string) => {
      text += chunk;
      const found = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      if (found) resolve(found);
    });
    cli.on('exit', () => reject(new Error(`the CLI did not start: ${text}`)));
  });
  return { cli, url, port: Number(new URL(url).port) };
}
