import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DEMO_WIDGET_IDS, parseConfig, type SandboxConfigFile } from '../../src/sandbox/config.js';
import { isLoopbackOrigin } from '../../src/sandbox/legacy/page-origins.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/sandbox.js';
import { FakeMerchant, PAGE_ORIGIN, tempDir, testConfigFile, WIDGETS } from './support.js';

async function embedding(
  sandbox: Sandbox,
  widgetId: string,
  origin: string,
): Promise<{ ok: boolean; code?: string }> {
  const response = await fetch(
    `${sandbox.url}/widget-api/v1/widgets/${widgetId}/embedding?origin=${encodeURIComponent(origin)}`,
  );
  return (await response.json()) as { ok: boolean; code?: string };
}

async function refusal(options: unknown): Promise<Error> {
  try {
    const sandbox = await startSandbox(options as SandboxOptions);
    await sandbox.close();
  } catch (error) {
    return error as Error;
  }
  assert.fail(`startSandbox accepted ${JSON.stringify(options)}`);
}

describe('startSandbox options', () => {
  test('an unknown option is refused by name, with the one meant', async () => {
    const error = await refusal({ prot: 0 });
    assert.ok(error instanceof TypeError);
    assert.equal(error.message, 'startSandbox: unknown option "prot"; did you mean "port"?');
  });

  test('an option of the wrong kind is refused by name', async () => {
    const error = await refusal({ port: '4010' });
    assert.match(error.message, /^startSandbox: the option "port" must be a port number/);
  });

  test("takes the config in the file's shape, checked as the file is", async () => {
    const merchant = await FakeMerchant.start();
    try {
      const file: SandboxConfigFile = testConfigFile(merchant.url);
      const sandbox = await startSandbox({ port: 0, config: file, dataDir: await tempDir() });
      try {
        assert.equal(sandbox.config.notifications.timeoutMs > 0, true);
        assert.deepEqual(await embedding(sandbox, WIDGETS.checkout, PAGE_ORIGIN), { ok: true });
      } finally {
        await sandbox.close();
      }
      const wrong = await refusal({
        port: 0,
        config: { merchants: [{ ...file.merchants[0], widgets: [{ id: 'x' }] }] },
      });
      assert.match(wrong.message, /^Invalid sandbox config \(startSandbox config\)/);
      assert.match(wrong.message, /merchants\[0\]\.widgets\[0\]/);
    } finally {
      await merchant.close();
    }
  });

  test('a config from parseConfig runs as it is', async () => {
    const merchant = await FakeMerchant.start();
    const config = parseConfig(testConfigFile(merchant.url));
    const sandbox = await startSandbox({ port: 0, config, dataDir: await tempDir() });
    try {
      assert.equal(sandbox.config, config);
    } finally {
      await sandbox.close();
      await merchant.close();
    }
  });

  test('allowOrigins adds page origins to every merchant, and a wrong one is named', async () => {
    const merchant = await FakeMerchant.start();
    try {
      const sandbox = await startSandbox({
        port: 0,
        config: testConfigFile(merchant.url),
        allowOrigins: ['https://other.example'],
        dataDir: await tempDir(),
      });
      try {
        assert.deepEqual(await embedding(sandbox, WIDGETS.checkout, 'https://other.example'), { ok: true });
        assert.equal(
          (await embedding(sandbox, WIDGETS.checkout, 'http://localhost:3000')).code,
          'origin_not_allowed',
        );
      } finally {
        await sandbox.close();
      }
      const error = await refusal({
        port: 0,
        config: testConfigFile(merchant.url),
        allowOrigins: ['localhost:3000'],
      });
      assert.match(error.message, /allowOrigins.*"localhost:3000" must be an origin/s);
    } finally {
      await merchant.close();
    }
  });

  test('without a config, a page on any loopback origin may embed the demo widgets, and no other', async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      for (const origin of ['http://localhost:3000', 'http://127.0.0.1:8080', 'https://localhost']) {
        assert.deepEqual(await embedding(sandbox, DEMO_WIDGET_IDS.checkout, origin), { ok: true }, origin);
      }
      for (const origin of [
        'http://localhost.example:3000',
        'http://10.0.0.1:3000',
        'http://[::1]:5173',
        'https://shop.example',
      ]) {
        assert.equal(
          (await embedding(sandbox, DEMO_WIDGET_IDS.checkout, origin)).code,
          'origin_not_allowed',
          origin,
        );
      }
      const frame = await fetch(`${sandbox.url}/widget/frame/${DEMO_WIDGET_IDS.checkout}`);
      assert.match(
        frame.headers.get('content-security-policy') ?? '',
        /frame-ancestors [^;]*http:\/\/localhost:\* /,
      );
    } finally {
      await sandbox.close();
    }
  });

  test('isLoopbackOrigin takes loopback hosts on any port, nothing that only begins like one', () => {
    assert.equal(isLoopbackOrigin('http://127.0.0.1:3000'), true);
    assert.equal(isLoopbackOrigin('http://localhost:3000/'), false);
    assert.equal(isLoopbackOrigin('http://localhost:3000@evil.example'), false);
    assert.equal(isLoopbackOrigin('file://localhost'), false);
  });

  test('without a data dir, the temporary folder of keys is removed on close', async () => {
    const sandbox = await startSandbox({ port: 0 });
    assert.ok(sandbox.demoMerchant && existsSync(sandbox.demoMerchant.privateKeyFile));
    await sandbox.close();
    assert.equal(existsSync(sandbox.keyDir), false);
  });

  test('with a data dir, the keys stay', async () => {
    const dataDir = await tempDir();
    const sandbox = await startSandbox({ port: 0, dataDir });
    await sandbox.close();
    assert.ok(sandbox.demoMerchant && existsSync(sandbox.demoMerchant.privateKeyFile));
  });
});
