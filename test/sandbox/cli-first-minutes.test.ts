import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CliArgsError, HELP_TEXT, HELP_WIDTH, parseCliArgs } from '../../src/sandbox/cli-args.js';
import { loadConfig, type SandboxConfigFile } from '../../src/sandbox/config.js';
import { INIT_HELP_TEXT, parseInitArgs, writeInitFiles } from '../../src/sandbox/init-command.js';

const CLI = fileURLToPath(new URL('../../src/sandbox/cli.ts', import.meta.url));
const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sandbox-first-'));
  dirs.push(dir);
  return dir;
}

function refused(read: () => unknown): CliArgsError {
  try {
    read();
  } catch (error) {
    assert.ok(error instanceof CliArgsError, String(error));
    return error;
  }
  assert.fail('accepted');
}

/** Runs the CLI until `until` matches its output, then stops it with SIGTERM; its whole output. */
async function runCli(args: string[], until?: RegExp): Promise<{ output: string; code: number | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    if (until?.test(output)) child.kill('SIGTERM');
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { output, code };
}

describe('svc-sandbox --allow-origin', () => {
  test('is repeatable, and refuses what is not an origin by naming it', () => {
    const request = parseCliArgs([
      '--allow-origin',
      'http://localhost:3000',
      '--allow-origin=https://shop.test',
    ]);
    assert.ok(request.kind === 'run');
    assert.deepEqual(request.allowOrigins, ['http://localhost:3000', 'https://shop.test']);
    assert.match(
      refused(() => parseCliArgs(['--allow-origin', 'localhost:3000'])).message,
      /^--allow-origin "localhost:3000" must be an origin/,
    );
    assert.match(
      refused(() => parseCliArgs(['--allow-origin', 'https://shop.test/'])).message,
      /must be an origin/,
    );
  });

  test('the help texts stay within 80 columns', () => {
    for (const text of [HELP_TEXT, INIT_HELP_TEXT]) {
      for (const line of text.split('\n')) assert.ok(line.length <= HELP_WIDTH, line);
    }
  });
});

describe('svc-sandbox init', () => {
  test('reads --dir, --shop-origin and --force, and refuses a wrong flag or origin', () => {
    assert.deepEqual(parseInitArgs([]), {
      kind: 'init',
      dir: '.',
      shopOrigin: 'http://localhost:3000',
      force: false,
    });
    assert.deepEqual(parseInitArgs(['--dir', 'gw', '--shop-origin', 'https://shop.test', '--force']), {
      kind: 'init',
      dir: 'gw',
      shopOrigin: 'https://shop.test',
      force: true,
    });
    assert.equal(parseInitArgs(['--help']).kind, 'help');
    assert.match(refused(() => parseInitArgs(['--dri', 'x'])).message, /^init: Unknown option '--dri'/);
    assert.match(refused(() => parseInitArgs(['--shop-origin', 'shop.test'])).message, /must be an origin/);
  });

  test('writes a config that loads, with the private key at mode 0600, and overwrites nothing without --force', async () => {
    const dir = join(await freshDir(), 'gateway');
    const written = await writeInitFiles({
      kind: 'init',
      dir,
      shopOrigin: 'http://localhost:3000',
      force: false,
    });
    const config = loadConfig(written.configFile);
    const merchant = config.merchants[0]!;
    assert.equal(merchant.allowLoopbackOrigins, true);
    assert.equal(merchant.certificates[0]!.name, 'main');
    assert.deepEqual(
      (JSON.parse(readFileSync(written.configFile, 'utf8')) as SandboxConfigFile).merchants[0]!.defaults,
      { currency: 'EUR', taxRate: '0.21', language: 'en' },
      'written out, where the merchant sees and changes them',
    );
    assert.equal(statSync(written.privateKeyFile).mode & 0o777, 0o600);
    const key = readFileSync(written.privateKeyFile, 'utf8');
    assert.match(key, /^-----BEGIN PRIVATE KEY-----/);

    await assert.rejects(
      writeInitFiles({ kind: 'init', dir, shopOrigin: 'http://localhost:3000', force: false }),
      (error: Error) => error instanceof CliArgsError && /there already; give --force/.test(error.message),
    );
    assert.equal(readFileSync(written.privateKeyFile, 'utf8'), key);

    const again = await writeInitFiles({
      kind: 'init',
      dir,
      shopOrigin: 'http://localhost:3000',
      force: true,
    });
    assert.notEqual(readFileSync(again.privateKeyFile, 'utf8'), key);
    assert.equal(statSync(again.privateKeyFile).mode & 0o777, 0o600);
  });

  test('--force replaces a symbolic link in the place of a file, and never writes the key through it', async () => {
    const dir = join(await freshDir(), 'gateway');
    const elsewhere = join(await freshDir(), 'precious.txt');
    writeFileSync(elsewhere, 'not yours\n', { mode: 0o644 });
    const written = await writeInitFiles({
      kind: 'init',
      dir,
      shopOrigin: 'http://localhost:3000',
      force: false,
    });
    const { privateKeyFile } = written;
    await rm(privateKeyFile);
    symlinkSync(elsewhere, privateKeyFile);
    await assert.rejects(
      writeInitFiles({ kind: 'init', dir, shopOrigin: 'http://localhost:3000', force: false }),
      /there already/,
    );
    await writeInitFiles({ kind: 'init', dir, shopOrigin: 'http://localhost:3000', force: true });
    assert.equal(readFileSync(elsewhere, 'utf8'), 'not yours\n');
    assert.equal(statSync(elsewhere).mode & 0o777, 0o644);
    assert.equal(lstatSync(privateKeyFile).isSymbolicLink(), false);
    assert.match(readFileSync(privateKeyFile, 'utf8'), /^-----BEGIN PRIVATE KEY-----/);
    assert.equal(statSync(privateKeyFile).mode & 0o777, 0o600);
  });

  test('prints what goes in the page and the server; the sandbox starts on it and takes --allow-origin', {
    timeout: 60_000,
  }, async () => {
    const dir = await freshDir();
    const init = await runCli(['init', '--dir', dir]);
    assert.equal(init.code, 0, init.output);
    const widgetId = /widget id\s+(\S+)/.exec(init.output)?.[1];
    assert.ok(widgetId, init.output);
    for (const part of [
      'certificate name  main',
      `private key file  ${join(dir, 'merchant-private-key.pem')}`,
      'gateway URL       http://127.0.0.1:4010',
      // createNotificationReceiver requires them, and a config that leaves them out shows none.
      "widget defaults   { currency: 'EUR', taxRate: 0.21 }  (createNotificationReceiver's defaults)",
      'npx -p svc-checkout svc-sandbox --config',
      `widget-id="${widgetId}"`,
    ]) {
      assert.ok(init.output.includes(part), `${part} in:\n${init.output}`);
    }
    const again = await runCli(['init', '--dir', dir]);
    assert.equal(again.code, 2, again.output);
    assert.match(again.output, /^svc-sandbox: init: .*there already; give --force/);

    const dataDir = await freshDir();
    const started = await runCli(
      [
        '--port',
        '0',
        '--config',
        join(dir, 'sandbox.json'),
        '--data-dir',
        dataDir,
        '--allow-origin',
        'https://shop.test',
      ],
      /pages allowed: .*\n/,
    );
    assert.match(
      started.output,
      /pages allowed: http:\/\/localhost:3000, https:\/\/shop\.test, any localhost or 127\.0\.0\.1 port {2}\(my-shop\)/,
    );
  });
});

describe('svc-sandbox on a port in use', () => {
  test('stops with one line naming the port and --port', { timeout: 60_000 }, async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const run = await runCli(['--port', String(port)]);
      assert.equal(run.code, 1, run.output);
      assert.equal(
        run.output,
        `svc-sandbox: port ${port} of 127.0.0.1 is in use (a sandbox still running?); stop what runs there, or choose another with --port (0 picks a free one)\n`,
      );
    } finally {
      busy.close();
    }
  });
});

describe('svc-sandbox without --data-dir', () => {
  test('removes its temporary folder of keys on SIGTERM', { timeout: 60_000 }, async () => {
    const run = await runCli(['--port', '0'], /v1 brand id/);
    assert.equal(run.code, 0, run.output);
    const keyDir = /keys \(state in memory\): (\S+)/.exec(run.output)?.[1];
    assert.ok(keyDir, run.output);
    assert.equal(existsSync(keyDir), false, `${keyDir} is still there`);
  });
});
