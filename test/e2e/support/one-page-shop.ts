/**
 * A shop of a few pages for the framework tests (checkout-markup, vue): the sandbox on its own origin, a shop
 * on another (the frame is cross-origin, as in production) that serves the pages and files a test gives it,
 * answers its routes, and keeps the purchase notifications the sandbox sends; and a Chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { DEMO_CALLBACK_PATHS, type Sandbox, startSandbox } from '../../../src/sandbox/index.js';
import type { PurchaseNotification } from '../../../src/server/index.js';
import { launchBrowser } from './browser.js';

export interface OnePageShop {
  /** The shop's origin. */
  url: string;
  sandbox: Sandbox;
  browser: Browser;
  /** What the shop serves, by path: a content type and a body. */
  files: Map<string, { type: string; body: string }>;
  /** The shop's own routes, by `METHOD path`, given the request's body. */
  routes: Map<string, (body: string, response: ServerResponse) => void>;
  /** The purchase notifications the sandbox delivered, in order. */
  notifications: PurchaseNotification[];
  /** Opens a path of the shop in a fresh context; console errors and warnings are collected. */
  open(path: string): Promise<{ page: Page; console: string[] }>;
  close(): Promise<void>;
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startOnePageShop(): Promise<OnePageShop> {
  const files = new Map<string, { type: string; body: string }>();
  const routes = new Map<string, (body: string, response: ServerResponse) => void>();
  const notifications: PurchaseNotification[] = [];
  const server: Server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const body = await bodyOf(request);
    const route = routes.get(`${request.method} ${path}`);
    if (route) return route(body, response);
    if (request.method === 'PUT' && path === DEMO_CALLBACK_PATHS.notification)
      notifications.push(JSON.parse(body) as PurchaseNotification);
    const file = files.get(path);
    // Anything else the sandbox calls (the notification, the terms) is taken.
    response.writeHead(200, { 'content-type': file?.type ?? 'text/plain' });
    response.end(file?.body ?? 'OK');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-one-page-shop-'));
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dataDir, demoShopOrigin: url });
  const browser = await launchBrowser();
  return {
    url,
    sandbox,
    browser,
    files,
    routes,
    notifications,
    async open(path) {
      const page = await (await browser.newContext()).newPage();
      const messages: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') messages.push(message.text());
      });
      page.on('pageerror', (error) => messages.push(`page error: ${error.message}`));
      await page.goto(`${url}${path}`);
      return { page, console: messages };
    },
    async close() {
      await browser.close();
      await sandbox.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
