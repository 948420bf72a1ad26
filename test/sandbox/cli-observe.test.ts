import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CliArgsError, HELP_TEXT, HELP_WIDTH, parseCliArgs } from '../../src/sandbox/cli-args.js';
import { forwardTarget } from '../../src/sandbox/cli-watch.js';
import { DEMO_API_KEY } from '../../src/sandbox/index.js';
import type { Sandbox } from '../../src/sandbox/sandbox.js';
import {
  API_KEY,
  call,
  FakeMerchant,
  paidOrder,
  tempDir,
  testConfigFile,
  until,
  WIDGETS,
  withLegacySandbox,
} from './support.js';

const ROOT = join(import.meta.dirname, '../..');

/** `svc-sandbox ...args`, its stdout and stderr read as they come. */
function runCli(args: string[]) {
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  cli.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output.stdout += chunk;
  });
  cli.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output.stderr += chunk;
  });
  /** Resolves once `pattern` is in the stream's text, with the match. */
  const waitFor = async (stream: 'stdout' | 'stderr', pattern: RegExp, ms = 10_000) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = pattern.exec(output[stream]);
      if (match) return match;
      if (Date.now() > deadline || cli.exitCode !== null)
        throw new Error(`no ${pattern} in ${stream}: ${JSON.stringify(output)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { cli, output, waitFor };
}

async function stop(cli: ChildProcess): Promise<void> {
  if (cli.exitCode !== null) return;
  const exited = once(cli, 'exit');
  cli.kill('SIGTERM');
  await exited;
}

describe('svc-sandbox prints what it does', () => {
  let merchant: FakeMerchant;
  let configPath: string;
  before(async () => {
    merchant = await FakeMerchant.start();
    const dir = await tempDir();
    configPath = join(dir, 'sandbox.json');
    writeFileSync(configPath, JSON.stringify(testConfigFile(merchant.url)));
  });
  after(() => merchant.close());

  test('a line per request, and per notification attempt with the next retry', async () => {
    let calls = 0;
    merchant.respond('/notify', () => ({ status: ++calls === 1 ? 500 : 200 }));
    const { cli, waitFor } = runCli(['--port', '0', '--config', configPath, '--data-dir', await tempDir()]);
    try {
      const url = (await waitFor('stdout', /listening on (http:\/\/\S+)/))[1]!;
      const sandbox = { url } as Sandbox;
      await paidOrder(sandbox, 'cli-1');
      await waitFor('stdout', /^\d\d:\d\d:\d\d POST \/widget-api\/v1\/orders 201 \d+ ms m1$/m);
      await waitFor('stdout', /^\d\d:\d\d:\d\d POST \/widget-api\/v1\/orders\/\S+\/payments 200 \d+ ms m1$/m);
      await waitFor(
        'stdout',
        /^\d\d:\d\d:\d\d notification PAID PUT http:\S+\/notify answered 500 after \d+ ms; attempt 1; next attempt at \d\d:\d\d:\d\d \(in \d+ ms\) m1$/m,
      );
      await waitFor(
        'stdout',
        /notification PAID PUT \S+ answered 200 after \d+ ms; attempt 2; delivered m1$/m,
      );
    } finally {
      await stop(cli);
      merchant.respond('/notify', () => ({ status: 200 }));
    }
  });

  test('--quiet prints the start lines only', async () => {
    const { cli, output, waitFor } = runCli(['-q', '--port', '0', '--config', configPath]);
    try {
      const url = (await waitFor('stdout', /listening on (http:\/\/\S+)/))[1]!;
      await waitFor('stdout', /v1 REST interface/);
      const printed = output.stdout;
      await call({ url } as Sandbox, 'GET', '/sandbox/health');
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(output.stdout, printed);
      assert.doesNotMatch(output.stdout, /GET \/sandbox\/health/);
    } finally {
      await stop(cli);
    }
  });
});

describe('svc-sandbox logs and listen, against a running sandbox', () => {
  const legacy = withLegacySandbox();
  let merchant: FakeMerchant;
  let sandbox: Sandbox;
  before(() => {
    ({ merchant, sandbox } = legacy);
  });

  test('logs tails the merchant’s lines', async () => {
    const { cli, output, waitFor } = runCli(['logs', '--url', sandbox.url, '--api-key', API_KEY]);
    try {
      await waitFor('stderr', /Tailing the log of/);
      await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.checkout}`);
      // A request of no merchant is the sandbox's own output's, not a merchant's: it is not tailed.
      await call(sandbox, 'GET', '/sandbox/health');
      await call(sandbox, 'GET', `/widget-api/v1/widgets/${WIDGETS.instant}`);
      await waitFor('stdout', /GET \/widget-api\/v1\/widgets\/\S+0001 200 \d+ ms m1$/m);
      assert.match(output.stdout, /^\d\d:\d\d:\d\d GET \/widget-api\/v1\/widgets\/\S+0002 200 \d+ ms m1$/m);
      assert.doesNotMatch(output.stdout, /sandbox\/health/);
    } finally {
      await stop(cli);
    }
  });

  test('listen --forward-to sends each notification with the same bytes and signature', async () => {
    const local = await FakeMerchant.start();
    const { cli, waitFor } = runCli([
      'listen',
      '--url',
      sandbox.url,
      '--api-key',
      API_KEY,
      '--forward-to',
      local.url,
    ]);
    try {
      await waitFor('stderr', /Forwarding the deliveries of/);
      const id = await paidOrder(sandbox, 'listen-1');
      const [forwarded] = await local.waitFor('/notify', 1);
      const sent = (await merchant.waitFor('/notify', 1)).find((request) => request.body.includes(id))!;
      assert.equal(forwarded!.method, 'PUT');
      assert.equal(forwarded!.body, sent.body);
      assert.equal(forwarded!.headers['x-svc-signature'], sent.headers['x-svc-signature']);
      assert.equal(forwarded!.headers['content-type'], 'application/json');
      await waitFor('stdout', /forwarded notification PAID PUT http:\S+\/notify answered 200 after \d+ ms/);
    } finally {
      await stop(cli);
      await local.close();
    }
  });

  test('notifications lists the legacy notifications; resend sends one again, same bytes', async () => {
    const id = await paidOrder(sandbox, 'cli-resend-1');
    await until(
      () => merchant.requests('/notify').some((request) => request.body.includes(id)),
      'the notification at the merchant',
    );
    const listed = runCli([
      'notifications',
      '--url',
      sandbox.url,
      '--api-key',
      API_KEY,
      '--order-id',
      'cli-resend-1',
    ]);
    const [listedCode] = await once(listed.cli, 'exit');
    assert.equal(listedCode, 0, listed.output.stderr);
    const line = new RegExp(`^(\\S+)  PAID delivered \\(1 attempt\\)  order ${id}  \\S+Z$`, 'm');
    const notificationId = line.exec(listed.output.stdout)?.[1];
    assert.ok(notificationId, listed.output.stdout);

    const before = merchant.requests('/notify').length;
    const resent = runCli(['resend', notificationId, '--url', sandbox.url, '--api-key', API_KEY]);
    const [resentCode] = await once(resent.cli, 'exit');
    assert.equal(resentCode, 0, resent.output.stderr);
    assert.match(
      resent.output.stdout,
      new RegExp(`^Resent ${notificationId} as \\S+: PAID to http:\\S+/notify$`, 'm'),
    );
    const requests = await merchant.waitFor('/notify', before + 1);
    const original = requests.find((request) => request.body.includes(id))!;
    assert.equal(requests.at(-1)!.body, original.body);
    assert.equal(requests.at(-1)!.headers['x-svc-signature'], original.headers['x-svc-signature']);
  });

  test('a wrong key or no sandbox ends with one line and exit code 1', async () => {
    const wrong = runCli(['logs', '--url', sandbox.url, '--api-key', 'nope']);
    const [code] = await once(wrong.cli, 'exit');
    assert.equal(code, 1);
    assert.match(
      wrong.output.stderr,
      /^svc-sandbox: \S+\/sandbox\/logs answered 401: The key is no merchant's/,
    );
    // A port nobody listens on: one that was free a moment ago.
    const probe = createServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const { port } = probe.address() as AddressInfo;
    probe.close();
    const gone = runCli(['logs', '--url', `http://127.0.0.1:${port}`]);
    const [goneCode] = await once(gone.cli, 'exit');
    assert.equal(goneCode, 1);
    assert.match(
      gone.output.stderr,
      /cannot reach a sandbox at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\); start one/,
    );
  });
});

describe('parseCliArgs: logs, listen, --quiet', () => {
  test('reads the commands and their flags, with the demo merchant and port by default', () => {
    assert.deepEqual(parseCliArgs(['logs']), {
      kind: 'logs',
      url: 'http://127.0.0.1:4010',
      apiKey: DEMO_API_KEY,
    });
    assert.deepEqual(parseCliArgs(['listen', '--forward-to', 'http://localhost:3000', '--api-key', 'k']), {
      kind: 'listen',
      url: 'http://127.0.0.1:4010',
      apiKey: 'k',
      forwardTo: 'http://localhost:3000',
    });
    assert.deepEqual(parseCliArgs(['notifications', '--order-id', 'o-1']), {
      kind: 'notifications',
      url: 'http://127.0.0.1:4010',
      apiKey: DEMO_API_KEY,
      orderId: 'o-1',
    });
    assert.deepEqual(parseCliArgs(['resend', 'n-1', '--url', 'http://127.0.0.1:5000']), {
      kind: 'resend',
      url: 'http://127.0.0.1:5000',
      apiKey: DEMO_API_KEY,
      notificationId: 'n-1',
    });
    assert.equal((parseCliArgs(['--quiet']) as { quiet?: true }).quiet, true);
    assert.equal((parseCliArgs(['-q']) as { quiet?: true }).quiet, true);
  });

  test('refuses listen without --forward-to, a URL that is none, and --forward-to on logs', () => {
    for (const argv of [
      ['resend'],
      ['resend', 'a', 'b'],
      ['logs', 'stray'],
      ['notifications', '--forward-to', 'http://x'],
      ['listen'],
      ['listen', '--forward-to', 'localhost:3000'],
      ['logs', '--forward-to', 'http://x'],
    ]) {
      assert.throws(() => parseCliArgs(argv), CliArgsError, argv.join(' '));
    }
    assert.throws(() => parseCliArgs(['listen']), /needs --forward-to URL/);
  });

  test('the help names them, within its width', () => {
    for (const text of ['svc-sandbox logs', 'svc-sandbox listen --forward-to', '--quiet', '--api-key'])
      assert.ok(HELP_TEXT.includes(text), text);
    for (const line of HELP_TEXT.split('\n')) assert.ok(line.length <= HELP_WIDTH, line);
  });

  test('a forward URL without a path keeps each delivery’s own path', () => {
    assert.equal(
      forwardTarget('http://localhost:3000', 'https://shop.example/svc/notify?x=1'),
      'http://localhost:3000/svc/notify?x=1',
    );
    assert.equal(
      forwardTarget('http://localhost:3000/hook', 'https://shop.example/svc/notify'),
      'http://localhost:3000/hook',
    );
  });
});
