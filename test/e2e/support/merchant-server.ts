/**
 * The demo merchant's back end on a loopback server, with a real sandbox whose demo merchant calls it back:
 * the pair the merchant app's tests run against, without a browser or Vite.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMerchantApp, type MerchantApp } from '../../../demo/merchant/merchant-app.js';
import { DEMO_CERTIFICATE_NAME, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';

export interface MerchantWithSandbox {
  sandbox: Sandbox;
  merchant: MerchantApp;
  /** The merchant server's origin, such as `http://127.0.0.1:41234`: the demo merchant's shop origin. */
  merchantUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the merchant server, then a sandbox on a temp data dir whose demo shop is that server. */
export async function startMerchantWithSandbox(): Promise<MerchantWithSandbox> {
  // The sandbox needs the shop's origin and the merchant needs the sandbox's keys: listen first, and let
  // requests wait for the app, which exists before the sandbox can call anything.
  let merchant: MerchantApp | undefined;
  const server = createServer((req, res) => {
    void merchant!.handle(req, res).then((handled) => {
      if (!handled) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const merchantUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-demo-merchant-'));
  const sandbox = await startSandbox({ port: 0, dataDir, demoShopOrigin: merchantUrl });
  merchant = createMerchantApp({
    privateKeyPem: sandbox.demoMerchant!.privateKeyPem,
    serviceCertificatePem: sandbox.serviceCertificatePem,
    certificateName: DEMO_CERTIFICATE_NAME,
    shopUrl: merchantUrl,
  });
  return {
    sandbox,
    merchant,
    merchantUrl,
    dataDir,
    async close() {
      await sandbox.close();
      merchant!.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON request; the answer's body parsed when it is JSON. */
export async function request(
  url: string,
  method: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; text: string; headers: Headers }> {
  const response = await fetch(url, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  if (response.headers.get('content-type')?.includes('json') && text) {
    parsed = JSON.parse(text) as Record<string, unknown>;
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}
