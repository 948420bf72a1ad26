/**
 * Requests no browser or client would send, written by hand on raw sockets: none may end the sandbox's
 * process or earn a 5xx. A fixed-seed fuzz run adds targets, hosts and bodies built from the same pieces.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEMO_V1_SECRET_KEY } from '../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';
import { rawRequest as rawRequestTo, sendFuzzedRequests } from './hostile-requests.js';

let sandbox: Sandbox;

before(async () => {
  sandbox = await startSandbox({ port: 0 });
});

after(async () => {
  await sandbox.close();
});

const rawRequest = (head: string, body = '') => rawRequestTo(sandbox.port, head, body);

async function stillAnswers(): Promise<void> {
  const health = await fetch(`${sandbox.url}/sandbox/health`);
  assert.equal(health.status, 200);
}

describe('the sandbox under hostile requests', () => {
  for (const target of ['http://[', 'http://a:99999/', 'http://%zz/', 'http://x:-1/']) {
    it(`answers GET ${target} with 400 and keeps running`, async () => {
      assert.equal(await rawRequest(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1`), 400);
      await stillAnswers();
    });
  }

  it('reads GET //[ as the path /[ (slashes merged, not a host): 404, and keeps running', async () => {
    assert.equal(await rawRequest('GET //[ HTTP/1.1\r\nHost: 127.0.0.1'), 404);
    await stillAnswers();
  });

  for (const path of [
    '/widget-api/v1/orders/%E0%A4%A',
    '/widget-api/v1/widgets/%zz',
    '/api/v1/purchases/%E0%A4%A/',
    '/sandbox/v1/logos/%C0.svg',
  ]) {
    it(`answers a malformed percent-escape in ${path} with 400`, async () => {
      const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${DEMO_V1_SECRET_KEY}`;
      assert.equal(await rawRequest(head), 400);
    });
  }

  it('takes a Host header with an impossible port as no base for its links', async () => {
    // An authenticated list: its answer links pages from the base URL, which must not come from this Host.
    const status = await rawRequest(
      `GET /api/v1/webhooks/ HTTP/1.1\r\nHost: a:99999\r\nAuthorization: Bearer ${DEMO_V1_SECRET_KEY}`,
    );
    assert.equal(status, 200);
    await stillAnswers();
  });

  it('answers 2,000 fuzzed requests (fixed seed) without a 5xx, and keeps running', async () => {
    const answers = await sendFuzzedRequests(sandbox.port, 2000);
    const failures = answers.filter(({ status }) => status !== null && status >= 500);
    assert.deepEqual(
      failures.map(({ request, status }) => `${JSON.stringify(request.head)} answered ${status}`),
      [],
    );
    // Node's parser refuses some requests itself (no status): most must reach the router.
    const answered = answers.filter(({ status }) => status !== null).length;
    assert.ok(answered > 1000, `only ${answered} requests were answered`);
    await stillAnswers();
  });
});
