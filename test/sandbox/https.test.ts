// `--https` (startSandbox's `https`): the sandbox serves TLS with a self-signed certificate it makes for the
// loopback names, keeps it in the data dir across restarts, and writes its own URLs with https. Requests go
// over real TLS, trusting only that certificate, as a merchant does with NODE_EXTRA_CA_CERTS.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { DEMO_V1_BRAND_ID, DEMO_V1_SECRET_KEY } from '../../src/sandbox/index.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { tempDir } from './support.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over TLS that trusts `ca` alone. */
function send(
  url: string,
  ca: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, ca },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

describe('the sandbox over HTTPS', () => {
  let dataDir: string;
  let sandbox: Sandbox;
  let ca: string;

  before(async () => {
    dataDir = await tempDir();
    sandbox = await startSandbox({ port: 0, dataDir, https: true });
    ca = await readFile(sandbox.tlsCertificateFile!, 'utf8');
  });
  after(() => sandbox.close());

  test('serves TLS with a certificate for localhost, 127.0.0.1 and ::1, written into the data dir', async () => {
    assert.equal(sandbox.url, `https://127.0.0.1:${sandbox.port}`);
    assert.ok(sandbox.tlsCertificateFile!.startsWith(dataDir), sandbox.tlsCertificateFile);
    const certificate = new X509Certificate(ca);
    assert.equal(
      certificate.subjectAltName,
      'DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1',
    );
    for (const origin of [sandbox.url, `https://localhost:${sandbox.port}`]) {
      const health = await send(`${origin}/sandbox/health`, ca);
      assert.equal(health.status, 200, origin);
    }
    // Trusting nothing else: a client that does not trust it is refused, and plain HTTP gets no answer.
    await assert.rejects(
      send(`${sandbox.url}/sandbox/health`, ''),
      /self[- ]signed|unable to verify|certificate/i,
    );
    await assert.rejects(fetch(`http://127.0.0.1:${sandbox.port}/sandbox/health`));
  });

  test('the widget script, the frame page and the v1 checkout URL are served and written with https', async () => {
    const script = await send(`${sandbox.url}/widget/svc-checkout.js`, ca);
    assert.equal(script.status, 200);
    const widgetId = sandbox.config.merchants[0]!.widgets[0]!.id;
    const frame = await send(`${sandbox.url}/widget/frame/${widgetId}`, ca);
    assert.equal(frame.status, 200);
    assert.match(frame.headers['content-type'] as string, /text\/html/);

    const authorization = `Bearer ${DEMO_V1_SECRET_KEY}`;
    const created = await send(`${sandbox.url}/api/v1/purchases/`, ca, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        brand_id: DEMO_V1_BRAND_ID,
        client: { email: 'customer@example.com' },
        purchase: { products: [{ name: 'Tea', price: 1250 }] },
      }),
    });
    assert.equal(created.status, 201, created.body);
    const purchase = JSON.parse(created.body) as { id: string; checkout_url: string };
    assert.equal(purchase.checkout_url, `${sandbox.url}/checkout/${purchase.id}/`);
    // By whatever name the merchant reached it: the certificate's other name too.
    const byName = await send(`https://localhost:${sandbox.port}/api/v1/purchases/${purchase.id}/`, ca, {
      headers: { authorization },
    });
    assert.equal(
      (JSON.parse(byName.body) as { checkout_url: string }).checkout_url,
      `https://localhost:${sandbox.port}/checkout/${purchase.id}/`,
    );
    const page = await send(purchase.checkout_url, ca);
    assert.equal(page.status, 200);
  });

  test('a later start on the same data dir serves the same certificate', async () => {
    const file = sandbox.tlsCertificateFile;
    await sandbox.close();
    sandbox = await startSandbox({ port: 0, dataDir, https: true });
    assert.equal(sandbox.tlsCertificateFile, file);
    assert.equal(await readFile(file!, 'utf8'), ca);
    assert.equal((await send(`${sandbox.url}/sandbox/health`, ca)).status, 200);
  });
});
