/**
 * Requests no HTTP client library would send, written on raw sockets (issue 21): a forged `Host`, a client
 * that hangs up mid-body, `CONNECT`. Each gets a sane answer, and none is logged as the sandbox's failure.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { FakeMerchant, tempDir } from './support.js';
import { purchaseBody, startV1Sandbox, V1, v1ConfigFile } from './v1/support.js';

/** Writes `request` and resolves with everything the sandbox sent until it closed (or `waitMs` passed). */
function exchange(
  sandbox: Sandbox,
  request: string,
  waitMs = 3000,
): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect(sandbox.port, new URL(sandbox.url).hostname.replace(/^\[|\]$/g, ''));
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', reject);
    socket.write(request);
  });
}

function createPurchaseRequest(host: string): string {
  const body = JSON.stringify(purchaseBody());
  return (
    `POST /api/v1/purchases/ HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${V1.secretKey}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

describe('raw socket requests', () => {
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  const logged: string[] = [];
  const consoleError = console.error;
  before(async () => {
    merchant = await FakeMerchant.start();
    sandbox = await startV1Sandbox(merchant);
    // What the sandbox writes to its console is what an operator reads: collected, and still shown.
    console.error = (...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
      consoleError(...args);
    };
  });
  after(async () => {
    console.error = consoleError;
    await sandbox.close();
    await merchant.close();
  });

  test('checkout_url names the sandbox, not a forged Host', async () => {
    const checkoutUrl = async (host: string) => {
      const { text } = await exchange(sandbox, createPurchaseRequest(host));
      assert.match(text, /^HTTP\/1\.1 201 /, text);
      return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).checkout_url as string;
    };
    assert.ok((await checkoutUrl('evil.example')).startsWith(`${sandbox.url}/checkout/`));
    assert.ok((await checkoutUrl(`evil.example:${sandbox.port}`)).startsWith(`${sandbox.url}/checkout/`));
    assert.ok((await checkoutUrl('127.0.0.1:1')).startsWith(`${sandbox.url}/checkout/`), 'another port');
    // Names of this sandbox are kept, so a page on localhost links to localhost.
    const local = `http://localhost:${sandbox.port}`;
    assert.ok((await checkoutUrl(`localhost:${sandbox.port}`)).startsWith(`${local}/checkout/`));
  });

  test('checkout_url names the host the sandbox was told to listen on (--host), which its certificate names', async () => {
    const named = await startSandbox({
      port: 0,
      host: 'localhost',
      config: parseConfig(v1ConfigFile(merchant.url)),
      dataDir: await tempDir(),
    });
    try {
      const { text } = await exchange(named, createPurchaseRequest('evil.example'));
      const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
      assert.ok(body.checkout_url.startsWith(`http://localhost:${named.port}/checkout/`), body.checkout_url);
    } finally {
      await named.close();
    }
  });

  test('a client that hangs up mid-body is no internal error', async () => {
    const before = logged.length;
    for (const path of ['/api/v1/purchases/', '/widget-api/v1/orders', '/v2/merchants/m1/orders/x/refunds']) {
      const { closed } = await exchange(
        sandbox,
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${V1.secretKey}\r\n` +
          'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"brand_id": "',
        300,
      );
      assert.equal(closed, false, 'the sandbox waits for the rest of the body');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(logged.slice(before), []);
    // And the sandbox still serves.
    const { text } = await exchange(
      sandbox,
      'GET /sandbox/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    assert.match(text, /^HTTP\/1\.1 200 /);
  });

  test('CONNECT is answered 405 at once, and the connection closed', async () => {
    const started = Date.now();
    const { text, closed } = await exchange(
      sandbox,
      'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n',
    );
    assert.equal(closed, true);
    assert.match(text, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
    assert.ok(Date.now() - started < 2000, `answered after ${Date.now() - started} ms`);
  });
});
