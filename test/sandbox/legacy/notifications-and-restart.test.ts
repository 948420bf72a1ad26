import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseConfig } from '../../../src/sandbox/config.js';
import { startSandbox } from '../../../src/sandbox/sandbox.js';
import { signOrder } from '../../../src/server/index.js';
import {
  call,
  FakeMerchant,
  merchantKeys,
  PAGE_ORIGIN,
  startTestSandbox,
  tempDir,
  testConfigFile,
  WIDGETS,
} from '../support.js';

const card = { number: '4111111111111111', expiry: '12/34', cvc: '123', holder: 'T' };

async function paidOrder(sandbox: Awaited<ReturnType<typeof startTestSandbox>>, orderId: string) {
  const input = { widgetId: WIDGETS.checkout, orderId, items: [{ amount: '5.00', label: 'Pen' }] };
  const created = await call(sandbox, 'POST', '/widget-api/v1/orders', {
    order: input,
    signature: signOrder(input, merchantKeys.main.privateKeyPem),
    pageOrigin: PAGE_ORIGIN,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const paid = await call(sandbox, 'POST', `/widget-api/v1/orders/${created.body['id']}/payments`, {
    idempotencyKey: orderId,
    card,
  });
  assert.equal(paid.body['state'], 'PAID');
  return created.body['id'] as string;
}

describe('purchase notifications', () => {
  test('are retried until the merchant answers 200, at growing intervals', async () => {
    const merchant = await FakeMerchant.start();
    const sandbox = await startTestSandbox(merchant);
    try {
      let calls = 0;
      // 500, 503, then 201 (not 200: the legacy interface wants exactly 200), then 200.
      merchant.respond('/notify', () => ({ status: [500, 503, 201][calls++] ?? 200 }));
      const id = await paidOrder(sandbox, 'RETRY-1');
      const received = await merchant.waitFor('/notify', 4, 10_000);
      assert.equal(received.length, 4);
      assert.ok(received.every((r) => JSON.parse(r.body).id === id));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(merchant.requests('/notify').length, 4, 'no more attempts after a 200');
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });

  test('survive a restart with a data dir, as do orders', async () => {
    const merchant = await FakeMerchant.start();
    const dataDir = await tempDir();
    merchant.respond('/notify', () => ({ status: 500 }));
    const config = parseConfig({ ...testConfigFile(merchant.url), notifications: { retryBaseMs: 200 } });
    const first = await startSandbox({ port: 0, config, dataDir });
    const id = await paidOrder(first, 'RESTART-1');
    await merchant.waitFor('/notify', 1);
    await first.close();

    merchant.respond('/notify', () => ({ status: 200 }));
    const before = merchant.requests('/notify').length;
    const second = await startSandbox({ port: 0, config, dataDir });
    try {
      const status = await call(second, 'GET', `/widget-api/v1/orders/${id}`);
      assert.equal(status.body['state'], 'PAID');
      const all = await merchant.waitFor('/notify', before + 1, 10_000);
      assert.equal(JSON.parse(all.at(-1)!.body).id, id);
      assert.equal(
        second.serviceCertificatePem,
        first.serviceCertificatePem,
        'the service keeps its certificate',
      );
    } finally {
      await second.close();
      await merchant.close();
    }
  });
});
