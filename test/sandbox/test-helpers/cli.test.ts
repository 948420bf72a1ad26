/**
 * `svc-sandbox trigger …`, the CLI spawned through tsx against a running sandbox (the demo merchant, whose
 * keys are the command's defaults): paying a legacy order from its rendered attributes and a v1 Purchase, a
 * refusal on stderr with exit code 1, a bad flag with 2, and the help text.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  DEMO_CERTIFICATE_NAME,
  DEMO_V1_BRAND_ID,
  DEMO_V1_SECRET_KEY,
  DEMO_WIDGET_IDS,
} from '../../../src/sandbox/config.js';
import { type Sandbox, startSandbox } from '../../../src/sandbox/sandbox.js';
import { parseTriggerArgs, TRIGGER_HELP_TEXT } from '../../../src/sandbox/test-helpers/trigger-cli.js';
import { signOrder } from '../../../src/server/index.js';

function trigger(args: string[], env: Record<string, string> = {}) {
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', 'trigger', ...args], {
    cwd: join(import.meta.dirname, '../../..'),
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    cli.on('close', (code) => resolve({ code, stdout, stderr })),
  );
}

describe('svc-sandbox trigger', () => {
  let sandbox: Sandbox;

  before(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  after(() => sandbox.close());

  async function createPurchase(): Promise<string> {
    const response = await fetch(`${sandbox.url}/api/v1/purchases/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEMO_V1_SECRET_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        brand_id: DEMO_V1_BRAND_ID,
        client: { email: 'customer@example.com' },
        purchase: { products: [{ name: 'Tea', price: 1250 }] },
      }),
    });
    return ((await response.json()) as { id: string }).id;
  }

  it('pays a legacy order from its attributes, and a v1 Purchase; refuses with exit code 1', async () => {
    const order = {
      widgetId: DEMO_WIDGET_IDS.checkout,
      orderId: 'CLI-1',
      certificateName: DEMO_CERTIFICATE_NAME,
      items: [{ amount: '12.50', label: 'Tea' }],
    };
    const signature = signOrder(order, sandbox.demoMerchant!.privateKeyPem);
    const paidId = await createPurchase();
    const unpaidId = await createPurchase();
    const [legacy, v1, refused] = await Promise.all([
      trigger([
        'pay-order',
        '--url',
        sandbox.url,
        '--attr',
        `widget-id=${order.widgetId}`,
        '--attr',
        'order-id=CLI-1',
        '--attr',
        `certificate-name=${DEMO_CERTIFICATE_NAME}`,
        '--attr',
        'amount=12.50',
        '--attr',
        'label=Tea',
        '--attr',
        `signature=${signature}`,
        '--card',
        'threeDSecure',
        '--3ds',
        'approve',
      ]),
      trigger(['pay-purchase', '--purchase', paidId, '--card', 'declined'], { SVC_SANDBOX_URL: sandbox.url }),
      trigger(['payment.refunded', '--url', sandbox.url, '--purchase', unpaidId]),
    ]);
    assert.equal(legacy.code, 0, legacy.stderr);
    assert.equal(JSON.parse(legacy.stdout).status, 'PAID');
    assert.equal(JSON.parse(legacy.stdout).merchantOrderId, 'CLI-1');
    assert.equal(v1.code, 0, v1.stderr);
    assert.equal(JSON.parse(v1.stdout).outcome, 'failed');
    assert.equal(JSON.parse(v1.stdout).error.code, 'card_declined');
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr,
      `svc-sandbox trigger: 409 not_applicable: Purchase ${unpaidId} is created; only a paid Purchase with money left to refund can be refunded (purchaseId)\n`,
    );
  });

  it('a bad flag exits 2 naming it; --help prints the help text; no sandbox is named plainly', async () => {
    // A port that nobody listens on: one just given back.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const [bad, help, nobody] = await Promise.all([
      trigger(['payment.refunded', '--card', 'visa']),
      trigger(['--help']),
      trigger(['purchase.paid', '--purchase', 'x', '--url', `http://127.0.0.1:${port}`]),
    ]);
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      'svc-sandbox trigger: --card does not go with payment.refunded. Run svc-sandbox trigger --help for the options.\n',
    );
    assert.equal(help.code, 0);
    assert.equal(help.stdout, TRIGGER_HELP_TEXT);
    assert.equal(nobody.code, 1);
    assert.match(
      nobody.stderr,
      new RegExp(
        `no sandbox answered at http://127.0.0.1:${port} \\(ECONNREFUSED\\); start one, or give --url`,
      ),
    );
  });

  it('reads the command line into one request, keys from flags or environment', () => {
    assert.deepEqual(
      parseTriggerArgs(['purchase.subscription_charge_failure', '--template', 't', '--subscriber', 's'], {
        SVC_SANDBOX_URL: 'http://127.0.0.1:5000/',
        SVC_SANDBOX_SECRET_KEY: 'key-from-env',
      }),
      {
        kind: 'call',
        url: 'http://127.0.0.1:5000',
        path: '/sandbox/test-helpers/v1/trigger',
        headers: { authorization: 'Bearer key-from-env' },
        body: { event: 'purchase.subscription_charge_failure', billingTemplateId: 't', subscriberId: 's' },
      },
    );
    assert.throws(() => parseTriggerArgs(['purchase.exploded']), /Cannot trigger "purchase.exploded"/);
    assert.throws(() => parseTriggerArgs(['pay-purchase', '--3ds', 'yes']), /--3ds must be approve or deny/);
    assert.throws(
      () => parseTriggerArgs(['pay-order', '--attr', 'amount']),
      /--attr "amount" must be NAME=VALUE/,
    );
    for (const line of TRIGGER_HELP_TEXT.split('\n')) assert.ok(line.length <= 79, line);
  });
});
