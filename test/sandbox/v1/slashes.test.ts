/**
 * Doubled slashes: the real front end merges runs of slashes in a path, and so does the sandbox. The Node
 * SDK's README base URL ends in a slash, so its requests go to `/api/v1//purchases/`. Sent with the literal
 * path (fetch would keep it too, but http.request is explicit about sending what it is given).
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { before, describe, test } from 'node:test';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';
import type { FakeMerchant } from '../support.js';
import { purchaseBody, V1, withV1Sandbox } from './support.js';

/** One request with `path` sent as written; its status and JSON body. */
function literal(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const { port } = new URL(sandbox.url);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${V1.secretKey}`,
          ...(payload !== undefined && { 'content-type': 'application/json' }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : {} }));
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

describe('doubled slashes in a path are merged, as the real front end does', () => {
  const fixture = withV1Sandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  before(() => ({ merchant, sandbox } = fixture));

  test('the Node SDK’s /api/v1//purchases/ creates and reads a Purchase', async () => {
    const created = await literal(sandbox, 'POST', '/api/v1//purchases/', purchaseBody());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body['id'] as string;
    const read = await literal(sandbox, 'GET', `/api/v1//purchases/${id}/`);
    assert.equal(read.status, 200);
    assert.equal(read.body['id'], id);
    assert.equal(read.body['checkout_url'], created.body['checkout_url']);
    assert.doesNotMatch(String(read.body['checkout_url']), /\/\/checkout|[^:]\/\//, 'links name one slash');
  });

  test('any run of slashes, anywhere in the path, and a path that starts with two (not a host)', async () => {
    for (const path of ['//api/v1/webhooks/', '/api//v1///webhooks//', '/sandbox/v1//outbox/']) {
      const answer = await literal(sandbox, 'GET', path);
      assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
    }
    // Slashes in the query are the query's own: they are not taken for the path's.
    const page = await literal(sandbox, 'GET', '/api/v1//webhooks/?per_page=1&note=a//b');
    assert.equal(page.status, 200, JSON.stringify(page.body));
    // An unknown path is still unknown, its message naming the merged path.
    const missing = await literal(sandbox, 'GET', '/api/v1//nothing/');
    assert.equal(missing.status, 404);
    assert.match(JSON.stringify(missing.body), /\/api\/v1\/nothing\//);
  });
});
