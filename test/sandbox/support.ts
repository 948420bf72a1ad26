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
import { after, before } from 'node:test';
import type { OrderInput } from '../../src/core/index.js';
import type { PurchaseNotification } from '../../src/core/legacy-callbacks.js';
import { parseConfig, type SandboxConfigFile } from '../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { createSelfSignedCertificate, signOrder, verifySignature } from '../../src/server/index.js';

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

/** `input` signed with the merchant's main key and taken by the widget API, as the frame has it taken; its gateway id. */
export async function takenOrder(sandbox: Sandbox, input: OrderInput): Promise<string> {
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order: input,
    signature: signOrder(input, merchantKeys.main.privateKeyPem),
    pageOrigin: PAGE_ORIGIN,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body['id'];
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

/** The test card `number` as the payment frame sends it. */
export const legacyCard = (number: string) => ({
  number,
  expiry: '12/34',
  cvc: '123',
  holder: 'Test Person',
});

/**
 * What {@link withLegacySandbox} started for a suite of the legacy widget API, and the requests its tests
 * share; read `merchant` and `sandbox` in tests and hooks, after its `before`.
 */
export interface LegacySandbox {
  readonly merchant: FakeMerchant;
  readonly sandbox: Sandbox;
  /** An idempotency key not used before in the suite. */
  key(): string;
  /** An order of two items for the checkout widget, under a merchant order id not used before, with `overrides`. */
  order(overrides?: Partial<OrderInput>): OrderInput;
  /** Sends `input` to the widget API signed with `privateKeyPem`, naming `certificateName`. */
  create(input: OrderInput, certificateName?: string, privateKeyPem?: string): ReturnType<typeof call>;
  /** The first notification sent for a gateway order, its signature checked (waiting up to 5 s for it). */
  notificationFor(id: string): Promise<PurchaseNotification>;
  /** One payment request for a gateway order, as the frame sends it. */
  pay(
    id: string,
    idempotencyKey: string,
    number: string,
    more?: Record<string, unknown>,
  ): ReturnType<typeof call>;
  /** The notifications sent for a gateway order, signatures checked, in the order they arrived, once `count` are there. */
  notificationsOf(id: string, count: number): Promise<PurchaseNotification[]>;
  /** Waits a moment for anything sent late, then the statuses of every notification sent for the order. */
  allStatusesOf(id: string, atLeast: number): Promise<string[]>;
}

/** A fake merchant and a sandbox of the test config for the suite it is called in (its `before` and `after`). */
export function withLegacySandbox(): LegacySandbox {
  let merchant: FakeMerchant | undefined;
  let sandbox: Sandbox | undefined;
  const running = () => {
    if (merchant === undefined || sandbox === undefined) {
      throw new Error('withLegacySandbox: read in a test or hook, after its before');
    }
    return { merchant, sandbox };
  };
  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startTestSandbox(merchant);
  });
  after(async () => {
    await sandbox?.close();
    await merchant?.close();
  });

  let counter = 0;
  async function notificationsOf(id: string, count: number): Promise<PurchaseNotification[]> {
    const { merchant, sandbox } = running();
    const deadline = Date.now() + 5000;
    for (;;) {
      const sent = merchant
        .requests('/notify')
        .filter((r) => (JSON.parse(r.body) as PurchaseNotification).id === id);
      if (sent.length >= count) {
        for (const request of sent) {
          assert.ok(
            verifySignature(
              request.body,
              request.headers['x-svc-signature'] as string,
              sandbox.serviceCertificatePem,
            ),
            'notification signature',
          );
        }
        return sent.map((request) => JSON.parse(request.body) as PurchaseNotification);
      }
      if (Date.now() > deadline)
        throw new Error(`expected ${count} notifications for ${id}, got ${sent.length}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    get merchant() {
      return running().merchant;
    },
    get sandbox() {
      return running().sandbox;
    },
    key: () => `k-${++counter}`,
    order(overrides = {}) {
      return {
        widgetId: WIDGETS.checkout,
        language: 'en',
        orderId: `A-${++counter}`,
        items: [{ amount: '12.50', currency: 'EUR', label: 'Tea', count: 2, taxRate: 21 }],
        ...overrides,
      };
    },
    async create(input, certificateName = 'main', privateKeyPem = merchantKeys.main.privateKeyPem) {
      // As a page with certificate-name sends it: the name is part of the order, and signed.
      const named = { ...input, certificateName };
      return call(running().sandbox, 'POST', '/widget-api/v1/orders', {
        order: named,
        signature: signOrder(named, privateKeyPem),
        pageOrigin: PAGE_ORIGIN,
      });
    },
    async notificationFor(id) {
      const { merchant, sandbox } = running();
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = merchant
          .requests('/notify')
          .find((r) => (JSON.parse(r.body) as PurchaseNotification).id === id);
        if (found) {
          assert.equal(found.method, 'PUT');
          const signature = found.headers['x-svc-signature'];
          assert.equal(typeof signature, 'string');
          assert.ok(
            verifySignature(found.body, signature as string, sandbox.serviceCertificatePem),
            'notification signature',
          );
          return JSON.parse(found.body) as PurchaseNotification;
        }
        if (Date.now() > deadline) throw new Error(`no notification for ${id}`);
        await merchant.waitFor('/notify', merchant.requests('/notify').length + 1, 5000).catch(() => {});
      }
    },
    pay(id, idempotencyKey, number, more = {}) {
      return call(running().sandbox, 'POST', `/widget-api/v1/orders/${id}/payments`, {
        idempotencyKey,
        card: legacyCard(number),
        ...more,
      });
    },
    notificationsOf,
    async allStatusesOf(id, atLeast) {
      await notificationsOf(id, atLeast);
      await new Promise((resolve) => setTimeout(resolve, 150));
      return (await notificationsOf(id, atLeast)).map((notification) => notification.status);
    },
  };
}
