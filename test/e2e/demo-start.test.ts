import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DemoStartError, parseDemoArgs } from '../../demo/start.js';

const START = fileURLToPath(new URL('../../demo/start.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

/** Runs `npm start`'s program in a folder of its own (its `.sandbox` goes there) until it exits. */
async function runStart(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn(process.execPath, ['--import', TSX, START, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGTERM'), 30_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe('npm start: ports', () => {
  test('from flags, else PORT and SANDBOX_PORT, else 5173 and 4010', () => {
    assert.deepEqual(parseDemoArgs([], {}), { shopPort: 5173, sandboxPort: 4010 });
    assert.deepEqual(parseDemoArgs([], { PORT: '3000', SANDBOX_PORT: '4011' }), {
      shopPort: 3000,
      sandboxPort: 4011,
    });
    assert.deepEqual(
      parseDemoArgs(['--port', '3001', '--sandbox-port=0'], { PORT: '3000', SANDBOX_PORT: '4011' }),
      {
        shopPort: 3001,
        sandboxPort: 0,
      },
    );
  });

  test('a wrong port or flag is refused by its name', () => {
    assert.throws(() => parseDemoArgs([], { SANDBOX_PORT: 'x' }), {
      name: 'Error',
      message: 'SANDBOX_PORT "x" is not a port; give a number from 0 to 65535.',
    });
    assert.throws(() => parseDemoArgs(['--port', '70000'], {}), /^Error: --port "70000" is not a port/);
    assert.throws(
      () => parseDemoArgs(['--sandbox', '1'], {}),
      (error: Error) => error instanceof DemoStartError && /--sandbox-port/.test(error.message),
    );
  });

  describe('a busy port', () => {
    let busy: Server;
    let port: number;
    let cwd: string;
    before(async () => {
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      port = (busy.address() as { port: number }).port;
      cwd = await mkdtemp(join(tmpdir(), 'svc-demo-start-'));
    });
    after(async () => {
      busy.close();
      await rm(cwd, { recursive: true, force: true });
    });

    test("the gateway's is one line naming --sandbox-port and SANDBOX_PORT", {
      timeout: 60_000,
    }, async () => {
      const run = await runStart(cwd, ['--port', '0'], { SANDBOX_PORT: String(port) });
      assert.equal(run.code, 1, run.stderr);
      assert.equal(
        run.stderr,
        `npm start: Port ${port} (the gateway's) is in use. Start with another: npm start -- --sandbox-port <port>, or SANDBOX_PORT=<port> npm start (0 picks a free one).\n`,
      );
    });

    test("the shop's is one line naming --port and PORT", { timeout: 60_000 }, async () => {
      const run = await runStart(cwd, ['--port', String(port), '--sandbox-port', '0']);
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        /^npm start: Port \d+ \(the shop's\) is in use\. Start with another: npm start -- --port <port>, or PORT=<port> npm start/,
      );
      assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
    });
  });
});
