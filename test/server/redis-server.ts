/**
 * A real Redis server for the tests of the Redis cache store: Debian's `redis-server` on a free loopback
 * port, without persistence, in a temporary directory that is removed when it stops. CI installs it with
 * `apt-get install -y redis-server`; `REDIS_SERVER` names another binary.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const REDIS_SERVER = process.env['REDIS_SERVER'] ?? '/usr/bin/redis-server';

/** A running Redis server. */
export interface RedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Stops the server and removes its directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No port from the probe server');
  return address.port;
}

/** Resolves once the server logs that it accepts connections; rejects with its log when it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const onData = (chunk: Buffer) => {
      log += chunk.toString('utf8');
      if (log.includes('Ready to accept connections')) {
        // Keep draining the pipes, or the server blocks once its log fills them.
        child.stdout?.off('data', onData).resume();
        child.stderr?.off('data', onData).resume();
        child.off('exit', onExit).off('error', onError);
        resolve();
      }
    };
    const onExit = (code: number | null) =>
      reject(new Error(`redis-server exited (${code}) before it was ready:\n${log}`));
    const onError = (error: Error) => reject(error);
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit).once('error', onError);
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts `redis-server` on a free port, or on `port` (to bring back one a test stopped, where its clients
 * reconnect). A free port is probed first, so another process may take it in between; a start that fails
 * on a taken port is retried on a new one.
 * @throws Error naming the apt package when the binary is missing.
 */
export async function startRedisServer(options: { port?: number } = {}): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: install Debian's Redis (apt-get install -y redis-server) or set REDIS_SERVER`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'svc-redis-'));
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = options.port ?? (await freePort());
    const child = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      await ready(child);
    } catch (error) {
      lastError = error;
      await stopped(child);
      const taken = error instanceof Error && error.message.includes('Address already in use');
      if (taken && options.port === undefined) continue;
      break;
    }
    return {
      url: `redis://127.0.0.1:${port}`,
      port,
      stop: async () => {
        await stopped(child);
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw lastError;
}
