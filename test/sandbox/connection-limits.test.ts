/**
 * Slow and idle connections are closed, with raw sockets: a connection that sends nothing, one that sends
 * a header a byte at a time (slowloris), one kept alive after its answer. A connection whose answer the
 * sandbox is still working on stays open. At the open-files limit the sandbox keeps serving.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type Sandbox, startSandbox } from '../../src/sandbox/sandbox.js';

/** Opens a raw socket to the sandbox; resolves once connected. */
async function rawSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  return socket;
}

/** Resolves with what the server sent once it closed the socket, or `open` if it did not within `ms`. */
function closedWithin(socket: Socket, ms: number): Promise<string | 'open'> {
  let received = '';
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
  });
  return new Promise((resolveClosed) => {
    const timer = setTimeout(() => resolveClosed('open'), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolveClosed(received);
    });
  });
}

describe('slow and idle connections', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({
      port: 0,
      connectionTimeouts: { headersMs: 200, requestMs: 400, keepAliveMs: 100, idleMs: 300 },
    });
  });
  after(() => sandbox.close());

  test('a connection that never sends a request is closed', async () => {
    const socket = await rawSocket(sandbox.port);
    // Far beyond the idle and header timeouts; closed well before.
    assert.notEqual(await closedWithin(socket, 5_000), 'open');
  });

  test('a header sent a byte at a time (slowloris) is cut', async () => {
    const socket = await rawSocket(sandbox.port);
    const closed = closedWithin(socket, 5_000);
    const header = 'GET /sandbox/health HTTP/1.1\r\nHost: sandbox\r\nX-Slow: ';
    let sent = 0;
    const drip = setInterval(() => {
      if (socket.destroyed) return;
      socket.write(sent < header.length ? header[sent]! : 'a');
      sent++;
    }, 20);
    const outcome = await closed;
    clearInterval(drip);
    assert.notEqual(outcome, 'open', 'the slow header was cut');
    assert.doesNotMatch(outcome, /HTTP\/1\.1 200/, 'and never answered');
  });

  test('a kept-alive connection is closed after its answer once idle; a fresh one is served', async () => {
    const socket = await rawSocket(sandbox.port);
    const closed = closedWithin(socket, 5_000);
    socket.write('GET /sandbox/health HTTP/1.1\r\nHost: sandbox\r\n\r\n');
    const outcome = await closed;
    assert.match(outcome, /^HTTP\/1\.1 200/);
    assert.equal((await fetch(`${sandbox.url}/sandbox/health`)).status, 200);
  });
});

describe('at the open-files limit', () => {
  test('the sandbox keeps running, and serves again once the idle sockets that took every file are closed', async (t) => {
    // A sandbox in a child process limited to 160 open files; this process opens 300 idle sockets to it.
    const script = `
      import { startSandbox } from ${JSON.stringify(new URL('../../src/sandbox/sandbox.ts', import.meta.url).pathname)};
      const sandbox = await startSandbox({ port: 0, connectionTimeouts: { idleMs: 500, headersMs: 400, requestMs: 800 } });
      console.log('PORT ' + sandbox.port);
    `;
    const child = spawn(
      'sh',
      ['-c', `ulimit -n 160 && exec "${process.execPath}" --import tsx --input-type=module -e "$SCRIPT"`],
      { env: { ...process.env, SCRIPT: script }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    t.after(() => child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let stdout = '';
    const port = await new Promise<number>((resolvePort, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /PORT (\d+)/.exec(stdout);
        if (match) resolvePort(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}): ${stderr}`)));
    });
    const sockets = await Promise.all(
      Array.from({ length: 300 }, () => rawSocket(port).catch(() => undefined)),
    );
    t.after(() => {
      for (const socket of sockets) socket?.destroy();
    });
    assert.ok(
      sockets.filter(Boolean).length > 160,
      'more connections are open than the sandbox has files: the limit is reached',
    );
    // Served again once the idle sockets are closed, without anyone closing them from this side.
    let status = 0;
    // A bound on tries, not a timing: without the idle timeout no try is ever answered.
    for (let tries = 0; status !== 200 && tries < 40; tries++) {
      status = await fetch(`http://127.0.0.1:${port}/sandbox/health`, {
        signal: AbortSignal.timeout(2_000),
      }).then(
        (answer) => answer.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolveWait) => setTimeout(resolveWait, 250));
    }
    assert.equal(child.exitCode, null, `the sandbox is still running: ${stderr}`);
    assert.equal(status, 200, 'a request is served again');
  });
});
